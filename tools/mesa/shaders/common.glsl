// Declarations shared by gpuabi's ray-tracing capture shaders (included by glslang).
#extension GL_EXT_ray_tracing : require

// Descriptor set 0: binding 0 the top-level acceleration structure, binding 1 a storage buffer.
layout(set = 0, binding = 0) uniform accelerationStructureEXT tlas;
layout(set = 0, binding = 1, std430) buffer Frame {
    vec4 pixels[];
} frame;

layout(push_constant) uniform Push {
    vec4 eye;       // xyz: camera position, w: lens jitter
    vec4 light;     // xyz: direction towards the light, w: intensity
    float time;
    uint max_depth; // radiance.rmiss traces only below this payload depth
} pc;

// The 48-byte radiance payload.
struct Radiance {
    vec4 color;
    vec4 normal_t;  // xyz: surface normal, w: hit distance
    vec3 origin;    // where the next ray starts
    uint depth;
};

// The 12-byte shadow payload.
struct Shadow {
    float visibility;
    uint hits;
    float t;
};

// The 40-byte callable data of noise.rcall.
struct Noise {
    vec4 p;         // xyz: position, w: octaves to add - 1 (0 to 3)
    vec4 amp;       // amplitude of each octave
    vec2 result;
};

// The full set's SBT: hit groups 0 triangles, 1 spheres, 2 boxes, chosen by each instance's
// SBT offset (stride 1); misses 0 radiance, 1 shadow; callables 0 shade, 1 noise, 2 hash.
const uint HIT_STRIDE = 1u;
const uint MISS_RADIANCE = 0u;
const uint MISS_SHADOW = 1u;
const uint CALL_SHADE = 0u;
const uint CALL_NOISE = 1u;
const uint CALL_HASH = 2u;
