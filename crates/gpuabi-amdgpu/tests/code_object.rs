//! AMDHSA code objects from llc-19: the kernels read from an object equal those read from
//! llc-19's assembly of the same module (descriptor fields, arguments, kernarg size), and
//! malformed, truncated or mutated objects give an error naming the place, never a panic.
//!
//! The tests that need llc-19 skip with a message when it is missing, unless
//! `GPUABI_REQUIRE_LLVM_MC=1`; the fuzz test then runs on random bytes behind a valid ELF
//! header only.

use std::path::{Path, PathBuf};
use std::process::Command;

use gpuabi_amdgpu::code_object::{read_code_object, Placement};
use gpuabi_amdgpu::hsa::read_kernels;
use gpuabi_amdgpu::Target;

const LLC: &str = "llc-19";

/// A module with a stack array, a call, an internal table and an external global, so that
/// the object has text and data relocations, a GOT entry and several kernels.
const IR: &str = "
@table = internal addrspace(1) constant [4 x i32] [i32 1, i32 2, i32 3, i32 4]
@g = addrspace(1) global i32 5

define internal i32 @f(i32 %x) noinline {
  %p = getelementptr [4 x i32], ptr addrspace(1) @table, i32 0, i32 %x
  %v = load i32, ptr addrspace(1) %p
  %w = load i32, ptr addrspace(1) @g
  %r = add i32 %v, %w
  ret i32 %r
}

define amdgpu_kernel void @a(ptr addrspace(1) %out, i32 %n, i64 %m, ptr addrspace(1) %in) {
  %arr = alloca [8 x i32], align 4, addrspace(5)
  %q = getelementptr [8 x i32], ptr addrspace(5) %arr, i32 0, i32 %n
  store volatile i32 %n, ptr addrspace(5) %q
  %v = load volatile i32, ptr addrspace(5) %q
  %r = call i32 @f(i32 %v)
  store i32 %r, ptr addrspace(1) %out
  ret void
}

define amdgpu_kernel void @b(ptr addrspace(1) %out) {
  %i = call i32 @llvm.amdgcn.workitem.id.y()
  store i32 %i, ptr addrspace(1) %out
  ret void
}

declare i32 @llvm.amdgcn.workitem.id.y()
";

fn llc_available() -> bool {
    let found = Command::new(LLC)
        .arg("--version")
        .output()
        .map(|o| o.status.success())
        .unwrap_or(false);
    if !found {
        let msg = format!(
            "{LLC} not found: the code object tests that need it are skipped (install \
             Debian's llvm-19 package; set GPUABI_REQUIRE_LLVM_MC=1 to make this a failure)"
        );
        if std::env::var("GPUABI_REQUIRE_LLVM_MC").as_deref() == Ok("1") {
            panic!("{msg}");
        }
        eprintln!("{msg}");
    }
    found
}

fn scratch_dir() -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("code_object");
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// llc-19's output for `cpu` at -O2: the object, or with `asm` the assembly text. Each
/// test passes its own `test` name, so that tests running in parallel use their own files.
fn llc(test: &str, cpu: &str, asm: bool) -> Vec<u8> {
    let dir = scratch_dir();
    let src = dir.join(format!("{test}.ll"));
    std::fs::write(&src, IR).unwrap();
    let out = dir.join(format!("{test}-{cpu}.{}", if asm { "s" } else { "o" }));
    let status = Command::new(LLC)
        .args(["-mtriple=amdgcn-amd-amdhsa", &format!("-mcpu={cpu}"), "-O2"])
        .arg(format!("-filetype={}", if asm { "asm" } else { "obj" }))
        .arg("-o")
        .arg(&out)
        .arg(&src)
        .status()
        .unwrap();
    assert!(status.success());
    std::fs::read(&out).unwrap()
}

const CPUS: [(&str, Target); 3] = [
    ("tonga", Target::Gfx8),
    ("gfx1030", Target::Gfx1030),
    ("gfx1100", Target::Gfx1100),
];

#[test]
fn object_kernels_equal_the_assembly_kernels() {
    if !llc_available() {
        return;
    }
    for (cpu, target) in CPUS {
        let object = read_code_object(&llc("equal", cpu, false)).unwrap();
        assert_eq!(object.target, target);
        let text = String::from_utf8(llc("equal", cpu, true)).unwrap();
        let wave = object.kernels[0].wave;
        let from_asm = read_kernels(&text, target, wave).unwrap();
        assert_eq!(object.kernels.len(), 2, "{cpu}");
        for k in &object.kernels {
            let a = from_asm
                .iter()
                .find(|a| a.name == k.kernel.name)
                .unwrap_or_else(|| panic!("{cpu}: no `{}` in the assembly", k.kernel.name));
            assert_eq!(k.kernel.args, a.args, "{cpu} {}", a.name);
            assert_eq!(k.kernel.kernarg_size, a.kernarg_size, "{cpu} {}", a.name);
            // The object holds the register counts in granules: compare the rest exactly,
            // and the counts as bounds.
            let (mut d, mut e) = (k.kernel.descriptor.clone(), a.descriptor.clone());
            assert!(d.next_free_vgpr >= e.next_free_vgpr, "{cpu} {}", a.name);
            assert!(d.next_free_sgpr >= e.next_free_sgpr, "{cpu} {}", a.name);
            (d.next_free_vgpr, d.next_free_sgpr) = (0, 0);
            (e.next_free_vgpr, e.next_free_sgpr) = (0, 0);
            // llvm-mc fills an absent .amdhsa_user_sgpr_count with the implied count.
            e.user_sgpr_count = Some(e.effective_user_sgpr_count(target));
            assert_eq!(d, e, "{cpu} {}", a.name);
        }
        // Both kernels' code decodes with the relocations applied.
        let placement = Placement {
            text: 0x1000,
            data: vec![0x10_0000; object.data.len()],
            got: 0x20_0000,
        };
        let program = object.program(wave, &placement);
        let labels = program.unwrap().layout().labels;
        for name in ["a", "b", "f"] {
            assert!(labels.contains_key(name), "{cpu}: no label {name}");
        }
        assert_eq!(
            object.got_symbols().len(),
            1,
            "{cpu}: one GOT entry (for g)"
        );
    }
}

