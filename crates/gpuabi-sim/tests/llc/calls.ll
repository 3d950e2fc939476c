; Kernels with calls for tests/llc_objects.rs. Every kernel takes (out, in, n) and writes one i32 per
; work-item at out[gid], gid = workgroup.id.x * 64 + workitem.id.x (the test dispatches
; work-groups of 64). The test computes every value again in Rust.

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

; madd(a, b) = a * b + 7
define internal i32 @madd(i32 %a, i32 %b) noinline {
  %p = mul i32 %a, %b
  %r = add i32 %p, 7
  ret i32 %r
}

; out = madd(in, n) + madd(gid, 2), with in and gid live across the calls
define amdgpu_kernel void @k_call(ptr addrspace(1) %out, ptr addrspace(1) %in, i32 %n) {
  %i = call i32 @gid()
  %x = call i32 @load(ptr addrspace(1) %in, i32 %i)
  %a = call i32 @madd(i32 %x, i32 %n)
  %b = call i32 @madd(i32 %i, i32 2)
  %s = add i32 %a, %b
  %t = xor i32 %s, %x
  %u = add i32 %t, %i
  call void @store(ptr addrspace(1) %out, i32 %i, i32 %u)
  ret void
}

; tri(m) = m == 0 ? 0 : m * 3 + tri(m - 1), recursing a different depth in every lane
define internal i32 @tri(i32 %m) noinline {
entry:
  %z = icmp eq i32 %m, 0
  br i1 %z, label %base, label %rec
base:
  ret i32 0
rec:
  %m1 = sub i32 %m, 1
  %r = call i32 @tri(i32 %m1)
  %m3 = mul i32 %m, 3
  %s = add i32 %m3, %r
  ret i32 %s
}

; out = tri(in % 12) + n
define amdgpu_kernel void @k_rec(ptr addrspace(1) %out, ptr addrspace(1) %in, i32 %n) {
  %i = call i32 @gid()
  %x = call i32 @load(ptr addrspace(1) %in, i32 %i)
  %m = urem i32 %x, 12
  %r = call i32 @tri(i32 %m)
  %s = add i32 %r, %n
  call void @store(ptr addrspace(1) %out, i32 %i, i32 %s)
  ret void
}

; 36 arguments: 32 in v0-v31, the rest on the stack. Returns sum of a_k * (k + 1).
define internal i32 @many(i32 %a0, i32 %a1, i32 %a2, i32 %a3, i32 %a4, i32 %a5, i32 %a6, i32 %a7,
    i32 %a8, i32 %a9, i32 %a10, i32 %a11, i32 %a12, i32 %a13, i32 %a14, i32 %a15,
    i32 %a16, i32 %a17, i32 %a18, i32 %a19, i32 %a20, i32 %a21, i32 %a22, i32 %a23,
    i32 %a24, i32 %a25, i32 %a26, i32 %a27, i32 %a28, i32 %a29, i32 %a30, i32 %a31,
    i32 %a32, i32 %a33, i32 %a34, i32 %a35) noinline {
  %s0 = mul i32 %a0, 1
  %s1 = mul i32 %a1, 2
  %s2 = mul i32 %a2, 3
  %s3 = mul i32 %a3, 4
  %s4 = mul i32 %a4, 5
  %s5 = mul i32 %a5, 6
  %s6 = mul i32 %a6, 7
  %s7 = mul i32 %a7, 8
  %s8 = mul i32 %a8, 9
  %s9 = mul i32 %a9, 10
  %s10 = mul i32 %a10, 11
  %s11 = mul i32 %a11, 12
  %s12 = mul i32 %a12, 13
  %s13 = mul i32 %a13, 14
  %s14 = mul i32 %a14, 15
  %s15 = mul i32 %a15, 16
  %s16 = mul i32 %a16, 17
  %s17 = mul i32 %a17, 18
  %s18 = mul i32 %a18, 19
  %s19 = mul i32 %a19, 20
  %s20 = mul i32 %a20, 21
  %s21 = mul i32 %a21, 22
  %s22 = mul i32 %a22, 23
  %s23 = mul i32 %a23, 24
  %s24 = mul i32 %a24, 25
  %s25 = mul i32 %a25, 26
  %s26 = mul i32 %a26, 27
  %s27 = mul i32 %a27, 28
  %s28 = mul i32 %a28, 29
  %s29 = mul i32 %a29, 30
  %s30 = mul i32 %a30, 31
  %s31 = mul i32 %a31, 32
  %s32 = mul i32 %a32, 33
  %s33 = mul i32 %a33, 34
  %s34 = mul i32 %a34, 35
  %s35 = mul i32 %a35, 36
  %t0 = add i32 %s0, %s1
  %t1 = add i32 %t0, %s2
  %t2 = add i32 %t1, %s3
  %t3 = add i32 %t2, %s4
  %t4 = add i32 %t3, %s5
  %t5 = add i32 %t4, %s6
  %t6 = add i32 %t5, %s7
  %t7 = add i32 %t6, %s8
  %t8 = add i32 %t7, %s9
  %t9 = add i32 %t8, %s10
  %t10 = add i32 %t9, %s11
  %t11 = add i32 %t10, %s12
  %t12 = add i32 %t11, %s13
  %t13 = add i32 %t12, %s14
  %t14 = add i32 %t13, %s15
  %t15 = add i32 %t14, %s16
  %t16 = add i32 %t15, %s17
  %t17 = add i32 %t16, %s18
  %t18 = add i32 %t17, %s19
  %t19 = add i32 %t18, %s20
  %t20 = add i32 %t19, %s21
  %t21 = add i32 %t20, %s22
  %t22 = add i32 %t21, %s23
  %t23 = add i32 %t22, %s24
  %t24 = add i32 %t23, %s25
  %t25 = add i32 %t24, %s26
  %t26 = add i32 %t25, %s27
  %t27 = add i32 %t26, %s28
  %t28 = add i32 %t27, %s29
  %t29 = add i32 %t28, %s30
  %t30 = add i32 %t29, %s31
  %t31 = add i32 %t30, %s32
  %t32 = add i32 %t31, %s33
  %t33 = add i32 %t32, %s34
  %t34 = add i32 %t33, %s35
  ret i32 %t34
}

