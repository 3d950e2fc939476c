/*
 * hk_capture: builds gpuabi's Honeykrisp capture pipelines and records its draws, each in a
 * command buffer and submit of its own, so that Mesa's AGX_MESA_DEBUG=shaders dump and its
 * decoded submits (ASAHI_MESA_DEBUG=trace) show which parts were compiled and bound for it.
 *
 *   hk_capture SPV_DIR OUT_DIR
 *
 * SPV_DIR holds the shaders of tools/mesa/shaders compiled to SPIR-V as <file>.spv (for
 * example hk_wide.vert.spv). Written: OUT_DIR/device.txt (the device, its features and the
 * formats used), OUT_DIR/hk_capture.log (progress, "[hk] ..."), OUT_DIR/draws/NN_<name>.json
 * (each draw's vertex and fragment state). On stdout, among the driver's dump, lines
 * "@@HKCAP <event> <name>" mark where each device, pipeline and draw begins and ends:
 *
 *   @@HKCAP device-begin <robustness>       @@HKCAP device-end <robustness>
 *   @@HKCAP pipeline-begin <pipeline>       @@HKCAP pipeline-end <pipeline>
 *   @@HKCAP draw-begin NN_<name>            @@HKCAP draw-end NN_<name>
 *
 * Each draws/NN_<name>.json follows gpuabi's draw-state format (testdata/mesa/README.md) with
 * Vulkan's enum names; a colour write disabled by vkCmdSetColorWriteEnableEXT is written as
 * the empty write mask it amounts to, and the second output of dual-source blending has
 * "index": 1. Three optional fields carry what else Honeykrisp keys on: "sample_mask" (a draw's
 * vkCmdSetSampleMaskEXT mask, also in the log), "static_vertex_input" (a pipeline with static
 * vertex input, whose prolog fetches nothing) and "w_is_one" (see pipe_def.fs_w_one).
 *
 * Robustness is a device feature in Honeykrisp (hk_flush_dynamic_state in
 * src/asahi/vulkan/hk_cmd_draw.c keys the vertex prolog on robustBufferAccess and
 * robustBufferAccess2), so each robustness setting gets a VkDevice of its own.
 * Exit codes: 0 done, 1 usage or I/O error, 2 a Vulkan call failed, 4 the device lacks a
 * needed extension, feature or format.
 *
 * Built by tools/mesa/capture-hk inside the Mesa chroot:
 *   gcc -std=c11 -O2 -Wall -Wextra -o hk_capture hk_capture.c -lvulkan
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
#define MAX_ATTRIBS 16
#define MAX_BINDINGS 8
#define MAX_RTS 8
#define MAX_INPUTS 16
#define MAX_OUTPUTS 8
#define FB_SIZE 64
#define VB_SIZE 65536

/* ---- Shaders: what each reads and writes (the GLSL in tools/mesa/shaders) ---- */

struct vs_input {
    uint32_t location;
    const char *components; /* NULL ends the list */
};

struct vs_def {
    const char *file;
    struct vs_input inputs[MAX_INPUTS];
};

struct fs_output {
    uint32_t location, index;
    const char *type; /* "float", "int", "uint"; NULL ends the list */
    uint32_t bits;
};

struct fs_def {
    const char *file;
    bool uses_sample_id; /* reads gl_SampleID: runs per sample */
    struct fs_output outputs[MAX_OUTPUTS];
};

static const struct vs_def vertex_shaders[] = {
    {"hk_wide.vert",
     {{0, "xyz"}, {1, "xyzw"}, {2, "xy"}, {3, "x"}, {4, "xz"}, {5, "y"}, {6, "xyw"}, {7, "w"}}},
    {"hk_sparse.vert", {{1, "xy"}, {4, "yz"}, {9, "xyzw"}, {15, "x"}}},
    {"hk_inst.vert", {{0, "xy"}, {1, "xyzw"}, {2, "xyz"}, {3, "xw"}, {4, "xy"}, {5, "y"}}},
};

static const struct fs_def fragment_shaders[] = {
    {"hk_mrt.frag", false, {{0, 0, "float", 32}, {1, 0, "int", 32}, {2, 0, "uint", 32}, {3, 0, "float", 32}}},
    {"hk_dual.frag", false, {{0, 0, "float", 32}, {0, 1, "float", 32}}},
    {"hk_alpha.frag", false, {{0, 0, "float", 32}, {1, 0, "float", 32}}},
    {"hk_sample.frag", true, {{0, 0, "float", 32}, {1, 0, "uint", 32}}},
    {"hk_f16.frag", false, {{0, 0, "float", 16}, {1, 0, "int", 16}, {2, 0, "uint", 16}, {3, 0, "float", 32}}},
};

/* ---- Pipelines ---- */

struct pipe_def {
    const char *name;
    const char *vs, *fs;
    VkFormat formats[MAX_RTS]; /* colour attachments; VK_FORMAT_UNDEFINED ends the list */
    VkSampleCountFlagBits samples;
    bool min_sample_shading; /* sampleShadingEnable with minSampleShading = 1.0 */
    /* NULL: vertex input, blend, colour-write, logic-op and multisample state are dynamic.
     * Otherwise the name of the draw whose state is baked into the pipeline. */
    const char *static_from;
    /* The vertex shader writes the constant 1.0 to the w of the varying the fragment shader
     * stores at location 0; Mesa links the stages and folds it into the fragment shader,
     * which then leaves w out of its registers (the epilog key's loc0_w_1). Written as
     * "w_is_one" on that output; hk_split.py checks it against the compiled shader. */
    bool fs_w_one;
};

#define F(x) VK_FORMAT_##x
static const struct pipe_def pipelines[] = {
    {"wide_mrt", "hk_wide.vert", "hk_mrt.frag",
     {F(R8G8B8A8_UNORM), F(R16G16B16A16_SINT), F(R32G32_UINT), F(R16G16B16A16_SFLOAT)},
     VK_SAMPLE_COUNT_1_BIT, false, NULL, false},
    {"sparse_mrt", "hk_sparse.vert", "hk_mrt.frag",
     {F(B8G8R8A8_SRGB), F(R32G32B32A32_SINT), F(R16G16_UINT), F(A2B10G10R10_UNORM_PACK32)},
     VK_SAMPLE_COUNT_1_BIT, false, NULL, true},
    {"inst_dual", "hk_inst.vert", "hk_dual.frag", {F(R8G8B8A8_UNORM)}, VK_SAMPLE_COUNT_1_BIT, false, NULL, false},
    {"inst_alpha_ms4", "hk_inst.vert", "hk_alpha.frag", {F(R8G8B8A8_UNORM), F(R16G16B16A16_SFLOAT)},
     VK_SAMPLE_COUNT_4_BIT, false, NULL, false},
    {"wide_alpha_ms4_shaded", "hk_wide.vert", "hk_alpha.frag", {F(R8G8B8A8_UNORM), F(R16G16B16A16_SFLOAT)},
     VK_SAMPLE_COUNT_4_BIT, true, NULL, false},
    {"sparse_sample_id_ms2", "hk_sparse.vert", "hk_sample.frag", {F(R16G16_SFLOAT), F(R32_UINT)},
     VK_SAMPLE_COUNT_2_BIT, false, NULL, false},
    {"inst_f16", "hk_inst.vert", "hk_f16.frag",
     {F(R16G16B16A16_SFLOAT), F(R16G16B16A16_SINT), F(R16G16_UINT), F(R8G8B8A8_UNORM)},
     VK_SAMPLE_COUNT_1_BIT, false, NULL, false},
    {"inst_formats", "hk_inst.vert", "hk_alpha.frag", {F(R5G6B5_UNORM_PACK16), F(B10G11R11_UFLOAT_PACK32)},
     VK_SAMPLE_COUNT_1_BIT, false, NULL, false},
    {"wide_static", "hk_wide.vert", "hk_mrt.frag",
     {F(R8G8B8A8_UNORM), F(R16G16B16A16_SINT), F(R32G32_UINT), F(R16G16B16A16_SFLOAT)},
     VK_SAMPLE_COUNT_1_BIT, false, "wide_static", false},
};

/* ---- Draws ---- */

struct binding_def {
    bool used;
    uint32_t binding, stride;
    bool instance;
    uint32_t divisor;
};

struct attr_def {
    uint32_t location, binding;
    VkFormat format; /* VK_FORMAT_UNDEFINED ends the list */
    uint32_t offset;
};

struct rt_def {
    bool blend;
    VkBlendFactor src_color, dst_color;
    VkBlendOp color_op;
    VkBlendFactor src_alpha, dst_alpha;
    VkBlendOp alpha_op;
    const char *mask;    /* NULL: "rgba" */
    bool write_disabled; /* vkCmdSetColorWriteEnableEXT(false) */
};

struct draw_def {
    const char *name;
    const char *pipeline;
    unsigned device; /* index into robustness_configs */
    const char *like; /* NULL, or the draw whose bindings and attributes this one uses */
    struct binding_def bindings[MAX_BINDINGS];
    struct attr_def attrs[MAX_ATTRIBS];
    struct rt_def rts[MAX_RTS];
    bool alpha_to_coverage, alpha_to_one;
    bool logic_op_enable;
    VkLogicOp logic_op;
    float blend_constants[4];
    uint32_t sample_mask; /* 0: all samples */
    uint32_t vertices, instances, first_vertex, first_instance;
};

static const struct {
    const char *name; /* the DRAW.json "robustness" value */
    bool rba, rba2;
} robustness_configs[] = {
    {"disabled", false, false},
    {"robust_buffer_access", true, false},
    {"robust_buffer_access_2", true, true},
};
enum { DEV_OFF, DEV_RBA, DEV_RBA2 };

#define VB(b, s) {true, (b), (s), false, 1}
#define IB(b, s, d) {true, (b), (s), true, (d)}
#define A(loc, b, fmt, off) {(loc), (b), VK_FORMAT_##fmt, (off)}
#define OFF {false, VK_BLEND_FACTOR_ONE, VK_BLEND_FACTOR_ZERO, VK_BLEND_OP_ADD, \
             VK_BLEND_FACTOR_ONE, VK_BLEND_FACTOR_ZERO, VK_BLEND_OP_ADD, NULL, false}
#define MASKED(m) {false, VK_BLEND_FACTOR_ONE, VK_BLEND_FACTOR_ZERO, VK_BLEND_OP_ADD, \
                   VK_BLEND_FACTOR_ONE, VK_BLEND_FACTOR_ZERO, VK_BLEND_OP_ADD, (m), false}
#define WRITE_DISABLED {false, VK_BLEND_FACTOR_ONE, VK_BLEND_FACTOR_ZERO, VK_BLEND_OP_ADD, \
                        VK_BLEND_FACTOR_ONE, VK_BLEND_FACTOR_ZERO, VK_BLEND_OP_ADD, NULL, true}
