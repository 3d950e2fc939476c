//! The AMDHSA entry ABI against what llc-19 does: argument layouts and initial register
//! placement. Every expected value below was read from llc-19's output for the LLVM IR
//! kernel quoted beside it (commands in the comments), not computed by gpuabi.

use gpuabi_amdgpu::hsa::{
    initial_state, layout_kernargs, ArgSpec, HiddenArgs, KernelDescriptor, SgprInput, ValueKind,
};
use gpuabi_amdgpu::{Target, WaveSize};
use gpuabi_layout::reg::{Reg, RegRange};

fn spec(name: &str, size: u32, align: u32, kind: ValueKind) -> ArgSpec {
    ArgSpec {
        name: name.into(),
        size,
        align,
        kind,
        value_type: None,
    }
}

/// `ptr addrspace(1) %out, i32 %n, i8 %c, i64 %l, <3 x i32> %v, float %f, i16 %h`.
fn seven_args() -> Vec<ArgSpec> {
    use ValueKind::*;
    vec![
        spec("out", 8, 8, GlobalBuffer),
        spec("n", 4, 4, ByValue),
        spec("c", 1, 1, ByValue),
        spec("l", 8, 8, ByValue),
        spec("v", 16, 16, ByValue),
        spec("f", 4, 4, ByValue),
        spec("h", 2, 2, ByValue),
    ]
}

fn triples(layout: &gpuabi_amdgpu::hsa::KernargLayout) -> Vec<(u32, u32, &'static str)> {
    layout
        .args
        .iter()
        .map(|a| (a.offset, a.size, a.kind.name()))
        .collect()
}

/// `define amdgpu_kernel void @k(ptr addrspace(1) %out, i32 %n, i8 %c, i64 %l,
/// <3 x i32> %v, float %f, i16 %h)` without attributes, which reads work-item and
/// work-group ids; `llc-19 -mtriple=amdgcn-amd-amdhsa -mcpu=tonga k.ll -o -`, `.args` of
/// `.amdgpu_metadata`, and the same with `-mcpu=gfx1030` (which has no private/shared
/// base: aperture registers).
#[test]
fn seven_arguments_with_llvm_default_hidden_area() {
    let explicit = [
        (0, 8, "global_buffer"),
        (8, 4, "by_value"),
        (12, 1, "by_value"),
        (16, 8, "by_value"),
        (32, 16, "by_value"),
        (48, 4, "by_value"),
        (52, 2, "by_value"),
    ];
    let hidden_common = [
        (56, 4, "hidden_block_count_x"),
        (60, 4, "hidden_block_count_y"),
        (64, 4, "hidden_block_count_z"),
        (68, 2, "hidden_group_size_x"),
        (70, 2, "hidden_group_size_y"),
        (72, 2, "hidden_group_size_z"),
        (74, 2, "hidden_remainder_x"),
        (76, 2, "hidden_remainder_y"),
        (78, 2, "hidden_remainder_z"),
        (96, 8, "hidden_global_offset_x"),
        (104, 8, "hidden_global_offset_y"),
        (112, 8, "hidden_global_offset_z"),
        (120, 2, "hidden_grid_dims"),
        (136, 8, "hidden_hostcall_buffer"),
        (144, 8, "hidden_multigrid_sync_arg"),
        (152, 8, "hidden_heap_v1"),
        (160, 8, "hidden_default_queue"),
        (168, 8, "hidden_completion_action"),
    ];
    let apertures = [
        (248, 4, "hidden_private_base"),
        (252, 4, "hidden_shared_base"),
    ];
    let queue = [(256, 8, "hidden_queue_ptr")];

    let gfx8: Vec<_> = explicit
        .iter()
        .chain(&hidden_common)
        .chain(&apertures)
        .chain(&queue)
        .copied()
        .collect();
    let l = layout_kernargs(&seven_args(), Some(HiddenArgs::LLVM_DEFAULT), Target::Gfx8).unwrap();
    assert_eq!(triples(&l), gfx8);
    assert_eq!((l.size, l.align), (312, 16));
    assert_eq!(l.hidden_offset, Some(56));

    let gfx1030: Vec<_> = explicit
        .iter()
        .chain(&hidden_common)
        .chain(&queue)
        .copied()
        .collect();
    for target in [Target::Gfx1030, Target::Gfx1100] {
        let l = layout_kernargs(&seven_args(), Some(HiddenArgs::LLVM_DEFAULT), target).unwrap();
        assert_eq!(triples(&l), gfx1030, "{target}");
        assert_eq!((l.size, l.align), (312, 16));
    }
}