; out = many(in + 0, in + 1, ..., in + 35) with argument k = in + k
define amdgpu_kernel void @k_args(ptr addrspace(1) %out, ptr addrspace(1) %in, i32 %n) {
  %i = call i32 @gid()
  %x = call i32 @load(ptr addrspace(1) %in, i32 %i)
  %b0 = add i32 %x, 0
  %b1 = add i32 %x, 1
  %b2 = add i32 %x, 2
  %b3 = add i32 %x, 3
  %b4 = add i32 %x, 4
  %b5 = add i32 %x, 5
  %b6 = add i32 %x, 6
  %b7 = add i32 %x, 7
  %b8 = add i32 %x, 8
  %b9 = add i32 %x, 9
  %b10 = add i32 %x, 10
  %b11 = add i32 %x, 11
  %b12 = add i32 %x, 12
  %b13 = add i32 %x, 13
  %b14 = add i32 %x, 14
  %b15 = add i32 %x, 15
  %b16 = add i32 %x, 16
  %b17 = add i32 %x, 17
  %b18 = add i32 %x, 18
  %b19 = add i32 %x, 19
  %b20 = add i32 %x, 20
  %b21 = add i32 %x, 21
  %b22 = add i32 %x, 22
  %b23 = add i32 %x, 23
  %b24 = add i32 %x, 24
  %b25 = add i32 %x, 25
  %b26 = add i32 %x, 26
  %b27 = add i32 %x, 27
  %b28 = add i32 %x, 28
  %b29 = add i32 %x, 29
  %b30 = add i32 %x, 30
  %b31 = add i32 %x, 31
  %b32 = add i32 %x, 32
  %b33 = add i32 %x, 33
  %b34 = add i32 %x, 34
  %b35 = add i32 %x, 35
  %r = call i32 @many(i32 %b0, i32 %b1, i32 %b2, i32 %b3, i32 %b4, i32 %b5, i32 %b6, i32 %b7,
      i32 %b8, i32 %b9, i32 %b10, i32 %b11, i32 %b12, i32 %b13, i32 %b14, i32 %b15,
      i32 %b16, i32 %b17, i32 %b18, i32 %b19, i32 %b20, i32 %b21, i32 %b22, i32 %b23,
      i32 %b24, i32 %b25, i32 %b26, i32 %b27, i32 %b28, i32 %b29, i32 %b30, i32 %b31,
      i32 %b32, i32 %b33, i32 %b34, i32 %b35)
  call void @store(ptr addrspace(1) %out, i32 %i, i32 %r)
  ret void
}

; msub(a, b) = a - b * 5
define internal i32 @msub(i32 %a, i32 %b) noinline {
  %p = mul i32 %b, 5
  %r = sub i32 %a, %p
  ret i32 %r
}

; out = (gid % 3 == 0 ? madd : msub)(in, gid): a per-lane (divergent) indirect call
define amdgpu_kernel void @k_indirect(ptr addrspace(1) %out, ptr addrspace(1) %in, i32 %n) {
  %i = call i32 @gid()
  %x = call i32 @load(ptr addrspace(1) %in, i32 %i)
  %m = urem i32 %i, 3
  %c = icmp eq i32 %m, 0
  %f = select i1 %c, ptr @madd, ptr @msub
  %r = call i32 %f(i32 %x, i32 %i)
  call void @store(ptr addrspace(1) %out, i32 %i, i32 %r)
  ret void
}
