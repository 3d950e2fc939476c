//! A program decoded once for execution: operands resolved to register indices and
//! constant values, labels to instruction indices, every instruction at its byte address.

use std::collections::HashMap;

use gpuabi_amdgpu::asm::printer::print_inst;
use gpuabi_amdgpu::opcodes::Kind;
use gpuabi_amdgpu::program::{Directive, Item};
use gpuabi_amdgpu::{
    encoding, Class, DstUnused, Inst, MemMods, Opcode, Operand, Origin, Program, Sdwa, SdwaSel,
    Special, SrcMods, Target, WaveSize,
};

use crate::error::SimError;
use crate::segments::{Segment, Symbols};
use gpuabi_layout::reg::RegFile;

/// Byte address the program is loaded at (so `s_getpc_b64` returns plausible addresses and
/// address 0 is never code: a PC of 0 means "no function" in the call ABIs).
pub const CODE_BASE: u64 = 0x10_0000;

/// A decoded source operand.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Src {
    /// Absent (`off`, or no such slot).
    None,
    /// A VGPR (first of a tuple).
    Vgpr(u16),
    /// A scalar register in hardware numbering (first of a tuple; `vcc` = 106, `exec` = 126).
    Sgpr(u16),
    /// A constant, already widened for its slot (64-bit slots hold 64-bit values).
    Const(u64),
    /// `src_scc`: the scalar condition code as 0 or 1.
    Scc,
}

/// A decoded destination operand.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Dst {
    /// Absent.
    None,
    /// A VGPR (first of a tuple).
    Vgpr(u16),
    /// A scalar register in hardware numbering.
    Sgpr(u16),
    /// `null`: the write is dropped.
    Null,
}

/// One decoded instruction.
#[derive(Debug, Clone)]
pub struct Decoded {
    /// The instruction.
    pub op: Opcode,
    /// Its class.
    pub class: Class,
    /// Destinations in table order.
    pub dst: [Dst; 2],
    /// Sources in table order.
    pub src: [Src; 4],
    /// Memory modifiers.
    pub mods: MemMods,
    /// f32 source modifiers.
    pub src_mods: SrcMods,
    /// Sub-dword source and destination selections: an SDWA instruction's, or for a
    /// 16-bit result ([`gpuabi_amdgpu::OpInfo::half_dst`]) a `WORD_0` destination whose
    /// high half GCN 1.2 zeroes and RDNA keeps.
    pub sdwa: Option<Sdwa>,
    /// The Y half of an RDNA 3 dual-issue instruction (`self` is the X half).
    pub dual: Option<Box<Decoded>>,
    /// Its byte address.
    pub addr: u64,
    /// Byte address of the next instruction.
    pub next_addr: u64,
    /// Instruction index a branch goes to.
    pub target: u32,
    /// Where it came from.
    pub origin: Origin,
}

/// A program ready to run.
#[derive(Debug, Clone)]
pub struct Image {
    /// Instructions in address order.
    pub insts: Vec<Decoded>,
    /// The printed text of each instruction (for traces and reports).
    pub texts: Vec<String>,
    /// The target.
    pub target: Target,
    /// The wave size.
    pub wave: WaveSize,
    /// Index in `Program::items` of each instruction, so that tables the code generator
    /// keys by item (call sites) find their instruction.
    items: Vec<u32>,
    index_of: HashMap<u64, u32>,
    labels: HashMap<String, u64>,
    /// Where functions start, in address order, with their names: the non-local labels of
    /// the code (see [`Image::function_at`]).
    functions: Functions,
    /// The program's data sections and global offset table, relocated, which
    /// [`crate::Machine::new`] adds to global memory.
    pub segments: Vec<Segment>,
    /// The VGPRs of each non-sequential address (RDNA's NSA form of image instructions),
    /// by instruction index, one entry a dword in address order.
    nsa: HashMap<u32, Box<[u16]>>,
}

