#version 460
#extension GL_EXT_ray_tracing : require

// The shadow ray reached the light.
layout(location = 1) rayPayloadInEXT uint lit;

void main() {
    lit = 1u;
}
