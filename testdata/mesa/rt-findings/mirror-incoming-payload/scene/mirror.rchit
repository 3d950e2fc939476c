#version 460
#extension GL_EXT_ray_tracing : require
#extension GL_GOOGLE_include_directive : require
#include "common.glsl"

// A mirror: traces the reflected ray while bounces are left (the payload then holds what
// that ray found), else ends the path here, grey; shader id 2.
layout(set = 0, binding = 0) uniform accelerationStructureEXT tlas;
layout(location = 0) rayPayloadInEXT Path path;

void main() {
    path.depth += 1u;
    if (path.depth <= pc.max_bounces) {
        vec3 n = normalize((gl_ObjectToWorldEXT * vec4(0.0, 0.0, 1.0, 0.0)).xyz);
        vec3 p = gl_WorldRayOriginEXT + gl_WorldRayDirectionEXT * gl_HitTEXT;
        vec3 r = reflect(gl_WorldRayDirectionEXT, n);
        traceRayEXT(tlas, gl_RayFlagsNoneEXT, 0xff, 0, 1, 0, p + r * 0.002, 0.001, r, 100.0, 0);
        // Mirrors darken what they reflect a little.
        vec4 c = unpackUnorm4x8(path.record.x);
        path.record.x = packUnorm4x8(vec4(c.rgb * 0.85, 1.0));
    } else {
        path.record = uvec4(packUnorm4x8(vec4(0.5, 0.5, 0.5, 1.0)),
                            uint(gl_InstanceCustomIndexEXT) | (uint(gl_InstanceID) << 24),
                            uint(gl_PrimitiveID) | (uint(gl_GeometryIndexEXT) << 24),
                            gl_HitKindEXT | (2u << 8) | (path.depth << 16));
    }
}
