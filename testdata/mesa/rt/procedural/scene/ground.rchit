#version 460
#extension GL_EXT_ray_tracing : require
#extension GL_GOOGLE_include_directive : require
#include "shadow.glsl"

// A checkered ground, darkened in shadow; shader id 1.
layout(location = 0) rayPayloadInEXT uvec4 record;

void main() {
    // The hit's ids before the shadow ray: lavapipe (Mesa 26.1) gives a closest-hit shader the
    // built-ins of its own nested trace once that returns.
    uvec3 ids = uvec3(uint(gl_InstanceCustomIndexEXT) | (uint(gl_InstanceID) << 24),
                      uint(gl_PrimitiveID) | (uint(gl_GeometryIndexEXT) << 24), gl_HitKindEXT);
    vec3 p = gl_WorldRayOriginEXT + gl_WorldRayDirectionEXT * gl_HitTEXT;
    uint light = shadow(p, vec3(0.0, 1.0, 0.0));
    float check = ((int(floor(p.x * 2.0)) + int(floor(p.z * 2.0))) & 1) == 0 ? 0.8 : 0.5;
    float shade = light == 1u ? 1.0 : 0.4;
    record = uvec4(packUnorm4x8(vec4(vec3(check * shade), 1.0)),
                   ids.x, ids.y, ids.z | (1u << 8) | (light << 16));
}
