#version 450
// 16-bit outputs: float16_t, int16_t and uint16_t vectors, plus a 32-bit float.
#extension GL_GOOGLE_include_directive : require
#extension GL_EXT_shader_explicit_arithmetic_types_float16 : require
#extension GL_EXT_shader_explicit_arithmetic_types_int16 : require
#include "hk_common.glsl"

layout(location = 0) out f16vec4 o_half;
layout(location = 1) out i16vec4 o_short;
layout(location = 2) out u16vec2 o_ushort;
layout(location = 3) out vec4 o_full;

void main()
{
    o_half = f16vec4(v_color);
    o_short = i16vec4(v_ints);
    o_ushort = u16vec2(v_bits.xy);
    o_full = vec4(v_uv, 0.0, hk_varyings());
}
