//! Text form of the machine IR, for tests and for reading what a pass did; [`super::parse`]
//! reads it back, and printing what it read gives the same text.
//!
//! ```text
//! function @name
//!   stack_bytes 16
//!   spill_slots vgpr_bytes 8 sgpr_dwords 2 reserved 1
//!   temp %s3 dwords 1 align 1 no_spill stack_pointer reg s32
//!   callee abi compute clobbered 16 16 preserved 16 16 max_params 48 48 scratch_params 0 ...
//!     param stack_pointer system s1 s32
//!   call 0 to helper origin 40..60 abi compute ...
//! BB0: kind entry; logical preds -; logical succs BB1; linear preds -; linear succs BB1
//!   s_mov_b32 %s5, 0x1234 | @12..40
//!   buffer_load_dword %v3, %v2, %s0, 0 | offen offset:4 cost:spill @12..40
//! ```
//!
//! The header lines give what the passes read besides the blocks: the frame's stack
//! arrays, the spill slots, every temp (its file by the name's letter `s`/`v`, size,
//! alignment, whether it may spill, whether it is the stack pointer, and its first register
//! once allocated),
//! the function's own call convention and those of its calls. A convention prints its ABI
//! (name, register block, parameter limit), its assignment (every parameter's name, kind,
//! register class and location, and the flags), the preserved registers and whether the
//! call is divergent or never returns; the assignment's warnings are not printed (no pass
//! reads them).
//!
//! Temps print as `%s12` (SGPR), `%v3` (VGPR), a dword slice as `%v3[1]` or `%s4[0:1]`;
//! blocks as `BB2`, with their kind and their logical and linear edges (`-` for none).
//! Instruction names are the target's mnemonics and ACO's names of the pseudo-instructions
//! (`p_phi`, `p_parallelcopy`, ...); after the operands and a `|` come the memory
//! modifiers, `e64`, the share of the call ABI (`cost:spill`) and the source span
//! (`@start..end`).

use std::fmt::Write;

use gpuabi_amdgpu::{MemMods, Target};
use gpuabi_layout::aco::{Location, ParamKind};
use gpuabi_layout::reg::{RegFile, RegSet};

use super::{AbiCost, Blocks, Function, MInst, MOp, Opnd, Pseudo, Slice};
use crate::call_abi::Convention;

/// Every pseudo-instruction with its text name.
pub const PSEUDO_NAMES: [(Pseudo, &str); 17] = [
    (Pseudo::ParallelCopy, "p_parallelcopy"),
    (Pseudo::Phi, "p_phi"),
    (Pseudo::LinearPhi, "p_linear_phi"),
    (Pseudo::LogicalStart, "p_logical_start"),
    (Pseudo::LogicalEnd, "p_logical_end"),
    (Pseudo::Spill, "p_spill"),
    (Pseudo::Reload, "p_reload"),
    (Pseudo::Branch, "p_branch"),
    (Pseudo::DivergentIf, "p_divergent_if"),
    (Pseudo::Break, "p_break"),
    (Pseudo::Continue, "p_continue"),
    (Pseudo::Return, "p_return"),
    (Pseudo::BranchExecz, "p_cbranch_execz"),
    (Pseudo::Call, "p_call"),
    (Pseudo::StoreArg, "p_store_arg"),
    (Pseudo::LoadArg, "p_load_arg"),
    (Pseudo::ReturnToCaller, "p_return_to_caller"),
];

/// The text name of a pseudo-instruction.
pub fn pseudo_name(p: Pseudo) -> &'static str {
    PSEUDO_NAMES
        .iter()
        .find(|(q, _)| *q == p)
        .map(|(_, n)| *n)
        .expect("every pseudo-instruction has a name")
}

/// The text name of an ABI cost kind (after `cost:`).
pub(super) const COST_NAMES: [(AbiCost, &str); 4] = [
    (AbiCost::CalleeSave, "callee_save"),
    (AbiCost::Copy, "copy"),
    (AbiCost::Linkage, "linkage"),
    (AbiCost::Spill, "spill"),
];

/// The flags of [`MemMods`] printed as a bare word, in print order.
pub(super) const MOD_FLAGS: [&str; 11] = [
    "offen", "idxen", "glc", "slc", "dlc", "addr64", "unorm", "da", "r128", "tfe", "lwe",
];

