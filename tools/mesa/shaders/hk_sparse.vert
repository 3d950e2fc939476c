#version 450
// Four attributes at scattered locations (1, 4, 9, 15): Mesa compacts them into prolog slots
// 0-3 (agx_fill_velem_keys in src/asahi/vulkan/hk_cmd_draw.c).
#extension GL_GOOGLE_include_directive : require
#define HK_VERTEX
#include "hk_common.glsl"

layout(location = 1) in vec4 a_pos;      // reads x, y
layout(location = 4) in vec4 a_tint;     // reads y, z
layout(location = 9) in ivec4 a_id;      // reads xyzw
layout(location = 15) in uvec4 a_flags;  // reads x

void main()
{
    gl_Position = vec4(a_pos.xy, 0.5, 1.0);
    v_color = vec4(a_tint.yz, a_tint.y * a_tint.z, 1.0);
    v_ints = a_id;
    v_bits = uvec4(a_flags.x, a_flags.x & 0xffu, a_flags.x >> 16u, uint(gl_InstanceIndex));
    v_uv = a_pos.xy * 0.5 + 0.5;
}
