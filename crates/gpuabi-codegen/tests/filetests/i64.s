	.text
	.globl k
k:
	s_load_dwordx2 s[0:1], s[4:5], 0
	s_load_dwordx2 s[2:3], s[4:5], 8
	s_load_dword s7, s[4:5], 28
	s_load_dword s4, s[4:5], 56
	s_waitcnt lgkmcnt(0)
	s_and_b32 s5, s7, 0xffff
	s_mul_i32 s5, s6, s5
	s_add_u32 s4, s5, s4
	v_add_nc_u32 v0, v0, s4
.Lk_1:
	v_mov_b32 v1, v0
	v_mov_b32 v2, 0
	v_mul_lo_u32 v3, v1, s0
	v_mul_hi_u32 v5, v1, s0
	v_mul_lo_u32 v6, v1, s1
	v_mul_lo_u32 v1, v2, s0
	v_add_nc_u32 v2, v5, v6
	v_add_nc_u32 v1, v2, v1
	v_mov_b32 v4, v1
	v_lshlrev_b64 v[1:2], 3, v[3:4]
	v_add_co_u32 v3, s4, v1, s0
	v_add_co_ci_u32 v4, s4, v2, s1, s4
	v_xor_b32 v1, v4, 0x80000000
	v_xor_b32 v2, s1, 0x80000000
	v_sub_co_u32 v5, s4, v3, s0
	v_sub_co_ci_u32 v6, s4, v1, v2, s4
	v_cndmask_b32 v1, s0, v3, s4
	v_cndmask_b32 v2, s1, v4, s4
	v_mul_lo_u32 v0, v0, 8
	v_mov_b32 v3, v0
	v_ashrrev_i32 v4, 31, v0
	v_add_co_u32 v5, s0, s2, v3
	v_add_co_ci_u32 v6, s0, s3, v4, s0
	global_store_dwordx2 v[5:6], v[1:2], off
.Lk_2:
	s_endpgm
