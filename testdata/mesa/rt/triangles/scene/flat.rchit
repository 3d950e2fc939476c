#version 460
#extension GL_EXT_ray_tracing : require

// A flat colour per primitive, darker on back faces; shader id 2.
layout(location = 0) rayPayloadInEXT uvec4 record;

void main() {
    const vec3 colours[4] = vec3[4](vec3(0.9, 0.3, 0.2), vec3(0.2, 0.8, 0.3), vec3(0.3, 0.4, 0.9), vec3(0.8, 0.8, 0.2));
    float face = gl_HitKindEXT == gl_HitKindFrontFacingTriangleEXT ? 1.0 : 0.5;
    record = uvec4(packUnorm4x8(vec4(colours[gl_PrimitiveID % 4] * face, 1.0)),
                   uint(gl_InstanceCustomIndexEXT) | (uint(gl_InstanceID) << 24),
                   uint(gl_PrimitiveID) | (uint(gl_GeometryIndexEXT) << 24),
                   gl_HitKindEXT | (2u << 8));
}
