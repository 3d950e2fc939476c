//! Per-call-site contracts: each `s_swappc_b64` is checked against its own callee ABI,
//! stack pointer and scratch parameters; preserved VGPRs are compared in lanes inactive at
//! the call; stores into the caller's frame are caught (gfx1100 scratch and the gfx8
//! swizzled scratch buffer); violations found before a run stops with an error stay.
//! Every expected value is worked out by hand from the programs below.

use gpuabi_amdgpu::asm::parse;
use gpuabi_amdgpu::program::Item;
use gpuabi_amdgpu::{Opcode, Program, Target, WaveSize};
use gpuabi_layout::reg::{Reg, RegFile, RegRange, RegSet};
use gpuabi_sim::{
    Broken, CallSite, Contract, Descriptor, Image, LaneValues, Machine, SimError, WaveSetup,
};

const S32: RegRange = RegRange::new(RegFile::Sgpr, 32, 1);

fn program(text: &str, target: Target, wave: WaveSize) -> Program {
    parse(text, target, wave).unwrap_or_else(|e| panic!("{e}\n{text}"))
}

/// Index in `Program::items` of the `n`-th `s_swappc_b64` (from 0).
fn call_item(p: &Program, n: usize) -> usize {
    p.items
        .iter()
        .enumerate()
        .filter(|(_, e)| matches!(&e.item, Item::Inst(i) if i.op == Opcode::SSwappcB64))
        .nth(n)
        .map(|(i, _)| i)
        .expect("the program has that many calls")
}

/// The 1-based line of the only line containing `needle`.
fn line_of(text: &str, needle: &str) -> u32 {
    let lines: Vec<usize> = text
        .lines()
        .enumerate()
        .filter(|(_, l)| l.contains(needle))
        .map(|(i, _)| i + 1)
        .collect();
    assert_eq!(lines.len(), 1, "`{needle}` must be on exactly one line");
    lines[0] as u32
}

fn regs(list: &[Reg]) -> RegSet {
    let mut s = RegSet::new();
    for r in list {
        s.insert_range(RegRange::new(r.file, r.num, 1));
    }
    s
}

fn site(callee: &str, abi: &str, preserved: RegSet, sp: RegRange, params: u32) -> CallSite {
    CallSite {
        callee: callee.into(),
        abi: abi.into(),
        preserved,
        stack_pointer: Some(sp),
        scratch_param_bytes: params,
        scratch_resource: None,
    }
}

fn lane_ids() -> WaveSetup {
    WaveSetup {
        vgprs: vec![(0, LaneValues::LaneId(0))],
        ..Default::default()
    }
}

/// Runs `text` (gfx1100, wave32) with `contract`; the run must end with `s_endpgm`.
fn run(text: &str, contract: Contract, setup: WaveSetup) -> (Machine, gpuabi_sim::Wave) {
    let p = program(text, Target::Gfx1100, WaveSize::W32);
    let mut m = Machine::new(Image::new(&p).unwrap());
    m.contract = Some(contract);
    let w = m.run("main", &[setup]).unwrap().expect("one wave");
    (m, w)
}

fn register(b: &Broken) -> (&str, Option<u32>, u64, u64) {
    match b {
        Broken::Register {
            register,
            lane,
            before,
            after,
        } => (register.as_str(), *lane, *before, *after),
        other => panic!("not a register violation: {other:?}"),
    }
}

/// `(lane, address, floor, below)` of a caller-frame violation.
fn frame_write(b: &Broken) -> (u32, u64, u64, u64) {
    match b {
        Broken::CallerFrame {
            lane,
            address,
            floor,
            below,
            bytes,
        } => {
            assert_eq!(*bytes, 4);
            (*lane, *address, *floor, *below)
        }
        other => panic!("not a caller-frame violation: {other:?}"),
    }
}

/// Two calls whose callees have different ABIs: `f` preserves s10/v10 and clobbers
/// s11/v11, `g` the other way round.
const TWO_ABIS: &str = "main:
  s_getpc_b64 s[0:1]
