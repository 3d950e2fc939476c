//! The encoder and decoder against LLVM 19: over the generated corpus (every instruction
//! and operand variant of every target and wave size, shared with `llvm_mc.rs`) plus a few
//! forms the corpus does not reach, gpuabi's bytes must equal the `.text` llvm-mc
//! assembles; decoding either must print text that encodes to the same bytes; objects
//! llvm-mc writes decode and re-encode to their `.text`; and the objects gpuabi writes
//! disassemble with llvm-objdump exactly as llvm-mc's own objects do.

mod common;

use std::path::Path;
use std::process::Command;

use common::{
    assemble, assemble_for_cpu, configs, gcn1_configs, generated_corpus, llvm_mc_available,
    scratch_dir, sibling_cpu,
};
use gpuabi_amdgpu::asm::{parse, print};
use gpuabi_amdgpu::decode::decode_with_symbols;
use gpuabi_amdgpu::elf::{read_text, write_object};
use gpuabi_amdgpu::program::Item;
use gpuabi_amdgpu::{decode, encode, Program, Target, WaveSize};

/// Forms the generated corpus does not produce (it varies one operand at a time from a
/// plain form): global accesses without an SGPR base, scratch with an SGPR offset only, a
/// backward branch, `s_waitcnt` at the counters' limits, padding, `dlc`; on GCN 1.0/1.1 the
/// VOP2 lane instructions with a literal or a negative lane, the 64-bit forms of the VOP2
/// rows, and (gfx7) literal scalar-load offsets.
fn extra_lines(target: Target) -> String {
    let text = match target {
        Target::Gfx6 | Target::Gfx7 => {
            "back:\n\ts_waitcnt vmcnt(15) expcnt(7) lgkmcnt(15)\n\ts_waitcnt vmcnt(0)\n\
             \ts_load_dword s1, s[2:3], 0xff\n\ts_buffer_load_dword s1, s[4:7], m0\n\
             \ttbuffer_store_format_x v1, v[2:3], s[8:11], s3 format:[BUF_DATA_FORMAT_32,BUF_NUM_FORMAT_FLOAT] addr64\n\
             \tv_mul_lo_i32 v1, v2, v1\n\tv_lshl_b64 v[0:1], v[0:1], 2\n\
             \tv_writelane_b32 v1, 0x12345, 5\n\tv_writelane_b32 v1, 1.0, m0\n\
             \tv_readlane_b32 s1, v2, -1\n\tv_readlane_b32 m0, v2, m0\n\
             \tv_writelane_b32 v15, 0x12345, m0\n\tv_writelane_b32 v15, s3, m0\n\
             \tv_bcnt_u32_b32_e64 v1, v8, v8\n\tv_bcnt_u32_b32 v1, v8, s14\n\
             \tv_ldexp_f32 v1, -v8, s14\n\tv_ldexp_f32_e64 v1, v8, v9\n\
             \ts_cbranch_scc0 back\n\t.p2align 4\n\ts_branch back\n"
        }
        Target::Gfx8 => {
            "back:\n\ts_waitcnt vmcnt(15) expcnt(7) lgkmcnt(15)\n\ts_waitcnt vmcnt(0)\n\
             \tv_writelane_b32 v15, s3, m0\n\
             \ts_cbranch_scc0 back\n\t.p2align 4\n\ts_branch back\n"
        }
        Target::Gfx1030 => {
            "back:\n\tglobal_load_dword v1, v[20:21], off offset:-2048\n\
             \tglobal_store_dword v[20:21], v3, off dlc\n\
             \tscratch_load_dword v1, off, s30 offset:2047\n\tscratch_store_dword off, v2, s30\n\
             \ts_waitcnt vmcnt(63) lgkmcnt(63)\n\ts_cbranch_execz back\n\t.p2align 4\n\
             \ts_branch back\n"
        }
        // RDNA 4: the split waits at their limits and the scalar loads' cache policy.
        Target::Gfx12 => {
            "back:\n\tglobal_load_b32 v1, v[20:21], off offset:-4096\n\
             \tglobal_store_b32 v[20:21], v3, off th:TH_STORE_NT_WB scope:SCOPE_SE\n\
             \tscratch_load_b32 v1, off, s30 offset:4095\n\tscratch_store_b32 off, v2, s30\n\
             \ts_wait_loadcnt 0x3f\n\ts_wait_dscnt 0x0\n\ts_wait_loadcnt_dscnt 0x3f3f\n\
             \ts_load_b64 s[0:1], s[2:3], 0x10 th:TH_LOAD_BYPASS scope:SCOPE_SYS\n\
             \ts_cbranch_execz back\n\t.p2align 4\n\ts_branch back\n"
        }
        _ => {
            "back:\n\tglobal_load_b32 v1, v[20:21], off offset:-4096\n\
             \tglobal_store_b32 v[20:21], v3, off dlc\n\
             \tscratch_load_b32 v1, off, s30 offset:4095\n\tscratch_store_b32 off, v2, s30\n\
             \ts_waitcnt vmcnt(63) expcnt(7) lgkmcnt(63)\n\ts_cbranch_execz back\n\
             \t.p2align 4\n\ts_branch back\n"
        }
    };
    let mut text = text.to_string();
    if target == Target::Gfx7 {
        text.push_str(
            "\ts_load_dword s0, s[0:1], 0x12345\n\ts_load_dword s0, s[0:1], 0x100\n\
             \ts_buffer_load_dwordx2 s[2:3], s[4:7], 0x1000\n\
             \ts_load_dwordx4 s[4:7], s[0:1], 0xffffffff\n",
        );
    }
    text
}

