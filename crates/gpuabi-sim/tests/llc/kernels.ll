; Kernels for tests/llc_objects.rs. Every kernel takes (out, in, n) and writes one i32 per
; work-item at out[gid], gid = workgroup.id.x * 64 + workitem.id.x (the test dispatches
; work-groups of 64). The test computes every value again in Rust.

@table = internal addrspace(1) constant [8 x i32] [i32 3, i32 1, i32 4, i32 1, i32 5, i32 9, i32 2, i32 6]
@bias = addrspace(1) global i32 1000

declare i32 @llvm.amdgcn.workitem.id.x()
declare i32 @llvm.amdgcn.workgroup.id.x()

define internal i32 @gid() alwaysinline {
  %t = call i32 @llvm.amdgcn.workitem.id.x()
  %g = call i32 @llvm.amdgcn.workgroup.id.x()
  %b = shl i32 %g, 6
  %i = add i32 %b, %t
  ret i32 %i
}

define internal void @store(ptr addrspace(1) %out, i32 %i, i32 %v) alwaysinline {
  %p = getelementptr i32, ptr addrspace(1) %out, i32 %i
  store i32 %v, ptr addrspace(1) %p
  ret void
}

define internal i32 @load(ptr addrspace(1) %in, i32 %i) alwaysinline {
  %p = getelementptr i32, ptr addrspace(1) %in, i32 %i
  %v = load i32, ptr addrspace(1) %p
  ret i32 %v
}

; out = in * 3 + n ^ (gid << 1)
define amdgpu_kernel void @k_straight(ptr addrspace(1) %out, ptr addrspace(1) %in, i32 %n) {
  %i = call i32 @gid()
  %x = call i32 @load(ptr addrspace(1) %in, i32 %i)
  %a = mul i32 %x, 3
  %b = add i32 %a, %n
  %c = shl i32 %i, 1
  %d = xor i32 %b, %c
  call void @store(ptr addrspace(1) %out, i32 %i, i32 %d)
  ret void
}

; out = sum over k in 0..(in % 16) of (k * n + gid)
define amdgpu_kernel void @k_loop(ptr addrspace(1) %out, ptr addrspace(1) %in, i32 %n) {
entry:
  %i = call i32 @gid()
  %x = call i32 @load(ptr addrspace(1) %in, i32 %i)
  %m = urem i32 %x, 16
  br label %head
head:
  %k = phi i32 [ 0, %entry ], [ %k1, %body ]
  %s = phi i32 [ 0, %entry ], [ %s1, %body ]
  %c = icmp ult i32 %k, %m
  br i1 %c, label %body, label %done
body:
  %kn = mul i32 %k, %n
  %t = add i32 %kn, %i
  %s1 = add i32 %s, %t
  %k1 = add i32 %k, 1
  br label %head
done:
  call void @store(ptr addrspace(1) %out, i32 %i, i32 %s)
  ret void
}

; out = gid odd ? in * in : in - n
define amdgpu_kernel void @k_branch(ptr addrspace(1) %out, ptr addrspace(1) %in, i32 %n) {
entry:
  %i = call i32 @gid()
  %x = call i32 @load(ptr addrspace(1) %in, i32 %i)
  %odd = and i32 %i, 1
  %c = icmp ne i32 %odd, 0
  br i1 %c, label %then, label %else
then:
  %sq = mul i32 %x, %x
  br label %join
else:
  %df = sub i32 %x, %n
  br label %join
join:
  %r = phi i32 [ %sq, %then ], [ %df, %else ]
  call void @store(ptr addrspace(1) %out, i32 %i, i32 %r)
  ret void
}

; arr[k] = in * (k + 1) for k in 0..16; out = arr[(gid * 5) % 16] + arr[n % 16]
define amdgpu_kernel void @k_stack(ptr addrspace(1) %out, ptr addrspace(1) %in, i32 %n) {
entry:
  %arr = alloca [16 x i32], align 4, addrspace(5)
  %i = call i32 @gid()
  %x = call i32 @load(ptr addrspace(1) %in, i32 %i)
  br label %fill
fill:
  %k = phi i32 [ 0, %entry ], [ %k1, %fill ]
  %k1 = add i32 %k, 1
  %v = mul i32 %x, %k1
  %p = getelementptr [16 x i32], ptr addrspace(5) %arr, i32 0, i32 %k
  store volatile i32 %v, ptr addrspace(5) %p
  %c = icmp ult i32 %k1, 16
  br i1 %c, label %fill, label %read
read:
  %i5 = mul i32 %i, 5
  %j = urem i32 %i5, 16
  %q = getelementptr [16 x i32], ptr addrspace(5) %arr, i32 0, i32 %j
  %a = load volatile i32, ptr addrspace(5) %q
  %nm = urem i32 %n, 16
  %q2 = getelementptr [16 x i32], ptr addrspace(5) %arr, i32 0, i32 %nm
  %b = load volatile i32, ptr addrspace(5) %q2
  %s = add i32 %a, %b
  call void @store(ptr addrspace(1) %out, i32 %i, i32 %s)
  ret void
}