/// The same kernel with attributes "amdgpu-no-dispatch-ptr" "amdgpu-no-dispatch-id"
/// "amdgpu-no-queue-ptr" "amdgpu-no-implicitarg-ptr":
/// `llc-19 -mtriple=amdgcn-amd-amdhsa -mcpu=tonga k2.ll -o -` gives the explicit arguments
/// at the offsets above, `.kernarg_segment_size: 56`, `.kernarg_segment_align: 16` and no
/// hidden arguments.
#[test]
fn no_hidden_area() {
    let l = layout_kernargs(&seven_args(), None, Target::Gfx8).unwrap();
    assert_eq!(l.args.len(), 7);
    assert_eq!(l.args[6].offset, 52);
    assert_eq!((l.size, l.align, l.hidden_offset), (56, 16, None));
}

/// `define amdgpu_kernel void @k(ptr addrspace(1) %out)` without attributes:
/// `llc-19 -mtriple=amdgcn-amd-amdhsa -mcpu=gfx1100 k5.ll -o -` puts hidden_block_count_x at 8,
/// hidden_global_offset_x at 48, hidden_grid_dims at 72, hidden_queue_ptr at 208,
/// `.kernarg_segment_size: 264`, `.kernarg_segment_align: 8`.
#[test]
fn pointer_only() {
    let l = layout_kernargs(
        &[spec("out", 8, 8, ValueKind::GlobalBuffer)],
        Some(HiddenArgs::LLVM_DEFAULT),
        Target::Gfx1100,
    )
    .unwrap();
    let at = |k: ValueKind| l.args.iter().find(|a| a.kind == k).map(|a| a.offset);
    assert_eq!(at(ValueKind::HiddenBlockCountX), Some(8));
    assert_eq!(at(ValueKind::HiddenGlobalOffsetX), Some(48));
    assert_eq!(at(ValueKind::HiddenGridDims), Some(72));
    assert_eq!(at(ValueKind::HiddenQueuePtr), Some(208));
    assert_eq!((l.size, l.align), (264, 8));
}

/// `define amdgpu_kernel void @d(i8 %a, double %b, <2 x i16> %c, ptr addrspace(1) %p)`
/// reading `llvm.amdgcn.implicitarg.ptr`, with attributes "amdgpu-no-hostcall-ptr"
/// "amdgpu-no-multigrid-sync-arg" "amdgpu-no-heap-ptr" "amdgpu-no-default-queue"
/// "amdgpu-no-completion-action" "amdgpu-no-queue-ptr";
/// `llc-19 -mtriple=amdgcn-amd-amdhsa -mcpu=gfx1100 d.ll -o -`.
#[test]
fn dispatch_only_hidden_area() {
    use ValueKind::*;
    let args = [
        spec("a", 1, 1, ByValue),
        spec("b", 8, 8, ByValue),
        spec("c", 4, 4, ByValue),
        spec("p", 8, 8, GlobalBuffer),
    ];
    let l = layout_kernargs(&args, Some(HiddenArgs::DISPATCH_ONLY), Target::Gfx1100).unwrap();
    let expected = vec![
        (0, 1, "by_value"),
        (8, 8, "by_value"),
        (16, 4, "by_value"),
        (24, 8, "global_buffer"),
        (32, 4, "hidden_block_count_x"),
        (36, 4, "hidden_block_count_y"),
        (40, 4, "hidden_block_count_z"),
        (44, 2, "hidden_group_size_x"),
        (46, 2, "hidden_group_size_y"),
        (48, 2, "hidden_group_size_z"),
        (50, 2, "hidden_remainder_x"),
        (52, 2, "hidden_remainder_y"),
        (54, 2, "hidden_remainder_z"),
        (72, 8, "hidden_global_offset_x"),
        (80, 8, "hidden_global_offset_y"),
        (88, 8, "hidden_global_offset_z"),
        (96, 2, "hidden_grid_dims"),
    ];
    assert_eq!(triples(&l), expected);
    assert_eq!((l.size, l.align), (288, 8));
}