/// The inline constant 1/(2π) in 32- and 64-bit operands (decoded, it prints as a float
/// that must select the same inline constant again).
const INV_2PI: &str = "\tv_mov_b32 v0, 0.15915494\n\tv_add_f32_e64 v0, 0.15915494, -v1\n\
                       \ts_mov_b64 s[0:1], 0.15915494309189532\n\
                       \tv_cmp_eq_u64 VCC, 0.15915494309189532, v[0:1]\n";

fn corpus(target: Target, wave: WaveSize) -> String {
    let mut text = generated_corpus(target, wave);
    text.push_str(&extra_lines(target));
    let vcc = if wave == WaveSize::W64 {
        "vcc"
    } else {
        "vcc_lo"
    };
    // 1/(2π) is an inline constant from gfx8 on.
    if !matches!(target, Target::Gfx6 | Target::Gfx7) {
        text.push_str(&INV_2PI.replace("VCC", vcc));
    }
    text
}

/// The first instruction whose bytes differ, for the failure message.
fn first_difference(program: &Program, ours: &[u8], llvm: &[u8]) -> String {
    let layout = program.layout();
    for (entry, &offset) in program.items.iter().zip(&layout.offsets) {
        if let Item::Inst(inst) = &entry.item {
            let size = gpuabi_amdgpu::encoding::size(inst, program.target, program.wave) as usize;
            let at = offset as usize;
            let a = ours.get(at..at + size);
            let b = llvm.get(at..at + size);
            if a != b {
                return format!(
                    "`{}` at byte {offset}: gpuabi {a:02x?}, llvm-mc {b:02x?}",
                    gpuabi_amdgpu::asm::printer::print_inst(inst, program.target)
                );
            }
        }
    }
    format!("lengths {} and {}", ours.len(), llvm.len())
}

#[test]
fn corpus_encodes_as_llvm_mc_and_decodes_back() {
    if !llvm_mc_available() {
        return;
    }
    for (target, wave) in configs().into_iter().chain(gcn1_configs()) {
        let name = format!("encode-{target}-{}", wave.lanes());
        let text = corpus(target, wave);
        let program = parse(&text, target, wave).unwrap_or_else(|e| panic!("{name}: {e}"));
        let ours = encode(&program).unwrap_or_else(|e| panic!("{name}: {e}"));
        let object = assemble(&text, target, wave, &name)
            .unwrap_or_else(|e| panic!("{name}: llvm-mc rejects the corpus:\n{e}"));
        let llvm = read_text(&object).expect("llvm-mc's object").code;
        assert!(
            ours == llvm,
            "{name}: {}",
            first_difference(&program, &ours, &llvm)
        );
        if let Some(cpu) = sibling_cpu(target) {
            let object = assemble_for_cpu(&text, target, wave, cpu, &format!("{name}-{cpu}"))
                .unwrap_or_else(|e| panic!("{name}: llvm-mc -mcpu={cpu} rejects the corpus:\n{e}"));
            assert!(
                read_text(&object).unwrap().code == llvm,
                "{name}: {cpu} differs"
            );
        }
        let count = program.insts().count();
        assert!(count > 400, "{name}: only {count} instructions");
        eprintln!(
            "{name}: {count} instructions, {} bytes, identical to llvm-mc",
            ours.len()
        );

        // Decoding gives text that encodes to the same bytes (through the printer and
        // parser, as a user would see it).
        let decoded = decode(&llvm, target, wave).unwrap_or_else(|e| panic!("{name}: {e}"));
        let printed = print(&decoded);
        let reparsed = parse(&printed, target, wave)
            .unwrap_or_else(|e| panic!("{name}: decoded text does not parse: {e}\n{printed}"));
        let again = encode(&reparsed).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert!(
            again == llvm,
            "{name}: decoded text re-encodes differently: {}",
            first_difference(&reparsed, &again, &llvm)
        );
        // And llvm-mc reads the decoded text as the same code.
        let object = assemble(&printed, target, wave, &format!("{name}.decoded"))
            .unwrap_or_else(|e| panic!("{name}: llvm-mc rejects decoded text:\n{e}"));
        assert!(read_text(&object).unwrap().code == llvm, "{name}");
    }
}

