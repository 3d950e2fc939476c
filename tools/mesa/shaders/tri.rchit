#version 460
#extension GL_GOOGLE_include_directive : require
#include "common.glsl"

// Triangles (8-byte built-in barycentrics): traces a shadow ray (12-byte payload) from the
// closest hit.
layout(location = 0) rayPayloadInEXT Radiance rad;
layout(location = 1) rayPayloadEXT Shadow sh;
hitAttributeEXT vec2 bary;

void main() {
    vec3 b = vec3(1.0 - bary.x - bary.y, bary);
    vec3 p = gl_WorldRayOriginEXT + gl_WorldRayDirectionEXT * gl_HitTEXT;
    vec3 n = normalize(vec3(b.x - 0.5, 1.0, b.z - 0.5));
    sh = Shadow(0.0, 0u, 0.0);
    traceRayEXT(tlas, gl_RayFlagsTerminateOnFirstHitEXT | gl_RayFlagsSkipClosestHitShaderEXT, 0xff, 0,
                HIT_STRIDE, MISS_SHADOW, p + n * 0.001, 0.001, pc.light.xyz, 100.0, 1);
    rad.color = vec4(b * (0.3 + 0.7 * sh.visibility), 1.0);
    rad.normal_t = vec4(n, gl_HitTEXT);
    rad.origin = p;
    rad.depth += sh.hits;
}
