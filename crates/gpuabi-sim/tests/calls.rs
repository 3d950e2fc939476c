//! The divergent-call program of spec aco-calls.md §7 runs correctly under the contract of
//! its ABI; a callee that clobbers a preserved register is caught.

use gpuabi_amdgpu::asm::parse;
use gpuabi_amdgpu::{Target, WaveSize};
use gpuabi_layout::aco::Abi;
use gpuabi_layout::reg::{RegFile, RegRange};
use gpuabi_sim::{Broken, Contract, Image, LaneValues, Machine, WaveSetup};

const GOOD: &str = include_str!("../../../examples/asm/divergent_call.s");
const BROKEN: &str = include_str!("../../../examples/asm/divergent_call_broken.s");

fn run(text: &str) -> Machine {
    let p = parse(text, Target::Gfx1030, WaveSize::W32).unwrap();
    let mut m = Machine::new(Image::new(&p).unwrap());
    let abi = Abi::builtin("ahit-isec").unwrap();
    m.contract = Some(
        Contract::from_aco(
            &abi,
            Target::Gfx1030,
            WaveSize::W32,
            None,
            &[],
            Some(RegRange::new(RegFile::Sgpr, 84, 1)),
        )
        .unwrap(),
    );
    let out = m.memory.add("out", vec![0; 256], 1 << 20).unwrap();
    let base = m.memory.buffer(out).base;
    let setup = WaveSetup {
        exec: None,
        sgprs: vec![(2, base as u32), (3, (base >> 32) as u32)],
        vgprs: vec![(0, LaneValues::LaneId(0))],
        ..Default::default()
    };
    m.run("main", &[setup]).unwrap();
    m
}

fn dword(m: &Machine, i: usize) -> u32 {
    let d = &m.memory.find("out").unwrap().data;
    u32::from_le_bytes(d[4 * i..4 * i + 4].try_into().unwrap())
}

#[test]
fn divergent_call_chain_runs_and_keeps_the_contract() {
    let m = run(GOOD);
    for lane in 0..32u32 {
        // Spec test vector pattern: lane & 3 = 0, 2 -> A (2 * lane), 1 -> B (lane + 1000),
        // 3 -> no callee (the value set before the call stays).
        let want = match lane & 3 {
            0 | 2 => 2 * lane,
            1 => lane + 1000,
            _ => 0xdead,
        };
        assert_eq!(dword(&m, lane as usize), want, "lane {lane}");
        assert_eq!(dword(&m, 32 + lane as usize), 100 + lane + 0x1234);
    }
    let c = m.contract.as_ref().unwrap();
    assert_eq!(c.violations, vec![]);
    assert_eq!(c.checked_returns, 1);
    assert_eq!(
        m.stats.calls, 1,
        "the caller makes exactly one hardware call"
    );
}

#[test]
fn broken_callee_is_caught() {
    let m = run(BROKEN);
    let c = m.contract.as_ref().unwrap();
    // B runs lanes 1, 5, 9, … (lane & 3 == 1) and writes 7 to v10 there.
    let lanes: Vec<u32> = (0..32).filter(|l| l & 3 == 1).collect();
    assert_eq!(c.violations.len(), lanes.len(), "{:#?}", c.violations);
    for (v, lane) in c.violations.iter().zip(&lanes) {
        assert_eq!(
            v.broken,
            Broken::Register {
                register: "v10".into(),
                lane: Some(*lane),
                before: u64::from(100 + lane),
                after: 7
            }
        );
        // Reported against the callee the call went to (the first lane's, A) and the
        // call instruction.
        assert!(v.callee.starts_with("callee_a"), "{}", v.callee);
        assert_eq!(v.chain.len(), 1);
        assert!(v.chain[0].starts_with("callee_b"), "{:?}", v.chain);
        // The return is in callee_b, which the file does not declare (only `main` is
        // `.globl`): named by the chain's entry, not by `main`.
        assert_eq!(v.at_function.as_deref(), Some("callee_b"));
        let call_line = BROKEN
            .lines()
            .position(|l| l.contains("s_swappc_b64"))
            .unwrap()
            + 1;
        assert_eq!(v.call_origin.line(), Some(call_line as u32));
    }
    // The wrong value is visible in the output too.
    assert_eq!(dword(&m, 32 + 1), 7 + 0x1234);
}

#[test]
fn stack_pointer_exec_and_preserved_sgprs_are_checked() {
    // A callee that bumps the stack pointer without undoing it, leaves exec narrowed and
    // writes the preserved s5; the clobbered s90 is free to change.
    let text = "main:\n s_getpc_b64 s[0:1]\npc:\n s_add_u32 s0, s0, f-pc\n s_addc_u32 s1, s1, 0\n \
                s_mov_b32 s32, 64\n s_swappc_b64 s[30:31], s[0:1]\n s_endpgm\n\
                f:\n s_add_u32 s32, s32, 16\n s_mov_b32 exec_lo, 1\n s_mov_b32 s5, 9\n s_mov_b32 s90, 1\n s_setpc_b64 s[30:31]\n";
    let p = parse(text, Target::Gfx1100, WaveSize::W32).unwrap();
    let mut m = Machine::new(Image::new(&p).unwrap());
    let abi = Abi::builtin("ahit-isec").unwrap();
    m.contract = Some(
        Contract::from_aco(
            &abi,
            Target::Gfx1100,
            WaveSize::W32,
            None,
            &[],
            Some(RegRange::new(RegFile::Sgpr, 32, 1)),
        )
        .unwrap(),
    );
    m.run("main", &[WaveSetup::default()]).unwrap();
    let c = m.contract.as_ref().unwrap();
    let regs: Vec<&str> = c.violations.iter().filter_map(|v| v.register()).collect();
    // s32 is both preserved (s0-s79) and the stack pointer: reported for both roles.
    assert_eq!(regs, vec!["exec", "s5", "s32", "stack pointer s32"]);
    let values = |i: usize| match c.violations[i].broken {
        Broken::Register { before, after, .. } => (before, after),
        Broken::Return { .. } | Broken::CallerFrame { .. } => panic!("{}", c.violations[i]),
    };
    assert_eq!(values(0), (0xffff_ffff, 1));
    assert_eq!(values(3), (64, 80));
    assert!(c.violations.iter().all(|v| v.callee.starts_with("f ")));
}

