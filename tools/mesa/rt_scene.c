/*
 * rt_scene: builds a ray-tracing scene's pipeline on a Vulkan device, builds its acceleration
 * structures, traces its rays once and writes what the device told about it.
 *
 *   rt_scene SCENE_TXT SPV_DIR OUT_DIR radv|lavapipe
 *
 * SCENE_TXT is a scene as tools/mesa/rt_scene.py writes it (scene.txt); SPV_DIR holds its
 * shaders' SPIR-V under the names scene.txt gives. OUT_DIR receives, in both modes,
 * device.txt and acceleration_structures.txt; in `radv` mode also the pipeline's executables
 * (executables.txt, NN_<name>.{Assembly,ACO_IR,stats}.txt), handles.txt, stack_sizes.txt,
 * sbt.txt, sbt.bin and descriptors.txt; in `lavapipe` mode the output buffer as
 * output.bin (width * height * 16 bytes). In `radv` mode the device is RADV on the noop DRM
 * shim: the command buffer is recorded and submitted like lavapipe's, so that RADV compiles
 * and emits everything a real trace needs, but nothing executes and nothing is read back.
 * tools/mesa/README.md describes the files. Exit codes: 0 done, 1 usage, input or I/O error,
 * 2 a Vulkan call failed, 3 the fence did not signal, 4 the device lacks a needed extension
 * or limit.
 *
 * Built by tools/mesa/capture-rt inside the Mesa chroot:
 *   gcc -std=c11 -O2 -Wall -Wextra -Werror -o rt_scene rt_scene.c -lvulkan
 */
#define _POSIX_C_SOURCE 200809L
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <vulkan/vulkan.h>

#define ARRAY_LEN(a) (sizeof(a) / sizeof((a)[0]))
#define MAX_PUSH 32
#define MAX_NAME 256

static void fail(int code, const char *fmt, ...) __attribute__((noreturn, format(printf, 2, 3)));

static void fail(int code, const char *fmt, ...)
{
    va_list ap;
    fflush(stdout);
    fputs("[scene] error: ", stderr);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
    exit(code);
}

#include "capture_common.h"

static VkDevice device;
static PFN_vkGetRayTracingShaderGroupHandlesKHR get_group_handles;
static PFN_vkGetPipelineExecutablePropertiesKHR get_executables;
static PFN_vkGetPipelineExecutableStatisticsKHR get_statistics;
static PFN_vkGetPipelineExecutableInternalRepresentationsKHR get_representations;
static uint32_t handle_size;

#include "rt_executables.h"

static PFN_vkCreateRayTracingPipelinesKHR create_rt_pipelines;
static PFN_vkGetRayTracingShaderGroupStackSizeKHR get_group_stack_size;
static PFN_vkGetAccelerationStructureBuildSizesKHR get_as_build_sizes;
static PFN_vkCreateAccelerationStructureKHR create_as;
static PFN_vkDestroyAccelerationStructureKHR destroy_as;
static PFN_vkGetAccelerationStructureDeviceAddressKHR get_as_address;
static PFN_vkCmdBuildAccelerationStructuresKHR cmd_build_as;
static PFN_vkCmdTraceRaysKHR cmd_trace_rays;

/* ---- The scene (scene.txt) ---- */

struct stage {
    VkShaderStageFlagBits stage;
    char spv[MAX_NAME], file[MAX_NAME];
};

struct group {
    VkRayTracingShaderGroupTypeKHR type;
    int general, chit, ahit, isec;
};

struct geometry {
    bool triangles, opaque;
    uint32_t count; /* triangles or boxes */
    float *data;    /* 9 floats a triangle, 6 a box */
};

struct instance {
    uint32_t geometry, custom_index, mask, hit_group, flags;
    float transform[12];
};

struct scene {
    uint32_t width, height, max_recursion;
    uint32_t npush, push[MAX_PUSH];
    uint32_t sbt[4]; /* groups in the raygen, miss, hit and callable regions */
    uint32_t nstages, ngroups, ngeometries, ninstances;
    struct stage *stages;
    struct group *groups;
    struct geometry *geometries;
    struct instance *instances;
};

struct reader {
    const char *path;
    char *text, *pos;
    int line;
};

/* The next whitespace-separated word; lines starting with '#' are comments. */
static const char *word(struct reader *r)
{
    static char buf[MAX_NAME];
    for (;;) {
        while (*r->pos && isspace((unsigned char)*r->pos)) {
            if (*r->pos == '\n')
                r->line++;
            r->pos++;
        }
        if (*r->pos != '#')
            break;
        while (*r->pos && *r->pos != '\n')
            r->pos++;
    }
    if (!*r->pos)
        fail(1, "%s:%d: unexpected end of file", r->path, r->line);
    size_t n = 0;
    while (*r->pos && !isspace((unsigned char)*r->pos)) {
        if (n + 1 >= sizeof(buf))
            fail(1, "%s:%d: word too long", r->path, r->line);
        buf[n++] = *r->pos++;
    }
    buf[n] = '\0';
    return buf;
}

static void expect(struct reader *r, const char *want)
{
    const char *w = word(r);
    if (strcmp(w, want) != 0)
        fail(1, "%s:%d: expected `%s`, got `%s`", r->path, r->line, want, w);
}

static uint32_t number_text(struct reader *r, const char *w)
{
    char *end;
    errno = 0;
    unsigned long v = strtoul(w, &end, 0);
    if (*w == '\0' || *end != '\0' || errno || v > UINT32_MAX)
        fail(1, "%s:%d: expected a number, got `%s`", r->path, r->line, w);
    return (uint32_t)v;
}

static uint32_t number(struct reader *r)
{
    return number_text(r, word(r));
}

static int signed_number(struct reader *r)
{
    const char *w = word(r);
    if (strcmp(w, "-1") == 0)
        return -1;
    return (int)number_text(r, w);
}

/* `name=value` */
static uint32_t field(struct reader *r, const char *name)
{
    const char *w = word(r);
    size_t n = strlen(name);
    if (strncmp(w, name, n) != 0 || w[n] != '=')
        fail(1, "%s:%d: expected `%s=...`, got `%s`", r->path, r->line, name, w);
    return number_text(r, w + n + 1);
}

static float float_bits(struct reader *r)
{
    uint32_t bits = number(r);
    float f;
    memcpy(&f, &bits, sizeof(f));
    return f;
}

static VkShaderStageFlagBits stage_kind(struct reader *r, const char *w)
{
    static const struct {
        const char *name;
        VkShaderStageFlagBits stage;
    } kinds[] = {
        {"raygen", VK_SHADER_STAGE_RAYGEN_BIT_KHR},
        {"miss", VK_SHADER_STAGE_MISS_BIT_KHR},
        {"closest_hit", VK_SHADER_STAGE_CLOSEST_HIT_BIT_KHR},
        {"any_hit", VK_SHADER_STAGE_ANY_HIT_BIT_KHR},
        {"intersection", VK_SHADER_STAGE_INTERSECTION_BIT_KHR},
        {"callable", VK_SHADER_STAGE_CALLABLE_BIT_KHR},
    };
    for (size_t i = 0; i < ARRAY_LEN(kinds); i++)
        if (strcmp(w, kinds[i].name) == 0)
            return kinds[i].stage;
    fail(1, "%s:%d: `%s` is not a stage", r->path, r->line, w);
}

