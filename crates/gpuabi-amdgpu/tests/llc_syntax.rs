//! The spellings llc-19 prints that the model reads by name or in several forms
//! (`s_delay_alu` fields joined by `|`, `s_sendmsg sendmsg(..)`, `s_waitcnt` counters joined
//! by `&`, `s_waitcnt_vscnt null, 0x0`): parsed, printed by the project, and checked
//! against llvm-mc-19, which must encode the original and the printed text identically.

use std::process::Command;

use gpuabi_amdgpu::asm::{parse, print};
use gpuabi_amdgpu::{Target, WaveSize};

const LLVM_MC: &str = "llvm-mc-19";

/// The instruction encodings llvm-mc shows for `text`, in order.
fn encodings(text: &str, target: Target, wave: WaveSize) -> Option<Vec<String>> {
    let mut cmd = Command::new(LLVM_MC);
    cmd.args([
        "-triple=amdgcn",
        &format!("-mcpu={}", target.llvm_cpu()),
        "-show-encoding",
    ]);
    if target.is_rdna() {
        cmd.arg(format!("-mattr=+wavefrontsize{}", wave.lanes()));
    }
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("llc_syntax");
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join(format!("{target}-{}.s", text.len()));
    std::fs::write(&file, text).unwrap();
    let out = match cmd.arg(&file).output() {
        Ok(o) => o,
        Err(_) => {
            let msg = format!("{LLVM_MC} not found: the llvm-mc comparison is skipped");
            if std::env::var("GPUABI_REQUIRE_LLVM_MC").as_deref() == Ok("1") {
                panic!("{msg}");
            }
            eprintln!("{msg}");
            return None;
        }
    };
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success() && out.stderr.is_empty(),
        "llvm-mc rejects:\n{text}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    Some(
        stdout
            .lines()
            .filter_map(|l| l.split_once("encoding: ").map(|(_, e)| e.to_string()))
            .collect(),
    )
}

fn round_trip(text: &str, target: Target, wave: WaveSize, instructions: usize) {
    let program = parse(text, target, wave).unwrap_or_else(|e| panic!("{e}\n{text}"));
    let printed = print(&program);
    let Some(original) = encodings(text, target, wave) else {
        return;
    };
    assert_eq!(original.len(), instructions, "{text}");
    assert_eq!(
        encodings(&printed, target, wave).unwrap(),
        original,
        "printed:\n{printed}"
    );
}

#[test]
fn gfx11_hints_messages_and_waits() {
    round_trip(
        "\ts_delay_alu instid0(VALU_DEP_1) | instskip(NEXT) | instid1(SALU_CYCLE_1)\n\
         \ts_delay_alu instid0(TRANS32_DEP_3) | instskip(SKIP_4) | instid1(VALU_DEP_2)\n\
         \ts_delay_alu instid0(SALU_CYCLE_3)\n\
         \ts_waitcnt vmcnt(0) & lgkmcnt(1)\n\
         \ts_waitcnt_vscnt null, 0x0\n\
         \ts_set_inst_prefetch_distance 0x1\n\
         \ts_clause 0x2\n\
         \ts_setprio 1\n\
         \ts_nop 0\n\
         \ts_sendmsg sendmsg(MSG_DEALLOC_VGPRS)\n\
         \ts_endpgm\n",
        Target::Gfx1100,
        WaveSize::W32,
        11,
    );
}

#[test]
fn gfx10_and_gfx8_forms() {
    round_trip(
        "\ts_inst_prefetch 0x3\n\ts_waitcnt_vscnt null, 0x0\n\ts_waitcnt vmcnt(0) & expcnt(0)\n\ts_endpgm\n",
        Target::Gfx1030,
        WaveSize::W32,
        4,
    );
    round_trip(
        "\ts_setprio 3\n\ts_waitcnt lgkmcnt(0) & vmcnt(1)\n\ts_cmpk_lg_u32 s1, 0xffff\n\ts_endpgm\n",
        Target::Gfx8,
        WaveSize::W64,
        4,
    );
}

#[test]
fn numeric_waitcnt() {
    // The counters printed for each number must encode that number again.
    round_trip(
        "\ts_waitcnt 0\n\ts_waitcnt 0x7f\n\ts_waitcnt 0xf70\n\ts_waitcnt 0xf7f\n",
        Target::Gfx8,
        WaveSize::W64,
        4,
    );
    round_trip(
        "\ts_waitcnt 0xc07f\n\ts_waitcnt 0x3f70\n\ts_waitcnt 0\n",
        Target::Gfx1030,
        WaveSize::W32,
        3,
    );
    round_trip(
        "\ts_waitcnt 0xfc07\n\ts_waitcnt 0x3f7\n\ts_waitcnt 0xfff7\n\ts_waitcnt 0\n",
        Target::Gfx1100,
        WaveSize::W32,
        4,
    );
    let e = parse("\ts_waitcnt 0x8000\n", Target::Gfx8, WaveSize::W64)
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("outside the vmcnt, expcnt and lgkmcnt fields"),
        "{e}"
    );
}

#[test]
fn named_immediates_are_checked() {
    for (text, needle) in [
        (
            "\ts_delay_alu instid0(VALU_DEP_9)\n",
            "not a value of `instid0`",
        ),
        (
            "\ts_delay_alu instid0(VALU_DEP_1) | instwait(NEXT)\n",
            "not one of instid0",
        ),
        (
            "\ts_sendmsg sendmsg(MSG_GS)\n",
            "not a message the model knows",
        ),
        ("\ts_delay_alu instid0 VALU_DEP_1\n", "expected `(`"),
    ] {
        let e = parse(text, Target::Gfx1100, WaveSize::W32)
            .unwrap_err()
            .to_string();
        assert!(e.contains(needle), "{text}: {e}");
    }
    let e = parse(
        "\ts_waitcnt_vscnt s1, 0x0\n",
        Target::Gfx1100,
        WaveSize::W32,
    )
    .unwrap_err()
    .to_string();
    assert!(e.contains("is `null`"), "{e}");
    assert!(parse(
        "\ts_waitcnt_vscnt s1, 0x0\n",
        Target::Gfx1030,
        WaveSize::W32
    )
    .is_ok());
    // RDNA 3 only.
    assert!(parse("\ts_delay_alu 0\n", Target::Gfx1030, WaveSize::W32).is_err());
}
