// The shadow ray both closest-hit shaders trace: from the hit point towards the light, the
// first hit ends it, no closest-hit shader runs; miss 1 sets the payload to 1.
layout(set = 0, binding = 0) uniform accelerationStructureEXT tlas;
layout(location = 1) rayPayloadEXT uint lit;

const vec3 LIGHT_DIR = vec3(0.4082483, 0.8164966, 0.4082483);

uint shadow(vec3 p, vec3 n) {
    lit = 0u;
    traceRayEXT(tlas, gl_RayFlagsTerminateOnFirstHitEXT | gl_RayFlagsSkipClosestHitShaderEXT, 0xff, 0, 1, 1,
                p + n * 0.002, 0.001, LIGHT_DIR, 100.0, 1);
    return lit;
}