/// Checks that reading `bytes` (and, if it reads, relocating and decoding it) does not
/// panic, and that an error names a place.
fn read_without_panic(bytes: &[u8]) {
    match read_code_object(bytes) {
        Err(e) => assert!(!e.place.is_empty() && !e.message.is_empty(), "{e:?}"),
        Ok(object) => {
            let placement = Placement {
                text: 0x1000,
                data: (0..object.data.len() as u64)
                    .map(|i| 0x10_0000 * (i + 1))
                    .collect(),
                got: 0x800_0000,
            };
            for k in &object.kernels {
                let _ = object.program(k.wave, &placement);
            }
            for i in 0..object.data.len() {
                let _ = object.data_bytes(i, &placement);
            }
            let _ = object.got_bytes(&placement);
        }
    }
}

#[test]
fn truncated_and_corrupted_objects_are_errors_naming_the_place() {
    if !llc_available() {
        return;
    }
    let object = llc("corrupt", "gfx1100", false);
    assert!(read_code_object(&object).is_ok());
    // Every truncation fails with an error (the section headers are at the end).
    for n in (0..object.len()).step_by(3) {
        let e = read_code_object(&object[..n]).unwrap_err();
        assert!(!e.message.is_empty(), "{n}: {e}");
    }
    let e = read_code_object(&object[..40]).unwrap_err();
    assert_eq!(e.place, "ELF header", "{e}");

    // Another machine.
    let mut bad = object.clone();
    bad[18] = 62;
    let e = read_code_object(&bad).unwrap_err().to_string();
    assert!(e.contains("e_machine is 62"), "{e}");

    // Another OS ABI.
    let mut bad = object.clone();
    bad[7] = 0;
    let e = read_code_object(&bad).unwrap_err().to_string();
    assert!(e.contains("ELFOSABI_AMDGPU_HSA"), "{e}");

    // A processor the model does not have (gfx900 = 0x02c).
    let mut bad = object.clone();
    bad[48] = 0x2c;
    let e = read_code_object(&bad).unwrap_err().to_string();
    assert!(e.contains("EF_AMDGPU_MACH 0x02c"), "{e}");

    // The metadata's MessagePack cut short: the first map's type byte claims 15 entries.
    let note_at = find(&object, b"AMDGPU\0\0") + 8;
    let mut bad = object.clone();
    bad[note_at] = 0x8f;
    let e = read_code_object(&bad).unwrap_err();
    assert!(e.place.starts_with(".note byte 0x"), "{e}");
    assert!(e.message.starts_with("metadata"), "{e}");
}

/// Offset of the first occurrence of `needle` in `hay`.
fn find(hay: &[u8], needle: &[u8]) -> usize {
    hay.windows(needle.len())
        .position(|w| w == needle)
        .expect("present")
}

/// An ELF64 header for EM_AMDGPU/AMDHSA/gfx1100 with no sections: the start of the
/// random inputs, so that they get past the header checks.
fn header() -> Vec<u8> {
    let mut h = vec![0u8; 64];
    h[..4].copy_from_slice(b"\x7fELF");
    h[4] = 2; // ELFCLASS64
    h[5] = 1; // little-endian
    h[6] = 1; // EV_CURRENT
    h[7] = 64; // ELFOSABI_AMDGPU_HSA
    h[16] = 1; // ET_REL
    h[18] = 224; // EM_AMDGPU
    h[20] = 1;
    h[48] = 0x41; // gfx1100
    h[52] = 64; // e_ehsize
    h[58] = 64; // e_shentsize
    h
}

#[test]
fn fuzzed_objects_never_panic() {
    let seed = if llc_available() {
        Some(llc("fuzz", "tonga", false))
    } else {
        None
    };
    arbtest::arbtest(|u| {
        let bytes = match (u.int_in_range(0..=2)?, &seed) {
            (0, _) => u.arbitrary::<Vec<u8>>()?,
            (1, _) | (_, None) => {
                let mut b = header();
                b.extend(u.arbitrary::<Vec<u8>>()?);
                b
            }
            (_, Some(seed)) => {
                let mut b = seed.clone();
                for _ in 0..u.int_in_range(1..=8)? {
                    let at = u.choose_index(b.len())?;
                    b[at] = u.arbitrary()?;
                }
                b
            }
        };
        read_without_panic(&bytes);
        Ok(())
    })
    .budget_ms(2_000);
}
