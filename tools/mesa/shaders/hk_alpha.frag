#version 450
// Two float outputs; location 0's alpha varies across the primitive (for alpha-to-coverage).
#extension GL_GOOGLE_include_directive : require
#include "hk_common.glsl"

layout(location = 0) out vec4 o_color;
layout(location = 1) out vec4 o_glow;

void main()
{
    o_color = vec4(v_color.rgb, clamp(v_uv.x * v_uv.y, 0.0, 1.0));
    o_glow = v_color.gbra * 0.25 + hk_varyings();
}
