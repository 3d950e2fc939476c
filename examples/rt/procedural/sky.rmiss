#version 460
#extension GL_EXT_ray_tracing : require

// A sky gradient by the ray's direction; no hit: ids all ones, shader id 0x80.
layout(location = 0) rayPayloadInEXT uvec4 record;

void main() {
    float up = gl_WorldRayDirectionEXT.y * 0.5 + 0.5;
    record = uvec4(packUnorm4x8(vec4(0.4, 0.55, 0.6 + 0.4 * up, 1.0)), 0xffffffffu, 0xffffffffu, 0x80u << 8);
}
