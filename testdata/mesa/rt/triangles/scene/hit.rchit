#version 460
#extension GL_EXT_ray_tracing : require

// Colour from the barycentrics, shaded by the instance's custom index; shader id 1.
layout(location = 0) rayPayloadInEXT uvec4 record;
hitAttributeEXT vec2 bary;

void main() {
    vec3 b = vec3(1.0 - bary.x - bary.y, bary.x, bary.y);
    float shade = 0.55 + 0.15 * float(gl_InstanceCustomIndexEXT % 3);
    record = uvec4(packUnorm4x8(vec4(b * shade, 1.0)),
                   uint(gl_InstanceCustomIndexEXT) | (uint(gl_InstanceID) << 24),
                   uint(gl_PrimitiveID) | (uint(gl_GeometryIndexEXT) << 24),
                   gl_HitKindEXT | (1u << 8));
}
