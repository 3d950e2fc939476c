#version 450
// One per-vertex attribute and five meant for per-instance bindings (the draws give them
// divisors 1, 3, 0, 7 and 4).
#extension GL_GOOGLE_include_directive : require
#define HK_VERTEX
#include "hk_common.glsl"

layout(location = 0) in vec2 a_corner;       // reads xy
layout(location = 1) in vec4 a_inst_color;   // reads xyzw
layout(location = 2) in vec3 a_inst_offset;  // reads xyz
layout(location = 3) in vec4 a_group;        // reads x, w
layout(location = 4) in uvec2 a_inst_id;     // reads xy
layout(location = 5) in ivec2 a_shared;      // reads y

void main()
{
    vec2 p = a_corner * a_group.x + a_inst_offset.xy;
    gl_Position = vec4(p, a_inst_offset.z, 1.0);
    v_color = vec4(a_inst_color.rgb, a_inst_color.a * a_group.w);
    v_ints = ivec4(a_shared.y, gl_InstanceIndex, gl_VertexIndex, -1);
    v_bits = uvec4(a_inst_id, a_inst_id.x ^ a_inst_id.y, 0u);
    v_uv = a_corner;
}
