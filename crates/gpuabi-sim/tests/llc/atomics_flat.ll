; A kernel for tests/llc_atomics.rs: atomics through a flat pointer, which llc-19 writes as
; `flat_atomic_*` on every target (atomics.ll gets `global_*` on RDNA).

declare i32 @llvm.amdgcn.workitem.id.x()
declare i32 @llvm.amdgcn.workgroup.id.x()

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

; The histogram of k_hist in cnt[0..16] and the ticket of k_ticket from cnt[16], through
; a flat pointer.
define amdgpu_kernel void @k_flat(ptr addrspace(1) %out, ptr addrspace(1) %in, ptr addrspace(1) %cnt) {
  %x = call i32 @input(ptr addrspace(1) %in)
  %i = call i32 @gid()
  %f = addrspacecast ptr addrspace(1) %cnt to ptr
  %bin = and i32 %x, 15
  %p = getelementptr i32, ptr %f, i32 %bin
  %h = atomicrmw add ptr %p, i32 1 syncscope("agent") monotonic
  %pt = getelementptr i32, ptr %f, i32 16
  %old = atomicrmw add ptr %pt, i32 1 syncscope("agent") monotonic
  %po = getelementptr i32, ptr addrspace(1) %out, i32 %i
  store i32 %old, ptr addrspace(1) %po
  ret void
}

