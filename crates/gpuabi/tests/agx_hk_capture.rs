//! Honeykrisp's shaders as captured from Mesa (`testdata/mesa/hk`, and the shared capture
//! `data/mesa/hk` when present): `agx disasm` prints Mesa's text for every part and every
//! bound binary, `agx asm` of Mesa's text gives Mesa's bytes back, and `agx link` of the
//! parts each bound binary is made of gives that binary.
//!
//! Expected values are Mesa's own: the `.dis` files hold what Mesa's disassembler printed
//! (offset, bytes, text), the `.bin` files the bytes, and the `linked/index.txt` files name
//! the parts each binary Honeykrisp bound concatenates.

mod common;

use std::collections::{BTreeMap, BTreeSet};
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

/// A capture to check and whether it is the shared one.
type Capture = (PathBuf, bool);

/// The project's own capture.
fn project() -> Vec<Capture> {
    vec![(repo().join("testdata/mesa/hk"), false)]
}

/// The shared capture, or none after saying it is missing.
fn shared() -> Vec<Capture> {
    shared_data("mesa/hk")
        .map(|dir| (dir, true))
        .into_iter()
        .collect()
}

#[test]
fn disasm_prints_mesas_text_for_every_part_and_bound_binary() {
    disasm_prints_mesas_text(project());
}

#[test]
#[cfg_attr(
    gpuabi_no_shared_data,
    ignore = "needs the shared test data (GPUABI_SHARED_DIR), which was absent when the tests were built"
)]
fn disasm_prints_mesas_text_for_every_part_and_bound_binary_of_the_shared_capture() {
    disasm_prints_mesas_text(shared());
}

fn disasm_prints_mesas_text(captures: Vec<Capture>) {
    for (capture, shared) in captures {
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
    asm_gives_mesas_bytes(project());
}

#[test]
#[cfg_attr(
    gpuabi_no_shared_data,
    ignore = "needs the shared test data (GPUABI_SHARED_DIR), which was absent when the tests were built"
)]
fn asm_of_mesas_text_gives_mesas_bytes_of_the_shared_capture() {
    asm_gives_mesas_bytes(shared());
}

fn asm_gives_mesas_bytes(captures: Vec<Capture>) {
    // One folder per capture: the two tests run at once.
    let which = if captures.iter().any(|c| c.1) {
        "shared"
    } else {
        "project"
    };
    let dir = scratch(&format!("agx-hk-asm-{which}"));
    for (capture, _) in captures {
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

/// Where a part goes on `agx link`'s command line.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Slot {
    Prolog,
    Main,
    Epilog,
}

/// One binary Honeykrisp bound and the parts it concatenates.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
struct Binding {
    /// The bound bytes (`linked/<file>.bin`).
    file: PathBuf,
    /// The parts' `.bin` files, each with its place.
    parts: Vec<(Slot, PathBuf)>,
    /// The sample count of the sample loop `agx_fast_link` put around main and epilog.
    samples: Option<u8>,
}

/// The slot of a part by its kind in the project's `parts/index.txt`.
fn project_slot(kind: &str) -> Slot {
    match kind {
        "vertex prolog" | "fragment prolog" => Slot::Prolog,
        "fragment epilog" => Slot::Epilog,
        _ => Slot::Main,
    }
}

/// The slot of a part by its name in the shared `parts/index.txt`.
fn shared_slot(name: &str) -> Slot {
    match name {
        "name=VS prolog" | "name=FS prolog" => Slot::Prolog,
        "name=FS epilog" => Slot::Epilog,
        _ => Slot::Main,
    }
}

fn bindings(capture: &Path, shared: bool) -> Vec<Binding> {
    let mut parts: BTreeMap<String, (Slot, PathBuf)> = BTreeMap::new();
    for row in index_rows(&capture.join("parts/index.txt")) {
        if shared {
            let slot = shared_slot(&row[3]);
            for function in ["main", "preamble"] {
                let name = format!("{}.{function}", row[0]);
                let slot = if function == "main" { slot } else { Slot::Main };
                parts.insert(
                    name.clone(),
                    (slot, capture.join(format!("parts/{name}.bin"))),
                );
            }
        } else {
            let slot = if row[1].starts_with("preamble") {
                Slot::Main
            } else {
                project_slot(&row[1])
            };
            parts.insert(
                row[0].clone(),
                (slot, capture.join(format!("parts/{}.bin", row[6]))),
            );
        }
    }
    let mut out = BTreeSet::new();
    for row in index_rows(&capture.join("linked/index.txt")) {
        // Project: `draw | role | address | file | bytes | = parts`; shared:
        // `file | submit | size | sha1 | = parts`.
        let (file, list) = if shared {
            (row[0].clone(), row[4].clone())
        } else {
            (row[3].clone(), row[5].clone())
        };
        let list = list.strip_prefix("= ").expect("`= parts`");
        let mut b = Binding {
            file: capture.join(format!("linked/{file}.bin")),
            parts: Vec::new(),
            samples: None,
        };
        for name in list.split(" + ") {
            match name {
                "(sample-loop header)" => {
                    assert!(
                        !shared,
                        "the shared index names no draw for its sample count"
                    );
                    // Mesa's `nr_samples_shaded`: the draw's sample count when it shades
                    // per sample (`hk_flush_dynamic_state` in `hk_cmd_draw.c`).
                    let draw = capture.join(format!("draws/{}.json", row[0]));
                    let text = std::fs::read_to_string(&draw).unwrap();
                    let v: serde_json::Value = serde_json::from_str(&text).unwrap();
                    assert_eq!(v["fragment"]["sample_shading"], true, "{}", draw.display());
                    b.samples = Some(v["fragment"]["samples"].as_u64().unwrap() as u8);
                }
                "(sample-loop footer)" => {
                    assert!(b.samples.is_some(), "{file}: footer without header")
                }
                _ => {
                    let p = parts
                        .get(name)
                        .unwrap_or_else(|| panic!("{file}: part {name} is not in parts/index.txt"));
                    b.parts.push(p.clone());
                }
            }
        }
        out.insert(b);
    }
    out.into_iter().collect()
}

/// `stop`'s `trap`s: what `agx_fast_link` writes after the sample loop's footer (the `STOP`
/// bytes of `src/asahi/lib/agx_linker.c`).
const TRAPS: [u8; 16] = [
    0x08, 0x00, 0x08, 0x00, 0x08, 0x00, 0x08, 0x00, 0x08, 0x00, 0x08, 0x00, 0x08, 0x00, 0x08, 0x00,
];

#[test]
fn link_of_mesas_parts_gives_every_bound_binary() {
    link_gives_every_bound_binary(project());
}

#[test]
#[cfg_attr(
    gpuabi_no_shared_data,
    ignore = "needs the shared test data (GPUABI_SHARED_DIR), which was absent when the tests were built"
)]
fn link_of_mesas_parts_gives_every_bound_binary_of_the_shared_capture() {
    link_gives_every_bound_binary(shared());
}

