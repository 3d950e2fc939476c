; Kernels for tests/llc_atomics.rs: atomics on global (addrspace(1)), flat and buffer memory.
; Every kernel takes (out, in, cnt); the test dispatches work-groups of 256 work-items, so
; gid = workgroup.id.x * 256 + workitem.id.x, and checks the results against values it
; computes in Rust.

declare i32 @llvm.amdgcn.workitem.id.x()
declare i32 @llvm.amdgcn.workgroup.id.x()
declare i32 @llvm.amdgcn.raw.buffer.atomic.add.i32(i32, <4 x i32>, i32, i32, i32)
declare i32 @llvm.amdgcn.raw.buffer.atomic.umax.i32(i32, <4 x i32>, i32, i32, i32)
declare i32 @llvm.amdgcn.raw.buffer.atomic.cmpswap.i32(i32, i32, <4 x i32>, i32, i32, i32)

define internal i32 @gid() alwaysinline {
  %t = call i32 @llvm.amdgcn.workitem.id.x()
  %g = call i32 @llvm.amdgcn.workgroup.id.x()
  %b = shl i32 %g, 8
  %i = add i32 %b, %t
  ret i32 %i
}

define internal i32 @input(ptr addrspace(1) %in) alwaysinline {
  %i = call i32 @gid()
  %p = getelementptr i32, ptr addrspace(1) %in, i32 %i
  %x = load i32, ptr addrspace(1) %p
  ret i32 %x
}

; A histogram: cnt[in[gid] % 16] += 1, the result unused (non-returning atomics).
define amdgpu_kernel void @k_hist(ptr addrspace(1) %out, ptr addrspace(1) %in, ptr addrspace(1) %cnt) {
  %x = call i32 @input(ptr addrspace(1) %in)
  %bin = and i32 %x, 15
  %p = getelementptr i32, ptr addrspace(1) %cnt, i32 %bin
  %old = atomicrmw add ptr addrspace(1) %p, i32 1 syncscope("agent") monotonic
  ret void
}

; A ticket per work-item: out[gid] = the value of cnt[0] before its increment, so the
; tickets are a permutation of 0 .. work-items - 1 (a returning atomic).
define amdgpu_kernel void @k_ticket(ptr addrspace(1) %out, ptr addrspace(1) %in, ptr addrspace(1) %cnt) {
  %i = call i32 @gid()
  %old = atomicrmw add ptr addrspace(1) %cnt, i32 1 syncscope("agent") monotonic
  %po = getelementptr i32, ptr addrspace(1) %out, i32 %i
  store i32 %old, ptr addrspace(1) %po
  ret void
}

; Every other read-modify-write on its own counter, results unused: cnt[0] smax, cnt[1]
; smin, cnt[2] umax, cnt[3] umin, cnt[4] and, cnt[5] or, cnt[6] xor, cnt[7] sub,
; cnt[8] inc (uinc_wrap at 100), cnt[9] dec (udec_wrap at 100).
define amdgpu_kernel void @k_ops(ptr addrspace(1) %out, ptr addrspace(1) %in, ptr addrspace(1) %cnt) {
  %x = call i32 @input(ptr addrspace(1) %in)
  %p1 = getelementptr i32, ptr addrspace(1) %cnt, i32 1
  %p2 = getelementptr i32, ptr addrspace(1) %cnt, i32 2
  %p3 = getelementptr i32, ptr addrspace(1) %cnt, i32 3
  %p4 = getelementptr i32, ptr addrspace(1) %cnt, i32 4
  %p5 = getelementptr i32, ptr addrspace(1) %cnt, i32 5
  %p6 = getelementptr i32, ptr addrspace(1) %cnt, i32 6
  %p7 = getelementptr i32, ptr addrspace(1) %cnt, i32 7
  %p8 = getelementptr i32, ptr addrspace(1) %cnt, i32 8
  %p9 = getelementptr i32, ptr addrspace(1) %cnt, i32 9
  %s = sub i32 %x, 4000000
  %a0 = atomicrmw max ptr addrspace(1) %cnt, i32 %s syncscope("agent") monotonic
  %a1 = atomicrmw min ptr addrspace(1) %p1, i32 %s syncscope("agent") monotonic
  %a2 = atomicrmw umax ptr addrspace(1) %p2, i32 %s syncscope("agent") monotonic
  %a3 = atomicrmw umin ptr addrspace(1) %p3, i32 %s syncscope("agent") monotonic
  %m = or i32 %x, 4096
  %a4 = atomicrmw and ptr addrspace(1) %p4, i32 %m syncscope("agent") monotonic
  %a5 = atomicrmw or ptr addrspace(1) %p5, i32 %x syncscope("agent") monotonic
  %a6 = atomicrmw xor ptr addrspace(1) %p6, i32 %x syncscope("agent") monotonic
  %a7 = atomicrmw sub ptr addrspace(1) %p7, i32 %x syncscope("agent") monotonic
  %a8 = atomicrmw uinc_wrap ptr addrspace(1) %p8, i32 100 syncscope("agent") monotonic
  %a9 = atomicrmw udec_wrap ptr addrspace(1) %p9, i32 100 syncscope("agent") monotonic
  ret void
}

