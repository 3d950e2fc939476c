//! The launch of a kernel as `gpuabi run` describes it: the kernel, dispatch sizes, buffers
//! and arguments, each given as the text of a flag (`--grid 128,128`, `--buffer image=64K`,
//! `--arg width=128`), parsed into the interpreter's dispatch, memory and argument bits.
//! The command line and the web page both launch through here, so a launch written for one
//! means the same in the other.
//!
//! Numbers are decimal or `0x` hex everywhere; sizes in bytes also take a `K` (KiB) or `M`
//! (MiB) suffix. Every error names the flag and its value (`--grid 1,2,3,4: expected ...`)
//! and says what was expected.

use gpuabi_ir::interp::{Dispatch, Memory, Program};
use gpuabi_ir::ir::Type;

/// A launch flag that could not be used: which flag, and the whole message (which starts
/// with the flag and its value, and says what was expected).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{message}")]
pub struct LaunchError {
    /// The flag at fault (`--grid`, `--buffer`, `--arg`, `--kernel`, ...).
    pub flag: &'static str,
    /// What was wrong with it.
    pub message: String,
}

fn err(flag: &'static str, message: String) -> LaunchError {
    LaunchError { flag, message }
}

/// Sizes of a dispatch dimension flag: the values given and the work dimension.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Sizes {
    /// X, Y, Z; the ones not given are `fill`.
    pub values: [u32; 3],
    /// How many values were given (1 to 3).
    pub dims: u32,
}

/// Parses X[,Y[,Z]] of `flag`, filling the missing dimensions with `fill`.
pub fn sizes(flag: &'static str, text: &str, fill: u32) -> Result<Sizes, LaunchError> {
    let parts: Vec<&str> = text.split(',').collect();
    if parts.len() > 3 {
        return Err(err(
            flag,
            format!("{flag} {text}: expected 1 to 3 comma-separated numbers X[,Y,Z]"),
        ));
    }
    let mut values = [fill; 3];
    for (v, p) in values.iter_mut().zip(&parts) {
        *v = number(p)
            .and_then(|n| u32::try_from(n).ok())
            .ok_or_else(|| {
                err(
                    flag,
                    format!(
                    "{flag} {text}: `{p}` is not a number from 0 to 4294967295 (decimal or 0x hex)"
                ),
                )
            })?;
    }
    Ok(Sizes {
        values,
        dims: parts.len() as u32,
    })
}

/// A non-negative number, decimal or `0x` hex.
pub fn number(text: &str) -> Option<u64> {
    let t = text.trim();
    match t.strip_prefix("0x").or_else(|| t.strip_prefix("0X")) {
        Some(hex) => u64::from_str_radix(hex, 16).ok(),
        None => t.parse().ok(),
    }
}

/// A size in bytes: a [`number`] with an optional `K` (KiB) or `M` (MiB) suffix.
pub fn byte_size(text: &str) -> Option<u64> {
    let t = text.trim();
    let (digits, unit) = if let Some(n) = t.strip_suffix(['K', 'k']) {
        (n, 1 << 10)
    } else if let Some(n) = t.strip_suffix(['M', 'm']) {
        // `0x..M`: a hex number cannot end in `M`, so the suffix is never a digit.
        (n, 1 << 20)
    } else {
        (t, 1)
    };
    number(digits)?.checked_mul(unit)
}

/// An integer of `bits` bits, decimal or `0x` hex, optionally negative (two's complement).
pub fn integer(text: &str, bits: u32) -> Option<u64> {
    let mask = if bits == 64 {
        u64::MAX
    } else {
        (1u64 << bits) - 1
    };
    let t = text.trim();
    match t.strip_prefix('-') {
        Some(m) => {
            let m = number(m)?;
            (m <= 1u64 << (bits - 1)).then(|| m.wrapping_neg() & mask)
        }
        None => number(t).filter(|v| *v <= mask),
    }
}

/// One `--buffer NAME=SIZE[:FILE]` or `--buffer NAME=u32:V,V,...`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BufferFlag {
    /// The buffer's name.
    pub name: String,
    /// Its contents.
    pub init: BufferInit,
}

