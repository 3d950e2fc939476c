	.text
	.globl k
k:
	s_load_b32 s3, s[0:1], 0
	s_load_b32 s4, s[0:1], 4
	s_load_b32 s5, s[0:1], 8
	s_load_b64 s[6:7], s[0:1], 16
	s_load_b64 s[8:9], s[0:1], 24
	s_load_b32 s10, s[0:1], 44
	s_load_b32 s0, s[0:1], 0x48
	s_wait_kmcnt 0
	s_and_b32 s1, s10, 0xffff
	v_and_b32 v0, 0x3ff, v0
	s_mul_i32 s1, s2, s1
	s_add_co_u32 s0, s1, s0
	v_add_nc_u32 v0, v0, s0
.Lk_1:
	s_add_f32 s0, s3, s4
	s_mul_f32 s0, s0, s4
	s_floor_f32 s0, s0
	s_max_num_f32 s0, s0, s3
	s_cvt_f32_u32 s1, s5
	s_sub_f32 s0, s0, s1
	s_cvt_i32_f32 s0, s0
	s_cmp_lt_f32 s3, s4
	s_cselect_b32 s1, 1, 0
	s_cmp_lg_u32 s1, 0
	s_cselect_b32 s0, s0, s5
	s_mul_u64 s[2:3], s[6:7], s[6:7]
	s_add_nc_u64 s[2:3], s[2:3], s[6:7]
	v_mul_lo_u32 v0, v0, 4
	v_mov_b32 v1, v0
	v_ashrrev_i32 v2, 31, v0
	v_add_co_u32 v3, s1, s8, v1
	v_add_co_ci_u32 v4, s1, s9, v2, s1
	global_load_b32 v0, v[3:4], off
	s_mov_b32 s1, s2
	s_wait_loadcnt 0
	v_add_nc_u32 v0, v0, s1
	v_add_nc_u32 v0, v0, s0
	global_store_b32 v[3:4], v0, off
.Lk_2:
	s_endpgm