/// The example programs, assembled by llvm-mc into objects: their `.text` decodes (with the
/// object's symbols as labels) and encodes back to itself.
#[test]
fn llvm_mc_objects_decode_and_reencode() {
    if !llvm_mc_available() {
        return;
    }
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples/asm");
    let mut count = 0;
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().and_then(|e| e.to_str()) != Some("s") {
            continue;
        }
        let text = std::fs::read_to_string(&path).unwrap();
        let spec = text
            .lines()
            .next()
            .unwrap_or("")
            .trim_start_matches("; gpuabi:");
        let mut target = None;
        let mut wave = None;
        for kv in spec.split_whitespace() {
            if let Some(t) = kv.strip_prefix("target=") {
                target = t.parse::<Target>().ok();
            }
            if let Some(w) = kv.strip_prefix("wave=") {
                wave = w.parse().ok().and_then(WaveSize::from_lanes);
            }
        }
        let (Some(target), Some(wave)) = (target, wave) else {
            continue;
        };
        let name = path.file_stem().unwrap().to_string_lossy().into_owned();
        let object = assemble(&text, target, wave, &format!("obj-{name}")).unwrap();
        let t = read_text(&object).unwrap();
        assert_eq!(t.target, Some(target), "{name}: e_flags");
        assert_eq!(t.relocations, 0, "{name}");
        let program = decode_with_symbols(&t.code, target, wave, &t.symbols)
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(encode(&program).unwrap(), t.code, "{name}");
        // The original text encodes to the same bytes too.
        let parsed = parse(&text, target, wave).unwrap();
        assert_eq!(encode(&parsed).unwrap(), t.code, "{name}");
        count += 1;
    }
    assert!(count >= 2, "example programs in {}", dir.display());
    // A reference to an undefined symbol leaves a relocation, which the reader counts.
    let text = "\t.text\nmain:\n\ts_mov_b32 s0, other\n\ts_endpgm\n";
    let object = assemble(text, Target::Gfx1030, WaveSize::W32, "obj-relocated").unwrap();
    assert_eq!(read_text(&object).unwrap().relocations, 1);
}