pc:
  s_add_u32 s2, s0, f-pc
  s_addc_u32 s3, s1, 0
  s_add_u32 s4, s0, g-pc
  s_addc_u32 s5, s1, 0
  s_mov_b32 s10, 10
  s_mov_b32 s11, 11
  v_add_nc_u32 v10, 100, v0
  v_add_nc_u32 v11, 200, v0
  s_mov_b32 s32, 16
  s_swappc_b64 s[30:31], s[2:3]
  s_mov_b32 s33, 16
  s_swappc_b64 s[30:31], s[4:5]
  s_endpgm
f:
  scratch_store_b32 off, v10, s32
  s_mov_b32 s11, 1
  v_mov_b32 v11, 1
  v_mov_b32 v10, 2
  scratch_load_b32 v10, off, s32
  s_setpc_b64 s[30:31]
g:
  s_mov_b32 s10, 3
  v_mov_b32 v10, 3
  s_setpc_b64 s[30:31]
";

#[test]
fn each_call_is_checked_against_its_own_callee_abi() {
    let p = program(TWO_ABIS, Target::Gfx1100, WaveSize::W32);
    let sites = [
        (
            call_item(&p, 0),
            site("f", "abi-a", regs(&[Reg::sgpr(10), Reg::vgpr(10)]), S32, 0),
        ),
        (
            call_item(&p, 1),
            site(
                "g",
                "abi-b",
                regs(&[Reg::sgpr(11), Reg::vgpr(11)]),
                RegRange::new(RegFile::Sgpr, 33, 1),
                0,
            ),
        ),
    ];
    let (m, w) = run(TWO_ABIS, Contract::from_sites(sites), lane_ids());
    let c = m.contract.as_ref().unwrap();
    assert_eq!(c.violations, vec![]);
    assert_eq!(c.checked_returns, 2);
    assert_eq!(c.default_calls, 0);
    assert_eq!(c.site(call_item(&p, 1)).abi, "abi-b");
    // f restored v10 from its frame; g's clobbers stay, as its ABI allows.
    assert_eq!(w.v(10, 5), 3);
    assert_eq!((w.sgpr[10], w.sgpr[11]), (3, 1));

    // One contract preserving all four for every call sees each callee's clobbers.
    let all = regs(&[Reg::sgpr(10), Reg::sgpr(11), Reg::vgpr(10), Reg::vgpr(11)]);
    let (m, _) = run(TWO_ABIS, Contract::new("one", all, Some(S32)), lane_ids());
    let c = m.contract.as_ref().unwrap();
    assert_eq!(c.default_calls, 2);
    let got: Vec<_> = c.violations.iter().map(|v| register(&v.broken)).collect();
    let mut want = vec![("s11", None, 11, 1)];
    want.extend((0..32u64).map(|l| ("v11", Some(l as u32), 200 + l, 1)));
    want.push(("s10", None, 10, 3));
    want.extend((0..32u64).map(|l| ("v10", Some(l as u32), 100 + l, 3)));
    assert_eq!(got, want);
}

#[test]
fn a_skipped_sgpr_restore_is_caught() {
    // f saves s10 and s11 in lanes of v40, uses both, and restores only s11.
    let text = "main:
  s_getpc_b64 s[0:1]
pc:
  s_add_u32 s2, s0, f-pc
  s_addc_u32 s3, s1, 0
  s_mov_b32 s10, 10
  s_mov_b32 s11, 11
  s_mov_b32 s32, 0
  s_swappc_b64 s[30:31], s[2:3]
  s_endpgm
f:
  v_writelane_b32 v40, s10, 0
  v_writelane_b32 v40, s11, 1
  s_mov_b32 s10, 0x77
  s_mov_b32 s11, 0x88
  v_readlane_b32 s11, v40, 1
  s_setpc_b64 s[30:31] ; return
";
    let p = program(text, Target::Gfx1100, WaveSize::W32);
    let sites = [(
        call_item(&p, 0),
        site("f", "abi-s", regs(&[Reg::sgpr(10), Reg::sgpr(11)]), S32, 0),
    )];
    let (m, _) = run(text, Contract::from_sites(sites), WaveSetup::default());
    let v = m.violations();
    assert_eq!(v.len(), 1, "{v:#?}");
    assert_eq!(register(&v[0].broken), ("s10", None, 10, 0x77));
    assert_eq!(v[0].abi, "abi-s");
    assert!(v[0].callee.starts_with("f (0x"), "{}", v[0].callee);
    assert_eq!(v[0].call_origin.line(), Some(line_of(text, "s_swappc_b64")));
    assert_eq!(v[0].at_origin.line(), Some(line_of(text, "; return")));
}