; Exchange: out[gid] = xchg(cnt[gid % 4], gid + 1000); what the exchanges return and what
; is left in cnt[0..4] are together the four starting values and every gid + 1000.
define amdgpu_kernel void @k_swap(ptr addrspace(1) %out, ptr addrspace(1) %in, ptr addrspace(1) %cnt) {
  %i = call i32 @gid()
  %k = and i32 %i, 3
  %p = getelementptr i32, ptr addrspace(1) %cnt, i32 %k
  %v = add i32 %i, 1000
  %old = atomicrmw xchg ptr addrspace(1) %p, i32 %v syncscope("agent") monotonic
  %po = getelementptr i32, ptr addrspace(1) %out, i32 %i
  store i32 %old, ptr addrspace(1) %po
  ret void
}

; A compare-and-swap loop adding in[gid] & 255 to cnt[0]; out[gid] = the number of tries.
define amdgpu_kernel void @k_cas(ptr addrspace(1) %out, ptr addrspace(1) %in, ptr addrspace(1) %cnt) {
entry:
  %x = call i32 @input(ptr addrspace(1) %in)
  %i = call i32 @gid()
  %add = and i32 %x, 255
  %first = load atomic i32, ptr addrspace(1) %cnt syncscope("agent") monotonic, align 4
  br label %loop
loop:
  %seen = phi i32 [ %first, %entry ], [ %got, %loop ]
  %tries = phi i32 [ 1, %entry ], [ %tries1, %loop ]
  %new = add i32 %seen, %add
  %pair = cmpxchg ptr addrspace(1) %cnt, i32 %seen, i32 %new syncscope("agent") monotonic monotonic
  %got = extractvalue { i32, i1 } %pair, 0
  %ok = extractvalue { i32, i1 } %pair, 1
  %tries1 = add i32 %tries, 1
  br i1 %ok, label %done, label %loop
done:
  %po = getelementptr i32, ptr addrspace(1) %out, i32 %i
  store i32 %tries, ptr addrspace(1) %po
  ret void
}

; 64-bit atomics: cnt64[0] += in[gid] (returning: out[gid] = low dword of the old value
; xor its high dword), cnt64[1] = umax(cnt64[1], in[gid] << 20), and a 64-bit
; compare-and-swap that only work-item 5 wins: cnt64[2] = 0x1122334455667788 if it held 7.
define amdgpu_kernel void @k_wide(ptr addrspace(1) %out, ptr addrspace(1) %in, ptr addrspace(1) %cnt) {
  %x = call i32 @input(ptr addrspace(1) %in)
  %i = call i32 @gid()
  %x64 = zext i32 %x to i64
  %old = atomicrmw add ptr addrspace(1) %cnt, i64 %x64 syncscope("agent") monotonic
  %lo = trunc i64 %old to i32
  %hi64 = lshr i64 %old, 32
  %hi = trunc i64 %hi64 to i32
  %r = xor i32 %lo, %hi
  %po = getelementptr i32, ptr addrspace(1) %out, i32 %i
  store i32 %r, ptr addrspace(1) %po
  %p1 = getelementptr i64, ptr addrspace(1) %cnt, i32 1
  %sh = shl i64 %x64, 20
  %m = atomicrmw umax ptr addrspace(1) %p1, i64 %sh syncscope("agent") monotonic
  %p2 = getelementptr i64, ptr addrspace(1) %cnt, i32 2
  %is5 = icmp eq i32 %i, 5
  %cmp = select i1 %is5, i64 7, i64 8
  %c = cmpxchg ptr addrspace(1) %p2, i64 %cmp, i64 1234605616436508552 syncscope("agent") monotonic monotonic
  ret void
}

