//! `gpuabi catalyst build`: an AMD Catalyst OpenCL 1.2 binary (`.clo`) from a kernel's
//! assembly and OpenCL signature, or from the kernels of a `.gsir` module compiled with the
//! code generator's `catalyst` entry. The layout comes from the layout engine under the
//! `amd` policies (what AMD's drivers write); the bytes from `gpuabi_catalyst::binary`.

use std::path::PathBuf;

use anyhow::{anyhow, bail, Context, Result};
use clap::{Args, FromArgMatches};

use gpuabi_amdgpu::program::Directive;
use gpuabi_amdgpu::{encode, Item, Program, Target, WaveSize};
use gpuabi_catalyst::args::Vec3Policy;
use gpuabi_catalyst::binary::disasm::target_of;
use gpuabi_catalyst::binary::{self, KernelCode};
use gpuabi_catalyst::driver::{Device, Generation, DEVICES};
use gpuabi_catalyst::types::{Kernel, KernelArg};
use gpuabi_catalyst::{layout, KernelLayout, NotesPolicy, Options, ProgramPlace};
use gpuabi_codegen::KernelEntry;
use gpuabi_layout::reg::RegFile;

use super::catalyst::{options, read_kernel, AbiArgs, Bits};

/// Flags of `catalyst build`.
#[derive(Debug, Args)]
pub struct BuildArgs {
    /// The kernel's code: LLVM-syntax assembly (.s) for the device's generation (GCN 1.0
    /// gfx6, 1.1 gfx7, 1.2 gfx8; wave64), whose first instruction is the entry; or a .gsir
    /// module, compiled with the code generator's catalyst entry (GCN 1.2 devices only).
    pub file: PathBuf,
    /// For .s input: the kernel's OpenCL signature, an OpenCL C file whose kernel
    /// prototype gives the arguments (the body is not compiled: `kernel void add(uint n,
    /// global const uint* a) {}` will do), or a JSON/TOML argument list, as `catalyst
    /// layout` reads them. Arguments count as used unless marked `/*unused*/`.
    #[arg(long, value_name = "FILE")]
    pub source: Option<PathBuf>,
    /// The kernel: of --source (needed when it has several) for .s input; of the module
    /// for .gsir input (default: every kernel of the module).
    #[arg(long)]
    pub kernel: Option<String>,
    #[command(flatten)]
    pub abi: AbiArgs,
    /// The binary to write.
    #[arg(short = 'o', long = "output", value_name = "FILE", required = true)]
    pub output: PathBuf,
}

/// Runs `catalyst build`.
pub fn run(a: &BuildArgs) -> Result<()> {
    let is_ir = a
        .file
        .extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("gsir"));
    let bytes = if is_ir { build_ir(a)? } else { build_asm(a)? };
    super::write_file(&a.output, bytes)
        .with_context(|| format!("-o {}: cannot write", a.output.display()))
}

/// The highest SGPR and VGPR numbers `program` names, plus one (0 when none): the
/// register counts of hand-written code. VCC, EXEC and the other special registers do
/// not count, as PROGINFO's SGPR count excludes VCC.
fn used_registers(program: &Program) -> (u32, u32) {
    let (mut sgprs, mut vgprs) = (0u16, 0u16);
    for entry in &program.items {
        if let Item::Inst(inst) = &entry.item {
            for op in &inst.operands {
                if let Some(r) = op.reg_in(RegFile::Sgpr) {
                    sgprs = sgprs.max(r.end());
                }
                if let Some(r) = op.reg_in(RegFile::Vgpr) {
                    vgprs = vgprs.max(r.end());
                }
            }
        }
    }
    (u32::from(sgprs), u32::from(vgprs))
}

