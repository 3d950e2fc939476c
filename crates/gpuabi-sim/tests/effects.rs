//! The instruction table's implicit effects against the simulator: every instruction of
//! every target and wave size runs on random operands and random state, and
//!
//! - SCC, VCC, EXEC and M0 change only where the row declares a write (`vcc`/`exec` are
//!   never chosen as explicit operands here, so every change is implicit);
//! - a row declaring an SCC write does change SCC on some input, and when it does not read
//!   SCC, its SCC result does not depend on the SCC it started with;
//! - a row that does not declare a read of SCC, VCC, EXEC or M0 ends in the same state
//!   (registers, memory, control flow) whatever that register held, and a row that declares
//!   the read ends differently for some input.
//!
//! Memory writes and control flow are checked the same way: only rows declaring a memory
//! write change memory, only branches and calls reach the label after the program's end (it
//! writes a marker to `s100`), and a terminating branch always does.

use gpuabi_amdgpu::operand::{Expr, Imm, Operand, Special, Waitcnt};
use gpuabi_amdgpu::program::Item;
use gpuabi_amdgpu::validate::{check_inst, check_operand};
use gpuabi_amdgpu::{
    Effects, Format, Inst, Kind, Opcode, Program, Target, WaveSize, MODELLED_TARGETS,
};
use gpuabi_layout::reg::{RegFile, RegRange};
use gpuabi_sim::memory::GLOBAL_BASE;
use gpuabi_sim::{Descriptor, Image, Machine, Wave};

const TRIALS: usize = 16;
const MARKER: usize = 100;
const BUFFER_BYTES: usize = 1 << 14;
/// The byte the buffer starts filled with.
const FILL: u8 = 0x5a;
/// Bytes of LDS: the highest address [`Role::Offset`] gives plus a 128-bit access.
const LDS_BYTES: usize = 64 * 64 + 16;
const VCC: usize = 106;
const M0: usize = 124;
const EXEC: usize = 126;

/// xorshift64*: a fixed-seed generator, so failures reproduce.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    /// From the high bits: the low bits of xorshift64* are its weakest (the lowest is the
    /// state's own), and one row's stream of SCC coin flips came up the same 16 times.
    fn below(&mut self, n: u64) -> u64 {
        (self.next() >> 32) % n
    }

    fn u32(&mut self) -> u32 {
        (self.next() >> 16) as u32
    }

    /// A register value: zero half of the time (so that 64-bit compares see equal pairs),
    /// else half of the time one of a few special values (small integers, 1.0, -0.0, -inf, a
    /// quiet NaN), so that compares see equal and unordered values.
    fn value(&mut self) -> u32 {
        const SPECIAL: [u32; 7] = [0, 1, 2, 0x3f80_0000, 0x8000_0000, 0xff80_0000, 0x7fc0_0000];
        if self.chance(2) {
            0
        } else if self.chance(2) {
            SPECIAL[self.below(7) as usize]
        } else {
            self.u32()
        }
    }

    fn chance(&mut self, one_in: u64) -> bool {
        self.below(one_in) == 0
    }
}

/// What an operand is, for the set-up that makes memory addresses valid.
#[derive(Clone, Copy)]
enum Role {
    Plain,
    /// An SGPR pair holding the buffer's address.
    Base,
    /// Four SGPRs holding a raw buffer descriptor of the buffer.
    Rsrc,
    /// A VGPR pair holding per-lane addresses in the buffer.
    AddrPair,
    /// A VGPR holding small per-lane byte offsets.
    Offset,
    /// An SGPR pair holding the address of the label `target`.
    CodeAddr,
    /// A register pair holding an f64: mostly 0, 1.0 or a quiet NaN, so that compares see
    /// equal and unordered values (random dwords rarely are equal or f64 NaNs).
    Float64,
}

fn sgprs(rng: &mut Rng, n: u16) -> Operand {
    let align = match n {
        1 => 1,
        2 => 2,
        _ => 4,
    };
    // s0-s95: below every target's special registers, and clear of the marker.
    let first = rng.below(u64::from(96 / align - n.div_ceil(align))) as u16 * align;
    Operand::Reg(RegRange::new(RegFile::Sgpr, first, n))
}

