//! Every command the README shows runs as written from the repository root.
//!
//! The commands are the lines of the README's `sh` blocks (continuation lines joined,
//! comments and the output lines shown as comments left out), run in order by `bash` in a
//! folder that links every entry of the repository root, so that inputs are read where a
//! fresh clone has them and what the commands write stays out of the repository. `gpuabi`
//! is the binary under test, as is `cargo run --release --`. A command must exit with 0,
//! or with the status its line's comment states as `(exits N)`. Every file a command
//! writes in the root must be one `.gitignore` covers, so that running the README leaves
//! `git status` clean.
//!
//! Not run, and said so: `cargo test`, `cargo bench` and `cargo install` (this test runs
//! inside the first), `sudo` commands (the Mesa capture tools need root and a Debian
//! chroot), commands that read CLRX's AMD binaries through `$GPUABI_CLRX_DIR` when it names
//! no checkout of CLRX's repository (a failure with `GPUABI_REQUIRE_CLRX=1`), and LLVM's
//! tools when they are not installed (a failure with `GPUABI_REQUIRE_LLVM_MC=1`).

use std::path::{Path, PathBuf};
use std::process::Command;

/// One command of the README.
struct Shown {
    /// Its first line in README.md.
    line: usize,
    /// The command, continuation lines joined, without its comment.
    command: String,
    /// Its comment (text after ` #`).
    comment: String,
}

fn repo() -> PathBuf {
    PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."))
}

/// The byte where a line's comment starts: a `#` after whitespace, outside quotes.
fn comment_start(line: &str) -> Option<usize> {
    let (mut single, mut double) = (false, false);
    let mut previous = ' ';
    for (i, c) in line.char_indices() {
        match c {
            '\'' if !double => single = !single,
            '"' if !single => double = !double,
            '#' if !single && !double && previous.is_whitespace() => return Some(i),
            _ => {}
        }
        previous = c;
    }
    None
}

/// The commands of the README's `sh` blocks, in order.
fn commands(readme: &str) -> Vec<Shown> {
    let mut out = Vec::new();
    let mut inside = false;
    let mut pending: Option<Shown> = None;
    for (i, raw) in readme.lines().enumerate() {
        if raw.starts_with("```") {
            inside = raw == "```sh";
            continue;
        }
        if !inside {
            continue;
        }
        let (code, comment) = match comment_start(raw) {
            Some(at) => (&raw[..at], raw[at + 1..].trim()),
            None => (raw, ""),
        };
        let code = code.trim_end();
        let continued = code.ends_with('\\');
        let code = code.trim_end_matches('\\').trim();
        match &mut pending {
            Some(p) => {
                p.command.push(' ');
                p.command.push_str(code);
                if !comment.is_empty() {
                    p.comment = comment.to_string();
                }
            }
            None if code.is_empty() => continue,
            None => {
                pending = Some(Shown {
                    line: i + 1,
                    command: code.to_string(),
                    comment: comment.to_string(),
                })
            }
        }
        if !continued {
            out.extend(pending.take());
        }
    }
    out
}

/// Why `command` is not run here, or `None` to run it.
fn not_run(command: &str) -> Option<String> {
    let first = command.split_whitespace().next().unwrap_or("");
    if first == "sudo" {
        return Some("needs root and the Mesa chroot".into());
    }
    for sub in ["cargo test", "cargo bench", "cargo install"] {
        if command.starts_with(sub) {
            return Some(format!("`{sub}` is not run from inside the tests"));
        }
    }
    if command.contains("$GPUABI_CLRX_DIR") && gpuabi_testdata::clrx_dir().is_none() {
        return Some("GPUABI_CLRX_DIR names no checkout of CLRX's repository".into());
    }
    if first.starts_with("llc-") || first.starts_with("llvm-") {
        let found = Command::new(first)
            .arg("--version")
            .output()
            .is_ok_and(|o| o.status.success());
        if !found {
            assert!(
                std::env::var("GPUABI_REQUIRE_LLVM_MC").as_deref() != Ok("1"),
                "{first} is missing and GPUABI_REQUIRE_LLVM_MC=1"
            );
            return Some(format!("{first} is not installed"));
        }
    }
    None
}

/// The exit status a command's comment announces as `(exits N)`, else 0.
fn expected_status(comment: &str) -> i32 {
    comment
        .split("(exits ")
        .nth(1)
        .and_then(|rest| rest.split(')').next())
        .and_then(|n| n.trim().parse().ok())
        .unwrap_or(0)
}

