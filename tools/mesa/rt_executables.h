/* What rt_capture.c and rt_scene.c share: looking up device functions, loading SPIR-V
 * modules, and writing a ray-tracing pipeline's executables
 * (VK_KHR_pipeline_executable_properties: the "Assembly" and "ACO IR" representations and the
 * statistics of each) and its shader group handles. The including file includes
 * capture_common.h and defines
 *     static VkDevice device;
 *     static PFN_vkGetRayTracingShaderGroupHandlesKHR get_group_handles;
 *     static PFN_vkGetPipelineExecutablePropertiesKHR get_executables;
 *     static PFN_vkGetPipelineExecutableStatisticsKHR get_statistics;
 *     static PFN_vkGetPipelineExecutableInternalRepresentationsKHR get_representations;
 *     static uint32_t handle_size;
 * before including this. */
#ifndef GPUABI_RT_EXECUTABLES_H
#define GPUABI_RT_EXECUTABLES_H

#include <stdint.h>

/* "closest hit" -> "closest_hit", "NIR Shader(s)" -> "NIR_Shader_s". */
static void file_name_part(char *dst, size_t size, const char *src)
{
    size_t n = 0;
    bool sep = false;
    for (; *src && n + 1 < size; src++) {
        unsigned char c = (unsigned char)*src;
        bool alnum = (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
        if (!alnum) {
            sep = n > 0;
            continue;
        }
        if (sep && n + 2 < size)
            dst[n++] = '_';
        sep = false;
        dst[n++] = (char)c;
    }
    dst[n] = '\0';
}

/* Every group's handle, as bytes in memory order, four to a word. */
static void write_handles(const char *dir, VkPipeline pipeline, uint32_t groups)
{
    uint8_t *data = xcalloc(groups, handle_size);
    check(get_group_handles(device, pipeline, 0, groups, (size_t)groups * handle_size, data),
          "vkGetRayTracingShaderGroupHandlesKHR");
    FILE *f = open_out(dir, "handles.txt");
    fprintf(f,
            "# shaderGroupHandleSize=%u; bytes as stored, four to a word. RADV's handle "
            "(struct radv_pipeline_group_handle in radv_pipeline_rt.h): u64 recursive_shader_ptr, "
            "u64 ahit_isec_ptr, u32 general or closest-hit index, u32 intersection or any-hit index\n",
            handle_size);
    for (uint32_t g = 0; g < groups; g++) {
        fprintf(f, "group %2u:", g);
        const uint8_t *h = data + (size_t)g * handle_size;
        for (uint32_t b = 0; b < handle_size; b++)
            fprintf(f, "%s%02x", b % 4 == 0 ? " " : "", h[b]);
        fputc('\n', f);
    }
    close_out(f);
    free(data);
}

static void write_statistics(const char *dir, const char *prefix, const VkPipelineExecutableInfoKHR *exe)
{
    uint32_t n = 0;
    check(get_statistics(device, exe, &n, NULL), "vkGetPipelineExecutableStatisticsKHR");
    VkPipelineExecutableStatisticKHR *stats = xcalloc(n, sizeof(*stats));
    for (uint32_t i = 0; i < n; i++)
        stats[i].sType = VK_STRUCTURE_TYPE_PIPELINE_EXECUTABLE_STATISTIC_KHR;
    check(get_statistics(device, exe, &n, stats), "vkGetPipelineExecutableStatisticsKHR");

    char name[320];
    snprintf(name, sizeof(name), "%s.stats.txt", prefix);
    FILE *f = open_out(dir, name);
    for (uint32_t i = 0; i < n; i++) {
        const VkPipelineExecutableStatisticKHR *s = &stats[i];
        fprintf(f, "%s = ", s->name);
        switch (s->format) {
        case VK_PIPELINE_EXECUTABLE_STATISTIC_FORMAT_BOOL32_KHR:
            fputs(s->value.b32 ? "true" : "false", f);
            break;
        case VK_PIPELINE_EXECUTABLE_STATISTIC_FORMAT_INT64_KHR:
            fprintf(f, "%lld", (long long)s->value.i64);
            break;
        case VK_PIPELINE_EXECUTABLE_STATISTIC_FORMAT_UINT64_KHR:
            fprintf(f, "%llu", (unsigned long long)s->value.u64);
            break;
        case VK_PIPELINE_EXECUTABLE_STATISTIC_FORMAT_FLOAT64_KHR:
            fprintf(f, "%g", s->value.f64);
            break;
        default:
            fputs("?", f);
            break;
        }
        fprintf(f, "    # %s\n", s->description);
    }
    close_out(f);
    free(stats);
}

/* The "Assembly" and "ACO IR" representations; NIR is left out to keep captures small. */
static void write_representations(const char *dir, const char *prefix, const VkPipelineExecutableInfoKHR *exe)
{
    uint32_t n = 0;
    check(get_representations(device, exe, &n, NULL), "vkGetPipelineExecutableInternalRepresentationsKHR");
    VkPipelineExecutableInternalRepresentationKHR *reps = xcalloc(n, sizeof(*reps));
    for (uint32_t i = 0; i < n; i++)
        reps[i].sType = VK_STRUCTURE_TYPE_PIPELINE_EXECUTABLE_INTERNAL_REPRESENTATION_KHR;
    check(get_representations(device, exe, &n, reps), "vkGetPipelineExecutableInternalRepresentationsKHR");
    for (uint32_t i = 0; i < n; i++) {
        if (strcmp(reps[i].name, "Assembly") != 0 && strcmp(reps[i].name, "ACO IR") != 0)
            continue;
        reps[i].pData = xcalloc(reps[i].dataSize, 1);
    }
    check(get_representations(device, exe, &n, reps), "vkGetPipelineExecutableInternalRepresentationsKHR");

    unsigned written = 0;
    for (uint32_t i = 0; i < n; i++) {
        if (!reps[i].pData)
            continue;
        char part[128], name[320];
        file_name_part(part, sizeof(part), reps[i].name);
        snprintf(name, sizeof(name), "%s.%s.txt", prefix, part);
        size_t size = reps[i].dataSize;
        const char *text = reps[i].pData;
        if (reps[i].isText)
            size = strnlen(text, size);
        FILE *f = open_out(dir, name);
        fwrite(text, 1, size, f);
        close_out(f);
        free(reps[i].pData);
        written++;
    }
    free(reps);
    if (written != 2)
        fail(1, "%s: the driver gave %u of the representations \"Assembly\" and \"ACO IR\"", prefix, written);
}

/* executables.txt (`NN | name | description | stages=0x... | subgroupSize=N`, in the
 * driver's order) and NN_<name>.{Assembly,ACO_IR,stats}.txt for each; returns the count. */
static uint32_t write_pipeline_executables(const char *dir, VkPipeline pipeline)
{
    VkPipelineInfoKHR info = {.sType = VK_STRUCTURE_TYPE_PIPELINE_INFO_KHR, .pipeline = pipeline};
    uint32_t n = 0;
    check(get_executables(device, &info, &n, NULL), "vkGetPipelineExecutablePropertiesKHR");
    VkPipelineExecutablePropertiesKHR *props = xcalloc(n, sizeof(*props));
    for (uint32_t i = 0; i < n; i++)
        props[i].sType = VK_STRUCTURE_TYPE_PIPELINE_EXECUTABLE_PROPERTIES_KHR;
    check(get_executables(device, &info, &n, props), "vkGetPipelineExecutablePropertiesKHR");

    FILE *list = open_out(dir, "executables.txt");
    for (uint32_t i = 0; i < n; i++) {
        fprintf(list, "%02u | %s | %s | stages=0x%x | subgroupSize=%u\n", i, props[i].name,
                props[i].description, (unsigned)props[i].stages, props[i].subgroupSize);
        char part[128], prefix[160];
        file_name_part(part, sizeof(part), props[i].name);
        snprintf(prefix, sizeof(prefix), "%02u_%s", i, part);
        VkPipelineExecutableInfoKHR exe = {
            .sType = VK_STRUCTURE_TYPE_PIPELINE_EXECUTABLE_INFO_KHR,
            .pipeline = pipeline,
            .executableIndex = i,
        };
        write_representations(dir, prefix, &exe);
        write_statistics(dir, prefix, &exe);
    }
    close_out(list);
    free(props);
    return n;
}

/* A device function, which must exist. */
static PFN_vkVoidFunction device_proc(const char *name)
{
    PFN_vkVoidFunction f = vkGetDeviceProcAddr(device, name);
    if (!f)
        fail(2, "vkGetDeviceProcAddr(%s) returned NULL", name);
    return f;
}

/* The shader module of the SPIR-V file SPV_DIR/FILE followed by SUFFIX. */
static VkShaderModule load_module(const char *spv_dir, const char *file, const char *suffix)
{
    char path[4096];
    snprintf(path, sizeof(path), "%s/%s%s", spv_dir, file, suffix);
    FILE *f = fopen(path, "rb");
    if (!f)
        fail(1, "cannot read %s: %s", path, strerror(errno));
    if (fseek(f, 0, SEEK_END) != 0)
        fail(1, "cannot read %s", path);
    long size = ftell(f);
    if (size <= 0 || size % 4 != 0)
        fail(1, "%s: not a SPIR-V file (size %ld)", path, size);
    rewind(f);
    uint32_t *code = xcalloc((size_t)size / 4, 4);
    if (fread(code, 1, (size_t)size, f) != (size_t)size)
        fail(1, "cannot read %s", path);
    fclose(f);

    VkShaderModuleCreateInfo info = {
        .sType = VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO,
        .codeSize = (size_t)size,
        .pCode = code,
    };
    VkShaderModule module;
    check(vkCreateShaderModule(device, &info, NULL, &module), "vkCreateShaderModule");
    free(code);
    return module;
}

#endif