#[test]
fn a_vgpr_restore_skipped_in_inactive_lanes_only_is_caught() {
    // The call runs lanes 0-7. f saves v10 in every lane (exec all ones), uses it as a
    // whole-wave temporary, and restores it under the caller's exec only: lanes 8-31
    // keep 7.
    let text = "main:
  s_getpc_b64 s[0:1]
pc:
  s_add_u32 s2, s0, f-pc
  s_addc_u32 s3, s1, 0
  v_add_nc_u32 v10, 100, v0
  s_mov_b32 s32, 0
  s_mov_b32 exec_lo, 0xff
  s_swappc_b64 s[30:31], s[2:3]
  s_mov_b32 exec_lo, -1
  s_endpgm
f:
  s_or_saveexec_b32 s20, -1
  scratch_store_b32 off, v10, s32
  v_mov_b32 v10, 7
  s_mov_b32 exec_lo, s20
  scratch_load_b32 v10, off, s32
  s_setpc_b64 s[30:31]
";
    let p = program(text, Target::Gfx1100, WaveSize::W32);
    let sites = [(
        call_item(&p, 0),
        site("f", "abi-v", regs(&[Reg::vgpr(10)]), S32, 0),
    )];
    let (m, w) = run(text, Contract::from_sites(sites), lane_ids());
    let got: Vec<_> = m.violations().iter().map(|v| register(&v.broken)).collect();
    let want: Vec<_> = (8..32u64)
        .map(|l| ("v10", Some(l as u32), 100 + l, 7))
        .collect();
    assert_eq!(got, want);
    assert_eq!(w.v(10, 7), 107, "the active lanes were restored");
}

#[test]
fn a_changed_stack_pointer_is_caught_in_the_sites_register() {
    let text = "main:
  s_getpc_b64 s[0:1]
pc:
  s_add_u32 s2, s0, f-pc
  s_addc_u32 s3, s1, 0
  s_mov_b32 s33, 64
  s_swappc_b64 s[30:31], s[2:3]
  s_endpgm
f:
  s_add_u32 s33, s33, 16
  s_setpc_b64 s[30:31]
";
    // The default names s32, which f leaves alone; the call's own site names s33.
    let (m, _) = run(
        text,
        Contract::new("default", RegSet::new(), Some(S32)),
        WaveSetup::default(),
    );
    assert_eq!(m.violations(), &[]);
    let p = program(text, Target::Gfx1100, WaveSize::W32);
    let s33 = RegRange::new(RegFile::Sgpr, 33, 1);
    let contract = Contract::new("default", RegSet::new(), Some(S32))
        .with_sites([(call_item(&p, 0), site("f", "abi-sp", RegSet::new(), s33, 0))]);
    let (m, _) = run(text, contract, WaveSetup::default());
    let got: Vec<_> = m.violations().iter().map(|v| register(&v.broken)).collect();
    assert_eq!(got, vec![("stack pointer s33", None, 64, 80)]);
}

/// The caller's stack pointer is 32 and its frame 32 bytes per lane; 8 bytes of scratch
/// parameters follow, so the callee's stack pointer is 72 and the floor 64. The caller
/// keeps 0x5a at 60, the last dword of its frame. Lanes 0 and 2 make the call.
fn frame_program(callee_body: &str) -> String {
    format!(
        "main:
  s_getpc_b64 s[0:1]
pc:
  s_add_u32 s2, s0, f-pc
  s_addc_u32 s3, s1, 0
  s_mov_b32 s32, 32
  v_mov_b32 v1, 0x5a
  scratch_store_b32 off, v1, s32 offset:28
  s_add_u32 s32, s32, 40
  s_mov_b32 exec_lo, 5
  s_swappc_b64 s[30:31], s[2:3]
  s_mov_b32 exec_lo, -1
  s_sub_u32 s32, s32, 40
  s_endpgm
f:
  v_mov_b32 v2, 0xbad
{callee_body}
  s_setpc_b64 s[30:31]
"
    )
}

fn frame_contract(text: &str, params: u32) -> Contract {
    let p = program(text, Target::Gfx1100, WaveSize::W32);
    Contract::from_sites([(
        call_item(&p, 0),
        site("f", "abi-f", RegSet::new(), S32, params),
    )])
}

