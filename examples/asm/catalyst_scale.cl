__kernel void scale(__global uint* out, uint factor, uint bias)
{
    uint gid = get_global_id(0);
    out[gid] = gid * factor + bias;
}
