#version 460
#extension GL_EXT_ray_tracing : require
#extension GL_GOOGLE_include_directive : require
#include "common.glsl"

// A sky gradient; no hit: ids all ones, hit kind 0, shader id 0x80, the bounces so far.
layout(location = 0) rayPayloadInEXT Path path;

void main() {
    float up = gl_WorldRayDirectionEXT.y * 0.5 + 0.5;
    path.record = uvec4(packUnorm4x8(vec4(0.35, 0.5, 0.55 + 0.45 * up, 1.0)), 0xffffffffu, 0xffffffffu,
                        (0x80u << 8) | (path.depth << 16));
}
