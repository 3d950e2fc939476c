	.text
	.globl k
k:
	s_load_b64 s[4:5], s[0:1], 0
	s_load_b32 s3, s[0:1], 20
	s_load_b32 s0, s[0:1], 48
	s_waitcnt lgkmcnt(0)
	s_and_b32 s1, s3, 0xffff
	v_and_b32 v0, 0x3ff, v0
	s_mul_i32 s1, s2, s1
	s_add_u32 s0, s1, s0
	v_add_nc_u32 v0, v0, s0
.Lk_1:
	v_and_b32 v1, v0, 7
	v_dual_mov_b32 v2, 0 :: v_dual_mov_b32 v3, 0
	s_mov_b32 s0, 0
	s_mov_b32 s1, 0
.Lk_2:
	v_cmp_ge_u32 s2, v2, v1
	s_and_saveexec_b32 s2, s2
	s_cbranch_execz .Lk_4
.Lk_3:
	s_or_b32 s1, s1, exec_lo
	s_mov_b32 exec_lo, 0
.Lk_4:
.Lk_5:
	s_or_b32 s3, s0, s1
	s_and_not1_b32 exec_lo, s2, s3
	s_cbranch_execz .Lk_7
.Lk_6:
	v_add_nc_u32 v3, v3, v2
	v_add_nc_u32 v2, v2, 1
	s_or_b32 s0, s0, exec_lo
	s_mov_b32 exec_lo, 0
.Lk_7:
	s_mov_b32 exec_lo, s0
	s_mov_b32 s0, 0
	s_cbranch_execnz .Lk_2
.Lk_8:
	s_mov_b32 exec_lo, s1
	v_mul_lo_u32 v0, v0, 4
	v_mov_b32 v1, v0
	v_ashrrev_i32 v2, 31, v0
	v_add_co_u32 v4, s0, s4, v1
	v_add_co_ci_u32 v5, s0, s5, v2, s0
	global_store_b32 v[4:5], v3, off
.Lk_9:
	s_endpgm
