	.text
	.globl k
k:
	s_load_dwordx2 s[8:9], s[4:5], 0
	s_load_dword s10, s[4:5], 20
	s_load_dword s4, s[4:5], 48
	s_waitcnt lgkmcnt(0)
	s_and_b32 s5, s10, 0xffff
	s_mul_i32 s5, s6, s5
	s_add_u32 s4, s5, s4
	v_add_u32 v0, s[4:5], v0, s4
	v_mov_b32 v1, 0
	buffer_store_dword v1, off, s[0:3], s7
	buffer_store_dword v1, off, s[0:3], s7 offset:4
	buffer_store_dword v1, off, s[0:3], s7 offset:8
	buffer_store_dword v1, off, s[0:3], s7 offset:12
	buffer_store_dword v1, off, s[0:3], s7 offset:16
	buffer_store_dword v1, off, s[0:3], s7 offset:20
	buffer_store_dword v1, off, s[0:3], s7 offset:24
	buffer_store_dword v1, off, s[0:3], s7 offset:28
	buffer_store_dword v1, off, s[0:3], s7 offset:32
	buffer_store_dword v1, off, s[0:3], s7 offset:36
	buffer_store_dword v1, off, s[0:3], s7 offset:40
	buffer_store_dword v1, off, s[0:3], s7 offset:44
	buffer_store_dword v1, off, s[0:3], s7 offset:48
	buffer_store_dword v1, off, s[0:3], s7 offset:52
	buffer_store_dword v1, off, s[0:3], s7 offset:56
	buffer_store_dword v1, off, s[0:3], s7 offset:60
.Lk_1:
	v_and_b32 v1, v0, 15
	v_mul_lo_u32 v1, v1, 4
	v_add_u32 v2, s[4:5], v1, 0
	buffer_store_dword v0, v2, s[0:3], s7 offen
	v_add_u32 v1, s[4:5], v1, 0
	buffer_load_dword v1, v1, s[0:3], s7 offen
	buffer_load_dword v2, off, s[0:3], s7 offset:4
	s_waitcnt vmcnt(0)
	v_add_u32 v1, s[0:1], v1, v2
	v_mul_lo_u32 v0, v0, 4
	v_mov_b32 v1, v0
	v_ashrrev_i32 v2, 31, v0
	v_add_u32 v3, s[0:1], s8, v1
	v_mov_b32 v0, s9
	v_addc_u32 v4, s[0:1], v0, v2, s[0:1]
.Lk_2:
	s_endpgm