/// What a `--buffer` holds at the start.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BufferInit {
    /// `SIZE` zero bytes, or the first bytes of `FILE` zero-padded to `SIZE`.
    Size {
        /// Bytes of the buffer.
        bytes: u64,
        /// The file the buffer starts with.
        file: Option<String>,
    },
    /// Little-endian dwords.
    Words(Vec<u32>),
}

/// Parses the text of one `--buffer`.
pub fn buffer(flag: &str) -> Result<BufferFlag, LaunchError> {
    let fail = |m: String| err("--buffer", m);
    let (name, rest) = flag.split_once('=').ok_or_else(|| {
        fail(format!(
            "--buffer {flag}: expected NAME=SIZE[:FILE] or NAME=u32:V,V,..."
        ))
    })?;
    if name.is_empty() {
        return Err(fail(format!("--buffer {flag}: the buffer needs a name")));
    }
    let init = if let Some(list) = rest.strip_prefix("u32:") {
        let mut words = Vec::new();
        for v in list.split(',').filter(|v| !v.trim().is_empty()) {
            let n = integer(v, 32).ok_or_else(|| {
                fail(format!(
                    "--buffer {flag}: `{v}` is not a 32-bit number (decimal or 0x hex)"
                ))
            })?;
            words.push(n as u32);
        }
        BufferInit::Words(words)
    } else {
        let (size, file) = match rest.split_once(':') {
            Some((s, f)) => (s, Some(f.to_string())),
            None => (rest, None),
        };
        let bytes = byte_size(size).ok_or_else(|| {
            fail(format!("--buffer {flag}: `{size}` is not a size in bytes (decimal or 0x hex, K/M suffixes)"))
        })?;
        BufferInit::Size { bytes, file }
    };
    Ok(BufferFlag {
        name: name.to_string(),
        init,
    })
}

impl BufferFlag {
    /// The buffer's bytes, refusing more than `max_bytes` before allocating them; `flag` is
    /// the flag's text for errors. `read_file(FILE, N)` reads at most N bytes of a file the
    /// buffer starts with (or says why it cannot, which the error quotes).
    pub fn bytes(
        &self,
        flag: &str,
        max_bytes: u64,
        read_file: impl FnOnce(&str, u64) -> Result<Vec<u8>, String>,
    ) -> Result<Vec<u8>, LaunchError> {
        let fail = |m: String| err("--buffer", m);
        match &self.init {
            BufferInit::Words(words) => {
                if words.len() as u64 * 4 > max_bytes {
                    return Err(fail(format!("--buffer {flag}: {} bytes exceeds the memory limit of {max_bytes} bytes (--max-memory)", words.len() * 4)));
                }
                Ok(words.iter().flat_map(|w| w.to_le_bytes()).collect())
            }
            BufferInit::Size { bytes, file } => {
                if *bytes > max_bytes {
                    return Err(fail(format!("--buffer {flag}: {bytes} bytes exceeds the memory limit of {max_bytes} bytes (--max-memory)")));
                }
                let mut data = match file {
                    // At most `bytes` bytes are read, so an endless file cannot exhaust memory.
                    Some(f) => read_file(f, *bytes)
                        .map_err(|e| fail(format!("--buffer {flag}: cannot read {f}: {e}")))?,
                    None => Vec::new(),
                };
                data.resize(*bytes as usize, 0);
                Ok(data)
            }
        }
    }
}

/// One `--arg NAME=VALUE`, split.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ArgFlag {
    /// The parameter's name.
    pub name: String,
    /// The value's text.
    pub value: String,
}

/// Parses the text of one `--arg`.
pub fn arg(flag: &str) -> Result<ArgFlag, LaunchError> {
    let (name, value) = flag
        .split_once('=')
        .ok_or_else(|| err("--arg", format!("--arg {flag}: expected NAME=VALUE")))?;
    if name.is_empty() {
        return Err(err(
            "--arg",
            format!("--arg {flag}: expected NAME=VALUE with a parameter name"),
        ));
    }
    Ok(ArgFlag {
        name: name.to_string(),
        value: value.to_string(),
    })
}

