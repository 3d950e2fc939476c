//! Text form of the machine IR, for tests and for reading what a pass did.
//!
//! Temps print as `%s12` (SGPR), `%v3` (VGPR) with a dword slice as `%v3[1]` or
//! `%s4[0:1]`; blocks as `BB2`, with their kind and their logical and linear
//! predecessors. Instruction names are the target's mnemonics and ACO's names of the
//! pseudo-instructions (`p_phi`, `p_parallelcopy`, ...).

use std::fmt::Write;

use gpuabi_amdgpu::Target;
use gpuabi_layout::reg::RegFile;

use super::{Blocks, Function, MOp, Opnd, Pseudo, Slice};

/// The text name of a pseudo-instruction.
pub fn pseudo_name(p: Pseudo) -> &'static str {
    match p {
        Pseudo::ParallelCopy => "p_parallelcopy",
        Pseudo::Phi => "p_phi",
        Pseudo::LinearPhi => "p_linear_phi",
        Pseudo::LogicalStart => "p_logical_start",
        Pseudo::LogicalEnd => "p_logical_end",
        Pseudo::Spill => "p_spill",
        Pseudo::Reload => "p_reload",
        Pseudo::Branch => "p_branch",
        Pseudo::DivergentIf => "p_divergent_if",
        Pseudo::Break => "p_break",
        Pseudo::Continue => "p_continue",
        Pseudo::Return => "p_return",
        Pseudo::BranchExecz => "p_cbranch_execz",
        Pseudo::Call => "p_call",
        Pseudo::StoreArg => "p_store_arg",
        Pseudo::LoadArg => "p_load_arg",
        Pseudo::ReturnToCaller => "p_return_to_caller",
    }
}

fn blocks_text(b: &Blocks) -> String {
    let v: Vec<String> = b.iter().map(|b| format!("BB{}", b.0)).collect();
    v.join(" ")
}

fn slice_text(f: &Function, s: Slice) -> String {
    let info = f.info(s.temp);
    let p = match info.file {
        RegFile::Sgpr => 's',
        RegFile::Vgpr => 'v',
    };
    if s.offset == 0 && s.dwords == info.dwords {
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

/// Prints a function, one instruction a line.
pub fn print_function(f: &Function, target: Target) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "function {}:", f.name);
    for (i, b) in f.blocks.iter().enumerate() {
        let kinds: Vec<&str> = super::BlockKind::NAMES
            .iter()
            .enumerate()
            .filter(|(k, _)| b.kind.0 & (1 << k) != 0)
            .map(|(_, n)| *n)
            .collect();
        let _ = writeln!(
            out,
            "BB{i}: ; kind: {}; logical preds: {}; linear preds: {}",
            kinds.join(" "),
            blocks_text(&b.logical_preds),
            blocks_text(&b.linear_preds)
        );
        for inst in &b.insts {
            let name = match inst.op {
                MOp::Hw(op) => op.info().name(target).unwrap_or("?").to_string(),
                MOp::Pseudo(p) => pseudo_name(p).to_string(),
            };
            let ops: Vec<String> = inst.opnds.iter().map(|o| opnd_text(f, o)).collect();
            let _ = write!(out, "  {name} {}", ops.join(", "));
            if inst.mods.offen {
                out.push_str(" offen");
            }
            if inst.mods.offset != 0 {
                let _ = write!(out, " offset:{}", inst.mods.offset);
            }
            out.push('\n');
        }
    }
    out
}
