#version 450
// Dual-source blending: the second colour of location 0 (index 1).
#extension GL_GOOGLE_include_directive : require
#include "hk_common.glsl"

layout(location = 0, index = 0) out vec4 o_src0;
layout(location = 0, index = 1) out vec4 o_src1;

void main()
{
    o_src0 = v_color;
    o_src1 = vec4(v_uv, 1.0 - v_uv.x, fract(hk_varyings()));
}