#define BLEND(sc, dc, cop, sa, da, aop, m)                                                   \
    {true, VK_BLEND_FACTOR_##sc, VK_BLEND_FACTOR_##dc, VK_BLEND_OP_##cop,                    \
     VK_BLEND_FACTOR_##sa, VK_BLEND_FACTOR_##da, VK_BLEND_OP_##aop, (m), false}

static const struct draw_def draws[] = {
    /* hk_wide: every location of 0-7, formats by class. */
    {.name = "wide_native", .pipeline = "wide_mrt", .device = DEV_OFF,
     .bindings = {VB(0, 32), VB(1, 24)},
     .attrs = {A(0, 0, R32G32B32_SFLOAT, 0), A(1, 0, R8G8B8A8_UNORM, 12), A(2, 0, R16G16_UNORM, 16),
               A(3, 0, R32_SFLOAT, 20), A(6, 0, A2B10G10R10_UNORM_PACK32, 24),
               A(7, 0, B10G11R11_UFLOAT_PACK32, 28), A(4, 1, R32G32B32A32_SINT, 0),
               A(5, 1, R32G32_UINT, 16)},
     .rts = {OFF, OFF, OFF, OFF},
     .vertices = 6, .instances = 1},
    {.name = "wide_norm_swizzle", .pipeline = "wide_mrt", .device = DEV_OFF,
     .bindings = {VB(0, 20), VB(1, 10), VB(2, 12), VB(3, 8)},
     .attrs = {A(0, 0, R16G16B16_SFLOAT, 0), A(1, 0, B8G8R8A8_UNORM, 8), A(2, 0, R8G8_SNORM, 12),
               A(3, 0, R16_SNORM, 14), A(7, 0, R16G16_SNORM, 16), A(6, 1, R16G16B16A16_UNORM, 0),
               A(4, 2, R16G16B16A16_SINT, 0), A(5, 3, R16G16_UINT, 4)},
     .rts = {BLEND(SRC_ALPHA, ONE_MINUS_SRC_ALPHA, ADD, ONE, ONE_MINUS_SRC_ALPHA, ADD, NULL), OFF, OFF,
             BLEND(ONE, ONE_MINUS_SRC_ALPHA, ADD, ONE, ONE_MINUS_SRC_ALPHA, ADD, NULL)},
     .vertices = 6, .instances = 1, .first_vertex = 3},
    {.name = "wide_packed_unpacked", .pipeline = "wide_mrt", .device = DEV_OFF,
     .bindings = {VB(0, 36), VB(1, 8)},
     .attrs = {A(0, 0, R32G32B32A32_SFLOAT, 0), A(1, 0, A2B10G10R10_SNORM_PACK32, 16),
               A(2, 0, A2B10G10R10_USCALED_PACK32, 20), A(3, 0, A2B10G10R10_SSCALED_PACK32, 24),
               A(6, 0, A2R10G10B10_SNORM_PACK32, 28), A(7, 0, R8G8B8_SNORM, 32),
               A(4, 1, A2B10G10R10_SINT_PACK32, 0), A(5, 1, A2B10G10R10_UINT_PACK32, 4)},
     .rts = {BLEND(SRC_COLOR, ONE_MINUS_DST_COLOR, SUBTRACT, DST_COLOR, ONE_MINUS_SRC_COLOR, REVERSE_SUBTRACT, NULL),
             OFF, OFF, BLEND(DST_COLOR, ONE_MINUS_SRC_COLOR, ADD, ZERO, SRC_COLOR, ADD, NULL)},
     .vertices = 6, .instances = 1},
    {.name = "wide_scaled_int", .pipeline = "wide_mrt", .device = DEV_OFF,
     .bindings = {VB(0, 24), VB(1, 4), VB(2, 16)},
     .attrs = {A(0, 0, R16G16B16A16_SSCALED, 0), A(1, 0, R8G8B8A8_USCALED, 8), A(2, 0, R16G16_SSCALED, 12),
               A(3, 0, R8_USCALED, 16), A(6, 0, R8G8B8A8_SSCALED, 20), A(5, 1, R8G8_UINT, 0),
               A(4, 2, R8G8B8A8_SINT, 0), A(7, 2, R16G16B16A16_USCALED, 8)},
     .rts = {BLEND(CONSTANT_COLOR, ONE_MINUS_CONSTANT_COLOR, ADD, CONSTANT_ALPHA, ONE_MINUS_CONSTANT_ALPHA, ADD, NULL),
             OFF, OFF, BLEND(ONE, ONE, MIN, ONE, ONE, MAX, NULL)},
     .blend_constants = {0.25f, 0.5f, 0.75f, 0.125f},
     .vertices = 3, .instances = 1},
    {.name = "wide_strides_masks", .pipeline = "wide_mrt", .device = DEV_OFF,
     .bindings = {VB(0, 0), VB(1, 52), VB(2, 6)},
     .attrs = {A(1, 0, R16G16B16A16_SNORM, 0), A(0, 1, R32G32_SFLOAT, 4), A(3, 1, R16_SFLOAT, 12),
               A(6, 1, R32G32B32_SFLOAT, 16), A(7, 1, R8_UNORM, 28), A(4, 1, R32_SINT, 32),
               A(5, 1, R16G16B16A16_UINT, 40), A(2, 2, R16G16B16_UNORM, 0)},
     .rts = {BLEND(SRC_ALPHA_SATURATE, ONE_MINUS_DST_ALPHA, ADD, DST_ALPHA, ZERO, ADD, "rg"), MASKED("a"),
             WRITE_DISABLED, BLEND(ONE, ONE, ADD, ONE, ONE, ADD, "rgb")},
     .vertices = 6, .instances = 1},
    {.name = "wide_logic_copy_inverted", .pipeline = "wide_mrt", .device = DEV_OFF, .like = "wide_scaled_int",
     .rts = {MASKED("ba"), OFF, MASKED("rg"), OFF},
     .logic_op_enable = true, .logic_op = VK_LOGIC_OP_COPY_INVERTED,
     .vertices = 3, .instances = 1},

    /* hk_sparse: locations 1, 4, 9 and 15; logic ops. */
    {.name = "sparse_logic_xor", .pipeline = "sparse_mrt", .device = DEV_OFF,
     .bindings = {VB(0, 28), VB(1, 16)},
     .attrs = {A(1, 0, R32G32_SFLOAT, 0), A(4, 0, R16G16B16A16_SFLOAT, 8), A(9, 0, R16G16B16A16_SINT, 16),
               A(15, 1, R32G32B32A32_UINT, 0)},
     .rts = {OFF, OFF, OFF, OFF},
     .logic_op_enable = true, .logic_op = VK_LOGIC_OP_XOR,
     .vertices = 3, .instances = 1},
    {.name = "sparse_logic_masks", .pipeline = "sparse_mrt", .device = DEV_OFF,
     .bindings = {VB(0, 12), VB(1, 4)},
     .attrs = {A(1, 0, R8G8B8A8_SNORM, 0), A(4, 0, R16G16_SFLOAT, 4), A(9, 0, R8G8B8A8_SINT, 8),
               A(15, 1, R16_UINT, 2)},
     .rts = {MASKED("rgb"), MASKED("rg"), MASKED("g"), OFF},
     .logic_op_enable = true, .logic_op = VK_LOGIC_OP_AND_REVERSE,
     .vertices = 3, .instances = 1, .first_vertex = 5},
    {.name = "sparse_blend_srgb", .pipeline = "sparse_mrt", .device = DEV_OFF,
     .bindings = {VB(0, 8), VB(1, 20), VB(2, 4)},
     .attrs = {A(1, 0, R16G16_SNORM, 0), A(4, 0, R8G8B8A8_UNORM, 4), A(9, 1, R32G32B32A32_SINT, 4),
               A(15, 2, R8G8B8A8_UINT, 0)},
     .rts = {BLEND(SRC_ALPHA, ONE_MINUS_SRC_ALPHA, ADD, ONE, ZERO, ADD, NULL), OFF, MASKED("r"),
             BLEND(ONE_MINUS_DST_COLOR, SRC_ALPHA, REVERSE_SUBTRACT, ONE_MINUS_DST_ALPHA, ONE, ADD, NULL)},
     .vertices = 3, .instances = 1},

    /* hk_inst: per-instance bindings with divisors; dual-source blending. */
    {.name = "inst_dual_src", .pipeline = "inst_dual", .device = DEV_OFF,
     .bindings = {VB(0, 8), IB(1, 4, 1), IB(2, 12, 3), IB(3, 8, 0), IB(4, 8, 7), IB(5, 4, 4)},
     .attrs = {A(0, 0, R32G32_SFLOAT, 0), A(1, 1, R8G8B8A8_UNORM, 0), A(2, 2, R32G32B32_SFLOAT, 0),
               A(3, 3, R16G16B16A16_SFLOAT, 0), A(4, 4, R32G32_UINT, 0), A(5, 5, R16G16_SINT, 0)},
     .rts = {BLEND(SRC1_COLOR, ONE_MINUS_SRC1_COLOR, ADD, SRC1_ALPHA, ONE_MINUS_SRC1_ALPHA, ADD, NULL)},
     .vertices = 6, .instances = 9, .first_instance = 2},
    {.name = "inst_dual_src_mixed", .pipeline = "inst_dual", .device = DEV_OFF,
     .bindings = {VB(0, 16), IB(1, 24, 1), IB(2, 12, 2)},
     .attrs = {A(0, 0, R16G16_SNORM, 4), A(1, 1, R16G16B16A16_UNORM, 0), A(3, 1, R8G8B8A8_SNORM, 8),
               A(4, 1, R16G16_UINT, 12), A(5, 1, R8G8_SINT, 16), A(2, 2, R16G16B16_SNORM, 0)},
     .rts = {BLEND(SRC_ALPHA, ONE_MINUS_SRC1_ALPHA, ADD, ONE, SRC1_ALPHA, SUBTRACT, NULL)},
     .vertices = 3, .instances = 5},
    {.name = "inst_logic_nand", .pipeline = "inst_dual", .device = DEV_OFF, .like = "inst_dual_src",
     .rts = {OFF}, .logic_op_enable = true, .logic_op = VK_LOGIC_OP_NAND,
     .vertices = 6, .instances = 9, .first_instance = 2},
    {.name = "inst_logic_equivalent_masked", .pipeline = "inst_dual", .device = DEV_OFF, .like = "inst_dual_src",
     .rts = {MASKED("rgb")}, .logic_op_enable = true, .logic_op = VK_LOGIC_OP_EQUIVALENT,
     .vertices = 6, .instances = 9, .first_instance = 2},

    /* Multisampling: alpha-to-coverage, alpha-to-one, a sample mask, sample shading. */
    {.name = "inst_a2c_ms4", .pipeline = "inst_alpha_ms4", .device = DEV_OFF,
     .bindings = {VB(0, 8), IB(1, 0, 1), IB(2, 16, 2)},
     .attrs = {A(0, 0, R32G32_SFLOAT, 0), A(1, 1, R8G8B8A8_UNORM, 0), A(2, 2, R16G16B16A16_SNORM, 0),
               A(3, 2, R16G16B16A16_UNORM, 8), A(4, 1, R8G8_UINT, 4), A(5, 1, R8G8_SINT, 6)},
     .rts = {OFF, OFF},
     .alpha_to_coverage = true,
     .vertices = 6, .instances = 4},
    {.name = "inst_a2c_a2one_ms4", .pipeline = "inst_alpha_ms4", .device = DEV_OFF, .like = "inst_a2c_ms4",
     .rts = {BLEND(SRC_ALPHA, ONE_MINUS_SRC_ALPHA, ADD, ONE, ONE_MINUS_SRC_ALPHA, ADD, NULL),
             BLEND(ONE, ONE, ADD, ONE, ONE, ADD, NULL)},
     .alpha_to_coverage = true, .alpha_to_one = true,
     .vertices = 6, .instances = 4},
    {.name = "inst_sample_mask_ms4", .pipeline = "inst_alpha_ms4", .device = DEV_OFF, .like = "inst_a2c_ms4",
     .rts = {OFF, MASKED("rb")},
     .sample_mask = 0x5,
     .vertices = 6, .instances = 4},
    {.name = "wide_sample_shading_ms4", .pipeline = "wide_alpha_ms4_shaded", .device = DEV_OFF,
     .like = "wide_native",
     .rts = {BLEND(ONE_MINUS_DST_ALPHA, DST_ALPHA, ADD, ONE, ZERO, ADD, NULL), MASKED("rb")},
     .vertices = 6, .instances = 1},
    {.name = "sparse_sample_id_ms2", .pipeline = "sparse_sample_id_ms2", .device = DEV_OFF,
     .like = "sparse_logic_xor",
     .rts = {BLEND(DST_COLOR, ZERO, ADD, ONE, ONE, MAX, NULL), MASKED("r")},
     .vertices = 3, .instances = 1},

    /* 16-bit outputs; more attachment formats. */
    {.name = "inst_f16", .pipeline = "inst_f16", .device = DEV_OFF, .like = "inst_dual_src",
     .rts = {BLEND(SRC_ALPHA, ONE_MINUS_SRC_ALPHA, ADD, ONE, ONE_MINUS_SRC_ALPHA, ADD, NULL), OFF, OFF,
             BLEND(ONE_MINUS_SRC_COLOR, SRC_COLOR, ADD, ONE_MINUS_DST_ALPHA, DST_ALPHA, ADD, "rgb")},
     .vertices = 6, .instances = 9, .first_instance = 2},
    {.name = "inst_f16_logic_or", .pipeline = "inst_f16", .device = DEV_OFF, .like = "inst_dual_src_mixed",
     .rts = {OFF, MASKED("ga"), OFF, OFF},
     .logic_op_enable = true, .logic_op = VK_LOGIC_OP_OR,
     .vertices = 3, .instances = 5},
    {.name = "inst_formats", .pipeline = "inst_formats", .device = DEV_OFF, .like = "inst_dual_src",
     .rts = {BLEND(ONE_MINUS_CONSTANT_ALPHA, CONSTANT_ALPHA, ADD, ZERO, ONE, ADD, NULL),
             BLEND(SRC_ALPHA, ONE, ADD, ONE_MINUS_CONSTANT_COLOR, CONSTANT_COLOR, ADD, NULL)},
     .blend_constants = {0.5f, 0.25f, 1.0f, 0.75f},
     .vertices = 6, .instances = 9, .first_instance = 2},

    /* Static vertex input and blend state: Mesa fetches the attributes in the main shader. */
    {.name = "wide_static", .pipeline = "wide_static", .device = DEV_OFF, .like = "wide_norm_swizzle",
     .rts = {BLEND(SRC_ALPHA, ONE_MINUS_SRC_ALPHA, ADD, ONE, ONE_MINUS_SRC_ALPHA, ADD, NULL), OFF, OFF,
             OFF},
     .vertices = 6, .instances = 1},

    /* The same states with robustBufferAccess, then robustBufferAccess2. */
    {.name = "wide_native_rba", .pipeline = "wide_mrt", .device = DEV_RBA, .like = "wide_native",
     .rts = {OFF, OFF, OFF, OFF}, .vertices = 6, .instances = 1},
    {.name = "wide_packed_unpacked_rba", .pipeline = "wide_mrt", .device = DEV_RBA,
     .like = "wide_packed_unpacked",
     .rts = {OFF, OFF, OFF, OFF}, .vertices = 6, .instances = 1},
    {.name = "inst_dual_src_rba", .pipeline = "inst_dual", .device = DEV_RBA, .like = "inst_dual_src",
     .rts = {BLEND(SRC1_COLOR, ONE_MINUS_SRC1_COLOR, ADD, SRC1_ALPHA, ONE_MINUS_SRC1_ALPHA, ADD, NULL)},
     .vertices = 6, .instances = 9, .first_instance = 2},
    {.name = "wide_native_rba2", .pipeline = "wide_mrt", .device = DEV_RBA2, .like = "wide_native",
     .rts = {OFF, OFF, OFF, OFF}, .vertices = 6, .instances = 1},
    {.name = "wide_packed_unpacked_rba2", .pipeline = "wide_mrt", .device = DEV_RBA2,
     .like = "wide_packed_unpacked",
     .rts = {OFF, OFF, OFF, OFF}, .vertices = 6, .instances = 1},
    {.name = "inst_dual_src_rba2", .pipeline = "inst_dual", .device = DEV_RBA2, .like = "inst_dual_src",
     .rts = {BLEND(SRC1_COLOR, ONE_MINUS_SRC1_COLOR, ADD, SRC1_ALPHA, ONE_MINUS_SRC1_ALPHA, ADD, NULL)},
     .vertices = 6, .instances = 9, .first_instance = 2},
    {.name = "wide_static_rba2", .pipeline = "wide_static", .device = DEV_RBA2, .like = "wide_norm_swizzle",
     .rts = {BLEND(SRC_ALPHA, ONE_MINUS_SRC_ALPHA, ADD, ONE, ONE_MINUS_SRC_ALPHA, ADD, NULL), OFF, OFF,
             OFF},
     .vertices = 6, .instances = 1},
};

#define NUM_PIPELINES ARRAY_LEN(pipelines)
#define NUM_DRAWS ARRAY_LEN(draws)

/* ---- Vulkan enum names (only those used) ---- */

#define N(prefix, x) {VK_##prefix##_##x, "VK_" #prefix "_" #x}
static const struct {
    VkFormat value;
    const char *name;
} format_names[] = {
    N(FORMAT, R8_UNORM), N(FORMAT, R8_USCALED), N(FORMAT, R8G8_SNORM), N(FORMAT, R8G8_UINT),
    N(FORMAT, R8G8_SINT), N(FORMAT, R8G8B8_SNORM), N(FORMAT, R8G8B8A8_UNORM), N(FORMAT, R8G8B8A8_SNORM),
    N(FORMAT, R8G8B8A8_USCALED), N(FORMAT, R8G8B8A8_SSCALED), N(FORMAT, R8G8B8A8_UINT),
    N(FORMAT, R8G8B8A8_SINT), N(FORMAT, B8G8R8A8_UNORM), N(FORMAT, B8G8R8A8_SRGB),
    N(FORMAT, A2R10G10B10_SNORM_PACK32), N(FORMAT, A2B10G10R10_UNORM_PACK32),
    N(FORMAT, A2B10G10R10_SNORM_PACK32), N(FORMAT, A2B10G10R10_USCALED_PACK32),
    N(FORMAT, A2B10G10R10_SSCALED_PACK32), N(FORMAT, A2B10G10R10_UINT_PACK32),
    N(FORMAT, A2B10G10R10_SINT_PACK32), N(FORMAT, R16_SNORM), N(FORMAT, R16_UINT), N(FORMAT, R16_SFLOAT),
    N(FORMAT, R16G16_UNORM), N(FORMAT, R16G16_SNORM), N(FORMAT, R16G16_SSCALED), N(FORMAT, R16G16_UINT),
    N(FORMAT, R16G16_SINT), N(FORMAT, R16G16_SFLOAT), N(FORMAT, R16G16B16_UNORM), N(FORMAT, R16G16B16_SNORM),
    N(FORMAT, R16G16B16_SFLOAT), N(FORMAT, R16G16B16A16_UNORM), N(FORMAT, R16G16B16A16_SNORM),
    N(FORMAT, R16G16B16A16_USCALED), N(FORMAT, R16G16B16A16_SSCALED), N(FORMAT, R16G16B16A16_UINT),
    N(FORMAT, R16G16B16A16_SINT), N(FORMAT, R16G16B16A16_SFLOAT), N(FORMAT, R32_UINT), N(FORMAT, R32_SINT),
    N(FORMAT, R32_SFLOAT), N(FORMAT, R32G32_UINT), N(FORMAT, R32G32_SFLOAT), N(FORMAT, R32G32B32_SFLOAT),
    N(FORMAT, R32G32B32A32_UINT), N(FORMAT, R32G32B32A32_SINT), N(FORMAT, R32G32B32A32_SFLOAT),
    N(FORMAT, B10G11R11_UFLOAT_PACK32), N(FORMAT, R5G6B5_UNORM_PACK16),
};

static const struct {
    VkBlendFactor value;
    const char *name;
} factor_names[] = {
    N(BLEND_FACTOR, ZERO), N(BLEND_FACTOR, ONE), N(BLEND_FACTOR, SRC_COLOR),
    N(BLEND_FACTOR, ONE_MINUS_SRC_COLOR), N(BLEND_FACTOR, DST_COLOR), N(BLEND_FACTOR, ONE_MINUS_DST_COLOR),
    N(BLEND_FACTOR, SRC_ALPHA), N(BLEND_FACTOR, ONE_MINUS_SRC_ALPHA), N(BLEND_FACTOR, DST_ALPHA),
    N(BLEND_FACTOR, ONE_MINUS_DST_ALPHA), N(BLEND_FACTOR, CONSTANT_COLOR),
    N(BLEND_FACTOR, ONE_MINUS_CONSTANT_COLOR), N(BLEND_FACTOR, CONSTANT_ALPHA),
    N(BLEND_FACTOR, ONE_MINUS_CONSTANT_ALPHA), N(BLEND_FACTOR, SRC_ALPHA_SATURATE),
    N(BLEND_FACTOR, SRC1_COLOR), N(BLEND_FACTOR, ONE_MINUS_SRC1_COLOR), N(BLEND_FACTOR, SRC1_ALPHA),
    N(BLEND_FACTOR, ONE_MINUS_SRC1_ALPHA),
};

static const struct {
    VkBlendOp value;
    const char *name;
} op_names[] = {
    N(BLEND_OP, ADD), N(BLEND_OP, SUBTRACT), N(BLEND_OP, REVERSE_SUBTRACT), N(BLEND_OP, MIN), N(BLEND_OP, MAX),
};

static const struct {
    VkLogicOp value;
    const char *name;
} logic_op_names[] = {
    N(LOGIC_OP, CLEAR), N(LOGIC_OP, AND), N(LOGIC_OP, AND_REVERSE), N(LOGIC_OP, COPY),
    N(LOGIC_OP, AND_INVERTED), N(LOGIC_OP, NO_OP), N(LOGIC_OP, XOR), N(LOGIC_OP, OR), N(LOGIC_OP, NOR),
    N(LOGIC_OP, EQUIVALENT), N(LOGIC_OP, INVERT), N(LOGIC_OP, OR_REVERSE), N(LOGIC_OP, COPY_INVERTED),
    N(LOGIC_OP, OR_INVERTED), N(LOGIC_OP, NAND), N(LOGIC_OP, SET),
};
#undef N

/* ---- Helpers ---- */

static FILE *log_file;

static void fail(int code, const char *fmt, ...) __attribute__((noreturn, format(printf, 2, 3)));
static void logf_hk(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

static void fail(int code, const char *fmt, ...)
{
    va_list ap;
    fflush(stdout);
    for (int i = 0; i < 2; i++) {
        FILE *f = i == 0 ? stderr : log_file;
        if (!f)
            continue;
        fputs("[hk] error: ", f);
        va_start(ap, fmt);
        vfprintf(f, fmt, ap);
        va_end(ap);
        fputc('\n', f);
        fflush(f);
    }
    exit(code);
}

/* A line of the log (hk_capture.log), "[hk] " first. */
static void logf_hk(const char *fmt, ...)
{
    va_list ap;
    fputs("[hk] ", log_file);
    va_start(ap, fmt);
    vfprintf(log_file, fmt, ap);
    va_end(ap);
    fputc('\n', log_file);
    fflush(log_file);
}

/* A marker line in stdout, between the driver's own lines. */
static void marker(const char *event, const char *name)
{
    fflush(stdout);
    printf("@@HKCAP %s %s\n", event, name);
    fflush(stdout);
}

#include "capture_common.h"

static const char *format_name(VkFormat f)
{
    for (size_t i = 0; i < ARRAY_LEN(format_names); i++)
        if (format_names[i].value == f)
            return format_names[i].name;
    fail(1, "format %d is missing from format_names[]", (int)f);
}

static const char *factor_name(VkBlendFactor f)
{
    for (size_t i = 0; i < ARRAY_LEN(factor_names); i++)
        if (factor_names[i].value == f)
            return factor_names[i].name;
    fail(1, "blend factor %d is missing from factor_names[]", (int)f);
}

static const char *op_name(VkBlendOp op)
{
    for (size_t i = 0; i < ARRAY_LEN(op_names); i++)
        if (op_names[i].value == op)
            return op_names[i].name;
    fail(1, "blend op %d is missing from op_names[]", (int)op);
}

static const char *logic_op_name(VkLogicOp op)
{
    for (size_t i = 0; i < ARRAY_LEN(logic_op_names); i++)
        if (logic_op_names[i].value == op)
            return logic_op_names[i].name;
    fail(1, "logic op %d is missing from logic_op_names[]", (int)op);
}

static const struct pipe_def *find_pipeline(const char *name, size_t *index)
{
    for (size_t i = 0; i < NUM_PIPELINES; i++)
        if (strcmp(pipelines[i].name, name) == 0) {
            if (index)
                *index = i;
            return &pipelines[i];
        }
    fail(1, "unknown pipeline %s", name);
}

static const struct draw_def *find_draw(const char *name)
{
    for (size_t i = 0; i < NUM_DRAWS; i++)
        if (strcmp(draws[i].name, name) == 0)
            return &draws[i];
    fail(1, "unknown draw %s", name);
}

static const struct vs_def *find_vs(const char *file)
{
    for (size_t i = 0; i < ARRAY_LEN(vertex_shaders); i++)
        if (strcmp(vertex_shaders[i].file, file) == 0)
            return &vertex_shaders[i];
    fail(1, "unknown vertex shader %s", file);
}

static const struct fs_def *find_fs(const char *file)
{
    for (size_t i = 0; i < ARRAY_LEN(fragment_shaders); i++)
        if (strcmp(fragment_shaders[i].file, file) == 0)
            return &fragment_shaders[i];
    fail(1, "unknown fragment shader %s", file);
}

/* The draw whose vertex state (bindings and attributes) a draw uses. */
static const struct draw_def *vertex_state_of(const struct draw_def *d)
{
    return d->like ? find_draw(d->like) : d;
}

static uint32_t rt_count(const struct pipe_def *p)
{
    uint32_t n = 0;
    while (n < MAX_RTS && p->formats[n] != VK_FORMAT_UNDEFINED)
        n++;
    return n;
}

static uint32_t attr_count(const struct draw_def *d)
{
    uint32_t n = 0;
    while (n < MAX_ATTRIBS && d->attrs[n].format != VK_FORMAT_UNDEFINED)
        n++;
    return n;
}

static uint32_t binding_count(const struct draw_def *d)
{
    uint32_t n = 0;
    while (n < MAX_BINDINGS && d->bindings[n].used)
        n++;
    return n;
}

static VkColorComponentFlags mask_bits(const char *mask)
{
    VkColorComponentFlags bits = 0;
    for (const char *c = mask ? mask : "rgba"; *c; c++) {
        switch (*c) {
        case 'r': bits |= VK_COLOR_COMPONENT_R_BIT; break;
        case 'g': bits |= VK_COLOR_COMPONENT_G_BIT; break;
        case 'b': bits |= VK_COLOR_COMPONENT_B_BIT; break;
        case 'a': bits |= VK_COLOR_COMPONENT_A_BIT; break;
        default: fail(1, "bad write mask %s", mask);
        }
    }
    return bits;
}

/* The mask as the draw's JSON writes it: a disabled colour write masks everything. */
static const char *effective_mask(const struct rt_def *rt)
{
    if (rt->write_disabled)
        return "";
    return rt->mask ? rt->mask : "rgba";
}

static VkPipelineColorBlendAttachmentState blend_state(const struct rt_def *rt)
{
    return (VkPipelineColorBlendAttachmentState){
        .blendEnable = rt->blend,
        .srcColorBlendFactor = rt->src_color,
        .dstColorBlendFactor = rt->dst_color,
        .colorBlendOp = rt->color_op,
        .srcAlphaBlendFactor = rt->src_alpha,
        .dstAlphaBlendFactor = rt->dst_alpha,
        .alphaBlendOp = rt->alpha_op,
        .colorWriteMask = mask_bits(rt->mask),
    };
}

static void load_file(const char *path, void **data, size_t *size)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        fail(1, "cannot read %s: %s", path, strerror(errno));
    if (fseek(f, 0, SEEK_END) != 0)
        fail(1, "cannot read %s", path);
    long n = ftell(f);
    if (n <= 0 || n % 4 != 0)
        fail(1, "%s: not a SPIR-V file (size %ld)", path, n);
    rewind(f);
    *data = xcalloc((size_t)n, 1);
    if (fread(*data, 1, (size_t)n, f) != (size_t)n)
        fail(1, "cannot read %s", path);
    fclose(f);
    *size = (size_t)n;
}

/* ---- Device ---- */

static VkInstance instance;
static VkPhysicalDevice phys;
static VkDevice device;
static VkQueue queue;
static uint32_t queue_family;
static VkPhysicalDeviceMemoryProperties mem_props;
static const char *spv_dir, *out_dir;
static char divisor_ext[VK_MAX_EXTENSION_NAME_SIZE];

static PFN_vkCmdSetVertexInputEXT cmd_set_vertex_input;
static PFN_vkCmdSetColorBlendEnableEXT cmd_set_blend_enable;
static PFN_vkCmdSetColorBlendEquationEXT cmd_set_blend_equation;
static PFN_vkCmdSetColorWriteMaskEXT cmd_set_write_mask;
static PFN_vkCmdSetColorWriteEnableEXT cmd_set_write_enable;
static PFN_vkCmdSetLogicOpEnableEXT cmd_set_logic_op_enable;
static PFN_vkCmdSetLogicOpEXT cmd_set_logic_op;
static PFN_vkCmdSetAlphaToCoverageEnableEXT cmd_set_a2c;
static PFN_vkCmdSetAlphaToOneEnableEXT cmd_set_a2one;
static PFN_vkCmdSetSampleMaskEXT cmd_set_sample_mask;

static const char *const required_extensions[] = {
    VK_EXT_VERTEX_INPUT_DYNAMIC_STATE_EXTENSION_NAME, VK_EXT_EXTENDED_DYNAMIC_STATE_2_EXTENSION_NAME,
    VK_EXT_EXTENDED_DYNAMIC_STATE_3_EXTENSION_NAME, VK_EXT_COLOR_WRITE_ENABLE_EXTENSION_NAME,
    VK_EXT_ROBUSTNESS_2_EXTENSION_NAME,
};

/* The features chain: queried once, then enabled per device. */
struct features {
    VkPhysicalDeviceFeatures2 core;
    VkPhysicalDeviceVulkan11Features v11;
    VkPhysicalDeviceVulkan12Features v12;
    VkPhysicalDeviceVulkan13Features v13;
    VkPhysicalDeviceVertexInputDynamicStateFeaturesEXT vi;
    VkPhysicalDeviceExtendedDynamicState2FeaturesEXT eds2;
    VkPhysicalDeviceExtendedDynamicState3FeaturesEXT eds3;
    VkPhysicalDeviceColorWriteEnableFeaturesEXT cwe;
    VkPhysicalDeviceVertexAttributeDivisorFeaturesKHR div;
    VkPhysicalDeviceRobustness2FeaturesEXT rb2;
};

static void chain_features(struct features *f)
{
    memset(f, 0, sizeof(*f));
    f->core.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2;
    f->v11.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_FEATURES;
    f->v12.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES;
    f->v13.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES;
    f->vi.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VERTEX_INPUT_DYNAMIC_STATE_FEATURES_EXT;
    f->eds2.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_EXTENDED_DYNAMIC_STATE_2_FEATURES_EXT;
    f->eds3.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_EXTENDED_DYNAMIC_STATE_3_FEATURES_EXT;
    f->cwe.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_COLOR_WRITE_ENABLE_FEATURES_EXT;
    f->div.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VERTEX_ATTRIBUTE_DIVISOR_FEATURES_KHR;
    f->rb2.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_ROBUSTNESS_2_FEATURES_EXT;
    f->core.pNext = &f->v11;
    f->v11.pNext = &f->v12;
    f->v12.pNext = &f->v13;
    f->v13.pNext = &f->vi;
    f->vi.pNext = &f->eds2;
    f->eds2.pNext = &f->eds3;
    f->eds3.pNext = &f->cwe;
    f->cwe.pNext = &f->div;
    f->div.pNext = &f->rb2;
}

static struct features supported;

/* Features the capture needs, as (name, supported, enable-slot) rows. */
#define FEATURES(X)                                                                           \
    X(dualSrcBlend, core.features.dualSrcBlend)                                               \
    X(logicOp, core.features.logicOp)                                                         \
    X(independentBlend, core.features.independentBlend)                                       \
    X(sampleRateShading, core.features.sampleRateShading)                                     \
    X(alphaToOne, core.features.alphaToOne)                                                   \
    X(shaderInt16, core.features.shaderInt16)                                                 \
    X(shaderFloat16, v12.shaderFloat16)                                                       \
    X(dynamicRendering, v13.dynamicRendering)                                                 \
    X(vertexInputDynamicState, vi.vertexInputDynamicState)                                    \
    X(extendedDynamicState2LogicOp, eds2.extendedDynamicState2LogicOp)                        \
    X(extendedDynamicState3ColorBlendEnable, eds3.extendedDynamicState3ColorBlendEnable)      \
    X(extendedDynamicState3ColorBlendEquation, eds3.extendedDynamicState3ColorBlendEquation)  \
    X(extendedDynamicState3ColorWriteMask, eds3.extendedDynamicState3ColorWriteMask)          \
    X(extendedDynamicState3LogicOpEnable, eds3.extendedDynamicState3LogicOpEnable)            \
    X(extendedDynamicState3AlphaToCoverageEnable, eds3.extendedDynamicState3AlphaToCoverageEnable) \
    X(extendedDynamicState3AlphaToOneEnable, eds3.extendedDynamicState3AlphaToOneEnable)      \
    X(extendedDynamicState3SampleMask, eds3.extendedDynamicState3SampleMask)                  \
    X(colorWriteEnable, cwe.colorWriteEnable)                                                 \
    X(vertexAttributeInstanceRateDivisor, div.vertexAttributeInstanceRateDivisor)             \
    X(vertexAttributeInstanceRateZeroDivisor, div.vertexAttributeInstanceRateZeroDivisor)

static PFN_vkVoidFunction device_proc(const char *name)
{
    PFN_vkVoidFunction f = vkGetDeviceProcAddr(device, name);
    if (!f)
        fail(2, "vkGetDeviceProcAddr(%s) returned NULL", name);
    return f;
}

static const VkFormatFeatureFlags2 vertex_feature = VK_FORMAT_FEATURE_2_VERTEX_BUFFER_BIT;
static const VkFormatFeatureFlags2 attachment_feature = VK_FORMAT_FEATURE_2_COLOR_ATTACHMENT_BIT;
static const VkFormatFeatureFlags2 blend_feature = VK_FORMAT_FEATURE_2_COLOR_ATTACHMENT_BLEND_BIT;

static void format_features(VkFormat format, VkFormatFeatureFlags2 *buffer, VkFormatFeatureFlags2 *optimal)
{
    VkFormatProperties3 p3 = {.sType = VK_STRUCTURE_TYPE_FORMAT_PROPERTIES_3};
    VkFormatProperties2 p2 = {.sType = VK_STRUCTURE_TYPE_FORMAT_PROPERTIES_2, .pNext = &p3};
    vkGetPhysicalDeviceFormatProperties2(phys, format, &p2);
    *buffer = p3.bufferFeatures;
    *optimal = p3.optimalTilingFeatures;
}

static VkSampleCountFlags attachment_samples(VkFormat format)
{
    VkImageFormatProperties props;
    VkResult r = vkGetPhysicalDeviceImageFormatProperties(phys, format, VK_IMAGE_TYPE_2D, VK_IMAGE_TILING_OPTIMAL,
                                                          VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT, 0, &props);
    return r == VK_SUCCESS ? props.sampleCounts : 0;
}

/* device.txt: the device, the extensions and features used, and the formats of the draws.
 * Returns false if something needed is missing. */
static bool describe_device(void)
{
    VkPhysicalDeviceVertexAttributeDivisorPropertiesKHR div_props = {
        .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VERTEX_ATTRIBUTE_DIVISOR_PROPERTIES_KHR,
    };
    VkPhysicalDeviceDriverProperties driver = {
        .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DRIVER_PROPERTIES,
        .pNext = &div_props,
    };
    VkPhysicalDeviceProperties2 props = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2, .pNext = &driver};
    vkGetPhysicalDeviceProperties2(phys, &props);
    logf_hk("device: %s (%s %s)", props.properties.deviceName, driver.driverName, driver.driverInfo);

    uint32_t next = 0;
    check(vkEnumerateDeviceExtensionProperties(phys, NULL, &next, NULL), "vkEnumerateDeviceExtensionProperties");
    VkExtensionProperties *exts = xcalloc(next, sizeof(*exts));
    check(vkEnumerateDeviceExtensionProperties(phys, NULL, &next, exts), "vkEnumerateDeviceExtensionProperties");

    FILE *f = open_out(out_dir, "device.txt");
    const VkPhysicalDeviceLimits *lim = &props.properties.limits;
    uint32_t api = props.properties.apiVersion;
    fprintf(f, "deviceName: %s\ndriver: %s %s\napiVersion: %u.%u.%u\n", props.properties.deviceName,
            driver.driverName, driver.driverInfo, VK_API_VERSION_MAJOR(api), VK_API_VERSION_MINOR(api),
            VK_API_VERSION_PATCH(api));
    bool ok = true;
    for (size_t i = 0; i < ARRAY_LEN(required_extensions); i++) {
        bool has = has_extension(exts, next, required_extensions[i]);
        fprintf(f, "%s: %s\n", required_extensions[i], has ? "yes" : "no");
        if (!has) {
            logf_hk("missing extension %s", required_extensions[i]);
            ok = false;
        }
    }
    bool khr_div = has_extension(exts, next, VK_KHR_VERTEX_ATTRIBUTE_DIVISOR_EXTENSION_NAME);
    bool ext_div = has_extension(exts, next, VK_EXT_VERTEX_ATTRIBUTE_DIVISOR_EXTENSION_NAME);
    fprintf(f, "%s: %s\n%s: %s\n", VK_KHR_VERTEX_ATTRIBUTE_DIVISOR_EXTENSION_NAME, khr_div ? "yes" : "no",
            VK_EXT_VERTEX_ATTRIBUTE_DIVISOR_EXTENSION_NAME, ext_div ? "yes" : "no");
    if (khr_div)
        snprintf(divisor_ext, sizeof(divisor_ext), "%s", VK_KHR_VERTEX_ATTRIBUTE_DIVISOR_EXTENSION_NAME);
    else if (ext_div)
        snprintf(divisor_ext, sizeof(divisor_ext), "%s", VK_EXT_VERTEX_ATTRIBUTE_DIVISOR_EXTENSION_NAME);
    else {
        logf_hk("missing extension %s", VK_KHR_VERTEX_ATTRIBUTE_DIVISOR_EXTENSION_NAME);
        ok = false;
    }
    free(exts);

    chain_features(&supported);
    vkGetPhysicalDeviceFeatures2(phys, &supported.core);
#define PRINT_FEATURE(name, field)                              \
    fprintf(f, "feature %s=%u\n", #name, (unsigned)supported.field); \
    if (!supported.field) {                                     \
        logf_hk("missing feature %s", #name);                   \
        ok = false;                                             \
    }
    FEATURES(PRINT_FEATURE)
#undef PRINT_FEATURE
    /* Not needed, but it decides which draws are valid usage (see inst_f16 in the README). */
    fprintf(f, "feature robustBufferAccess=%u robustBufferAccess2=%u storageInputOutput16=%u\n",
            (unsigned)supported.core.features.robustBufferAccess, (unsigned)supported.rb2.robustBufferAccess2,
            (unsigned)supported.v11.storageInputOutput16);
    fprintf(f,
            "maxVertexInputAttributes=%u maxVertexInputBindings=%u maxVertexInputAttributeOffset=%u "
            "maxVertexInputBindingStride=%u maxVertexAttribDivisor=%u supportsNonZeroFirstInstance=%u "
            "maxFragmentOutputAttachments=%u maxFragmentDualSrcAttachments=%u maxColorAttachments=%u "
            "framebufferColorSampleCounts=0x%x\n",
            lim->maxVertexInputAttributes, lim->maxVertexInputBindings, lim->maxVertexInputAttributeOffset,
            lim->maxVertexInputBindingStride, div_props.maxVertexAttribDivisor,
            (unsigned)div_props.supportsNonZeroFirstInstance, lim->maxFragmentOutputAttachments,
            lim->maxFragmentDualSrcAttachments, lim->maxColorAttachments,
            (unsigned)lim->framebufferColorSampleCounts);

    /* Every vertex format and attachment format of the draws, once. */
    for (size_t i = 0; i < ARRAY_LEN(format_names); i++) {
        VkFormat fmt = format_names[i].value;
        bool as_vertex = false, as_rt = false, blended = false;
        VkSampleCountFlags samples = VK_SAMPLE_COUNT_1_BIT;
        for (size_t d = 0; d < NUM_DRAWS; d++) {
            const struct draw_def *vd = vertex_state_of(&draws[d]);
            for (uint32_t a = 0; a < attr_count(vd); a++)
                as_vertex |= vd->attrs[a].format == fmt;
            const struct pipe_def *p = find_pipeline(draws[d].pipeline, NULL);
            for (uint32_t r = 0; r < rt_count(p); r++) {
                if (p->formats[r] != fmt)
                    continue;
                as_rt = true;
                blended |= draws[d].rts[r].blend;
                samples |= p->samples;
            }
        }
        VkFormatFeatureFlags2 buffer, optimal;
        format_features(fmt, &buffer, &optimal);
        if (as_vertex) {
            bool has = (buffer & vertex_feature) != 0;
            fprintf(f, "%s vertex-buffer=%d\n", format_names[i].name, has);
            if (!has) {
                logf_hk("%s: no VK_FORMAT_FEATURE_2_VERTEX_BUFFER_BIT", format_names[i].name);
                ok = false;
            }
        }
        if (as_rt) {
            bool att = (optimal & attachment_feature) != 0, bl = (optimal & blend_feature) != 0;
            VkSampleCountFlags counts = attachment_samples(fmt);
            fprintf(f, "%s colour-attachment=%d blend=%d sampleCounts=0x%x\n", format_names[i].name, att, bl,
                    (unsigned)counts);
            if (!att || (blended && !bl) || (counts & samples) != samples) {
                logf_hk("%s: not usable as the draws use it (attachment %d, blend %d, samples 0x%x of 0x%x)",
                        format_names[i].name, att, bl, (unsigned)counts, (unsigned)samples);
                ok = false;
            }
        }
    }
    close_out(f);
    return ok;
}

static void create_device(unsigned config)
{
    struct features enable;
    chain_features(&enable);
#define ENABLE_FEATURE(name, field) enable.field = VK_TRUE;
    FEATURES(ENABLE_FEATURE)
#undef ENABLE_FEATURE
    enable.core.features.robustBufferAccess = robustness_configs[config].rba;
    enable.rb2.robustBufferAccess2 = robustness_configs[config].rba2;

    const char *exts[ARRAY_LEN(required_extensions) + 1];
    uint32_t next = 0;
    for (size_t i = 0; i < ARRAY_LEN(required_extensions); i++)
        exts[next++] = required_extensions[i];
    exts[next++] = divisor_ext;

    uint32_t nq = 0;
    vkGetPhysicalDeviceQueueFamilyProperties(phys, &nq, NULL);
    VkQueueFamilyProperties *qf = xcalloc(nq, sizeof(*qf));
    vkGetPhysicalDeviceQueueFamilyProperties(phys, &nq, qf);
    queue_family = UINT32_MAX;
    for (uint32_t i = 0; i < nq && queue_family == UINT32_MAX; i++)
        if (qf[i].queueFlags & VK_QUEUE_GRAPHICS_BIT)
            queue_family = i;
    free(qf);
    if (queue_family == UINT32_MAX)
        fail(4, "no graphics queue");

    float priority = 1.0f;
    VkDeviceQueueCreateInfo qinfo = {
        .sType = VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO,
        .queueFamilyIndex = queue_family,
        .queueCount = 1,
        .pQueuePriorities = &priority,
    };
    VkDeviceCreateInfo info = {
        .sType = VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO,
        .pNext = &enable.core,
        .queueCreateInfoCount = 1,
        .pQueueCreateInfos = &qinfo,
        .enabledExtensionCount = next,
        .ppEnabledExtensionNames = exts,
    };
    check(vkCreateDevice(phys, &info, NULL, &device), "vkCreateDevice");
    vkGetDeviceQueue(device, queue_family, 0, &queue);

    cmd_set_vertex_input = (PFN_vkCmdSetVertexInputEXT)device_proc("vkCmdSetVertexInputEXT");
    cmd_set_blend_enable = (PFN_vkCmdSetColorBlendEnableEXT)device_proc("vkCmdSetColorBlendEnableEXT");
    cmd_set_blend_equation = (PFN_vkCmdSetColorBlendEquationEXT)device_proc("vkCmdSetColorBlendEquationEXT");
    cmd_set_write_mask = (PFN_vkCmdSetColorWriteMaskEXT)device_proc("vkCmdSetColorWriteMaskEXT");
    cmd_set_write_enable = (PFN_vkCmdSetColorWriteEnableEXT)device_proc("vkCmdSetColorWriteEnableEXT");
    cmd_set_logic_op_enable = (PFN_vkCmdSetLogicOpEnableEXT)device_proc("vkCmdSetLogicOpEnableEXT");
    cmd_set_logic_op = (PFN_vkCmdSetLogicOpEXT)device_proc("vkCmdSetLogicOpEXT");
    cmd_set_a2c = (PFN_vkCmdSetAlphaToCoverageEnableEXT)device_proc("vkCmdSetAlphaToCoverageEnableEXT");
    cmd_set_a2one = (PFN_vkCmdSetAlphaToOneEnableEXT)device_proc("vkCmdSetAlphaToOneEnableEXT");
    cmd_set_sample_mask = (PFN_vkCmdSetSampleMaskEXT)device_proc("vkCmdSetSampleMaskEXT");
}

static uint32_t memory_type(uint32_t type_bits, VkMemoryPropertyFlags want)
{
    for (uint32_t i = 0; i < mem_props.memoryTypeCount; i++)
        if ((type_bits & (1u << i)) && (mem_props.memoryTypes[i].propertyFlags & want) == want)
            return i;
    fail(2, "no memory type with flags 0x%x among 0x%x", (unsigned)want, type_bits);
}

static VkDeviceMemory allocate(VkMemoryRequirements req, VkMemoryPropertyFlags want)
{
    VkMemoryAllocateInfo info = {
        .sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO,
        .allocationSize = req.size,
        .memoryTypeIndex = memory_type(req.memoryTypeBits, want),
    };
    VkDeviceMemory mem;
    check(vkAllocateMemory(device, &info, NULL, &mem), "vkAllocateMemory");
    return mem;
}

/* ---- Per-device objects ---- */

struct attachment {
    VkImage image;
    VkImageView view;
    VkDeviceMemory memory;
};

static VkPipelineLayout layout;
static VkCommandPool pool;
static VkBuffer vertex_buffers[MAX_BINDINGS];
static VkDeviceMemory vertex_memory[MAX_BINDINGS];
static VkPipeline built[NUM_PIPELINES];
static struct attachment attachments[NUM_PIPELINES][MAX_RTS];

static void create_device_objects(void)
{
    VkPushConstantRange push = {.stageFlags = VK_SHADER_STAGE_VERTEX_BIT, .offset = 0, .size = 16};
    VkPipelineLayoutCreateInfo layout_info = {
        .sType = VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO,
        .pushConstantRangeCount = 1,
        .pPushConstantRanges = &push,
    };
    check(vkCreatePipelineLayout(device, &layout_info, NULL, &layout), "vkCreatePipelineLayout");

    VkCommandPoolCreateInfo pool_info = {
        .sType = VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO,
        .queueFamilyIndex = queue_family,
    };
    check(vkCreateCommandPool(device, &pool_info, NULL, &pool), "vkCreateCommandPool");

    /* One vertex buffer per binding slot, filled with a byte pattern. */
    for (uint32_t b = 0; b < MAX_BINDINGS; b++) {
        VkBufferCreateInfo info = {
            .sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO,
            .size = VB_SIZE,
            .usage = VK_BUFFER_USAGE_VERTEX_BUFFER_BIT,
        };
        check(vkCreateBuffer(device, &info, NULL, &vertex_buffers[b]), "vkCreateBuffer");
        VkMemoryRequirements req;
        vkGetBufferMemoryRequirements(device, vertex_buffers[b], &req);
        vertex_memory[b] =
            allocate(req, VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT);
        check(vkBindBufferMemory(device, vertex_buffers[b], vertex_memory[b], 0), "vkBindBufferMemory");
        uint8_t *map;
        check(vkMapMemory(device, vertex_memory[b], 0, VK_WHOLE_SIZE, 0, (void **)&map), "vkMapMemory");
        for (uint32_t i = 0; i < VB_SIZE; i++)
            map[i] = (uint8_t)(i * 7 + b * 13);
        vkUnmapMemory(device, vertex_memory[b]);
    }
}

static void create_attachments(size_t p)
{
    const struct pipe_def *def = &pipelines[p];
    for (uint32_t r = 0; r < rt_count(def); r++) {
        struct attachment *att = &attachments[p][r];
        VkImageCreateInfo info = {
            .sType = VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO,
            .imageType = VK_IMAGE_TYPE_2D,
            .format = def->formats[r],
            .extent = {FB_SIZE, FB_SIZE, 1},
            .mipLevels = 1,
            .arrayLayers = 1,
            .samples = def->samples,
            .tiling = VK_IMAGE_TILING_OPTIMAL,
            .usage = VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT,
            .initialLayout = VK_IMAGE_LAYOUT_UNDEFINED,
        };
        check(vkCreateImage(device, &info, NULL, &att->image), "vkCreateImage");
        VkMemoryRequirements req;
        vkGetImageMemoryRequirements(device, att->image, &req);
        att->memory = allocate(req, VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT);
        check(vkBindImageMemory(device, att->image, att->memory, 0), "vkBindImageMemory");
        VkImageViewCreateInfo view_info = {
            .sType = VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO,
            .image = att->image,
            .viewType = VK_IMAGE_VIEW_TYPE_2D,
            .format = def->formats[r],
            .subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1},
        };
        check(vkCreateImageView(device, &view_info, NULL, &att->view), "vkCreateImageView");
    }
}

static VkShaderModule load_module(const char *file)
{
    char path[4096];
    snprintf(path, sizeof(path), "%s/%s.spv", spv_dir, file);
    void *code;
    size_t size;
    load_file(path, &code, &size);
    VkShaderModuleCreateInfo info = {
        .sType = VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO,
        .codeSize = size,
        .pCode = code,
    };
    VkShaderModule module;
    check(vkCreateShaderModule(device, &info, NULL, &module), "vkCreateShaderModule");
    free(code);
    return module;
}

static const VkDynamicState always_dynamic[] = {VK_DYNAMIC_STATE_VIEWPORT, VK_DYNAMIC_STATE_SCISSOR};
static const VkDynamicState fragment_dynamic[] = {
    VK_DYNAMIC_STATE_VERTEX_INPUT_EXT,          VK_DYNAMIC_STATE_BLEND_CONSTANTS,
    VK_DYNAMIC_STATE_COLOR_BLEND_ENABLE_EXT,    VK_DYNAMIC_STATE_COLOR_BLEND_EQUATION_EXT,
    VK_DYNAMIC_STATE_COLOR_WRITE_MASK_EXT,      VK_DYNAMIC_STATE_COLOR_WRITE_ENABLE_EXT,
    VK_DYNAMIC_STATE_LOGIC_OP_ENABLE_EXT,       VK_DYNAMIC_STATE_LOGIC_OP_EXT,
    VK_DYNAMIC_STATE_ALPHA_TO_COVERAGE_ENABLE_EXT, VK_DYNAMIC_STATE_ALPHA_TO_ONE_ENABLE_EXT,
    VK_DYNAMIC_STATE_SAMPLE_MASK_EXT,
};

static void fill_vertex_input(const struct draw_def *vd, VkVertexInputBindingDescription2EXT *b,
                              VkVertexInputAttributeDescription2EXT *a)
{
    for (uint32_t i = 0; i < binding_count(vd); i++)
        b[i] = (VkVertexInputBindingDescription2EXT){
            .sType = VK_STRUCTURE_TYPE_VERTEX_INPUT_BINDING_DESCRIPTION_2_EXT,
            .binding = vd->bindings[i].binding,
            .stride = vd->bindings[i].stride,
            .inputRate = vd->bindings[i].instance ? VK_VERTEX_INPUT_RATE_INSTANCE : VK_VERTEX_INPUT_RATE_VERTEX,
            .divisor = vd->bindings[i].instance ? vd->bindings[i].divisor : 1,
        };
    for (uint32_t i = 0; i < attr_count(vd); i++)
        a[i] = (VkVertexInputAttributeDescription2EXT){
            .sType = VK_STRUCTURE_TYPE_VERTEX_INPUT_ATTRIBUTE_DESCRIPTION_2_EXT,
            .location = vd->attrs[i].location,
            .binding = vd->attrs[i].binding,
            .format = vd->attrs[i].format,
            .offset = vd->attrs[i].offset,
        };
}

static void build_pipeline(size_t index)
{
    const struct pipe_def *def = &pipelines[index];
    if (built[index])
        return;
    marker("pipeline-begin", def->name);
    create_attachments(index);

    const struct draw_def *sd = def->static_from ? find_draw(def->static_from) : NULL;
    uint32_t nrt = rt_count(def);
    VkPipelineShaderStageCreateInfo stages[2] = {
        {.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO,
         .stage = VK_SHADER_STAGE_VERTEX_BIT,
         .module = load_module(def->vs),
         .pName = "main"},
        {.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO,
         .stage = VK_SHADER_STAGE_FRAGMENT_BIT,
         .module = load_module(def->fs),
         .pName = "main"},
    };

    /* Static vertex input (only for static_from pipelines). */
    VkVertexInputBindingDescription vbind[MAX_BINDINGS];
    VkVertexInputAttributeDescription vattr[MAX_ATTRIBS];
    VkVertexInputBindingDivisorDescriptionKHR vdiv[MAX_BINDINGS];
    uint32_t nbind = 0, nattr = 0, ndiv = 0;
    if (sd) {
        const struct draw_def *vd = vertex_state_of(sd);
        VkVertexInputBindingDescription2EXT b2[MAX_BINDINGS];
        VkVertexInputAttributeDescription2EXT a2[MAX_ATTRIBS];
        fill_vertex_input(vd, b2, a2);
        nbind = binding_count(vd);
        nattr = attr_count(vd);
        for (uint32_t i = 0; i < nbind; i++) {
            vbind[i] = (VkVertexInputBindingDescription){b2[i].binding, b2[i].stride, b2[i].inputRate};
            if (b2[i].divisor != 1)
                vdiv[ndiv++] = (VkVertexInputBindingDivisorDescriptionKHR){b2[i].binding, b2[i].divisor};
        }
        for (uint32_t i = 0; i < nattr; i++)
            vattr[i] = (VkVertexInputAttributeDescription){a2[i].location, a2[i].binding, a2[i].format, a2[i].offset};
    }
    VkPipelineVertexInputDivisorStateCreateInfoKHR div_info = {
        .sType = VK_STRUCTURE_TYPE_PIPELINE_VERTEX_INPUT_DIVISOR_STATE_CREATE_INFO_KHR,
        .vertexBindingDivisorCount = ndiv,
        .pVertexBindingDivisors = vdiv,
    };
    VkPipelineVertexInputStateCreateInfo vi = {
        .sType = VK_STRUCTURE_TYPE_PIPELINE_VERTEX_INPUT_STATE_CREATE_INFO,
        .pNext = ndiv ? &div_info : NULL,
        .vertexBindingDescriptionCount = nbind,
        .pVertexBindingDescriptions = vbind,
        .vertexAttributeDescriptionCount = nattr,
        .pVertexAttributeDescriptions = vattr,
    };
    VkPipelineInputAssemblyStateCreateInfo ia = {
        .sType = VK_STRUCTURE_TYPE_PIPELINE_INPUT_ASSEMBLY_STATE_CREATE_INFO,
        .topology = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST,
    };
    VkPipelineViewportStateCreateInfo vp = {
        .sType = VK_STRUCTURE_TYPE_PIPELINE_VIEWPORT_STATE_CREATE_INFO,
        .viewportCount = 1,
        .scissorCount = 1,
    };
    VkPipelineRasterizationStateCreateInfo rs = {
        .sType = VK_STRUCTURE_TYPE_PIPELINE_RASTERIZATION_STATE_CREATE_INFO,
        .polygonMode = VK_POLYGON_MODE_FILL,
        .cullMode = VK_CULL_MODE_NONE,
        .frontFace = VK_FRONT_FACE_COUNTER_CLOCKWISE,
        .lineWidth = 1.0f,
    };
    VkSampleMask sample_mask = sd && sd->sample_mask ? sd->sample_mask : 0xffffffffu;
    VkPipelineMultisampleStateCreateInfo ms = {
        .sType = VK_STRUCTURE_TYPE_PIPELINE_MULTISAMPLE_STATE_CREATE_INFO,
        .rasterizationSamples = def->samples,
        .sampleShadingEnable = def->min_sample_shading,
        .minSampleShading = def->min_sample_shading ? 1.0f : 0.0f,
        .pSampleMask = sd ? &sample_mask : NULL,
        .alphaToCoverageEnable = sd && sd->alpha_to_coverage,
        .alphaToOneEnable = sd && sd->alpha_to_one,
    };
    VkPipelineColorBlendAttachmentState blends[MAX_RTS];
    VkBool32 write_enables[MAX_RTS];
    for (uint32_t r = 0; r < nrt; r++) {
        const struct rt_def *rt = sd ? &sd->rts[r] : &(struct rt_def)OFF;
        blends[r] = blend_state(rt);
        write_enables[r] = !rt->write_disabled;
    }
    VkPipelineColorWriteCreateInfoEXT cw = {
        .sType = VK_STRUCTURE_TYPE_PIPELINE_COLOR_WRITE_CREATE_INFO_EXT,
        .attachmentCount = nrt,
        .pColorWriteEnables = write_enables,
    };
    VkPipelineColorBlendStateCreateInfo cb = {
        .sType = VK_STRUCTURE_TYPE_PIPELINE_COLOR_BLEND_STATE_CREATE_INFO,
        .pNext = sd ? &cw : NULL,
        .logicOpEnable = sd && sd->logic_op_enable,
        .logicOp = sd ? sd->logic_op : VK_LOGIC_OP_COPY,
        .attachmentCount = nrt,
        .pAttachments = blends,
    };
    if (sd)
        memcpy(cb.blendConstants, sd->blend_constants, sizeof(cb.blendConstants));

    VkDynamicState dyn[ARRAY_LEN(always_dynamic) + ARRAY_LEN(fragment_dynamic)];
    uint32_t ndyn = 0;
    for (size_t i = 0; i < ARRAY_LEN(always_dynamic); i++)
        dyn[ndyn++] = always_dynamic[i];
    if (!sd)
        for (size_t i = 0; i < ARRAY_LEN(fragment_dynamic); i++)
            dyn[ndyn++] = fragment_dynamic[i];
    VkPipelineDynamicStateCreateInfo dyn_info = {
        .sType = VK_STRUCTURE_TYPE_PIPELINE_DYNAMIC_STATE_CREATE_INFO,
        .dynamicStateCount = ndyn,
        .pDynamicStates = dyn,
    };
    VkPipelineRenderingCreateInfo rendering = {
        .sType = VK_STRUCTURE_TYPE_PIPELINE_RENDERING_CREATE_INFO,
        .colorAttachmentCount = nrt,
        .pColorAttachmentFormats = def->formats,
    };
    VkGraphicsPipelineCreateInfo info = {
        .sType = VK_STRUCTURE_TYPE_GRAPHICS_PIPELINE_CREATE_INFO,
        .pNext = &rendering,
        .stageCount = 2,
        .pStages = stages,
        .pVertexInputState = sd ? &vi : NULL,
        .pInputAssemblyState = &ia,
        .pViewportState = &vp,
        .pRasterizationState = &rs,
        .pMultisampleState = &ms,
        .pColorBlendState = &cb,
        .pDynamicState = &dyn_info,
        .layout = layout,
        .basePipelineIndex = -1,
    };
    check(vkCreateGraphicsPipelines(device, VK_NULL_HANDLE, 1, &info, NULL, &built[index]),
          "vkCreateGraphicsPipelines");
    vkDestroyShaderModule(device, stages[0].module, NULL);
    vkDestroyShaderModule(device, stages[1].module, NULL);
    marker("pipeline-end", def->name);
    logf_hk("pipeline %s: %s + %s, %u attachments, rasterizationSamples %u%s, %s state", def->name, def->vs,
            def->fs, nrt, (unsigned)def->samples, def->min_sample_shading ? ", minSampleShading 1.0" : "",
            sd ? "static" : "dynamic");
}

/* ---- Draw state as JSON ---- */

static void write_json(const char *name, const struct draw_def *d, unsigned config)
{
    const struct pipe_def *p = find_pipeline(d->pipeline, NULL);
    const struct draw_def *vd = vertex_state_of(d);
    const struct vs_def *vs = find_vs(p->vs);
    const struct fs_def *fs = find_fs(p->fs);
    char dir[4096], file[4200];
    snprintf(dir, sizeof(dir), "%s/draws", out_dir);
    snprintf(file, sizeof(file), "%s.json", name);
    FILE *f = open_out(dir, file);

    fprintf(f, "{\n  \"vertex\": {\n    \"robustness\": \"%s\",\n", robustness_configs[config].name);
    if (p->static_from)
        fprintf(f, "    \"static_vertex_input\": true,\n");
    fprintf(f, "    \"bindings\": [");
    for (uint32_t i = 0; i < binding_count(vd); i++) {
        const struct binding_def *b = &vd->bindings[i];
        fprintf(f, "%s\n      {\"binding\": %u, \"stride\": %u, \"input_rate\": \"%s\", \"divisor\": %u}",
                i ? "," : "", b->binding, b->stride, b->instance ? "instance" : "vertex",
                b->instance ? b->divisor : 1);
    }
    fprintf(f, "\n    ],\n    \"attributes\": [");
    for (uint32_t i = 0; i < attr_count(vd); i++) {
        const struct attr_def *a = &vd->attrs[i];
        fprintf(f, "%s\n      {\"location\": %u, \"binding\": %u, \"format\": \"%s\", \"offset\": %u}",
                i ? "," : "", a->location, a->binding, format_name(a->format), a->offset);
    }
    fprintf(f, "\n    ],\n    \"shader_inputs\": [");
    for (uint32_t i = 0; i < MAX_INPUTS && vs->inputs[i].components; i++)
        fprintf(f, "%s\n      {\"location\": %u, \"components\": \"%s\"}", i ? "," : "", vs->inputs[i].location,
                vs->inputs[i].components);
    fprintf(f, "\n    ]\n  },\n");

    fprintf(f,
            "  \"fragment\": {\n    \"samples\": %u,\n    \"sample_shading\": %s,\n"
            "    \"alpha_to_coverage\": %s,\n    \"alpha_to_one\": %s,\n",
            (unsigned)p->samples, p->min_sample_shading || fs->uses_sample_id ? "true" : "false",
            d->alpha_to_coverage ? "true" : "false", d->alpha_to_one ? "true" : "false");
    if (d->sample_mask)
        fprintf(f, "    \"sample_mask\": %u,\n", d->sample_mask);
    if (d->logic_op_enable)
        fprintf(f, "    \"logic_op\": \"%s\",\n", logic_op_name(d->logic_op));
    else
        fprintf(f, "    \"logic_op\": null,\n");
    fprintf(f, "    \"blend_constants\": [");
    for (int i = 0; i < 4; i++) {
        char num[32];
        snprintf(num, sizeof(num), "%.9g", (double)d->blend_constants[i]);
        fprintf(f, "%s%s%s", i ? ", " : "", num, strpbrk(num, ".e") ? "" : ".0");
    }
    fprintf(f, "],\n    \"attachments\": [");
    for (uint32_t r = 0; r < rt_count(p); r++) {
        const struct rt_def *rt = &d->rts[r];
        fprintf(f,
                "%s\n      {\"location\": %u, \"format\": \"%s\", \"blend_enable\": %s,\n"
                "       \"src_color\": \"%s\", \"dst_color\": \"%s\", \"color_op\": \"%s\",\n"
                "       \"src_alpha\": \"%s\", \"dst_alpha\": \"%s\", \"alpha_op\": \"%s\", "
                "\"write_mask\": \"%s\"}",
                r ? "," : "", r, format_name(p->formats[r]), rt->blend ? "true" : "false",
                factor_name(rt->src_color), factor_name(rt->dst_color), op_name(rt->color_op),
                factor_name(rt->src_alpha), factor_name(rt->dst_alpha), op_name(rt->alpha_op), effective_mask(rt));
    }
    fprintf(f, "\n    ],\n    \"shader_outputs\": [");
    for (uint32_t i = 0; i < MAX_OUTPUTS && fs->outputs[i].type; i++) {
        const struct fs_output *o = &fs->outputs[i];
        fprintf(f, "%s\n      {\"location\": %u, ", i ? "," : "", o->location);
        if (o->index)
            fprintf(f, "\"index\": %u, ", o->index);
        fprintf(f, "\"type\": \"%s\", \"bits\": %u", o->type, o->bits);
        if (p->fs_w_one && o->location == 0 && !o->index)
            fprintf(f, ", \"w_is_one\": true");
        fprintf(f, "}");
    }
    fprintf(f, "\n    ]\n  }\n}\n");
    close_out(f);
}

/* ---- Recording a draw ---- */

static void set_dynamic_state(VkCommandBuffer cmd, const struct draw_def *d, const struct pipe_def *p)
{
    const struct draw_def *vd = vertex_state_of(d);
    VkVertexInputBindingDescription2EXT b2[MAX_BINDINGS];
    VkVertexInputAttributeDescription2EXT a2[MAX_ATTRIBS];
    fill_vertex_input(vd, b2, a2);
    cmd_set_vertex_input(cmd, binding_count(vd), b2, attr_count(vd), a2);

    uint32_t nrt = rt_count(p);
    VkBool32 enables[MAX_RTS], writes[MAX_RTS];
    VkColorBlendEquationEXT eq[MAX_RTS];
    VkColorComponentFlags masks[MAX_RTS];
    for (uint32_t r = 0; r < nrt; r++) {
        const struct rt_def *rt = &d->rts[r];
        enables[r] = rt->blend;
        writes[r] = !rt->write_disabled;
        eq[r] = (VkColorBlendEquationEXT){rt->src_color, rt->dst_color, rt->color_op,
                                          rt->src_alpha, rt->dst_alpha, rt->alpha_op};
        masks[r] = mask_bits(rt->mask);
    }
    cmd_set_blend_enable(cmd, 0, nrt, enables);
    cmd_set_blend_equation(cmd, 0, nrt, eq);
    cmd_set_write_mask(cmd, 0, nrt, masks);
    cmd_set_write_enable(cmd, nrt, writes);
    cmd_set_logic_op_enable(cmd, d->logic_op_enable);
    cmd_set_logic_op(cmd, d->logic_op_enable ? d->logic_op : VK_LOGIC_OP_COPY);
    vkCmdSetBlendConstants(cmd, d->blend_constants);
    cmd_set_a2c(cmd, d->alpha_to_coverage);
    cmd_set_a2one(cmd, d->alpha_to_one);
    VkSampleMask mask = d->sample_mask ? d->sample_mask : 0xffffffffu;
    cmd_set_sample_mask(cmd, p->samples, &mask);
}

static bool is_integer_format(VkFormat f)
{
    const char *name = format_name(f);
    size_t n = strlen(name);
    return n > 5 && (strcmp(name + n - 5, "_UINT") == 0 || strcmp(name + n - 5, "_SINT") == 0);
}

static void record_and_submit(size_t index, const struct draw_def *d, unsigned config)
{
    size_t p_index;
    const struct pipe_def *p = find_pipeline(d->pipeline, &p_index);
    build_pipeline(p_index);
    char name[128];
    snprintf(name, sizeof(name), "%02zu_%s", index, d->name);
    write_json(name, d, config);

    marker("draw-begin", name);
    VkCommandBufferAllocateInfo alloc = {
        .sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO,
        .commandPool = pool,
        .level = VK_COMMAND_BUFFER_LEVEL_PRIMARY,
        .commandBufferCount = 1,
    };
    VkCommandBuffer cmd;
    check(vkAllocateCommandBuffers(device, &alloc, &cmd), "vkAllocateCommandBuffers");
    VkCommandBufferBeginInfo begin = {
        .sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO,
        .flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT,
    };
    check(vkBeginCommandBuffer(cmd, &begin), "vkBeginCommandBuffer");

    uint32_t nrt = rt_count(p);
    VkImageMemoryBarrier2 barriers[MAX_RTS];
    VkRenderingAttachmentInfo color[MAX_RTS];
    for (uint32_t r = 0; r < nrt; r++) {
        barriers[r] = (VkImageMemoryBarrier2){
            .sType = VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER_2,
            .srcStageMask = VK_PIPELINE_STAGE_2_COLOR_ATTACHMENT_OUTPUT_BIT,
            .dstStageMask = VK_PIPELINE_STAGE_2_COLOR_ATTACHMENT_OUTPUT_BIT,
            .dstAccessMask = VK_ACCESS_2_COLOR_ATTACHMENT_WRITE_BIT | VK_ACCESS_2_COLOR_ATTACHMENT_READ_BIT,
            .oldLayout = VK_IMAGE_LAYOUT_UNDEFINED,
            .newLayout = VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL,
            .srcQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED,
            .dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED,
            .image = attachments[p_index][r].image,
            .subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1},
        };
        VkClearValue clear;
        if (is_integer_format(p->formats[r]))
            clear.color = (VkClearColorValue){.uint32 = {1, 2, 3, 4}};
        else
            clear.color = (VkClearColorValue){.float32 = {0.125f, 0.25f, 0.5f, 1.0f}};
        color[r] = (VkRenderingAttachmentInfo){
            .sType = VK_STRUCTURE_TYPE_RENDERING_ATTACHMENT_INFO,
            .imageView = attachments[p_index][r].view,
            .imageLayout = VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL,
            .loadOp = VK_ATTACHMENT_LOAD_OP_CLEAR,
            .storeOp = VK_ATTACHMENT_STORE_OP_STORE,
            .clearValue = clear,
        };
    }
    VkDependencyInfo dep = {
        .sType = VK_STRUCTURE_TYPE_DEPENDENCY_INFO,
        .imageMemoryBarrierCount = nrt,
        .pImageMemoryBarriers = barriers,
    };
    vkCmdPipelineBarrier2(cmd, &dep);

    VkRenderingInfo rendering = {
        .sType = VK_STRUCTURE_TYPE_RENDERING_INFO,
        .renderArea = {{0, 0}, {FB_SIZE, FB_SIZE}},
        .layerCount = 1,
        .colorAttachmentCount = nrt,
        .pColorAttachments = color,
    };
    vkCmdBeginRendering(cmd, &rendering);
    vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, built[p_index]);
    VkViewport viewport = {0, 0, FB_SIZE, FB_SIZE, 0.0f, 1.0f};
    VkRect2D scissor = {{0, 0}, {FB_SIZE, FB_SIZE}};
    vkCmdSetViewport(cmd, 0, 1, &viewport);
    vkCmdSetScissor(cmd, 0, 1, &scissor);
    const float push[4] = {0.5f, 0.5f, 0.25f, -0.25f};
    vkCmdPushConstants(cmd, layout, VK_SHADER_STAGE_VERTEX_BIT, 0, sizeof(push), push);
    if (!p->static_from)
        set_dynamic_state(cmd, d, p);

    const struct draw_def *vd = vertex_state_of(d);
    for (uint32_t i = 0; i < binding_count(vd); i++) {
        uint32_t b = vd->bindings[i].binding;
        VkDeviceSize offset = 0;
        vkCmdBindVertexBuffers(cmd, b, 1, &vertex_buffers[b], &offset);
    }
    vkCmdDraw(cmd, d->vertices, d->instances, d->first_vertex, d->first_instance);
    vkCmdEndRendering(cmd);
    check(vkEndCommandBuffer(cmd), "vkEndCommandBuffer");

    VkSubmitInfo submit = {
        .sType = VK_STRUCTURE_TYPE_SUBMIT_INFO,
        .commandBufferCount = 1,
        .pCommandBuffers = &cmd,
    };
    check(vkQueueSubmit(queue, 1, &submit, VK_NULL_HANDLE), "vkQueueSubmit");
    check(vkQueueWaitIdle(queue), "vkQueueWaitIdle");
    vkFreeCommandBuffers(device, pool, 1, &cmd);
    marker("draw-end", name);
    char mask_note[64] = "";
    if (d->sample_mask)
        snprintf(mask_note, sizeof(mask_note), ", sample mask 0x%x", d->sample_mask);
    logf_hk("draw %s: pipeline %s, robustness %s%s, vkCmdDraw(vertexCount %u, instanceCount %u, firstVertex %u, "
            "firstInstance %u)",
            name, d->pipeline, robustness_configs[config].name, mask_note, d->vertices, d->instances,
            d->first_vertex, d->first_instance);
}