fn write_binary(kernels: &[KernelCode<'_>]) -> Result<Vec<u8>> {
    binary::write(kernels).map_err(|e| anyhow!("{e}"))
}

fn build_asm(a: &BuildArgs) -> Result<Vec<u8>> {
    let path = &a.file;
    let Some(source) = &a.source else {
        bail!(
            "--source: {} is assembly; give the kernel's OpenCL signature with --source FILE.cl",
            path.display()
        );
    };
    let kernel = read_kernel(source, a.kernel.as_deref())?;
    let mut opts = options(&a.abi, Vec3Policy::Amd, NotesPolicy::Amd)?;
    let target = target_of(opts.device.generation);
    let text = super::read_text(path).with_context(|| format!("cannot read {}", path.display()))?;
    let program = gpuabi_amdgpu::asm::parse(&text, target, WaveSize::W64)
        .map_err(|e| anyhow!("{}:{e}", path.display()))?;
    let code = encode(&program).map_err(|e| anyhow!("{}: {e}", path.display()))?;
    let (sgprs, vgprs) = used_registers(&program);
    if opts.sgprs.is_none() || opts.vgprs.is_none() {
        let min = layout(&kernel, &opts).with_context(|| format!("kernel '{}'", kernel.name))?;
        opts.sgprs = opts.sgprs.or(Some(sgprs.max(min.regs.sgprs)));
        opts.vgprs = opts.vgprs.or(Some(vgprs.max(min.regs.vgprs)));
    }
    let l = layout(&kernel, &opts).with_context(|| format!("kernel '{}'", kernel.name))?;
    for w in &l.warnings {
        eprintln!("warning: {w}");
    }
    write_binary(&[KernelCode {
        layout: &l,
        code: &code,
    }])
}

/// The layout flags as they are by default, for the device, driver and bits of `a`.
fn target_only(a: &AbiArgs) -> Result<AbiArgs> {
    let cmd = AbiArgs::augment_args(clap::Command::new("build"));
    let matches = cmd
        .try_get_matches_from(["build"])
        .map_err(|e| anyhow!("{e}"))?;
    let mut d = AbiArgs::from_arg_matches(&matches).map_err(|e| anyhow!("{e}"))?;
    d.device = a.device.clone();
    d.driver = a.driver;
    d.bits = a.bits;
    Ok(d)
}

/// The names of the GCN 1.2 devices, for messages.
fn gcn12_devices() -> String {
    DEVICES
        .iter()
        .filter(|d| d.generation == Generation::Gcn12)
        .map(|d| d.name.to_ascii_lowercase())
        .collect::<Vec<_>>()
        .join(", ")
}

/// The kernel description a layout was made from.
fn kernel_of(l: &KernelLayout) -> Kernel {
    Kernel {
        name: l.kernel.clone(),
        args: l
            .args
            .iter()
            .map(|a| KernelArg {
                name: a.name.clone(),
                type_name: a.type_name.clone(),
                ty: a.ty.clone(),
                used: a.used,
                explicit_id: None,
            })
            .collect(),
        reqd_work_group_size: None,
    }
}

/// Where the code generator's layout and the binary's (for the chosen device and driver)
/// differ in what the code reads: user data, registers, argument slots and resources, cb0.
fn code_visible_differences(compiled: &KernelLayout, binary: &KernelLayout) -> Vec<&'static str> {
    let mut d = Vec::new();
    if compiled.userdata != binary.userdata || compiled.user_sgprs != binary.user_sgprs {
        d.push("user data");
    }
    if compiled.regs != binary.regs {
        d.push("registers");
    }
    let slots = |l: &KernelLayout| {
        l.args
            .iter()
            .map(|a| (a.slot, a.resource))
            .collect::<Vec<_>>()
    };
    if slots(compiled) != slots(binary) {
        d.push("argument slots and resources");
    }
    if compiled.cb0 != binary.cb0 {
        d.push("cb0");
    }
    d
}

/// The code of kernel `name` of `program`: the items from its `.globl` to the next
/// kernel's, alone in a program of their own (branches are relative, so the bytes do not
/// depend on where the kernel stood).
fn kernel_code(program: &Program, name: &str) -> Result<Vec<u8>> {
    let is_globl =
        |e: &gpuabi_amdgpu::Entry| matches!(&e.item, Item::Directive(Directive::Globl(_)));
    let start = program
        .items
        .iter()
        .position(|e| matches!(&e.item, Item::Directive(Directive::Globl(n)) if n == name))
        .ok_or_else(|| anyhow!("kernel `{name}`: no code in the compiled program"))?;
    let end = program.items[start + 1..]
        .iter()
        .position(is_globl)
        .map_or(program.items.len(), |p| start + 1 + p);
    let mut one = Program::new(program.target, program.wave);
    one.push(Item::Directive(Directive::Text));
    one.items.extend(program.items[start..end].iter().cloned());
    one.validate()
        .map_err(|e| anyhow!("kernel `{name}`: {e}"))?;
    encode(&one).map_err(|e| anyhow!("kernel `{name}`: {e}"))
}