#[test]
fn bad_argument_lists_name_the_argument() {
    let e =
        layout_kernargs(&[spec("x", 4, 3, ValueKind::ByValue)], None, Target::Gfx8).unwrap_err();
    assert_eq!(e.name, "x");
    let e = layout_kernargs(
        &[spec("g", 4, 4, ValueKind::HiddenGridDims)],
        None,
        Target::Gfx8,
    )
    .unwrap_err();
    assert_eq!(e.name, "g");
    let e = layout_kernargs(
        &[
            spec("a", u32::MAX - 8, 4, ValueKind::ByValue),
            spec("b", 16, 16, ValueKind::ByValue),
        ],
        None,
        Target::Gfx8,
    )
    .unwrap_err();
    assert_eq!(e.name, "b");
}

fn s(first: u16, count: u16) -> RegRange {
    RegRange::new(gpuabi_layout::reg::RegFile::Sgpr, first, count)
}

/// llc-19's default kernel (dispatch ptr, kernarg ptr and dispatch id enabled, private
/// segment buffer where the target has one, all work-group and work-item ids): its code
/// reads the kernarg pointer from s[6:7] and work-group ids x and z from s10 and s12 on
/// tonga and gfx1030; from s[2:3], s13 and s15 on gfx1100 wave32 (`.amdhsa_user_sgpr_count
/// 13`), where x and y come from v0 bits 0-9 and 10-19 (`v_and_b32 v1, 0x3ff, v0`,
/// `v_bfe_u32 v0, v0, 10, 10`).
#[test]
fn llvm_default_kernel_registers() {
    use SgprInput::*;
    for target in [Target::Gfx8, Target::Gfx1030] {
        let wave = target.default_wave();
        let mut d = KernelDescriptor::new(target, wave);
        d.user_sgpr_private_segment_buffer = true;
        d.user_sgpr_dispatch_ptr = true;
        d.user_sgpr_dispatch_id = true;
        d.system_sgpr_workgroup_id_y = true;
        d.system_sgpr_workgroup_id_z = true;
        d.system_vgpr_workitem_id = 2;
        d.pad_user_sgprs_like_llvm(target, wave);
        let st = initial_state(&d, target, wave).unwrap();
        assert_eq!(
            st.sgprs,
            vec![
                (PrivateSegmentBuffer, s(0, 4)),
                (DispatchPtr, s(4, 2)),
                (KernargSegmentPtr, s(6, 2)),
                (DispatchId, s(8, 2)),
                (WorkgroupIdX, s(10, 1)),
                (WorkgroupIdY, s(11, 1)),
                (WorkgroupIdZ, s(12, 1)),
            ],
            "{target}"
        );
        assert_eq!(st.user_sgpr_count, 10);
        assert_eq!(
            st.work_item_id_vgprs,
            vec![Reg::vgpr(0), Reg::vgpr(1), Reg::vgpr(2)]
        );
        assert!(!st.packed_work_item_ids);
    }
    let (target, wave) = (Target::Gfx1100, WaveSize::W32);
    let mut d = KernelDescriptor::new(target, wave);
    d.user_sgpr_dispatch_ptr = true;
    d.user_sgpr_dispatch_id = true;
    d.system_sgpr_workgroup_id_y = true;
    d.system_sgpr_workgroup_id_z = true;
    d.system_vgpr_workitem_id = 2;
    d.pad_user_sgprs_like_llvm(target, wave);
    assert_eq!(d.user_sgpr_count, Some(13));
    let st = initial_state(&d, target, wave).unwrap();
    assert_eq!(
        st.sgprs,
        vec![
            (DispatchPtr, s(0, 2)),
            (KernargSegmentPtr, s(2, 2)),
            (DispatchId, s(4, 2)),
            (WorkgroupIdX, s(13, 1)),
            (WorkgroupIdY, s(14, 1)),
            (WorkgroupIdZ, s(15, 1)),
        ]
    );
    assert_eq!(st.work_item_id_vgprs, vec![Reg::vgpr(0)]);
    assert!(st.packed_work_item_ids);
}