/// The flag of `m` named `name` (one of [`MOD_FLAGS`]).
pub(super) fn mod_flag<'m>(m: &'m mut MemMods, name: &str) -> Option<&'m mut bool> {
    Some(match name {
        "offen" => &mut m.offen,
        "idxen" => &mut m.idxen,
        "glc" => &mut m.glc,
        "slc" => &mut m.slc,
        "dlc" => &mut m.dlc,
        "addr64" => &mut m.addr64,
        "unorm" => &mut m.unorm,
        "da" => &mut m.da,
        "r128" => &mut m.r128,
        "tfe" => &mut m.tfe,
        "lwe" => &mut m.lwe,
        _ => return None,
    })
}

fn blocks_text(b: &Blocks) -> String {
    if b.is_empty() {
        return "-".to_string();
    }
    let v: Vec<String> = b.iter().map(|b| format!("BB{}", b.0)).collect();
    v.join(" ")
}

fn file_letter(file: RegFile) -> char {
    match file {
        RegFile::Sgpr => 's',
        RegFile::Vgpr => 'v',
    }
}

fn slice_text(f: &Function, s: Slice) -> String {
    // A temp the function does not have prints as an SGPR of one dword, so that an
    // invalid function still prints (the validator names the fault).
    let (file, dwords) = f
        .temps
        .get(s.temp.index())
        .map_or((RegFile::Sgpr, 1), |i| (i.file, i.dwords));
    let p = file_letter(file);
    if s.offset == 0 && s.dwords == dwords {
        format!("%{p}{}", s.temp.0)
    } else if s.dwords == 1 {
        format!("%{p}{}[{}]", s.temp.0, s.offset)
    } else {
        format!("%{p}{}[{}:{}]", s.temp.0, s.offset, s.offset + s.dwords - 1)
    }
}

fn opnd_text(f: &Function, o: &Opnd) -> String {
    match o {
        Opnd::Temp(s) => slice_text(f, *s),
        Opnd::Fixed(op) => op.to_string(),
        Opnd::Block(b) => format!("BB{}", b.0),
        Opnd::SpillVgpr(n) => format!("%spill_vgpr{n}"),
        Opnd::Undef => "undef".to_string(),
        Opnd::Addr { label, anchor } => format!("{label}-BB{}", anchor.0),
    }
}

fn regset_text(set: &RegSet) -> String {
    let mut runs = Vec::new();
    for file in [RegFile::Sgpr, RegFile::Vgpr] {
        runs.extend(
            set.runs_below(file, file.capacity())
                .iter()
                .map(|r| r.to_string()),
        );
    }
    if runs.is_empty() {
        "-".to_string()
    } else {
        runs.join(" ")
    }
}

pub(super) fn kind_name(k: ParamKind) -> &'static str {
    match k {
        ParamKind::System => "system",
        ParamKind::Radv => "radv",
        ParamKind::User => "user",
    }
}

/// The convention's words after its introducing line's own words, and its parameter lines.
fn convention_text(c: &Convention, indent: &str, out: &mut String) {
    let a = &c.abi;
    let b = &a.block;
    let _ = write!(
        out,
        "abi {} clobbered {} {} preserved {} {}",
        a.name, b.clobbered.sgpr, b.clobbered.vgpr, b.preserved.sgpr, b.preserved.vgpr
    );
    if b.clobbered_first {
        out.push_str(" clobbered_first");
    }
    if let Some(m) = a.max_param_demand {
        let _ = write!(out, " max_params {} {}", m.sgpr, m.vgpr);
    }
    let s = &c.assignment;
    let _ = write!(
        out,
        " scratch_params {} reg_params {} reg_discardable {} demand {} {}",
        s.scratch_param_size,
        s.reg_param_count,
        s.reg_discardable_param_count,
        s.demand.sgpr,
        s.demand.vgpr
    );
    if c.divergent_call {
        out.push_str(" divergent");
    }
    if c.noreturn {
        out.push_str(" noreturn");
    }
    if let Some(l) = c.llvm {
        let _ = write!(out, " llvm {l}");
    }
    if !c.returns.is_empty() {
        let _ = write!(out, " returns {}", c.returns.len());
        for r in &c.returns {
            match r {
                Some(r) => {
                    let _ = write!(out, " {r}");
                }
                None => out.push_str(" -"),
            }
        }
    }
    let _ = writeln!(out, " preserved_regs {}", regset_text(&c.preserved));
    for p in &s.params {
        let location = match p.location {
            Location::Reg(r) => r.to_string(),
            Location::Scratch { offset } => format!("scratch+{offset}"),
        };
        let _ = write!(
            out,
            "{indent}param {} {} {} {location}",
            p.name,
            kind_name(p.kind),
            p.class
        );
        for (set, word) in [
            (p.needs_explicit_preservation, "explicit"),
            (p.discardable, "discardable"),
            (p.is_return, "return"),
        ] {
            if set {
                let _ = write!(out, " {word}");
            }
        }
        out.push('\n');
    }
}

