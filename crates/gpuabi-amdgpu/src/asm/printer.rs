//! Prints a [`Program`] in LLVM AMDGPU syntax, spelled for its target.

use std::fmt::Write;

use crate::inst::Inst;
use crate::opcodes::Kind;
use crate::program::{Directive, Item, Program};
use crate::target::Target;

/// The encoding of an instruction that references no label, as the dwords of a listing.
fn listed(inst: &Inst, program: &Program) -> Option<String> {
    let nowhere = crate::program::Layout {
        offsets: Vec::new(),
        labels: std::collections::HashMap::new(),
        size: 0,
    };
    let code = crate::encode::encode_inst(inst, program.target, program.wave, 0, &nowhere).ok()?;
    let words: Vec<String> = code
        .chunks(4)
        .map(|c| {
            let mut w = [0u8; 4];
            w[..c.len()].copy_from_slice(c);
            format!("{:08x}", u32::from_le_bytes(w))
        })
        .collect();
    Some(words.join(" "))
}

/// The mnemonic and operands of one instruction (no indentation, no newline).
pub fn print_inst(inst: &Inst, target: Target) -> String {
    if let Some(y) = &inst.dual {
        return format!("{} :: {}", vopd_half(inst, target), vopd_half(y, target));
    }
    let info = inst.op.info();
    // The parser only builds instructions that exist on the program's target; code-built
    // ones fall back to the GCN spelling so that printing never fails.
    let name = info.name(target).unwrap_or(info.mnemonic);
    let mut out = String::from(name);
    if inst.e64 {
        out.push_str("_e64");
    }
    if inst.sdwa.is_some() {
        out.push_str("_sdwa");
    }
    let dsts = inst.dsts().len();
    for (i, op) in inst.operands.iter().enumerate() {
        out.push_str(if i == 0 { " " } else { ", " });
        // LLVM prints `neg(x)` as `-x` and `abs(x)` as `|x|`.
        let (neg, abs) = match i.checked_sub(dsts) {
            Some(s) if s < 8 => (
                inst.src_mods.neg >> s & 1 != 0,
                inst.src_mods.abs >> s & 1 != 0,
            ),
            _ => (false, false),
        };
        let sext = match (inst.sdwa, i.checked_sub(dsts)) {
            (Some(s), Some(0)) => s.src0_sext,
            (Some(s), Some(1)) => s.src1_sext,
            _ => false,
        };
        if sext {
            let _ = write!(out, "sext({op})");
            continue;
        }
        // RDNA 3's true16 operands name a 16-bit half of their VGPR.
        if op.is_vgpr() && matches!(inst.slots().nth(i), Some(Kind::VDstT16 | Kind::VSrcT16)) {
            let half = if inst.hi16 >> i & 1 != 0 { "h" } else { "l" };
            let _ = write!(out, "{op}.{half}");
            continue;
        }
        // A negated constant is `neg(1)`: `-1` would be another constant (LLVM's
        // AMDGPUInstPrinter writes `neg(` before an immediate).
        let constant = matches!(op, crate::operand::Operand::Imm(_));
        let _ = match (neg, abs) {
            (false, false) => write!(out, "{op}"),
            (true, false) if constant => write!(out, "neg({op})"),
            (true, false) => write!(out, "-{op}"),
            (false, true) => write!(out, "|{op}|"),
            (true, true) => write!(out, "-|{op}|"),
        };
    }
    if inst.src_mods.clamp {
        out.push_str(" clamp");
    }
    if inst.src_mods.omod != crate::output_mods::Omod::None {
        let _ = write!(out, " {}", inst.src_mods.omod.name());
    }
    if let Some(s) = inst.sdwa {
        // A compare has no destination selection.
        if info.format_on(target) != crate::opcodes::Format::Vopc {
            let _ = write!(
                out,
                " dst_sel:{} dst_unused:{}",
                s.dst_sel.name(),
                s.dst_unused.name()
            );
        }
        let _ = write!(out, " src0_sel:{}", s.src0_sel.name());
        let explicit_srcs = info.srcs.iter().filter(|k| **k != Kind::MaskSrc).count();
        if explicit_srcs > 1 {
            let _ = write!(out, " src1_sel:{}", s.src1_sel.name());
        }
    }
    let m = &inst.mods;
    if info.format == crate::opcodes::Format::Mimg {
        // LLVM's order: dmask (when not 0), then the flags.
        if m.dmask != 0 {
            let _ = write!(out, " dmask:{:#x}", m.dmask);
        }
        for (flag, text) in [
            (m.unorm, "unorm"),
            (m.glc, "glc"),
            (m.slc, "slc"),
            (m.r128, "r128"),
            (m.tfe, "tfe"),
            (m.lwe, "lwe"),
            (m.da, "da"),
        ] {
            if flag {
                let _ = write!(out, " {text}");
            }
        }
        return out;
    }
    if let Some(f) = m.format {
        let _ = write!(out, " {}", crate::asm::buffer_format::text(f));
    }
    for (flag, text) in [(m.offen, "offen"), (m.idxen, "idxen"), (m.addr64, "addr64")] {
        if flag {
            let _ = write!(out, " {text}");
        }
    }
    if m.offset != 0 {
        let _ = write!(out, " offset:{}", m.offset);
    }
    for (value, text) in [(m.offset0, "offset0"), (m.offset1, "offset1")] {
        if value != 0 {
            let _ = write!(out, " {text}:{value}");
        }
    }
    if target == Target::Gfx12 {
        // RDNA 4's cache policy, in LLVM's order: `th:`, then `scope:`.
        use crate::asm::cache_policy::{th_name, Access, SCOPES};
        let access = if info.atomic.is_some() {
            Access::Atomic
        } else if inst.op.is_store() {
            Access::Store
        } else {
            Access::Load
        };
        if let Some(name) = th_name(m.th, access, m.scope) {
            let _ = write!(out, " th:{name}");
        }
        if m.scope != 0 {
            let _ = write!(out, " scope:{}", SCOPES[usize::from(m.scope & 3)]);
        }
        return out;
    }
    for (flag, text) in [(m.glc, "glc"), (m.slc, "slc"), (m.dlc, "dlc")] {
        if flag {
            let _ = write!(out, " {text}");
        }
    }
    out
}

