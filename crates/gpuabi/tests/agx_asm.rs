//! `gpuabi agx asm` and `gpuabi agx disasm` end to end.

mod common;

use common::{fails_naming, json, ok, scratch};

// Worked out from applegpu's field descriptions: ldimm (0x62, destination half 0,
// immediate 0), pop_exec (0x52, op 3 in bits 9..10, n = 1 in 11..12), stop (0x0088).
const PROGRAM: &str = "top:\n  ldimm r0l, 0\n  jmp_any top ; back 4 bytes\n  pop_exec 1\n  stop\n";
const BYTES: [u8; 18] = [
    0x62, 0x00, 0x00, 0x00, // ldimm r0l, 0
    0x00, 0xc0, 0xfc, 0xff, 0xff, 0xff, // jmp_any -4
    0x52, 0x0e, 0x00, 0x00, 0x00, 0x00, // pop_exec 1
    0x88, 0x00, // stop
];

fn write(dir: &std::path::Path, name: &str, data: &[u8]) -> String {
    let p = dir.join(name);
    std::fs::write(&p, data).unwrap();
    p.display().to_string()
}

#[test]
fn asm_writes_bytes_hex_and_json() {
    let dir = scratch("agx-asm");
    let src = write(&dir, "p.s", PROGRAM.as_bytes());
    let bin = dir.join("p.bin").display().to_string();
    ok(&["agx", "asm", &src, "-o", &bin]);
    assert_eq!(std::fs::read(&bin).unwrap(), BYTES);

    let hex = ok(&["agx", "asm", &src]);
    assert_eq!(hex, "62000000\n00c0fcffffff\n520e00000000\n8800\n");

    let v = json(&["agx", "asm", &src, "--format", "json"]);
    let rows = v.as_array().unwrap();
    assert_eq!(rows.len(), 4);
    assert_eq!(rows[1]["offset"], 4);
    assert_eq!(rows[1]["bytes"], "00c0fcffffff");
    assert_eq!(rows[1]["text"], "jmp_any  -4");
    assert_eq!(rows[3]["text"], "stop");
}

#[test]
fn disasm_prints_mesa_text_that_assembles_back() {
    let dir = scratch("agx-disasm");
    let bin = write(&dir, "p.bin", &BYTES);
    let text = ok(&["agx", "disasm", &bin]);
    assert_eq!(text, "ldimm    r0l, 0\njmp_any  -4\npop_exec 1\nstop\n");
    let src = write(&dir, "back.s", text.as_bytes());
    let again = dir.join("back.bin").display().to_string();
    ok(&["agx", "asm", &src, "-o", &again, "--format", "bin"]);
    assert_eq!(std::fs::read(&again).unwrap(), BYTES);

    let v = json(&["agx", "disasm", &bin, "--format", "json"]);
    assert_eq!(v[2]["offset"], 10);
    assert_eq!(v[2]["bytes"], "520e00000000");
    assert_eq!(v[2]["text"], "pop_exec 1");
}

#[test]
fn errors_name_the_place() {
    let dir = scratch("agx-asm-errors");
    let bad = write(&dir, "bad.s", b"stop\niadd r0, r1, what\n");
    fails_naming(&["agx", "asm", &bad], "bad.s:2:14");
    let unknown = write(&dir, "u.s", b"  frobnicate r0\n");
    fails_naming(&["agx", "asm", &unknown], "u.s:1:3: unknown mnemonic");
    // stop, then 0x0001, which is no instruction.
    let code = write(&dir, "bad.bin", &[0x88, 0x00, 0x01, 0x00]);
    fails_naming(&["agx", "disasm", &code], "byte offset 2");
    // A pop_exec cut short.
    let cut = write(&dir, "cut.bin", &[0x52, 0x0e, 0x00]);
    fails_naming(&["agx", "disasm", &cut], "byte offset 0");
    fails_naming(
        &["agx", "disasm", "/nonexistent/x.bin"],
        "/nonexistent/x.bin",
    );
    fails_naming(&["agx", "asm", &bad, "--format", "yaml"], "--format");
}
