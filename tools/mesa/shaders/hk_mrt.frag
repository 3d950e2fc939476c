#version 450
// Four 32-bit outputs: float, signed and unsigned integer, float.
#extension GL_GOOGLE_include_directive : require
#include "hk_common.glsl"

layout(location = 0) out vec4 o_color;
layout(location = 1) out ivec4 o_ints;
layout(location = 2) out uvec2 o_bits;
layout(location = 3) out vec4 o_aux;

void main()
{
    o_color = v_color;
    o_ints = v_ints + ivec4(gl_FragCoord.xy, 0, 0);
    o_bits = v_bits.xy ^ v_bits.zw;
    o_aux = vec4(v_uv, fract(v_uv.x * 8.0), v_color.a * 0.5);
}
