; amdgpu_cs compute shaders for the PAL dispatch test (tests/llc_pal.rs), one per section
; (each section is compiled as a module of its own, since PAL metadata describes one
; pipeline). Every shader takes user data in order: s0 the GIT address (which llc's
; scratch set-up reads), s[1:4] the V# of `in`, s[5:8] the V# of `out`, s9 `n`; the
; shaders with metadata take the work-group ids x (and y) in s10 (and s11), which their
; COMPUTE_PGM_RSRC2 (merged from !amdgpu.pal.metadata.msgpack: USER_SGPR 10, TGID_X_EN,
; ...) asks the hardware for. TID_ARGS and TID_UNPACK are replaced per target: three
; VGPR arguments %tx, %ty, %tz (tonga, gfx1030), or one packed VGPR unpacked (gfx1100).
; RSRC2_METADATA is replaced by the test with the metadata node of the value it gives.

;;;; cs_plain
; No metadata: one work-group, gid = tx. out[gid] = in[gid] * n + gid.
define amdgpu_cs void @cs_plain(i32 inreg %git, <4 x i32> inreg %in, <4 x i32> inreg %out, i32 inreg %n, TID_ARGS) {
  TID_UNPACK
  %off = shl i32 %tx, 2
  %x = call i32 @llvm.amdgcn.raw.buffer.load.i32(<4 x i32> %in, i32 %off, i32 0, i32 0)
  %m = mul i32 %x, %n
  %r = add i32 %m, %tx
  call void @llvm.amdgcn.raw.buffer.store.i32(i32 %r, <4 x i32> %out, i32 %off, i32 0, i32 0)
  ret void
}

;;;; cs_straight RSRC2=0x94
; gid = wgx * 64 + tx; out[gid] = (in[gid] * 3 + n) ^ (gid << 1).
define amdgpu_cs void @cs_straight(i32 inreg %git, <4 x i32> inreg %in, <4 x i32> inreg %out, i32 inreg %n, i32 inreg %wgx, TID_ARGS) {
  TID_UNPACK
  %base = shl i32 %wgx, 6
  %gid = add i32 %base, %tx
  %off = shl i32 %gid, 2
  %x = call i32 @llvm.amdgcn.raw.buffer.load.i32(<4 x i32> %in, i32 %off, i32 0, i32 0)
  %m = mul i32 %x, 3
  %a = add i32 %m, %n
  %s = shl i32 %gid, 1
  %r = xor i32 %a, %s
  call void @llvm.amdgcn.raw.buffer.store.i32(i32 %r, <4 x i32> %out, i32 %off, i32 0, i32 0)
  ret void
}

;;;; cs_loop RSRC2=0x94
; out[gid] = sum over k < in[gid] % 16 of (k * n + gid).
define amdgpu_cs void @cs_loop(i32 inreg %git, <4 x i32> inreg %in, <4 x i32> inreg %out, i32 inreg %n, i32 inreg %wgx, TID_ARGS) {
entry:
  TID_UNPACK
  %base = shl i32 %wgx, 6
  %gid = add i32 %base, %tx
  %off = shl i32 %gid, 2
  %x = call i32 @llvm.amdgcn.raw.buffer.load.i32(<4 x i32> %in, i32 %off, i32 0, i32 0)
  %trip = urem i32 %x, 16
  %none = icmp eq i32 %trip, 0
  br i1 %none, label %done, label %loop
loop:
  %k = phi i32 [ 0, %entry ], [ %k1, %loop ]
  %s = phi i32 [ 0, %entry ], [ %s1, %loop ]
  %kn = mul i32 %k, %n
  %t = add i32 %kn, %gid
  %s1 = add i32 %s, %t
  %k1 = add i32 %k, 1
  %more = icmp ult i32 %k1, %trip
  br i1 %more, label %loop, label %done
done:
  %r = phi i32 [ 0, %entry ], [ %s1, %loop ]
  call void @llvm.amdgcn.raw.buffer.store.i32(i32 %r, <4 x i32> %out, i32 %off, i32 0, i32 0)
  ret void
}

;;;; cs_branch RSRC2=0x94
; Divergent: odd gid: out = x * x; even gid: out = x - n.
define amdgpu_cs void @cs_branch(i32 inreg %git, <4 x i32> inreg %in, <4 x i32> inreg %out, i32 inreg %n, i32 inreg %wgx, TID_ARGS) {
entry:
  TID_UNPACK
  %base = shl i32 %wgx, 6
  %gid = add i32 %base, %tx
  %off = shl i32 %gid, 2
  %x = call i32 @llvm.amdgcn.raw.buffer.load.i32(<4 x i32> %in, i32 %off, i32 0, i32 0)
  %bit = and i32 %gid, 1
  %odd = icmp ne i32 %bit, 0
  br i1 %odd, label %then, label %else
then:
  %sq = mul i32 %x, %x
  call void @llvm.amdgcn.raw.buffer.store.i32(i32 %sq, <4 x i32> %out, i32 %off, i32 0, i32 0)
  br label %join
else:
  %d = sub i32 %x, %n
  call void @llvm.amdgcn.raw.buffer.store.i32(i32 %d, <4 x i32> %out, i32 %off, i32 0, i32 0)
  br label %join
join:
  ret void
}