fn build_ir(a: &BuildArgs) -> Result<Vec<u8>> {
    let path = &a.file;
    let device = Device::from_name(&a.abi.device).context("--device")?;
    if device.generation != Generation::Gcn12 {
        bail!(
            "--device {}: {} is {}; the code generator's catalyst entry targets GCN 1.2 \
             (gfx8) only: {}",
            a.abi.device,
            device.name,
            device.generation.name(),
            gcn12_devices()
        );
    }
    if a.abi.bits == Some(Bits::B32) {
        bail!("--bits 32: the code generator lays kernels out for 64-bit binaries");
    }
    if a.source.is_some() {
        bail!("--source: a .gsir module gives its kernels' signatures itself");
    }
    let abi = AbiArgs {
        bits: Some(Bits::B64),
        ..a.abi.clone()
    };
    let wanted = options(&abi, Vec3Policy::Amd, NotesPolicy::Amd)?;
    if wanted != options(&target_only(&abi)?, Vec3Policy::Amd, NotesPolicy::Amd)? {
        bail!(
            "{}: the code generator chooses a .gsir kernel's layout; of the layout flags \
             only --device, --driver and --bits apply",
            path.display()
        );
    }
    let (module, source) = super::ir::load_with_source(path)?;
    let mut copts = gpuabi_codegen::Options::new(Target::Gfx8);
    copts.entry = gpuabi_codegen::Entry::Catalyst;
    let compiled = super::compile::compile_module(
        &module,
        &copts,
        &gpuabi_codegen::CallOptions::default(),
        path,
        &source,
    )?;
    let names: Vec<&str> = compiled.kernels.iter().map(|k| k.name.as_str()).collect();
    let chosen: Vec<&gpuabi_codegen::Kernel> = match &a.kernel {
        Some(k) => vec![compiled
            .kernels
            .iter()
            .find(|c| &c.name == k)
            .ok_or_else(|| {
                anyhow!(
                    "--kernel {k}: {} has kernels {}",
                    path.display(),
                    names.join(", ")
                )
            })?],
        None => compiled.kernels.iter().collect(),
    };
    if chosen.is_empty() {
        bail!("{}: no kernels", path.display());
    }
    let count = chosen.len() as u32;
    let mut layouts = Vec::with_capacity(chosen.len());
    let mut codes = Vec::with_capacity(chosen.len());
    for (index, k) in chosen.iter().enumerate() {
        let KernelEntry::Catalyst(compiled_layout) = &k.entry else {
            bail!("kernel `{}`: not compiled with the catalyst entry", k.name);
        };
        let opts = Options {
            device: wanted.device,
            driver: wanted.driver,
            notes: NotesPolicy::Amd,
            vec3_64: Vec3Policy::Amd,
            program: ProgramPlace {
                index: index as u32,
                kernels: count,
            },
            ..compiled_layout.options.clone()
        };
        let l = layout(&kernel_of(compiled_layout), &opts)
            .with_context(|| format!("kernel `{}`", k.name))?;
        let differences = code_visible_differences(compiled_layout, &l);
        if !differences.is_empty() {
            bail!(
                "kernel `{}`: for --device {} --driver {} the layout moves the {} the code \
                 was compiled to read (it was laid out for {}, driver {})",
                k.name,
                a.abi.device,
                a.abi.driver,
                differences.join(", "),
                compiled_layout.device,
                compiled_layout.driver
            );
        }
        codes.push(kernel_code(&compiled.program, &k.name)?);
        layouts.push(l);
    }
    let kernels: Vec<KernelCode<'_>> = layouts
        .iter()
        .zip(&codes)
        .map(|(layout, code)| KernelCode { layout, code })
        .collect();
    write_binary(&kernels)
}