fn src_of(operand: &Operand, kind: Kind, layout_eval: &dyn Fn(&Operand) -> Option<i64>) -> Src {
    match operand {
        Operand::Reg(r) if r.file() == RegFile::Vgpr => Src::Vgpr(r.first.num),
        Operand::Reg(r) => Src::Sgpr(r.first.num),
        Operand::Special(Special::Null) => Src::Const(0),
        Operand::Special(Special::Scc) => Src::Scc,
        Operand::Special(s) => Src::Sgpr(s.hw_index()),
        Operand::Imm(imm) if kind == Kind::VSrcBF16 => {
            Src::Const(u64::from(imm.value_bf16().unwrap_or(0)))
        }
        Operand::Imm(imm) if kind == Kind::VSrcPkF16 => {
            Src::Const(u64::from(imm.value_pk_f16().unwrap_or(0)))
        }
        Operand::Imm(imm) if kind == Kind::KImm16 => {
            Src::Const(u64::from(imm.value16().unwrap_or(0)))
        }
        // A 16-bit integer slot receives an inline float as its f32 bits (see
        // `Kind::VSrcI16`).
        Operand::Imm(imm @ gpuabi_amdgpu::Imm::Float(_))
            if matches!(kind, Kind::VSrcI16 | Kind::VSrcT16) =>
        {
            Src::Const(u64::from(imm.value32().unwrap_or(0)))
        }
        // A 16-bit slot receives the constant's 16 bits (an inline float as its f16 value).
        Operand::Imm(imm) if matches!(kind, Kind::VSrc16 | Kind::VSrcI16 | Kind::VSrcT16) => {
            Src::Const(u64::from(imm.value16().unwrap_or(0)))
        }
        // An f64 slot's literal is the f64's high dword.
        Operand::Imm(imm) if kind == Kind::VSrcF64 => Src::Const(imm.value_f64().unwrap_or(0)),
        Operand::Imm(imm) => {
            let wide = matches!(kind, Kind::SSrc(2) | Kind::VSrc(2));
            let v = if wide {
                imm.value64().unwrap_or(0)
            } else {
                u64::from(imm.value32().unwrap_or(0))
            };
            // s_movk_i32 sign-extends its 16-bit immediate.
            if kind == Kind::Simm16 {
                return Src::Const(u64::from(v as u16 as i16 as i32 as u32));
            }
            Src::Const(v)
        }
        Operand::Expr(_) => Src::Const(layout_eval(operand).unwrap_or(0) as u32 as u64),
        Operand::Waitcnt(w) => Src::Const(crate::waits::pack(w)),
        // An NSA address's registers are in the image's side table (`Image::nsa_vgprs`).
        Operand::Off | Operand::Nsa(_) => Src::None,
    }
}

/// The VGPRs of `inst`'s non-sequential address operand, each range dword by dword.
fn nsa_vgprs(inst: &Inst) -> Option<Box<[u16]>> {
    inst.operands.iter().find_map(|o| match o {
        Operand::Nsa(ranges) => Some(
            ranges
                .iter()
                .flat_map(|r| (0..r.count).map(move |k| r.first.num + k))
                .collect(),
        ),
        _ => None,
    })
}

/// The destinations and sources of `inst` and the label a branch names.
fn operands_of(
    inst: &Inst,
    target: Target,
    eval: &dyn Fn(&Operand) -> Option<i64>,
) -> ([Dst; 2], [Src; 4], Option<String>) {
    let info = inst.op.info();
    let mut dst = [Dst::None; 2];
    let dsts = inst.dsts().len();
    for (i, o) in inst.operands.iter().take(dsts).enumerate() {
        dst[i] = dst_of(o);
    }
    let mut src = [Src::None; 4];
    let mut label = None;
    for (i, (kind, o)) in info
        .srcs
        .iter()
        .zip(inst.operands.iter().skip(dsts))
        .enumerate()
    {
        src[i] = src_of(o, *kind, eval);
        // SMRD immediates count dwords on GCN 1.0/1.1 ("Southern Islands Series ISA",
        // SMRD: OFFSET is a dword offset when IMM = 1); an SGPR offset holds bytes.
        if let (Kind::SOffset, Src::Const(v), Target::Gfx6 | Target::Gfx7) = (kind, src[i], target)
        {
            src[i] = Src::Const(v * 4);
        }
        if *kind == Kind::Label {
            if let Operand::Expr(e) = o {
                label = Some(e.plus.clone());
            }
        }
    }
    (dst, src, label)
}

/// The sub-dword selections the simulator applies to `inst`: its SDWA selections, or for a
/// 16-bit result a `WORD_0` destination whose high half GCN 1.2 zeroes and RDNA keeps, or
/// for RDNA 3's true16 operands the halves they name (the other destination half kept).
fn sub_dword(inst: &Inst, target: Target) -> Option<Sdwa> {
    if inst.sdwa.is_some() {
        return inst.sdwa;
    }
    if inst.hi16 != 0 {
        let half = |i: usize| {
            if inst.hi16 >> i & 1 != 0 {
                SdwaSel::Word1
            } else {
                SdwaSel::Word0
            }
        };
        let dsts = inst.dsts().len();
        return Some(Sdwa {
            dst_sel: half(0),
            dst_unused: DstUnused::Preserve,
            src0_sel: half(dsts),
            src1_sel: half(dsts + 1),
            ..Sdwa::default()
        });
    }
    inst.op.info().half_dst.then(|| Sdwa {
        dst_sel: SdwaSel::Word0,
        dst_unused: if target.is_rdna() {
            DstUnused::Preserve
        } else {
            DstUnused::Pad
        },
        ..Sdwa::default()
    })
}