static void read_scene(const char *path, struct scene *s)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        fail(1, "cannot read %s: %s", path, strerror(errno));
    char *text = xcalloc(1 << 24, 1);
    size_t len = fread(text, 1, (1 << 24) - 1, f);
    if (ferror(f) || !feof(f))
        fail(1, "cannot read %s (or larger than 16 MiB)", path);
    fclose(f);
    text[len] = '\0';
    struct reader r = {path, text, text, 1};

    memset(s, 0, sizeof(*s));
    expect(&r, "size");
    s->width = number(&r);
    s->height = number(&r);
    expect(&r, "max_recursion");
    s->max_recursion = number(&r);
    expect(&r, "push_constants");
    s->npush = number(&r);
    if (s->npush > MAX_PUSH)
        fail(1, "%s:%d: more than %d push constants", path, r.line, MAX_PUSH);
    for (uint32_t i = 0; i < s->npush; i++)
        s->push[i] = number(&r);
    expect(&r, "sbt");
    for (int i = 0; i < 4; i++)
        s->sbt[i] = number(&r);

    expect(&r, "stages");
    s->nstages = number(&r);
    s->stages = xcalloc(s->nstages, sizeof(*s->stages));
    for (uint32_t i = 0; i < s->nstages; i++) {
        expect(&r, "stage");
        if (number(&r) != i)
            fail(1, "%s:%d: stages out of order", path, r.line);
        s->stages[i].stage = stage_kind(&r, word(&r));
        snprintf(s->stages[i].spv, MAX_NAME, "%s", word(&r));
        snprintf(s->stages[i].file, MAX_NAME, "%s", word(&r));
    }

    expect(&r, "groups");
    s->ngroups = number(&r);
    if (s->ngroups != s->sbt[0] + s->sbt[1] + s->sbt[2] + s->sbt[3])
        fail(1, "%s:%d: the sbt counts do not add up to the groups", path, r.line);
    s->groups = xcalloc(s->ngroups, sizeof(*s->groups));
    for (uint32_t i = 0; i < s->ngroups; i++) {
        expect(&r, "group");
        if (number(&r) != i)
            fail(1, "%s:%d: groups out of order", path, r.line);
        const char *kind = word(&r);
        struct group *g = &s->groups[i];
        if (strcmp(kind, "general") == 0)
            g->type = VK_RAY_TRACING_SHADER_GROUP_TYPE_GENERAL_KHR;
        else if (strcmp(kind, "triangles") == 0)
            g->type = VK_RAY_TRACING_SHADER_GROUP_TYPE_TRIANGLES_HIT_GROUP_KHR;
        else if (strcmp(kind, "procedural") == 0)
            g->type = VK_RAY_TRACING_SHADER_GROUP_TYPE_PROCEDURAL_HIT_GROUP_KHR;
        else
            fail(1, "%s:%d: `%s` is not a group type", path, r.line, kind);
        g->general = signed_number(&r);
        g->chit = signed_number(&r);
        g->ahit = signed_number(&r);
        g->isec = signed_number(&r);
        int idx[4] = {g->general, g->chit, g->ahit, g->isec};
        for (int k = 0; k < 4; k++)
            if (idx[k] >= (int)s->nstages)
                fail(1, "%s:%d: no stage %d", path, r.line, idx[k]);
    }

    expect(&r, "geometries");
    s->ngeometries = number(&r);
    s->geometries = xcalloc(s->ngeometries, sizeof(*s->geometries));
    for (uint32_t i = 0; i < s->ngeometries; i++) {
        struct geometry *g = &s->geometries[i];
        expect(&r, "geometry");
        if (number(&r) != i)
            fail(1, "%s:%d: geometries out of order", path, r.line);
        const char *kind = word(&r);
        if (strcmp(kind, "triangles") == 0)
            g->triangles = true;
        else if (strcmp(kind, "aabbs") != 0)
            fail(1, "%s:%d: `%s` is not a geometry kind", path, r.line, kind);
        g->opaque = field(&r, "opaque") != 0;
        g->count = field(&r, "count");
        if (g->count == 0 || g->count > (1u << 20))
            fail(1, "%s:%d: bad primitive count", path, r.line);
        uint32_t n = g->count * (g->triangles ? 9 : 6);
        g->data = xcalloc(n, sizeof(float));
        for (uint32_t k = 0; k < n; k++)
            g->data[k] = float_bits(&r);
    }

    expect(&r, "instances");
    s->ninstances = number(&r);
    s->instances = xcalloc(s->ninstances, sizeof(*s->instances));
    for (uint32_t i = 0; i < s->ninstances; i++) {
        struct instance *in = &s->instances[i];
        expect(&r, "instance");
        if (number(&r) != i)
            fail(1, "%s:%d: instances out of order", path, r.line);
        in->geometry = field(&r, "geometry");
        in->custom_index = field(&r, "custom_index");
        in->mask = field(&r, "mask");
        in->hit_group = field(&r, "hit_group");
        in->flags = field(&r, "flags");
        if (in->geometry >= s->ngeometries)
            fail(1, "%s:%d: no geometry %u", path, r.line, in->geometry);
        for (int k = 0; k < 12; k++)
            in->transform[k] = float_bits(&r);
    }
    expect(&r, "end");
    free(text);
}

/* ---- Vulkan helpers ---- */

static VkPhysicalDevice phys;
static VkPhysicalDeviceMemoryProperties mem_props;

struct buffer {
    VkBuffer buffer;
    VkDeviceMemory memory;
    VkDeviceAddress address;
    void *map;
    VkDeviceSize size;
};

/* A host-visible, coherent buffer with a device address, mapped. */
static struct buffer make_buffer(VkDeviceSize size, VkBufferUsageFlags usage)
{
    struct buffer b = {.size = size};
    VkBufferCreateInfo info = {
        .sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO,
        .size = size,
        .usage = usage | VK_BUFFER_USAGE_SHADER_DEVICE_ADDRESS_BIT,
        .sharingMode = VK_SHARING_MODE_EXCLUSIVE,
    };
    check(vkCreateBuffer(device, &info, NULL, &b.buffer), "vkCreateBuffer");
    VkMemoryRequirements req;
    vkGetBufferMemoryRequirements(device, b.buffer, &req);
    const VkMemoryPropertyFlags want = VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT;
    uint32_t type = UINT32_MAX;
    for (uint32_t i = 0; i < mem_props.memoryTypeCount && type == UINT32_MAX; i++)
        if ((req.memoryTypeBits & (1u << i)) && (mem_props.memoryTypes[i].propertyFlags & want) == want)
            type = i;
    if (type == UINT32_MAX)
        fail(4, "no host-visible coherent memory type for a buffer of usage 0x%x", (unsigned)usage);
    VkMemoryAllocateFlagsInfo flags = {
        .sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_FLAGS_INFO,
        .flags = VK_MEMORY_ALLOCATE_DEVICE_ADDRESS_BIT,
    };
    VkMemoryAllocateInfo alloc = {
        .sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO,
        .pNext = &flags,
        .allocationSize = req.size,
        .memoryTypeIndex = type,
    };
    check(vkAllocateMemory(device, &alloc, NULL, &b.memory), "vkAllocateMemory");
    check(vkBindBufferMemory(device, b.buffer, b.memory, 0), "vkBindBufferMemory");
    check(vkMapMemory(device, b.memory, 0, VK_WHOLE_SIZE, 0, &b.map), "vkMapMemory");
    memset(b.map, 0, size);
    VkBufferDeviceAddressInfo addr = {.sType = VK_STRUCTURE_TYPE_BUFFER_DEVICE_ADDRESS_INFO, .buffer = b.buffer};
    b.address = vkGetBufferDeviceAddress(device, &addr);
    return b;
}

static void free_buffer(struct buffer *b)
{
    vkUnmapMemory(device, b->memory);
    vkDestroyBuffer(device, b->buffer, NULL);
    vkFreeMemory(device, b->memory, NULL);
}

static VkDeviceSize align_up(VkDeviceSize v, VkDeviceSize a)
{
    return a ? (v + a - 1) / a * a : v;
}

