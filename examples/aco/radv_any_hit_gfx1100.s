BB0:
	v_cmp_eq_i64_e32 vcc_lo, s[82:83], v[80:81]                 ; 7ca4a052
	s_and_saveexec_b32 s83, vcc_lo                              ; bed3206a
BB1:
	v_dual_mul_f32 v81, 0x41000000, v84 :: v_dual_mul_f32 v80, 0x41000000, v85 ; c8c6a8ff 5150aaff 41000000
	s_mov_b64 s[86:87], 0                                       ; bed60180
	s_delay_alu instid0(VALU_DEP_1) | instskip(SKIP_1) | instid1(VALU_DEP_1) ; bf8700a1
	v_cvt_i32_f32_e32 v80, v80                                  ; 7ea01150
	v_cvt_i32_f32_e32 v81, v81                                  ; 7ea21151
	v_add_nc_u32_e32 v81, v81, v80                              ; 4aa2a151
	s_delay_alu instid0(VALU_DEP_1)                             ; bf870001
	v_cmp_class_f16_e32 vcc_lo, 0x7c01, v81                     ; 7cfaa2ff 00007c01
	s_and_saveexec_b32 s88, vcc_lo                              ; bed8206a
	s_cbranch_execz BB7                                         ; bfa50013
BB2:
	v_mul_hi_i32 v80, v25, 0x55555556                           ; d72e0050 0001ff19 55555556
	v_cmp_le_i32_e32 vcc_lo, 0, v25                             ; 7c863280
	s_delay_alu instid0(VALU_DEP_2) | instskip(NEXT) | instid1(VALU_DEP_1) ; bf870092
	v_lshrrev_b32_e32 v81, 31, v80                              ; 32a2a09f
	v_add_nc_u32_e32 v80, v80, v81                              ; 4aa0a350
	s_delay_alu instid0(VALU_DEP_1) | instskip(NEXT) | instid1(VALU_DEP_1) ; bf870091
	v_lshl_add_u32 v80, v80, 1, v80                             ; d6460050 05410350
	v_sub_nc_u32_e32 v80, v25, v80                              ; 4ca0a119
	s_delay_alu instid0(VALU_DEP_1) | instskip(SKIP_2) | instid1(SALU_CYCLE_1) ; bf8704b1
	v_add_nc_u32_e32 v91, 3, v80                                ; 4ab6a083
	v_cmp_eq_i32_e64 s82, 0, v80                                ; d4420052 0002a080
	s_or_b32 vcc_lo, s82, vcc_lo                                ; 8c6a6a52
	v_cndmask_b32_e32 v91, v91, v80, vcc_lo                     ; 02b6a15b
	s_delay_alu instid0(VALU_DEP_1)                             ; bf870001
	v_cmp_ne_i32_e32 vcc_lo, 0, v91                             ; 7c8ab680
BB7:
	s_and_b32 s82, vcc_lo, exec_lo                              ; 8b527e6a
	s_mov_b32 exec_lo, s88                                      ; befe0058
	s_delay_alu instid0(SALU_CYCLE_1)                           ; bf870009
	s_and_b32 exec_lo, s82, exec_lo                             ; 8b7e7e52
BB8:
	s_mov_b32 s89, 0                                            ; bed90080
	s_and_not1_b32 exec_lo, s88, exec_lo                        ; 917e7e58
BB11:
	s_delay_alu instid0(SALU_CYCLE_1)                           ; bf870009
	s_and_b32 s89, s84, exec_lo                                 ; 8b597e54
BB13:
	s_mov_b32 exec_lo, s88                                      ; befe0058
	s_not_b32 s82, s82                                          ; bed21e52
	s_delay_alu instid0(SALU_CYCLE_1)                           ; bf870009
	s_and_b32 exec_lo, s82, exec_lo                             ; 8b7e7e52
	s_cbranch_execz BB29                                        ; bfa50016
BB14:
	v_cmp_gt_f32_e32 vcc_lo, 0x3d4ccccd, v24                    ; 7c2830ff 3d4ccccd
	s_and_saveexec_b32 s90, vcc_lo                              ; beda206a
	s_cbranch_execz BB20                                        ; bfa50007
BB15:
	global_load_b32 v80, v[8:9], off offset:8                   ; dc520008 507c0008
	s_waitcnt vmcnt(0)                                          ; bf8903f7
	v_and_b32_e32 v80, 0xffffff, v80                            ; 36a0a0ff 00ffffff
	s_delay_alu instid0(VALU_DEP_1)                             ; bf870001
	v_cmp_eq_i32_e32 vcc_lo, 7, v80                             ; 7c84a087
