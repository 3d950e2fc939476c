BB0:
	s_or_saveexec_b32 s15, -1                                   ; be8f22c1
	scratch_store_b32 off, v95, s4 offset:92                    ; dc69005c 00045f80
	s_mov_b32 exec_lo, s15                                      ; befe000f
	v_cmp_eq_i64_e32 vcc_lo, s[2:3], v[0:1]                     ; 7ca40002
	s_and_saveexec_b32 s3, vcc_lo                               ; be83206a
BB1:
	s_mov_b32 s16, s5                                           ; be900005
	s_movk_i32 s17, 0x8000                                      ; b0118000
	s_load_b32 s16, s[16:17], null                              ; f4000408 f8000000
	s_movk_i32 s17, 0x8000                                      ; b0118000
	s_mov_b32 s18, s11                                          ; be92000b
	s_movk_i32 s19, 0x8000                                      ; b0138000
	s_waitcnt lgkmcnt(0)                                        ; bf89fc07
	s_clause 0x2                                                ; bf850002
	s_load_b64 s[16:17], s[16:17], null                         ; f4040408 f8000000
	s_load_b64 s[20:21], s[18:19], 0x10                         ; f4040509 f8000010
	s_load_b32 s2, s[18:19], 0x18                               ; f4000089 f8000018
	v_mov_b32_e32 v1, s9                                        ; 7e020209
	v_dual_mov_b32 v33, 0 :: v_dual_mov_b32 v0, s8              ; ca100080 21000008
	v_dual_mov_b32 v31, 0xff00000c :: v_dual_mov_b32 v32, 0     ; ca1000ff 1f200080 ff00000c
	v_dual_mov_b32 v35, 1 :: v_dual_mov_b32 v36, 0x3a83126f     ; ca100081 232400ff 3a83126f
	v_dual_mov_b32 v37, 0x42c80000 :: v_dual_mov_b32 v34, 0     ; ca1000ff 25220080 42c80000
	v_fma_f32 v28, v21, v24, v17                                ; d613001c 04463115
	v_fma_f32 v29, v22, v24, v18                                ; d613001d 044a3116
	v_fma_f32 v30, v23, v24, v19                                ; d613001e 044e3117
	s_add_u32 s15, s4, 0x1000                                   ; 800fff04 00001000
	s_clause 0x16                                               ; bf850016
	scratch_store_b32 off, v2, s15 offset:-4096                 ; dc691000 000f0280
	scratch_store_b32 off, v3, s15 offset:-4092                 ; dc691004 000f0380
	scratch_store_b32 off, v4, s15 offset:-4088                 ; dc691008 000f0480
	scratch_store_b32 off, v5, s15 offset:-4084                 ; dc69100c 000f0580
	scratch_store_b32 off, v13, s15 offset:-4080                ; dc691010 000f0d80
	scratch_store_b32 off, v14, s15 offset:-4076                ; dc691014 000f0e80
	scratch_store_b32 off, v15, s15 offset:-4072                ; dc691018 000f0f80
	scratch_store_b32 off, v16, s15 offset:-4068                ; dc69101c 000f1080
	scratch_store_b32 off, v17, s15 offset:-4064                ; dc691020 000f1180
	scratch_store_b32 off, v18, s15 offset:-4060                ; dc691024 000f1280
	scratch_store_b32 off, v19, s15 offset:-4056                ; dc691028 000f1380
	scratch_store_b32 off, v20, s15 offset:-4052                ; dc69102c 000f1480
	scratch_store_b32 off, v21, s15 offset:-4048                ; dc691030 000f1580
	scratch_store_b32 off, v22, s15 offset:-4044                ; dc691034 000f1680
	scratch_store_b32 off, v23, s15 offset:-4040                ; dc691038 000f1780
	scratch_store_b32 off, v6, s15 offset:-4036                 ; dc69103c 000f0680
	scratch_store_b32 off, v7, s15 offset:-4032                 ; dc691040 000f0780
	scratch_store_b32 off, v25, s15 offset:-4028                ; dc691044 000f1980
	scratch_store_b32 off, v8, s15 offset:-4024                 ; dc691048 000f0880
	scratch_store_b32 off, v9, s15 offset:-4020                 ; dc69104c 000f0980
	scratch_store_b32 off, v26, s15 offset:-4016                ; dc691050 000f1a80
	scratch_store_b32 off, v27, s15 offset:-4012                ; dc691054 000f1b80
	scratch_store_b32 off, v24, s15 offset:-4008                ; dc691058 000f1880
	v_dual_mov_b32 v6, v32 :: v_dual_mov_b32 v3, v33            ; ca100120 06020121
	v_dual_mov_b32 v8, v32 :: v_dual_mov_b32 v7, v33            ; ca100120 08060121
	v_dual_mov_b32 v14, v34 :: v_dual_mov_b32 v9, v33           ; ca100122 0e080121
	v_dual_mov_b32 v16, v34 :: v_dual_mov_b32 v13, v31          ; ca100122 100c011f
	v_writelane_b32 v95, s8, 0                                  ; d761005f 00010008
	s_waitcnt lgkmcnt(0)                                        ; bf89fc07
	v_dual_mov_b32 v2, v32 :: v_dual_mov_b32 v5, s17            ; ca100120 02040011
	v_dual_mov_b32 v22, s21 :: v_dual_mov_b32 v21, s20          ; ca100015 16140014
	v_dual_mov_b32 v4, s16 :: v_dual_mov_b32 v23, s2            ; ca100010 04160002
	v_dual_mov_b32 v18, v29 :: v_dual_mov_b32 v15, v35          ; ca10011d 120e0123
	v_dual_mov_b32 v20, v36 :: v_dual_add_nc_u32 v17, 0, v28    ; ca200124 14103880
	v_dual_mov_b32 v24, v37 :: v_dual_mov_b32 v19, v30          ; ca100125 1812011e
	v_dual_mov_b32 v26, v34 :: v_dual_add_nc_u32 v25, 0, v34    ; ca200122 1a184480
	v_dual_mov_b32 v28, v34 :: v_dual_add_nc_u32 v27, 0, v34    ; ca200122 1c1a4480
	v_dual_mov_b32 v30, v34 :: v_dual_add_nc_u32 v29, 0, v34    ; ca200122 1e1c4480
	v_writelane_b32 v95, s9, 1                                  ; d761005f 00010209
	s_delay_alu instid0(VALU_DEP_1) | instskip(NEXT) | instid1(VALU_DEP_1) ; bf870091
	v_writelane_b32 v95, s0, 2                                  ; d761005f 00010400
	v_writelane_b32 v95, s1, 3                                  ; d761005f 00010601
	s_delay_alu instid0(VALU_DEP_1)                             ; bf870001
	v_writelane_b32 v95, s3, 4                                  ; d761005f 00010803
	s_mov_b64 s[2:3], s[8:9]                                    ; be820108
	scratch_store_b32 off, v95, s4 offset:96                    ; dc690060 00045f80
	s_add_u32 s4, s4, 0x64                                      ; 8004ff04 00000064
	s_waitcnt_depctr 0xffe3                                     ; bf88ffe3
	s_swappc_b64 s[0:1], s[2:3]                                 ; be804902
	s_sub_u32 s4, s4, 0x64                                      ; 8084ff04 00000064
	s_delay_alu instid0(SALU_CYCLE_1)                           ; bf870009
	s_add_u32 s16, s4, 0x1000                                   ; 8010ff04 00001000
	s_clause 0x17                                               ; bf850017
	scratch_load_b32 v95, off, s4 offset:96                     ; dc510060 5f040080
	scratch_load_b32 v2, off, s16 offset:-4096                  ; dc511000 02100080
	scratch_load_b32 v3, off, s16 offset:-4092                  ; dc511004 03100080
	scratch_load_b32 v4, off, s16 offset:-4088                  ; dc511008 04100080
	scratch_load_b32 v5, off, s16 offset:-4084                  ; dc51100c 05100080
	scratch_load_b32 v13, off, s16 offset:-4080                 ; dc511010 0d100080
	scratch_load_b32 v14, off, s16 offset:-4076                 ; dc511014 0e100080
	scratch_load_b32 v15, off, s16 offset:-4072                 ; dc511018 0f100080
	scratch_load_b32 v16, off, s16 offset:-4068                 ; dc51101c 10100080
	scratch_load_b32 v17, off, s16 offset:-4064                 ; dc511020 11100080
	scratch_load_b32 v18, off, s16 offset:-4060                 ; dc511024 12100080
	scratch_load_b32 v19, off, s16 offset:-4056                 ; dc511028 13100080
	scratch_load_b32 v20, off, s16 offset:-4052                 ; dc51102c 14100080
	scratch_load_b32 v21, off, s16 offset:-4048                 ; dc511030 15100080
	scratch_load_b32 v22, off, s16 offset:-4044                 ; dc511034 16100080
	scratch_load_b32 v23, off, s16 offset:-4040                 ; dc511038 17100080
	scratch_load_b32 v24, off, s16 offset:-4008                 ; dc511058 18100080
	scratch_load_b32 v6, off, s16 offset:-4036                  ; dc51103c 06100080
	scratch_load_b32 v7, off, s16 offset:-4032                  ; dc511040 07100080
	scratch_load_b32 v25, off, s16 offset:-4028                 ; dc511044 19100080
	scratch_load_b32 v8, off, s16 offset:-4024                  ; dc511048 08100080
	scratch_load_b32 v9, off, s16 offset:-4020                  ; dc51104c 09100080
	scratch_load_b32 v26, off, s16 offset:-4016                 ; dc511050 1a100080
	scratch_load_b32 v27, off, s16 offset:-4012                 ; dc511054 1b100080
	v_mbcnt_lo_u32_b32 v38, -1, 0                               ; d71f0026 000100c1
	s_delay_alu instid0(VALU_DEP_1)                             ; bf870001
	v_lshlrev_b32_e32 v38, 2, v38                               ; 304c4c82
	ds_load_2addr_b32 v[0:1], v38 offset1:32                    ; d8dc2000 00000026
	s_mov_b64 s[16:17], 0                                       ; be900180
	v_add_f32_e32 v30, 0x3e800000, v30                          ; 063c3cff 3e800000
	s_waitcnt lgkmcnt(0)                                        ; bf89fc07
	v_sub_f32_e32 v40, 1.0, v0                                  ; 085000f2
	s_delay_alu instid0(VALU_DEP_2)                             ; bf870002
	v_mul_f32_e32 v0, v0, v30                                   ; 10003d00
	v_sub_f32_e32 v40, v40, v1                                  ; 08500328
	s_waitcnt vmcnt(23)                                         ; bf895ff7
	v_readlane_b32 s8, v95, 0                                   ; d7600008 0001015f
	v_readlane_b32 s0, v95, 2                                   ; d7600000 0001055f
	v_readlane_b32 s3, v95, 4                                   ; d7600003 0001095f
	v_readlane_b32 s9, v95, 1                                   ; d7600009 0001035f
	v_readlane_b32 s1, v95, 3                                   ; d7600001 0001075f
	s_waitcnt vmcnt(7)                                          ; bf891ff7
	v_dual_mul_f32 v40, v40, v30 :: v_dual_add_f32 v39, 1.0, v24 ; c8c83d28 282630f2
	s_delay_alu instid0(VALU_DEP_1) | instskip(SKIP_2) | instid1(VALU_DEP_1) ; bf8700b1
	v_rcp_f32_e32 v39, v39                                      ; 7e4e5527
	s_waitcnt_depctr 0xfff                                      ; bf880fff
	v_dual_mul_f32 v28, v0, v39 :: v_dual_mul_f32 v1, v1, v30   ; c8c64f00 1c003d01
	v_dual_mul_f32 v30, v39, v40 :: v_dual_mul_f32 v29, v1, v39 ; c8c65127 1e1c4f01
	v_dual_mov_b32 v0, s16 :: v_dual_mov_b32 v1, s17            ; ca100010 00000011
