//! The printed kernel descriptors against LLVM 19's tools: llvm-mc-19 must assemble them,
//! and the descriptor bits it writes must be the ones AMDGPUUsage documents for the fields
//! (the bit positions are written out here, independently of the printer); the fields that
//! decide the entry ABI must equal what llc-19 prints for an equivalent LLVM IR kernel, and
//! the argument layouts must equal llc-19's `.amdgpu_metadata`.
//!
//! Both tools are skipped with a message when missing, unless `GPUABI_REQUIRE_LLVM_MC=1`.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

use gpuabi_amdgpu::hsa::{
    initial_state, layout_kernargs, parse_kernel_descriptors, print_kernel_descriptor,
    print_preamble, read_kernels, ArgSpec, HiddenArgs, KernelDescriptor, ValueKind,
};
use gpuabi_amdgpu::{Target, WaveSize};

const LLVM_MC: &str = "llvm-mc-19";
const LLC: &str = "llc-19";
const OBJCOPY: &str = "llvm-objcopy-19";

fn available(tool: &str) -> bool {
    let found = Command::new(tool)
        .arg("--version")
        .output()
        .map(|o| o.status.success())
        .unwrap_or(false);
    if !found {
        let msg = format!(
            "{tool} not found: this AMDHSA test is skipped (install Debian's llvm-19 package; \
             set GPUABI_REQUIRE_LLVM_MC=1 to make this a failure)"
        );
        if std::env::var("GPUABI_REQUIRE_LLVM_MC").as_deref() == Ok("1") {
            panic!("{msg}");
        }
        eprintln!("{msg}");
    }
    found
}

fn scratch_dir() -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("hsa_llvm");
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// `triple` is `-triple` for llvm-mc and `-mtriple` for llc.
fn cpu_args(triple: &str, target: Target, wave: WaveSize) -> Vec<String> {
    let mut args = vec![
        format!("{triple}=amdgcn-amd-amdhsa"),
        format!("-mcpu={}", target.llvm_cpu()),
    ];
    if target.is_rdna() {
        args.push(format!("-mattr=+wavefrontsize{}", wave.lanes()));
    }
    args
}

const CONFIGS: [(Target, WaveSize); 5] = [
    (Target::Gfx8, WaveSize::W64),
    (Target::Gfx1030, WaveSize::W32),
    (Target::Gfx1030, WaveSize::W64),
    (Target::Gfx1100, WaveSize::W32),
    (Target::Gfx1100, WaveSize::W64),
];

/// Descriptors that exercise every field the target has.
fn variants(target: Target, wave: WaveSize) -> Vec<KernelDescriptor> {
    let plain = KernelDescriptor::new(target, wave);
    let mut full = plain.clone();
    full.user_sgpr_dispatch_ptr = true;
    full.user_sgpr_queue_ptr = true;
    full.user_sgpr_dispatch_id = true;
    full.user_sgpr_private_segment_size = true;
    full.system_sgpr_private_segment_wavefront_offset = true;
    full.system_sgpr_workgroup_id_y = true;
    full.system_sgpr_workgroup_id_z = true;
    full.system_sgpr_workgroup_info = true;
    full.system_vgpr_workitem_id = 2;
    full.private_segment_fixed_size = 96;
    full.group_segment_fixed_size = 1024;
    full.kernarg_size = 264;
    full.next_free_vgpr = 7;
    full.next_free_sgpr = 20;
    full.float_denorm_mode_32 = 1;
    full.float_denorm_mode_16_64 = 2;
    full.ieee_mode = false;
    full.dx10_clamp = false;
    if target != Target::Gfx1100 {
        full.user_sgpr_private_segment_buffer = true;
        full.user_sgpr_flat_scratch_init = true;
    }
    let mut padded = full.clone();
    padded.user_sgpr_kernarg_segment_ptr = false;
    padded.system_vgpr_workitem_id = 1;
    padded.user_sgpr_count = Some(16);
    vec![plain, full, padded]
}

fn le32(b: &[u8], at: usize) -> u32 {
    u32::from_le_bytes([b[at], b[at + 1], b[at + 2], b[at + 3]])
}