fn header(f: &Function, out: &mut String) {
    let _ = writeln!(out, "function @{}", f.name);
    let _ = writeln!(out, "  stack_bytes {}", f.stack_bytes);
    if let Some(s) = f.stack_pointer_slot {
        let _ = writeln!(out, "  stack_pointer_slot {s}");
    }
    if let Some(r) = f.stack_pointer_reg {
        let _ = writeln!(out, "  stack_pointer_reg {r}");
    }
    let s = &f.spill_slots;
    if *s != crate::spill::Slots::default() {
        let _ = writeln!(
            out,
            "  spill_slots vgpr_bytes {} sgpr_dwords {} reserved {}",
            s.vgpr_bytes, s.sgpr_dwords, s.reserved
        );
    }
    for (i, t) in f.temps.iter().enumerate() {
        let _ = write!(
            out,
            "  temp %{}{i} dwords {} align {}",
            file_letter(t.file),
            t.dwords,
            t.align
        );
        if t.no_spill {
            out.push_str(" no_spill");
        }
        if f.stack_pointer == Some(super::Temp(i as u32)) {
            out.push_str(" stack_pointer");
        }
        if let Some(Some(r)) = f.regs.get(i) {
            let range = gpuabi_layout::reg::RegRange::new(t.file, *r, u16::from(t.dwords));
            let _ = write!(out, " reg {range}");
        }
        out.push('\n');
    }
    if let Some(c) = &f.callee {
        out.push_str("  callee ");
        convention_text(&c.conv, "    ", out);
    }
    for (k, c) in f.calls.iter().enumerate() {
        let _ = write!(
            out,
            "  call {k} to {} origin {}..{} ",
            c.callee, c.origin.start, c.origin.end
        );
        convention_text(&c.conv, "    ", out);
    }
}

/// The instruction's line, without its indentation and newline.
pub fn inst_text(f: &Function, inst: &MInst, target: Target) -> String {
    let mut out = match inst.op {
        MOp::Hw(op) => op.info().name(target).unwrap_or("?").to_string(),
        MOp::DualY(op) => format!(":: {}", op.info().name(target).unwrap_or("?")),
        MOp::Pseudo(p) => pseudo_name(p).to_string(),
    };
    let ops: Vec<String> = inst.opnds.iter().map(|o| opnd_text(f, o)).collect();
    if !ops.is_empty() {
        out.push(' ');
        out.push_str(&ops.join(", "));
    }
    let mut attrs: Vec<String> = Vec::new();
    let mut m = inst.mods;
    for name in MOD_FLAGS {
        if *mod_flag(&mut m, name).expect("a flag") {
            attrs.push(name.to_string());
        }
    }
    let m = inst.mods;
    for (name, v, default) in [
        ("offset", i64::from(m.offset), 0),
        ("offset0", i64::from(m.offset0), 0),
        ("offset1", i64::from(m.offset1), 0),
        ("dmask", i64::from(m.dmask), 0),
        ("format", m.format.map_or(-1, i64::from), -1),
    ] {
        if v != default {
            attrs.push(format!("{name}:{v}"));
        }
    }
    if inst.e64 {
        attrs.push("e64".to_string());
    }
    if let Some((_, n)) = COST_NAMES.iter().find(|(c, _)| *c == inst.cost) {
        attrs.push(format!("cost:{n}"));
    }
    if inst.origin != super::Origin::default() {
        attrs.push(format!("@{}..{}", inst.origin.start, inst.origin.end));
    }
    if !attrs.is_empty() {
        out.push_str(" | ");
        out.push_str(&attrs.join(" "));
    }
    out
}

/// Prints a function: its header, then its blocks, one instruction a line.
pub fn print_function(f: &Function, target: Target) -> String {
    let mut out = String::new();
    header(f, &mut out);
    for (i, b) in f.blocks.iter().enumerate() {
        let kinds: Vec<&str> = super::BlockKind::NAMES
            .iter()
            .enumerate()
            .filter(|(k, _)| b.kind.0 & (1 << k) != 0)
            .map(|(_, n)| *n)
            .collect();
        let _ = writeln!(
            out,
            "BB{i}: kind {}; logical preds {}; logical succs {}; linear preds {}; linear succs {}",
            if kinds.is_empty() {
                "-".to_string()
            } else {
                kinds.join(" ")
            },
            blocks_text(&b.logical_preds),
            blocks_text(&b.logical_succs),
            blocks_text(&b.linear_preds),
            blocks_text(&b.linear_succs),
        );
        for inst in &b.insts {
            let _ = writeln!(out, "  {}", inst_text(f, inst, target));
        }
    }
    out
}
