#version 460
#extension GL_GOOGLE_include_directive : require
#include "common.glsl"

// Spheres (16-byte attributes): shading from the normal. Calls nothing.
layout(location = 0) rayPayloadInEXT Radiance rad;
hitAttributeEXT vec4 sphere_hit;

void main() {
    rad.color = vec4(sphere_hit.xyz * 0.5 + 0.5, 1.0 - sphere_hit.w);
    rad.normal_t = vec4(sphere_hit.xyz, gl_HitTEXT);
    rad.origin = gl_WorldRayOriginEXT + gl_WorldRayDirectionEXT * gl_HitTEXT;
}