static void destroy_device(void)
{
    check(vkDeviceWaitIdle(device), "vkDeviceWaitIdle");
    for (size_t p = 0; p < NUM_PIPELINES; p++) {
        if (!built[p])
            continue;
        vkDestroyPipeline(device, built[p], NULL);
        built[p] = VK_NULL_HANDLE;
        for (uint32_t r = 0; r < rt_count(&pipelines[p]); r++) {
            vkDestroyImageView(device, attachments[p][r].view, NULL);
            vkDestroyImage(device, attachments[p][r].image, NULL);
            vkFreeMemory(device, attachments[p][r].memory, NULL);
        }
    }
    for (uint32_t b = 0; b < MAX_BINDINGS; b++) {
        vkDestroyBuffer(device, vertex_buffers[b], NULL);
        vkFreeMemory(device, vertex_memory[b], NULL);
    }
    vkDestroyCommandPool(device, pool, NULL);
    vkDestroyPipelineLayout(device, layout, NULL);
    vkDestroyDevice(device, NULL);
    device = VK_NULL_HANDLE;
}

/* Checks the tables: every draw's state fits its pipeline and shaders. */
static void check_tables(void)
{
    for (size_t i = 0; i < NUM_DRAWS; i++) {
        const struct draw_def *d = &draws[i];
        const struct pipe_def *p = find_pipeline(d->pipeline, NULL);
        const struct draw_def *vd = vertex_state_of(d);
        const struct vs_def *vs = find_vs(p->vs);
        find_fs(p->fs);
        if (p->static_from) {
            /* The pipeline bakes in the state of static_from: a draw must have the same. */
            const struct draw_def *s = find_draw(p->static_from);
            bool same = vertex_state_of(s) == vd && memcmp(s->rts, d->rts, sizeof(d->rts)) == 0 &&
                        s->alpha_to_coverage == d->alpha_to_coverage && s->alpha_to_one == d->alpha_to_one &&
                        s->logic_op_enable == d->logic_op_enable && s->logic_op == d->logic_op &&
                        memcmp(s->blend_constants, d->blend_constants, sizeof(d->blend_constants)) == 0 &&
                        s->sample_mask == d->sample_mask;
            if (!same)
                fail(1, "draw %s: pipeline %s bakes in the state of draw %s, which differs", d->name, p->name,
                     s->name);
        }
        if (vd->like)
            fail(1, "draw %s: %s takes its state from another draw itself", d->name, vd->name);
        for (uint32_t k = 0; k < MAX_INPUTS && vs->inputs[k].components; k++) {
            bool found = false;
            for (uint32_t a = 0; a < attr_count(vd); a++)
                found |= vd->attrs[a].location == vs->inputs[k].location;
            if (!found)
                fail(1, "draw %s: no attribute for location %u of %s", d->name, vs->inputs[k].location, p->vs);
        }
        for (uint32_t a = 0; a < attr_count(vd); a++) {
            bool found = false;
            for (uint32_t b = 0; b < binding_count(vd); b++)
                found |= vd->bindings[b].binding == vd->attrs[a].binding;
            if (!found)
                fail(1, "draw %s: attribute %u uses binding %u, which it does not define", d->name,
                     vd->attrs[a].location, vd->attrs[a].binding);
        }
        if (d->vertices == 0 || d->instances == 0)
            fail(1, "draw %s draws nothing", d->name);
    }
}

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: %s SPV_DIR OUT_DIR\n", argv[0]);
        return 1;
    }
    spv_dir = argv[1];
    out_dir = argv[2];
    make_dir(out_dir);
    char draws_dir[4096];
    snprintf(draws_dir, sizeof(draws_dir), "%s/draws", out_dir);
    make_dir(draws_dir);
    log_file = open_out(out_dir, "hk_capture.log");
    check_tables();

    VkApplicationInfo app = {
        .sType = VK_STRUCTURE_TYPE_APPLICATION_INFO,
        .pApplicationName = "gpuabi hk_capture",
        .apiVersion = VK_API_VERSION_1_3,
    };
    VkInstanceCreateInfo instance_info = {
        .sType = VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO,
        .pApplicationInfo = &app,
    };
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

    if (!describe_device())
        fail(4, "the device lacks what the capture needs (see device.txt and the log)");
    if (!supported.v11.storageInputOutput16)
        logf_hk("note: storageInputOutput16 is not supported; the draws of pipeline inst_f16 use 16-bit "
                "fragment outputs anyway");

    for (unsigned config = 0; config < ARRAY_LEN(robustness_configs); config++) {
        bool any = false;
        for (size_t i = 0; i < NUM_DRAWS; i++)
            any |= draws[i].device == config;
        if (!any)
            continue;
        if (robustness_configs[config].rba2 && !supported.rb2.robustBufferAccess2)
            fail(4, "robustBufferAccess2 is not supported");
        if (robustness_configs[config].rba && !supported.core.features.robustBufferAccess)
            fail(4, "robustBufferAccess is not supported");
        marker("device-begin", robustness_configs[config].name);
        create_device(config);
        create_device_objects();
        logf_hk("device for robustness %s (robustBufferAccess %d, robustBufferAccess2 %d)",
                robustness_configs[config].name, robustness_configs[config].rba, robustness_configs[config].rba2);
        for (size_t i = 0; i < NUM_DRAWS; i++)
            if (draws[i].device == config)
                record_and_submit(i, &draws[i], config);
        destroy_device();
        marker("device-end", robustness_configs[config].name);
    }
    vkDestroyInstance(instance, NULL);
    logf_hk("done: %zu draws", NUM_DRAWS);
    close_out(log_file);
    return 0;
}