/// VGPRs the operands use (and the state compares): v0-v31, which keeps runs cheap.
const USED_VGPRS: usize = 32;

fn vgprs(rng: &mut Rng, n: u16) -> Operand {
    Operand::Reg(RegRange::new(
        RegFile::Vgpr,
        rng.below(USED_VGPRS as u64 + 1 - u64::from(n)) as u16,
        n,
    ))
}

fn constant(rng: &mut Rng) -> Operand {
    match rng.below(4) {
        0 => Operand::Imm(Imm::Int(rng.below(81) as i64 - 16)),
        1 => Operand::Imm(Imm::Float([0.5, -1.0, 2.0, 4.0][rng.below(4) as usize])),
        _ => Operand::Imm(Imm::Int(i64::from(rng.u32()))),
    }
}

fn operand(rng: &mut Rng, kind: Kind, wave: WaveSize, target: Target) -> (Operand, Role) {
    let plain = |o| (o, Role::Plain);
    let mask = u16::from(wave.mask_dwords());
    match kind {
        // `null` as a one-dword register source (RDNA: `s_waitcnt_vscnt null, 0x0`).
        Kind::SReg(1) if rng.chance(4) => plain(Operand::Special(Special::Null)),
        Kind::SReg(n) => (sgprs(rng, u16::from(n)), Role::CodeAddr),
        Kind::SDst(n) => plain(sgprs(rng, u16::from(n))),
        Kind::SSrc(n) => {
            if rng.chance(3) {
                plain(constant(rng))
            } else {
                plain(sgprs(rng, u16::from(n)))
            }
        }
        Kind::VDst(n) | Kind::VReg(n) => plain(vgprs(rng, u16::from(n))),
        // The low halves of RDNA 3's true16 operands (`Inst::hi16` stays 0).
        Kind::VDstT16 => plain(vgprs(rng, 1)),
        Kind::VSrcT16 => match rng.below(5) {
            0 => plain(sgprs(rng, 1)),
            1 => plain(Operand::Imm(Imm::Int(rng.below(0x10000) as i64))),
            _ => plain(vgprs(rng, 1)),
        },
        Kind::VSrc16 | Kind::VSrcI16 | Kind::VSrcPkF16 | Kind::VSrcBF16 => match rng.below(5) {
            0 => plain(sgprs(rng, 1)),
            1 => plain(Operand::Imm(Imm::Int(rng.below(0x10000) as i64))),
            _ => plain(vgprs(rng, 1)),
        },
        // A literal is the f64's high dword: a quiet NaN or 1.0 half of the time, so that
        // unordered compares see NaNs.
        Kind::VSrcF64 => match rng.below(5) {
            0 => (sgprs(rng, 2), Role::Float64),
            1 | 2 => {
                let high = match rng.below(4) {
                    0 | 1 => 0x7ff8_0000,
                    2 => 0x3ff0_0000,
                    _ => rng.u32(),
                };
                plain(Operand::Imm(Imm::Int(i64::from(high))))
            }
            _ => (vgprs(rng, 2), Role::Float64),
        },
        Kind::VSrc(n) => match rng.below(5) {
            0 => plain(sgprs(rng, u16::from(n))),
            1 => plain(constant(rng)),
            _ => plain(vgprs(rng, u16::from(n))),
        },
        Kind::MaskDst | Kind::MaskSrc => plain(sgprs(rng, mask)),
        Kind::Lane => {
            if rng.chance(2) {
                plain(Operand::Imm(Imm::Int(rng.below(32) as i64)))
            } else {
                plain(sgprs(rng, 1))
            }
        }
        Kind::Imm16 | Kind::Msg8 => plain(Operand::Imm(Imm::Int(rng.below(8) as i64))),
        Kind::KImm => plain(Operand::Imm(Imm::Int(i64::from(rng.u32())))),
        Kind::KImm16 => plain(Operand::Imm(Imm::Int(rng.below(0x10000) as i64))),
        Kind::Simm16 => plain(Operand::Imm(Imm::Int(rng.below(0x10000) as i64 - 0x8000))),
        Kind::Label => plain(Operand::Expr(Box::new(Expr::label("target")))),
        Kind::Waitcnt => plain(Operand::Waitcnt(Waitcnt {
            vmcnt: Some(0),
            ..Default::default()
        })),
        Kind::SBase(2) => (sgprs(rng, 2), Role::Base),
        Kind::SBase(_) | Kind::Rsrc => (sgprs(rng, 4), Role::Rsrc),
        Kind::SOffset => plain(Operand::Imm(Imm::Int(4 * rng.below(16) as i64))),
        // RDNA 4's SOFFSET takes no constant: `null` (0) there.
        Kind::BufSOffset if target == Target::Gfx12 => {
            plain(Operand::Special(gpuabi_amdgpu::Special::Null))
        }
        Kind::BufSOffset => plain(Operand::Imm(Imm::Int(4 * rng.below(4) as i64))),
        Kind::BufAddr | Kind::ScratchAddr => {
            if rng.chance(2) {
                plain(Operand::Off)
            } else {
                (vgprs(rng, 1), Role::Offset)
            }
        }
        Kind::GlobalAddr | Kind::FlatAddr => (vgprs(rng, 2), Role::AddrPair),
        Kind::GlobalSAddr | Kind::ScratchSAddr => plain(Operand::Off),
        Kind::ImageAddr(n) => plain(vgprs(rng, u16::from(n))),
        // Image rows are GCN 1.0/1.1's, which the modelled targets do not include.
        Kind::ImgData | Kind::ImgAddr => plain(vgprs(rng, 1)),
        Kind::ImgRsrc => plain(sgprs(rng, 8)),
        Kind::ImgSamp => plain(sgprs(rng, 4)),
    }
}