impl ArgFlag {
    /// The value as a buffer reference `NAME`, `@NAME` or `NAME+OFFSET`: the buffer's
    /// name and the byte offset, if `is_buffer` knows the name. `@` insists on a buffer.
    pub fn buffer(
        &self,
        is_buffer: impl Fn(&str) -> bool,
    ) -> Result<Option<(String, u64)>, LaunchError> {
        let v = self.value.trim();
        let (explicit, v) = match v.strip_prefix('@') {
            Some(rest) => (true, rest),
            None => (false, v),
        };
        let (name, offset) = match v.split_once('+') {
            Some((n, o)) => (n, Some(o)),
            None => (v, None),
        };
        if !is_buffer(name) {
            if explicit {
                return Err(err(
                    "--arg",
                    format!(
                        "--arg {}={}: no buffer `{name}` (define it with --buffer)",
                        self.name, self.value
                    ),
                ));
            }
            return Ok(None);
        }
        let offset = match offset {
            None => 0,
            Some(o) => byte_size(o).ok_or_else(|| {
                err(
                    "--arg",
                    format!(
                        "--arg {}={}: `{o}` is not a byte offset (decimal or 0x hex)",
                        self.name, self.value
                    ),
                )
            })?,
        };
        Ok(Some((name.to_string(), offset)))
    }
}

/// The kernel a launch runs: `requested`, or the only kernel of `program` (`file` names the
/// source in the errors).
pub fn choose_kernel(
    program: &Program,
    requested: Option<&str>,
    file: &str,
) -> Result<String, LaunchError> {
    let names: Vec<&str> = program.kernels().collect();
    let kernel = match requested {
        Some(k) => k.to_string(),
        None => match names.as_slice() {
            [k] => k.to_string(),
            [] => return Err(err("--kernel", format!("{file} has no kernel"))),
            _ => {
                return Err(err(
                    "--kernel",
                    format!(
                        "--kernel: the file has several kernels ({}); name one",
                        names.join(", ")
                    ),
                ))
            }
        },
    };
    if program.kernel_params(&kernel).is_none() {
        return Err(err(
            "--kernel",
            format!(
                "--kernel {kernel}: {file} has no kernel {}",
                gpuabi_layout::suggest::suggest(&kernel, "kernels", &names)
            ),
        ));
    }
    Ok(kernel)
}

/// The launch flags of one dispatch, as their texts.
#[derive(Clone, Copy, Debug, Default)]
pub struct LaunchFlags<'a> {
    /// `--grid X[,Y,Z]`: the global size; the number of values is the work dimension.
    pub grid: Option<&'a str>,
    /// `--group X[,Y,Z]` (default 1).
    pub group: Option<&'a str>,
    /// `--offset X[,Y,Z]` (default 0).
    pub offset: Option<&'a str>,
    /// Every `--buffer NAME=SIZE[:FILE]` or `NAME=u32:V,...`, in order.
    pub buffers: &'a [String],
    /// Every `--arg NAME=VALUE`.
    pub args: &'a [String],
}

/// A launch ready for the interpreter (and, through `gpuabi_exec::run`, the simulator).
#[derive(Clone, Debug)]
pub struct Prepared {
    /// Sizes and offset.
    pub dispatch: Dispatch,
    /// The buffers at their addresses.
    pub memory: Memory,
    /// The kernel's argument bits, one per parameter.
    pub args: Vec<u64>,
}

/// Parses `flags` for `kernel` of `program`: dispatch sizes, buffers (at most
/// `max_memory` bytes together; `read_file` as [`BufferFlag::bytes`] takes it) and the
/// argument of every parameter.
pub fn prepare(
    program: &Program,
    kernel: &str,
    flags: &LaunchFlags<'_>,
    max_memory: u64,
    mut read_file: impl FnMut(&str, u64) -> Result<Vec<u8>, String>,
) -> Result<Prepared, LaunchError> {
    let Some(params) = program.kernel_params(kernel) else {
        return Err(err(
            "--kernel",
            format!("--kernel {kernel}: no such kernel"),
        ));
    };
    let Some(grid) = flags.grid else {
        return Err(err(
            "--grid",
            "missing --grid X[,Y,Z]: the global size of the dispatch".to_string(),
        ));
    };
    let global = sizes("--grid", grid, 1)?;
    let group = sizes("--group", flags.group.unwrap_or("1"), 1)?;
    let offset = sizes("--offset", flags.offset.unwrap_or("0"), 0)?;
    let dispatch = Dispatch {
        global_size: global.values,
        group_size: group.values,
        global_offset: offset.values,
        work_dim: global.dims,
    };
    let mut memory = Memory::new(max_memory);
    for b in flags.buffers {
        let flag = buffer(b)?;
        let data = flag.bytes(b, max_memory, &mut read_file)?;
        memory
            .add(&flag.name, data)
            .map_err(|e| err("--buffer", format!("--buffer {b}: {e}")))?;
    }
    let args = kernel_args(flags.args, params, &memory, kernel)?;
    Ok(Prepared {
        dispatch,
        memory,
        args,
    })
}

