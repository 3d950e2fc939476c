// A kernel with every argument kind: values, vectors, a structure, pointers in all three
// address spaces, images, a sampler and a counter.
#define N 4

typedef struct {
    float4 pos;     // 16 bytes, 16-aligned
    int id;         // 4 bytes
    uchar flags[3]; // 3 bytes
} particle;         // size 32, alignment 16

struct pair { long a; char b; };   // size 16, alignment 8

typedef unsigned int u32;

float helper(float x) { return x * 2.0f; }

__constant float table[N] = { 1.0f, 2.0f, 3.0f, 4.0f };

__kernel __attribute__((reqd_work_group_size(64, 1, 1)))
void mixed(u32 count,
           float3 scale,
           ulong3 wide,
           particle p,
           struct pair q,
           __global const particle* restrict in,
           __global float4* out,
           __global int* /*unused*/ spare,
           __constant float* coeffs,
           __local float* tile,
           __read_only image2d_t src,
           __write_only image2d_t dst,
           sampler_t smp,
           counter32_t hits)
{
    int i = get_global_id(0);
    out[i] = read_imagef(src, smp, (int2)(i, 0)) * helper(scale.x);
}