/// With "amdgpu-no-dispatch-ptr" "amdgpu-no-dispatch-id" "amdgpu-no-queue-ptr"
/// "amdgpu-no-implicitarg-ptr": gfx1100 wave64 (`-mattr=+wavefrontsize64`) has
/// `.amdhsa_user_sgpr_count 2` and reads work-group ids x and z from s2 and s4; wave32
/// keeps the count at 13.
#[test]
fn gfx1100_init_bug_padding_is_wave32_only() {
    let target = Target::Gfx1100;
    for (wave, count) in [(WaveSize::W64, 2), (WaveSize::W32, 13)] {
        let mut d = KernelDescriptor::new(target, wave);
        d.system_sgpr_workgroup_id_y = true;
        d.system_sgpr_workgroup_id_z = true;
        d.system_vgpr_workitem_id = 2;
        d.pad_user_sgprs_like_llvm(target, wave);
        let st = initial_state(&d, target, wave).unwrap();
        assert_eq!(st.user_sgpr_count, count);
        assert_eq!(
            st.sgpr(SgprInput::WorkgroupIdZ),
            Some(s(count as u16 + 2, 1))
        );
    }
}

/// A kernel with a 68-byte private array indexed by work-item id (kernarg pointer and
/// work-group id x only): llc-19 on tonga and gfx1030 enables the private segment buffer
/// s[0:3], the kernarg pointer s[4:5], flat scratch init s[6:7], work-group id x s8 and
/// the wave offset s9 (`s_add_u32 s0, s0, s9`); on gfx1100 (wave32) only the kernarg
/// pointer s[0:1], `.amdhsa_user_sgpr_count 15`, work-group id x in s15 and
/// `.amdhsa_enable_private_segment 1` without an SGPR.
#[test]
fn private_segment_registers() {
    use SgprInput::*;
    for target in [Target::Gfx8, Target::Gfx1030] {
        let wave = target.default_wave();
        let mut d = KernelDescriptor::new(target, wave);
        d.user_sgpr_private_segment_buffer = true;
        d.user_sgpr_flat_scratch_init = true;
        d.system_sgpr_private_segment_wavefront_offset = true;
        d.private_segment_fixed_size = 68;
        d.pad_user_sgprs_like_llvm(target, wave);
        let st = initial_state(&d, target, wave).unwrap();
        assert_eq!(
            st.sgprs,
            vec![
                (PrivateSegmentBuffer, s(0, 4)),
                (KernargSegmentPtr, s(4, 2)),
                (FlatScratchInit, s(6, 2)),
                (WorkgroupIdX, s(8, 1)),
                (PrivateSegmentWavefrontOffset, s(9, 1)),
            ],
            "{target}"
        );
    }
    let (target, wave) = (Target::Gfx1100, WaveSize::W32);
    let mut d = KernelDescriptor::new(target, wave);
    d.system_sgpr_private_segment_wavefront_offset = true;
    d.pad_user_sgprs_like_llvm(target, wave);
    let st = initial_state(&d, target, wave).unwrap();
    assert_eq!(
        st.sgprs,
        vec![(KernargSegmentPtr, s(0, 2)), (WorkgroupIdX, s(15, 1))]
    );
}

#[test]
fn descriptors_a_target_cannot_use_are_refused() {
    let mut d = KernelDescriptor::new(Target::Gfx1100, WaveSize::W32);
    d.user_sgpr_private_segment_buffer = true;
    let e = initial_state(&d, Target::Gfx1100, WaveSize::W32).unwrap_err();
    assert_eq!(e.field, "user_sgpr_private_segment_buffer");

    let d = KernelDescriptor::new(Target::Gfx1030, WaveSize::W32);
    let e = initial_state(&d, Target::Gfx1030, WaveSize::W64).unwrap_err();
    assert_eq!(e.field, "wavefront_size32");

    let mut d = KernelDescriptor::new(Target::Gfx8, WaveSize::W64);
    d.user_sgpr_dispatch_ptr = true;
    d.user_sgpr_count = Some(3);
    assert_eq!(
        initial_state(&d, Target::Gfx8, WaveSize::W64)
            .unwrap_err()
            .field,
        "user_sgpr_count"
    );
    d.user_sgpr_count = None;
    d.system_vgpr_workitem_id = 3;
    assert_eq!(
        initial_state(&d, Target::Gfx8, WaveSize::W64)
            .unwrap_err()
            .field,
        "system_vgpr_workitem_id"
    );
}

