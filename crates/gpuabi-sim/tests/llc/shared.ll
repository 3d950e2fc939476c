; Kernels for tests/llc_shared.rs: work-group shared memory (addrspace(3)) and barriers.
; Every kernel takes (out, in, n); the test dispatches work-groups of 256 work-items, so
; gid = workgroup.id.x * 256 + workitem.id.x, and computes every value again in Rust.

@red = internal addrspace(3) global [256 x i32] poison
@tile = internal addrspace(3) global [16 x [17 x i32]] poison
@hist = internal addrspace(3) global [16 x i32] poison
@pairs = internal addrspace(3) global [512 x i64] poison

declare i32 @llvm.amdgcn.workitem.id.x()
declare i32 @llvm.amdgcn.workgroup.id.x()
declare void @llvm.amdgcn.s.barrier()

define internal i32 @gid() alwaysinline {
  %t = call i32 @llvm.amdgcn.workitem.id.x()
  %g = call i32 @llvm.amdgcn.workgroup.id.x()
  %b = shl i32 %g, 8
  %i = add i32 %b, %t
  ret i32 %i
}

; A tree reduction: out[gid] = (sum of in over the work-group) + workitem.id.x.
define amdgpu_kernel void @k_reduce(ptr addrspace(1) %out, ptr addrspace(1) %in, i32 %n) {
entry:
  %t = call i32 @llvm.amdgcn.workitem.id.x()
  %i = call i32 @gid()
  %pi = getelementptr i32, ptr addrspace(1) %in, i32 %i
  %x = load i32, ptr addrspace(1) %pi
  %ps = getelementptr [256 x i32], ptr addrspace(3) @red, i32 0, i32 %t
  store i32 %x, ptr addrspace(3) %ps
  fence syncscope("workgroup") release
  call void @llvm.amdgcn.s.barrier()
  fence syncscope("workgroup") acquire
  br label %head
head:
  %s = phi i32 [ 128, %entry ], [ %s1, %tail ]
  %c = icmp ult i32 %t, %s
  br i1 %c, label %body, label %tail
body:
  %j = add i32 %t, %s
  %pj = getelementptr [256 x i32], ptr addrspace(3) @red, i32 0, i32 %j
  %a = load i32, ptr addrspace(3) %ps
  %bb = load i32, ptr addrspace(3) %pj
  %sum = add i32 %a, %bb
  store i32 %sum, ptr addrspace(3) %ps
  br label %tail
tail:
  fence syncscope("workgroup") release
  call void @llvm.amdgcn.s.barrier()
  fence syncscope("workgroup") acquire
  %s1 = lshr i32 %s, 1
  %more = icmp ne i32 %s1, 0
  br i1 %more, label %head, label %done
done:
  %r = load i32, ptr addrspace(3) @red
  %v = add i32 %r, %t
  %po = getelementptr i32, ptr addrspace(1) %out, i32 %i
  store i32 %v, ptr addrspace(1) %po
  ret void
}

; A 16x16 tile per work-group: work-item t = 16 * r + c stores in[gid] at tile[r][c]
; (rows padded to 17), and after a barrier out[gid] = tile[c][r] + n.
define amdgpu_kernel void @k_transpose(ptr addrspace(1) %out, ptr addrspace(1) %in, i32 %n) {
  %t = call i32 @llvm.amdgcn.workitem.id.x()
  %i = call i32 @gid()
  %pi = getelementptr i32, ptr addrspace(1) %in, i32 %i
  %x = load i32, ptr addrspace(1) %pi
  %r = lshr i32 %t, 4
  %c = and i32 %t, 15
  %pw = getelementptr [16 x [17 x i32]], ptr addrspace(3) @tile, i32 0, i32 %r, i32 %c
  store i32 %x, ptr addrspace(3) %pw
  fence syncscope("workgroup") release
  call void @llvm.amdgcn.s.barrier()
  fence syncscope("workgroup") acquire
  %pr = getelementptr [16 x [17 x i32]], ptr addrspace(3) @tile, i32 0, i32 %c, i32 %r
  %y = load i32, ptr addrspace(3) %pr
  %z = add i32 %y, %n
  %po = getelementptr i32, ptr addrspace(1) %out, i32 %i
  store i32 %z, ptr addrspace(1) %po
  ret void
}

