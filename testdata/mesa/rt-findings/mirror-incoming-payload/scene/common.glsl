// What the mirror scene's shaders share: the 20-byte payload and the callable data.
struct Path {
    uvec4 record;   // the output record (SCENE.toml describes it)
    uint depth;     // mirror bounces so far
};

struct Shade {
    vec3 position;  // in: the hit point
    uint calls;     // in/out: callable calls so far
    vec3 colour;    // out
};

layout(push_constant) uniform Push { uint max_bounces; } pc;
