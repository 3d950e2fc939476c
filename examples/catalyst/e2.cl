// Spec example E2: one in/out buffer.
kernel void inc(global uint* inout)
{
    inout[get_global_id(0)] += 1;
}
