; gpuabi: target=gfx8 wave=64
; An AMDHSA kernel that stores, per work-item, a record of 20 dwords: its work-group and
; work-item ids, its kernarg pointer, hidden arguments, explicit arguments, a dispatch
; packet field and two dwords written to and read back from its private segment.
; Arguments: out (global_buffer @0), n (i32 @8), f (f32 @12); hidden area @16.
; Descriptor: private segment buffer, dispatch ptr, kernarg ptr, work-group ids x/y/z,
; private segment wavefront offset, work-item ids x/y/z. AMDHSA order:
; s[0:3] private segment buffer, s[4:5] dispatch ptr, s[6:7] kernarg ptr,
; s8/s9/s10 work-group id x/y/z, s11 wave offset; v0/v1/v2 work-item id x/y/z.
	.text
main:
	s_load_dwordx2 s[20:21], s[6:7], 0x0      ; out
	s_load_dwordx2 s[22:23], s[6:7], 0x8      ; n, f
	s_load_dwordx4 s[24:27], s[6:7], 0x10     ; block count x/y/z, group size x | y << 16
	s_load_dwordx2 s[28:29], s[6:7], 0x20     ; group size z | remainder x << 16, remainder y | z << 16
	s_load_dword s30, s[6:7], 0x38            ; global offset x (low dword)
	s_load_dword s31, s[6:7], 0x50            ; grid dims
	s_load_dword s32, s[4:5], 0xc             ; dispatch packet grid_size_x
	s_waitcnt lgkmcnt(0)
	s_and_b32 s33, s27, 0xffff                ; group size x
	s_lshr_b32 s34, s27, 16                   ; group size y
	s_and_b32 s35, s28, 0xffff                ; group size z
	s_lshr_b32 s36, s28, 16                   ; remainder x
	s_and_b32 s37, s29, 0xffff                ; remainder y
	s_mul_i32 s38, s24, s33                   ; global size x = block count x * group size x
	s_add_u32 s38, s38, s36                   ;   + remainder x
	s_mul_i32 s39, s25, s34                   ; global size y
	s_add_u32 s39, s39, s37
	s_mul_i32 s40, s8, s33                    ; first work-item of the group in x, y, z
	s_mul_i32 s41, s9, s34
	s_mul_i32 s42, s10, s35
	v_add_u32 v3, vcc, s40, v0                ; global id x, y, z
	v_add_u32 v4, vcc, s41, v1
	v_add_u32 v5, vcc, s42, v2
	v_mul_lo_u32 v6, v5, s39
	v_add_u32 v6, vcc, v6, v4
	v_mul_lo_u32 v6, v6, s38
	v_add_u32 v6, vcc, v6, v3                 ; linear global id
	s_movk_i32 s43, 0x50
	v_mul_lo_u32 v6, v6, s43                  ; byte offset of the record (80 bytes each)
	s_mov_b32 s44, s20                        ; raw buffer descriptor over out
	s_and_b32 s45, s21, 0xffff
	s_mov_b32 s46, -1
	s_mov_b32 s47, 0
	v_mov_b32 v7, 0                           ; private segment: dwords 0 and 1 of the lane
	v_add_u32 v8, vcc, 7, v3
	buffer_store_dword v8, v7, s[0:3], s11 offen
	buffer_store_dword v6, v7, s[0:3], s11 offen offset:4
	buffer_load_dword v10, v7, s[0:3], s11 offen
	buffer_load_dword v11, v7, s[0:3], s11 offen offset:4
	s_waitcnt vmcnt(0)
	v_mov_b32 v12, s8
	buffer_store_dword v12, v6, s[44:47], 0 offen
	v_mov_b32 v12, s9
	buffer_store_dword v12, v6, s[44:47], 0 offen offset:4
	v_mov_b32 v12, s10
	buffer_store_dword v12, v6, s[44:47], 0 offen offset:8
	buffer_store_dword v0, v6, s[44:47], 0 offen offset:12
	buffer_store_dword v1, v6, s[44:47], 0 offen offset:16
	buffer_store_dword v2, v6, s[44:47], 0 offen offset:20
	v_mov_b32 v12, s6
	buffer_store_dword v12, v6, s[44:47], 0 offen offset:24
	v_mov_b32 v12, s7
	buffer_store_dword v12, v6, s[44:47], 0 offen offset:28
	v_mov_b32 v12, s24
	buffer_store_dword v12, v6, s[44:47], 0 offen offset:32
	v_mov_b32 v12, s25
	buffer_store_dword v12, v6, s[44:47], 0 offen offset:36
	v_mov_b32 v12, s27
	buffer_store_dword v12, v6, s[44:47], 0 offen offset:40
	v_mov_b32 v12, s28
	buffer_store_dword v12, v6, s[44:47], 0 offen offset:44
	v_mov_b32 v12, s29
	buffer_store_dword v12, v6, s[44:47], 0 offen offset:48
	v_mov_b32 v12, s30
	buffer_store_dword v12, v6, s[44:47], 0 offen offset:52
	v_mov_b32 v12, s31
	buffer_store_dword v12, v6, s[44:47], 0 offen offset:56
	v_mov_b32 v12, s22
	buffer_store_dword v12, v6, s[44:47], 0 offen offset:60
	v_mov_b32 v12, s23
	buffer_store_dword v12, v6, s[44:47], 0 offen offset:64
	v_mov_b32 v12, s32
	buffer_store_dword v12, v6, s[44:47], 0 offen offset:68
	buffer_store_dword v10, v6, s[44:47], 0 offen offset:72
	buffer_store_dword v11, v6, s[44:47], 0 offen offset:76
	s_endpgm
