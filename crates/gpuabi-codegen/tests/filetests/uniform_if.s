	.text
	.globl k
k:
	s_load_b32 s3, s[0:1], 0
	s_load_b64 s[4:5], s[0:1], 8
	s_load_b32 s6, s[0:1], 28
	s_load_b32 s0, s[0:1], 56
	s_waitcnt lgkmcnt(0)
	s_and_b32 s1, s6, 0xffff
	v_and_b32 v0, 0x3ff, v0
	s_mul_i32 s1, s2, s1
	s_add_u32 s0, s1, s0
	v_add_nc_u32 v0, v0, s0
.Lk_1:
	s_cmp_gt_u32 s3, 0x64
	s_cselect_b32 s0, 1, 0
	s_cmp_lg_u32 s0, 0
	s_cbranch_scc0 .Lk_3
.Lk_2:
	s_mul_i32 s0, s3, 3
	s_branch .Lk_4
.Lk_3:
	s_add_u32 s0, s3, 7
.Lk_4:
	v_mul_lo_u32 v0, v0, 4
	v_mov_b32 v1, v0
	v_ashrrev_i32 v2, 31, v0
	v_add_co_u32 v3, s1, s4, v1
	v_add_co_ci_u32 v4, s1, s5, v2, s1
	v_mov_b32 v0, s0
	global_store_b32 v[3:4], v0, off
.Lk_5:
	s_endpgm
