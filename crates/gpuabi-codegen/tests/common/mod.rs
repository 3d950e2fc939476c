//! What the file-test runners share: the options of a `; target:` line.

use std::path::Path;

use gpuabi_amdgpu::{Target, WaveSize};
use gpuabi_codegen::Options;

/// The options of the words after `; target:`: a target, then `wave32`/`wave64` and
/// `max-vgprs N` / `max-sgprs N` in any order.
pub fn options(line: &str, file: &Path) -> Options {
    let words: Vec<&str> = line.split_whitespace().collect();
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
