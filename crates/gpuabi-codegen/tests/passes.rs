//! File tests of the passes, as Cranelift's: each `tests/passes/NAME.mir` holds comment
//! lines saying what it shows, a line `; test: PASS` naming a pass of
//! `gpuabi_codegen::pipeline::PASSES`, a line `; target: gfx1100 wave32` (any target and
//! wave size, optionally `max-vgprs N` / `max-sgprs N`), the machine IR the pass runs on,
//! then a line `; output:` and the machine IR after the pass (or `error: ...`). A
//! `NAME.gsir` file holds IR source instead, compiled up to the pass (for instruction
//! selection, whose input is IR). The validator runs after the pass.
//! `GPUABI_BLESS=1 cargo test -p gpuabi-codegen --test passes` rewrites the outputs from
//! the current code; every blessed output must be checked by hand before it is committed.

use std::path::{Path, PathBuf};

mod common;

use common::options;
use gpuabi_codegen::mir::{parse_function, print_function};
use gpuabi_codegen::pipeline::{self, Context, PrintAfter};
use gpuabi_codegen::{CallOptions, Inspect, Options};

const OUTPUT: &str = "; output:";

fn header<'a>(text: &'a str, key: &str, file: &Path) -> &'a str {
    text.lines()
        .find_map(|l| l.strip_prefix(key))
        .unwrap_or_else(|| panic!("{}: no `{key}` line", file.display()))
        .trim()
}

/// The output of `pass` on the machine IR `input`.
fn run_mir(input: &str, pass: &str, opts: Options, file: &Path) -> String {
    let p = pipeline::pass(pass).unwrap_or_else(|| {
        panic!(
            "{}: unknown pass `{pass}`: expected one of {}",
            file.display(),
            pipeline::pass_names()
        )
    });
    let mut f = parse_function(input, opts.target)
        .unwrap_or_else(|e| panic!("{}: the input does not parse: {e}", file.display()));
    // The input is printed as it was read: what the pass sees.
    assert_eq!(
        print_function(&f, opts.target),
        input
            .lines()
            .filter(|l| !l.trim_start().starts_with(';') && !l.trim().is_empty())
            .map(|l| format!("{l}\n"))
            .collect::<String>(),
        "{}: the input is not in printed form",
        file.display()
    );
    let mut ctx = Context::new(opts);
    ctx.verify = true;
    match pipeline::run_pass(&mut ctx, &mut f, p) {
        Ok(()) => {
            let out = ctx.print(&f);
            // The output reads back too.
            let again = parse_function(&out, opts.target)
                .unwrap_or_else(|e| panic!("{}: the output does not parse: {e}", file.display()));
            assert_eq!(
                print_function(&again, opts.target),
                out,
                "{}: the output does not read back to itself",
                file.display()
            );
            out
        }
        Err(e) => format!("error: {e}\n"),
    }
}

/// The functions of the IR `source` printed after `pass`.
fn run_ir(source: &str, pass: &str, opts: Options, file: &Path) -> String {
    let print_after = PrintAfter::parse(pass).unwrap_or_else(|e| panic!("{}: {e}", file.display()));
    let module = gpuabi_ir::parse(source).unwrap_or_else(|e| panic!("{}: {e:?}", file.display()));
    let out = gpuabi_codegen::compile_inspect(
        &module,
        &opts,
        &CallOptions::default(),
        &Inspect {
            verify: true,
            print_after,
        },
    );
    let mut text: String = out
        .printed
        .lines()
        .filter(|l| !l.starts_with("; after "))
        .map(|l| format!("{l}\n"))
        .collect();
    if let Err(e) = out.result {
        text.push_str(&format!("error: {e}\n"));
    }
    text
}

#[test]
fn pass_file_tests() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/passes");
    let bless = std::env::var_os("GPUABI_BLESS").is_some_and(|v| v == "1");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .expect("tests/passes")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "mir" || x == "gsir"))
        .collect();
    files.sort();
    let mut tested: Vec<String> = Vec::new();
    let mut failed = Vec::new();
    for file in &files {
        let text = std::fs::read_to_string(file).unwrap();
        let (input, expected) = match text.split_once(&format!("\n{OUTPUT}\n")) {
            Some((i, e)) => (format!("{i}\n"), e.to_string()),
            None => (text.clone(), String::new()),
        };
        let pass = header(&input, "; test:", file).to_string();
        let opts = options(header(&input, "; target:", file), file);
        let got = if file.extension().is_some_and(|x| x == "gsir") {
            run_ir(&input, &pass, opts, file)
        } else {
            run_mir(&input, &pass, opts, file)
        };
        tested.push(pass);
        if bless {
            std::fs::write(file, format!("{input}{OUTPUT}\n{got}")).unwrap();
            continue;
        }
        if got != expected {
            let line = got
                .lines()
                .zip(expected.lines())
                .position(|(a, b)| a != b)
                .unwrap_or(got.lines().count().min(expected.lines().count()));
            failed.push(format!(
                "{}: the output differs from the expected one at its line {} (GPUABI_BLESS=1 \
                 rewrites it; check it by hand)\n--- got ---\n{got}",
                file.display(),
                line + 1
            ));
        }
    }
    assert!(failed.is_empty(), "{}", failed.join("\n"));
    let missing: Vec<&str> = pipeline::PASSES
        .iter()
        .map(|p| p.name)
        .filter(|n| !tested.iter().any(|t| t == n))
        .collect();
    assert!(
        missing.is_empty(),
        "passes without a file test: {missing:?}"
    );
}
