; gpuabi: target=gfx8 wave=64
; The OpenCL kernel of catalyst_scale.cl written by hand for the Catalyst ABI on GCN 1.2
; (spec catalyst-abi.md): `gpuabi catalyst layout catalyst_scale.cl --device tonga --dims x`
; gives s[4:7] = UAV 12 (out), s[8:11] = cb0, s[12:15] = cb1, s16 = group id x, v0 = local
; id x. GCN 1.2 scalar loads take byte offsets.
	.text
main:
	s_buffer_load_dword s20, s[8:11], 0x10     ; cb0 dword 4: local size x
	s_buffer_load_dword s21, s[8:11], 0x60     ; cb0 dword 24: global offset x
	s_buffer_load_dword s22, s[12:15], 0x0     ; cb1 out: byte offset into UAV 12
	s_buffer_load_dword s23, s[12:15], 0x10    ; cb1 factor
	s_buffer_load_dword s24, s[12:15], 0x20    ; cb1 bias
	s_waitcnt lgkmcnt(0)
	s_mul_i32 s25, s16, s20                    ; group id * local size
	s_add_u32 s25, s25, s21                    ; + global offset
	v_add_u32 v1, vcc, s25, v0                 ; global id
	v_mul_lo_u32 v2, v1, s23                   ; gid * factor
	v_add_u32 v2, vcc, s24, v2                 ; + bias
	v_lshlrev_b32 v3, 2, v1
	v_add_u32 v3, vcc, s22, v3                 ; &out[gid] within the UAV
	buffer_store_dword v2, v3, s[4:7], 0 offen
	s_endpgm