fn objdump(object: &[u8], target: Target, wave: WaveSize, name: &str) -> Option<String> {
    let path = scratch_dir().join(format!("{name}.o"));
    std::fs::write(&path, object).unwrap();
    let mut cmd = Command::new("llvm-objdump-19");
    cmd.arg("-d").arg(format!("--mcpu={}", target.llvm_cpu()));
    if target.is_rdna() {
        cmd.arg(format!("--mattr=+wavefrontsize{}", wave.lanes()));
    }
    let out = cmd.arg(&path).output().ok()?;
    assert!(
        out.status.success(),
        "{name}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    // Everything after the file name line.
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    Some(
        text.lines()
            .filter(|l| !l.contains(name))
            .collect::<Vec<_>>()
            .join("\n"),
    )
}

/// gpuabi's objects disassemble with llvm-objdump exactly as llvm-mc's objects of the same
/// text do (same symbols, same instructions).
#[test]
fn objects_disassemble_with_llvm_objdump() {
    if !llvm_mc_available() {
        return;
    }
    let found = Command::new("llvm-objdump-19")
        .arg("--version")
        .output()
        .is_ok();
    if !found {
        let msg = "llvm-objdump-19 not found: the object test is skipped";
        if std::env::var("GPUABI_REQUIRE_LLVM_MC").as_deref() == Ok("1") {
            panic!("{msg}");
        }
        eprintln!("{msg}");
        return;
    }
    for (target, wave) in configs() {
        let text = "\t.text\n\t.globl main\n\t.p2align 8\n\t.type main,@function\nmain:\n\
                    \ts_mov_b32 s0, 0x12345\n\ts_cbranch_scc1 .Lend\nloop:\n\
                    \tv_add_f32_e64 v0, -v1, |v2|\n\ts_branch loop\n.Lend:\n\ts_endpgm\n\
                    .Lfunc_end0:\n\t.size main, .Lfunc_end0-main\n";
        let name = format!("objdump-{target}-{}", wave.lanes());
        let program = parse(text, target, wave).unwrap();
        let code = encode(&program).unwrap();
        let ours = write_object(&program, &code).unwrap();
        let t = read_text(&ours).unwrap();
        assert_eq!(t.code, code);
        assert_eq!(t.target, Some(target));
        let theirs = assemble(text, target, wave, &format!("{name}.llvm")).unwrap();
        let a = objdump(&ours, target, wave, &format!("{name}.ours")).unwrap();
        let b = objdump(&theirs, target, wave, &format!("{name}.llvm")).unwrap();
        assert!(
            a.contains("<main>:") && a.contains("<loop>:"),
            "{name}:\n{a}"
        );
        assert_eq!(a, b, "{name}: disassembly of gpuabi's object vs llvm-mc's");
    }
}

/// Every row the table leaves out on GCN 1.0 or 1.1 is an instruction LLVM 19 does not
/// have there: each spelling, with the plain operands of the corpus, is refused by llvm-mc
/// with "instruction not supported on this GPU" for the target's processors. The
/// exceptions exist on GCN 1.0/1.1 with other operands: RDNA's `v_cmpx_*`, whose GCN form
/// (writing a lane mask too) is another row of the table, and `s_sendmsg`, modelled on RDNA
/// only; for them llvm-mc must accept the GCN form, so the exception stays a decision
/// rather than a gap. `s_setreg_b32` is modelled only for RDNA's flat scratch base.
#[test]
fn rows_absent_on_gcn1_are_absent_in_llvm() {
    if !llvm_mc_available() {
        return;
    }
    use gpuabi_amdgpu::opcodes::{Opcode, TABLE};
    // RDNA's `v_cmpx_*` whose GCN form is a row on the target.
    let modelled_elsewhere = |op: Opcode, target: Target| {
        op == Opcode::SSendmsg
            || (format!("{op:?}").starts_with("VCmpx")
                && TABLE.iter().any(|i| {
                    i.op != op && i.mnemonic == op.info().mnemonic && i.targets.contains(target)
                }))
    };
    // LDS instructions (but RDNA 3's `ds_bvh_stack_rtn_b32`) and `s_barrier` exist on GCN
    // 1.0/1.1 but are modelled from GCN 1.2 on (a decision: the LDS model covers the targets
    // gpuabi runs llc-19's kernels for);
    // `buffer_wbinvl1_vol` and the 128-bit LDS accesses are GCN 1.1's too.
    let gcn11 = [
        Opcode::BufferWbinvl1Vol,
        Opcode::DsReadB128,
        Opcode::DsWriteB128,
    ];
    let kept_on_gcn1 = |op: Opcode, target: Target| {
        (op.info().format == gpuabi_amdgpu::Format::Ds
            && !gcn11.contains(&op)
            && op != Opcode::DsBvhStackRtnB32)
            || op == Opcode::SBarrier
            // `v_mbcnt_*` are VOP2 on GCN 1.0/1.1, modelled (as VOP3) from GCN 1.2 on.
            || matches!(op, Opcode::VMbcntLoU32B32 | Opcode::VMbcntHiU32B32)
            || (gcn11.contains(&op) && target == Target::Gfx7)
    };
    for (target, wave) in gcn1_configs() {
        let mut lines = Vec::new();
        let mut accepted = String::new();
        for info in TABLE.iter().filter(|i| !i.targets.contains(target)) {
            // `s_setreg_b32` is modelled for RDNA's flat scratch base (the one hardware
            // register llc-19 writes), which GCN 1.0/1.1 do not have, and with
            // `s_getreg_b32` for RDNA 4's MODE float fields only.
            if matches!(info.op, Opcode::SSetregB32 | Opcode::SGetregB32) {
                continue;
            }
            // Buffer and flat atomics exist on GCN 1.0/1.1 as well, but are modelled from
            // GCN 1.2 on (the targets gpuabi runs llc-19's kernels for).
            if info.atomic.is_some() || common::UNKNOWN_TO_LLVM_19.contains(&info.op) {
                continue;
            }
            if kept_on_gcn1(info.op, target) {
                let operands: Vec<&str> =
                    info.slots().map(|k| common::samples(k, wave)[0]).collect();
                accepted.push_str(&format!("\t{} {}\n", info.mnemonic, operands.join(", ")));
                continue;
            }
            if modelled_elsewhere(info.op, target) {
                // The GCN form, with the operands of its row.
                let gcn = if info.op == Opcode::SSendmsg {
                    "\ts_sendmsg 3\n".to_string()
                } else {
                    let twin = TABLE
                        .iter()
                        .find(|i| {
                            i.op != info.op
                                && i.mnemonic == info.mnemonic
                                && i.targets.contains(target)
                        })
                        .expect("the GCN row");
                    let operands: Vec<&str> =
                        twin.slots().map(|k| common::samples(k, wave)[0]).collect();
                    format!("\t{} {}\n", info.mnemonic, operands.join(", "))
                };
                accepted.push_str(&gcn);
                continue;
            }
            for name in info.spellings() {
                let operands: Vec<&str> =
                    info.slots().map(|k| common::samples(k, wave)[0]).collect();
                lines.push(format!("\t{name} {}", operands.join(", ")));
            }
        }
        assert!(lines.len() > 50, "{target}: {} absent rows", lines.len());
        let text = lines.join("\n") + "\n";
        for cpu in [target.llvm_cpu()].into_iter().chain(sibling_cpu(target)) {
            let name = format!("absent-{target}-{cpu}");
            let err = assemble_for_cpu(&text, target, wave, cpu, &name)
                .expect_err("llvm-mc accepted rows the table leaves out");
            for (i, line) in lines.iter().enumerate() {
                let tag = format!("{name}.s:{}:", i + 1);
                let message = err
                    .lines()
                    .find(|l| l.contains(&tag))
                    .unwrap_or_else(|| panic!("{cpu} accepts `{}`", line.trim()));
                assert!(
                    message.contains("not supported on this GPU"),
                    "{cpu}: `{}`: {message}",
                    line.trim()
                );
            }
            assemble_for_cpu(&accepted, target, wave, cpu, &format!("{name}-kept"))
                .unwrap_or_else(|e| panic!("{cpu}: {e}"));
        }
    }
}

/// Image instructions print as llvm-objdump-19 prints them. LLVM 19 disassembles no GCN
/// 1.0/1.1 code, but these MIMG instructions have the same encoding on GCN 1.2 ("Southern
/// Islands Series ISA" and "AMD GCN3 ISA", MIMG: the same fields and opcodes), so the
/// reference is llvm-objdump's text of the very bytes for `tonga`: one address VGPR (the
/// encoding does not say how many), `dmask` when not 0, then the flags in LLVM's order.
#[test]
fn image_instructions_print_as_llvm_objdump() {
    if !llvm_mc_available() {
        return;
    }
    if Command::new("llvm-objdump-19")
        .arg("--version")
        .output()
        .is_err()
    {
        assert!(
            std::env::var("GPUABI_REQUIRE_LLVM_MC").as_deref() != Ok("1"),
            "llvm-objdump-19 not found"
        );
        eprintln!("llvm-objdump-19 not found: the image printing test is skipped");
        return;
    }
    let corpus = generated_corpus(Target::Gfx6, WaveSize::W64);
    let lines: Vec<&str> = corpus
        .lines()
        .filter(|l| l.trim_start().starts_with("image_"))
        .collect();
    assert!(lines.len() > 20, "{corpus}");
    let text = format!("\t.text\n{}\n", lines.join("\n"));
    let program = parse(&text, Target::Gfx6, WaveSize::W64).unwrap();
    let code = encode(&program).unwrap();
    let tonga = assemble_for_cpu(&text, Target::Gfx8, WaveSize::W64, "tonga", "mimg-tonga")
        .unwrap_or_else(|e| panic!("llvm-mc for tonga: {e}"));
    assert_eq!(read_text(&tonga).unwrap().code, code, "gfx6 and gfx8 bytes");
    let dump = objdump(&tonga, Target::Gfx8, WaveSize::W64, "mimg-tonga").unwrap();
    let theirs: Vec<String> = dump
        .lines()
        .filter_map(|l| l.trim_start().split("//").next())
        .map(|t| t.trim_end().to_string())
        .filter(|t| t.starts_with("image_"))
        .collect();
    let decoded = decode(&code, Target::Gfx6, WaveSize::W64).unwrap();
    let ours: Vec<String> = print(&decoded)
        .lines()
        .map(|l| l.trim().to_string())
        .collect();
    assert_eq!(ours, theirs);
}
