	.text
	.globl k
k:
	s_load_b32 s3, s[0:1], 0
	s_load_b32 s4, s[0:1], 4
	s_load_b64 s[6:7], s[0:1], 8
	s_load_b32 s5, s[0:1], 28
	s_load_b32 s0, s[0:1], 56
	s_waitcnt lgkmcnt(0)
	s_and_b32 s1, s5, 0xffff
	v_and_b32 v0, 0x3ff, v0
	s_mul_i32 s1, s2, s1
	s_add_u32 s0, s1, s0
	v_add_nc_u32 v0, v0, s0
	scratch_store_b32 off, v0, off
.Lk_1:
	scratch_load_b32 v0, off, off
	s_waitcnt vmcnt(0)
	v_add_nc_u32 v0, v0, 1
	scratch_load_b32 v1, off, off
	s_waitcnt vmcnt(0)
	v_add_nc_u32 v1, v1, 2
	scratch_load_b32 v2, off, off
	s_waitcnt vmcnt(0)
	v_add_nc_u32 v2, v2, 3
	scratch_load_b32 v3, off, off
	s_waitcnt vmcnt(0)
	v_add_nc_u32 v3, v3, 4
	scratch_load_b32 v4, off, off
	s_waitcnt vmcnt(0)
	v_add_nc_u32 v4, v4, 5
	scratch_load_b32 v5, off, off
	s_waitcnt vmcnt(0)
	v_add_nc_u32 v5, v5, 6
	scratch_load_b32 v6, off, off
	s_waitcnt vmcnt(0)
	v_add_nc_u32 v6, v6, 7
	scratch_load_b32 v7, off, off
	s_waitcnt vmcnt(0)
	v_add_nc_u32 v7, v7, 8
	s_mul_i32 s0, s3, s4
	s_add_u32 s1, s3, s4
	v_add_nc_u32 v0, v0, v1
	v_add_nc_u32 v0, v0, v2
	v_add_nc_u32 v0, v0, v3
	v_add_nc_u32 v0, v0, v4
	v_add_nc_u32 v0, v0, v5
	v_add_nc_u32 v0, v0, v6
	v_add_nc_u32 v0, v0, v7
	v_add_nc_u32 v0, v0, s0
	v_add_nc_u32 v0, v0, s1
	scratch_load_b32 v1, off, off
	s_waitcnt vmcnt(0)
	v_mul_lo_u32 v1, v1, 4
	v_mov_b32 v2, v1
	v_ashrrev_i32 v3, 31, v1
	v_add_co_u32 v4, s0, s6, v2
	v_add_co_ci_u32 v5, s0, s7, v3, s0
	global_store_b32 v[4:5], v0, off
.Lk_2:
	s_endpgm
