//! File tests, as Cranelift's: each `tests/filetests/NAME.gsir` starts with a line
//! `; target: gfx1100 wave32` (any target and wave size, optionally followed by
//! `max-vgprs N` / `max-sgprs N`), and `NAME.s` beside it holds the expected assembly.
//! `GPUABI_BLESS=1 cargo test -p gpuabi-codegen --test filetests` rewrites the expected
//! files from the current output; review the diff before committing it.

use std::path::Path;

use gpuabi_amdgpu::{Target, WaveSize};
use gpuabi_codegen::Options;

fn options(header: &str, file: &Path) -> Options {
    let words: Vec<&str> = header
        .strip_prefix("; target:")
        .unwrap_or_else(|| panic!("{}: first line must be `; target: ...`", file.display()))
        .split_whitespace()
        .collect();
    let target: Target = words[0].parse().expect("target name");
    let mut o = Options::new(target);
    let mut i = 1;
    while i < words.len() {
        match words[i] {
            "wave32" => o.wave = WaveSize::W32,
            "wave64" => o.wave = WaveSize::W64,
            "max-vgprs" => {
                i += 1;
                o.max_vgprs = words[i].parse().expect("number");
            }
            "max-sgprs" => {
                i += 1;
                o.max_sgprs = words[i].parse().expect("number");
            }
            w => panic!("{}: unknown word `{w}` in the target line", file.display()),
        }
        i += 1;
    }
    o
}

#[test]
fn filetests() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/filetests");
    let bless = std::env::var("GPUABI_BLESS").as_deref() == Ok("1");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .expect("filetests directory")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "gsir"))
        .collect();
    files.sort();
    assert!(!files.is_empty(), "no file tests found");
    let mut failed = Vec::new();
    for f in &files {
        let src = std::fs::read_to_string(f).unwrap();
        let header = src.lines().next().unwrap_or_default();
        let opts = options(header, f);
        let module = gpuabi_ir::parse(&src).unwrap_or_else(|e| panic!("{}: {e:?}", f.display()));
        let out = match gpuabi_codegen::compile(&module, &opts) {
            Ok(c) => gpuabi_amdgpu::asm::print(&c.program),
            Err(e) => format!("error: {e}\n"),
        };
        let expected_path = f.with_extension("s");
        if bless {
            std::fs::write(&expected_path, &out).unwrap();
            continue;
        }
        let expected = std::fs::read_to_string(&expected_path).unwrap_or_default();
        if expected != out {
            failed.push(format!(
                "{}: output differs from {} (GPUABI_BLESS=1 to update)\n--- got ---\n{out}",
                f.display(),
                expected_path.display()
            ));
        }
    }
    assert!(failed.is_empty(), "{}", failed.join("\n"));
}
