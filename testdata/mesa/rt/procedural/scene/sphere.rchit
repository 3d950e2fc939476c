#version 460
#extension GL_EXT_ray_tracing : require
#extension GL_GOOGLE_include_directive : require
#include "shadow.glsl"

// A sphere shaded by its object-space normal (sphere.rint's attribute) and the shadow ray;
// shader id 2.
layout(location = 0) rayPayloadInEXT uvec4 record;
hitAttributeEXT vec3 normal;

void main() {
    // The hit's ids before the shadow ray: lavapipe (Mesa 26.1) gives a closest-hit shader the
    // built-ins of its own nested trace once that returns.
    uvec3 ids = uvec3(uint(gl_InstanceCustomIndexEXT) | (uint(gl_InstanceID) << 24),
                      uint(gl_PrimitiveID) | (uint(gl_GeometryIndexEXT) << 24), gl_HitKindEXT);
    vec3 p = gl_WorldRayOriginEXT + gl_WorldRayDirectionEXT * gl_HitTEXT;
    vec3 n = normalize((gl_ObjectToWorldEXT * vec4(normal, 0.0)).xyz);
    uint light = shadow(p, n);
    float diffuse = max(dot(n, LIGHT_DIR), 0.0) * (light == 1u ? 1.0 : 0.0);
    vec3 base = (ids.x & 0xffffffu) == 2u ? vec3(0.9, 0.35, 0.2) : vec3(0.25, 0.5, 0.95);
    record = uvec4(packUnorm4x8(vec4(base * (0.25 + 0.75 * diffuse), 1.0)),
                   ids.x, ids.y, ids.z | (2u << 8) | (light << 16));
}
