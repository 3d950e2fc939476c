#version 450
// Eight attributes at locations 0-7, each read in part: the prolog loads only the components
// the shader reads (gpuabi's `agx vs --components`).
#extension GL_GOOGLE_include_directive : require
#define HK_VERTEX
#include "hk_common.glsl"

layout(location = 0) in vec3 a_pos;     // reads xyz
layout(location = 1) in vec4 a_color;   // reads xyzw
layout(location = 2) in vec2 a_uv;      // reads xy
layout(location = 3) in float a_weight; // reads x
layout(location = 4) in ivec4 a_ints;   // reads x, z
layout(location = 5) in uvec2 a_bits;   // reads y
layout(location = 6) in vec4 a_normal;  // reads x, y, w
layout(location = 7) in vec4 a_extra;   // reads w

layout(push_constant) uniform Push {
    vec4 scale_offset; // xy: scale, zw: offset
} pc;

void main()
{
    vec2 p = a_pos.xy * pc.scale_offset.xy + pc.scale_offset.zw;
    gl_Position = vec4(p, a_pos.z * a_weight, 1.0 + a_extra.w);
    v_color = a_color * vec4(a_normal.xy, 1.0, a_normal.w);
    v_ints = ivec4(a_ints.x, a_ints.z, a_ints.x - a_ints.z, gl_VertexIndex);
    v_bits = uvec4(a_bits.y, a_bits.y >> 8u, uint(gl_VertexIndex), 7u);
    v_uv = a_uv;
}
