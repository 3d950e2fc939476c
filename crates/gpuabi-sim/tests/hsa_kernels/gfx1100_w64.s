; gpuabi: target=gfx1100 wave=64
; The kernel of gfx8.s for GFX11 in wave64: work-item ids packed in v0 (x | y << 10 |
; z << 20), architected flat scratch (per-lane `scratch_*`, no private segment buffer or
; wave offset), user SGPR count 4: s[0:1] dispatch ptr, s[2:3] kernarg ptr,
; s4/s5/s6 work-group id x/y/z.
	.text
main:
	v_lshrrev_b32 v1, 10, v0                  ; unpack work-item ids y, z, x
	v_and_b32 v1, 0x3ff, v1
	v_lshrrev_b32 v2, 20, v0
	v_and_b32 v2, 0x3ff, v2
	v_and_b32 v0, 0x3ff, v0
	s_load_b64 s[20:21], s[2:3], 0x0          ; out
	s_load_b64 s[22:23], s[2:3], 0x8          ; n, f
	s_load_b128 s[24:27], s[2:3], 0x10        ; block count x/y/z, group size x | y << 16
	s_load_b64 s[28:29], s[2:3], 0x20         ; group size z | remainder x << 16, remainder y | z << 16
	s_load_b32 s30, s[2:3], 0x38              ; global offset x (low dword)
	s_load_b32 s31, s[2:3], 0x50              ; grid dims
	s_load_b32 s32, s[0:1], 0xc               ; dispatch packet grid_size_x
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
	s_mul_i32 s40, s4, s33                    ; first work-item of the group in x, y, z
	s_mul_i32 s41, s5, s34
	s_mul_i32 s42, s6, s35
	v_add_nc_u32 v3, s40, v0                  ; global id x, y, z
	v_add_nc_u32 v4, s41, v1
	v_add_nc_u32 v5, s42, v2
	v_mul_lo_u32 v6, v5, s39
	v_add_nc_u32 v6, v6, v4
	v_mul_lo_u32 v6, v6, s38
	v_add_nc_u32 v6, v6, v3                   ; linear global id
	s_movk_i32 s43, 0x50
	v_mul_lo_u32 v6, v6, s43                  ; byte offset of the record (80 bytes each)
	v_mov_b32 v7, 0                           ; private segment: dwords 0 and 1 of the lane
	v_add_nc_u32 v8, 7, v3
	scratch_store_b32 v7, v8, off
	scratch_store_b32 v7, v6, off offset:4
	scratch_load_b32 v10, v7, off
	scratch_load_b32 v11, v7, off offset:4
	s_waitcnt vmcnt(0)
	v_mov_b32 v12, s4
	global_store_b32 v6, v12, s[20:21]
	v_mov_b32 v12, s5
	global_store_b32 v6, v12, s[20:21] offset:4
	v_mov_b32 v12, s6
	global_store_b32 v6, v12, s[20:21] offset:8
	global_store_b32 v6, v0, s[20:21] offset:12
	global_store_b32 v6, v1, s[20:21] offset:16
	global_store_b32 v6, v2, s[20:21] offset:20
	v_mov_b32 v12, s2
	global_store_b32 v6, v12, s[20:21] offset:24
	v_mov_b32 v12, s3
	global_store_b32 v6, v12, s[20:21] offset:28
	v_mov_b32 v12, s24
	global_store_b32 v6, v12, s[20:21] offset:32
	v_mov_b32 v12, s25
	global_store_b32 v6, v12, s[20:21] offset:36
	v_mov_b32 v12, s27
	global_store_b32 v6, v12, s[20:21] offset:40
	v_mov_b32 v12, s28
	global_store_b32 v6, v12, s[20:21] offset:44
	v_mov_b32 v12, s29
	global_store_b32 v6, v12, s[20:21] offset:48
	v_mov_b32 v12, s30
	global_store_b32 v6, v12, s[20:21] offset:52
	v_mov_b32 v12, s31
	global_store_b32 v6, v12, s[20:21] offset:56
	v_mov_b32 v12, s22
	global_store_b32 v6, v12, s[20:21] offset:60
	v_mov_b32 v12, s23
	global_store_b32 v6, v12, s[20:21] offset:64
	v_mov_b32 v12, s32
	global_store_b32 v6, v12, s[20:21] offset:68
	global_store_b32 v6, v10, s[20:21] offset:72
	global_store_b32 v6, v11, s[20:21] offset:76
	s_endpgm
