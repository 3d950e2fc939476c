#version 460
#extension GL_GOOGLE_include_directive : require
#include "common.glsl"

// The small set's closest hit for triangles (8-byte barycentrics, 12-byte payload): traces
// a shadow ray with the same payload type.
layout(location = 0) rayPayloadInEXT vec3 color;
layout(location = 1) rayPayloadEXT vec3 shadow;
hitAttributeEXT vec2 bary;

void main() {
    vec3 p = gl_WorldRayOriginEXT + gl_WorldRayDirectionEXT * gl_HitTEXT;
    shadow = vec3(0.0);
    traceRayEXT(tlas, gl_RayFlagsTerminateOnFirstHitEXT | gl_RayFlagsSkipClosestHitShaderEXT, 0xff, 0, 1, 0,
                p, 0.001, pc.light.xyz, 100.0, 1);
    color = vec3(bary, 1.0 - bary.x - bary.y) * (0.25 + shadow.z) / (1.0 + gl_HitTEXT);
}