#[test]
fn printed_descriptors_read_back() {
    use gpuabi_amdgpu::hsa::{parse_kernel_descriptors, print_kernel_descriptor};
    for (target, wave) in [
        (Target::Gfx8, WaveSize::W64),
        (Target::Gfx1030, WaveSize::W32),
        (Target::Gfx1030, WaveSize::W64),
        (Target::Gfx1100, WaveSize::W32),
        (Target::Gfx1100, WaveSize::W64),
    ] {
        let mut d = KernelDescriptor::new(target, wave);
        d.user_sgpr_dispatch_ptr = true;
        d.user_sgpr_private_segment_size = true;
        d.user_sgpr_flat_scratch_init = target != Target::Gfx1100;
        d.system_sgpr_private_segment_wavefront_offset = true;
        d.system_sgpr_workgroup_info = true;
        d.system_vgpr_workitem_id = 1;
        d.private_segment_fixed_size = 12;
        d.group_segment_fixed_size = 256;
        d.kernarg_size = 300;
        d.next_free_vgpr = 9;
        d.next_free_sgpr = 33;
        d.float_denorm_mode_32 = 2;
        d.ieee_mode = false;
        d.pad_user_sgprs_like_llvm(target, wave);
        let text = print_kernel_descriptor("a", &d, target, wave).unwrap()
            + &print_kernel_descriptor("b", &KernelDescriptor::new(target, wave), target, wave)
                .unwrap();
        let read = parse_kernel_descriptors(&text, target, wave).unwrap();
        let mut b = KernelDescriptor::new(target, wave);
        b.user_sgpr_count = Some(b.effective_user_sgpr_count(target));
        assert_eq!(read, vec![("a".to_string(), d), ("b".to_string(), b)]);
    }
}

/// Without directives, the values llvm-mc-19 writes (read from the object of an empty
/// `.amdhsa_kernel k` block with only next_free_vgpr/sgpr: COMPUTE_PGM_RSRC1 0x00ac0000,
/// COMPUTE_PGM_RSRC2 0x80, kernel code properties 0x400 on gfx1030).
#[test]
fn absent_directives_take_llvm_mc_defaults() {
    use gpuabi_amdgpu::hsa::parse_kernel_descriptors;
    let text = ".amdhsa_kernel k\n.amdhsa_next_free_vgpr 1\n.amdhsa_next_free_sgpr 1\n.end_amdhsa_kernel\n";
    let read = parse_kernel_descriptors(text, Target::Gfx1030, WaveSize::W32).unwrap();
    let d = &read[0].1;
    assert!(d.system_sgpr_workgroup_id_x && d.wavefront_size32 && d.dx10_clamp && d.ieee_mode);
    assert!(!d.user_sgpr_kernarg_segment_ptr && !d.system_sgpr_workgroup_id_y);
    assert_eq!((d.float_denorm_mode_32, d.float_denorm_mode_16_64), (0, 3));
    assert_eq!(d.user_sgpr_count, None);
}

#[test]
fn bad_descriptor_text_names_the_line() {
    use gpuabi_amdgpu::hsa::parse_kernel_descriptors;
    let cases = [
        (".amdhsa_kernel k\n  .amdhsa_bogus 1\n.end_amdhsa_kernel\n", 2),
        (".amdhsa_kernel k\n  .amdhsa_dx10_clamp 2\n.end_amdhsa_kernel\n", 2),
        (".amdhsa_kernel k\n  .amdhsa_kernarg_size x\n.end_amdhsa_kernel\n", 2),
        (".amdhsa_kernel k\n  .amdhsa_kernarg_size\n.end_amdhsa_kernel\n", 2),
        (".amdhsa_kernel k\n\n  .amdhsa_user_sgpr_private_segment_buffer 1\n.end_amdhsa_kernel\n", 3),
        (".amdhsa_kernel k\n  .amdhsa_next_free_vgpr 1\n", 1),
        (".end_amdhsa_kernel\n", 1),
        ("\n.amdhsa_kernel k\n  .amdhsa_system_vgpr_workitem_id 3\n.end_amdhsa_kernel\n", 2),
    ];
    for (text, line) in cases {
        let e = parse_kernel_descriptors(text, Target::Gfx1100, WaveSize::W32).unwrap_err();
        assert_eq!(e.line, line, "{text:?}: {e}");
    }
}

/// A metadata block in the form llc-19 prints (abridged from `llc-19
/// -mtriple=amdgcn-amd-amdhsa -mcpu=gfx1030` output, with a `.reqd_workgroup_size` list
/// added as `reqd_work_group_size` metadata makes llc print it).
const METADATA: &str = "\t.amdgpu_metadata
---
amdhsa.kernels:
  - .args:
      - .address_space:  global
        .name:           out
        .offset:         0
        .size:           8
        .value_kind:     global_buffer
      - .name:           !str n
        .offset:         8
        .size:           4
        .value_kind:     by_value
      - .offset:         16
        .size:           4
        .value_kind:     hidden_block_count_x
    .group_segment_fixed_size: 0
    .kernarg_segment_align: 8
    .kernarg_segment_size: 272
    .name:           k
    .reqd_workgroup_size:
      - 64
      - 1
      - 1
    .symbol:         k.kd
