/*
 * rt_capture: builds gpuabi's ray-tracing capture pipelines on a Vulkan device and writes,
 * for every pipeline executable, what VK_KHR_pipeline_executable_properties reports.
 *
 *   rt_capture SPV_DIR OUT_DIR [PIPELINE...]
 *
 * SPV_DIR holds the shaders of tools/mesa/shaders compiled to SPIR-V as <file>.spv (for
 * example raygen.rgen.spv). Each pipeline is written to OUT_DIR/<pipeline>/; with PIPELINE
 * names only those are written (libraries they link are built but not written).
 * OUT_DIR/device.txt describes the device. Exit codes: 0 done, 1 usage or I/O error,
 * 2 a Vulkan call failed, 4 the device lacks a needed extension.
 *
 * Built by tools/mesa/capture-radv inside the Mesa chroot:
 *   gcc -std=c11 -O2 -Wall -Wextra -o rt_capture rt_capture.c -lvulkan
 */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <vulkan/vulkan.h>

#define ARRAY_LEN(a) (sizeof(a) / sizeof((a)[0]))
#define NONE (-1)
#define MAX_STAGES 16
#define MAX_GROUPS 32
#define MAX_LIBS 2

#define PUSH_CONSTANT_SIZE 48

struct stage_def {
    VkShaderStageFlagBits stage;
    const char *file;
};

struct group_def {
    VkRayTracingShaderGroupTypeKHR type;
    int general, chit, ahit, isec;
};

struct pipeline_def {
    const char *name;
    bool library;
    uint32_t max_depth;
    /* VkRayTracingPipelineInterfaceCreateInfoKHR for libraries and the pipelines linking
     * them: maxPipelineRayPayloadSize, maxPipelineRayHitAttributeSize (RADV uses these, not
     * the shaders' sizes, when they are larger). */
    uint32_t max_payload, max_hit_attrib;
    const char *libs[MAX_LIBS];
    struct stage_def stages[MAX_STAGES];
    struct group_def groups[MAX_GROUPS];
};

#define RGEN VK_SHADER_STAGE_RAYGEN_BIT_KHR
#define MISS VK_SHADER_STAGE_MISS_BIT_KHR
#define CHIT VK_SHADER_STAGE_CLOSEST_HIT_BIT_KHR
#define AHIT VK_SHADER_STAGE_ANY_HIT_BIT_KHR
#define ISEC VK_SHADER_STAGE_INTERSECTION_BIT_KHR
#define CALL VK_SHADER_STAGE_CALLABLE_BIT_KHR

#define GEN(i) {VK_RAY_TRACING_SHADER_GROUP_TYPE_GENERAL_KHR, (i), NONE, NONE, NONE}
#define TRI(c, a) {VK_RAY_TRACING_SHADER_GROUP_TYPE_TRIANGLES_HIT_GROUP_KHR, NONE, (c), (a), NONE}
#define PROC(c, a, i) {VK_RAY_TRACING_SHADER_GROUP_TYPE_PROCEDURAL_HIT_GROUP_KHR, NONE, (c), (a), (i)}
#define END {VK_RAY_TRACING_SHADER_GROUP_TYPE_MAX_ENUM_KHR, NONE, NONE, NONE, NONE}

/* The full shader set, in stage order. */
#define FULL_STAGES                                                                              \
    {RGEN, "raygen.rgen"}, {MISS, "radiance.rmiss"}, {MISS, "shadow.rmiss"},                     \
        {CHIT, "tri.rchit"}, {AHIT, "tri.rahit"}, {CHIT, "sphere.rchit"}, {AHIT, "sphere.rahit"}, \
        {ISEC, "sphere.rint"}, {CHIT, "box.rchit"}, {ISEC, "box.rint"}, {CALL, "shade.rcall"},   \
        {CALL, "noise.rcall"}, {CALL, "hash.rcall"}
#define FULL_TRI TRI(3, 4)
#define FULL_SPHERE PROC(5, 6, 7)
#define FULL_BOX PROC(8, NONE, 9)
#define FULL_GROUPS                                                                              \
    GEN(0), GEN(1), GEN(2), FULL_TRI, FULL_SPHERE, FULL_BOX, GEN(10), GEN(11), GEN(12), END

/* raygen -> closest hit or miss -> shadow miss. */
#define FULL_DEPTH 2

