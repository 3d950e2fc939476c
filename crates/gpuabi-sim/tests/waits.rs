//! The check of `s_waitcnt` (`Machine::check_waits`): a register an outstanding load
//! writes, read or overwritten before a wait guarantees the load complete, stops the run
//! naming both instructions. The expected outcomes are worked out by hand from
//! "Data Dependency Resolution" in AMD's GCN3 and RDNA3 ISA guides: vector memory loads
//! complete in issue order on `vmcnt`, scalar loads in any order on `lgkmcnt`.

use gpuabi_amdgpu::asm::parse;
use gpuabi_amdgpu::{Target, WaveSize};
use gpuabi_sim::{Image, LaneValues, Machine, SimError, WaveSetup};

/// Runs `body` with a 64-byte buffer whose address is in `v[0:1]` and in `s[0:1]`.
fn run(target: Target, body: &str) -> Result<(), SimError> {
    let text = format!("main:\n{body}\n\ts_endpgm\n");
    let wave = if target.is_rdna() {
        WaveSize::W32
    } else {
        WaveSize::W64
    };
    let p = parse(&text, target, wave).unwrap_or_else(|e| panic!("{e}\n{text}"));
    let mut m = Machine::new(Image::new(&p).unwrap());
    m.check_waits = true;
    let id = m.memory.add("buf", vec![7; 64], 1 << 20).unwrap();
    let base = m.memory.buffer(id).base;
    let setup = WaveSetup {
        vgprs: vec![
            (0, LaneValues::Uniform(base as u32)),
            (1, LaneValues::Uniform((base >> 32) as u32)),
        ],
        sgprs: vec![(0, base as u32), (1, (base >> 32) as u32)],
        ..Default::default()
    };
    m.run("main", &[setup]).map(|_| ())
}

fn missing(r: Result<(), SimError>) -> String {
    match r {
        Err(e @ SimError::MissingWait(_)) => e.to_string(),
        other => panic!("expected a missing wait, got {other:?}"),
    }
}

const TWO_LOADS: &str =
    "\tglobal_load_b32 v2, v[0:1], off\n\tglobal_load_b32 v3, v[0:1], off offset:4\n";

#[test]
fn a_read_before_the_wait_is_reported() {
    let e = missing(run(
        Target::Gfx1100,
        &format!("{TWO_LOADS}\tv_mov_b32 v4, v2"),
    ));
    assert!(e.contains("`v_mov_b32 v4, v2`"), "{e}");
    assert!(e.contains("reads v2"), "{e}");
    assert!(e.contains("`global_load_b32 v2, v[0:1], off`"), "{e}");
}

#[test]
fn an_overwrite_before_the_wait_is_reported() {
    let e = missing(run(
        Target::Gfx1100,
        &format!("{TWO_LOADS}\tv_mov_b32 v3, 0"),
    ));
    assert!(e.contains("overwrites v3"), "{e}");
}

#[test]
fn in_order_loads_with_a_count() {
    // vmcnt(1): at most one load outstanding, so the older one (v2) is complete.
    run(
        Target::Gfx1100,
        &format!("{TWO_LOADS}\ts_waitcnt vmcnt(1)\n\tv_mov_b32 v4, v2"),
    )
    .unwrap();
    // ... but not the younger one.
    let e = missing(run(
        Target::Gfx1100,
        &format!("{TWO_LOADS}\ts_waitcnt vmcnt(1)\n\tv_mov_b32 v4, v3"),
    ));
    assert!(e.contains("reads v3"), "{e}");
    run(
        Target::Gfx1100,
        &format!("{TWO_LOADS}\ts_waitcnt vmcnt(0)\n\tv_mov_b32 v4, v3"),
    )
    .unwrap();
    // A store counts in vscnt on RDNA, not in vmcnt: vmcnt(1) still leaves v3 open.
    let store = "\tglobal_store_b32 v[0:1], v5, off offset:8\n";
    missing(run(
        Target::Gfx1100,
        &format!("{TWO_LOADS}{store}\ts_waitcnt vmcnt(1)\n\tv_mov_b32 v4, v3"),
    ));
    // On GCN stores count in vmcnt: after a store, vmcnt(1) completes both loads.
    run(
        Target::Gfx8,
        "\tflat_load_dword v2, v[0:1]\n\tflat_load_dword v3, v[0:1]\n\
         \tflat_store_dword v[0:1], v5\n\ts_waitcnt vmcnt(1)\n\tv_mov_b32 v4, v3",
    )
    .unwrap();
}

#[test]
fn a_later_load_may_overwrite() {
    run(
        Target::Gfx1030,
        "\tglobal_load_dword v2, v[0:1], off\n\tglobal_load_dword v2, v[0:1], off offset:4\n\
         \ts_waitcnt vmcnt(0)\n\tv_mov_b32 v4, v2",
    )
    .unwrap();
}

#[test]
fn scalar_loads_need_zero() {
    let loads = "\ts_load_b32 s4, s[0:1], 0x0\n\ts_load_b32 s5, s[0:1], 0x4\n";
    // Scalar loads return in any order: lgkmcnt(1) completes neither.
    let e = missing(run(
        Target::Gfx1100,
        &format!("{loads}\ts_waitcnt lgkmcnt(1)\n\ts_mov_b32 s6, s4"),
    ));
    assert!(e.contains("reads s4"), "{e}");
    run(
        Target::Gfx1100,
        &format!("{loads}\ts_waitcnt lgkmcnt(0)\n\ts_mov_b32 s6, s4"),
    )
    .unwrap();
    // A wait on another counter does not help.
    missing(run(
        Target::Gfx1100,
        &format!("{loads}\ts_waitcnt vmcnt(0)\n\ts_mov_b32 s6, s5"),
    ));
}

#[test]
fn off_by_default() {
    let text = format!("main:\n{TWO_LOADS}\tv_mov_b32 v4, v2\n\ts_endpgm\n");
    let p = parse(&text, Target::Gfx1100, WaveSize::W32).unwrap();
    let mut m = Machine::new(Image::new(&p).unwrap());
    let id = m.memory.add("buf", vec![7; 64], 1 << 20).unwrap();
    let base = m.memory.buffer(id).base;
    let setup = WaveSetup {
        vgprs: vec![
            (0, LaneValues::Uniform(base as u32)),
            (1, LaneValues::Uniform((base >> 32) as u32)),
        ],
        ..Default::default()
    };
    m.run("main", &[setup]).unwrap();
}
