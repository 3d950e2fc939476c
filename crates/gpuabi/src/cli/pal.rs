//! PAL compute shaders on the command line: `sim run FILE.s|FILE.o --kernel NAME` runs an
//! `amdgpu_cs` shader that llc-19 compiled for `amdgcn-amd-amdpal`, dispatched from its
//! own PAL metadata by `gpuabi_sim::pal`.
//!
//! PAL metadata names no arguments, so user data is bound by register:
//! - `--buffer sN=SIZE[:FILE]` (or `--buffer s[N:N+3]=…`, or `=u32:V,…`) creates a buffer
//!   named as written and puts an untyped buffer resource descriptor (V#) covering it in
//!   s[N:N+3];
//! - `--arg sN=V[,V…]` writes one dword per value from sN on (integers decimal or `0x` hex,
//!   negative ones in two's complement; other numbers as f32), `--arg s[N:M]=…` the same
//!   with the count checked;
//! - `--arg sN=@NAME` (or `NAME`, or `s[N:N+1]=…`) writes a buffer's 64-bit address into
//!   s[N:N+1], and `--arg s[N:N+3]=@NAME` a V# covering it.
//!
//! `--grid` and `--group` are as for HSA; `--offset` is refused, since a PAL compute
//! wave's initial state has no global offset. A shader whose metadata gives
//! `.threadgroup_dimensions` gets them as its default `--group`.

use anyhow::{anyhow, bail, Context, Result};
use gpuabi_amdgpu::asm::target_id::named_processor;
use gpuabi_amdgpu::code_object::{read_code_object, ELFOSABI_AMDGPU_PAL};
use gpuabi_amdgpu::pal::{has_pal_metadata, read_assembly, PalShader};
use gpuabi_amdgpu::Program;
use gpuabi_layout::reg::{RegFile, RegRange};
use gpuabi_sim::pal::{UserData, UserSgprs};
use gpuabi_sim::{Machine, Memory, WaveSetup};

use super::launch_flags;
use super::sim::RunArgs;

/// Whether `data` is a PAL code object: an ELF file for `EM_AMDGPU` (224) with OS ABI
/// `ELFOSABI_AMDGPU_PAL` (AMDGPUUsage, "Header").
pub fn is_pal_object(data: &[u8]) -> bool {
    data.starts_with(b"\x7fELF")
        && data.get(7) == Some(&ELFOSABI_AMDGPU_PAL)
        && data.get(18..20) == Some(&224u16.to_le_bytes()[..])
}

/// A PAL shader loaded for `sim run`: its code, the shader, and memory with the object's
/// data sections (empty for assembly).
pub struct PalLoaded {
    /// The code, relocated.
    pub program: Program,
    /// The compute stage of the metadata.
    pub shader: PalShader,
    /// Global memory with the data sections and GOT of an object.
    pub memory: Memory,
}

/// `--kernel`, if given, must name the compute stage's entry point.
fn check_kernel(args: &RunArgs, shader: &PalShader) -> Result<()> {
    match &args.kernel {
        Some(k) if *k != shader.entry => bail!(
            "--kernel {k}: {}'s PAL compute shader is `{}`",
            args.file.display(),
            shader.entry
        ),
        _ => Ok(()),
    }
}

fn check_flags(args: &RunArgs) -> Result<()> {
    let path = args.file.display();
    if args.catalyst.is_some() {
        bail!("--catalyst: {path} is a PAL shader, which carries its own ABI; drop --catalyst");
    }
    if !args.set.is_empty() || args.exec.is_some() {
        bail!("{path}: a PAL dispatch sets up the registers itself; bind user SGPRs with --arg and --buffer and drop --set and --exec");
    }
    Ok(())
}

/// The PAL shader of `sim run`, if the file is one: a PAL code object (`elf`), or
/// assembly with a `.amdgpu_pal_metadata` block run with `--kernel`.
pub fn load_for_run(args: &RunArgs, elf: Option<&[u8]>) -> Result<Option<PalLoaded>> {
    let path = args.file.display();
    if let Some(data) = elf {
        if !is_pal_object(data) {
            return Ok(None);
        }
        check_flags(args)?;
        let object = read_code_object(data).map_err(|e| anyhow!("{path}: {e}"))?;
        let Some(shader) = object.pal.clone() else {
            bail!("internal: a PAL object without PAL metadata");
        };
        check_kernel(args, &shader)?;
        args.machine.target_of(&args.file, Some(object.processor))?;
        args.machine
            .wave_of(object.target, Some((shader.wave, "the PAL metadata")))?;
        let mut memory = Memory::new();
        let program =
            gpuabi_sim::code_object::load_code(&object, shader.wave, &mut memory, args.max_memory)
                .map_err(|e| anyhow!("{path}: {e}"))?;
        return Ok(Some(PalLoaded {
            program,
            shader,
            memory,
        }));
    }
    if args.kernel.is_none() || args.catalyst.is_some() {
        return Ok(None);
    }
    let text = super::read_text(&args.file).with_context(|| format!("cannot read {path}"))?;
    if !has_pal_metadata(&text) || text.contains(".amdhsa_kernel") {
        return Ok(None);
    }
    check_flags(args)?;
    let named = named_processor(&text).map_err(|e| anyhow!("{path}:{e}"))?;
    let target = args.machine.target_of(&args.file, named)?;
    let shader = read_assembly(&text, target).map_err(|e| anyhow!("{path}: {e}"))?;
    check_kernel(args, &shader)?;
    args.machine
        .wave_of(target, Some((shader.wave, "the PAL metadata")))?;
    let program =
        gpuabi_amdgpu::asm::parse(&text, target, shader.wave).map_err(|e| anyhow!("{path}:{e}"))?;
    Ok(Some(PalLoaded {
        program,
        shader,
        memory: Memory::new(),
    }))
}