/// A random valid instance of `op` with the roles of its operands.
fn instance(rng: &mut Rng, op: Opcode, target: Target, wave: WaveSize) -> (Inst, Vec<Role>) {
    let info = op.info();
    for _ in 0..1000 {
        let mut inst = Inst::new(op, []);
        // Atomics run in both forms: returning (`glc`, with a destination) and not.
        inst.mods.glc = info.atomic.is_some() && rng.chance(2);
        let slots: Vec<Kind> = inst.slots().collect();
        let mut roles = Vec::new();
        let mut ok = true;
        for kind in slots {
            let (o, role) = operand(rng, kind, wave, target);
            ok &= check_operand(kind, &o, target, wave).is_ok();
            inst.operands.push(o);
            roles.push(role);
        }
        // `s_setreg_b32` writes only the hardware registers the model knows.
        if op == Opcode::SSetregB32 {
            let (_, id) = gpuabi_amdgpu::asm::HW_REGS[rng.below(2) as usize];
            inst.operands[0] = Operand::Imm(Imm::Int(id | 31 << 11));
        }
        // RDNA 4's barriers run on the work-group barrier alone (-1), the one the model has.
        if matches!(op, Opcode::SBarrierSignal | Opcode::SBarrierWait) {
            inst.operands[0] = Operand::Imm(Imm::Int(-1));
        }
        // LDS addresses land in the LDS the run gives the work-group.
        if info.format == Format::Ds {
            roles[info.dsts.len()] = Role::Offset;
        }
        if info.format == Format::Mubuf && !inst.operands.is_empty() {
            let vaddr = inst.dsts().len() + usize::from(op.is_store());
            inst.mods.offen = !matches!(inst.operands[vaddr], Operand::Off);
        }
        if ok && check_inst(&inst, target, wave).is_ok() {
            return (inst, roles);
        }
    }
    panic!("no valid random instance of {op:?} on {target} {wave}");
}

/// Everything the run leaves behind.
#[derive(Clone, PartialEq, Eq, Debug)]
struct State {
    sgpr: Vec<u32>,
    scc: bool,
    vgpr: Vec<u32>,
    memory: Vec<u8>,
    lds: Vec<u8>,
    scratch: Vec<Vec<u8>>,
}

impl State {
    fn of(w: &Wave, m: &Machine) -> State {
        State {
            sgpr: w.sgpr.to_vec(),
            scc: w.scc,
            vgpr: w.vgpr[..USED_VGPRS * 64].to_vec(),
            memory: m.memory.buffers()[0].data.clone(),
            lds: m.lds.clone(),
            scratch: w.scratch.clone(),
        }
    }

