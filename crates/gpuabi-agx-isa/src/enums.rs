//! Value sets of modifier fields, with the names Mesa's disassembler prints
//! (`src/asahi/isa/AGX2.xml`); a `None` name is the default, printed as nothing.

use crate::def::EnumDef;

/// Integer comparisons; bit 3 negates.
pub static ICOND: EnumDef = EnumDef {
    name: "integer condition",
    values: &[
        (0, Some("ieq")),
        (1, Some("ult")),
        (2, Some("ugt")),
        (4, Some("seq")),
        (5, Some("slt")),
        (6, Some("sgt")),
        (8, Some("ine")),
        (9, Some("ugte")),
        (10, Some("ulte")),
        (12, Some("nseq")),
        (13, Some("sgte")),
        (14, Some("slte")),
    ],
};

/// Float comparisons; bit 3 negates, the `n` forms are the min/max orderings.
pub static FCOND: EnumDef = EnumDef {
    name: "float condition",
    values: &[
        (0, Some("feq")),
        (1, Some("flt")),
        (2, Some("fgt")),
        (3, Some("fltn")),
        (5, Some("fgte")),
        (6, Some("flte")),
        (7, Some("fgtn")),
        (8, Some("fneq")),
        (9, Some("fnlt")),
        (10, Some("fngt")),
        (11, Some("fnltn")),
        (13, Some("fngte")),
        (14, Some("fnlte")),
        (15, Some("fngtn")),
    ],
};

/// Register cache hints of ALU sources.
pub static HINT: EnumDef = EnumDef {
    name: "register hint",
    values: &[(1, None), (2, Some("$")), (3, Some("^"))],
};

/// Iterator interpolation.
pub static INTERPOLATION: EnumDef = EnumDef {
    name: "interpolation",
    values: &[
        (0, None),
        (1, Some("sample")),
        (2, Some("centroid")),
        (3, Some("sample")),
    ],
};

/// Cache coherency of device memory accesses.
pub static COHERENT: EnumDef = EnumDef {
    name: "coherency",
    values: &[
        (0, None),
        (1, Some("coherent1")),
        (2, Some("coherent2")),
        (3, Some("coherent")),
    ],
};

/// Atomic operations.
pub static ATOMIC: EnumDef = EnumDef {
    name: "atomic operation",
    values: &[
        (0, Some("add")),
        (1, Some("sub")),
        (2, Some("xchg")),
        (3, Some("cmpxchg")),
        (4, Some("umin")),
        (5, Some("imin")),
        (6, Some("umax")),
        (7, Some("imax")),
        (8, Some("and")),
        (9, Some("or")),
        (10, Some("xor")),
    ],
};

/// Special registers read by `mov rD, <name>`.
pub static SR: EnumDef = EnumDef {
    name: "special register",
    values: &[
        (0, Some("threadgroup_in_grid_x")),
        (1, Some("threadgroup_in_grid_y")),
        (2, Some("threadgroup_in_grid_z")),
        (4, Some("threads_per_threadgroup_x")),
        (5, Some("threads_per_threadgroup_y")),
        (6, Some("threads_per_threadgroup_z")),
        (8, Some("dispatch_threads_per_threadgroup_x")),
        (9, Some("dispatch_threads_per_threadgroup_y")),
        (10, Some("dispatch_threads_per_threadgroup_z")),
        (12, Some("threadgroup_width")),
        (13, Some("threadgroup_height")),
        (14, Some("samples_log2")),
        (20, Some("core_index")),
        (21, Some("vm_slot")),
        (48, Some("thread_in_threadgroup_x")),
        (49, Some("thread_in_threadgroup_y")),
        (50, Some("thread_in_threadgroup_z")),
        (51, Some("thread_index_in_threadgroup")),
        (52, Some("thread_index_in_simdgroup")),
        (53, Some("simdgroup_index_in_threadgroup")),
        (56, Some("active_thread_index_in_quadgroup")),
        (57, Some("total_active_threads_in_quadgroup")),
        (58, Some("active_thread_index_in_simdgroup")),
        (59, Some("total_active_threads_in_simdgroup")),
        (60, Some("internal_coverage_mask")),
        (62, Some("backfacing")),
        (63, Some("is_active_thread")),
        (80, Some("thread_in_grid_x")),
        (81, Some("thread_in_grid_y")),
        (82, Some("thread_in_grid_z")),
        (124, Some("input_sample_mask")),
        (144, Some("helper_op")),
        (146, Some("helper_arg_l")),
        (147, Some("helper_arg_h")),
    ],
};