/// An SGPR or SGPR range of a binding's name; `None` when the name is not a register.
fn sgprs(name: &str, flag: &str) -> Result<Option<RegRange>> {
    let looks_like_register = name.starts_with('s')
        && name[1..]
            .chars()
            .next()
            .is_some_and(|c| c.is_ascii_digit() || c == '[');
    if !looks_like_register {
        return Ok(None);
    }
    let range = name
        .parse::<RegRange>()
        .map_err(|e| anyhow!("{flag}: `{name}`: {e}"))?;
    if range.file() != RegFile::Sgpr {
        bail!("{flag}: PAL user data is in SGPRs, not {range}");
    }
    Ok(Some(range))
}

/// A value of `--arg sN=V[,V…]` as a dword: a 32-bit integer (negative in two's
/// complement) or, failing that, an f32.
fn dword(text: &str, flag: &str) -> Result<u32> {
    let t = text.trim();
    if let Some(n) = launch_flags::integer(t, 32) {
        return Ok(n as u32);
    }
    t.parse::<f32>().map(f32::to_bits).map_err(|_| {
        anyhow!("{flag}: `{t}` is not a 32-bit number (decimal or 0x hex, or a float), N[,N...] or a buffer")
    })
}

/// The user-data bindings of `--buffer sN=…` and `--arg sN=…`; the buffers must be in
/// `memory` already.
pub fn bindings(args: &RunArgs, memory: &Memory) -> Result<Vec<UserSgprs>> {
    let mut out = Vec::new();
    for spec in &args.launch.buffers {
        let flag = format!("--buffer {spec}");
        let b = launch_flags::buffer(spec)?;
        let Some(range) = sgprs(&b.name, &flag)? else {
            continue;
        };
        if range.count != 1 && range.count != 4 {
            bail!("{flag}: a buffer's V# fills 4 SGPRs: name it sN or s[N:N+3], not {range}");
        }
        out.push(UserSgprs {
            first: range.first.num,
            value: UserData::Resource(b.name),
            flag,
        });
    }
    for spec in &args.launch.args {
        let flag = format!("--arg {spec}");
        let a = launch_flags::arg(spec)?;
        let range = sgprs(&a.name, &flag)?.ok_or_else(|| {
            anyhow!(
                "{flag}: a PAL shader's metadata names no arguments; bind user SGPRs by \
                 register: sN=V[,V...], sN=@BUFFER (its address) or s[N:N+3]=@BUFFER (a V#)"
            )
        })?;
        let explicit = a.name.contains('[');
        let value = match a.buffer(|n| memory.find(n).is_some())? {
            Some((_, offset)) if offset != 0 => {
                bail!("{flag}: a PAL binding takes a whole buffer; NAME+OFFSET is for `run`")
            }
            Some((name, _)) => match (explicit, range.count) {
                (false, _) | (true, 2) => UserData::Address(name),
                (true, 4) => UserData::Resource(name),
                (true, n) => bail!(
                    "{flag}: a buffer fills 2 SGPRs (its address) or 4 (a V#), not the {n} of {range}"
                ),
            },
            None => {
                let words = a
                    .value
                    .split(',')
                    .map(|v| dword(v, &flag))
                    .collect::<Result<Vec<u32>>>()?;
                if explicit && words.len() != usize::from(range.count) {
                    bail!(
                        "{flag}: {range} holds {} dwords but {} values were given",
                        range.count,
                        words.len()
                    );
                }
                UserData::Dwords(words)
            }
        };
        out.push(UserSgprs {
            first: range.first.num,
            value,
            flag,
        });
    }
    Ok(out)
}

/// The waves of the PAL dispatch of `shader` per `--grid`, `--group` and the user-data
/// bindings.
pub fn setups(
    args: &RunArgs,
    shader: &PalShader,
    machine: &mut Machine,
    program: &Program,
) -> Result<Vec<WaveSetup>> {
    if args.launch.offset.is_some() {
        bail!("--offset: a PAL compute dispatch delivers no global offset to the shader");
    }
    let mut nd = super::sim::ndrange(args)?;
    if let (Some(dims), None) = (shader.threadgroup_dimensions, &args.launch.group) {
        // Dimensions beyond the grid's stay 1, and the dispatch names the mismatch.
        let used = nd.work_dim as usize;
        nd.local[..used].copy_from_slice(&dims[..used]);
    }
    let user = bindings(args, &machine.memory)?;
    let limits = machine.limits;
    gpuabi_sim::pal::dispatch(shader, program, &nd, &user, &mut machine.memory, &limits)
        .map_err(|e| anyhow!("{}: shader `{}`: {e}", args.file.display(), shader.entry))
}
