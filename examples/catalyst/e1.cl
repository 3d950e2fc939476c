// Spec example E1: three global buffers and a count.
__kernel void add(uint n, const global uint* a, const global uint* b, global uint* c)
{
    size_t i = get_global_id(0);
    if (i < n)
        c[i] = a[i] + b[i];
}