fn scratch_dword(w: &gpuabi_sim::Wave, lane: usize, at: usize) -> u32 {
    u32::from_le_bytes(w.scratch[lane][at..at + 4].try_into().unwrap())
}

#[test]
fn a_store_into_the_callers_frame_is_caught() {
    let text = frame_program("  scratch_store_b32 off, v2, s32 offset:-12");
    let (m, w) = run(&text, frame_contract(&text, 8), WaveSetup::default());
    let v = m.violations();
    // 72 - 12 = 60, 4 bytes below the floor 64, in lanes 0 and 2.
    let got: Vec<_> = v.iter().map(|v| frame_write(&v.broken)).collect();
    assert_eq!(got, vec![(0, 60, 64, 4), (2, 60, 64, 4)]);
    assert_eq!(v[0].at_origin.line(), Some(line_of(&text, "offset:-12")));
    assert!(v[0].callee.starts_with("f (0x"));
    // The checker reports; the store still happened.
    assert_eq!(scratch_dword(&w, 0, 60), 0xbad);
    assert_eq!(scratch_dword(&w, 1, 60), 0x5a);
    let shown = v[0].to_string();
    assert!(
        shown.contains(
            "wrote its caller's frame: a 4-byte store in lane 0 at 0x3c, 4 bytes below the \
             floor 0x40, by 0x"
        ),
        "{shown}"
    );
}

#[test]
fn the_callee_may_write_its_scratch_parameters() {
    let text = frame_program(
        "  scratch_store_b32 off, v2, s32 offset:-8\n  scratch_store_b32 off, v2, s32 offset:-4\n  scratch_store_b32 off, v2, s32",
    );
    let (m, w) = run(&text, frame_contract(&text, 8), WaveSetup::default());
    assert_eq!(m.violations(), &[]);
    assert_eq!(scratch_dword(&w, 2, 64), 0xbad);
    // Without parameters the floor is the stack pointer, 72: both parameter stores
    // (64 and 68) lie below it.
    let (m, _) = run(&text, frame_contract(&text, 0), WaveSetup::default());
    let got: Vec<_> = m
        .violations()
        .iter()
        .map(|v| frame_write(&v.broken))
        .collect();
    assert_eq!(
        got,
        vec![
            (0, 64, 72, 8),
            (2, 64, 72, 8),
            (0, 68, 72, 4),
            (2, 68, 72, 4)
        ]
    );
}

#[test]
fn nested_frames_have_their_own_floors() {
    // main calls f with stack pointer 72 and 8 bytes of parameters (floor 64); f's frame
    // is 16 bytes, so it calls g with stack pointer 88 and no parameters (floor 88). g
    // writes 80 (f's frame) and 60 (main's frame); after g returns, f writes 80 and 64
    // (its own frame and parameters).
    let text = "main:
  s_getpc_b64 s[0:1]
pc:
  s_add_u32 s2, s0, f-pc
  s_addc_u32 s3, s1, 0
  s_add_u32 s4, s0, g-pc
  s_addc_u32 s5, s1, 0
  s_mov_b32 s32, 72
  s_swappc_b64 s[30:31], s[2:3]
  s_endpgm
f:
  s_mov_b32 s40, s30
  s_mov_b32 s41, s31
  s_add_u32 s32, s32, 16
  s_swappc_b64 s[30:31], s[4:5]
  s_sub_u32 s32, s32, 16
  v_mov_b32 v3, 3
  scratch_store_b32 off, v3, s32 offset:8
  scratch_store_b32 off, v3, s32 offset:-8
  s_setpc_b64 s[40:41]
g:
  v_mov_b32 v3, 4
  scratch_store_b32 off, v3, s32 offset:-8 ; g into f
  scratch_store_b32 off, v3, s32 offset:-28 ; g into main
  s_setpc_b64 s[30:31]
";
    let p = program(text, Target::Gfx1100, WaveSize::W32);
    let sites = [
        (call_item(&p, 0), site("f", "abi", RegSet::new(), S32, 8)),
        (call_item(&p, 1), site("g", "abi", RegSet::new(), S32, 0)),
    ];
    let setup = WaveSetup {
        exec: Some(1),
        ..Default::default()
    };
    let (m, _) = run(text, Contract::from_sites(sites), setup);
    let c = m.contract.as_ref().unwrap();
    assert_eq!(c.checked_returns, 2);
    let got: Vec<_> = c
        .violations
        .iter()
        .map(|v| (v.callee.split(' ').next().unwrap(), frame_write(&v.broken)))
        .collect();
    assert_eq!(got, vec![("g", (0, 80, 88, 8)), ("g", (0, 60, 88, 28))]);
    assert_eq!(
        c.violations[0].at_origin.line(),
        Some(line_of(text, "g into f"))
    );
}

