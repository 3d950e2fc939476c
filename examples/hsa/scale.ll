; out[i] = i * factor for i = group id * 64 + work-item id (groups of 64): the HSA kernel of the README's
; `sim run` example, compiled by llc-19 for any AMDGPU processor, e.g.
;   llc-19 -mtriple=amdgcn-amd-amdhsa -mcpu=gfx1030 -O2 examples/hsa/scale.ll -o out/scale.s
target triple = "amdgcn-amd-amdhsa"

define amdgpu_kernel void @scale(ptr addrspace(1) %out, i32 %factor) {
entry:
  %group = call i32 @llvm.amdgcn.workgroup.id.x()
  %item = call i32 @llvm.amdgcn.workitem.id.x()
  %base = mul i32 %group, 64
  %i = add i32 %base, %item
  %value = mul i32 %i, %factor
  %index = zext i32 %i to i64
  %slot = getelementptr inbounds i32, ptr addrspace(1) %out, i64 %index
  store i32 %value, ptr addrspace(1) %slot, align 4
  ret void
}

declare i32 @llvm.amdgcn.workgroup.id.x()
declare i32 @llvm.amdgcn.workitem.id.x()