/// The descriptor bits AMDGPUUsage's "Kernel Descriptor" tables give for `d`:
/// (group segment size @0, private segment size @4, kernarg size @8, the FP mode bits of
/// COMPUTE_PGM_RSRC1 @48, COMPUTE_PGM_RSRC2 @52 without its trap/exception bits, the
/// kernel code properties @56).
fn expected_bits(d: &KernelDescriptor, target: Target, user_sgpr_count: u32) -> [u32; 6] {
    let b = |v: bool| u32::from(v);
    let rsrc1 = u32::from(d.float_denorm_mode_32) << 16
        | u32::from(d.float_denorm_mode_16_64) << 18
        | b(d.dx10_clamp) << 21
        | b(d.ieee_mode) << 23;
    let rsrc2 = b(d.system_sgpr_private_segment_wavefront_offset)
        | user_sgpr_count << 1
        | b(d.system_sgpr_workgroup_id_x) << 7
        | b(d.system_sgpr_workgroup_id_y) << 8
        | b(d.system_sgpr_workgroup_id_z) << 9
        | b(d.system_sgpr_workgroup_info) << 10
        | u32::from(d.system_vgpr_workitem_id) << 11;
    let props = b(d.user_sgpr_private_segment_buffer)
        | b(d.user_sgpr_dispatch_ptr) << 1
        | b(d.user_sgpr_queue_ptr) << 2
        | b(d.user_sgpr_kernarg_segment_ptr) << 3
        | b(d.user_sgpr_dispatch_id) << 4
        | b(d.user_sgpr_flat_scratch_init) << 5
        | b(d.user_sgpr_private_segment_size) << 6
        | b(d.wavefront_size32 && target.is_rdna()) << 10;
    [
        d.group_segment_fixed_size,
        d.private_segment_fixed_size,
        d.kernarg_size,
        rsrc1,
        rsrc2,
        props,
    ]
}

#[test]
fn printed_descriptors_assemble_to_the_documented_bits() {
    if !available(LLVM_MC) || !available(OBJCOPY) {
        return;
    }
    let dir = scratch_dir();
    for (target, wave) in CONFIGS {
        for (i, d) in variants(target, wave).iter().enumerate() {
            let name = format!("{}_w{}_{i}", target.name(), wave.lanes());
            let block = print_kernel_descriptor("k", d, target, wave).unwrap();
            let text = format!(
                "{}\t.text\n\t.globl k\n\t.p2align 8\n\t.type k,@function\nk:\n\ts_endpgm\n\
                 \t.rodata\n\t.p2align 6\n{block}",
                print_preamble(target)
            );
            let src = dir.join(format!("{name}.s"));
            let obj = dir.join(format!("{name}.o"));
            let bin = dir.join(format!("{name}.rodata"));
            std::fs::write(&src, &text).unwrap();
            let out = Command::new(LLVM_MC)
                .args(cpu_args("-triple", target, wave))
                .args(["-filetype=obj", "-o"])
                .arg(&obj)
                .arg(&src)
                .output()
                .unwrap();
            assert!(
                out.status.success() && out.stderr.is_empty(),
                "{name}: llvm-mc-19 refused\n{text}\n{}",
                String::from_utf8_lossy(&out.stderr)
            );
            let out = Command::new(OBJCOPY)
                .args(["-O", "binary", "--only-section=.rodata"])
                .arg(&obj)
                .arg(&bin)
                .output()
                .unwrap();
            assert!(out.status.success(), "{name}: llvm-objcopy-19 failed");
            let kd = std::fs::read(&bin).unwrap();
            assert_eq!(kd.len(), 64, "{name}: a kernel descriptor is 64 bytes");
            let count = d.user_sgpr_count.unwrap_or_else(|| {
                // Independent count: 4 for the buffer, 2 per pointer/id/init, 1 for the size.
                [
                    (d.user_sgpr_private_segment_buffer, 4),
                    (d.user_sgpr_dispatch_ptr, 2),
                    (d.user_sgpr_queue_ptr, 2),
                    (d.user_sgpr_kernarg_segment_ptr, 2),
                    (d.user_sgpr_dispatch_id, 2),
                    (d.user_sgpr_flat_scratch_init, 2),
                    (d.user_sgpr_private_segment_size, 1),
                ]
                .iter()
                .filter(|(on, _)| *on)
                .map(|(_, n)| n)
                .sum()
            });
            let [group, private, kernarg, rsrc1, rsrc2, props] = expected_bits(d, target, count);
            assert_eq!(le32(&kd, 0), group, "{name}: group segment size");
            assert_eq!(le32(&kd, 4), private, "{name}: private segment size");
            assert_eq!(le32(&kd, 8), kernarg, "{name}: kernarg size");
            let fp_mask = 0b1011_1111 << 16;
            assert_eq!(le32(&kd, 48) & fp_mask, rsrc1, "{name}: COMPUTE_PGM_RSRC1");
            let rsrc2_mask = 0b1_1111_1011_1111;
            assert_eq!(
                le32(&kd, 52) & rsrc2_mask,
                rsrc2,
                "{name}: COMPUTE_PGM_RSRC2"
            );
            let props_mask = 0b100_0111_1111;
            assert_eq!(
                le32(&kd, 56) & props_mask,
                props,
                "{name}: kernel code properties"
            );
        }
    }
}