/* The small set: 12-byte payload, 8- and 4-byte callable data, 16-byte hit attributes. */
#define SMALL_STAGES                                                                             \
    {RGEN, "small.rgen"}, {MISS, "small.rmiss"}, {CHIT, "small.rchit"}, {AHIT, "tri.rahit"},     \
        {AHIT, "sphere.rahit"}, {ISEC, "sphere.rint"}, {CALL, "tone.rcall"}, {CALL, "hash.rcall"}
#define SMALL_DEPTH 2
#define SMALL_TRI TRI(2, 3)
#define SMALL_SPHERE PROC(NONE, 4, 5)
#define SMALL_SPHERE_OPAQUE PROC(NONE, NONE, 5)

static const struct pipeline_def pipelines[] = {
    {"plain", false, FULL_DEPTH, 0, 0, {NULL}, {FULL_STAGES}, {FULL_GROUPS}},
    /* The small set with 11 hit groups that use 20 any-hit/intersection slots (1 + 9 * 2 + 1):
     * from 20 on, RADV compiles one AHIT_ISEC function per hit group instead of inlining them
     * into traversal (radv_rt_compile_shaders in radv_pipeline_rt.c). */
    {"many_ahit",
     false,
     SMALL_DEPTH,
     0,
     0,
     {NULL},
     {SMALL_STAGES},
     {GEN(0), GEN(1), SMALL_TRI, SMALL_SPHERE, SMALL_SPHERE, SMALL_SPHERE, SMALL_SPHERE, SMALL_SPHERE,
      SMALL_SPHERE, SMALL_SPHERE, SMALL_SPHERE, SMALL_SPHERE, SMALL_SPHERE_OPAQUE, GEN(6), GEN(7), END}},
    /* Libraries of the small set: a library compiles every any-hit/intersection group into its
     * own AHIT_ISEC function; the pipelines linking them inline those into traversal. Their
     * interfaces declare more than the shaders use (32-byte payload and hit attributes for
     * lib_all, 24-byte for the split), so their functions differ from many_ahit's. */
    {"lib_all",
     true,
     SMALL_DEPTH,
     32,
     32,
     {NULL},
     {SMALL_STAGES},
     {GEN(0), GEN(1), SMALL_TRI, SMALL_SPHERE, SMALL_SPHERE_OPAQUE, GEN(6), GEN(7), END}},
    {"linked_all", false, SMALL_DEPTH, 32, 32, {"lib_all"}, {{0, NULL}}, {END}},
    {"lib_hits",
     true,
     SMALL_DEPTH,
     24,
     24,
     {NULL},
     {{CHIT, "small.rchit"}, {AHIT, "tri.rahit"}, {AHIT, "sphere.rahit"}, {ISEC, "sphere.rint"}},
     {TRI(0, 1), PROC(NONE, 2, 3), PROC(NONE, NONE, 3), END}},
    {"lib_misc",
     true,
     SMALL_DEPTH,
     24,
     24,
     {NULL},
     {{MISS, "small.rmiss"}, {CALL, "tone.rcall"}, {CALL, "hash.rcall"}},
     {GEN(0), GEN(1), GEN(2), END}},
    {"linked_split",
     false,
     SMALL_DEPTH,
     24,
     24,
     {"lib_misc", "lib_hits"},
     {{RGEN, "small.rgen"}},
     {GEN(0), END}},
};

#define NUM_PIPELINES ARRAY_LEN(pipelines)

static const char *const device_extensions[] = {
    VK_KHR_RAY_TRACING_PIPELINE_EXTENSION_NAME,      VK_KHR_ACCELERATION_STRUCTURE_EXTENSION_NAME,
    VK_KHR_DEFERRED_HOST_OPERATIONS_EXTENSION_NAME,  VK_KHR_PIPELINE_LIBRARY_EXTENSION_NAME,
    VK_KHR_PIPELINE_EXECUTABLE_PROPERTIES_EXTENSION_NAME,
};

