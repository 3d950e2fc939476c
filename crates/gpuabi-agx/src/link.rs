//! The part linker: joins a prolog, a main shader and an epilog into one program as Mesa's
//! fast linker (`agx_fast_link` in `src/asahi/lib/agx_linker.c`) does: the parts' code
//! concatenated as it is, with no padding or relocation, and, when shading per sample, the
//! sample loop around the main shader and epilog, which the linker ends with its own `stop`
//! and 8 `trap`.
//!
//! Without sample shading the linker adds nothing: the part that ends the program brings
//! its `stop`, and the 8 `trap` that `agx_pack_binary` in Mesa's
//! `src/asahi/compiler/agx_pack.c` puts after every `stop` that ends a compiled part.
//! Honeykrisp compiles that part (the vertex main shader; the fragment epilog unless
//! samples are shaded, `hk_get_fast_linked_locked_fs` in `src/asahi/vulkan/hk_cmd_draw.c`)
//! with its `stop`, and the others (prologs, fragment main shaders — `hk_compile_nir` in
//! `src/asahi/vulkan/hk_shader.c` —, the epilog inside a sample loop) without (`no_stop`). The linker checks these conventions on parts it can
//! decode and warns where a part breaks them; it links the bytes as given either way.
//!
//! Prologs and epilogs have no preamble; of a main shader only its main section is linked
//! (Mesa copies from the part's `main_offset`), and its preamble is bound beside the
//! program as it was compiled.

use serde::Serialize;
use thiserror::Error;

use gpuabi_agx_isa::decode;

use crate::abi::{is_valid_sample_count, FIN_SAMPLE_MASK, GPR_HALVES, NESTING_COUNTER};
use crate::encode::{EncodeError, ICond, Instr, Src};

/// What the linker needs to know about a part besides its code; also the same facts of the
/// linked program as a whole (see [`PartInfo::combine`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct PartInfo {
    /// GPRs the part uses, in 16-bit halves (Mesa's `nr_gprs`).
    pub gpr_halves: u16,
    /// Scratch bytes per thread.
    pub scratch_bytes: u32,
    /// Reads the tile buffer.
    pub reads_tib: bool,
    /// Writes the sample mask.
    pub writes_sample_mask: bool,
    /// Needs triangle merging disabled.
    pub disable_tri_merging: bool,
    /// Uses texel fetch.
    pub uses_txf: bool,
    /// Reads the draw's base parameters.
    pub uses_base_param: bool,
    /// Allows tag writes to be disabled.
    pub tag_write_disable: bool,
}

impl PartInfo {
    /// The facts of two parts run as one program: the larger GPR count and scratch size,
    /// each flag that either part sets, and tag-write disabling only if both allow it.
    pub fn combine(self, other: PartInfo) -> PartInfo {
        PartInfo {
            gpr_halves: self.gpr_halves.max(other.gpr_halves),
            scratch_bytes: self.scratch_bytes.max(other.scratch_bytes),
            reads_tib: self.reads_tib || other.reads_tib,
            writes_sample_mask: self.writes_sample_mask || other.writes_sample_mask,
            disable_tri_merging: self.disable_tri_merging || other.disable_tri_merging,
            uses_txf: self.uses_txf || other.uses_txf,
            uses_base_param: self.uses_base_param || other.uses_base_param,
            tag_write_disable: self.tag_write_disable && other.tag_write_disable,
        }
    }
}

/// A part that needs nothing; combining it with another part changes nothing.
impl Default for PartInfo {
    fn default() -> PartInfo {
        PartInfo {
            gpr_halves: 0,
            scratch_bytes: 0,
            reads_tib: false,
            writes_sample_mask: false,
            disable_tri_merging: false,
            uses_txf: false,
            uses_base_param: false,
            tag_write_disable: true,
        }
    }
}

/// One part: its code bytes (the main section as compiled, without the preamble; ending in
/// `stop` and its `trap`s when the part ends the program) and its facts.
#[derive(Debug, Clone, Copy)]
pub struct Part<'a> {
    /// The code.
    pub code: &'a [u8],
    /// Its facts.
    pub info: PartInfo,
}

/// The parts and the sample shading to link.
#[derive(Debug, Clone, Copy)]
pub struct LinkInput<'a> {
    /// Vertex or fragment prolog; runs once, outside any sample loop.
    pub prolog: Option<Part<'a>>,
    /// The main shader.
    pub main: Part<'a>,
    /// Fragment epilog.
    pub epilog: Option<Part<'a>>,
    /// Sample shading over this many samples (1, 2 or 4; Mesa's `nr_samples_shaded`);
    /// `None`: no sample shading (Mesa's 0).
    pub samples: Option<u8>,
}