static void hex_line(FILE *f, const uint8_t *bytes, size_t n)
{
    for (size_t b = 0; b < n; b++)
        fprintf(f, "%s%02x", b % 4 == 0 ? " " : "", bytes[b]);
    fputc('\n', f);
}

/* ---- What the scene needs from the device ---- */

static const char *const required_extensions[] = {
    VK_KHR_RAY_TRACING_PIPELINE_EXTENSION_NAME,
    VK_KHR_ACCELERATION_STRUCTURE_EXTENSION_NAME,
    VK_KHR_DEFERRED_HOST_OPERATIONS_EXTENSION_NAME,
};

static const VkShaderStageFlags rt_stages =
    VK_SHADER_STAGE_RAYGEN_BIT_KHR | VK_SHADER_STAGE_MISS_BIT_KHR | VK_SHADER_STAGE_CLOSEST_HIT_BIT_KHR |
    VK_SHADER_STAGE_ANY_HIT_BIT_KHR | VK_SHADER_STAGE_INTERSECTION_BIT_KHR | VK_SHADER_STAGE_CALLABLE_BIT_KHR;

/* Descriptor set 0 of every scene: binding 0 the TLAS, binding 1 the output buffer. */
static VkDescriptorSetLayout make_set_layout(VkDescriptorSetLayoutCreateFlags flags)
{
    VkDescriptorSetLayoutBinding bindings[] = {
        {0, VK_DESCRIPTOR_TYPE_ACCELERATION_STRUCTURE_KHR, 1, rt_stages, NULL},
        {1, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, rt_stages, NULL},
    };
    VkDescriptorSetLayoutCreateInfo info = {
        .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO,
        .flags = flags,
        .bindingCount = ARRAY_LEN(bindings),
        .pBindings = bindings,
    };
    VkDescriptorSetLayout layout;
    check(vkCreateDescriptorSetLayout(device, &info, NULL, &layout), "vkCreateDescriptorSetLayout");
    return layout;
}

/* The addresses descriptors.txt's example descriptors point at (any would do; these are
 * 256-byte aligned and have distinct bytes, so that a reader can find them). */
#define EXAMPLE_TLAS_ADDRESS 0x0000123456789a00ull
#define EXAMPLE_BUFFER_ADDRESS 0x0000fedcba987600ull

/* descriptors.txt: RADV's layout of descriptor set 0 and the bytes of its two descriptors,
 * through VK_EXT_descriptor_buffer on a device of their own (so that enabling
 * descriptorBuffer changes nothing in the pipeline's device). RADV places bindings in
 * radv_CreateDescriptorSetLayout (radv_descriptor_set.c) the same way with or without
 * VK_DESCRIPTOR_SET_LAYOUT_CREATE_DESCRIPTOR_BUFFER_BIT_EXT, and writes a descriptor in
 * radv_GetDescriptorEXT (radv_descriptors.c) as vkUpdateDescriptorSets does. */
static void write_descriptors(const char *out_dir, const struct scene *s, bool supported, uint32_t queue_family)
{
    FILE *f = open_out(out_dir, "descriptors.txt");
    if (!supported) {
        fputs("# VK_EXT_descriptor_buffer: not supported; no descriptor facts\n", f);
        close_out(f);
        return;
    }
    VkDevice pipeline_device = device;
    VkPhysicalDeviceDescriptorBufferFeaturesEXT features = {
        .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DESCRIPTOR_BUFFER_FEATURES_EXT,
        .descriptorBuffer = VK_TRUE,
    };
    VkPhysicalDeviceAccelerationStructureFeaturesKHR as_features = {
        .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_ACCELERATION_STRUCTURE_FEATURES_KHR,
        .pNext = &features,
        .accelerationStructure = VK_TRUE,
    };
    VkPhysicalDeviceVulkan12Features vk12 = {
        .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES,
        .pNext = &as_features,
        .bufferDeviceAddress = VK_TRUE,
    };
    const char *exts[] = {VK_EXT_DESCRIPTOR_BUFFER_EXTENSION_NAME, VK_KHR_ACCELERATION_STRUCTURE_EXTENSION_NAME,
                          VK_KHR_DEFERRED_HOST_OPERATIONS_EXTENSION_NAME};
    float priority = 1.0f;
    VkDeviceQueueCreateInfo queue = {
        .sType = VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO,
        .queueFamilyIndex = queue_family,
        .queueCount = 1,
        .pQueuePriorities = &priority,
    };
    VkDeviceCreateInfo info = {
        .sType = VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO,
        .pNext = &vk12,
        .queueCreateInfoCount = 1,
        .pQueueCreateInfos = &queue,
        .enabledExtensionCount = ARRAY_LEN(exts),
        .ppEnabledExtensionNames = exts,
    };
    check(vkCreateDevice(phys, &info, NULL, &device), "vkCreateDevice (descriptor buffer)");
    PFN_vkGetDescriptorSetLayoutSizeEXT layout_size =
        (PFN_vkGetDescriptorSetLayoutSizeEXT)device_proc("vkGetDescriptorSetLayoutSizeEXT");
    PFN_vkGetDescriptorSetLayoutBindingOffsetEXT binding_offset =
        (PFN_vkGetDescriptorSetLayoutBindingOffsetEXT)device_proc("vkGetDescriptorSetLayoutBindingOffsetEXT");
    PFN_vkGetDescriptorEXT get_descriptor = (PFN_vkGetDescriptorEXT)device_proc("vkGetDescriptorEXT");

    VkPhysicalDeviceDescriptorBufferPropertiesEXT props = {
        .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DESCRIPTOR_BUFFER_PROPERTIES_EXT,
    };
    VkPhysicalDeviceProperties2 props2 = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2, .pNext = &props};
    vkGetPhysicalDeviceProperties2(phys, &props2);

    VkDescriptorSetLayout layout = make_set_layout(VK_DESCRIPTOR_SET_LAYOUT_CREATE_DESCRIPTOR_BUFFER_BIT_EXT);
    VkDeviceSize size = 0, off0 = 0, off1 = 0;
    layout_size(device, layout, &size);
    binding_offset(device, layout, 0, &off0);
    binding_offset(device, layout, 1, &off1);

    uint8_t tlas_desc[256] = {0}, buffer_desc[256] = {0};
    size_t tlas_size = props.accelerationStructureDescriptorSize, buffer_size = props.storageBufferDescriptorSize;
    if (tlas_size > sizeof(tlas_desc) || buffer_size > sizeof(buffer_desc))
        fail(1, "descriptor sizes %zu, %zu larger than expected", tlas_size, buffer_size);
    VkDescriptorGetInfoEXT tlas_info = {
        .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_GET_INFO_EXT,
        .type = VK_DESCRIPTOR_TYPE_ACCELERATION_STRUCTURE_KHR,
        .data.accelerationStructure = EXAMPLE_TLAS_ADDRESS,
    };
    get_descriptor(device, &tlas_info, tlas_size, tlas_desc);
    VkDescriptorAddressInfoEXT addr = {
        .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_ADDRESS_INFO_EXT,
        .address = EXAMPLE_BUFFER_ADDRESS,
        .range = (VkDeviceSize)s->width * s->height * 16,
        .format = VK_FORMAT_UNDEFINED,
    };
    VkDescriptorGetInfoEXT buffer_info = {
        .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_GET_INFO_EXT,
        .type = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,
        .data.pStorageBuffer = &addr,
    };
    get_descriptor(device, &buffer_info, buffer_size, buffer_desc);

    fprintf(f,
            "# Descriptor set 0 as RADV lays it out (VK_EXT_descriptor_buffer queries on the same GPU):\n"
            "# the set's size, each binding's offset and descriptor size, and the descriptor bytes\n"
            "# (in memory order, four to a word) RADV writes for the example address given.\n");
    fprintf(f, "set_size=%llu descriptorBufferOffsetAlignment=%llu\n", (unsigned long long)size,
            (unsigned long long)props.descriptorBufferOffsetAlignment);
    fprintf(f, "binding 0 acceleration_structure offset=%llu size=%zu address=0x%016llx:", (unsigned long long)off0,
            tlas_size, (unsigned long long)EXAMPLE_TLAS_ADDRESS);
    hex_line(f, tlas_desc, tlas_size);
    fprintf(f, "binding 1 storage_buffer offset=%llu size=%zu address=0x%016llx range=%llu:", (unsigned long long)off1,
            buffer_size, (unsigned long long)EXAMPLE_BUFFER_ADDRESS, (unsigned long long)addr.range);
    hex_line(f, buffer_desc, buffer_size);
    close_out(f);

    vkDestroyDescriptorSetLayout(device, layout, NULL);
    vkDestroyDevice(device, NULL);
    device = pipeline_device;
}

