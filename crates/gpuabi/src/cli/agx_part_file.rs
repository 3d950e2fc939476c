//! A part's code as `agx run` reads it from `--prolog`, `--main` and `--epilog`: assembly
//! when the file name ends in `.s`, machine code otherwise (such as Mesa's parts in
//! `testdata/mesa/hk/parts/*.bin`). Mesa compiles the last part of a program with its `stop`
//! and the `trap`s that pad it (`hk_get_prolog_epilog` in `src/asahi/vulkan/hk_cmd_draw.c`
//! asks for it on fragment epilogs without sample shading), and the linker then adds no end
//! of its own (`agx_fast_link`), so a fragment epilog is taken whole. A part that is not
//! last (a prolog, or a main shader run before gpuabi's epilog) has such an end cut, since
//! the part after it must run.

use std::path::Path;

use anyhow::{anyhow, Context};
use gpuabi_agx_isa::{assemble, decode};

/// Reads the code of a part given with `flag`; `last` keeps a final `stop` and its `trap`s.
pub fn read_code(flag: &str, path: &Path, last: bool) -> anyhow::Result<Vec<u8>> {
    let name = path.display().to_string();
    if name.ends_with(".s") {
        let text = super::read_text(path)
            .with_context(|| format!("{flag} {name}: cannot read the file"))?;
        return Ok(assemble(&text, &name)?.bytes);
    }
    let code = super::read_bytes(path, super::MAX_INPUT_BYTES)
        .with_context(|| format!("{flag} {name}: cannot read the file"))?;
    let program = decode(&code).map_err(|e| anyhow!("{flag} {name}: {e}"))?;
    if last {
        return Ok(code);
    }
    let mut end = code.len();
    for (offset, ins) in program.iter().rev() {
        let text = ins.to_string();
        let mnemonic = text.split_whitespace().next().unwrap_or_default();
        match mnemonic {
            "trap" => end = *offset,
            "stop" => {
                end = *offset;
                break;
            }
            _ => {
                end = code.len();
                break;
            }
        }
    }
    Ok(code[..end].to_vec())
}

#[cfg(test)]
mod tests {
    use super::read_code;

    #[test]
    fn cuts_the_final_stop_and_traps() {
        let dir = std::env::temp_dir().join(format!("gpuabi-part-file-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        // pixwait 12, 0; stop; trap; trap (Mesa's encodings of `stop` 88 00, `trap` 08 00).
        let p = dir.join("part.bin");
        std::fs::write(
            &p,
            [0x48, 0x0c, 0x00, 0x00, 0x88, 0x00, 0x08, 0x00, 0x08, 0x00],
        )
        .unwrap();
        assert_eq!(
            read_code("--main", &p, false).unwrap(),
            [0x48, 0x0c, 0x00, 0x00]
        );
        // The last part keeps its end.
        assert_eq!(read_code("--epilog", &p, true).unwrap().len(), 10);
        // A `stop` in the middle stays.
        std::fs::write(&p, [0x88, 0x00, 0x48, 0x0c, 0x00, 0x00]).unwrap();
        assert_eq!(read_code("--main", &p, false).unwrap().len(), 6);
        std::fs::write(&p, [0xff]).unwrap();
        let e = read_code("--epilog", &p, true).unwrap_err().to_string();
        assert!(e.starts_with(&format!("--epilog {}: ", p.display())), "{e}");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
