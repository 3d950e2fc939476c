#version 460
#extension GL_GOOGLE_include_directive : require
#include "common.glsl"

// Shadow miss: the light is visible.
layout(location = 1) rayPayloadInEXT Shadow sh;

void main() {
    sh.visibility = 1.0;
    sh.t = gl_RayTmaxEXT;
}
