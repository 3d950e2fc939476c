#version 460
#extension GL_GOOGLE_include_directive : require
#include "common.glsl"

// Boxes (32-byte attributes): shading from the face and the hit point. Calls nothing.
struct BoxHit {
    vec4 normal_t;
    vec4 uvw_face;
};
layout(location = 0) rayPayloadInEXT Radiance rad;
hitAttributeEXT BoxHit box;

void main() {
    vec3 checker = fract(box.uvw_face.xyz * 4.0);
    rad.color = vec4(vec3(0.4, 0.3, 0.2) + checker * 0.5, box.normal_t.w - gl_HitTEXT);
    rad.normal_t = vec4(box.normal_t.xyz, gl_HitTEXT);
    rad.origin = gl_WorldRayOriginEXT + gl_WorldRayDirectionEXT * gl_HitTEXT;
    rad.depth += uint(box.uvw_face.w);
}