#[test]
fn violations_found_before_an_abort_are_kept() {
    // f clobbers the preserved s10 and returns; main then loops until the instruction
    // limit stops the run.
    let text = "main:
  s_getpc_b64 s[0:1]
pc:
  s_add_u32 s2, s0, f-pc
  s_addc_u32 s3, s1, 0
  s_mov_b32 s10, 10
  s_mov_b32 s32, 16
  s_swappc_b64 s[30:31], s[2:3]
spin:
  s_branch spin
f:
  s_mov_b32 s10, 5
  s_setpc_b64 s[30:31]
";
    let p = program(text, Target::Gfx1100, WaveSize::W32);
    let mut m = Machine::new(Image::new(&p).unwrap());
    m.limits.instructions_per_wave = 100;
    m.contract = Some(Contract::from_sites([(
        call_item(&p, 0),
        site("f", "abi", regs(&[Reg::sgpr(10)]), S32, 0),
    )]));
    let e = m.run("main", &[WaveSetup::default()]).unwrap_err();
    assert!(matches!(e, SimError::InstructionLimit { .. }), "{e}");
    let got: Vec<_> = m.violations().iter().map(|v| register(&v.broken)).collect();
    assert_eq!(got, vec![("s10", None, 10, 5)]);

    // A store into the caller's frame, then a memory fault inside the callee: the store
    // was reported when it happened, and the frame that never closed adds nothing.
    let text = frame_program(
        "  scratch_store_b32 off, v2, s32 offset:-12\n  v_mov_b32 v4, 0\n  v_mov_b32 v5, 0\n  global_store_b32 v[4:5], v2, off",
    );
    let p = program(&text, Target::Gfx1100, WaveSize::W32);
    let mut m = Machine::new(Image::new(&p).unwrap());
    m.contract = Some(frame_contract(&text, 8));
    let e = m.run("main", &[WaveSetup::default()]).unwrap_err();
    assert!(matches!(e, SimError::BadAddress { .. }), "{e}");
    let got: Vec<_> = m
        .violations()
        .iter()
        .map(|v| frame_write(&v.broken))
        .collect();
    assert_eq!(got, vec![(0, 60, 64, 4), (2, 60, 64, 4)]);
}

#[test]
fn frames_of_an_earlier_wave_do_not_guard_the_next() {
    // Wave 0 ends inside f (a NORETURN-style callee) with a frame whose floor is 64;
    // wave 1 skips the call and stores at 0, its own frame.
    let text = "main:
  s_getpc_b64 s[0:1]
pc:
  s_add_u32 s2, s0, f-pc
  s_addc_u32 s3, s1, 0
  s_cmp_eq_u32 s7, 0
  s_cbranch_scc0 skip
  s_mov_b32 s32, 64
  s_swappc_b64 s[30:31], s[2:3]
skip:
  s_mov_b32 s32, 0
  scratch_store_b32 off, v0, s32
  s_endpgm
f:
  s_endpgm
";
    let p = program(text, Target::Gfx1100, WaveSize::W32);
    let mut m = Machine::new(Image::new(&p).unwrap());
    m.contract = Some(Contract::from_sites([(
        call_item(&p, 0),
        site("f", "abi", RegSet::new(), S32, 0),
    )]));
    let second = WaveSetup {
        sgprs: vec![(7, 1)],
        ..Default::default()
    };
    m.run("main", &[WaveSetup::default(), second]).unwrap();
    assert_eq!(m.violations(), &[]);
    assert_eq!(m.stats.calls, 1);
}

