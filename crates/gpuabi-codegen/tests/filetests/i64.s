	.text
	.globl k
k:
	v_mov_b32 v12, v0
	s_load_dwordx2 s[0:1], s[4:5], 0
	s_load_dwordx2 s[2:3], s[4:5], 8
	s_load_dword s7, s[4:5], 28
	s_load_dword s4, s[4:5], 56
	s_waitcnt lgkmcnt(0)
	s_and_b32 s5, s7, 0xffff
	s_mul_i32 s5, s6, s5
	s_add_u32 s5, s5, s4
	v_add_nc_u32 v12, v12, s5
.Lk_1:
	v_mov_b32 v10, v12
	v_mov_b32 v11, 0
	v_mul_lo_u32 v8, v10, s0
	v_mul_hi_u32 v13, v10, s0
	v_mul_lo_u32 v14, v10, s1
	v_mul_lo_u32 v10, v11, s0
	v_add_nc_u32 v11, v13, v14
	v_add_nc_u32 v10, v11, v10
	v_mov_b32 v9, v10
	v_lshlrev_b64 v[8:9], 3, v[8:9]
	v_add_co_u32 v6, s4, v8, s0
	v_add_co_ci_u32 v7, s4, v9, s1, s4
	v_xor_b32 v8, v7, 0x80000000
	v_xor_b32 v9, s1, 0x80000000
	v_sub_co_u32 v10, s4, v6, s0
	v_sub_co_ci_u32 v11, s4, v8, v9, s4
	v_cndmask_b32 v0, s0, v6, s4
	v_cndmask_b32 v1, s1, v7, s4
	v_mul_lo_u32 v6, v12, 8
	v_mov_b32 v4, v6
	v_ashrrev_i32 v5, 31, v6
	v_add_co_u32 v2, s0, s2, v4
	v_add_co_ci_u32 v3, s0, s3, v5, s0
	global_store_dwordx2 v[2:3], v[0:1], off
.Lk_2:
.Lk_3:
	s_endpgm
