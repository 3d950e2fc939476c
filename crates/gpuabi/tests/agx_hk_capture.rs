//! Honeykrisp's shaders as captured from Mesa (`testdata/mesa/hk`, and the shared capture
//! `data/mesa/hk` when present): `agx disasm` prints Mesa's text for every part and every
//! bound binary, and `agx asm` of Mesa's text gives Mesa's bytes back.
//!
//! Expected values are Mesa's own: the `.dis` files hold what Mesa's disassembler printed
//! (offset, bytes, text), the `.bin` files the bytes.

mod common;

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use common::{gpuabi, repo, scratch, shared_data};

/// One line of a `.dis` file: `offset: hexbytes   text`.
struct DisLine {
    offset: usize,
    bytes: String,
    text: String,
}

fn parse_dis_line(line: &str) -> Option<DisLine> {
    let (offset, rest) = line.split_once(": ")?;
    let (bytes, text) = rest.trim_start().split_once(' ')?;
    Some(DisLine {
        offset: usize::from_str_radix(offset.trim(), 16).ok()?,
        bytes: bytes.to_string(),
        text: text.trim_start().to_string(),
    })
}

fn read_dis(path: &Path) -> Vec<DisLine> {
    let src = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    src.lines()
        .enumerate()
        .map(|(n, line)| {
            parse_dis_line(line)
                .unwrap_or_else(|| panic!("{}:{}: not `offset: bytes text`", path.display(), n + 1))
        })
        .collect()
}

/// The `.bin` files of a capture's `parts/` and `linked/` folders, each with its `.dis`.
fn binaries(capture: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for sub in ["parts", "linked"] {
        let dir = capture.join(sub);
        let entries = std::fs::read_dir(&dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display()));
        for e in entries {
            let p = e.unwrap().path();
            if p.extension().is_some_and(|x| x == "bin") {
                assert!(
                    p.with_extension("dis").is_file(),
                    "{} has no .dis",
                    p.display()
                );
                out.push(p);
            }
        }
    }
    out.sort();
    out
}

/// Lines of an index file without its `#` header, split at ` | `.
fn index_rows(path: &Path) -> Vec<Vec<String>> {
    let src = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    src.lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| l.split(" | ").map(|f| f.trim().to_string()).collect())
        .collect()
}

/// Every part with code that a capture's `parts/index.txt` lists, as the `.bin` holding it.
fn listed_parts(capture: &Path, shared: bool) -> BTreeSet<PathBuf> {
    let mut out = BTreeSet::new();
    for row in index_rows(&capture.join("parts/index.txt")) {
        if shared {
            // `name | event=… | stage=… | name=… | main=136B/27instr … preamble=28B/5instr …`
            for (function, key) in [("main", "main="), ("preamble", "preamble=")] {
                let sizes = row.get(4).map_or("", String::as_str);
                if sizes.split_whitespace().any(|w| w.starts_with(key)) {
                    out.insert(capture.join(format!("parts/{}.{function}.bin", row[0])));
                }
            }
        } else if row[4] != "0" {
            // `part | kind | device | compiled for | bytes | instructions | files`
            out.insert(capture.join(format!("parts/{}.bin", row[6])));
        }
    }
    out
}

/// The captures to check: the project's own, and the shared one when it is there.
fn captures() -> Vec<(PathBuf, bool)> {
    let mut out = vec![(repo().join("testdata/mesa/hk"), false)];
    if let Some(dir) = shared_data("mesa/hk") {
        out.push((dir, true));
    }
    out
}

#[test]
fn disasm_prints_mesas_text_for_every_part_and_bound_binary() {
    for (capture, shared) in captures() {
        let files = binaries(&capture);
        for part in listed_parts(&capture, shared) {
            assert!(
                files.contains(&part),
                "{} is listed but missing",
                part.display()
            );
        }
        let linked = files
            .iter()
            .filter(|f| f.parent().unwrap().ends_with("linked"));
        assert!(
            linked.count() > 0,
            "{}: no bound binaries",
            capture.display()
        );
        let mut lines = 0;
        for bin in &files {
            let want = read_dis(&bin.with_extension("dis"));
            let run = gpuabi(&["agx", "disasm", bin.to_str().unwrap()]);
            assert!(run.success(), "{}: {}", bin.display(), run.stderr);
            let got: Vec<&str> = run.stdout.lines().collect();
            assert_eq!(
                got.len(),
                want.len(),
                "{}: instruction count",
                bin.display()
            );
            for (g, w) in got.iter().zip(&want) {
                assert_eq!(*g, w.text, "{} at {:#x}", bin.display(), w.offset);
            }
            lines += want.len();
        }
        eprintln!(
            "{}: {} binaries, {lines} instructions, all as Mesa prints them",
            capture.display(),
            files.len()
        );
    }
}

#[test]
fn asm_of_mesas_text_gives_mesas_bytes() {
    let dir = scratch("agx-hk-asm");
    for (capture, _) in captures() {
        for bin in binaries(&capture) {
            let want = read_dis(&bin.with_extension("dis"));
            let source: String = want.iter().map(|l| format!("{}\n", l.text)).collect();
            let s = dir.join("part.s");
            std::fs::write(&s, source).unwrap();
            let run = gpuabi(&["agx", "asm", s.to_str().unwrap(), "--format", "json"]);
            assert!(run.success(), "{}: {}", bin.display(), run.stderr);
            let rows: serde_json::Value = serde_json::from_str(&run.stdout).unwrap();
            let rows = rows.as_array().unwrap();
            assert_eq!(rows.len(), want.len(), "{}", bin.display());
            let mut bytes = String::new();
            for (r, w) in rows.iter().zip(&want) {
                assert_eq!(r["offset"], w.offset, "{}: `{}`", bin.display(), w.text);
                assert_eq!(
                    r["bytes"],
                    w.bytes,
                    "{} at {:#x}: `{}`",
                    bin.display(),
                    w.offset,
                    w.text
                );
                bytes.push_str(r["bytes"].as_str().unwrap());
            }
            let hex: String = std::fs::read(&bin)
                .unwrap()
                .iter()
                .map(|b| format!("{b:02x}"))
                .collect();
            assert_eq!(bytes, hex, "{}", bin.display());
        }
    }
}
