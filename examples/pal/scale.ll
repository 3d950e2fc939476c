; A PAL compute shader for `gpuabi sim run` (see the README, "AMD assembly and the SIMT
; simulator"): out[gid] = gid * factor + bias for gid = work-group id x * 64 + work-item id
; x. User data: s0 the GIT address (read only if llc gives the shader scratch), s[1:4] the
; V# of `out`, s5 `factor`, s6 `bias`; the metadata merged in below sets
; COMPUTE_PGM_RSRC2 to USER_SGPR 7 and TGID_X_EN (0x8e), so the work-group id x follows
; the user data in s7. The work-item id x is in v0 on every target (on gfx11 packed with
; y and z, which a one-dimensional dispatch leaves 0).
;
;   llc-19 -mtriple=amdgcn-amd-amdpal -mcpu=gfx1030 -O2 scale.ll -o scale-gfx1030.s

define amdgpu_cs void @scale(i32 inreg %git, <4 x i32> inreg %out, i32 inreg %factor, i32 inreg %bias, i32 inreg %wgx, i32 %tx) {
  %base = shl i32 %wgx, 6
  %gid = add i32 %base, %tx
  %m = mul i32 %gid, %factor
  %v = add i32 %m, %bias
  %off = shl i32 %gid, 2
  call void @llvm.amdgcn.raw.buffer.store.i32(i32 %v, <4 x i32> %out, i32 %off, i32 0, i32 0)
  ret void
}

declare void @llvm.amdgcn.raw.buffer.store.i32(i32, <4 x i32>, i32, i32, i32)

; {"amdpal.pipelines": [{".registers": {0x2e13: 0x8e}}]} in MessagePack.
!amdgpu.pal.metadata.msgpack = !{!0}
!0 = !{!"\81\B0amdpal.pipelines\91\81\AA.registers\81\CD\2E\13\CC\8E"}