static const char *group_kind(VkRayTracingShaderGroupTypeKHR t)
{
    switch (t) {
    case VK_RAY_TRACING_SHADER_GROUP_TYPE_GENERAL_KHR: return "general";
    case VK_RAY_TRACING_SHADER_GROUP_TYPE_TRIANGLES_HIT_GROUP_KHR: return "triangles";
    default: return "procedural";
    }
}

/* stack_sizes.txt: vkGetRayTracingShaderGroupStackSizeKHR for every shader of every group,
 * and the stack size Vulkan defines for a pipeline without a dynamic stack size from those
 * (the largest of each kind: raygen + min(1, depth) * max(closest-hit, miss, intersection +
 * any-hit) + max(0, depth - 1) * max(closest-hit, miss) + 2 * callable). RADV computes its own
 * in compute_rt_stack_size (radv_pipeline_rt.c) and reserves that as scratch when tracing. */
static void write_stack_sizes(const char *out_dir, const struct scene *s, VkPipeline pipeline)
{
    FILE *f = open_out(out_dir, "stack_sizes.txt");
    fputs("# vkGetRayTracingShaderGroupStackSizeKHR (bytes per lane) for each shader of each group;\n"
          "# - where the group has no such shader.\n",
          f);
    VkDeviceSize rgen = 0, chit = 0, miss = 0, isec = 0, ahit = 0, call = 0;
    for (uint32_t g = 0; g < s->ngroups; g++) {
        const struct group *gr = &s->groups[g];
        int idx[4] = {gr->general, gr->chit, gr->ahit, gr->isec};
        static const char *names[4] = {"general", "closest_hit", "any_hit", "intersection"};
        static const VkShaderGroupShaderKHR which[4] = {
            VK_SHADER_GROUP_SHADER_GENERAL_KHR, VK_SHADER_GROUP_SHADER_CLOSEST_HIT_KHR,
            VK_SHADER_GROUP_SHADER_ANY_HIT_KHR, VK_SHADER_GROUP_SHADER_INTERSECTION_KHR};
        fprintf(f, "group %u %s", g, group_kind(gr->type));
        for (int k = 0; k < 4; k++) {
            if (idx[k] < 0) {
                fprintf(f, " %s=-", names[k]);
                continue;
            }
            VkDeviceSize v = get_group_stack_size(device, pipeline, g, which[k]);
            fprintf(f, " %s=%llu", names[k], (unsigned long long)v);
            VkDeviceSize *slot = NULL;
            switch (s->stages[idx[k]].stage) {
            case VK_SHADER_STAGE_RAYGEN_BIT_KHR: slot = &rgen; break;
            case VK_SHADER_STAGE_MISS_BIT_KHR: slot = &miss; break;
            case VK_SHADER_STAGE_CLOSEST_HIT_BIT_KHR: slot = &chit; break;
            case VK_SHADER_STAGE_ANY_HIT_BIT_KHR: slot = &ahit; break;
            case VK_SHADER_STAGE_INTERSECTION_BIT_KHR: slot = &isec; break;
            default: slot = &call; break;
            }
            if (v > *slot)
                *slot = v;
        }
        fputc('\n', f);
    }
    VkDeviceSize d = s->max_recursion;
    VkDeviceSize hit = chit > miss ? chit : miss;
    VkDeviceSize first = isec + ahit > hit ? isec + ahit : hit;
    VkDeviceSize total = rgen + (d < 1 ? d : 1) * first + (d > 1 ? d - 1 : 0) * hit + 2 * call;
    fprintf(f,
            "# Vulkan's default pipeline stack size from these: raygen + min(1, depth) * max(closest_hit, "
            "miss, intersection + any_hit) + max(0, depth - 1) * max(closest_hit, miss) + 2 * callable\n");
    fprintf(f, "vulkan_default_stack_size=%llu maxPipelineRayRecursionDepth=%u\n", (unsigned long long)total,
            s->max_recursion);
    close_out(f);
}

/* ---- The shader binding table ---- */

struct sbt {
    VkStridedDeviceAddressRegionKHR region[4];
    VkDeviceSize offset[4], size;
    uint32_t first[4];
};

/* One record a group, no record data: stride = the handle size aligned to
 * shaderGroupHandleAlignment; each region starts at a multiple of shaderGroupBaseAlignment;
 * the raygen region's size equals its stride, as vkCmdTraceRaysKHR requires. */
static struct sbt sbt_layout(const struct scene *s, const VkPhysicalDeviceRayTracingPipelinePropertiesKHR *p)
{
    struct sbt t = {0};
    VkDeviceSize stride = align_up(p->shaderGroupHandleSize, p->shaderGroupHandleAlignment);
    VkDeviceSize at = 0;
    uint32_t first = 0;
    for (int r = 0; r < 4; r++) {
        at = align_up(at, p->shaderGroupBaseAlignment);
        t.offset[r] = at;
        t.first[r] = first;
        if (s->sbt[r]) {
            t.region[r].stride = stride;
            t.region[r].size = stride * s->sbt[r];
        }
        at += t.region[r].size;
        first += s->sbt[r];
    }
    t.size = at ? at : 1;
    return t;
}

static void fill_sbt(const struct scene *s, const struct sbt *t, const uint8_t *handles, uint8_t *out)
{
    for (int r = 0; r < 4; r++)
        for (uint32_t i = 0; i < s->sbt[r]; i++)
            memcpy(out + t->offset[r] + i * t->region[r].stride, handles + (size_t)(t->first[r] + i) * handle_size,
                   handle_size);
}

static void write_sbt(const char *out_dir, const struct scene *s, const struct sbt *t, const uint8_t *bytes,
                      const VkPhysicalDeviceRayTracingPipelinePropertiesKHR *p)
{
    static const char *names[4] = {"raygen", "miss", "hit", "callable"};
    FILE *f = open_out(out_dir, "sbt.txt");
    fputs("# The shader binding table: one record a group (its handle, no record data), regions in\n"
          "# sbt.bin at these offsets; vkCmdTraceRaysKHR gets the table's address + offset, stride and\n"
          "# size of each region (an empty region: 0, 0, 0).\n",
          f);
    fprintf(f, "shaderGroupHandleSize=%u shaderGroupHandleAlignment=%u shaderGroupBaseAlignment=%u "
               "maxShaderGroupStride=%u size=%llu\n",
            p->shaderGroupHandleSize, p->shaderGroupHandleAlignment, p->shaderGroupBaseAlignment,
            p->maxShaderGroupStride, (unsigned long long)t->size);
    for (int r = 0; r < 4; r++)
        fprintf(f, "region %s offset=%llu stride=%llu size=%llu groups=%u first_group=%u\n", names[r],
                (unsigned long long)t->offset[r], (unsigned long long)t->region[r].stride,
                (unsigned long long)t->region[r].size, s->sbt[r], t->first[r]);
    fprintf(f, "launch width=%u height=%u depth=1\n", s->width, s->height);
    close_out(f);
    FILE *b = open_out(out_dir, "sbt.bin");
    fwrite(bytes, 1, t->size, b);
    close_out(b);
}

