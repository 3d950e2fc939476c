//! `gpuabi asm` and `gpuabi sim` through the built binary.

use std::path::PathBuf;
use std::process::{Command, Output};

fn gpuabi(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_gpuabi"))
        .args(args)
        .current_dir(examples())
        .output()
        .unwrap()
}

fn examples() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../examples/asm")
}

fn text(o: &[u8]) -> String {
    String::from_utf8_lossy(o).into_owned()
}

fn tmp(name: &str, content: &str) -> String {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("asm_cli");
    std::fs::create_dir_all(&dir).unwrap();
    let p = dir.join(name);
    std::fs::write(&p, content).unwrap();
    p.to_string_lossy().into_owned()
}

#[test]
fn check_and_fmt() {
    let o = gpuabi(&["asm", "check", "divergent_call.s", "--target", "gfx1030"]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    assert!(
        text(&o.stdout).contains("ok: 72 instructions"),
        "{}",
        text(&o.stdout)
    );
    let o = gpuabi(&["asm", "fmt", "catalyst_scale.s", "--target", "gfx8"]);
    assert!(o.status.success());
    let out = text(&o.stdout);
    assert!(
        out.contains("\tbuffer_store_dword v2, v3, s[4:7], 0 offen\n"),
        "{out}"
    );
    assert!(!out.contains(';'), "comments are not printed");
}

#[test]
fn parse_errors_name_file_line_column() {
    let f = tmp("bad.s", "main:\n  s_mov_b32 s0, v1\n");
    let o = gpuabi(&["asm", "check", &f, "--target", "gfx8"]);
    assert!(!o.status.success());
    let err = text(&o.stderr);
    assert!(
        err.contains("bad.s:2:17: expected an SGPR or a constant, found `v1`"),
        "{err}"
    );
    let o = gpuabi(&["asm", "check", &f, "--target", "gfx8", "--wave", "32"]);
    assert!(text(&o.stderr).contains("--wave"), "{}", text(&o.stderr));
    let o = gpuabi(&["asm", "check", &f, "--target", "gfx9000"]);
    assert!(!o.status.success());
    // gfx9 is a target of the layout engines but has no encodings in the machine model.
    let o = gpuabi(&["asm", "check", &f, "--target", "gfx9"]);
    assert!(!o.status.success());
    let err = text(&o.stderr);
    assert!(
        err.contains("--target") && err.contains("no instruction encodings for gfx9"),
        "{err}"
    );
}

fn tmp_path(name: &str) -> String {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("asm_cli");
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name).to_string_lossy().into_owned()
}

