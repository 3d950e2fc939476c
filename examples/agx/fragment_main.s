; Main fragment shader: the colour of location 0 in r4..r7 (32-bit).
; Red and green from cf0, cf1 (x / 32, y / 32), blue 0.25, alpha from cf2 ((x + y) / 64).
iter     r4_r5, cf0
ldimm    r6, 1048576000        ; 0.25
iter     r7, cf2