amdhsa.target:   amdgcn-amd-amdhsa--gfx1030
amdhsa.version:
  - 1
  - 2
...

\t.end_amdgpu_metadata
";

#[test]
fn metadata_arguments_are_read() {
    use gpuabi_amdgpu::hsa::parse_kernel_metadata;
    let m = parse_kernel_metadata(METADATA).unwrap();
    assert_eq!(m.len(), 1);
    assert_eq!(m[0].name, "k");
    assert_eq!(
        (m[0].kernarg_segment_size, m[0].kernarg_segment_align),
        (272, 8)
    );
    let args: Vec<_> = m[0]
        .args
        .iter()
        .map(|a| (a.name.as_str(), a.offset, a.size, a.align, a.kind))
        .collect();
    assert_eq!(
        args,
        vec![
            ("out", 0, 8, 8, ValueKind::GlobalBuffer),
            ("n", 8, 4, 4, ValueKind::ByValue),
            (
                "hidden_block_count_x",
                16,
                4,
                4,
                ValueKind::HiddenBlockCountX
            ),
        ]
    );

    let broken = METADATA.replace("        .offset:         8\n", "");
    let e = parse_kernel_metadata(&broken).unwrap_err();
    assert_eq!(e.line, 10, "{e}");
    let broken = METADATA.replace("hidden_block_count_x", "hidden_bogus");
    let e = parse_kernel_metadata(&broken).unwrap_err();
    assert_eq!(e.line, 16, "{e}");
    let broken = METADATA.replace(
        ".size:           4\n        .value_kind:     by_value",
        ".size:           four\n        .value_kind:     by_value",
    );
    let e = parse_kernel_metadata(&broken).unwrap_err();
    assert_eq!(e.line, 12, "{e}");
}

/// Word-level edits of printed descriptors and llc-style metadata never make the readers
/// panic, and every descriptor they accept prints and reads back unchanged.
#[test]
fn mutated_descriptor_text_never_panics() {
    use gpuabi_amdgpu::hsa::{
        parse_kernel_descriptors, parse_kernel_metadata, print_kernel_descriptor, read_kernels,
    };
    use gpuabi_fuzz::{Edit::*, Mutator};
    const MUTATOR: Mutator = Mutator {
        ends_word: |c| matches!(c, ' ' | '\n' | '\t' | ':'),
        max_edits: 4,
        edits: &[Delete, Duplicate, Move, Replace, Insert],
    };
    const WORDS: [&str; 12] = [
        ".amdhsa_kernel ",
        ".end_amdhsa_kernel\n",
        ".amdhsa_user_sgpr_count ",
        "99999999999 ",
        "17 ",
        "- ",
        ".offset: ",
        ".args:\n",
        "!str ",
        "\n    ",
        ".amdgpu_metadata\n",
        "hidden_queue_ptr\n",
    ];
    let configs = [
        (Target::Gfx8, WaveSize::W64),
        (Target::Gfx1030, WaveSize::W64),
        (Target::Gfx1100, WaveSize::W32),
    ];
    arbtest::arbtest(|u| {
        let (target, wave) = *u.choose(&configs)?;
        let mut d = KernelDescriptor::new(target, wave);
        d.system_vgpr_workitem_id = 2;
        d.kernarg_size = 272;
        let example = print_kernel_descriptor("k", &d, target, wave).unwrap() + METADATA;
        let text = MUTATOR.mutate(u, &example, |u, _| Ok((*u.choose(&WORDS)?).to_string()))?;
        let _ = parse_kernel_metadata(&text);
        let _ = read_kernels(&text, target, wave);
        if let Ok(read) = parse_kernel_descriptors(&text, target, wave) {
            for (name, desc) in read {
                let printed = print_kernel_descriptor(&name, &desc, target, wave).unwrap();
                let again = parse_kernel_descriptors(&printed, target, wave).unwrap();
                let mut want = desc.clone();
                want.user_sgpr_count = Some(desc.effective_user_sgpr_count(target));
                assert_eq!(again, vec![(name, want)]);
            }
        }
        Ok(())
    })
    .budget_ms(1000);
}
