#version 460
#extension GL_GOOGLE_include_directive : require
#include "common.glsl"

// Sky: traces a sun-visibility ray from far along the missed ray (recursion from a miss).
layout(location = 0) rayPayloadInEXT Radiance rad;
layout(location = 1) rayPayloadEXT Shadow sh;

void main() {
    vec3 d = gl_WorldRayDirectionEXT;
    float sky = 0.5 + 0.5 * d.y;
    sh = Shadow(1.0, 0u, 0.0);
    if (rad.depth < pc.max_depth) {
        traceRayEXT(tlas, gl_RayFlagsTerminateOnFirstHitEXT | gl_RayFlagsSkipClosestHitShaderEXT, 0xf0, 0,
                    HIT_STRIDE, MISS_SHADOW, gl_WorldRayOriginEXT + d * 50.0, 0.0, pc.light.xyz, 50.0, 1);
    }
    vec3 c = mix(vec3(0.9, 0.8, 0.7), vec3(0.2, 0.4, 0.9), sky);
    rad.color = vec4(c * (0.5 + 0.5 * sh.visibility), 1.0);
    rad.normal_t = vec4(-d, gl_RayTmaxEXT);
    rad.origin = gl_WorldRayOriginEXT + d * gl_RayTmaxEXT;
}