BB6:
	s_mov_b32 exec_lo, s3                                       ; befe0003
	s_mov_b64 s[2:3], 0                                         ; be820180
	s_delay_alu instid0(VALU_DEP_1)                             ; bf870001
	v_cmp_ne_i64_e32 vcc_lo, s[2:3], v[0:1]                     ; 7caa0002
	s_ctz_i32_b32 s15, vcc_lo                                   ; be8f086a
	s_cmp_eq_i32 vcc_lo, 0                                      ; bf00806a
	v_readlane_b32 s16, v0, s15                                 ; d7600010 00001f00
	v_readlane_b32 s17, v1, s15                                 ; d7600011 00001f01
	s_cselect_b64 s[16:17], s[0:1], s[16:17]                    ; 98901000
	s_delay_alu instid0(SALU_CYCLE_1)                           ; bf870009
	s_cmp_eq_u64 s[16:17], s[2:3]                               ; bf100210
	s_cbranch_scc0 BB9                                          ; bfa10002
BB7:
	s_and_saveexec_b32 s2, 0                                    ; be822080
	s_cbranch_execz BB10                                        ; bfa50007
BB9:
	s_or_saveexec_b32 s15, -1                                   ; be8f22c1
	scratch_load_b32 v95, off, s4 offset:92                     ; dc51005c 5f040080
	s_mov_b64 s[2:3], s[16:17]                                  ; be820110
	s_mov_b32 exec_lo, s15                                      ; befe000f
	s_waitcnt vmcnt(0)                                          ; bf8903f7
	s_setpc_b64 s[2:3]                                          ; be804802
BB10:
	s_endpgm                                                    ; bfb00000
