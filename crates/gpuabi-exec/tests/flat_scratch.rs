//! A gfx1030 kernel with calls addresses its stack with `scratch_*`, which on GFX10 goes
//! through `FLAT_SCRATCH`: the kernel asks for the flat-scratch-init registers and the
//! wave's offset and sets `FLAT_SCRATCH_LO/HI` from their sum before anything else, in the
//! shape llc-19 emits for a gfx1030 kernel that calls (checked when llc-19 is installed).

use std::path::PathBuf;
use std::process::Command;

use gpuabi_amdgpu::hsa::{initial_state, SgprInput};
use gpuabi_amdgpu::{Target, WaveSize};
use gpuabi_codegen::{KernelEntry, Options};

const LO: &str = "hwreg(HW_REG_FLAT_SCR_LO)";
const HI: &str = "hwreg(HW_REG_FLAT_SCR_HI)";

/// The instruction lines of `kernel` in printed assembly, without comments.
fn body(asm: &str, kernel: &str) -> Vec<String> {
    asm.lines()
        .map(|l| {
            let code = l.split(';').next().unwrap_or("");
            code.split_whitespace().collect::<Vec<_>>().join(" ")
        })
        .skip_while(|l| *l != format!("{kernel}:"))
        .skip(1)
        .filter(|l| !l.is_empty() && !l.ends_with(':') && !l.starts_with('.'))
        .take(16)
        .collect()
}

/// The flat-scratch set-up among the first instructions: `s_add_u32 sX, sX, sW`,
/// `s_addc_u32 sX+1, sX+1, 0`, then `s_setreg_b32` of LO from sX and HI from sX+1.
/// Returns (X, W). gpuabi prints the `hwreg` operand as its number.
fn setup(lines: &[String]) -> Option<(u16, u16)> {
    let norm = |l: &str| l.replace("0xf814", LO).replace("0xf815", HI);
    let lines: Vec<String> = lines.iter().map(|l| norm(l)).collect();
    let num = |t: &str| t.trim().trim_start_matches('s').parse::<u16>().ok();
    let lo = lines
        .iter()
        .find_map(|l| l.strip_prefix(&format!("s_setreg_b32 {LO}, ")))
        .and_then(num)?;
    let hi_line = format!("s_setreg_b32 {HI}, s{}", lo + 1);
    let addc = format!("s_addc_u32 s{0}, s{0}, 0", lo + 1);
    let add_prefix = format!("s_add_u32 s{lo}, s{lo}, ");
    let w = lines
        .iter()
        .find_map(|l| l.strip_prefix(&add_prefix))
        .and_then(num)?;
    let pos = |want: &str| lines.iter().position(|l| l == want);
    let add_at = pos(&format!("{add_prefix}s{w}"))?;
    let addc_at = pos(&addc)?;
    let lo_at = pos(&format!("s_setreg_b32 {LO}, s{lo}"))?;
    let hi_at = pos(&hi_line)?;
    (add_at < lo_at && addc_at < hi_at).then_some((lo, w))
}

#[test]
fn a_gfx1030_kernel_with_calls_sets_flat_scratch_from_its_wave_offset() {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/programs/tail_calls.gsir");
    let text = std::fs::read_to_string(path).expect("tests/programs/tail_calls.gsir");
    let module = gpuabi_ir::parse(&text).expect("parses");
    for wave in [WaveSize::W32, WaveSize::W64] {
        let mut opts = Options::new(Target::Gfx1030);
        opts.wave = wave;
        let c = gpuabi_codegen::compile(&module, &opts).expect("compiles");
        let KernelEntry::Hsa(k) = &c.kernels[0].entry else {
            panic!("an HSA kernel")
        };
        let desc = &k.descriptor;
        assert!(
            desc.user_sgpr_flat_scratch_init && desc.system_sgpr_private_segment_wavefront_offset
        );
        let state = initial_state(desc, Target::Gfx1030, wave).expect("a valid descriptor");
        let init = state
            .sgpr(SgprInput::FlatScratchInit)
            .expect("flat scratch init");
        let w = state
            .sgpr(SgprInput::PrivateSegmentWavefrontOffset)
            .expect("wave offset");
        let asm = gpuabi_amdgpu::asm::printer::print(&c.program);
        let lines = body(&asm, "k");
        assert_eq!(
            setup(&lines),
            Some((init.first.num, w.first.num)),
            "{wave}: {lines:#?}"
        );
        assert_eq!(lines.len().min(4), 4);
        assert!(
            setup(&lines[..4]).is_some(),
            "the set-up comes first: {lines:#?}"
        );
    }
    // gfx1100 has architected flat scratch and needs none.
    let c = gpuabi_codegen::compile(&module, &Options::new(Target::Gfx1100)).expect("compiles");
    let KernelEntry::Hsa(k) = &c.kernels[0].entry else {
        panic!("an HSA kernel")
    };
    assert!(!k.descriptor.user_sgpr_flat_scratch_init);
}

#[test]
fn llc_sets_flat_scratch_the_same_way() {
    let ok = Command::new("llc-19")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    if !ok {
        if std::env::var("GPUABI_REQUIRE_LLVM_MC").as_deref() == Ok("1") {
            panic!("llc-19 is missing and GPUABI_REQUIRE_LLVM_MC=1");
        }
        eprintln!("skipped: llc-19 is not installed");
        return;
    }
    let dir = std::env::temp_dir().join(format!("gpuabi-flat-scratch-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temporary directory");
    let ll = dir.join("k.ll");
    std::fs::write(
        &ll,
        "declare void @ext(ptr addrspace(1))\n\
         define amdgpu_kernel void @k(ptr addrspace(1) %out) {\n  \
         call void @ext(ptr addrspace(1) %out)\n  ret void\n}\n",
    )
    .expect("writes");
    let out = Command::new("llc-19")
        .args([
            "-O2",
            "-mtriple=amdgcn-amd-amdhsa",
            "-mcpu=gfx1030",
            "-o",
            "-",
        ])
        .arg(&ll)
        .output()
        .expect("llc-19 runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let asm = String::from_utf8_lossy(&out.stdout);
    assert!(asm.contains(".amdhsa_user_sgpr_flat_scratch_init 1"));
    assert!(asm.contains(".amdhsa_system_sgpr_private_segment_wavefront_offset 1"));
    assert!(setup(&body(&asm, "k")).is_some(), "{asm}");
    let _ = std::fs::remove_dir_all(&dir);
}
