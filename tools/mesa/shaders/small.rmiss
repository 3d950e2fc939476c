#version 460
#extension GL_GOOGLE_include_directive : require
#include "common.glsl"

// The small set's miss (12-byte payload): sky for camera rays, light for shadow rays.
layout(location = 0) rayPayloadInEXT vec3 color;

void main() {
    color = vec3(0.1, 0.1, 0.2) * (1.0 + gl_WorldRayDirectionEXT.y);
}
