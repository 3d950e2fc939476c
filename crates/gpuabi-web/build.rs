//! Embeds the repository's `examples/*.gsir` in the library, so the page starts with them
//! preloaded and no file is fetched at run time.

use std::fmt::Write as _;
use std::path::Path;

fn main() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples");
    println!("cargo:rerun-if-changed={}", dir.display());
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .expect("the repository's examples folder")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "gsir"))
        .collect();
    files.sort();
    let mut out = String::from("/// Every `examples/*.gsir`: (file name, text).\npub const EXAMPLES: &[(&str, &str)] = &[\n");
    for f in &files {
        println!("cargo:rerun-if-changed={}", f.display());
        let name = f
            .file_name()
            .and_then(|n| n.to_str())
            .expect("a UTF-8 name");
        let path = f.canonicalize().expect("an example file");
        let _ = writeln!(
            out,
            "    ({name:?}, include_str!({:?})),",
            path.display().to_string()
        );
    }
    out.push_str("];\n");
    let target =
        Path::new(&std::env::var("OUT_DIR").expect("cargo sets OUT_DIR")).join("examples.rs");
    std::fs::write(target, out).expect("OUT_DIR is writable");
}