    /// The state with the register pair at `at` blanked (for comparing runs that started
    /// with different values there).
    fn without(&self, at: usize) -> State {
        let mut s = self.clone();
        s.sgpr[at] = 0;
        s.sgpr[at + 1] = 0;
        s
    }
}

struct Case {
    program: Program,
    roles: Vec<Role>,
    inst: Inst,
}

fn case(rng: &mut Rng, op: Opcode, target: Target, wave: WaveSize) -> Case {
    let (inst, roles) = instance(rng, op, target, wave);
    let mut program = Program::new(target, wave);
    program.push(Item::Inst(inst.clone()));
    program.push(Item::Inst(Inst::new(Opcode::SEndpgm, [])));
    program.push(Item::Label("target".into()));
    program.push(Item::Inst(Inst::new(
        Opcode::SMovkI32,
        [
            Operand::Reg(RegRange::new(RegFile::Sgpr, MARKER as u16, 1)),
            Operand::Imm(Imm::Int(0x1234)),
        ],
    )));
    program.push(Item::Inst(Inst::new(Opcode::SEndpgm, [])));
    Case {
        program,
        roles,
        inst,
    }
}

/// Random registers, then the address operands pointed into the buffer.
fn initial(rng: &mut Rng, c: &Case, wave: WaveSize, image: &Image) -> Wave {
    let mut w = Wave::new(wave);
    for s in w.sgpr.iter_mut() {
        *s = rng.value();
    }
    w.sgpr[MARKER] = 0;
    for v in w.vgpr[..USED_VGPRS * 64].iter_mut() {
        *v = rng.value();
    }
    w.scc = rng.chance(2);
    let exec = match rng.below(4) {
        0 => wave.full_mask(),
        _ => rng.next() & wave.full_mask(),
    };
    w.set_exec(exec);
    let lanes = wave.lanes() as usize;
    for (o, role) in c.inst.operands.iter().zip(&c.roles) {
        let Operand::Reg(r) = o else { continue };
        let first = r.first.num as usize;
        match role {
            Role::Plain => {}
            Role::Base => {
                w.sgpr[first] = GLOBAL_BASE as u32;
                w.sgpr[first + 1] = (GLOBAL_BASE >> 32) as u32;
            }
            Role::Rsrc => {
                let d = Descriptor {
                    base: GLOBAL_BASE,
                    stride: 0,
                    num_records: BUFFER_BYTES as u32,
                    swizzle: false,
                    add_tid: false,
                    index_stride: 8,
                    element_size: 4,
                }
                .encode();
                w.sgpr[first..first + 4].copy_from_slice(&d);
            }
            Role::CodeAddr => {
                let a = image.label_addr("target").expect("label");
                w.sgpr[first] = a as u32;
                w.sgpr[first + 1] = (a >> 32) as u32;
            }
            Role::AddrPair => {
                for l in 0..lanes {
                    let a = GLOBAL_BASE + 64 * l as u64 + 4 * rng.below(4);
                    w.set_v(first as u16, l, a as u32);
                    w.set_v(first as u16 + 1, l, (a >> 32) as u32);
                }
            }
            Role::Float64 => {
                // 0, 1.0 or a quiet NaN three times in four, else the random dwords.
                let pick = |rng: &mut Rng| match rng.below(4) {
                    0 => Some(0u64),
                    1 => Some(0x3ff0_0000_0000_0000),
                    2 => Some(0x7ff8_0000_0000_0000),
                    _ => None,
                };
                if r.file() == RegFile::Sgpr {
                    if let Some(v) = pick(rng) {
                        w.sgpr[first] = v as u32;
                        w.sgpr[first + 1] = (v >> 32) as u32;
                    }
                } else {
                    for l in 0..lanes {
                        if let Some(v) = pick(rng) {
                            w.set_v(first as u16, l, v as u32);
                            w.set_v(first as u16 + 1, l, (v >> 32) as u32);
                        }
                    }
                }
            }
            Role::Offset => {
                for l in 0..lanes {
                    w.set_v(first as u16, l, 64 * l as u32 + 4 * rng.below(4) as u32);
                }
            }
        }
    }
    w
}

