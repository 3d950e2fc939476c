//! RADV's code of a capture as one program at RADV's own addresses: the Raytracing prolog
//! and every function of the pipeline where RADV uploaded them, so that the addresses RADV
//! wrote into the shader group handles and the traversal address it passes the prolog find
//! the code, and each function's constant data where its code looks for it.

use std::path::{Path, PathBuf};

use gpuabi_amdgpu::asm::parse_listed;
use gpuabi_amdgpu::{encode, Program, Target, WaveSize};
use gpuabi_layout::aco::RtStage;

use crate::capture::{read, Capture};
use crate::error::RadvError;

/// One piece of code placed at its address.
#[derive(Debug, Clone)]
pub struct Placed {
    /// The label of its entry in the combined program (`raygen`, `rt_prolog`, `f03`).
    pub label: String,
    /// Its listing.
    pub file: PathBuf,
    /// The stage, for functions (the prolog has none).
    pub stage: Option<RtStage>,
    /// Its address.
    pub addr: u64,
    /// Bytes of its code.
    pub size: u64,
    /// Its constant data and where it lies.
    pub constant_data: Option<(u64, Vec<u8>)>,
    /// Line of the combined text where its code starts, and the line of its file there.
    lines: (u32, u32),
}

/// The combined program and where each piece lies.
#[derive(Debug, Clone)]
pub struct Code {
    /// The program, starting at `base`.
    pub program: Program,
    /// Its load address (the lowest piece's).
    pub base: u64,
    /// The pieces in address order.
    pub pieces: Vec<Placed>,
}

/// Bytes ACO writes after a function's code and before its constant data: five
/// `s_code_end` markers for the UMR disassembler (`aco_assembler.cpp`), which the listing
/// leaves out (a capture's constant data is found 20 bytes after its listed code, where its
/// `s_getpc_b64` + offset points).
pub const CODE_END_BYTES: u64 = 20;

impl Code {
    /// `file:line` of line `line` of the combined text (an instruction's origin).
    pub fn place_of(&self, line: u32) -> Option<String> {
        let p = self
            .pieces
            .iter()
            .filter(|p| p.lines.0 <= line)
            .max_by_key(|p| p.lines.0)?;
        Some(format!(
            "{}:{}",
            p.file.display(),
            line - p.lines.0 + p.lines.1
        ))
    }

    /// The piece holding `addr`.
    pub fn piece_at(&self, addr: u64) -> Option<&Placed> {
        self.pieces
            .iter()
            .find(|p| p.addr <= addr && addr < p.addr + p.size)
    }
}

/// The code of a listing: from `BB0:` up to ACO's `/* constant data */`, with the line
/// (1-based) where it starts; and the constant data's bytes.
fn split(text: &str) -> (&str, u32, Option<Vec<u8>>) {
    let start = text.find("BB0:").unwrap_or(0);
    let first_line = text[..start].matches('\n').count() as u32 + 1;
    let body = &text[start..];
    match body.find("\n/* constant data */") {
        None => (body, first_line, None),
        Some(i) => {
            let mut bytes = Vec::new();
            for line in body[i..].lines().skip(2) {
                let words = line.split_once(']').map_or(line, |(_, w)| w);
                for w in words.split_whitespace() {
                    if let Ok(v) = u32::from_str_radix(w, 16) {
                        bytes.extend_from_slice(&v.to_le_bytes());
                    }
                }
            }
            (&body[..i + 1], first_line, Some(bytes))
        }
    }
}

/// Prefixes every `BBn` block label of ACO's text with `prefix`, so that the functions'
/// blocks stay apart in one program.
fn rename_blocks(code: &str, prefix: &str) -> String {
    let mut out = String::with_capacity(code.len() + code.len() / 8);
    let b = code.as_bytes();
    let mut i = 0;
    while i < b.len() {
        let boundary = i == 0 || !(b[i - 1].is_ascii_alphanumeric() || b[i - 1] == b'_');
        if boundary && b[i..].starts_with(b"BB") && b.get(i + 2).is_some_and(u8::is_ascii_digit) {
            out.push_str(prefix);
        }
        out.push(b[i] as char);
        i += 1;
    }
    out
}

fn u64_at(bytes: &[u8], at: usize) -> u64 {
    let mut b = [0u8; 8];
    b.copy_from_slice(&bytes[at..at + 8]);
    u64::from_le_bytes(b)
}

