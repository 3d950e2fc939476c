//! Every processor `llc-19 -march=amdgcn -mcpu=help` lists is known by its LLVM names
//! exactly when its generation is modelled: for each one llc-19 compiles a kernel to
//! assembly and to an object, and the processor of the assembly's `.amdgcn_target` and
//! the object's `EF_AMDGPU_MACH` must be the one gpuabi's table gives for the name, run as
//! the generation the processor number says (gfx60x GCN 1.0, gfx70x GCN 1.1, gfx80x and
//! gfx810 GCN 3, gfx900-gfx90c Vega, gfx103x RDNA 2, gfx110x RDNA 3); objects of the
//! generations with encodings are read.
//!
//! Skipped with a message when llc-19 is missing, unless `GPUABI_REQUIRE_LLVM_MC=1`.

use std::process::Command;

use gpuabi_amdgpu::asm::target_id::named_processor;
use gpuabi_amdgpu::code_object::read_code_object;
use gpuabi_amdgpu::elf::processor_of_flags;
use gpuabi_amdgpu::{Processor, Target};

const KERNEL: &str = "
define amdgpu_kernel void @k(ptr addrspace(1) %out) {
  store i32 1, ptr addrspace(1) %out
  ret void
}
";

/// Code object v6, which the generic processors need (llc refuses them below it).
const V6: &str = "
!llvm.module.flags = !{!0}
!0 = !{i32 1, !\"amdhsa_code_object_version\", i32 600}
";

fn llc_available() -> bool {
    let found = Command::new("llc-19")
        .arg("--version")
        .output()
        .map(|o| o.status.success())
        .unwrap_or(false);
    if !found {
        let msg = "llc-19 not found: the processor table test is skipped (install Debian's \
                   llvm-19 package; set GPUABI_REQUIRE_LLVM_MC=1 to make this a failure)";
        if std::env::var("GPUABI_REQUIRE_LLVM_MC").as_deref() == Ok("1") {
            panic!("{msg}");
        }
        eprintln!("{msg}");
    }
    found
}

/// The `-mcpu` names llc-19 lists for amdgcn.
fn llc_cpus() -> Vec<String> {
    let out = Command::new("llc-19")
        .args(["-march=amdgcn", "-mcpu=help"])
        .output()
        .unwrap();
    // llc prints the list to standard error or output depending on the build.
    let text =
        String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr);
    text.lines()
        .skip_while(|l| !l.starts_with("Available CPUs"))
        .skip(1)
        .take_while(|l| !l.starts_with("Available features"))
        .filter(|l| l.contains("Select the"))
        .filter_map(|l| l.split_whitespace().next().map(str::to_string))
        .collect()
}

/// The generation of an LLVM processor name as AMD numbers them (AMDGPUUsage, "AMDGPU
/// Processors"): the family is in the digits after `gfx`.
fn generation_of(canonical: &str) -> Option<Target> {
    let n = canonical.strip_prefix("gfx")?;
    let family = |prefixes: &[&str]| prefixes.iter().any(|p| n.starts_with(p));
    if family(&["60"]) {
        Some(Target::Gfx6)
    } else if family(&["70"]) {
        Some(Target::Gfx7)
    } else if family(&["80", "810"]) {
        Some(Target::Gfx8)
    } else if ["900", "902", "904", "906", "909", "90c", "9-generic"].contains(&n) {
        Some(Target::Gfx9)
    } else if family(&["103", "10-3-generic"]) {
        Some(Target::Gfx1030)
    } else if family(&["110", "11-generic"]) {
        Some(Target::Gfx1100)
    } else if family(&["120", "12-generic"]) {
        Some(Target::Gfx12)
    } else {
        None
    }
}

fn llc(cpu: &str, source: &std::path::Path, out: &std::path::Path, obj: bool) -> bool {
    let mut cmd = Command::new("llc-19");
    cmd.args(["-mtriple=amdgcn-amd-amdhsa", &format!("-mcpu={cpu}")]);
    if obj {
        cmd.arg("-filetype=obj");
    }
    cmd.arg(source).arg("-o").arg(out);
    cmd.output().map(|o| o.status.success()).unwrap_or(false)
}

#[test]
fn every_llc_processor_of_a_modelled_generation_is_known() {
    if !llc_available() {
        return;
    }
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("processors");
    std::fs::create_dir_all(&dir).unwrap();
    let (v5, v6) = (dir.join("k.ll"), dir.join("k6.ll"));
    std::fs::write(&v5, KERNEL).unwrap();
    std::fs::write(&v6, format!("{KERNEL}{V6}")).unwrap();
    let cpus = llc_cpus();
    assert!(cpus.iter().any(|c| c == "gfx803"), "{cpus:?}");
    let mut known = 0;
    for cpu in &cpus {
        // `generic` and `generic-hsa` are no processors: their objects have
        // EF_AMDGPU_MACH_NONE (AMDGPUUsage lists neither).
        if cpu.starts_with("generic") {
            continue;
        }
        let (s, o) = (dir.join(format!("{cpu}.s")), dir.join(format!("{cpu}.o")));
        let source = if cpu.contains("generic") { &v6 } else { &v5 };
        assert!(
            llc(cpu, source, &s, false) && llc(cpu, source, &o, true),
            "llc-19 -mcpu={cpu} failed"
        );
        let asm = std::fs::read_to_string(&s).unwrap();
        let id_line = asm.lines().find(|l| l.contains(".amdgcn_target")).unwrap();
        let canonical = id_line.rsplit("--").next().unwrap().trim_end_matches('"');
        let object = std::fs::read(&o).unwrap();
        let e_flags = u32::from_le_bytes(object[48..52].try_into().unwrap());
        let want = generation_of(canonical);
        let named = Processor::named(cpu);
        assert_eq!(named.map(|p| p.gfx), want, "-mcpu={cpu} ({canonical})");
        assert_eq!(
            processor_of_flags(e_flags).map(|p| p.gfx),
            want,
            "-mcpu={cpu}: e_flags 0x{e_flags:x}"
        );
        let Some(p) = named else { continue };
        known += 1;
        assert_eq!(p.name, canonical, "-mcpu={cpu}");
        assert_eq!(p.mach, e_flags & 0xff, "-mcpu={cpu}");
        assert_eq!(cpu.parse::<Target>(), Ok(p.gfx), "-mcpu={cpu}");
        if p.gfx.has_encodings() {
            let from_text = named_processor(&asm).unwrap().unwrap();
            assert_eq!(from_text, p, "{cpu}.s");
            let read = read_code_object(&object).unwrap_or_else(|e| panic!("{cpu}.o: {e}"));
            assert_eq!((read.target, read.processor), (p.gfx, p), "{cpu}.o");
        } else {
            let e = read_code_object(&object).unwrap_err().to_string();
            assert!(e.contains("no encodings for"), "{cpu}.o: {e}");
        }
    }
    // gpuabi's table has nothing llc-19 does not list.
    let listed = gpuabi_amdgpu::target::PROCESSORS
        .iter()
        .flat_map(|p| std::iter::once(p.name).chain(p.aliases.iter().copied()));
    for name in listed {
        assert!(
            cpus.iter().any(|c| c == name),
            "{name} is not an llc-19 processor"
        );
    }
    assert_eq!(known, 37 + 18, "every name and alias of the table was met");
}