fn run(c: &Case, image: &Image, start: &Wave) -> State {
    let mut m = Machine::new(image.clone());
    m.memory
        .add("buffer", vec![FILL; BUFFER_BYTES], 1 << 20)
        .expect("buffer");
    m.lds = vec![FILL; LDS_BYTES];
    let mut w = start.clone();
    w.pc = 0;
    m.run_wave(&mut w, 0, None)
        .unwrap_or_else(|e| panic!("{:?}: {e}", c.inst));
    State::of(&w, &m)
}

fn lane_mask_changed(a: &State, b: &State, at: usize, wave: WaveSize) -> bool {
    a.sgpr[at] != b.sgpr[at] || (wave == WaveSize::W64 && a.sgpr[at + 1] != b.sgpr[at + 1])
}

/// Tallies over the trials of one row on one target and wave size.
#[derive(Default)]
struct Seen {
    scc_changed: bool,
    depends: [bool; 4],
}

/// The implicit registers a row may read, with how to perturb them.
const INPUTS: [(Effects, &str); 4] = [
    (Effects::READ_SCC, "scc"),
    (Effects::READ_VCC, "vcc"),
    (Effects::READ_EXEC, "exec"),
    (Effects::READ_M0, "m0"),
];

fn perturb(rng: &mut Rng, w: &Wave, which: usize) -> Wave {
    let mut p = w.clone();
    match which {
        0 => p.scc = !p.scc,
        1 => {
            // Zero half of the time, so that vccz/vccnz see both outcomes.
            let zero = rng.chance(2);
            p.sgpr[VCC] = if zero { 0 } else { rng.u32() };
            p.sgpr[VCC + 1] = if zero { 0 } else { rng.u32() };
        }
        2 => {
            let e = if rng.chance(3) {
                0
            } else {
                rng.next() & w.size.full_mask()
            };
            p.set_exec(e);
        }
        // Small values half of the time: GCN3 bounds LDS addresses by M0.
        _ => {
            p.sgpr[M0] = if rng.chance(2) {
                rng.below(LDS_BYTES as u64) as u32
            } else {
                rng.u32()
            }
        }
    }
    p
}