; A histogram of in % 16 per work-group with LDS atomics: out[gid] = the count of the
; work-item's own bin (after every work-item added) * 1000 + the value ds_add returned
; for the work-item's own increment being below that count (1 if so, always).
define amdgpu_kernel void @k_hist(ptr addrspace(1) %out, ptr addrspace(1) %in, i32 %n) {
entry:
  %t = call i32 @llvm.amdgcn.workitem.id.x()
  %i = call i32 @gid()
  %lt = icmp ult i32 %t, 16
  %pz = getelementptr [16 x i32], ptr addrspace(3) @hist, i32 0, i32 %t
  br i1 %lt, label %zero, label %counted
zero:
  store i32 0, ptr addrspace(3) %pz
  br label %counted
counted:
  fence syncscope("workgroup") release
  call void @llvm.amdgcn.s.barrier()
  fence syncscope("workgroup") acquire
  %pi = getelementptr i32, ptr addrspace(1) %in, i32 %i
  %x = load i32, ptr addrspace(1) %pi
  %bin = and i32 %x, 15
  %ph = getelementptr [16 x i32], ptr addrspace(3) @hist, i32 0, i32 %bin
  %old = atomicrmw add ptr addrspace(3) %ph, i32 1 syncscope("workgroup") monotonic
  fence syncscope("workgroup") release
  call void @llvm.amdgcn.s.barrier()
  fence syncscope("workgroup") acquire
  %count = load i32, ptr addrspace(3) %ph
  %below = icmp ult i32 %old, %count
  %b = zext i1 %below to i32
  %m = mul i32 %count, 1000
  %v = add i32 %m, %b
  %po = getelementptr i32, ptr addrspace(1) %out, i32 %i
  store i32 %v, ptr addrspace(1) %po
  ret void
}

; 64-bit LDS values, two per work-item: pairs[2t] = in[gid] * 2^32 + t and
; pairs[2t+1] = n; after a barrier out[gid] = low(pairs[2u]) + high(pairs[2u]) + low
; (pairs[2u+1]) with u = 255 - t.
define amdgpu_kernel void @k_pairs(ptr addrspace(1) %out, ptr addrspace(1) %in, i32 %n) {
  %t = call i32 @llvm.amdgcn.workitem.id.x()
  %i = call i32 @gid()
  %pi = getelementptr i32, ptr addrspace(1) %in, i32 %i
  %x = load i32, ptr addrspace(1) %pi
  %x64 = zext i32 %x to i64
  %hi = shl i64 %x64, 32
  %t64 = zext i32 %t to i64
  %a = or i64 %hi, %t64
  %n64 = zext i32 %n to i64
  %k = shl i32 %t, 1
  %pa = getelementptr [512 x i64], ptr addrspace(3) @pairs, i32 0, i32 %k
  store i64 %a, ptr addrspace(3) %pa
  %pb = getelementptr i64, ptr addrspace(3) %pa, i32 1
  store i64 %n64, ptr addrspace(3) %pb
  fence syncscope("workgroup") release
  call void @llvm.amdgcn.s.barrier()
  fence syncscope("workgroup") acquire
  %u = sub i32 255, %t
  %ku = shl i32 %u, 1
  %qa = getelementptr [512 x i64], ptr addrspace(3) @pairs, i32 0, i32 %ku
  %qb = getelementptr i64, ptr addrspace(3) %qa, i32 1
  %ra = load i64, ptr addrspace(3) %qa
  %rb = load i64, ptr addrspace(3) %qb
  %lo = trunc i64 %ra to i32
  %hs = lshr i64 %ra, 32
  %h = trunc i64 %hs to i32
  %l2 = trunc i64 %rb to i32
  %s1 = add i32 %lo, %h
  %s2 = add i32 %s1, %l2
  %po = getelementptr i32, ptr addrspace(1) %out, i32 %i
  store i32 %s2, ptr addrspace(1) %po
  ret void
}