/// One half of a VOPD pair: `v_dual_` and the instruction's name without `v_`, its
/// operands without the implicit `vcc` of `v_dual_cndmask_b32`.
fn vopd_half(inst: &Inst, target: Target) -> String {
    let info = inst.op.info();
    let name = info.name(target).unwrap_or(info.mnemonic);
    let mut out = format!("v_dual_{}", name.strip_prefix("v_").unwrap_or(name));
    let mut first = true;
    for (kind, op) in info.slots().zip(&inst.operands) {
        if kind == Kind::MaskSrc {
            continue;
        }
        out.push_str(if first { " " } else { ", " });
        first = false;
        let _ = write!(out, "{op}");
    }
    out
}

/// The whole program as assembly text: labels at the left margin, everything else
/// indented by a tab.
pub fn print(program: &Program) -> String {
    print_with_lines(program).0
}

/// [`print`], with the line (0-based, in the text returned) where each item of the
/// program starts: what links an item, such as a call, to its place in the listing.
pub fn print_with_lines(program: &Program) -> (String, Vec<usize>) {
    let mut out = String::new();
    let mut lines = Vec::with_capacity(program.items.len());
    let mut line = 0;
    for item in &program.items {
        let before = out.len();
        print_item(&mut out, item, program);
        lines.push(line);
        line += out[before..].matches('\n').count();
    }
    (out, lines)
}

/// Appends one item of `program` to `out`, ending with a newline.
fn print_item(out: &mut String, line: &crate::program::Entry, program: &Program) {
    match &line.item {
        Item::Label(name) => {
            let _ = writeln!(out, "{name}:");
        }
        Item::Directive(Directive::Text) => out.push_str("\t.text\n"),
        Item::Directive(Directive::Globl(name)) => {
            let _ = writeln!(out, "\t.globl {name}");
        }
        Item::Directive(Directive::AmdgcnTarget(id)) => {
            let _ = writeln!(out, "\t.amdgcn_target \"{id}\"");
        }
        Item::Directive(Directive::P2align(n)) => {
            let _ = writeln!(out, "\t.p2align {n}");
        }
        Item::Directive(Directive::TypeFunction(name)) => {
            let _ = writeln!(out, "\t.type {name},@function");
        }
        Item::Directive(Directive::Size(name, size)) => {
            let _ = writeln!(out, "\t.size {name}, {size}");
        }
        Item::Directive(Directive::Section { name, rest }) => {
            // A name LLVM would not read bare (`.note.GNU-stack` has a `-`) is quoted.
            if name
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '_'))
            {
                let _ = writeln!(out, "\t.section {name}{rest}");
            } else {
                let _ = writeln!(out, "\t.section \"{name}\"{rest}");
            }
        }
        Item::Directive(Directive::P2alignFill { power, fill, word }) => {
            let l = if *word { "l" } else { "" };
            let _ = writeln!(out, "\t.p2align{l} {power}, {fill:#x}");
        }
        Item::Directive(Directive::Data { size, values }) => {
            let name = match size {
                1 => ".byte",
                2 => ".short",
                4 => ".long",
                _ => ".quad",
            };
            let list: Vec<String> = values.iter().map(|v| v.to_string()).collect();
            let _ = writeln!(out, "\t{name} {}", list.join(", "));
        }
        Item::Directive(Directive::Fill {
            repeat,
            size,
            value,
            zero,
        }) => {
            if *zero {
                let _ = writeln!(out, "\t.zero {repeat}");
            } else {
                let _ = writeln!(out, "\t.fill {repeat}, {size}, {value:#x}");
            }
        }
        Item::Directive(Directive::Verbatim(lines)) => {
            let mut lines = lines.iter();
            if let Some(first) = lines.next() {
                let _ = writeln!(out, "\t{first}");
            }
            for l in lines {
                let _ = writeln!(out, "{l}");
            }
        }
        Item::Inst(inst) if inst.dont_care != 0 => {
            // Bits the hardware ignores have no syntax: the instruction lists its
            // encoding, as Mesa's disassembly does, and the parser takes them from there.
            let text = print_inst(inst, program.target);
            let _ = match listed(inst, program) {
                Some(words) => writeln!(out, "\t{text:<59} ; {words}"),
                None => writeln!(out, "\t{text}"),
            };
        }
        Item::Inst(inst) => {
            let _ = writeln!(out, "\t{}", print_inst(inst, program.target));
        }
    }
}