static VkDevice device;
static VkPipelineLayout layout;
static VkPipeline built[NUM_PIPELINES];
static bool wanted[NUM_PIPELINES];
static PFN_vkCreateRayTracingPipelinesKHR create_rt_pipelines;
static PFN_vkGetRayTracingShaderGroupHandlesKHR get_group_handles;
static PFN_vkGetPipelineExecutablePropertiesKHR get_executables;
static PFN_vkGetPipelineExecutableStatisticsKHR get_statistics;
static PFN_vkGetPipelineExecutableInternalRepresentationsKHR get_representations;
static uint32_t handle_size;

static void fail(int code, const char *fmt, ...) __attribute__((noreturn, format(printf, 2, 3)));

static void fail(int code, const char *fmt, ...)
{
    va_list ap;
    fflush(stdout);
    fputs("[rt] error: ", stderr);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
    exit(code);
}

#include "capture_common.h"
#include "rt_executables.h"

static int find_pipeline(const char *name)
{
    for (size_t i = 0; i < NUM_PIPELINES; i++)
        if (strcmp(pipelines[i].name, name) == 0)
            return (int)i;
    return -1;
}

static uint32_t stage_count(const struct pipeline_def *def)
{
    uint32_t n = 0;
    while (n < MAX_STAGES && def->stages[n].file)
        n++;
    return n;
}

static uint32_t group_count(const struct pipeline_def *def)
{
    uint32_t n = 0;
    while (n < MAX_GROUPS && def->groups[n].type != VK_RAY_TRACING_SHADER_GROUP_TYPE_MAX_ENUM_KHR)
        n++;
    return n;
}

static uint32_t lib_count(const struct pipeline_def *def)
{
    uint32_t n = 0;
    while (n < MAX_LIBS && def->libs[n])
        n++;
    return n;
}

static bool uses_interface(const struct pipeline_def *def)
{
    return def->library || lib_count(def) > 0;
}

static const char *stage_name(VkShaderStageFlagBits s)
{
    switch (s) {
    case RGEN: return "raygen";
    case MISS: return "miss";
    case CHIT: return "closest-hit";
    case AHIT: return "any-hit";
    case ISEC: return "intersection";
    case CALL: return "callable";
    default: return "?";
    }
}

static const char *group_type_name(VkRayTracingShaderGroupTypeKHR t)
{
    switch (t) {
    case VK_RAY_TRACING_SHADER_GROUP_TYPE_GENERAL_KHR: return "general";
    case VK_RAY_TRACING_SHADER_GROUP_TYPE_TRIANGLES_HIT_GROUP_KHR: return "triangles";
    case VK_RAY_TRACING_SHADER_GROUP_TYPE_PROCEDURAL_HIT_GROUP_KHR: return "procedural";
    default: return "?";
    }
}

static void write_pipeline_txt(const char *dir, const struct pipeline_def *def, VkPipelineCreateFlags flags)
{
    FILE *f = open_out(dir, "pipeline.txt");
    fprintf(f, "pipeline %s  library=%d  flags=0x%x  maxPipelineRayRecursionDepth=%u", def->name,
            def->library ? 1 : 0, (unsigned)flags, def->max_depth);
    if (uses_interface(def))
        fprintf(f, "  maxPipelineRayPayloadSize=%u  maxPipelineRayHitAttributeSize=%u", def->max_payload,
                def->max_hit_attrib);
    fputc('\n', f);
    for (uint32_t i = 0; i < lib_count(def); i++)
        fprintf(f, "imports library: %s\n", def->libs[i]);
    for (uint32_t i = 0; i < stage_count(def); i++)
        fprintf(f, "stage %u: %-12s %s\n", i, stage_name(def->stages[i].stage), def->stages[i].file);
    for (uint32_t i = 0; i < group_count(def); i++) {
        const struct group_def *g = &def->groups[i];
        fprintf(f, "group %u: %-10s general=%d chit=%d ahit=%d isec=%d\n", i, group_type_name(g->type),
                g->general, g->chit, g->ahit, g->isec);
    }
    close_out(f);
}

static void write_executables(const char *out_dir, const struct pipeline_def *def, VkPipeline pipeline,
                              VkPipelineCreateFlags flags)
{
    char dir[4096];
    snprintf(dir, sizeof(dir), "%s/%s", out_dir, def->name);
    make_dir(dir);

    uint32_t n = write_pipeline_executables(dir, pipeline);

    write_pipeline_txt(dir, def, flags);
    uint32_t groups = group_count(def);
    for (uint32_t i = 0; i < lib_count(def); i++)
        groups += group_count(&pipelines[find_pipeline(def->libs[i])]);
    if (!def->library)
        write_handles(dir, pipeline, groups);
    printf("[rt]   %s: %u executables -> %s\n", def->name, n, dir);
}

