#version 450
// Reads gl_SampleID, which makes the shader run per sample (sample shading).
#extension GL_GOOGLE_include_directive : require
#include "hk_common.glsl"

layout(location = 0) out vec2 o_pos;
layout(location = 1) out uint o_sample;

void main()
{
    o_pos = gl_SamplePosition * v_color.xy + hk_varyings();
    o_sample = uint(gl_SampleID) | (v_bits.x << 4u);
}