/* ---- Acceleration structures ---- */

struct accel {
    struct buffer storage, scratch, input;
    VkAccelerationStructureKHR as;
    VkAccelerationStructureGeometryKHR geometry;
    VkAccelerationStructureBuildRangeInfoKHR range;
    VkAccelerationStructureBuildGeometryInfoKHR build;
    VkAccelerationStructureBuildSizesInfoKHR sizes;
};

static void prepare_accel(struct accel *a, VkAccelerationStructureTypeKHR type, uint32_t primitives,
                          VkDeviceSize scratch_alignment)
{
    a->build = (VkAccelerationStructureBuildGeometryInfoKHR){
        .sType = VK_STRUCTURE_TYPE_ACCELERATION_STRUCTURE_BUILD_GEOMETRY_INFO_KHR,
        .type = type,
        .flags = VK_BUILD_ACCELERATION_STRUCTURE_PREFER_FAST_TRACE_BIT_KHR,
        .mode = VK_BUILD_ACCELERATION_STRUCTURE_MODE_BUILD_KHR,
        .geometryCount = 1,
        .pGeometries = &a->geometry,
    };
    a->sizes = (VkAccelerationStructureBuildSizesInfoKHR){
        .sType = VK_STRUCTURE_TYPE_ACCELERATION_STRUCTURE_BUILD_SIZES_INFO_KHR,
    };
    get_as_build_sizes(device, VK_ACCELERATION_STRUCTURE_BUILD_TYPE_DEVICE_KHR, &a->build, &primitives, &a->sizes);
    a->storage = make_buffer(a->sizes.accelerationStructureSize, VK_BUFFER_USAGE_ACCELERATION_STRUCTURE_STORAGE_BIT_KHR);
    a->scratch = make_buffer(a->sizes.buildScratchSize + scratch_alignment, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT);
    VkAccelerationStructureCreateInfoKHR info = {
        .sType = VK_STRUCTURE_TYPE_ACCELERATION_STRUCTURE_CREATE_INFO_KHR,
        .buffer = a->storage.buffer,
        .size = a->sizes.accelerationStructureSize,
        .type = type,
    };
    check(create_as(device, &info, NULL, &a->as), "vkCreateAccelerationStructureKHR");
    a->build.dstAccelerationStructure = a->as;
    a->build.scratchData.deviceAddress = align_up(a->scratch.address, scratch_alignment);
    a->range = (VkAccelerationStructureBuildRangeInfoKHR){.primitiveCount = primitives};
}

static VkDeviceAddress accel_address(VkAccelerationStructureKHR as)
{
    VkAccelerationStructureDeviceAddressInfoKHR info = {
        .sType = VK_STRUCTURE_TYPE_ACCELERATION_STRUCTURE_DEVICE_ADDRESS_INFO_KHR,
        .accelerationStructure = as,
    };
    return get_as_address(device, &info);
}

static void accel_line(FILE *f, const char *what, const struct accel *a)
{
    fprintf(f, "%s primitives=%u accelerationStructureSize=%llu buildScratchSize=%llu updateScratchSize=%llu\n", what,
            a->range.primitiveCount, (unsigned long long)a->sizes.accelerationStructureSize,
            (unsigned long long)a->sizes.buildScratchSize, (unsigned long long)a->sizes.updateScratchSize);
}

static void barrier(VkCommandBuffer cmd, VkPipelineStageFlags src_stage, VkAccessFlags src, VkPipelineStageFlags dst_stage,
                    VkAccessFlags dst)
{
    VkMemoryBarrier b = {.sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER, .srcAccessMask = src, .dstAccessMask = dst};
    vkCmdPipelineBarrier(cmd, src_stage, dst_stage, 0, 1, &b, 0, NULL, 0, NULL);
}

/* ---- main ---- */

static uint32_t find_queue_family(void)
{
    uint32_t n = 0;
    vkGetPhysicalDeviceQueueFamilyProperties(phys, &n, NULL);
    VkQueueFamilyProperties *q = xcalloc(n, sizeof(*q));
    vkGetPhysicalDeviceQueueFamilyProperties(phys, &n, q);
    for (uint32_t i = 0; i < n; i++)
        if (q[i].queueFlags & VK_QUEUE_COMPUTE_BIT) {
            free(q);
            return i;
        }
    fail(4, "no queue family with compute");
}