/// Parts that cannot be linked.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum LinkError {
    /// A sample count AGX does not have.
    #[error("unsupported sample count {0}: AGX shades 1, 2 or 4 samples (the loop's count field is 4 bits)")]
    UnsupportedSampleCount(u8),
    /// A GPR count beyond the register file.
    #[error("{part}: {halves} GPR halves is more than the {GPR_HALVES} halves of r0..r127")]
    TooManyGprs {
        /// Which part.
        part: &'static str,
        /// The count given.
        halves: u16,
    },
    /// Code that is not a whole number of 16-bit units.
    #[error("{part}: {len} bytes is not a whole number of 2-byte instruction units")]
    OddSize {
        /// Which part.
        part: &'static str,
        /// Its size.
        len: usize,
    },
    /// The sample loop is too long for the jump's 32-bit offset.
    #[error("sample loop of {0} bytes is too long for jmp_exec_any's 32-bit offset")]
    LoopTooLong(usize),
    /// An instruction could not be encoded.
    #[error(transparent)]
    Encode(#[from] EncodeError),
}

/// A byte range of the linked program and where it came from.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Piece {
    /// What it is.
    pub name: String,
    /// Byte offset.
    pub offset: usize,
    /// Byte size.
    pub size: usize,
}

/// An instruction the linker wrote, with its offset and bytes.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Emitted {
    /// Byte offset in the program.
    pub offset: usize,
    /// Assembly text.
    pub text: String,
    /// The bytes, as hexadecimal pairs.
    pub bytes: String,
}

/// The fragment pass type the combined program needs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
pub enum PassType {
    /// Neither reads the tile buffer nor writes the sample mask.
    Opaque,
    /// Writes the sample mask only.
    PunchThrough,
    /// Reads the tile buffer only.
    Translucent,
    /// Reads the tile buffer and writes the sample mask.
    TranslucentPunchThrough,
}

/// The combined state of the linked program.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Combined {
    /// The parts' facts, combined by [`PartInfo::combine`].
    #[serde(flatten)]
    pub info: PartInfo,
    /// Fragment pass type.
    pub pass_type: PassType,
    /// Early depth testing is allowed (no part writes the sample mask).
    pub early_z: bool,
}

/// The linked program.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct LinkedProgram {
    /// The code.
    #[serde(skip)]
    pub code: Vec<u8>,
    /// Where each piece is.
    pub pieces: Vec<Piece>,
    /// The instructions the linker wrote itself.
    pub emitted: Vec<Emitted>,
    /// The combined state.
    pub combined: Combined,
    /// The sample loop's jump offset, if there is a loop.
    pub loop_jump_offset: Option<i32>,
    /// Broken soft invariants (the program is still produced).
    pub warnings: Vec<String>,
}

/// Sample-loop header: clear the nesting counter, start with sample bit 1.
pub const fn loop_header() -> [Instr; 2] {
    [
        Instr::MovImm {
            dst: NESTING_COUNTER.first_half,
            imm: 0,
        },
        Instr::MovImm {
            dst: FIN_SAMPLE_MASK.first_half,
            imm: 1,
        },
    ]
}

/// Offset of the `jmp_exec_any` inside the footer: after `iadd` (8) and `while_icmp` (6).
pub const FOOTER_JMP_OFFSET: i64 = 14;

/// Sample-loop footer for `samples` samples, jumping back over `loop_bytes` bytes.
pub fn loop_footer(samples: u8, loop_bytes: usize) -> Result<[Instr; 4], LinkError> {
    let mask = FIN_SAMPLE_MASK.first_half;
    let offset = i32::try_from(-(FOOTER_JMP_OFFSET + loop_bytes as i64))
        .map_err(|_| LinkError::LoopTooLong(loop_bytes))?;
    Ok([
        // Next sample bit.
        Instr::IAdd {
            dst: mask,
            a: Src::Imm(0),
            b: Src::Half(mask),
            shift: 1,
        },
        // Lanes continue while the bit is below 2^s − 1.
        Instr::WhileICmp {
            cond: ICond::Ult,
            a: Src::Half(mask),
            b: Src::Imm((1u8 << samples) - 1),
            n: 1,
        },
        Instr::JmpExecAny { offset },
        Instr::PopExec { n: 1 },
    ])
}

/// `trap`s after a `stop` that ends a program or part (Mesa's `agx_pack_binary`).
pub const TRAPS_AFTER_STOP: usize = 8;

/// How a part's code ends, if it decodes: with `stop` (and any `trap`s after it), or not.
fn ends_with_stop(code: &[u8]) -> Option<bool> {
    let program = decode(code).ok()?;
    let mut names = program.iter().rev().map(|(_, i)| i.opcode.name());
    Some(names.find(|n| *n != "trap") == Some("stop"))
}

