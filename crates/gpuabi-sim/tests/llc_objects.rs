//! llc-19 code objects run unchanged: tests/llc/kernels.ll (straight-line code, a loop,
//! divergent if/else, a stack array, global memory, module globals, and two-lane i16
//! vectors built by byte and short loads, which llc writes with RDNA's `d16_hi` loads and
//! stores) and
//! tests/llc/calls.ll (direct, recursive and per-lane indirect calls, more arguments than
//! registers) compiled with `llc-19 -filetype=obj` at -O0 and
//! -O2 for tonga, gfx1030 and gfx1100, loaded with its relocations, dispatched per its
//! kernel descriptor and metadata, run with every call checked against LLVM's own calling
//! convention (`llvm-gfx`), and compared with the values this test computes in Rust.
//!
//! On gfx1030 a kernel that calls sets up flat scratch
//! with `s_setreg_b32 hwreg(HW_REG_FLAT_SCR_LO/HI)`, which the simulator takes as a no-op
//! (its `scratch_*` reach the lane's private memory directly).
//!
//! Skipped with a message when llc-19 is missing, unless `GPUABI_REQUIRE_LLVM_MC=1`.

use std::process::Command;

use gpuabi_amdgpu::Target;
use gpuabi_sim::dispatch::ArgValue;

mod llc_tool;

use llc_tool::{dwords, input, llc_available, run_kernel, scratch_dir, CPUS, LLC};
const KERNELS: &str = include_str!("llc/kernels.ll");
const CALLS: &str = include_str!("llc/calls.ll");
const ITEMS: u32 = 128;
const N: u32 = 37;

fn tri(m: u32) -> u32 {
    (1..=m).map(|k| k * 3).sum()
}

/// What kernel `name` writes for work-item `i`, computed from the IR's comments.
fn expected(name: &str, i: u32) -> u32 {
    let x = input(i);
    let n = N;
    match name {
        "k_straight" => x.wrapping_mul(3).wrapping_add(n) ^ (i << 1),
        "k_loop" => (0..x % 16).fold(0u32, |s, k| {
            s.wrapping_add(k.wrapping_mul(n).wrapping_add(i))
        }),
        "k_branch" => {
            if i & 1 != 0 {
                x.wrapping_mul(x)
            } else {
                x.wrapping_sub(n)
            }
        }
        "k_call" => {
            let madd = |a: u32, b: u32| a.wrapping_mul(b).wrapping_add(7);
            (madd(x, n).wrapping_add(madd(i, 2)) ^ x).wrapping_add(i)
        }
        "k_rec" => tri(x % 12).wrapping_add(n),
        "k_args" => (0..36u32).fold(0u32, |s, k| {
            s.wrapping_add(x.wrapping_add(k).wrapping_mul(k + 1))
        }),
        "k_stack" => {
            let arr = |k: u32| x.wrapping_mul(k + 1);
            arr(i.wrapping_mul(5) % 16).wrapping_add(arr(n % 16))
        }
        "k_global" => {
            const TABLE: [u32; 8] = [3, 1, 4, 1, 5, 9, 2, 6];
            TABLE[(x % 8) as usize].wrapping_mul(1000).wrapping_add(i)
        }
        "k_indirect" => {
            if i.is_multiple_of(3) {
                x.wrapping_mul(i).wrapping_add(7)
            } else {
                x.wrapping_sub(i.wrapping_mul(5))
            }
        }
        "k_halves" => {
            let xj = input(i ^ 1);
            if i & 1 == 0 {
                let b = u32::from(xj as u8 as i8 as i16 as u16);
                let w = ((x >> 16) | b << 16) ^ n;
                w.rotate_left(16)
            } else {
                ((x >> 24) | (xj & 0xffff) << 16).wrapping_add(0x0007_0005)
            }
        }
        _ => panic!("no reference for {name}"),
    }
}

/// Runs kernel `name` of `object` with the `llvm-gfx` contract; returns the output and
/// the number of calls checked.
fn run(object: &[u8], name: &str, target: Target) -> (Vec<u32>, u64) {
    let input: Vec<u8> = (0..ITEMS).flat_map(|i| input(i).to_le_bytes()).collect();
    let buffers = vec![("in", input), ("out", vec![0; 4 * ITEMS as usize])];
    let args = [
        ("out", ArgValue::Buffer("out".into())),
        ("in", ArgValue::Buffer("in".into())),
        ("n", ArgValue::Numbers(vec![N.into()])),
    ];
    let machine = run_kernel(object, name, target, buffers, &args, [ITEMS, 64]);
    let values = dwords(&machine, "out");
    let calls = machine.contract.as_ref().map_or(0, |c| c.checked_returns);
    (values, calls)
}

