// Declarations shared by gpuabi's Honeykrisp capture shaders (included by glslang).
// The varyings every vertex shader writes and every fragment shader reads, all of them:
// Mesa links the stages and drops what the fragment shader does not read, and with it the
// vertex shader inputs that only fed it.

#ifdef HK_VERTEX
#define HK_VARYING out
#else
#define HK_VARYING in
#endif

layout(location = 0) HK_VARYING vec4 v_color;
layout(location = 1) flat HK_VARYING ivec4 v_ints;
layout(location = 2) flat HK_VARYING uvec4 v_bits;
layout(location = 3) HK_VARYING vec2 v_uv;

#ifndef HK_VERTEX
// Every component of every varying, folded into one value.
float hk_varyings()
{
    vec4 all = v_color + vec4(v_ints) * 0.5 + vec4(v_bits) * 0.25 + v_uv.xyxy;
    return dot(all, vec4(1.0, 2.0, 3.0, 4.0));
}
#endif
