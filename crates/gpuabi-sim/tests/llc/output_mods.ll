; A kernel for tests/llc_atomics.rs whose code llc-19 writes with the VOP3 output modifier
; `clamp`: a float clamped to [0, 1] (no NaNs, so minnum/maxnum fold into `clamp`) and the
; saturating unsigned add and subtraction. out[t] = clamp(in[t] * 3, 0, 1) and
; out[64 + t] = usub.sat(uadd.sat(bits(in[t]), t + 0x7ffffff0), 1000) for work-item t
; (the sum saturates for the negative floats).

declare float @llvm.minnum.f32(float, float)
declare float @llvm.maxnum.f32(float, float)
declare i32 @llvm.uadd.sat.i32(i32, i32)
declare i32 @llvm.usub.sat.i32(i32, i32)
declare i32 @llvm.amdgcn.workitem.id.x()

define amdgpu_kernel void @k_clamp(ptr addrspace(1) %out, ptr addrspace(1) %in, ptr addrspace(1) %cnt) {
  %t = call i32 @llvm.amdgcn.workitem.id.x()
  %p = getelementptr float, ptr addrspace(1) %in, i32 %t
  %x = load float, ptr addrspace(1) %p
  %y = fmul nnan float %x, 3.0
  %a = call nnan float @llvm.maxnum.f32(float %y, float 0.0)
  %b = call nnan float @llvm.minnum.f32(float %a, float 1.0)
  %po = getelementptr float, ptr addrspace(1) %out, i32 %t
  store float %b, ptr addrspace(1) %po
  %xi = bitcast float %x to i32
  %k = add i32 %t, 2147483632
  %s = call i32 @llvm.uadd.sat.i32(i32 %xi, i32 %k)
  %d = call i32 @llvm.usub.sat.i32(i32 %s, i32 1000)
  %t2 = add i32 %t, 64
  %po2 = getelementptr i32, ptr addrspace(1) %out, i32 %t2
  store i32 %d, ptr addrspace(1) %po2
  ret void
}