/// The `.amdhsa_*` directives of kernel `name`'s `.amdhsa_kernel` block in `text`.
fn directives(text: &str, name: &str) -> BTreeMap<String, u64> {
    let mut out = BTreeMap::new();
    let mut inside = false;
    for line in text.lines() {
        let line = line.trim();
        if line == format!(".amdhsa_kernel {name}") {
            inside = true;
        } else if line == ".end_amdhsa_kernel" {
            inside = false;
        } else if inside {
            if let Some((key, value)) = line.split_once(' ') {
                out.insert(
                    key.trim_start_matches(".amdhsa_").to_string(),
                    value.trim().parse().unwrap(),
                );
            }
        }
    }
    out
}

/// `(offset, size, value_kind)` of every argument in llc's `.amdgpu_metadata`.
fn metadata_args(text: &str) -> Vec<(u32, u32, String)> {
    let mut out = Vec::new();
    let mut cur: (Option<u32>, Option<u32>) = (None, None);
    for line in text.lines() {
        let line = line.trim().trim_start_matches("- ");
        let field = |key: &str| line.strip_prefix(key).map(|v| v.trim().to_string());
        if let Some(v) = field(".offset:") {
            cur.0 = Some(v.parse().unwrap());
        } else if let Some(v) = field(".size:") {
            cur.1 = Some(v.parse().unwrap());
        } else if let Some(v) = field(".value_kind:") {
            out.push((cur.0.take().unwrap(), cur.1.take().unwrap(), v));
        }
    }
    out
}