; out = table[in % 8] * bias + gid: table is internal (reached pc-relatively), bias has
; default visibility (reached through the GOT).
define amdgpu_kernel void @k_global(ptr addrspace(1) %out, ptr addrspace(1) %in, i32 %n) {
  %i = call i32 @gid()
  %x = call i32 @load(ptr addrspace(1) %in, i32 %i)
  %m = urem i32 %x, 8
  %p = getelementptr [8 x i32], ptr addrspace(1) @table, i32 0, i32 %m
  %t = load i32, ptr addrspace(1) %p
  %b = load i32, ptr addrspace(1) @bias
  %tb = mul i32 %t, %b
  %r = add i32 %tb, %i
  call void @store(ptr addrspace(1) %out, i32 %i, i32 %r)
  ret void
}

; Words packed from sub-dword loads, and halves of words stored as shorts: llc writes them
; with RDNA's loads into the high half of a VGPR (`d16_hi`) and stores of the high half.
; j = gid ^ 1. Even work-items: w = (half 1 of in[gid]) | sext(byte 0 of in[j]) << 16,
; then w ^ n is stored with its halves swapped (two i16 stores). Odd work-items:
; out[gid] = (zext(byte 3 of in[gid]) | (half 0 of in[j]) << 16) + 0x70005.
define amdgpu_kernel void @k_halves(ptr addrspace(1) %out, ptr addrspace(1) %in, i32 %n) {
entry:
  %i = call i32 @gid()
  %j = xor i32 %i, 1
  %k = shl i32 %i, 1
  %k1 = or i32 %k, 1
  %m = shl i32 %j, 2
  %odd = and i32 %i, 1
  %isodd = icmp ne i32 %odd, 0
  br i1 %isodd, label %second, label %first
first:
  %pa = getelementptr i16, ptr addrspace(1) %in, i32 %k1
  %a = load i16, ptr addrspace(1) %pa
  %pb = getelementptr i8, ptr addrspace(1) %in, i32 %m
  %b8 = load i8, ptr addrspace(1) %pb
  %b = sext i8 %b8 to i16
  %v0 = insertelement <2 x i16> undef, i16 %a, i32 0
  %v1 = insertelement <2 x i16> %v0, i16 %b, i32 1
  %w = bitcast <2 x i16> %v1 to i32
  %w2 = xor i32 %w, %n
  %lo = trunc i32 %w2 to i16
  %hiw = lshr i32 %w2, 16
  %hi = trunc i32 %hiw to i16
  %po = getelementptr i16, ptr addrspace(1) %out, i32 %k
  %po1 = getelementptr i16, ptr addrspace(1) %out, i32 %k1
  store i16 %hi, ptr addrspace(1) %po
  store i16 %lo, ptr addrspace(1) %po1
  ret void
second:
  %q = shl i32 %i, 2
  %q3 = or i32 %q, 3
  %pc = getelementptr i8, ptr addrspace(1) %in, i32 %q3
  %jh = shl i32 %j, 1
  %pd = getelementptr i16, ptr addrspace(1) %in, i32 %jh
  %d = load i16, ptr addrspace(1) %pd
  %c8 = load i8, ptr addrspace(1) %pc
  %c = zext i8 %c8 to i16
  %g0 = insertelement <2 x i16> undef, i16 %d, i32 1
  %g1 = insertelement <2 x i16> %g0, i16 %c, i32 0
  %gw = bitcast <2 x i16> %g1 to i32
  %g2 = add i32 %gw, 458757
  %pg = getelementptr i32, ptr addrspace(1) %out, i32 %i
  store i32 %g2, ptr addrspace(1) %pg
  ret void
}
