//! File tests, as Cranelift's: each `tests/filetests/NAME.gsir` starts with a line
//! `; target: gfx1100 wave32` (any target and wave size, optionally followed by
//! `max-vgprs N` / `max-sgprs N`), and `NAME.s` beside it holds the expected assembly.
//! `GPUABI_BLESS=1 cargo test -p gpuabi-codegen --test filetests` rewrites the expected
//! files from the current output; review the diff before committing it.

use std::path::Path;

mod common;

use common::options;
use gpuabi_codegen::Options;

/// The options of the file's first line, `; target: ...`.
fn file_options(header: &str, file: &Path) -> Options {
    let line = header
        .strip_prefix("; target:")
        .unwrap_or_else(|| panic!("{}: first line must be `; target: ...`", file.display()));
    options(line, file)
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
        let opts = file_options(header, f);
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