int main(int argc, char **argv)
{
    if (argc != 5 || (strcmp(argv[4], "radv") != 0 && strcmp(argv[4], "lavapipe") != 0)) {
        fprintf(stderr, "usage: %s SCENE_TXT SPV_DIR OUT_DIR radv|lavapipe\n", argv[0]);
        return 1;
    }
    const char *spv_dir = argv[2], *out_dir = argv[3];
    const bool radv = strcmp(argv[4], "radv") == 0;
    struct scene s;
    read_scene(argv[1], &s);
    make_dir(out_dir);

    VkApplicationInfo app = {
        .sType = VK_STRUCTURE_TYPE_APPLICATION_INFO,
        .pApplicationName = "gpuabi rt_scene",
        .apiVersion = VK_API_VERSION_1_3,
    };
    VkInstanceCreateInfo instance_info = {.sType = VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO, .pApplicationInfo = &app};
    VkInstance instance;
    check(vkCreateInstance(&instance_info, NULL, &instance), "vkCreateInstance");
    uint32_t ndev = 0;
    check(vkEnumeratePhysicalDevices(instance, &ndev, NULL), "vkEnumeratePhysicalDevices");
    if (ndev == 0)
        fail(2, "no Vulkan device");
    VkPhysicalDevice *devs = xcalloc(ndev, sizeof(*devs));
    check(vkEnumeratePhysicalDevices(instance, &ndev, devs), "vkEnumeratePhysicalDevices");
    phys = devs[0];
    free(devs);
    vkGetPhysicalDeviceMemoryProperties(phys, &mem_props);

    VkPhysicalDeviceAccelerationStructurePropertiesKHR as_props = {
        .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_ACCELERATION_STRUCTURE_PROPERTIES_KHR,
    };
    VkPhysicalDeviceRayTracingPipelinePropertiesKHR rt_props = {
        .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_RAY_TRACING_PIPELINE_PROPERTIES_KHR,
        .pNext = &as_props,
    };
    VkPhysicalDeviceDriverProperties driver = {
        .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DRIVER_PROPERTIES,
        .pNext = &rt_props,
    };
    VkPhysicalDeviceProperties2 props = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2, .pNext = &driver};
    vkGetPhysicalDeviceProperties2(phys, &props);
    printf("[scene] device: %s (%s %s)\n", props.properties.deviceName, driver.driverName, driver.driverInfo);

    uint32_t next = 0;
    check(vkEnumerateDeviceExtensionProperties(phys, NULL, &next, NULL), "vkEnumerateDeviceExtensionProperties");
    VkExtensionProperties *exts = xcalloc(next, sizeof(*exts));
    check(vkEnumerateDeviceExtensionProperties(phys, NULL, &next, exts), "vkEnumerateDeviceExtensionProperties");
    const bool has_exe = has_extension(exts, next, VK_KHR_PIPELINE_EXECUTABLE_PROPERTIES_EXTENSION_NAME);
    const bool has_descriptor_buffer = has_extension(exts, next, VK_EXT_DESCRIPTOR_BUFFER_EXTENSION_NAME);

    FILE *f = open_out(out_dir, "device.txt");
    uint32_t api = props.properties.apiVersion;
    fprintf(f, "deviceName: %s\ndriver: %s %s\napiVersion: %u.%u.%u\n", props.properties.deviceName,
            driver.driverName, driver.driverInfo, VK_API_VERSION_MAJOR(api), VK_API_VERSION_MINOR(api),
            VK_API_VERSION_PATCH(api));
    bool missing = false;
    for (size_t i = 0; i < ARRAY_LEN(required_extensions); i++) {
        bool has = has_extension(exts, next, required_extensions[i]);
        fprintf(f, "%s: %s\n", required_extensions[i], has ? "yes" : "no");
        missing |= !has;
    }
    fprintf(f, "%s: %s\n%s: %s\n", VK_KHR_PIPELINE_EXECUTABLE_PROPERTIES_EXTENSION_NAME, has_exe ? "yes" : "no",
            VK_EXT_DESCRIPTOR_BUFFER_EXTENSION_NAME, has_descriptor_buffer ? "yes" : "no");
    if (!missing) {
        fprintf(f,
                "shaderGroupHandleSize=%u maxRayRecursionDepth=%u maxShaderGroupStride=%u "
                "shaderGroupBaseAlignment=%u maxRayHitAttributeSize=%u shaderGroupHandleAlignment=%u\n",
                rt_props.shaderGroupHandleSize, rt_props.maxRayRecursionDepth, rt_props.maxShaderGroupStride,
                rt_props.shaderGroupBaseAlignment, rt_props.maxRayHitAttributeSize,
                rt_props.shaderGroupHandleAlignment);
        fprintf(f, "minAccelerationStructureScratchOffsetAlignment=%u maxPushConstantsSize=%u\n",
                as_props.minAccelerationStructureScratchOffsetAlignment,
                props.properties.limits.maxPushConstantsSize);
    }
    close_out(f);
    if (missing || (radv && !has_exe)) {
        printf("[scene] the device lacks a needed extension (device.txt says which)\n");
        return 4;
    }
    free(exts);
    if (s.max_recursion > rt_props.maxRayRecursionDepth)
        fail(4, "max_recursion %u is above the device's maxRayRecursionDepth %u", s.max_recursion,
             rt_props.maxRayRecursionDepth);
    if (s.npush * 4 > props.properties.limits.maxPushConstantsSize)
        fail(4, "%u bytes of push constants are above the device's maxPushConstantsSize", s.npush * 4);
    handle_size = rt_props.shaderGroupHandleSize;

    VkPhysicalDevicePipelineExecutablePropertiesFeaturesKHR exe_features = {
        .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PIPELINE_EXECUTABLE_PROPERTIES_FEATURES_KHR,
        .pipelineExecutableInfo = VK_TRUE,
    };
    VkPhysicalDeviceAccelerationStructureFeaturesKHR as_features = {
        .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_ACCELERATION_STRUCTURE_FEATURES_KHR,
        .pNext = radv ? &exe_features : NULL,
        .accelerationStructure = VK_TRUE,
    };
    VkPhysicalDeviceRayTracingPipelineFeaturesKHR rt_features = {
        .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_RAY_TRACING_PIPELINE_FEATURES_KHR,
        .pNext = &as_features,
        .rayTracingPipeline = VK_TRUE,
    };
    VkPhysicalDeviceVulkan12Features vk12 = {
        .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES,
        .pNext = &rt_features,
        .bufferDeviceAddress = VK_TRUE,
    };
    const char *dev_exts[ARRAY_LEN(required_extensions) + 1];
    uint32_t ndev_exts = 0;
    for (size_t i = 0; i < ARRAY_LEN(required_extensions); i++)
        dev_exts[ndev_exts++] = required_extensions[i];
    if (radv)
        dev_exts[ndev_exts++] = VK_KHR_PIPELINE_EXECUTABLE_PROPERTIES_EXTENSION_NAME;
    uint32_t queue_family = find_queue_family();
    float priority = 1.0f;
    VkDeviceQueueCreateInfo queue_info = {
        .sType = VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO,
        .queueFamilyIndex = queue_family,
        .queueCount = 1,
        .pQueuePriorities = &priority,
    };
    VkDeviceCreateInfo device_info = {
        .sType = VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO,
        .pNext = &vk12,
        .queueCreateInfoCount = 1,
        .pQueueCreateInfos = &queue_info,
        .enabledExtensionCount = ndev_exts,
        .ppEnabledExtensionNames = dev_exts,
    };
    check(vkCreateDevice(phys, &device_info, NULL, &device), "vkCreateDevice");

    create_rt_pipelines = (PFN_vkCreateRayTracingPipelinesKHR)device_proc("vkCreateRayTracingPipelinesKHR");
    get_group_handles = (PFN_vkGetRayTracingShaderGroupHandlesKHR)device_proc("vkGetRayTracingShaderGroupHandlesKHR");
    get_group_stack_size =
        (PFN_vkGetRayTracingShaderGroupStackSizeKHR)device_proc("vkGetRayTracingShaderGroupStackSizeKHR");
    get_as_build_sizes =
        (PFN_vkGetAccelerationStructureBuildSizesKHR)device_proc("vkGetAccelerationStructureBuildSizesKHR");
    create_as = (PFN_vkCreateAccelerationStructureKHR)device_proc("vkCreateAccelerationStructureKHR");
    destroy_as = (PFN_vkDestroyAccelerationStructureKHR)device_proc("vkDestroyAccelerationStructureKHR");
    get_as_address =
        (PFN_vkGetAccelerationStructureDeviceAddressKHR)device_proc("vkGetAccelerationStructureDeviceAddressKHR");
    cmd_build_as = (PFN_vkCmdBuildAccelerationStructuresKHR)device_proc("vkCmdBuildAccelerationStructuresKHR");
    cmd_trace_rays = (PFN_vkCmdTraceRaysKHR)device_proc("vkCmdTraceRaysKHR");
    if (radv) {
        get_executables = (PFN_vkGetPipelineExecutablePropertiesKHR)device_proc("vkGetPipelineExecutablePropertiesKHR");
        get_statistics = (PFN_vkGetPipelineExecutableStatisticsKHR)device_proc("vkGetPipelineExecutableStatisticsKHR");
        get_representations = (PFN_vkGetPipelineExecutableInternalRepresentationsKHR)device_proc(
            "vkGetPipelineExecutableInternalRepresentationsKHR");
    }

    /* The pipeline. */
    VkDescriptorSetLayout set_layout = make_set_layout(0);
    VkPushConstantRange push = {rt_stages, 0, s.npush * 4};
    VkPipelineLayoutCreateInfo layout_info = {
        .sType = VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO,
        .setLayoutCount = 1,
        .pSetLayouts = &set_layout,
        .pushConstantRangeCount = s.npush ? 1 : 0,
        .pPushConstantRanges = s.npush ? &push : NULL,
    };
    VkPipelineLayout layout;
    check(vkCreatePipelineLayout(device, &layout_info, NULL, &layout), "vkCreatePipelineLayout");

    VkPipelineShaderStageCreateInfo *stages = xcalloc(s.nstages, sizeof(*stages));
    for (uint32_t i = 0; i < s.nstages; i++)
        stages[i] = (VkPipelineShaderStageCreateInfo){
            .sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO,
            .stage = s.stages[i].stage,
            .module = load_module(spv_dir, s.stages[i].spv, ""),
            .pName = "main",
        };
    VkRayTracingShaderGroupCreateInfoKHR *groups = xcalloc(s.ngroups, sizeof(*groups));
    for (uint32_t i = 0; i < s.ngroups; i++) {
        const struct group *g = &s.groups[i];
        groups[i] = (VkRayTracingShaderGroupCreateInfoKHR){
            .sType = VK_STRUCTURE_TYPE_RAY_TRACING_SHADER_GROUP_CREATE_INFO_KHR,
            .type = g->type,
            .generalShader = g->general < 0 ? VK_SHADER_UNUSED_KHR : (uint32_t)g->general,
            .closestHitShader = g->chit < 0 ? VK_SHADER_UNUSED_KHR : (uint32_t)g->chit,
            .anyHitShader = g->ahit < 0 ? VK_SHADER_UNUSED_KHR : (uint32_t)g->ahit,
            .intersectionShader = g->isec < 0 ? VK_SHADER_UNUSED_KHR : (uint32_t)g->isec,
        };
    }
    VkPipelineCreateFlags flags = radv ? VK_PIPELINE_CREATE_CAPTURE_STATISTICS_BIT_KHR |
                                             VK_PIPELINE_CREATE_CAPTURE_INTERNAL_REPRESENTATIONS_BIT_KHR
                                       : 0;
    VkRayTracingPipelineCreateInfoKHR pipeline_info = {
        .sType = VK_STRUCTURE_TYPE_RAY_TRACING_PIPELINE_CREATE_INFO_KHR,
        .flags = flags,
        .stageCount = s.nstages,
        .pStages = stages,
        .groupCount = s.ngroups,
        .pGroups = groups,
        .maxPipelineRayRecursionDepth = s.max_recursion,
        .layout = layout,
        .basePipelineIndex = -1,
    };
    printf("[scene] creating the pipeline (%u stages, %u groups, maxPipelineRayRecursionDepth %u)\n", s.nstages,
           s.ngroups, s.max_recursion);
    fflush(stdout);
    VkPipeline pipeline;
    check(create_rt_pipelines(device, VK_NULL_HANDLE, VK_NULL_HANDLE, 1, &pipeline_info, NULL, &pipeline),
          "vkCreateRayTracingPipelinesKHR");
    for (uint32_t i = 0; i < s.nstages; i++)
        vkDestroyShaderModule(device, stages[i].module, NULL);

    uint8_t *handles = xcalloc(s.ngroups, handle_size);
    check(get_group_handles(device, pipeline, 0, s.ngroups, (size_t)s.ngroups * handle_size, handles),
          "vkGetRayTracingShaderGroupHandlesKHR");
    struct sbt sbt = sbt_layout(&s, &rt_props);
    if (radv) {
        uint32_t n = write_pipeline_executables(out_dir, pipeline);
        printf("[scene] %u executables\n", n);
        write_handles(out_dir, pipeline, s.ngroups);
        write_stack_sizes(out_dir, &s, pipeline);
        uint8_t *bytes = xcalloc(sbt.size, 1);
        fill_sbt(&s, &sbt, handles, bytes);
        write_sbt(out_dir, &s, &sbt, bytes, &rt_props);
        free(bytes);
    }

    /* The acceleration structures: one BLAS a geometry, one TLAS. */
    const VkDeviceSize scratch_align = as_props.minAccelerationStructureScratchOffsetAlignment;
    const VkBufferUsageFlags input_usage = VK_BUFFER_USAGE_ACCELERATION_STRUCTURE_BUILD_INPUT_READ_ONLY_BIT_KHR;
    struct accel *blas = xcalloc(s.ngeometries, sizeof(*blas));
    for (uint32_t i = 0; i < s.ngeometries; i++) {
        const struct geometry *g = &s.geometries[i];
        struct accel *a = &blas[i];
        size_t floats = (size_t)g->count * (g->triangles ? 9 : 6);
        a->input = make_buffer(floats * sizeof(float), input_usage);
        memcpy(a->input.map, g->data, floats * sizeof(float));
        a->geometry = (VkAccelerationStructureGeometryKHR){
            .sType = VK_STRUCTURE_TYPE_ACCELERATION_STRUCTURE_GEOMETRY_KHR,
            .geometryType = g->triangles ? VK_GEOMETRY_TYPE_TRIANGLES_KHR : VK_GEOMETRY_TYPE_AABBS_KHR,
            .flags = g->opaque ? VK_GEOMETRY_OPAQUE_BIT_KHR : 0,
        };
        if (g->triangles)
            a->geometry.geometry.triangles = (VkAccelerationStructureGeometryTrianglesDataKHR){
                .sType = VK_STRUCTURE_TYPE_ACCELERATION_STRUCTURE_GEOMETRY_TRIANGLES_DATA_KHR,
                .vertexFormat = VK_FORMAT_R32G32B32_SFLOAT,
                .vertexData.deviceAddress = a->input.address,
                .vertexStride = 12,
                .maxVertex = g->count * 3 - 1,
                .indexType = VK_INDEX_TYPE_NONE_KHR,
            };
        else
            a->geometry.geometry.aabbs = (VkAccelerationStructureGeometryAabbsDataKHR){
                .sType = VK_STRUCTURE_TYPE_ACCELERATION_STRUCTURE_GEOMETRY_AABBS_DATA_KHR,
                .data.deviceAddress = a->input.address,
                .stride = 24,
            };
        prepare_accel(a, VK_ACCELERATION_STRUCTURE_TYPE_BOTTOM_LEVEL_KHR, g->count, scratch_align);
    }
    struct accel tlas = {0};
    tlas.input = make_buffer((VkDeviceSize)s.ninstances * sizeof(VkAccelerationStructureInstanceKHR), input_usage);
    VkAccelerationStructureInstanceKHR *inst = tlas.input.map;
    for (uint32_t i = 0; i < s.ninstances; i++) {
        const struct instance *in = &s.instances[i];
        memcpy(inst[i].transform.matrix, in->transform, sizeof(inst[i].transform.matrix));
        inst[i].instanceCustomIndex = in->custom_index;
        inst[i].mask = in->mask;
        inst[i].instanceShaderBindingTableRecordOffset = in->hit_group;
        inst[i].flags = in->flags;
        inst[i].accelerationStructureReference = accel_address(blas[in->geometry].as);
    }
    tlas.geometry = (VkAccelerationStructureGeometryKHR){
        .sType = VK_STRUCTURE_TYPE_ACCELERATION_STRUCTURE_GEOMETRY_KHR,
        .geometryType = VK_GEOMETRY_TYPE_INSTANCES_KHR,
        .geometry.instances =
            {
                .sType = VK_STRUCTURE_TYPE_ACCELERATION_STRUCTURE_GEOMETRY_INSTANCES_DATA_KHR,
                .data.deviceAddress = tlas.input.address,
            },
    };
    prepare_accel(&tlas, VK_ACCELERATION_STRUCTURE_TYPE_TOP_LEVEL_KHR, s.ninstances, scratch_align);

    f = open_out(out_dir, "acceleration_structures.txt");
    fputs("# vkGetAccelerationStructureBuildSizesKHR for each structure (one BLAS a [[geometry]], one\n"
          "# TLAS over the instances), built with PREFER_FAST_TRACE from one geometry each.\n",
          f);
    for (uint32_t i = 0; i < s.ngeometries; i++) {
        char what[64];
        snprintf(what, sizeof(what), "blas %u %s opaque=%d", i, s.geometries[i].triangles ? "triangles" : "aabbs",
                 s.geometries[i].opaque ? 1 : 0);
        accel_line(f, what, &blas[i]);
    }
    accel_line(f, "tlas", &tlas);
    close_out(f);

    /* The output buffer, the SBT in device memory, the descriptor set. */
    VkDeviceSize out_size = (VkDeviceSize)s.width * s.height * 16;
    struct buffer output = make_buffer(out_size, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT);
    struct buffer sbt_buffer = make_buffer(sbt.size + rt_props.shaderGroupBaseAlignment,
                                           VK_BUFFER_USAGE_SHADER_BINDING_TABLE_BIT_KHR);
    VkDeviceAddress sbt_base = align_up(sbt_buffer.address, rt_props.shaderGroupBaseAlignment);
    fill_sbt(&s, &sbt, handles, (uint8_t *)sbt_buffer.map + (sbt_base - sbt_buffer.address));
    VkStridedDeviceAddressRegionKHR regions[4];
    for (int r = 0; r < 4; r++) {
        regions[r] = sbt.region[r];
        regions[r].deviceAddress = sbt.region[r].size ? sbt_base + sbt.offset[r] : 0;
    }

    VkDescriptorPoolSize pool_sizes[] = {
        {VK_DESCRIPTOR_TYPE_ACCELERATION_STRUCTURE_KHR, 1},
        {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1},
    };
    VkDescriptorPoolCreateInfo pool_info = {
        .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO,
        .maxSets = 1,
        .poolSizeCount = ARRAY_LEN(pool_sizes),
        .pPoolSizes = pool_sizes,
    };
    VkDescriptorPool pool;
    check(vkCreateDescriptorPool(device, &pool_info, NULL, &pool), "vkCreateDescriptorPool");
    VkDescriptorSetAllocateInfo set_alloc = {
        .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO,
        .descriptorPool = pool,
        .descriptorSetCount = 1,
        .pSetLayouts = &set_layout,
    };
    VkDescriptorSet set;
    check(vkAllocateDescriptorSets(device, &set_alloc, &set), "vkAllocateDescriptorSets");
    VkWriteDescriptorSetAccelerationStructureKHR as_write = {
        .sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET_ACCELERATION_STRUCTURE_KHR,
        .accelerationStructureCount = 1,
        .pAccelerationStructures = &tlas.as,
    };
    VkDescriptorBufferInfo out_info = {output.buffer, 0, out_size};
    VkWriteDescriptorSet writes[] = {
        {.sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET,
         .pNext = &as_write,
         .dstSet = set,
         .dstBinding = 0,
         .descriptorCount = 1,
         .descriptorType = VK_DESCRIPTOR_TYPE_ACCELERATION_STRUCTURE_KHR},
        {.sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET,
         .dstSet = set,
         .dstBinding = 1,
         .descriptorCount = 1,
         .descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,
         .pBufferInfo = &out_info},
    };
    vkUpdateDescriptorSets(device, ARRAY_LEN(writes), writes, 0, NULL);

    /* One command buffer: build the BLASes, then the TLAS, then trace. */
    VkCommandPoolCreateInfo cmd_pool_info = {
        .sType = VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO,
        .queueFamilyIndex = queue_family,
    };
    VkCommandPool cmd_pool;
    check(vkCreateCommandPool(device, &cmd_pool_info, NULL, &cmd_pool), "vkCreateCommandPool");
    VkCommandBufferAllocateInfo cmd_alloc = {
        .sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO,
        .commandPool = cmd_pool,
        .level = VK_COMMAND_BUFFER_LEVEL_PRIMARY,
        .commandBufferCount = 1,
    };
    VkCommandBuffer cmd;
    check(vkAllocateCommandBuffers(device, &cmd_alloc, &cmd), "vkAllocateCommandBuffers");
    VkCommandBufferBeginInfo begin = {
        .sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO,
        .flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT,
    };
    check(vkBeginCommandBuffer(cmd, &begin), "vkBeginCommandBuffer");
    VkAccelerationStructureBuildGeometryInfoKHR *infos = xcalloc(s.ngeometries, sizeof(*infos));
    const VkAccelerationStructureBuildRangeInfoKHR **ranges = xcalloc(s.ngeometries, sizeof(*ranges));
    for (uint32_t i = 0; i < s.ngeometries; i++) {
        infos[i] = blas[i].build;
        ranges[i] = &blas[i].range;
    }
    cmd_build_as(cmd, s.ngeometries, infos, ranges);
    const VkPipelineStageFlags as_stage = VK_PIPELINE_STAGE_ACCELERATION_STRUCTURE_BUILD_BIT_KHR;
    barrier(cmd, as_stage, VK_ACCESS_ACCELERATION_STRUCTURE_WRITE_BIT_KHR, as_stage,
            VK_ACCESS_ACCELERATION_STRUCTURE_READ_BIT_KHR);
    const VkAccelerationStructureBuildRangeInfoKHR *tlas_range = &tlas.range;
    cmd_build_as(cmd, 1, &tlas.build, &tlas_range);
    barrier(cmd, as_stage, VK_ACCESS_ACCELERATION_STRUCTURE_WRITE_BIT_KHR,
            VK_PIPELINE_STAGE_RAY_TRACING_SHADER_BIT_KHR, VK_ACCESS_ACCELERATION_STRUCTURE_READ_BIT_KHR);
    vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_RAY_TRACING_KHR, pipeline);
    vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_RAY_TRACING_KHR, layout, 0, 1, &set, 0, NULL);
    if (s.npush)
        vkCmdPushConstants(cmd, layout, rt_stages, 0, s.npush * 4, s.push);
    cmd_trace_rays(cmd, &regions[0], &regions[1], &regions[2], &regions[3], s.width, s.height, 1);
    barrier(cmd, VK_PIPELINE_STAGE_RAY_TRACING_SHADER_BIT_KHR, VK_ACCESS_SHADER_WRITE_BIT,
            VK_PIPELINE_STAGE_HOST_BIT, VK_ACCESS_HOST_READ_BIT);
    check(vkEndCommandBuffer(cmd), "vkEndCommandBuffer");

    VkQueue queue;
    vkGetDeviceQueue(device, queue_family, 0, &queue);
    VkFenceCreateInfo fence_info = {.sType = VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
    VkFence fence;
    check(vkCreateFence(device, &fence_info, NULL, &fence), "vkCreateFence");
    VkSubmitInfo submit = {
        .sType = VK_STRUCTURE_TYPE_SUBMIT_INFO,
        .commandBufferCount = 1,
        .pCommandBuffers = &cmd,
    };
    printf("[scene] tracing %ux%u rays\n", s.width, s.height);
    fflush(stdout);
    check(vkQueueSubmit(queue, 1, &submit, fence), "vkQueueSubmit");
    VkResult wait = vkWaitForFences(device, 1, &fence, VK_TRUE, 120ull * 1000 * 1000 * 1000);
    if (wait == VK_TIMEOUT)
        fail(3, "the trace did not finish within 120 s");
    check(wait, "vkWaitForFences");

    if (!radv) {
        FILE *b = open_out(out_dir, "output.bin");
        fwrite(output.map, 1, out_size, b);
        close_out(b);
        printf("[scene] wrote output.bin (%llu bytes)\n", (unsigned long long)out_size);
    }

    vkDestroyFence(device, fence, NULL);
    vkDestroyCommandPool(device, cmd_pool, NULL);
    vkDestroyDescriptorPool(device, pool, NULL);
    free(infos);
    free(ranges);
    for (uint32_t i = 0; i < s.ngeometries; i++) {
        destroy_as(device, blas[i].as, NULL);
        free_buffer(&blas[i].storage);
        free_buffer(&blas[i].scratch);
        free_buffer(&blas[i].input);
    }
    destroy_as(device, tlas.as, NULL);
    free_buffer(&tlas.storage);
    free_buffer(&tlas.scratch);
    free_buffer(&tlas.input);
    free_buffer(&output);
    free_buffer(&sbt_buffer);
    free(blas);
    free(handles);
    free(stages);
    free(groups);
    vkDestroyPipeline(device, pipeline, NULL);
    vkDestroyPipelineLayout(device, layout, NULL);
    vkDestroyDescriptorSetLayout(device, set_layout, NULL);

    if (radv)
        write_descriptors(out_dir, &s, has_descriptor_buffer, queue_family);

    vkDestroyDevice(device, NULL);
    vkDestroyInstance(instance, NULL);
    printf("[scene] done\n");
    return 0;
}