/// The argument bits of every parameter of `kernel` from `--arg` flags: a pointer parameter
/// without one takes the buffer of its own name.
pub fn kernel_args(
    flags: &[String],
    params: &[(String, Type)],
    mem: &Memory,
    kernel: &str,
) -> Result<Vec<u64>, LaunchError> {
    let mut given: Vec<ArgFlag> = Vec::new();
    for f in flags {
        let a = arg(f)?;
        if !params.iter().any(|(p, _)| *p == a.name) {
            let names: Vec<&str> = params.iter().map(|(p, _)| p.as_str()).collect();
            return Err(err(
                "--arg",
                format!(
                    "--arg {f}: @{kernel} has no parameter `{}` (parameters: {})",
                    a.name,
                    names.join(", ")
                ),
            ));
        }
        given.push(a);
    }
    params
        .iter()
        .map(|(name, ty)| {
            let flag = match given.iter().rev().find(|a| a.name == *name) {
                Some(a) => a.clone(),
                None if *ty == Type::Ptr && mem.address(name).is_some() => ArgFlag {
                    name: name.clone(),
                    value: name.clone(),
                },
                None => {
                    return Err(err(
                        "--arg",
                        format!(
                            "missing --arg {name}=VALUE for parameter %{name}: {ty} of @{kernel}"
                        ),
                    ))
                }
            };
            arg_value(&flag, *ty, mem)?.ok_or_else(|| {
                err(
                    "--arg",
                    format!(
                        "--arg {name}={}: not a valid {ty} ({})",
                        flag.value,
                        expected(*ty)
                    ),
                )
            })
        })
        .collect()
}

fn expected(ty: Type) -> &'static str {
    match ty {
        Type::I1 => "true, false, 0 or 1",
        Type::I32 => "an integer from -2147483648 to 4294967295, decimal or 0x hex",
        Type::I64 => "a 64-bit integer, decimal or 0x hex",
        Type::F32 => "a number like 2.5",
        Type::Ptr => "a buffer name, @NAME, NAME+OFFSET, or an address",
        Type::Stack => "no value",
    }
}

