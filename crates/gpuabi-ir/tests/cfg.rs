//! Control-flow graphs: every `tests/cfg/*.gsir` file is flattened function by function and
//! the printout compared with the `.cfg` file beside it (`GPUABI_BLESS=1` rewrites those
//! files in place; review the diff). Structural invariants are checked on those files and
//! on the examples.

use std::path::{Path, PathBuf};

use gpuabi_ir::cfg::{self, BlockId, BlockKind, Cfg, Terminator};
use gpuabi_ir::{parse, verify, Module};

fn dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/cfg")
}

fn load(path: &Path) -> (String, Module) {
    let src = std::fs::read_to_string(path).unwrap();
    let name = path.display().to_string();
    let m = parse(&src).unwrap_or_else(|e| panic!("{}", e.0.render(&name, &src)));
    if let Err(e) = verify(&m) {
        panic!("{}", gpuabi_ir::diagnostic::render_all(&e.0, &name, &src));
    }
    (src, m)
}

fn printout(m: &Module) -> String {
    m.functions
        .iter()
        .map(|f| cfg::print(m, f, &Cfg::build(f)))
        .collect::<Vec<_>>()
        .join("\n")
}

/// Checks what the module doc of `gpuabi_ir::cfg` promises about structure.
fn check_invariants(m: &Module) {
    for f in &m.functions {
        let g = Cfg::build(f);
        let name = &f.name;
        assert_eq!(g.blocks[0].kind, BlockKind::Entry, "@{name}");
        for (k, b) in g.blocks.iter().enumerate() {
            match &b.term {
                Terminator::Jump { target, args } => {
                    assert_eq!(
                        args.len(),
                        g.block(*target).params.len(),
                        "@{name} block{k}: jump arguments"
                    );
                }
                Terminator::Branch {
                    cond,
                    then_block,
                    else_block,
                    merge,
                    construct,
                } => {
                    let info = g.if_info(*construct);
                    assert_eq!(info.head, BlockId(k as u32));
                    assert_eq!(
                        (info.then_block, info.else_block, info.merge),
                        (*then_block, *else_block, *merge)
                    );
                    assert_eq!(info.cond, *cond);
                    assert_eq!(g.block(*then_block).kind, BlockKind::IfThen(*construct));
                    assert_eq!(g.block(*else_block).kind, BlockKind::IfElse(*construct));
                    assert_eq!(g.block(*merge).kind, BlockKind::IfMerge(*construct));
                    // Structured layout: head < then < else < merge.
                    assert!(k < then_block.index());
                    assert!(then_block < else_block && else_block < merge);
                }
                Terminator::Return(_) | Terminator::Unreachable => {}
            }
        }
        for (k, l) in g.loops.iter().enumerate() {
            let id = gpuabi_ir::cfg::LoopId(k as u32);
            assert_eq!(g.block(l.header).kind, BlockKind::LoopHeader(id));
            assert_eq!(g.block(l.exit).kind, BlockKind::LoopExit(id));
            assert!(l.header < l.exit);
            assert_eq!(g.block(l.header).in_loop, Some(id));
            assert_eq!(g.block(l.exit).in_loop, l.parent);
            let depth = l.parent.map_or(0, |p| g.loop_info(p).depth + 1);
            assert_eq!(l.depth, depth, "@{name} loop{k}");
            // The body is contiguous: every block between header and exit is in the loop
            // (possibly nested deeper), and only those.
            for (b, block) in g.blocks.iter().enumerate() {
                let mut inside = false;
                let mut at = block.in_loop;
                while let Some(x) = at {
                    inside |= x == id;
                    at = g.loop_info(x).parent;
                }
                let between = l.header.index() <= b && b < l.exit.index();
                assert_eq!(inside, between, "@{name} loop{k} block{b}");
            }
        }
        // Jumps to a loop header come from inside the loop (continue) or right before it
        // (entry); jumps to an exit come from inside the loop.
        for k in 0..g.blocks.len() {
            for s in g.successors(BlockId(k as u32)) {
                let inside = |l: gpuabi_ir::cfg::LoopId| {
                    let li = g.loop_info(l);
                    li.header.index() <= k && k < li.exit.index()
                };
                match g.block(s).kind {
                    BlockKind::LoopExit(l) => assert!(inside(l), "@{name} block{k}"),
                    BlockKind::LoopHeader(l) => {
                        assert!(inside(l) || k + 1 == s.index(), "@{name} block{k}")
                    }
                    _ => {}
                }
            }
        }
    }
}

#[test]
fn cfg_printouts_match_the_expected_files() {
    let bless = std::env::var_os("GPUABI_BLESS").is_some_and(|v| v == "1");
    let mut inputs: Vec<PathBuf> = std::fs::read_dir(dir())
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "gsir"))
        .collect();
    inputs.sort();
    assert!(
        inputs.len() >= 3,
        "test inputs missing in {}",
        dir().display()
    );
    let mut failures = Vec::new();
    for input in &inputs {
        let (_, m) = load(input);
        check_invariants(&m);
        let got = printout(&m);
        let expected_path = input.with_extension("cfg");
        if bless {
            std::fs::write(&expected_path, &got).unwrap();
            continue;
        }
        match std::fs::read_to_string(&expected_path) {
            Ok(want) if want == got => {}
            Ok(want) => failures.push(format!(
                "{} differs from {}:\n{}",
                input.display(),
                expected_path.display(),
                diff(&want, &got)
            )),
            Err(e) => failures.push(format!(
                "{}: {e} (run with GPUABI_BLESS=1 to create it)",
                expected_path.display()
            )),
        }
    }
    assert!(
        failures.is_empty(),
        "{}\nrun with GPUABI_BLESS=1 to accept the new output",
        failures.join("\n")
    );
}

/// Line diff good enough to spot a change: lines only in `want` get `-`, only in `got` `+`.
fn diff(want: &str, got: &str) -> String {
    let (w, g): (Vec<&str>, Vec<&str>) = (want.lines().collect(), got.lines().collect());
    let mut out = String::new();
    let n = w.len().max(g.len());
    for k in 0..n {
        match (w.get(k), g.get(k)) {
            (Some(a), Some(b)) if a == b => {}
            (a, b) => {
                if let Some(a) = a {
                    out.push_str(&format!("{:4} - {a}\n", k + 1));
                }
                if let Some(b) = b {
                    out.push_str(&format!("{:4} + {b}\n", k + 1));
                }
            }
        }
    }
    out
}

#[test]
fn examples_have_well_formed_graphs() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples");
    let mut seen = 0;
    for e in std::fs::read_dir(&root).unwrap() {
        let p = e.unwrap().path();
        if p.extension().is_some_and(|e| e == "gsir") {
            let (_, m) = load(&p);
            check_invariants(&m);
            seen += 1;
        }
    }
    assert!(seen >= 3);
}