fn check_row(rng: &mut Rng, op: Opcode, target: Target, wave: WaveSize) {
    let info = op.info();
    let fx = info.effects;
    let mut seen = Seen::default();
    for _ in 0..TRIALS {
        let c = case(rng, op, target, wave);
        let image = Image::new(&c.program).expect("valid program");
        let start = initial(rng, &c, wave, &image);
        let text = gpuabi_amdgpu::asm::printer::print_inst(&c.inst, target);
        let end = run(&c, &image, &start);
        if end.scc != start.scc {
            assert!(
                fx.contains(Effects::WRITE_SCC),
                "`{text}` on {target} {wave} changed SCC; its row does not declare a write"
            );
            seen.scc_changed = true;
        }
        let start_sgpr = start.sgpr.to_vec();
        let start_state = State {
            sgpr: start_sgpr,
            ..end.clone()
        };
        for (at, flag, name) in [
            (VCC, Effects::WRITE_VCC, "VCC"),
            (EXEC, Effects::WRITE_EXEC, "EXEC"),
        ] {
            if lane_mask_changed(&start_state, &end, at, wave) {
                assert!(
                    fx.contains(flag),
                    "`{text}` on {target} {wave} changed {name}; its row does not declare a write"
                );
            }
        }
        if end.sgpr[M0] != start.sgpr[M0] {
            assert!(
                fx.contains(Effects::WRITE_M0),
                "`{text}` on {target} {wave} changed M0; its row does not declare a write"
            );
        }
        let memory_changed = end.memory.iter().any(|b| *b != FILL)
            || end.lds.iter().any(|b| *b != FILL)
            || end.scratch.iter().zip(&start.scratch).any(|(a, b)| a != b);
        if memory_changed {
            assert!(
                fx.contains(Effects::MEM_WRITE),
                "`{text}` on {target} {wave} wrote memory; its row does not declare a write"
            );
        }
        // Control: only branches and calls reach the label, and a branch or call that is a
        // terminator always does.
        let jumped = end.sgpr[MARKER] != 0;
        if jumped {
            assert!(
                fx.intersects(Effects::BRANCH.union(Effects::CALL)),
                "`{text}` on {target} {wave} moved control; its row declares no branch or call"
            );
        } else {
            assert!(
                !(fx.contains(Effects::TERMINATOR)
                    && fx.intersects(Effects::BRANCH.union(Effects::CALL))),
                "`{text}` on {target} {wave} is a terminating branch but fell through"
            );
        }
        // Reads: the same run with one implicit input changed.
        for (which, (flag, name)) in INPUTS.iter().enumerate() {
            let other = perturb(rng, &start, which);
            let end2 = run(&c, &image, &other);
            let (a, b) = match which {
                0 => {
                    let mut a = end.clone();
                    let mut b = end2.clone();
                    if fx.contains(Effects::WRITE_SCC) && !fx.contains(Effects::READ_SCC) {
                        assert_eq!(
                            a.scc, b.scc,
                            "`{text}` on {target} {wave}: its SCC result depends on the SCC it \
                             started with, but its row does not declare a read"
                        );
                    }
                    if !fx.contains(Effects::WRITE_SCC) {
                        a.scc = false;
                        b.scc = false;
                    }
                    (a, b)
                }
                1 => (end.without(VCC), end2.without(VCC)),
                // An instruction that writes EXEC from the EXEC it read (`v_cmpx_*`) shows
                // the read in EXEC itself; for the others EXEC is the perturbed input.
                2 if fx.contains(Effects::WRITE_EXEC) => (end.clone(), end2.clone()),
                2 => (end.without(EXEC), end2.without(EXEC)),
                _ => (end.without(M0), end2.without(M0)),
            };
            // The perturbed register was blanked above, so any difference is in what the
            // instruction computed or where it went.
            if a != b {
                assert!(
                    fx.contains(*flag),
                    "`{text}` on {target} {wave} depends on {name}; its row does not declare \
                     a read"
                );
                seen.depends[which] = true;
            }
        }
    }
    if fx.contains(Effects::WRITE_SCC) {
        assert!(
            seen.scc_changed,
            "{op:?} on {target} {wave} declares an SCC write but never changed SCC in \
             {TRIALS} random runs"
        );
    }
    // DS rows declare the M0 read of GCN3's LDS limit, which RDNA does not have.
    let rdna_lds = op.info().format == Format::Ds && target.is_rdna();
    // `v_permlane64_b32` reads EXEC in wave64 and is no operation in wave32.
    let wave32_nop = op == Opcode::VPermlane64B32 && wave == WaveSize::W32;
    for (which, (flag, name)) in INPUTS.iter().enumerate() {
        if fx.contains(*flag)
            && !(rdna_lds && *flag == Effects::READ_M0)
            && !(wave32_nop && *flag == Effects::READ_EXEC)
        {
            assert!(
                seen.depends[which],
                "{op:?} on {target} {wave} declares a read of {name} but its result never \
                 depended on it in {TRIALS} random runs"
            );
        }
    }
}

#[test]
fn simulator_agrees_with_the_table_effects() {
    for (t, target) in MODELLED_TARGETS.into_iter().enumerate() {
        for wave in [WaveSize::W32, WaveSize::W64] {
            if !target.supports(wave) {
                continue;
            }
            for info in gpuabi_amdgpu::opcodes::TABLE {
                // `s_trap`, `s_sethalt` and `s_code_end` stop every run with
                // `SimError::Trap` (see sub_dword_and_dual.rs): there is no end state to
                // compare.
                if matches!(info.op, Opcode::STrap | Opcode::SSethalt | Opcode::SCodeEnd) {
                    continue;
                }
                // The ray-tracing instructions stop every run with `SimError::NotModelled`
                // (see aco_instructions.rs).
                if gpuabi_sim::not_modelled(info.op) {
                    continue;
                }
                if info.name(target).is_some() {
                    // One stream per row, so that rows added to the table leave the trials
                    // of the others as they were.
                    let row = (info.op as u64) << 16 | (t as u64) << 8 | u64::from(wave.lanes());
                    let mut rng = Rng(0x9e37_79b9_7f4a_7c15 ^ row.wrapping_mul(0x0100_0000_01b3));
                    rng.next();
                    check_row(&mut rng, info.op, target, wave);
                }
            }
        }
    }
}
