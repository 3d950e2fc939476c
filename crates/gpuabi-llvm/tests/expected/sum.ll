; LLVM IR of a gpuabi .gsir module, written by `gpuabi ir emit-llvm`.
target triple = "amdgcn-amd-amdhsa"

; .gsir: fn @clamp_add(%a: i32, %b: i32, %r: i32 return)
define hidden { i32 } @clamp_add(i32 %a, i32 %b, i32 %r) #1 {
bb-entry:
  %s = add i32 %a, %b
  %big = icmp sgt i32 %s, 100
  br i1 %big, label %then-1, label %else-2
then-1:
  br label %endif-3
else-2:
  br label %endif-3
endif-3:
  %v = phi i32 [ 100, %then-1 ], [ %s, %else-2 ]
  %t-3 = insertvalue { i32 } poison, i32 %v, 0
  ret { i32 } %t-3
}

; .gsir: fn @sum(%out: ptr uniform, %n: i32 uniform) kernel
define amdgpu_kernel void @sum(ptr addrspace(1) %out, i32 %n) #0 {
bb-entry:
  %l = call i32 @llvm.amdgcn.workitem.id.x()
  br label %loop-1
loop-1:
  %i = phi i32 [ 0, %bb-entry ], [ %next, %endif-5 ]
  %acc = phi i32 [ 0, %bb-entry ], [ %next_acc, %endif-5 ]
  %done = icmp uge i32 %i, %n
  br i1 %done, label %then-3, label %else-4
then-3:
  br label %endloop-2
else-4:
  br label %endif-5
endif-5:
  %t-3 = call { i32 } @clamp_add(i32 %acc, i32 %i, i32 %acc)
  %next_acc = extractvalue { i32 } %t-3, 0
  %next = add i32 %i, 1
  br label %loop-1
endloop-2:
  %total = phi i32 [ %acc, %then-3 ]
  %t-5 = icmp eq i32 %n, 0
  br i1 %t-5, label %bb-trap, label %ok-6
ok-6:
  %t-6 = freeze i32 %total
  %t-7 = freeze i32 %n
  %q = udiv i32 %t-6, %t-7
  %off = shl i32 %l, 2
  %p = getelementptr i8, ptr addrspace(1) %out, i32 %off
  store i32 %q, ptr addrspace(1) %p, align 1
  ret void
bb-trap:
  call void @llvm.trap()
  unreachable
}

declare i32 @llvm.amdgcn.workitem.id.x()
declare void @llvm.trap()

attributes #0 = { nounwind "denormal-fp-math-f32"="ieee,ieee" }
attributes #1 = { noinline nounwind "denormal-fp-math-f32"="ieee,ieee" }
