#version 460
#extension GL_EXT_ray_tracing : require
#extension GL_GOOGLE_include_directive : require
#include "common.glsl"

// A fence strip coloured by its primitive id; shader id 3.
layout(location = 0) rayPayloadInEXT Path path;
hitAttributeEXT vec2 bary;

void main() {
    float g = 0.35 + 0.05 * float(gl_PrimitiveID % 6);
    path.record = uvec4(packUnorm4x8(vec4(0.75, g, 0.2 + 0.5 * bary.y, 1.0)),
                        uint(gl_InstanceCustomIndexEXT) | (uint(gl_InstanceID) << 24),
                        uint(gl_PrimitiveID) | (uint(gl_GeometryIndexEXT) << 24),
                        gl_HitKindEXT | (3u << 8) | (path.depth << 16));
}