#[test]
fn encode_and_disasm_round_trip() {
    // GCN3 ISA, SOPP: s_endpgm is opcode 1 (0xbf810000), s_branch opcode 2 with SIMM16 =
    // -1 (back to itself: 4 + 4 * -1 = 0 bytes from the branch).
    let f = tmp("enc.s", "main:\n  s_branch main\n  s_endpgm\n");
    let bin = tmp_path("enc.bin");
    let o = gpuabi(&["asm", "encode", &f, "--target", "gfx8", "-o", &bin]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    let code = std::fs::read(&bin).unwrap();
    assert_eq!(code, [0xff, 0xff, 0x82, 0xbf, 0x00, 0x00, 0x81, 0xbf]);
    let o = gpuabi(&["asm", "disasm", &bin, "--target", "gfx8"]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    assert_eq!(text(&o.stdout), ".L_0:\n\ts_branch .L_0\n\ts_endpgm\n");

    // An example program through an object: the disassembly encodes to the same code.
    let obj = tmp_path("divergent_call.o");
    let o = gpuabi(&[
        "asm",
        "encode",
        "divergent_call.s",
        "--target",
        "gfx1030",
        "--filetype",
        "obj",
        "-o",
        &obj,
    ]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    assert_eq!(&std::fs::read(&obj).unwrap()[..4], b"\x7fELF");
    let o = gpuabi(&["asm", "disasm", &obj, "--target", "gfx1030"]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    let listing = text(&o.stdout);
    assert!(
        listing.starts_with("main:\n\ts_getpc_b64 s[4:5]\n"),
        "{listing}"
    );
    let again = tmp("divergent_call.decoded.s", &listing);
    let (a, b) = (tmp_path("a.bin"), tmp_path("b.bin"));
    for (src, out) in [("divergent_call.s", &a), (again.as_str(), &b)] {
        let o = gpuabi(&["asm", "encode", src, "--target", "gfx1030", "-o", out]);
        assert!(o.status.success(), "{}", text(&o.stderr));
    }
    assert_eq!(std::fs::read(&a).unwrap(), std::fs::read(&b).unwrap());
}

#[test]
fn disasm_errors_name_the_byte_offset() {
    let bin = tmp_path("truncated.bin");
    // s_endpgm (RDNA2 ISA: SOPP opcode 1), then half an instruction.
    std::fs::write(&bin, [0x00, 0x00, 0x81, 0xbf, 0x00, 0x00]).unwrap();
    let o = gpuabi(&["asm", "disasm", &bin, "--target", "gfx1030"]);
    assert!(!o.status.success());
    let err = text(&o.stderr);
    assert!(
        err.contains("truncated.bin: byte offset 4: truncated: 2 bytes left"),
        "{err}"
    );
    let obj = tmp_path("gfx8.o");
    let f = tmp("endpgm.s", "  s_endpgm\n");
    let o = gpuabi(&[
        "asm",
        "encode",
        &f,
        "--target",
        "gfx8",
        "--filetype",
        "obj",
        "-o",
        &obj,
    ]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    let o = gpuabi(&["asm", "disasm", &obj, "--target", "gfx1030"]);
    assert!(
        text(&o.stderr).contains("--target gfx1030: ")
            && text(&o.stderr).contains("gfx8.o is for gfx802 (gfx8)"),
        "{}",
        text(&o.stderr)
    );
    // Encoding errors name the file and the byte offset.
    let f = tmp("absolute.s", "main:\n  s_endpgm\n  s_mov_b32 s0, main\n");
    let o = gpuabi(&["asm", "encode", &f, "--target", "gfx8", "-o", &bin]);
    assert!(!o.status.success());
    let err = text(&o.stderr);
    assert!(
        err.contains("absolute.s: byte offset 4: `main` is an absolute address"),
        "{err}"
    );
}

#[test]
fn sim_runs_the_divergent_call_with_the_contract() {
    let common = [
        "sim",
        "run",
        "--target",
        "gfx1030",
        "--wave",
        "32",
        "--abi",
        "ahit-isec",
        "--sp",
        "s84",
        "--buffer",
        "out=256",
        "--set",
        "s[2:3]=@out",
        "--set",
        "v0=lane",
        "--stats",
        "--print",
        "out",
    ];
    let mut args = common.to_vec();
    args.insert(2, "divergent_call.s");
    let o = gpuabi(&args);
    let out = text(&o.stdout);
    assert!(o.status.success(), "{}{}", out, text(&o.stderr));
    assert!(
        out.contains("contract ahit-isec: 1 calls returned, 0 violations"),
        "{out}"
    );
    assert!(out.contains(&format!("  {:<30} 1\n", "calls")), "{out}");
    // Lane 1 went to callee B: 1 + 1000.
    assert!(
        out.contains("  0x0000:          0       1001          4      57005"),
        "{out}"
    );

    let mut args = common.to_vec();
    args.insert(2, "divergent_call_broken.s");
    let o = gpuabi(&args);
    assert!(!o.status.success());
    let out = text(&o.stdout);
    assert!(
        out.contains("changed v10 in lane 1: 0x65 before the call, 0x7 after"),
        "{out}"
    );
    assert!(
        text(&o.stderr).contains("8 violations"),
        "{}",
        text(&o.stderr)
    );
}

#[test]
fn sim_reports_violations_found_before_the_run_stops() {
    // f clobbers s5 (preserved by ahit-isec) and stores 4 bytes below the stack pointer
    // s32 = 64, into its caller's frame; main then spins until the instruction limit.
    let source = "main:\n s_getpc_b64 s[0:1]\npc:\n s_add_u32 s0, s0, f-pc\n s_addc_u32 s1, s1, 0\n \
                s_mov_b32 s32, 64\n s_swappc_b64 s[30:31], s[0:1]\nspin:\n s_branch spin\n\
                f:\n s_mov_b32 s5, 9\n scratch_store_b32 off, v0, s32 offset:-4\n s_setpc_b64 s[30:31]\n";
    let file = tmp("abort_after_violation.s", source);
    let o = gpuabi(&[
        "sim",
        "run",
        &file,
        "--target",
        "gfx1100",
        "--wave",
        "32",
        "--abi",
        "ahit-isec",
        "--sp",
        "s32",
        "--exec",
        "1",
        "--max-instructions",
        "50",
    ]);
    assert!(!o.status.success());
    let (out, err) = (text(&o.stdout), text(&o.stderr));
    assert!(err.contains("instruction limit of 50"), "{err}");
    assert!(
        out.contains("contract ahit-isec: 1 calls returned, 2 violations"),
        "{out}"
    );
    assert!(
        out.contains(
            "wrote its caller's frame: a 4-byte store in lane 0 at 0x3c, 4 bytes below the \
             floor 0x40, by 0x"
        ) && out.contains(", line 12, in f"),
        "{out}"
    );
    assert!(
        out.contains("changed s5: 0x0 before the call, 0x9 after"),
        "{out}"
    );
}

#[test]
fn sim_catalyst_dispatch_and_errors() {
    let o = gpuabi(&[
        "sim",
        "run",
        "catalyst_scale.s",
        "--target",
        "gfx8",
        "--catalyst",
        "catalyst_scale.cl",
        "--global",
        "128",
        "--local",
        "64",
        "--arg",
        "out=@out",
        "--arg",
        "factor=2",
        "--arg",
        "bias=1",
        "--buffer",
        "out=512",
        "--print",
        "out",
    ]);
    let out = text(&o.stdout);
    assert!(o.status.success(), "{}", text(&o.stderr));
    assert!(out.starts_with("buffer out (512 bytes"), "{out}");
    assert!(
        out.contains("  0x0000:          1          3          5          7"),
        "{out}"
    );

    let f = tmp("spin.s", "main:\n s_branch main\n");
    let o = gpuabi(&[
        "sim",
        "run",
        &f,
        "--target",
        "gfx8",
        "--max-instructions",
        "100",
    ]);
    assert!(!o.status.success());
    assert!(
        text(&o.stderr).contains("instruction limit of 100 reached"),
        "{}",
        text(&o.stderr)
    );
    let o = gpuabi(&["sim", "run", &f, "--target", "gfx8", "--set", "x=1"]);
    assert!(
        text(&o.stderr).contains("--set `x=1`"),
        "{}",
        text(&o.stderr)
    );
    let o = gpuabi(&["sim", "run", &f, "--target", "gfx8", "--buffer", "b"]);
    assert!(
        text(&o.stderr).contains("--buffer b: expected NAME=SIZE[:FILE]"),
        "{}",
        text(&o.stderr)
    );
    let o = gpuabi(&["sim", "run", &f, "--target", "gfx8", "--abi", "nonesuch"]);
    assert!(
        text(&o.stderr).contains("--abi: unknown ABI `nonesuch`"),
        "{}",
        text(&o.stderr)
    );
}

#[test]
fn sim_reports_undefined_reads_and_traces() {
    let f = tmp("undef.s", "main:\n v_add_nc_u32 v1, v0, v2\n s_endpgm\n");
    let o = gpuabi(&[
        "sim", "run", &f, "--target", "gfx1100", "--wave", "64", "--set", "v0=lane", "--undef",
        "--trace",
    ]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    let out = text(&o.stdout);
    assert!(out.contains("reads v2 before anything wrote it"), "{out}");
    assert!(!out.contains("reads v0"), "{out}");
    assert!(
        out.contains("w0 0x100000 exec=ffffffffffffffff v_add_nc_u32 v1, v0, v2"),
        "{out}"
    );
}

#[test]
fn sim_stats_count_scheduling_hints() {
    let f = tmp(
        "hints.s",
        "main:\n v_mov_b32 v0, 1\n s_delay_alu instid0(VALU_DEP_1)\n v_add_nc_u32 v0, v0, 1\n \
         s_clause 0x1\n s_sendmsg sendmsg(MSG_DEALLOC_VGPRS)\n s_endpgm\n",
    );
    let o = gpuabi(&["sim", "run", &f, "--target", "gfx1100", "--stats"]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    let out = text(&o.stdout);
    assert!(
        out.contains(&format!("  {:<30} 2\n", "scheduling hints (no-ops)")),
        "{out}"
    );
}

/// `asm check --encodings`: the bytes of each line against the dwords Mesa's ACO listed
/// beside it (a gfx1030 scratch load whose unused ADDR field ACO sets to 0x80, and a
/// repeated `s_nop`).
#[test]
fn check_encodings_compares_with_the_listing() {
    let good = tmp(
        "aco_good.s",
        "BB0:\n\
         \tscratch_load_dword v63, off, s4 offset:24                    ; dc304018 3f040080\n\
         \ts_nop 0                                                     ; bf800000\n\
         \t(then repeated 2 times)\n\
         \ts_setpc_b64 s[2:3]                                          ; be802002\n",
    );
    let o = gpuabi(&["asm", "check", "--encodings", &good, "--target", "gfx1030"]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    let out = text(&o.stdout);
    assert!(out.contains("ok: 5 instructions"), "{out}");
    assert!(
        out.contains("5 listed encodings equal (1 with bits"),
        "{out}"
    );
    // The same bytes come out of `asm encode`.
    let bin = tmp("aco_good.bin", "");
    let o = gpuabi(&["asm", "encode", &good, "--target", "gfx1030", "-o", &bin]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    let words: Vec<u32> = std::fs::read(&bin)
        .unwrap()
        .chunks(4)
        .map(|c| u32::from_le_bytes(c.try_into().unwrap()))
        .collect();
    assert_eq!(
        words,
        [0xdc304018, 0x3f040080, 0xbf800000, 0xbf800000, 0xbf800000, 0xbe802002]
    );

    // A listing naming another register: the line, the text and both encodings.
    let bad = tmp(
        "aco_bad.s",
        "\ts_nop 0 ; bf800000\n\ts_mov_b32 s16, s5 ; be900306\n",
    );
    let o = gpuabi(&["asm", "check", "--encodings", &bad, "--target", "gfx1030"]);
    assert!(!o.status.success());
    let err = text(&o.stderr);
    assert!(
        err.contains(
            "aco_bad.s:2: `s_mov_b32 s16, s5`: gpuabi encodes be900305, the listing has \
             be900306 (1 of 2 listed instructions differ)"
        ),
        "{err}"
    );
    // Without --encodings the listing is a comment.
    let o = gpuabi(&["asm", "check", &bad, "--target", "gfx1030"]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    // A file that lists nothing cannot be compared.
    let o = gpuabi(&[
        "asm",
        "check",
        "--encodings",
        "divergent_call.s",
        "--target",
        "gfx1030",
    ]);
    assert!(text(&o.stderr).contains("no instruction lists its encoding"));
}

#[test]
fn check_encodings_takes_the_target_from_acos_listing() {
    // RADV's disassembly names no processor; the capture's folder says which GPU (and
    // RADV_PERFTEST=rtwave64 which wave size) compiled it.
    let radv = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../testdata/mesa/radv");
    for (file, want) in [
        (
            "navi21/many_ahit/02_closest_hit.Assembly.txt",
            "(gfx1030 wave32)",
        ),
        (
            "navi31/many_ahit/02_closest_hit.Assembly.txt",
            "(gfx1100 wave32)",
        ),
        (
            "navi31_rtwave64/many_ahit/13_intersection.Assembly.txt",
            "(gfx1100 wave64)",
        ),
        (
            "polaris10_emulate_rt/many_ahit/13_intersection.Assembly.txt",
            "(gfx8 wave64)",
        ),
    ] {
        let path = radv.join(file);
        let out = gpuabi(&["asm", "check", "--encodings", path.to_str().unwrap()]);
        let stdout = text(&out.stdout);
        assert!(out.status.success(), "{file}: {}", text(&out.stderr));
        assert!(stdout.contains(want), "{file}: {stdout}");
        assert!(stdout.contains("from the listed encodings"), "{stdout}");
    }
    // Without --encodings the file still needs --target.
    let path = radv.join("navi21/many_ahit/02_closest_hit.Assembly.txt");
    let out = gpuabi(&["asm", "check", path.to_str().unwrap()]);
    assert!(!out.status.success());
    assert!(text(&out.stderr).contains("--target: required"));
}