fn llc(ir: &str, name: &str, target: Target, wave: WaveSize) -> String {
    let dir = scratch_dir();
    let src = dir.join(format!("{name}.ll"));
    std::fs::write(&src, ir).unwrap();
    let out = Command::new(LLC)
        .args(cpu_args("-mtriple", target, wave))
        .arg(&src)
        .args(["-o", "-"])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{name}: llc-19 failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

/// A kernel without attributes: LLVM assumes it may need every id and the dispatch
/// pointer, dispatch id and implicit arguments.
const DEFAULT_KERNEL: &str = r#"
define amdgpu_kernel void @k(ptr addrspace(1) %out, i32 %n, i8 %c, i64 %l, <3 x i32> %v, float %f, i16 %h) {
  %x = call i32 @llvm.amdgcn.workitem.id.x()
  %g = call i32 @llvm.amdgcn.workgroup.id.x()
  %s = add i32 %x, %g
  %t = add i32 %s, %n
  %p = getelementptr i32, ptr addrspace(1) %out, i32 %x
  store i32 %t, ptr addrspace(1) %p
  ret void
}
declare i32 @llvm.amdgcn.workitem.id.x()
declare i32 @llvm.amdgcn.workgroup.id.x()
"#;

/// A kernel with a private array indexed at run time, and attributes saying what it does
/// not use.
const SCRATCH_KERNEL: &str = r#"
define amdgpu_kernel void @s(ptr addrspace(1) %out, i32 %i) #0 {
  %a = alloca [16 x i32], align 4, addrspace(5)
  %x = call i32 @llvm.amdgcn.workitem.id.x()
  %y = call i32 @llvm.amdgcn.workitem.id.y()
  %g = call i32 @llvm.amdgcn.workgroup.id.y()
  %p = getelementptr [16 x i32], ptr addrspace(5) %a, i32 0, i32 %x
  store volatile i32 %g, ptr addrspace(5) %p
  %q = getelementptr [16 x i32], ptr addrspace(5) %a, i32 0, i32 %i
  %v = load volatile i32, ptr addrspace(5) %q
  %w = add i32 %v, %y
  store i32 %w, ptr addrspace(1) %out
  ret void
}
declare i32 @llvm.amdgcn.workitem.id.x()
declare i32 @llvm.amdgcn.workitem.id.y()
declare i32 @llvm.amdgcn.workgroup.id.y()
attributes #0 = { "amdgpu-no-dispatch-ptr" "amdgpu-no-dispatch-id" "amdgpu-no-queue-ptr" "amdgpu-no-implicitarg-ptr" "amdgpu-no-workitem-id-z" "amdgpu-no-workgroup-id-z" }
"#;

fn spec(name: &str, size: u32, align: u32, kind: ValueKind) -> ArgSpec {
    ArgSpec {
        name: name.into(),
        size,
        align,
        kind,
        value_type: None,
    }
}

/// The fields that decide where a kernel's inputs land and how its segments are sized.
/// Left out: `private_segment_fixed_size` and `next_free_vgpr`/`next_free_sgpr`, which
/// depend on the code llc generates, not on the entry ABI.
const ABI_FIELDS: [&str; 20] = [
    "group_segment_fixed_size",
    "kernarg_size",
    "user_sgpr_count",
    "user_sgpr_private_segment_buffer",
    "user_sgpr_dispatch_ptr",
    "user_sgpr_queue_ptr",
    "user_sgpr_kernarg_segment_ptr",
    "user_sgpr_dispatch_id",
    "user_sgpr_flat_scratch_init",
    "user_sgpr_private_segment_size",
    "wavefront_size32",
    "system_sgpr_private_segment_wavefront_offset",
    "enable_private_segment",
    "system_sgpr_workgroup_id_x",
    "system_sgpr_workgroup_id_y",
    "system_sgpr_workgroup_id_z",
    "system_sgpr_workgroup_info",
    "system_vgpr_workitem_id",
    "float_denorm_mode_32",
    "float_denorm_mode_16_64",
];

fn compare(ours: &BTreeMap<String, u64>, llc: &BTreeMap<String, u64>, what: &str) {
    for key in ours.keys() {
        assert!(
            llc.contains_key(key),
            "{what}: llc-19 prints no .amdhsa_{key}"
        );
    }
    for key in ABI_FIELDS.iter().chain(&["dx10_clamp", "ieee_mode"]) {
        assert_eq!(ours.get(*key), llc.get(*key), "{what}: .amdhsa_{key}");
    }
}

/// Reads llc's descriptor of `name` back with gpuabi's reader: apart from the fields that
/// depend on llc's code, it must be `ours`, and give the same initial state.
fn same_descriptor(
    text: &str,
    name: &str,
    ours: &KernelDescriptor,
    target: Target,
    wave: WaveSize,
    what: &str,
) {
    let read = parse_kernel_descriptors(text, target, wave).unwrap();
    let [(n, theirs)] = read.as_slice() else {
        panic!("{what}: expected one kernel, read {}", read.len());
    };
    assert_eq!(n, name);
    let ours = KernelDescriptor {
        private_segment_fixed_size: theirs.private_segment_fixed_size,
        next_free_vgpr: theirs.next_free_vgpr,
        next_free_sgpr: theirs.next_free_sgpr,
        ..ours.clone()
    };
    assert_eq!(theirs, &ours, "{what}: kernel {name}");
    assert_eq!(
        initial_state(theirs, target, wave).unwrap(),
        initial_state(&ours, target, wave).unwrap()
    );
}

