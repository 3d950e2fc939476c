//! llvm-mc-19 accepts everything the code generator prints, and gpuabi's own parser reads
//! the code back to the same bytes: the printed text and its re-print assemble to
//! identical objects. gpuabi's encoder gives the bytes llvm-mc puts at the start of `.text`
//! (the kernel descriptor follows them there). Inputs: the examples without calls and
//! generated programs, for every target and wave size.

use std::path::{Path, PathBuf};
use std::process::Command;

use gpuabi_amdgpu::{Target, WaveSize};
use gpuabi_codegen::{Entry, Options};
use gpuabi_fuzz::program::{generate, GenConfig};

const LLVM_MC: &str = "llvm-mc-19";

fn available() -> bool {
    let found = Command::new(LLVM_MC)
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    if !found {
        let msg = format!("{LLVM_MC} not found: skipped (set GPUABI_REQUIRE_LLVM_MC=1 to fail)");
        if std::env::var("GPUABI_REQUIRE_LLVM_MC").as_deref() == Ok("1") {
            panic!("{msg}");
        }
        eprintln!("{msg}");
    }
    found
}

fn assemble(text: &str, target: Target, wave: WaveSize, path: &Path) -> Result<Vec<u8>, String> {
    std::fs::write(path, text).unwrap();
    let obj = path.with_extension("o");
    let out = Command::new(LLVM_MC)
        .arg("-triple=amdgcn-amd-amdhsa")
        .arg(format!("-mcpu={}", target.llvm_cpu()))
        .arg(format!("-mattr=+wavefrontsize{}", wave.lanes()))
        .arg("-filetype=obj")
        .arg("-o")
        .arg(&obj)
        .arg(path)
        .output()
        .unwrap();
    if !out.status.success() || !out.stderr.is_empty() {
        return Err(String::from_utf8_lossy(&out.stderr).into_owned());
    }
    Ok(std::fs::read(&obj).unwrap())
}

fn dir() -> PathBuf {
    let d = Path::new(env!("CARGO_TARGET_TMPDIR")).join("codegen_llvm_mc");
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// saxpy and generated programs, with stack arrays when `stack_arrays`.
fn sources(stack_arrays: bool) -> Vec<(String, String)> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples/saxpy.gsir");
    let mut v = vec![("saxpy".to_string(), std::fs::read_to_string(root).unwrap())];
    let config = GenConfig {
        stack_arrays,
        ..GenConfig::default()
    };
    for seed in 0..12 {
        v.push((format!("gen{seed}"), generate(seed, &config).source));
    }
    v
}

/// Name, offset, size and value kind of each argument.
fn arg_list(args: &[gpuabi_amdgpu::hsa::KernArg]) -> Vec<(String, u32, u32, &'static str)> {
    args.iter()
        .map(|a| (a.name.clone(), a.offset, a.size, a.kind.name()))
        .collect()
}

/// The arguments of every HSA kernel, as the code generator laid them out, equal those
/// gpuabi reads from the printed `.amdgpu_metadata` block and from the metadata note
/// llvm-mc-19 wrote into the object.
fn metadata_agrees(c: &gpuabi_codegen::Compiled, text: &str, object: &[u8]) -> Result<(), String> {
    let hsa: Vec<&gpuabi_amdgpu::hsa::Kernel> = c
        .kernels
        .iter()
        .filter_map(|k| match &k.entry {
            gpuabi_codegen::KernelEntry::Hsa(h) => Some(h),
            gpuabi_codegen::KernelEntry::Catalyst(_) => None,
        })
        .collect();
    if hsa.is_empty() {
        return Ok(());
    }
    let read = gpuabi_amdgpu::hsa::read_kernels(text, c.program.target, c.program.wave)
        .map_err(|e| format!("the printed metadata does not read back: {e}"))?;
    let object = gpuabi_amdgpu::code_object::read_code_object(object)
        .map_err(|e| format!("llvm-mc's object does not read back: {e}"))?;
    for k in hsa {
        let printed = read
            .iter()
            .find(|r| r.name == k.name)
            .ok_or_else(|| format!("kernel `{}` missing from the printed metadata", k.name))?;
        let noted = object
            .kernel(&k.name)
            .ok_or_else(|| format!("kernel `{}` missing from the object's note", k.name))?;
        let want = arg_list(&k.args);
        if arg_list(&printed.args) != want || printed.kernarg_size != k.kernarg_size {
            return Err(format!("kernel `{}`: the printed metadata differs", k.name));
        }
        if arg_list(&noted.kernel.args) != want || noted.kernel.kernarg_size != k.kernarg_size {
            return Err(format!("kernel `{}`: the object's note differs", k.name));
        }
    }
    Ok(())
}

#[test]
fn llvm_mc_accepts_compiled_code() {
    if !available() {
        return;
    }
    let mut failures = Vec::new();
    let mut checked = 0;
    for (target, wave, entry) in [
        (Target::Gfx8, WaveSize::W64, Entry::Hsa),
        (Target::Gfx8, WaveSize::W64, Entry::Catalyst),
        (Target::Gfx1030, WaveSize::W32, Entry::Hsa),
        (Target::Gfx1030, WaveSize::W64, Entry::Hsa),
        (Target::Gfx1100, WaveSize::W32, Entry::Hsa),
        (Target::Gfx1100, WaveSize::W64, Entry::Hsa),
        (Target::Gfx12, WaveSize::W32, Entry::Hsa),
        (Target::Gfx12, WaveSize::W64, Entry::Hsa),
    ] {
        for (name, src) in sources(true) {
            let module = gpuabi_ir::parse(&src).unwrap();
            let mut opts = Options::new(target);
            opts.wave = wave;
            opts.entry = entry;
            let c = gpuabi_codegen::compile(&module, &opts)
                .unwrap_or_else(|e| panic!("{name} for {} {}: {e}", target.name(), entry.name()));
            let text = c.assembly().unwrap();
            let tag = format!("{name}_{}_{}_{}", target.name(), wave.lanes(), entry.name());
            let base = dir().join(&tag);
            let ours = match assemble(&text, target, wave, &base.with_extension("s")) {
                Ok(o) => o,
                Err(e) => {
                    failures.push(format!("{tag}: llvm-mc rejects the output:\n{e}"));
                    continue;
                }
            };
            if let Err(e) = metadata_agrees(&c, &text, &ours) {
                failures.push(format!("{tag}: {e}"));
                continue;
            }
            let encoded = gpuabi_amdgpu::encode(&c.program)
                .unwrap_or_else(|e| panic!("{tag}: gpuabi cannot encode its own output: {e}"));
            let text_section = gpuabi_amdgpu::elf::read_text(&ours).unwrap().code;
            if encoded.is_empty() || !text_section.starts_with(&encoded) {
                failures.push(format!("{tag}: gpuabi's encoding differs from llvm-mc's"));
                continue;
            }
            // The code re-read by gpuabi's parser and printed again.
            let code = gpuabi_amdgpu::asm::print(&c.program);
            let reparsed = gpuabi_amdgpu::asm::parse(&code, target, wave).unwrap();
            let again = text.replace(&code, &gpuabi_amdgpu::asm::print(&reparsed));
            match assemble(&again, target, wave, &dir().join(format!("{tag}_re.s"))) {
                Ok(o) if o == ours => checked += 1,
                Ok(_) => failures.push(format!("{tag}: the re-parsed code assembles differently")),
                Err(e) => failures.push(format!("{tag}: re-parsed text rejected:\n{e}")),
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert!(checked > 0, "nothing was compiled");
    eprintln!("{checked} compiled modules assembled identically by llvm-mc-19");
}
