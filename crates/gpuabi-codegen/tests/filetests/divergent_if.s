	.text
	.globl k
k:
	s_load_dwordx2 s[0:1], s[4:5], 0
	s_load_dword s2, s[4:5], 20
	s_load_dword s3, s[4:5], 48
	s_waitcnt lgkmcnt(0)
	s_and_b32 s2, s2, 0xffff
	s_mul_i32 s2, s6, s2
	s_add_u32 s2, s2, s3
	v_add_nc_u32 v0, v0, s2
.Lk_1:
	v_and_b32 v1, v0, 1
	v_cmp_eq_u32 s[2:3], v1, 1
	s_and_saveexec_b64 s[4:5], s[2:3]
	s_cbranch_execz .Lk_3
.Lk_2:
	v_cvt_f32_u32 v1, v0
	v_mul_f32 v1, v1, 0x3f000000
.Lk_3:
	s_andn2_b64 exec, s[4:5], s[2:3]
	s_cbranch_execz .Lk_5
.Lk_4:
	v_mov_b32 v1, 0x40000000
.Lk_5:
	s_mov_b64 exec, s[4:5]
	v_mul_lo_u32 v0, v0, 4
	v_mov_b32 v2, v0
	v_ashrrev_i32 v3, 31, v0
	v_add_co_u32 v4, s[2:3], s0, v2
	v_add_co_ci_u32 v5, s[0:1], s1, v3, s[2:3]
	global_store_dword v[4:5], v1, off
.Lk_6:
	s_endpgm