const KERNEL_NAMES: [&str; 6] = [
    "k_straight",
    "k_loop",
    "k_branch",
    "k_stack",
    "k_global",
    "k_halves",
];
const CALL_NAMES: [&str; 4] = ["k_call", "k_rec", "k_args", "k_indirect"];

/// Compiles `ir` for `cpu` at -O0 and -O2, runs `names` and checks every value; returns
/// the number of calls the contract checked.
fn check_module(ir: &str, module: &str, names: &[&str], cpu: &str, target: Target) -> u64 {
    let mut calls = 0;
    for opt in [0, 2] {
        let object = llc_tool::compile("llc_objects", ir, module, cpu, opt);
        for name in names {
            let (values, checked) = run(&object, name, target);
            calls += checked;
            for (i, v) in values.iter().enumerate() {
                let want = expected(name, i as u32);
                assert_eq!(
                    *v, want,
                    "{cpu} -O{opt} {name}: work-item {i} wrote {v}, expected {want}"
                );
            }
        }
    }
    calls
}

#[test]
fn llc_objects_run_with_their_own_calling_convention() {
    if !llc_available() {
        return;
    }
    for (cpu, target) in CPUS {
        check_module(KERNELS, "kernels", &KERNEL_NAMES, cpu, target);
        let calls = check_module(CALLS, "calls", &CALL_NAMES, cpu, target);
        assert!(calls > 0, "{cpu}: no call was checked");
    }
}

/// The registers llc-19 saves in the prologue of a function of calling convention `cc`
/// (`""` for the default) that clobbers every SGPR and VGPR, compiled for `triple` and
/// `cpu`: SGPRs written to lanes with `v_writelane_b32`, VGPRs stored to the stack except
/// the one that holds those lanes.
fn saved_by_llc(triple: &str, cc: &str, cpu: &str) -> gpuabi_layout::reg::RegSet {
    use gpuabi_layout::reg::{RegFile, RegRange, RegSet};
    let sgprs: Vec<String> = (0..106).map(|i| format!("~{{s{i}}}")).collect();
    let vgprs: Vec<String> = (0..256).map(|i| format!("~{{v{i}}}")).collect();
    let ir = format!(
        "define {cc} void @clobber() {{\n  call void asm sideeffect \"\", \"{},{}\"()\n  ret void\n}}\n",
        sgprs.join(","),
        vgprs.join(",")
    );
    let dir = scratch_dir("llc_objects");
    let src = dir.join(format!("clobber-{triple}-{cpu}.ll"));
    std::fs::write(&src, ir).unwrap();
    let out = Command::new(LLC)
        .args([
            &format!("-mtriple={triple}"),
            &format!("-mcpu={cpu}"),
            "-O2",
            "-o",
            "-",
        ])
        .arg(&src)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8(out.stdout).unwrap();
    let reg = |t: &str, file: RegFile, prefix: char| -> Option<RegRange> {
        let n = t.trim_end_matches(',').strip_prefix(prefix)?.parse().ok()?;
        Some(RegRange::new(file, n, 1))
    };
    let mut set = RegSet::new();
    let mut lanes_vgpr = None;
    for line in text.lines() {
        let words: Vec<&str> = line.split_whitespace().collect();
        match words.as_slice() {
            ["v_writelane_b32", v, s, ..] => {
                lanes_vgpr = reg(v, RegFile::Vgpr, 'v');
                set.insert_range(reg(s, RegFile::Sgpr, 's').unwrap());
            }
            ["buffer_store_dword", v, ..] | ["scratch_store_b32", "off,", v, ..] => {
                set.insert_range(reg(v, RegFile::Vgpr, 'v').unwrap());
            }
            _ => {}
        }
    }
    if let Some(v) = lanes_vgpr {
        set.remove_range(v);
    }
    set
}

#[test]
fn llvm_contracts_preserve_what_llc_saves() {
    use gpuabi_layout::reg::{RegFile, RegRange};
    use gpuabi_sim::contract::{llvm_amdgpu_gfx_preserved, llvm_gfx_preserved};
    if !llc_available() {
        return;
    }
    // The stack pointer s32 is restored by arithmetic, not saved.
    let mut c = llvm_gfx_preserved();
    c.remove_range(RegRange::new(RegFile::Sgpr, 32, 1));
    for cpu in ["tonga", "gfx1030", "gfx1100"] {
        assert_eq!(saved_by_llc("amdgcn-amd-amdhsa", "", cpu), c, "{cpu}: C");
        // amdgpu_gfx functions are PAL's (HSA refuses them); on tonga llc-19 refuses a
        // PAL function that clobbers s96 and above, so the list is checked on RDNA.
        if cpu != "tonga" {
            assert_eq!(
                saved_by_llc("amdgcn-amd-amdpal", "amdgpu_gfx", cpu),
                llvm_amdgpu_gfx_preserved(),
                "{cpu}: amdgpu_gfx"
            );
        }
    }
}