; Buffer atomics through a raw buffer resource over cnt (base, no stride, 64 bytes; the
; format fields are unused by untyped accesses): out[gid] = a ticket from cnt[0],
; cnt[1] = umax of in, and cnt[2] = gid + 1 swapped in by the one work-item that finds
; it 0 first (work-item 0, as the lanes act in order).
define amdgpu_kernel void @k_buffer(ptr addrspace(1) %out, ptr addrspace(1) %in, ptr addrspace(1) %cnt) {
  %x = call i32 @input(ptr addrspace(1) %in)
  %i = call i32 @gid()
  %a = ptrtoint ptr addrspace(1) %cnt to i64
  %lo = trunc i64 %a to i32
  %hi64 = lshr i64 %a, 32
  %hi = trunc i64 %hi64 to i32
  %r0 = insertelement <4 x i32> poison, i32 %lo, i32 0
  %r1 = insertelement <4 x i32> %r0, i32 %hi, i32 1
  %r2 = insertelement <4 x i32> %r1, i32 64, i32 2
  %rsrc = insertelement <4 x i32> %r2, i32 0, i32 3
  %t = call i32 @llvm.amdgcn.raw.buffer.atomic.add.i32(i32 1, <4 x i32> %rsrc, i32 0, i32 0, i32 0)
  %po = getelementptr i32, ptr addrspace(1) %out, i32 %i
  store i32 %t, ptr addrspace(1) %po
  %u = call i32 @llvm.amdgcn.raw.buffer.atomic.umax.i32(i32 %x, <4 x i32> %rsrc, i32 4, i32 0, i32 0)
  %v = add i32 %i, 1
  %c = call i32 @llvm.amdgcn.raw.buffer.atomic.cmpswap.i32(i32 %v, i32 0, <4 x i32> %rsrc, i32 8, i32 0, i32 0)
  ret void
}

; f32 atomics (with "amdgpu-unsafe-fp-atomics", llc-19 writes `global_atomic_add_f32`,
; `fmax`/`max_f32` and `fmin`/`min_f32` where the target has them, and compare-and-swap
; loops elsewhere): x = float(in[gid] & 1023), a whole number, so every order of the adds
; gives the same sum. out[gid] = cnt[0] before the add; cnt[1] = max, cnt[2] = min of x.
define amdgpu_kernel void @k_float(ptr addrspace(1) %out, ptr addrspace(1) %in, ptr addrspace(1) %cnt) #0 {
  %v = call i32 @input(ptr addrspace(1) %in)
  %i = call i32 @gid()
  %m = and i32 %v, 1023
  %x = uitofp i32 %m to float
  %old = atomicrmw fadd ptr addrspace(1) %cnt, float %x syncscope("agent") monotonic, !amdgpu.no.fine.grained.memory !0
  %po = getelementptr float, ptr addrspace(1) %out, i32 %i
  store float %old, ptr addrspace(1) %po
  %p1 = getelementptr float, ptr addrspace(1) %cnt, i32 1
  %a = atomicrmw fmax ptr addrspace(1) %p1, float %x syncscope("agent") monotonic, !amdgpu.no.fine.grained.memory !0
  %p2 = getelementptr float, ptr addrspace(1) %cnt, i32 2
  %b = atomicrmw fmin ptr addrspace(1) %p2, float %x syncscope("agent") monotonic, !amdgpu.no.fine.grained.memory !0
  ret void
}

attributes #0 = { "amdgpu-unsafe-fp-atomics"="true" }
!0 = !{}