#[test]
fn descriptors_and_layouts_match_llc() {
    if !available(LLC) {
        return;
    }
    for (target, wave) in CONFIGS {
        let what = format!("{target} {wave}");

        // The default kernel.
        let text = llc(DEFAULT_KERNEL, &format!("default_{what}"), target, wave);
        let layout = layout_kernargs(
            &[
                spec("out", 8, 8, ValueKind::GlobalBuffer),
                spec("n", 4, 4, ValueKind::ByValue),
                spec("c", 1, 1, ValueKind::ByValue),
                spec("l", 8, 8, ValueKind::ByValue),
                spec("v", 16, 16, ValueKind::ByValue),
                spec("f", 4, 4, ValueKind::ByValue),
                spec("h", 2, 2, ValueKind::ByValue),
            ],
            Some(HiddenArgs::LLVM_DEFAULT),
            target,
        )
        .unwrap();
        let ours: Vec<_> = layout
            .args
            .iter()
            .map(|a| (a.offset, a.size, a.kind.name().to_string()))
            .collect();
        assert_eq!(
            ours,
            metadata_args(&text),
            "{what}: default kernel arguments"
        );
        let read = read_kernels(&text, target, wave).unwrap();
        assert_eq!(
            read[0].args, layout.args,
            "{what}: default kernel, read back"
        );
        assert_eq!(read[0].kernarg_size, layout.size);
        let mut d = KernelDescriptor::new(target, wave);
        d.user_sgpr_private_segment_buffer = target != Target::Gfx1100;
        d.user_sgpr_dispatch_ptr = true;
        d.user_sgpr_dispatch_id = true;
        d.system_sgpr_workgroup_id_y = true;
        d.system_sgpr_workgroup_id_z = true;
        d.system_vgpr_workitem_id = 2;
        d.kernarg_size = layout.size;
        d.pad_user_sgprs_like_llvm(target, wave);
        let printed = print_kernel_descriptor("k", &d, target, wave).unwrap();
        compare(
            &directives(&printed, "k"),
            &directives(&text, "k"),
            &format!("{what} default kernel"),
        );
        same_descriptor(&text, "k", &d, target, wave, &what);

        // The scratch kernel.
        let text = llc(SCRATCH_KERNEL, &format!("scratch_{what}"), target, wave);
        let layout = layout_kernargs(
            &[
                spec("out", 8, 8, ValueKind::GlobalBuffer),
                spec("i", 4, 4, ValueKind::ByValue),
            ],
            None,
            target,
        )
        .unwrap();
        let ours: Vec<_> = layout
            .args
            .iter()
            .map(|a| (a.offset, a.size, a.kind.name().to_string()))
            .collect();
        assert_eq!(
            ours,
            metadata_args(&text),
            "{what}: scratch kernel arguments"
        );
        let read = read_kernels(&text, target, wave).unwrap();
        assert_eq!(
            read[0].args, layout.args,
            "{what}: scratch kernel, read back"
        );
        assert_eq!(read[0].kernarg_size, layout.size);
        let theirs = directives(&text, "s");
        let mut d = KernelDescriptor::new(target, wave);
        let own_scratch_setup = target != Target::Gfx1100;
        d.user_sgpr_private_segment_buffer = own_scratch_setup;
        d.user_sgpr_flat_scratch_init = own_scratch_setup;
        d.system_sgpr_private_segment_wavefront_offset = true;
        d.system_sgpr_workgroup_id_x = true;
        d.system_sgpr_workgroup_id_y = true;
        d.system_vgpr_workitem_id = 1;
        d.kernarg_size = layout.size;
        d.pad_user_sgprs_like_llvm(target, wave);
        let printed = print_kernel_descriptor("s", &d, target, wave).unwrap();
        compare(
            &directives(&printed, "s"),
            &theirs,
            &format!("{what} scratch kernel"),
        );
        same_descriptor(&text, "s", &d, target, wave, &what);
        assert!(theirs["private_segment_fixed_size"] >= 64, "{what}");
    }
}