/// Assembles the prolog and the functions of `capture` at RADV's addresses.
pub fn assemble(capture: &Capture, target: Target, wave: WaveSize) -> Result<Code, RadvError> {
    let handles_file = capture.dir.join("handles.txt");
    let first = capture
        .handles
        .first()
        .ok_or_else(|| RadvError::format(&handles_file, 0, "no group"))?;
    // Addresses as 48-bit GPU addresses (RADV writes them sign-extended).
    let hi = u64_at(first, 0) & 0xffff_0000_0000;
    // RADV uploads the recursive functions in executable order; their handles hold the
    // addresses (`radv_pipeline_group_handle`).
    let mut addrs: Vec<u64> = capture
        .handles
        .iter()
        .flat_map(|h| [u64_at(h, 0), u64_at(h, 8)])
        .filter(|a| *a != 0)
        .map(|a| a & 0xffff_ffff_ffff)
        .collect();
    addrs.sort_unstable();
    addrs.dedup();
    let recursive: Vec<_> = capture
        .functions
        .iter()
        .filter(|f| f.stage != RtStage::Traversal)
        .collect();
    if recursive.len() != addrs.len() {
        return Err(RadvError::Unsupported(format!(
            "{}: {} functions but {} distinct addresses in the handles",
            handles_file.display(),
            recursive.len(),
            addrs.len()
        )));
    }
    let ib = capture.dir.join("trace_rays_ib.txt");
    let mut wanted: Vec<(String, PathBuf, Option<RtStage>, u64)> = recursive
        .iter()
        .zip(&addrs)
        .map(|(f, a)| {
            (
                format!("f{:02}_{}", f.index, f.name.replace(' ', "_")),
                f.assembly.clone(),
                Some(f.stage),
                *a,
            )
        })
        .collect();
    if let Some(t) = capture
        .functions
        .iter()
        .find(|f| f.stage == RtStage::Traversal)
    {
        // The traversal function's address: user SGPR 5 of the prolog, the low half of a
        // pointer whose high half is RADV's 32-bit address space (`traversal_shader_addr`
        // in `radv_build_rt_prolog`).
        let lo = capture.dispatch.user_data(5);
        wanted.push((
            format!("f{:02}_traversal", t.index),
            t.assembly.clone(),
            Some(RtStage::Traversal),
            hi | u64::from(lo),
        ));
    }
    let pgm_lo = capture.dispatch.reg(&ib, "COMPUTE_PGM_LO")?;
    wanted.push((
        "rt_prolog".to_string(),
        capture.prolog.clone(),
        None,
        hi | u64::from(pgm_lo) << 8,
    ));
    wanted.sort_by_key(|w| w.3);
    let base = wanted[0].3;
    let mut text = String::new();
    let mut line = 1u32;
    let mut at = base;
    let mut pieces = Vec::new();
    for (label, file, stage, addr) in wanted {
        let listing = read(&file)?;
        let (code, first_line, data) = split(&listing);
        let alone = parse_listed(code, target, wave).map_err(|e| RadvError::Assembly {
            path: file.clone(),
            message: format!("line {}: {}", e.line as u32 + first_line - 1, e.message),
        })?;
        let size = encode(&alone.0)
            .map_err(|e| RadvError::Assembly {
                path: file.clone(),
                message: e.to_string(),
            })?
            .len() as u64;
        if addr < at || !(addr - at).is_multiple_of(4) {
            return Err(RadvError::Unsupported(format!(
                "{}: code at 0x{addr:x} overlaps the code before it (which ends at 0x{at:x})",
                file.display()
            )));
        }
        while at < addr {
            text.push_str("\ts_nop 0\n");
            line += 1;
            at += 4;
        }
        text.push_str(&format!(".globl {label}\n{label}:\n"));
        line += 2;
        let start_line = line;
        let renamed = rename_blocks(code, &format!("{label}_"));
        line += renamed.lines().count() as u32;
        text.push_str(&renamed);
        if !text.ends_with('\n') {
            text.push('\n');
        }
        at += size;
        let constant_data = data.map(|d| (addr + size + CODE_END_BYTES, d));
        pieces.push(Placed {
            label,
            file,
            stage,
            addr,
            size,
            constant_data,
            lines: (start_line, first_line),
        });
    }
    let (program, _) = parse_listed(&text, target, wave).map_err(|e| RadvError::Assembly {
        path: Path::new("(the pipeline's functions together)").to_path_buf(),
        message: e.to_string(),
    })?;
    Ok(Code {
        program,
        base,
        pieces,
    })
}
