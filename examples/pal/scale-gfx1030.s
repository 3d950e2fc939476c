	.text
	.amdgcn_target "amdgcn-amd-amdpal--gfx1030"
	.globl	scale                           ; -- Begin function scale
	.p2align	8
	.type	scale,@function
scale:                                  ; @scale
; %bb.0:
	v_lshl_add_u32 v2, s7, 6, v0
	s_mov_b32 s11, s4
	s_mov_b32 s10, s3
	s_mov_b32 s9, s2
	s_mov_b32 s8, s1
	v_mad_u64_u32 v[0:1], null, v2, s5, s[6:7]
	v_lshlrev_b32_e32 v1, 2, v2
	buffer_store_dword v0, v1, s[8:11], 0 offen
	s_endpgm
.Lfunc_end0:
	.size	scale, .Lfunc_end0-scale
                                        ; -- End function
	.section	.AMDGPU.csdata,"",@progbits
; Kernel info:
; codeLenInByte = 48
; NumSgprs: 12
; NumVgprs: 3
; ScratchSize: 0
; MemoryBound: 0
; FloatMode: 240
; IeeeMode: 0
; LDSByteSize: 0 bytes/workgroup (compile time only)
; SGPRBlocks: 1
; VGPRBlocks: 0
; NumSGPRsForWavesPerEU: 12
; NumVGPRsForWavesPerEU: 3
; Occupancy: 16
; WaveLimiterHint : 0
; COMPUTE_PGM_RSRC2:SCRATCH_EN: 0
; COMPUTE_PGM_RSRC2:USER_SGPR: 0
; COMPUTE_PGM_RSRC2:TRAP_HANDLER: 0
; COMPUTE_PGM_RSRC2:TGID_X_EN: 0
; COMPUTE_PGM_RSRC2:TGID_Y_EN: 0
; COMPUTE_PGM_RSRC2:TGID_Z_EN: 0
; COMPUTE_PGM_RSRC2:TIDIG_COMP_CNT: 0
	.text
	.p2alignl 6, 3214868480
	.fill 48, 4, 3214868480
	.section	".note.GNU-stack","",@progbits
	.amd_amdgpu_isa "amdgcn-amd-amdpal--gfx1030"
	.amdgpu_pal_metadata
---
amdpal.pipelines:
  - .hardware_stages:
      .cs:
        .entry_point:    scale
        .scratch_memory_size: 0
        .sgpr_count:     0xc
        .vgpr_count:     0x3
    .registers:
      '0x2e00 (COMPUTE_DISPATCH_INITIATOR)': 0x8000
      '0x2e12 (COMPUTE_PGM_RSRC1)': 0x602f0040
      '0x2e13 (COMPUTE_PGM_RSRC2)': 0x8e
...
	.end_amdgpu_pal_metadata