static void build(size_t index, const char *spv_dir, const char *out_dir)
{
    const struct pipeline_def *def = &pipelines[index];
    if (built[index])
        return;

    VkPipeline libs[MAX_LIBS];
    uint32_t nlibs = lib_count(def);
    for (uint32_t i = 0; i < nlibs; i++) {
        int lib = find_pipeline(def->libs[i]);
        if (lib < 0 || !pipelines[lib].library)
            fail(1, "pipeline %s: %s is not a library", def->name, def->libs[i]);
        if (pipelines[lib].max_payload != def->max_payload ||
            pipelines[lib].max_hit_attrib != def->max_hit_attrib)
            fail(1, "pipeline %s: library %s declares another interface", def->name, def->libs[i]);
        build((size_t)lib, spv_dir, out_dir);
        libs[i] = built[lib];
    }

    uint32_t nstages = stage_count(def), ngroups = group_count(def);
    VkPipelineShaderStageCreateInfo stages[MAX_STAGES];
    VkRayTracingShaderGroupCreateInfoKHR groups[MAX_GROUPS];
    for (uint32_t i = 0; i < nstages; i++) {
        stages[i] = (VkPipelineShaderStageCreateInfo){
            .sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO,
            .stage = def->stages[i].stage,
            .module = load_module(spv_dir, def->stages[i].file, ".spv"),
            .pName = "main",
        };
    }
    for (uint32_t i = 0; i < ngroups; i++) {
        const struct group_def *g = &def->groups[i];
        groups[i] = (VkRayTracingShaderGroupCreateInfoKHR){
            .sType = VK_STRUCTURE_TYPE_RAY_TRACING_SHADER_GROUP_CREATE_INFO_KHR,
            .type = g->type,
            .generalShader = g->general == NONE ? VK_SHADER_UNUSED_KHR : (uint32_t)g->general,
            .closestHitShader = g->chit == NONE ? VK_SHADER_UNUSED_KHR : (uint32_t)g->chit,
            .anyHitShader = g->ahit == NONE ? VK_SHADER_UNUSED_KHR : (uint32_t)g->ahit,
            .intersectionShader = g->isec == NONE ? VK_SHADER_UNUSED_KHR : (uint32_t)g->isec,
        };
    }

    VkPipelineLibraryCreateInfoKHR library_info = {
        .sType = VK_STRUCTURE_TYPE_PIPELINE_LIBRARY_CREATE_INFO_KHR,
        .libraryCount = nlibs,
        .pLibraries = libs,
    };
    VkRayTracingPipelineInterfaceCreateInfoKHR interface = {
        .sType = VK_STRUCTURE_TYPE_RAY_TRACING_PIPELINE_INTERFACE_CREATE_INFO_KHR,
        .maxPipelineRayPayloadSize = def->max_payload,
        .maxPipelineRayHitAttributeSize = def->max_hit_attrib,
    };
    VkPipelineCreateFlags flags = VK_PIPELINE_CREATE_CAPTURE_STATISTICS_BIT_KHR |
                                  VK_PIPELINE_CREATE_CAPTURE_INTERNAL_REPRESENTATIONS_BIT_KHR;
    if (def->library)
        flags |= VK_PIPELINE_CREATE_LIBRARY_BIT_KHR;
    VkRayTracingPipelineCreateInfoKHR info = {
        .sType = VK_STRUCTURE_TYPE_RAY_TRACING_PIPELINE_CREATE_INFO_KHR,
        .flags = flags,
        .stageCount = nstages,
        .pStages = nstages ? stages : NULL,
        .groupCount = ngroups,
        .pGroups = ngroups ? groups : NULL,
        .maxPipelineRayRecursionDepth = def->max_depth,
        .pLibraryInfo = nlibs ? &library_info : NULL,
        .pLibraryInterface = uses_interface(def) ? &interface : NULL,
        .layout = layout,
        .basePipelineIndex = -1,
    };

    printf("[rt] creating pipeline %s (%u stages, %u groups, %u libs)\n", def->name, nstages, ngroups, nlibs);
    fflush(stdout);
    VkPipeline pipeline;
    check(create_rt_pipelines(device, VK_NULL_HANDLE, VK_NULL_HANDLE, 1, &info, NULL, &pipeline),
          "vkCreateRayTracingPipelinesKHR");
    for (uint32_t i = 0; i < nstages; i++)
        vkDestroyShaderModule(device, stages[i].module, NULL);
    built[index] = pipeline;

    if (wanted[index])
        write_executables(out_dir, def, pipeline, flags);
    fflush(stdout);
}

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: %s SPV_DIR OUT_DIR [PIPELINE...]\npipelines:", argv[0]);
        for (size_t i = 0; i < NUM_PIPELINES; i++)
            fprintf(stderr, " %s", pipelines[i].name);
        fputc('\n', stderr);
        return 1;
    }
    const char *spv_dir = argv[1], *out_dir = argv[2];
    for (int i = 3; i < argc; i++) {
        int p = find_pipeline(argv[i]);
        if (p < 0)
            fail(1, "unknown pipeline %s", argv[i]);
        wanted[p] = true;
    }
    if (argc == 3)
        for (size_t i = 0; i < NUM_PIPELINES; i++)
            wanted[i] = true;
    make_dir(out_dir);

    VkApplicationInfo app = {
        .sType = VK_STRUCTURE_TYPE_APPLICATION_INFO,
        .pApplicationName = "gpuabi rt_capture",
        .apiVersion = VK_API_VERSION_1_3,
    };
    VkInstanceCreateInfo instance_info = {
        .sType = VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO,
        .pApplicationInfo = &app,
    };
    VkInstance instance;
    check(vkCreateInstance(&instance_info, NULL, &instance), "vkCreateInstance");

    uint32_t ndev = 0;
    check(vkEnumeratePhysicalDevices(instance, &ndev, NULL), "vkEnumeratePhysicalDevices");
    if (ndev == 0)
        fail(2, "no Vulkan device");
    VkPhysicalDevice *devs = xcalloc(ndev, sizeof(*devs));
    check(vkEnumeratePhysicalDevices(instance, &ndev, devs), "vkEnumeratePhysicalDevices");
    VkPhysicalDevice phys = devs[0];
    free(devs);

    VkPhysicalDeviceRayTracingPipelinePropertiesKHR rt_props = {
        .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_RAY_TRACING_PIPELINE_PROPERTIES_KHR,
    };
    VkPhysicalDeviceDriverProperties driver = {
        .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DRIVER_PROPERTIES,
        .pNext = &rt_props,
    };
    VkPhysicalDeviceProperties2 props = {
        .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2,
        .pNext = &driver,
    };
    vkGetPhysicalDeviceProperties2(phys, &props);
    printf("[rt] device: %s (%s %s)\n", props.properties.deviceName, driver.driverName, driver.driverInfo);

    uint32_t next = 0;
    const char *enum_ext = "vkEnumerateDeviceExtensionProperties";
    check(vkEnumerateDeviceExtensionProperties(phys, NULL, &next, NULL), enum_ext);
    VkExtensionProperties *exts = xcalloc(next, sizeof(*exts));
    check(vkEnumerateDeviceExtensionProperties(phys, NULL, &next, exts), enum_ext);

    FILE *f = open_out(out_dir, "device.txt");
    uint32_t api = props.properties.apiVersion;
    fprintf(f, "deviceName: %s\ndriver: %s %s\napiVersion: %u.%u.%u\n", props.properties.deviceName,
            driver.driverName, driver.driverInfo, VK_API_VERSION_MAJOR(api), VK_API_VERSION_MINOR(api),
            VK_API_VERSION_PATCH(api));
    bool missing = false;
    for (size_t i = 0; i < ARRAY_LEN(device_extensions); i++) {
        bool has = has_extension(exts, next, device_extensions[i]);
        fprintf(f, "%s: %s\n", device_extensions[i], has ? "yes" : "no");
        missing |= !has;
    }
    if (!missing)
        fprintf(f,
                "shaderGroupHandleSize=%u maxRayRecursionDepth=%u maxShaderGroupStride=%u "
                "shaderGroupBaseAlignment=%u maxRayHitAttributeSize=%u shaderGroupHandleAlignment=%u\n",
                rt_props.shaderGroupHandleSize, rt_props.maxRayRecursionDepth, rt_props.maxShaderGroupStride,
                rt_props.shaderGroupBaseAlignment, rt_props.maxRayHitAttributeSize,
                rt_props.shaderGroupHandleAlignment);
    close_out(f);
    if (missing) {
        for (size_t i = 0; i < ARRAY_LEN(device_extensions); i++)
            if (!has_extension(exts, next, device_extensions[i]))
                printf("[rt] missing extension %s\n", device_extensions[i]);
        return 4;
    }
    free(exts);
    handle_size = rt_props.shaderGroupHandleSize;

    VkPhysicalDevicePipelineExecutablePropertiesFeaturesKHR exe_features = {
        .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PIPELINE_EXECUTABLE_PROPERTIES_FEATURES_KHR,
        .pipelineExecutableInfo = VK_TRUE,
    };
    VkPhysicalDeviceAccelerationStructureFeaturesKHR as_features = {
        .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_ACCELERATION_STRUCTURE_FEATURES_KHR,
        .pNext = &exe_features,
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
    float priority = 1.0f;
    VkDeviceQueueCreateInfo queue = {
        .sType = VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO,
        .queueFamilyIndex = 0,
        .queueCount = 1,
        .pQueuePriorities = &priority,
    };
    VkDeviceCreateInfo device_info = {
        .sType = VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO,
        .pNext = &vk12,
        .queueCreateInfoCount = 1,
        .pQueueCreateInfos = &queue,
        .enabledExtensionCount = ARRAY_LEN(device_extensions),
        .ppEnabledExtensionNames = device_extensions,
    };
    check(vkCreateDevice(phys, &device_info, NULL, &device), "vkCreateDevice");

    create_rt_pipelines = (PFN_vkCreateRayTracingPipelinesKHR)device_proc("vkCreateRayTracingPipelinesKHR");
    get_group_handles =
        (PFN_vkGetRayTracingShaderGroupHandlesKHR)device_proc("vkGetRayTracingShaderGroupHandlesKHR");
    get_executables =
        (PFN_vkGetPipelineExecutablePropertiesKHR)device_proc("vkGetPipelineExecutablePropertiesKHR");
    get_statistics =
        (PFN_vkGetPipelineExecutableStatisticsKHR)device_proc("vkGetPipelineExecutableStatisticsKHR");
    get_representations = (PFN_vkGetPipelineExecutableInternalRepresentationsKHR)device_proc(
        "vkGetPipelineExecutableInternalRepresentationsKHR");

    const VkShaderStageFlags rt_stages = RGEN | MISS | CHIT | AHIT | ISEC | CALL;
    VkDescriptorSetLayoutBinding bindings[] = {
        {0, VK_DESCRIPTOR_TYPE_ACCELERATION_STRUCTURE_KHR, 1, rt_stages, NULL},
        {1, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, rt_stages, NULL},
    };
    VkDescriptorSetLayoutCreateInfo set_info = {
        .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO,
        .bindingCount = ARRAY_LEN(bindings),
        .pBindings = bindings,
    };
    VkDescriptorSetLayout set_layout;
    check(vkCreateDescriptorSetLayout(device, &set_info, NULL, &set_layout), "vkCreateDescriptorSetLayout");
    VkPushConstantRange push = {rt_stages, 0, PUSH_CONSTANT_SIZE};
    VkPipelineLayoutCreateInfo layout_info = {
        .sType = VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO,
        .setLayoutCount = 1,
        .pSetLayouts = &set_layout,
        .pushConstantRangeCount = 1,
        .pPushConstantRanges = &push,
    };
    check(vkCreatePipelineLayout(device, &layout_info, NULL, &layout), "vkCreatePipelineLayout");

    for (size_t i = 0; i < NUM_PIPELINES; i++)
        if (wanted[i])
            build(i, spv_dir, out_dir);

    for (size_t i = NUM_PIPELINES; i-- > 0;)
        if (built[i])
            vkDestroyPipeline(device, built[i], NULL);
    vkDestroyPipelineLayout(device, layout, NULL);
    vkDestroyDescriptorSetLayout(device, set_layout, NULL);
    vkDestroyDevice(device, NULL);
    vkDestroyInstance(instance, NULL);
    printf("[rt] done\n");
    return 0;
}
