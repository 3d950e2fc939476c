// The signature of iota.s: out[i] = base + i for every global id i.
kernel void iota(uint base, global uint* out) {}
