//! `gpuabi ir ...`: check and format shader IR (`.gsir`) files and write them as LLVM IR.

use std::path::{Path, PathBuf};

use anyhow::{anyhow, bail, Context, Result};
use clap::{Args, Subcommand};
use gpuabi_ir::{diagnostic::render_all, parse, print, verify, Module};
use gpuabi_llvm::{emit, EmitOptions};

use super::write_output;

/// Commands on `.gsir` files.
#[derive(Debug, Subcommand)]
pub enum IrCommand {
    /// Parse and verify a file; print its errors with line, column and a caret.
    Check(FileArgs),
    /// Print a file in canonical form (or rewrite it with --write).
    Fmt(FmtArgs),
    /// Write the module as LLVM IR (textual `.ll`) for `llc-19 -mtriple=amdgcn-amd-amdhsa`.
    EmitLlvm(EmitLlvmArgs),
}

/// Flags of `ir emit-llvm`.
#[derive(Debug, Args)]
pub struct EmitLlvmArgs {
    /// The `.gsir` file.
    file: PathBuf,
    /// Write the LLVM IR to this file instead of standard output.
    #[arg(short, long, value_name = "FILE.ll")]
    output: Option<PathBuf>,
    /// Let LLVM inline callable functions (by default they are `noinline`, so calls stay
    /// calls).
    #[arg(long)]
    allow_inlining: bool,
    /// Leave NaN results as LLVM makes them and use llvm.minnum/maxnum for fmin/fmax (code
    /// as a compiler writes it; results differ from the interpreter's only in which NaN a
    /// NaN result is and in fmin/fmax of +0 and -0 or of a signalling NaN).
    #[arg(long)]
    loose_nans: bool,
}

/// A `.gsir` file.
#[derive(Debug, Args)]
pub struct FileArgs {
    /// The `.gsir` file.
    file: PathBuf,
}

/// Flags of `ir fmt`.
#[derive(Debug, Args)]
pub struct FmtArgs {
    /// The `.gsir` file.
    file: PathBuf,
    /// Rewrite the file in place instead of printing it (refused when the file has
    /// comments, which the canonical form does not keep).
    #[arg(long, short)]
    write: bool,
}

/// Runs an `ir` command.
pub fn run(cmd: IrCommand) -> Result<()> {
    match cmd {
        IrCommand::Check(a) => {
            let m = load(&a.file)?;
            write_output(&format!(
                "{}: ok ({} function(s), {} signature(s))",
                a.file.display(),
                m.functions.len(),
                m.sigs.len()
            ))
        }
        IrCommand::Fmt(a) => {
            let (m, source) = load_with_source(&a.file)?;
            let text = print(&m);
            if a.write {
                // `;` only ever starts a comment in the text format.
                let comments = source.lines().filter(|l| l.contains(';')).count();
                if comments > 0 {
                    bail!(
                        "--write: {} has {comments} line(s) with comments, which the canonical form drops; print to standard output instead",
                        a.file.display()
                    );
                }
                std::fs::write(&a.file, text)
                    .with_context(|| format!("cannot write {}", a.file.display()))
            } else {
                write_output(&text)
            }
        }
        IrCommand::EmitLlvm(a) => {
            let (m, source) = load_with_source(&a.file)?;
            let options = EmitOptions {
                allow_inlining: a.allow_inlining,
                loose_nans: a.loose_nans,
            };
            let name = a.file.display().to_string();
            let ll = match emit(&m, &options) {
                Ok(ll) => ll,
                Err(e) => {
                    eprint!("{}", render_all(&e.diagnostics(), &name, &source));
                    return Err(anyhow!("{name}: cannot be written as LLVM IR: {e}"));
                }
            };
            match a.output {
                Some(path) => super::write_file(&path, ll)
                    .with_context(|| format!("cannot write {}", path.display())),
                None => write_output(&ll),
            }
        }
    }
}

/// Reads, parses and verifies a `.gsir` file; diagnostics go to standard error.
pub fn load(path: &Path) -> Result<Module> {
    Ok(load_with_source(path)?.0)
}

/// Like [`load`], also returning the source text (for runtime error positions).
pub fn load_with_source(path: &Path) -> Result<(Module, String)> {
    let name = path.display().to_string();
    let source = super::read_text(path).with_context(|| format!("cannot read {name}"))?;
    let module = match parse(&source) {
        Ok(m) => m,
        Err(e) => {
            eprint!("{}", e.0.render(&name, &source));
            // The error above may be one of names (an undefined value), not of syntax.
            return Err(anyhow!("{name}: not a valid module (the error above)"));
        }
    };
    if let Err(e) = verify(&module) {
        eprint!("{}", render_all(&e.0, &name, &source));
        return Err(anyhow!("{name}: {} verifier error(s)", e.0.len()));
    }
    Ok((module, source))
}