BB20:
	s_and_b32 s82, vcc_lo, exec_lo                              ; 8b527e6a
	s_mov_b32 exec_lo, s90                                      ; befe005a
	s_delay_alu instid0(SALU_CYCLE_1)                           ; bf870009
	s_and_b32 exec_lo, s82, exec_lo                             ; 8b7e7e52
BB21:
	s_mov_b32 s82, -1                                           ; bed200c1
	s_mov_b32 s91, -1                                           ; bedb00c1
	s_and_not1_b32 exec_lo, s90, exec_lo                        ; 917e7e5a
BB24:
	s_delay_alu instid0(SALU_CYCLE_1)                           ; bf870009
	s_or_not1_b32 s91, s89, exec_lo                             ; 925b7e59
	s_or_not1_b32 s82, s85, exec_lo                             ; 92527e55
BB26:
	s_mov_b32 exec_lo, s90                                      ; befe005a
BB29:
	s_delay_alu instid0(SALU_CYCLE_1) | instskip(NEXT) | instid1(SALU_CYCLE_1) ; bf870499
	s_and_not1_b32 exec_lo, s88, exec_lo                        ; 917e7e58
	s_and_not1_b32 s91, s91, exec_lo                            ; 915b7e5b
	s_and_b32 s89, s89, exec_lo                                 ; 8b597e59
	s_delay_alu instid0(SALU_CYCLE_1) | instskip(SKIP_2) | instid1(SALU_CYCLE_1) ; bf8704b9
	s_or_b32 s91, s91, s89                                      ; 8c5b595b
	s_and_not1_b32 s82, s82, exec_lo                            ; 91527e52
	s_and_b32 s92, s85, exec_lo                                 ; 8b5c7e55
	s_or_b32 s82, s82, s92                                      ; 8c525c52
BB31:
	s_mov_b32 exec_lo, s88                                      ; befe0058
	v_dual_mov_b32 v81, s87 :: v_dual_mov_b32 v80, s86          ; ca100057 51500056
	s_and_not1_b32 exec_lo, s83, exec_lo                        ; 917e7e53
BB34:
	s_delay_alu instid0(SALU_CYCLE_1) | instskip(SKIP_1) | instid1(SALU_CYCLE_1) ; bf8704a9
	s_and_not1_b32 s91, s91, exec_lo                            ; 915b7e5b
	s_and_b32 s84, s84, exec_lo                                 ; 8b547e54
	s_or_b32 s91, s91, s84                                      ; 8c5b545b
	s_and_not1_b32 s82, s82, exec_lo                            ; 91527e52
	s_and_b32 s85, s85, exec_lo                                 ; 8b557e55
	s_delay_alu instid0(SALU_CYCLE_1)                           ; bf870009
	s_or_b32 s82, s82, s85                                      ; 8c525552
BB36:
	s_mov_b32 exec_lo, s83                                      ; befe0053
	s_mov_b64 s[84:85], 0                                       ; bed40180
	v_cmp_ne_i64_e32 vcc_lo, s[84:85], v[80:81]                 ; 7caaa054
	s_ctz_i32_b32 s83, vcc_lo                                   ; bed3086a
	s_cmp_eq_i32 vcc_lo, 0                                      ; bf00806a
	v_readlane_b32 s86, v80, s83                                ; d7600056 0000a750
	v_readlane_b32 s87, v81, s83                                ; d7600057 0000a751
	s_cselect_b64 s[86:87], s[80:81], s[86:87]                  ; 98d65650
	s_delay_alu instid0(SALU_CYCLE_1)                           ; bf870009
	s_cmp_eq_u64 s[86:87], s[84:85]                             ; bf105456
	s_cbranch_scc0 BB39                                         ; bfa10002
BB37:
	s_and_saveexec_b32 s83, 0                                   ; bed32080
	s_cbranch_execz BB40                                        ; bfa50006
BB39:
	s_mov_b32 s84, s91                                          ; bed4005b
	s_mov_b32 s85, s82                                          ; bed50052
	s_mov_b64 s[82:83], s[86:87]                                ; bed20156
	s_waitcnt_depctr 0xfff                                      ; bf880fff
	s_delay_alu instid0(SALU_CYCLE_1)                           ; bf870009
	s_setpc_b64 s[82:83]                                        ; be804852
BB40:
	s_endpgm                                                    ; bfb00000
