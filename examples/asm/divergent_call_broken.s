; gpuabi: target=gfx1030 wave=32
; The divergent call of divergent_call.s with a broken callee B: it uses v10, which
; the ABI preserves, as a temporary without saving it. The contract checker must report it.
; Based on: a divergent call following ACO's call lowering (spec aco-calls.md §7): the caller makes one
; hardware call to the PC of the first active lane; each callee runs the lanes whose PC is
; its own (guard), then jumps to the next pending callee (ballot + find first lane) or back
; to the return address (chain).
;
; Registers (ABI ahit-isec at limit {108, 128}: s0-s79 and v0-v79 preserved):
;   v[80:81] divergent PC, s[80:81] uniform PC, s[82:83] return address, s84 stack pointer,
;   v84 return value; s[2:3] holds the address of the output buffer (set up by the caller).
	.text
	.globl main
main:
	s_getpc_b64 s[4:5]
pc0:
	s_add_u32 s6, s4, callee_a-pc0
	s_addc_u32 s7, s5, 0
	s_add_u32 s8, s4, callee_b-pc0
	s_addc_u32 s9, s5, 0
	; Lane PCs by lane & 3: 0 -> A, 1 -> B, 2 -> A, 3 -> no call (the spec's test vector).
	v_and_b32 v1, 3, v0
	v_mov_b32 v80, s6
	v_mov_b32 v81, s7
	v_cmp_eq_u32 vcc_lo, 1, v1
	v_cndmask_b32 v80, v80, s8, vcc_lo
	v_cndmask_b32 v81, v81, s9, vcc_lo
	v_cmp_eq_u32 vcc_lo, 3, v1
	v_cndmask_b32 v80, v80, 0, vcc_lo
	v_cndmask_b32 v81, v81, 0, vcc_lo
	; Values live across the call, in preserved registers.
	s_mov_b32 s10, 0x1234
	v_add_nc_u32 v10, 100, v0
	v_mov_b32 v84, 0xdead
	; One hardware call, to the first active lane's PC.
	v_readfirstlane_b32 s80, v80
	v_readfirstlane_b32 s81, v81
	s_mov_b32 s84, 0
	s_swappc_b64 s[82:83], s[80:81]
	; out[lane] = return value; out[32 + lane] = v10 + s10 (checks preservation too).
	v_lshlrev_b32 v2, 2, v0
	global_store_dword v2, v84, s[2:3]
	v_add_nc_u32 v3, s10, v10
	global_store_dword v2, v3, s[2:3] offset:128
	s_endpgm

callee_a:
	; Guard: the lanes whose divergent PC is this function.
	v_cmp_eq_u32 s86, s80, v80
	v_cmp_eq_u32 s87, s81, v81
	s_and_b32 s86, s86, s87
	v_mov_b32 v88, v80
	v_mov_b32 v89, v81
	s_and_saveexec_b32 s90, s86
	v_mov_b32 v88, 0
	v_mov_b32 v89, 0
	v_lshlrev_b32 v84, 1, v0
	s_mov_b32 exec_lo, s90
	; Dispatch epilogue: next = tail_call_pc; mask = ballot(next != 0).
	v_or_b32 v91, v88, v89
	v_cmp_ne_u32 s92, 0, v91
	s_cmp_eq_u32 s92, 0
	s_cbranch_scc1 a_return
	s_ff1_i32_b32 s93, s92
	v_readlane_b32 s80, v88, s93
	v_readlane_b32 s81, v89, s93
	v_mov_b32 v80, v88
	v_mov_b32 v81, v89
	s_setpc_b64 s[80:81]
a_return:
	v_mov_b32 v80, 0
	v_mov_b32 v81, 0
	s_setpc_b64 s[82:83]

callee_b:
	v_cmp_eq_u32 s86, s80, v80
	v_cmp_eq_u32 s87, s81, v81
	s_and_b32 s86, s86, s87
	v_mov_b32 v88, v80
	v_mov_b32 v89, v81
	s_and_saveexec_b32 s90, s86
	v_mov_b32 v88, 0
	v_mov_b32 v89, 0
	v_mov_b32 v10, 7
	v_add_nc_u32 v84, 0x3e8, v0
	s_mov_b32 exec_lo, s90
	v_or_b32 v91, v88, v89
	v_cmp_ne_u32 s92, 0, v91
	s_cmp_eq_u32 s92, 0
	s_cbranch_scc1 b_return
	s_ff1_i32_b32 s93, s92
	v_readlane_b32 s80, v88, s93
	v_readlane_b32 s81, v89, s93
	v_mov_b32 v80, v88
	v_mov_b32 v81, v89
	s_setpc_b64 s[80:81]
b_return:
	v_mov_b32 v80, 0
	v_mov_b32 v81, 0
	s_setpc_b64 s[82:83]