fn arg_value(flag: &ArgFlag, ty: Type, mem: &Memory) -> Result<Option<u64>, LaunchError> {
    let s = flag.value.trim();
    Ok(match ty {
        Type::I1 => match s {
            "true" | "1" => Some(1),
            "false" | "0" => Some(0),
            _ => None,
        },
        Type::I32 => integer(s, 32),
        Type::I64 => integer(s, 64),
        Type::F32 => s.parse::<f32>().ok().map(|f| u64::from(f.to_bits())),
        Type::Ptr => match flag.buffer(|n| mem.address(n).is_some())? {
            Some((name, offset)) => mem.address(&name).and_then(|a| a.checked_add(offset)),
            None => number(s),
        },
        Type::Stack => None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_sizes_and_integers() {
        assert_eq!(number("0x400"), Some(1024));
        assert_eq!(number("1024"), Some(1024));
        assert_eq!(byte_size("1K"), Some(1024));
        assert_eq!(byte_size("0x10K"), Some(16 * 1024));
        assert_eq!(byte_size("2M"), Some(2 << 20));
        assert_eq!(byte_size("lots"), None);
        assert_eq!(integer("-1", 32), Some(0xffff_ffff));
        assert_eq!(integer("-0x80000000", 32), Some(0x8000_0000));
        assert_eq!(integer("-0x80000001", 32), None);
        assert_eq!(integer("0x100000000", 32), None);
        let s = sizes("--grid", "0x400,2", 1).unwrap();
        assert_eq!((s.values, s.dims), ([1024, 2, 1], 2));
        let e = sizes("--grid", "1,2,3,4", 1).unwrap_err();
        assert_eq!(e.flag, "--grid");
        assert!(
            e.to_string().starts_with("--grid 1,2,3,4: expected 1 to 3"),
            "{e}"
        );
    }

    fn no_file(_: &str, _: u64) -> Result<Vec<u8>, String> {
        Err("no files here".into())
    }

    #[test]
    fn buffer_forms() {
        let b = buffer("out=1K").unwrap();
        assert_eq!(
            b.init,
            BufferInit::Size {
                bytes: 1024,
                file: None
            }
        );
        let b = buffer("in=0x10:data.bin").unwrap();
        assert_eq!(
            b.init,
            BufferInit::Size {
                bytes: 16,
                file: Some("data.bin".into())
            }
        );
        let e = b.bytes("in=0x10:data.bin", 100, no_file).unwrap_err();
        assert_eq!(
            e.to_string(),
            "--buffer in=0x10:data.bin: cannot read data.bin: no files here"
        );
        let b = buffer("w=u32:1,0x10,-1").unwrap();
        assert_eq!(b.init, BufferInit::Words(vec![1, 16, u32::MAX]));
        assert_eq!(b.bytes("w=u32:1,0x10,-1", 100, no_file).unwrap()[4], 16);
        let e = buffer("b").unwrap_err().to_string();
        assert!(e.starts_with("--buffer b: expected NAME=SIZE"), "{e}");
        let e = buffer("out=2K")
            .unwrap()
            .bytes("out=2K", 1024, no_file)
            .unwrap_err();
        assert!(e.to_string().contains("exceeds the memory limit"), "{e}");
    }

    #[test]
    fn argument_buffers() {
        let known = |n: &str| n == "out";
        let a = arg("p=@out+0x10").unwrap();
        assert_eq!(a.buffer(known).unwrap(), Some(("out".into(), 16)));
        assert_eq!(
            arg("p=out").unwrap().buffer(known).unwrap(),
            Some(("out".into(), 0))
        );
        assert_eq!(arg("p=7").unwrap().buffer(known).unwrap(), None);
        assert!(arg("p=@nope").unwrap().buffer(known).is_err());
        assert!(arg("novalue").is_err());
    }

    #[test]
    fn a_launch_prepared() {
        let m = gpuabi_ir::parse(
            "fn @k(%out: ptr uniform, %n: i32 uniform, %x: f32 uniform) kernel {\n  ret\n}\n",
        )
        .unwrap();
        let p = Program::new(&m).unwrap();
        assert_eq!(choose_kernel(&p, None, "f.gsir").unwrap(), "k");
        let e = choose_kernel(&p, Some("kk"), "f.gsir").unwrap_err();
        assert_eq!(e.flag, "--kernel");
        let buffers = ["out=16".to_string()];
        let args = ["n=-2".to_string(), "x=1.5".to_string()];
        let flags = LaunchFlags {
            grid: Some("8,2"),
            group: Some("4"),
            buffers: &buffers,
            args: &args,
            ..LaunchFlags::default()
        };
        let l = prepare(&p, "k", &flags, 1 << 20, no_file).unwrap();
        assert_eq!(l.dispatch.global_size, [8, 2, 1]);
        assert_eq!(l.dispatch.group_size, [4, 1, 1]);
        assert_eq!(l.dispatch.work_dim, 2);
        // The first buffer lives at 1 << 32; -2 is 0xffff_fffe; 1.5 is 0x3fc0_0000.
        assert_eq!(l.args, vec![1 << 32, 0xffff_fffe, 0x3fc0_0000]);
        assert_eq!(l.memory.buffers[0].data, vec![0; 16]);
        let e = prepare(
            &p,
            "k",
            &LaunchFlags {
                grid: None,
                ..flags
            },
            1 << 20,
            no_file,
        );
        assert_eq!(e.unwrap_err().flag, "--grid");
        let bad = ["x=wide".to_string()];
        let e = prepare(
            &p,
            "k",
            &LaunchFlags {
                args: &bad,
                ..flags
            },
            1 << 20,
            no_file,
        );
        assert!(e.unwrap_err().message.starts_with("missing --arg n=VALUE"));
    }
}