fn dst_of(operand: &Operand) -> Dst {
    match operand {
        Operand::Reg(r) if r.file() == RegFile::Vgpr => Dst::Vgpr(r.first.num),
        Operand::Reg(r) => Dst::Sgpr(r.first.num),
        Operand::Special(Special::Null) => Dst::Null,
        Operand::Special(s) => Dst::Sgpr(s.hw_index()),
        _ => Dst::None,
    }
}

impl Image {
    /// Decodes `program` loaded at [`CODE_BASE`], after checking it with
    /// [`Program::validate`] (so every label it uses exists).
    pub fn new(program: &Program) -> Result<Image, SimError> {
        Image::new_at(program, CODE_BASE)
    }

    /// Decodes `program` loaded at byte address `base` (4-byte aligned), as a driver placed
    /// it: code that finds its callees and its constant data through addresses the driver
    /// wrote into memory runs unchanged.
    pub fn new_at(program: &Program, base: u64) -> Result<Image, SimError> {
        program.validate()?;
        let layout = program.layout();
        if !base.is_multiple_of(4) || base.checked_add(u64::from(layout.size)).is_none() {
            return Err(SimError::Setup(format!(
                "code at 0x{base:x}: a program is loaded at a 4-byte aligned address with room for its {} bytes",
                layout.size
            )));
        }
        let mut labels: HashMap<String, u64> = layout
            .labels
            .iter()
            .map(|(k, v)| (k.clone(), base + u64::from(*v)))
            .collect();
        labels.shrink_to_fit();
        let symbols = Symbols::load(program, &labels)?;
        // Instruction index of every label: the first instruction at or after it.
        let mut insts = Vec::new();
        let mut texts = Vec::new();
        let mut index_of = HashMap::new();
        let mut items = Vec::new();
        let mut pending: Vec<(usize, String)> = Vec::new();
        let mut nsa = HashMap::new();
        for (item_index, (item, offset)) in program.items.iter().zip(&layout.offsets).enumerate() {
            let Item::Inst(inst) = &item.item else {
                continue;
            };
            items.push(item_index as u32);
            let info = inst.op.info();
            let addr = base + u64::from(*offset);
            let size = u64::from(encoding::size(inst, program.target, program.wave));
            // A relocated literal is the instruction's last dword (P of its relocation).
            let eval = |o: &Operand| match o {
                Operand::Expr(e) if e.reloc.is_some() => symbols
                    .relocated(e, addr + size - 4, &labels)
                    .map(i64::from),
                Operand::Expr(e) => layout.eval(e, base),
                _ => None,
            };
            let (dst, src, label) = operands_of(inst, program.target, &eval);
            if let Some(label) = label {
                pending.push((insts.len(), label));
            }
            let dual = inst.dual.as_ref().map(|y| {
                let (dst, src, _) = operands_of(y, program.target, &eval);
                Box::new(Decoded {
                    op: y.op,
                    class: y.op.info().class,
                    dst,
                    src,
                    mods: y.mods,
                    src_mods: y.src_mods,
                    sdwa: None,
                    dual: None,
                    addr,
                    next_addr: addr + size,
                    target: 0,
                    origin: item.origin.clone(),
                })
            });
            if let Some(regs) = nsa_vgprs(inst) {
                nsa.insert(insts.len() as u32, regs);
            }
            index_of.insert(addr, insts.len() as u32);
            insts.push(Decoded {
                op: inst.op,
                class: info.class,
                dst,
                src,
                mods: inst.mods,
                src_mods: inst.src_mods,
                sdwa: sub_dword(inst, program.target),
                dual,
                addr,
                next_addr: addr + size,
                target: 0,
                origin: item.origin.clone(),
            });
            texts.push(print_inst(inst, program.target));
        }
        let end = insts.len() as u32;
        let functions = function_starts(program, &labels, &index_of);
        let mut image = Image {
            insts,
            texts,
            target: program.target,
            wave: program.wave,
            items,
            index_of,
            labels,
            functions,
            segments: symbols.segments,
            nsa,
        };
        for (i, label) in pending {
            // Validation found every label; a missing one would be a bug here.
            let addr = image.labels.get(&label).copied().ok_or_else(|| {
                SimError::Invalid(gpuabi_amdgpu::ProgramError {
                    origin: image.insts[i].origin.clone(),
                    message: format!("label `{label}` is not defined in the program"),
                })
            })?;
            image.insts[i].target = image.index_at_or_after(addr).unwrap_or(end);
        }
        Ok(image)
    }