/// Runs `text` (gfx1030 wave32) from `main` under LLVM's `llvm-gfx` contract with one
/// output buffer whose address is in s[2:3].
fn run_llvm(text: &str) -> Machine {
    let p = parse(text, Target::Gfx1030, WaveSize::W32).unwrap();
    let mut m = Machine::new(Image::new(&p).unwrap());
    m.contract = Contract::llvm("llvm-gfx");
    let out = m.memory.add("out", vec![0; 16], 1 << 20).unwrap();
    let base = m.memory.buffer(out).base;
    let setup = WaveSetup {
        exec: None,
        sgprs: vec![(2, base as u32), (3, (base >> 32) as u32)],
        ..Default::default()
    };
    m.run("main", &[setup]).unwrap();
    m
}

/// A caller that stores 1 after the call and 2 after that, to out[0] and out[1]; the
/// call returns to `after`, whose two 4-byte `v_mov_b32` the store follows.
const CALLER: &str = ".globl main\n.type f,@function\nmain:\n s_getpc_b64 s[0:1]\npc:\n s_add_u32 s0, s0, f-pc\n \
                      s_addc_u32 s1, s1, 0\n s_mov_b32 s32, 0\n s_swappc_b64 s[30:31], s[0:1]\n\
                      after:\n v_mov_b32 v0, 0\n v_mov_b32 v1, 1\n global_store_dword v0, v1, s[2:3]\n\
                      v_mov_b32 v1, 2\n global_store_dword v0, v1, s[2:3] offset:4\n s_endpgm\n\
                      .Lfunc_end_main:\n";

#[test]
fn a_return_past_the_return_address_is_a_violation() {
    // The callee adds 8 to its return address: it skips `v_mov_b32 v0, 0` and `v_mov_b32
    // v1, 1` and lands on the store. Before, this ran as "0 calls returned, 0 violations".
    let text =
        format!("{CALLER}f:\n s_add_u32 s4, s30, 8\n s_addc_u32 s5, s31, 0\n s_setpc_b64 s[4:5]\n");
    let m = run_llvm(&text);
    let c = m.contract.as_ref().unwrap();
    assert_eq!(c.checked_returns, 1);
    assert_eq!(c.violations.len(), 1, "{:#?}", c.violations);
    let v = &c.violations[0];
    let ret = m.image.label_addr("after").unwrap();
    assert_eq!(
        v.broken,
        Broken::Return {
            expected: ret,
            target: ret + 8
        }
    );
    // Named by the function that holds the return, not `.Lfunc_end_main`, whose address
    // is the callee's too.
    assert!(v.callee.starts_with("f (0x"), "{}", v.callee);
    assert_eq!(v.at_function.as_deref(), Some("f"));
    let shown = v.to_string();
    assert!(shown.contains("went back into its caller at 0x"), "{shown}");
    assert!(shown.contains(", in f"), "{shown}");
    assert!(
        shown.contains(&format!("not to the return address 0x{ret:x}")),
        "{shown}"
    );
}

#[test]
fn a_branch_back_into_the_caller_is_a_return() {
    // A callee that branches to the caller's label past the return address (without the
    // return it is a wrong return); one that branches exactly to it returns.
    let m = run_llvm(&format!("{CALLER}f:\n s_branch after\n"));
    let c = m.contract.as_ref().unwrap();
    assert_eq!((c.checked_returns, c.violations.len()), (1, 0));
    let text = CALLER.replace("v_mov_b32 v1, 2\n", "skip:\n v_mov_b32 v1, 2\n");
    let m = run_llvm(&format!("{text}f:\n s_branch skip\n"));
    let c = m.contract.as_ref().unwrap();
    assert_eq!(c.violations.len(), 1, "{:#?}", c.violations);
    assert!(matches!(c.violations[0].broken, Broken::Return { .. }));
    assert_eq!(c.violations[0].at_function.as_deref(), Some("f"));
}

#[test]
fn violations_name_the_function_that_holds_the_instruction() {
    // `g` clobbers s40 (callee-saved in CSR_AMDGPU) after a jump to its own second part;
    // the label before `g` ends `main`.
    let text = format!(
        "{}f:\n s_mov_b32 s40, 7\n s_setpc_b64 s[30:31]\n",
        CALLER.replace(
            "s_mov_b32 s32, 0\n",
            "s_mov_b32 s32, 0\n s_mov_b32 s40, 1\n"
        )
    );
    let m = run_llvm(&text);
    let c = m.contract.as_ref().unwrap();
    assert_eq!(c.violations.len(), 1, "{:#?}", c.violations);
    let v = &c.violations[0];
    assert_eq!(v.register(), Some("s40"));
    assert!(v.callee.starts_with("f (0x"), "{}", v.callee);
    assert_eq!(v.at_function.as_deref(), Some("f"));
}