/// Warnings for parts that break Mesa's `stop` conventions (see the module documentation).
fn stop_warnings(input: &LinkInput, parts: &[(&'static str, Part)]) -> Vec<String> {
    let mut out = Vec::new();
    let last = parts.last().map_or("main", |(n, _)| *n);
    for (name, part) in parts {
        let Some(stops) = ends_with_stop(part.code) else {
            continue;
        };
        let inside_loop = input.samples.is_some() && *name != "prolog";
        if stops && *name == "prolog" {
            out.push(
                "prolog ends with `stop`: the program ends before the main shader (Mesa compiles prologs without `stop`)".to_string(),
            );
        } else if stops && inside_loop {
            out.push(format!(
                "{name} ends with `stop` inside the sample loop: the program ends after the first sample (Mesa compiles the epilog without `stop` when samples are shaded; the loop's footer stops)"
            ));
        } else if stops && *name != last {
            out.push(format!(
                "{name} ends with `stop` but the {last} follows: the {last} never runs"
            ));
        } else if !stops && *name == last && input.samples.is_none() {
            out.push(format!(
                "{name} ends the program without `stop` (Mesa compiles the last part with `stop` and 8 `trap`; without sample shading the linker adds none)"
            ));
        }
    }
    out
}

struct Writer {
    code: Vec<u8>,
    pieces: Vec<Piece>,
    emitted: Vec<Emitted>,
}

impl Writer {
    fn part(&mut self, name: &str, code: &[u8]) {
        self.pieces.push(Piece {
            name: name.to_string(),
            offset: self.code.len(),
            size: code.len(),
        });
        self.code.extend_from_slice(code);
    }

    fn instrs(&mut self, name: &str, instrs: &[Instr]) -> Result<(), EncodeError> {
        let start = self.code.len();
        for i in instrs {
            let offset = self.code.len();
            i.encode_into(&mut self.code)?;
            self.emitted.push(Emitted {
                offset,
                text: i.to_string(),
                bytes: self.code[offset..]
                    .iter()
                    .map(|b| format!("{b:02x}"))
                    .collect::<Vec<_>>()
                    .join(" "),
            });
        }
        self.pieces.push(Piece {
            name: name.to_string(),
            offset: start,
            size: self.code.len() - start,
        });
        Ok(())
    }

    /// The `stop` and `trap`s that end a sample-shaded program.
    fn terminal(&mut self) -> Result<(), EncodeError> {
        let mut end = vec![Instr::Stop];
        end.extend([Instr::Trap; TRAPS_AFTER_STOP]);
        self.instrs("stop + 8 trap", &end)
    }
}

fn check_part(name: &'static str, part: &Part) -> Result<(), LinkError> {
    if part.info.gpr_halves > GPR_HALVES {
        return Err(LinkError::TooManyGprs {
            part: name,
            halves: part.info.gpr_halves,
        });
    }
    if !part.code.len().is_multiple_of(2) {
        return Err(LinkError::OddSize {
            part: name,
            len: part.code.len(),
        });
    }
    Ok(())
}

/// Links the parts.
pub fn link(input: &LinkInput) -> Result<LinkedProgram, LinkError> {
    if let Some(s) = input.samples {
        if !is_valid_sample_count(s) {
            return Err(LinkError::UnsupportedSampleCount(s));
        }
    }
    let parts: Vec<(&'static str, Part)> = [
        ("prolog", input.prolog),
        ("main", Some(input.main)),
        ("epilog", input.epilog),
    ]
    .into_iter()
    .filter_map(|(n, p)| p.map(|p| (n, p)))
    .collect();
    for (name, part) in &parts {
        check_part(name, part)?;
    }
    let mut warnings = stop_warnings(input, &parts);
    if let Some(prolog) = input.prolog {
        if prolog.info.gpr_halves > input.main.info.gpr_halves {
            warnings.push(format!(
                "prolog uses {} GPR halves, more than the main shader's {}: the combined program takes the prolog's count (the ABI expects the main shader's count to bound the program; this costs occupancy, not correctness)",
                prolog.info.gpr_halves, input.main.info.gpr_halves
            ));
        }
    }

    let mut w = Writer {
        code: Vec::new(),
        pieces: Vec::new(),
        emitted: Vec::new(),
    };
    if let Some(p) = input.prolog {
        w.part("prolog", p.code);
    }
    if input.samples.is_some() {
        w.instrs("sample loop header", &loop_header())?;
    }
    let loop_start = w.code.len();
    w.part("main", input.main.code);
    if let Some(e) = input.epilog {
        w.part("epilog", e.code);
    }
    let mut loop_jump_offset = None;
    if let Some(s) = input.samples {
        // One sample needs no loop: the header, then the program ends after it.
        if s > 1 {
            let footer = loop_footer(s, w.code.len() - loop_start)?;
            if let Instr::JmpExecAny { offset } = footer[2] {
                loop_jump_offset = Some(offset);
            }
            w.instrs("sample loop footer", &footer)?;
        }
        w.terminal()?;
    }

    let info = parts
        .iter()
        .map(|(_, p)| p.info)
        .fold(PartInfo::default(), PartInfo::combine);
    let pass_type = match (info.reads_tib, info.writes_sample_mask) {
        (true, true) => PassType::TranslucentPunchThrough,
        (true, false) => PassType::Translucent,
        (false, true) => PassType::PunchThrough,
        (false, false) => PassType::Opaque,
    };
    let combined = Combined {
        info,
        pass_type,
        early_z: !info.writes_sample_mask,
    };
    Ok(LinkedProgram {
        code: w.code,
        pieces: w.pieces,
        emitted: w.emitted,
        combined,
        loop_jump_offset,
        warnings,
    })
}
