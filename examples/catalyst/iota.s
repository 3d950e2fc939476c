// iota for Pitcairn (gfx6) under the Catalyst ABI, as `gpuabi catalyst layout
// examples/catalyst/iota.cl --dims x` lays it out: UAV 12 (out) in s[4:7], cb0 in s[8:11],
// cb1 in s[12:15], group id x in s16, local id x in v0. GCN 1.0 scalar loads take dword
// offsets: cb0 dword 4 is the local size x, dword 24 the global offset x; cb1 holds one
// argument per 16 bytes (base in dword 0, out's byte offset in its UAV in dword 4).
//
//   gpuabi catalyst build examples/catalyst/iota.s --source examples/catalyst/iota.cl \
//       --dims x -o iota.clo
	s_buffer_load_dword s0, s[8:11], 4
	s_buffer_load_dword s1, s[8:11], 24
	s_buffer_load_dword s2, s[12:15], 0
	s_buffer_load_dword s3, s[12:15], 4
	s_waitcnt lgkmcnt(0)
	s_mul_i32 s0, s16, s0
	s_add_u32 s0, s0, s1
	v_add_i32 v0, vcc, s0, v0
	v_add_i32 v1, vcc, s2, v0
	v_lshlrev_b32 v0, 2, v0
	v_add_i32 v0, vcc, s3, v0
	tbuffer_store_format_x v1, v0, s[4:7], 0 format:[BUF_DATA_FORMAT_32,BUF_NUM_FORMAT_FLOAT] offen
	s_endpgm
