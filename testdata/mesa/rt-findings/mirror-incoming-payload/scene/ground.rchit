#version 460
#extension GL_EXT_ray_tracing : require
#extension GL_GOOGLE_include_directive : require
#include "common.glsl"

// The ground's colour comes from callable 0 (which calls callable 1); shader id 1. The ids
// are read before the call, as a hit shader reads them before a nested trace (see the
// procedural scene's ground.rchit).
layout(location = 0) rayPayloadInEXT Path path;
layout(location = 0) callableDataEXT Shade shade;

void main() {
    uvec3 ids = uvec3(uint(gl_InstanceCustomIndexEXT) | (uint(gl_InstanceID) << 24),
                      uint(gl_PrimitiveID) | (uint(gl_GeometryIndexEXT) << 24), gl_HitKindEXT);
    shade.position = gl_WorldRayOriginEXT + gl_WorldRayDirectionEXT * gl_HitTEXT;
    shade.calls = 0u;
    executeCallableEXT(0, 0);
    path.record = uvec4(packUnorm4x8(vec4(shade.colour, 1.0)), ids.x, ids.y,
                        ids.z | (1u << 8) | (path.depth << 16) | (shade.calls << 24));
}