/// A folder that stands for the repository root: a link to each of its entries.
fn stand_in_root(dir: &Path) {
    let _ = std::fs::remove_dir_all(dir);
    std::fs::create_dir_all(dir).unwrap();
    for entry in std::fs::read_dir(repo()).unwrap() {
        let entry = entry.unwrap();
        let name = entry.file_name();
        if name == "target" || name == ".git" || name == "out" {
            continue;
        }
        std::os::unix::fs::symlink(entry.path().canonicalize().unwrap(), dir.join(&name)).unwrap();
    }
}

/// The files in `dir` that are not links (what the commands wrote).
fn written(dir: &Path) -> Vec<String> {
    let mut out: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap())
        .filter(|e| !e.file_type().unwrap().is_symlink())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n != "bin")
        .collect();
    out.sort();
    out
}

/// Whether the repository's `.gitignore` covers a file of that name in the root.
fn ignored_by_git(name: &str) -> bool {
    let patterns = std::fs::read_to_string(repo().join(".gitignore")).unwrap();
    patterns
        .lines()
        .map(str::trim)
        .filter(|p| !p.is_empty() && !p.starts_with('#'))
        .any(|p| {
            let p = p.trim_start_matches('/');
            match p.strip_prefix('*') {
                Some(suffix) => name.ends_with(suffix),
                None => p == name,
            }
        })
}

#[test]
fn every_readme_command_runs_from_the_repository_root() {
    let readme = std::fs::read_to_string(repo().join("README.md")).unwrap();
    let shown = commands(&readme);
    assert!(shown.len() > 40, "only {} commands found", shown.len());
    let root = Path::new(env!("CARGO_TARGET_TMPDIR")).join("readme");
    stand_in_root(&root);
    let bin = root.join("bin");
    std::fs::create_dir_all(&bin).unwrap();
    let wrapper = bin.join("gpuabi");
    std::fs::write(
        &wrapper,
        format!(
            "#!/bin/sh\nexec '{}' \"$@\"\n",
            env!("CARGO_BIN_EXE_gpuabi")
        ),
    )
    .unwrap();
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&wrapper, std::fs::Permissions::from_mode(0o755)).unwrap();
    let path = format!(
        "{}:{}",
        bin.display(),
        std::env::var("PATH").unwrap_or_default()
    );

    let mut failures = Vec::new();
    let mut skipped = Vec::new();
    let mut ran = 0;
    for s in &shown {
        if let Some(why) = not_run(&s.command) {
            skipped.push(format!("README.md:{}: {why}: {}", s.line, s.command));
            continue;
        }
        let command = match s.command.strip_prefix("cargo run --release -- ") {
            Some(rest) => format!("gpuabi {rest}"),
            None => s.command.clone(),
        };
        let mut shell = Command::new("bash");
        shell
            .args(["-o", "pipefail", "-c", &command])
            .current_dir(&root)
            .env("PATH", &path);
        let out = shell.output().unwrap();
        ran += 1;
        let want = expected_status(&s.comment);
        let status = out.status.code().unwrap_or(-1);
        if status != want {
            failures.push(format!(
                "README.md:{}: exit {status}, expected {want}: {command}\n{}",
                s.line,
                String::from_utf8_lossy(&out.stderr)
                    .lines()
                    .take(6)
                    .collect::<Vec<_>>()
                    .join("\n")
            ));
        }
    }
    for name in written(&root) {
        if !ignored_by_git(&name) {
            failures.push(format!(
                "the README's commands write `{name}` in the repository root, which \
                 .gitignore does not cover"
            ));
        }
    }
    for s in &skipped {
        eprintln!("not run: {s}");
    }
    eprintln!("{ran} README commands ran, {} not run", skipped.len());
    assert!(
        failures.is_empty(),
        "{} README commands fail:\n{}",
        failures.len(),
        failures.join("\n\n")
    );
}

#[test]
fn commands_are_read_as_a_shell_reads_them() {
    let readme = "text\n```sh\ngpuabi a --x \"q # not a comment\" \\\n    --y 2   # c (exits 1)\n\
                  # output line\n\ncargo run --release -- b\n```\n```\nnot sh\n```\n";
    let c = commands(readme);
    assert_eq!(c.len(), 2);
    assert_eq!(c[0].line, 3);
    assert_eq!(c[0].command, "gpuabi a --x \"q # not a comment\" --y 2");
    assert_eq!(expected_status(&c[0].comment), 1);
    assert_eq!(c[1].command, "cargo run --release -- b");
    assert_eq!(expected_status(&c[1].comment), 0);
}