#[test]
fn gfx8_stores_below_the_swizzled_stack_floor_are_caught() {
    // Wave64, lanes 0 and 3. The stack pointer is the scratch resource s[8:11]. The caller
    // bumps its base by (16 bytes of frame + 8 of parameters) x 64 lanes = 0x600, so the
    // floor is base + 0x600 - 8 x 64 = base + 0x400. f stores at per-lane offset 4 (its
    // frame), moves its resource down 8 bytes per lane (0x200) and stores at offset 4
    // (per-lane -4: a parameter), then another 4 bytes down (0x100) and stores at offset
    // 0 (per-lane -12: 4 bytes below the floor, at global base + 0x600 - 0x300 + 4 x lane).
    let text = "main:
  s_getpc_b64 s[0:1]
pc:
  s_add_u32 s2, s0, f-pc
  s_addc_u32 s3, s1, 0
  s_add_u32 s8, s8, 0x600
  s_addc_u32 s9, s9, 0
  s_swappc_b64 s[30:31], s[2:3]
  s_sub_u32 s8, s8, 0x600
  s_subb_u32 s9, s9, 0
  s_endpgm
f:
  v_mov_b32 v1, 9
  buffer_store_dword v1, off, s[8:11], 0 offset:4
  s_sub_u32 s8, s8, 0x200
  s_subb_u32 s9, s9, 0
  buffer_store_dword v1, off, s[8:11], 0 offset:4
  s_sub_u32 s8, s8, 0x100
  s_subb_u32 s9, s9, 0
  buffer_store_dword v1, off, s[8:11], 0 ; below
  s_add_u32 s8, s8, 0x300
  s_addc_u32 s9, s9, 0
  s_setpc_b64 s[30:31]
";
    let p = program(text, Target::Gfx8, WaveSize::W64);
    let mut m = Machine::new(Image::new(&p).unwrap());
    let id = m.memory.add("scratch", vec![0; 0x1000], 1 << 20).unwrap();
    let base = m.memory.buffer(id).base;
    let desc = Descriptor {
        base,
        stride: 0,
        num_records: u32::MAX,
        swizzle: true,
        add_tid: true,
        index_stride: 64,
        element_size: 4,
    }
    .encode();
    let sp = RegRange::new(RegFile::Sgpr, 8, 4);
    m.contract = Some(Contract::from_sites([(
        call_item(&p, 0),
        site("f", "abi", RegSet::new(), sp, 8),
    )]));
    let setup = WaveSetup {
        exec: Some(0b1001),
        sgprs: (8..12).zip(desc).collect(),
        vgprs: vec![],
        ..Default::default()
    };
    m.run("main", &[setup]).unwrap();
    let c = m.contract.as_ref().unwrap();
    assert_eq!(c.checked_returns, 1);
    let got: Vec<_> = c
        .violations
        .iter()
        .map(|v| frame_write(&v.broken))
        .collect();
    let floor = base + 0x400;
    assert_eq!(
        got,
        vec![
            (0, base + 0x300, floor, 4),
            (3, base + 0x300 + 12, floor, 4)
        ]
    );
    assert_eq!(
        c.violations[0].at_origin.line(),
        Some(line_of(text, "; below"))
    );
    // The stores landed where the swizzle puts them: lane 3's parameter dword at
    // base + 0x400 + 0x100 + 12.
    let data = &m.memory.buffer(id).data;
    assert_eq!(data[0x50c], 9);
}

#[test]
fn aco_preserved_sets_follow_the_abi_block_and_add_explicit_registers() {
    // Mesa's any-hit/intersection ABI: 80 preserved registers of each file, then
    // clobbered up to the limit (here 108 SGPRs, 128 VGPRs): s0-s79 and v0-v79.
    let abi = gpuabi_layout::aco::Abi::builtin("ahit-isec").unwrap();
    let explicit = [RegRange::new(RegFile::Sgpr, 84, 1)];
    let set = gpuabi_sim::contract::aco_preserved(
        &abi,
        Target::Gfx1030,
        WaveSize::W32,
        Some(gpuabi_layout::aco::Demand::new(108, 128)),
        &explicit,
    )
    .unwrap();
    for (reg, want) in [
        (Reg::sgpr(0), true),
        (Reg::sgpr(79), true),
        (Reg::sgpr(80), false),
        (Reg::sgpr(84), true),
        (Reg::sgpr(85), false),
        (Reg::vgpr(79), true),
        (Reg::vgpr(80), false),
    ] {
        assert_eq!(set.contains(reg), want, "{reg}");
    }
}