fn link_gives_every_bound_binary(captures: Vec<Capture>) {
    // One folder per capture: the two tests run at once.
    let which = if captures.iter().any(|c| c.1) {
        "shared"
    } else {
        "project"
    };
    let dir = scratch(&format!("agx-hk-link-{which}"));
    for (capture, shared) in captures {
        let all = bindings(&capture, shared);
        let files: BTreeSet<&PathBuf> = all.iter().map(|b| &b.file).collect();
        let (mut agree, mut looped) = (0, 0);
        // Bindings `agx_fast_link` made of several parts (the others are one part bound as
        // compiled: preambles, background and end-of-tile programs, a main vertex shader
        // whose prolog is empty).
        let joined = all.iter().filter(|b| b.parts.len() > 1).count();
        let mut failures = Vec::new();
        for b in &all {
            let out = dir.join("linked.bin");
            let mut args: Vec<String> = vec!["agx".into(), "link".into()];
            for (slot, path) in &b.parts {
                let flag = match slot {
                    Slot::Prolog => "--prolog",
                    Slot::Main => "--main",
                    Slot::Epilog => "--epilog",
                };
                args.push(flag.into());
                args.push(path.display().to_string());
            }
            if let Some(s) = b.samples {
                args.push("--samples".into());
                args.push(s.to_string());
            }
            args.extend(["-o".into(), out.display().to_string()]);
            args.extend(["--format".into(), "json".into()]);
            let argv: Vec<&str> = args.iter().map(String::as_str).collect();
            let run = gpuabi(&argv);
            assert!(run.success(), "{argv:?}: {}", run.stderr);
            let summary: serde_json::Value = serde_json::from_str(&run.stdout).unwrap();
            // Mesa's parts keep the conventions the linker checks (who stops, who does not).
            assert_eq!(summary["warnings"], serde_json::json!([]), "{argv:?}");
            let got = std::fs::read(&out).unwrap();
            // The captured bytes end where Mesa's disassembler stopped, at the first `trap`
            // (`agx2_disassemble` in `src/asahi/isa/disasm.h`); the parts end there too, so
            // only the traps the linker itself writes after a sample loop are beyond it.
            let mut want = std::fs::read(&b.file).unwrap();
            if b.samples.is_some() {
                want.extend(TRAPS);
                looped += 1;
            }
            if got == want {
                agree += 1;
            } else {
                failures.push(format!(
                    "{}: {} bytes linked, {} bound ({argv:?})",
                    b.file.display(),
                    got.len(),
                    want.len()
                ));
            }
        }
        eprintln!(
            "{}: {agree} of {} links agree byte for byte ({joined} of several parts, {looped} of them with a sample loop; {} distinct bound binaries)",
            capture.display(),
            all.len(),
            files.len()
        );
        assert!(joined > 0);
        assert!(failures.is_empty(), "{}", failures.join("\n"));
        assert!(agree > 0);
        if !shared {
            // Both sample-shaded draws of the project's capture (4 and 2 samples).
            assert_eq!(looped, 2);
        }
    }
}