/// Rounding of conversions.
pub static ROUND: EnumDef = EnumDef {
    name: "rounding mode",
    values: &[(0, Some("rtz")), (1, Some("rte"))],
};

/// Wait groups (scoreboard slots) of memory instructions.
pub static GROUP: EnumDef = EnumDef {
    name: "wait group",
    values: &[(0, Some("a")), (1, Some("b"))],
};

/// Left shift of a memory index or an added operand.
pub static SHIFT: EnumDef = EnumDef {
    name: "shift",
    values: &[
        (0, None),
        (1, Some("lsl 1")),
        (2, Some("lsl 2")),
        (3, Some("lsl 3")),
        (4, Some("lsl 4")),
    ],
};

/// Channel masks.
pub static MASK: EnumDef = EnumDef {
    name: "channel mask",
    values: &[
        (0, Some("none")),
        (1, Some("x")),
        (2, Some("y")),
        (3, Some("xy")),
        (4, Some("z")),
        (5, Some("xz")),
        (6, Some("yz")),
        (7, Some("xyz")),
        (8, Some("w")),
        (9, Some("xw")),
        (10, Some("yw")),
        (11, Some("xyw")),
        (12, Some("zw")),
        (13, Some("xzw")),
        (14, Some("yzw")),
        (15, Some("xyzw")),
    ],
};

/// Memory and tile-buffer formats.
pub static FORMAT: EnumDef = EnumDef {
    name: "format",
    values: &[
        (0, Some("i8")),
        (1, Some("i16")),
        (2, Some("i32")),
        (3, Some("f16")),
        (4, Some("u8norm")),
        (5, Some("s8norm")),
        (6, Some("u16norm")),
        (7, Some("s16norm")),
        (8, Some("rgb10a2")),
        (10, Some("srgba8")),
        (12, Some("rg11b10f")),
        (13, Some("rgb9e5")),
        (14, Some("rg11b10f_rtz")),
        (15, Some("rgb9e5_rtz")),
    ],
};

/// Texture dimensions.
pub static DIM: EnumDef = EnumDef {
    name: "texture dimension",
    values: &[
        (0, Some("1d")),
        (1, Some("1d_array")),
        (2, Some("2d")),
        (3, Some("2d_array")),
        (4, Some("2d_ms")),
        (5, Some("3d")),
        (6, Some("cube")),
        (7, Some("cube_array")),
        (8, Some("2d_ms_array")),
    ],
};

/// Texture gathers.
pub static GATHER: EnumDef = EnumDef {
    name: "gather",
    values: &[
        (0, None),
        (1, Some("gather_r")),
        (3, Some("gather_g")),
        (5, Some("gather_b")),
        (7, Some("gather_a")),
    ],
};

/// Level-of-detail descriptor types of texture sampling.
pub static LOD_TYPE: EnumDef = EnumDef {
    name: "lod type",
    values: &[
        (0, Some("auto_lod")),
        (1, Some("auto_lod_bias")),
        (2, Some("lod_min")),
        (4, Some("lod_grad")),
        (5, Some("auto_lod_bias")),
        (6, Some("lod_min")),
        (9, Some("auto_lod_bias_min")),
        (12, Some("lod_grad_min")),
        (13, Some("auto_lod_bias_min")),
    ],
};

/// Scope of subgroup operations and ballots: the quad or the whole SIMD group.
pub static QUAD: EnumDef = EnumDef {
    name: "scope",
    values: &[(0, Some("quad")), (1, None)],
};

/// Shuffle operations.
pub static SHUFFLE_OP: EnumDef = EnumDef {
    name: "shuffle operation",
    values: &[
        (0, None),
        (1, Some("xor")),
        (2, Some("up")),
        (3, Some("down")),
    ],
};

/// Subgroup reductions and scans.
pub static SUBOP: EnumDef = EnumDef {
    name: "subgroup operation",
    values: &[
        (0, Some("and")),
        (1, Some("fadd")),
        (2, Some("or")),
        (3, Some("fmul")),
        (4, Some("xor")),
        (5, Some("fmin")),
        (7, Some("fmax")),
        (16, Some("iadd")),
        (20, Some("smin")),
        (22, Some("smax")),
        (28, Some("umin")),
        (30, Some("umax")),
    ],
};