    fn index_at_or_after(&self, addr: u64) -> Option<u32> {
        // Instructions are in address order.
        let i = self.insts.partition_point(|d| d.addr < addr);
        (i < self.insts.len()).then_some(i as u32)
    }

    /// Index of the instruction that starts at byte address `addr`.
    pub fn index_at(&self, addr: u64) -> Option<u32> {
        self.index_of.get(&addr).copied()
    }

    /// The VGPRs of the non-sequential address of instruction `inst` (an index into
    /// [`Image::insts`]), one a dword in address order; `None` for an instruction without
    /// one.
    pub fn nsa_vgprs(&self, inst: u32) -> Option<&[u16]> {
        self.nsa.get(&inst).map(|r| &**r)
    }

    /// Index in `Program::items` of instruction `inst` (an index into [`Image::insts`]).
    pub fn item_index(&self, inst: u32) -> Option<usize> {
        self.items.get(inst as usize).map(|&i| i as usize)
    }

    /// Byte address of `label`.
    pub fn label_addr(&self, label: &str) -> Option<u64> {
        self.labels.get(label).copied()
    }

    /// The label at byte address `addr`, if one names it (for reports): a function's own
    /// label rather than a local one that ends the function before it (llc's
    /// `.Lfunc_end0` shares its address with the next function), then the first by name.
    pub fn label_at(&self, addr: u64) -> Option<&str> {
        let mut best: Option<&str> = None;
        for (name, a) in &self.labels {
            let better = |b: &str| (is_local(name), name.as_str()) < (is_local(b), b);
            if *a == addr && best.is_none_or(better) {
                best = Some(name);
            }
        }
        best
    }

    /// The function that holds the code at `addr`, with its address: the last function
    /// label at or before it. Function labels are those the program declares (`.type
    /// NAME,@function`, `.globl NAME`); in a program that declares none, every label but
    /// the local `.L` ones (basic blocks, function ends), so that in code whose blocks
    /// have plain labels (Mesa's ACO prints `BB3:`) the block is named.
    pub fn function_at(&self, addr: u64) -> Option<(&str, u64)> {
        self.functions.at(addr)
    }

    /// Where the functions of the program start ([`Image::function_at`]).
    pub fn functions(&self) -> &Functions {
        &self.functions
    }

    /// `label (0x…)` or just the address.
    pub fn describe(&self, addr: u64) -> String {
        match self.label_at(addr) {
            Some(l) => format!("{l} (0x{addr:x})"),
            None => format!("0x{addr:x}"),
        }
    }
}

/// Where the functions of a program start, in address order, with their names (see
/// [`Image::function_at`]); shared with the contract checker, which names the function of
/// each violation.
#[derive(Debug, Clone, Default)]
pub struct Functions(std::sync::Arc<[(u64, String)]>);

impl Functions {
    /// The function that holds the code at `addr`, and its start.
    pub fn at(&self, addr: u64) -> Option<(&str, u64)> {
        let i = self.0.partition_point(|(a, _)| *a <= addr);
        let (start, name) = self.0.get(i.checked_sub(1)?)?;
        Some((name, *start))
    }

    /// The start of the first function after `addr`, if there is one.
    pub fn next_after(&self, addr: u64) -> Option<u64> {
        let i = self.0.partition_point(|(a, _)| *a <= addr);
        self.0.get(i).map(|(a, _)| *a)
    }
}

/// Whether an assembler keeps `label` to its file (`.L` prefix): a basic block or a
/// function's end, not a function.
fn is_local(label: &str) -> bool {
    label.starts_with(".L")
}

/// Where the program's functions start, by address, one name per address: its labels
/// declared functions (`.type NAME,@function`) or global (`.globl NAME`), as compilers
/// declare every function; in a program that declares none (hand-written code, code
/// decoded from an object's symbols) every non-local label at an instruction.
fn function_starts(
    program: &Program,
    labels: &HashMap<String, u64>,
    code: &HashMap<u64, u32>,
) -> Functions {
    let declared: std::collections::HashSet<&str> = program
        .items
        .iter()
        .filter_map(|e| match &e.item {
            Item::Directive(Directive::TypeFunction(n) | Directive::Globl(n)) => Some(n.as_str()),
            _ => None,
        })
        .collect();
    let mut starts: Vec<(u64, String)> = labels
        .iter()
        .filter(|(name, addr)| {
            code.contains_key(addr)
                && if declared.is_empty() {
                    !is_local(name)
                } else {
                    declared.contains(name.as_str())
                }
        })
        .map(|(name, addr)| (*addr, name.clone()))
        .collect();
    starts.sort();
    starts.dedup_by_key(|(a, _)| *a);
    Functions(starts.into())
}