;;;; cs_stack RSRC2=0x94
; A stack array indexed per lane (scratch through the GIT on tonga and gfx1030):
; arr[k] = x * (k + 1); out[gid] = arr[gid * 5 % 16] + arr[n % 16].
define amdgpu_cs void @cs_stack(i32 inreg %git, <4 x i32> inreg %in, <4 x i32> inreg %out, i32 inreg %n, i32 inreg %wgx, TID_ARGS) {
entry:
  TID_UNPACK
  %arr = alloca [16 x i32], align 4, addrspace(5)
  %base = shl i32 %wgx, 6
  %gid = add i32 %base, %tx
  %off = shl i32 %gid, 2
  %x = call i32 @llvm.amdgcn.raw.buffer.load.i32(<4 x i32> %in, i32 %off, i32 0, i32 0)
  br label %fill
fill:
  %k = phi i32 [ 0, %entry ], [ %k1, %fill ]
  %k1 = add i32 %k, 1
  %v = mul i32 %x, %k1
  %p = getelementptr [16 x i32], ptr addrspace(5) %arr, i32 0, i32 %k
  store volatile i32 %v, ptr addrspace(5) %p
  %more = icmp ult i32 %k1, 16
  br i1 %more, label %fill, label %read
read:
  %g5 = mul i32 %gid, 5
  %i = urem i32 %g5, 16
  %j = urem i32 %n, 16
  %pi = getelementptr [16 x i32], ptr addrspace(5) %arr, i32 0, i32 %i
  %pj = getelementptr [16 x i32], ptr addrspace(5) %arr, i32 0, i32 %j
  %a = load volatile i32, ptr addrspace(5) %pi
  %b = load volatile i32, ptr addrspace(5) %pj
  %r = add i32 %a, %b
  call void @llvm.amdgcn.raw.buffer.store.i32(i32 %r, <4 x i32> %out, i32 %off, i32 0, i32 0)
  ret void
}

;;;; cs_2d RSRC2=0x994
; Work-groups of 8x8 over a 16x16 grid; TGID_X_EN, TGID_Y_EN and TIDIG_COMP_CNT 1:
; gx = wgx * 8 + tx, gy = wgy * 8 + ty, i = gy * 16 + gx; out[i] = in[i] + gx * 1000 + gy.
define amdgpu_cs void @cs_2d(i32 inreg %git, <4 x i32> inreg %in, <4 x i32> inreg %out, i32 inreg %n, i32 inreg %wgx, i32 inreg %wgy, TID_ARGS) {
  TID_UNPACK
  %bx = shl i32 %wgx, 3
  %gx = add i32 %bx, %tx
  %by = shl i32 %wgy, 3
  %gy = add i32 %by, %ty
  %row = shl i32 %gy, 4
  %i = add i32 %row, %gx
  %off = shl i32 %i, 2
  %x = call i32 @llvm.amdgcn.raw.buffer.load.i32(<4 x i32> %in, i32 %off, i32 0, i32 0)
  %gk = mul i32 %gx, 1000
  %a = add i32 %x, %gk
  %r = add i32 %a, %gy
  call void @llvm.amdgcn.raw.buffer.store.i32(i32 %r, <4 x i32> %out, i32 %off, i32 0, i32 0)
  ret void
}

;;;; cs_lds RSRC2=0x94
; Work-group shared memory across the waves of a work-group, and a barrier:
; lds[tx] = in[gid]; barrier; out[gid] = lds[63 - tx] + n.
@lds = internal addrspace(3) global [64 x i32] poison
define amdgpu_cs void @cs_lds(i32 inreg %git, <4 x i32> inreg %in, <4 x i32> inreg %out, i32 inreg %n, i32 inreg %wgx, TID_ARGS) {
  TID_UNPACK
  %base = shl i32 %wgx, 6
  %gid = add i32 %base, %tx
  %off = shl i32 %gid, 2
  %x = call i32 @llvm.amdgcn.raw.buffer.load.i32(<4 x i32> %in, i32 %off, i32 0, i32 0)
  %p = getelementptr [64 x i32], ptr addrspace(3) @lds, i32 0, i32 %tx
  store i32 %x, ptr addrspace(3) %p
  call void @llvm.amdgcn.s.barrier()
  %mirror = sub i32 63, %tx
  %q = getelementptr [64 x i32], ptr addrspace(3) @lds, i32 0, i32 %mirror
  %y = load i32, ptr addrspace(3) %q
  %r = add i32 %y, %n
  call void @llvm.amdgcn.raw.buffer.store.i32(i32 %r, <4 x i32> %out, i32 %off, i32 0, i32 0)
  ret void
}

;;;; cs_call RSRC2=0x94
; A call of a function of LLVM's default convention (checked against it):
; out[gid] = madd(in[gid], n) ^ gid with madd(a, b) = a * b + 7.
define internal i32 @madd(i32 %a, i32 %b) noinline {
  %p = mul i32 %a, %b
  %r = add i32 %p, 7
  ret i32 %r
}
define amdgpu_cs void @cs_call(i32 inreg %git, <4 x i32> inreg %in, <4 x i32> inreg %out, i32 inreg %n, i32 inreg %wgx, TID_ARGS) {
  TID_UNPACK
  %base = shl i32 %wgx, 6
  %gid = add i32 %base, %tx
  %off = shl i32 %gid, 2
  %x = call i32 @llvm.amdgcn.raw.buffer.load.i32(<4 x i32> %in, i32 %off, i32 0, i32 0)
  %m = call i32 @madd(i32 %x, i32 %n)
  %r = xor i32 %m, %gid
  call void @llvm.amdgcn.raw.buffer.store.i32(i32 %r, <4 x i32> %out, i32 %off, i32 0, i32 0)
  ret void
}

;;;; declarations
declare i32 @llvm.amdgcn.raw.buffer.load.i32(<4 x i32>, i32, i32, i32)
declare void @llvm.amdgcn.raw.buffer.store.i32(i32, <4 x i32>, i32, i32, i32)
declare void @llvm.amdgcn.s.barrier()
