//! PAL compute shaders as llc-19 writes them for `amdgcn-amd-amdpal`: tests/llc/pal.ll
//! (straight-line code, a loop, a divergent branch, a stack array in scratch, LDS shared by
//! the waves of a work-group across a barrier, a call checked against LLVM's convention
//! (`llvm-gfx`), buffer loads and stores through V#s in user SGPRs, work-group ids and 2D
//! work-item ids), each shader compiled as a module of its own at -O0 and -O2 for tonga,
//! gfx1030 and gfx1100 (at -O2 also with version-3 metadata, whose named fields must give
//! the same RSRC2), as assembly and as an object, read from its own PAL metadata,
//! dispatched by `gpuabi_sim::pal`, and compared with the values this test computes in
//! Rust.
//!
//! Skipped with a message when llc-19 is missing, unless `GPUABI_REQUIRE_LLVM_MC=1`.

use gpuabi_amdgpu::asm::parse;
use gpuabi_amdgpu::code_object::read_code_object;
use gpuabi_amdgpu::pal::{read_assembly, PalShader};
use gpuabi_amdgpu::{Program, Target, WaveSize};
use gpuabi_sim::dispatch::NdRange;
use gpuabi_sim::pal::{dispatch, PalDispatchError, UserData, UserSgprs, GIT_BUFFER};
use gpuabi_sim::{Contract, Image, Limits, Machine, Memory};

mod llc_tool;

use llc_tool::{compile_as, input, llc_available};

const SHADERS: &str = include_str!("llc/pal.ll");
/// Dwords of `in` and `out`.
const ITEMS: u32 = 256;
const N: u32 = 37;

/// The sections of tests/llc/pal.ll: (name, COMPUTE_PGM_RSRC2 to merge in, text).
fn sections() -> Vec<(String, Option<u16>, String)> {
    let mut out: Vec<(String, Option<u16>, String)> = Vec::new();
    for line in SHADERS.lines() {
        if let Some(head) = line.strip_prefix(";;;; ") {
            let mut words = head.split_whitespace();
            let name = words.next().unwrap().to_string();
            let rsrc2 = words
                .next()
                .and_then(|w| w.strip_prefix("RSRC2=0x"))
                .map(|h| u16::from_str_radix(h, 16).unwrap());
            out.push((name, rsrc2, String::new()));
        } else if let Some(last) = out.last_mut() {
            last.2.push_str(line);
            last.2.push('\n');
        }
    }
    out
}

/// `!amdgpu.pal.metadata.msgpack` holding `{amdpal.pipelines: [{.registers: {0x2e13:
/// rsrc2}}]}`, encoded here by the MessagePack specification (fixmap 0x81, fixstr
/// 0xa0 + length, fixarray 0x91, uint16 0xcd), which LLVM merges into the metadata it
/// writes.
fn rsrc2_metadata(rsrc2: u16) -> String {
    let mut bytes = vec![0x81, 0xa0 + 16];
    bytes.extend(b"amdpal.pipelines");
    bytes.extend([0x91, 0x81, 0xa0 + 10]);
    bytes.extend(b".registers");
    bytes.extend([0x81, 0xcd, 0x2e, 0x13, 0xcd]);
    bytes.extend(rsrc2.to_be_bytes());
    let escaped: String = bytes.iter().map(|b| format!("\\{b:02X}")).collect();
    format!("!amdgpu.pal.metadata.msgpack = !{{!0}}\n!0 = !{{!\"{escaped}\"}}\n")
}

/// A MessagePack value of the kinds PAL metadata uses.
enum Mp {
    Map(Vec<(&'static str, Mp)>),
    Array(Vec<Mp>),
    Uint(u16),
    Bool(bool),
}

/// Encodes `v` by the MessagePack specification: fixmap 0x80 + n, fixarray 0x90 + n,
/// fixstr 0xa0 + length, positive fixint below 128, uint16 0xcd, false 0xc2, true 0xc3.
fn encode(v: &Mp, out: &mut Vec<u8>) {
    match v {
        Mp::Map(entries) => {
            out.push(0x80 + entries.len() as u8);
            for (k, v) in entries {
                out.push(0xa0 + k.len() as u8);
                out.extend(k.as_bytes());
                encode(v, out);
            }
        }
        Mp::Array(items) => {
            out.push(0x90 + items.len() as u8);
            for v in items {
                encode(v, out);
            }
        }
        Mp::Uint(n) if *n < 128 => out.push(*n as u8),
        Mp::Uint(n) => {
            out.push(0xcd);
            out.extend(n.to_be_bytes());
        }
        Mp::Bool(b) => out.push(if *b { 0xc3 } else { 0xc2 }),
    }
}

/// Version-3 PAL metadata asking for the fields of `rsrc2` by name (`amdpal.version` [3,
/// 0]; `.hardware_stages.cs.user_sgprs`; `.compute_registers` with the work-group id,
/// information and work-item id fields), which LLVM merges into what it writes.
fn version3_metadata(rsrc2: u16) -> String {
    let bit = |b: u32| Mp::Bool((rsrc2 >> b) & 1 != 0);
    let pipeline = Mp::Map(vec![
        (
            ".compute_registers",
            Mp::Map(vec![
                (".tgid_x_en", bit(7)),
                (".tgid_y_en", bit(8)),
                (".tgid_z_en", bit(9)),
                (".tg_size_en", bit(10)),
                (".tidig_comp_cnt", Mp::Uint((rsrc2 >> 11) & 3)),
            ]),
        ),
        (
            ".hardware_stages",
            Mp::Map(vec![(
                ".cs",
                Mp::Map(vec![(".user_sgprs", Mp::Uint((rsrc2 >> 1) & 31))]),
            )]),
        ),
    ]);
    let root = Mp::Map(vec![
        ("amdpal.pipelines", Mp::Array(vec![pipeline])),
        ("amdpal.version", Mp::Array(vec![Mp::Uint(3), Mp::Uint(0)])),
    ]);
    let mut bytes = Vec::new();
    encode(&root, &mut bytes);
    let escaped: String = bytes.iter().map(|b| format!("\\{b:02X}")).collect();
    format!("!amdgpu.pal.metadata.msgpack = !{{!0}}\n!0 = !{{!\"{escaped}\"}}\n")
}

/// The module of shader `name` for `target`, with version-2 metadata (`v3` false) or
/// version-3 metadata.
fn module(name: &str, target: Target, v3: bool) -> String {
    let sections = sections();
    let (_, rsrc2, text) = sections.iter().find(|s| s.0 == name).unwrap();
    let decls = &sections.iter().find(|s| s.0 == "declarations").unwrap().2;
    let (args, unpack) = if target == Target::Gfx1100 {
        (
            "i32 %tid",
            "%tx = and i32 %tid, 1023\n  %ty.s = lshr i32 %tid, 10\n  %ty = and i32 %ty.s, 1023",
        )
    } else {
        ("i32 %tx, i32 %ty, i32 %tz", "")
    };
    let mut ir = text.replace("TID_ARGS", args).replace("TID_UNPACK", unpack);
    ir.push_str(decls);
    match (rsrc2, v3) {
        (Some(v), false) => ir.push_str(&rsrc2_metadata(*v)),
        (v, true) => ir.push_str(&version3_metadata(v.unwrap_or(0))),
        (None, false) => {}
    }
    ir
}

/// llc-19's assembly (`obj` false) or object of `ir` for `cpu` at `-O{opt}`.
fn compile(ir: &str, name: &str, cpu: &str, opt: u32, obj: bool) -> Vec<u8> {
    // Each target's module differs (its work-item id arguments), so the file names do.
    let module = format!("{name}-{cpu}");
    let filetype = if obj { "obj" } else { "asm" };
    compile_as(
        "llc_pal",
        ir,
        &module,
        "amdgcn-amd-amdpal",
        cpu,
        opt,
        filetype,
    )
}

/// The shader and its code, from llc's assembly or object.
fn load(bytes: &[u8], obj: bool, target: Target, memory: &mut Memory) -> (PalShader, Program) {
    if obj {
        let object = read_code_object(bytes).unwrap();
        assert_eq!(object.target, target);
        let shader = object.pal.clone().expect("PAL metadata");
        let program = gpuabi_sim::code_object::load_code(
            &object,
            shader.wave,
            memory,
            Limits::default().global_bytes,
        )
        .unwrap();
        (shader, program)
    } else {
        let text = std::str::from_utf8(bytes).unwrap();
        let shader = read_assembly(text, target).unwrap();
        let program = parse(text, target, shader.wave).unwrap();
        (shader, program)
    }
}

/// What shader `name` writes at index `i` (`None`: nothing), from the IR's comments.
fn expected(name: &str, i: u32) -> Option<u32> {
    let x = input(i);
    let n = N;
    let one_d = |items: u32, v: u32| (i < items).then_some(v);
    match name {
        "cs_plain" => one_d(64, x.wrapping_mul(n).wrapping_add(i)),
        "cs_straight" => one_d(128, x.wrapping_mul(3).wrapping_add(n) ^ (i << 1)),
        "cs_loop" => one_d(
            128,
            (0..x % 16).fold(0u32, |s, k| {
                s.wrapping_add(k.wrapping_mul(n).wrapping_add(i))
            }),
        ),
        "cs_branch" => one_d(
            128,
            if i & 1 != 0 {
                x.wrapping_mul(x)
            } else {
                x.wrapping_sub(n)
            },
        ),
        "cs_stack" => {
            let arr = |k: u32| x.wrapping_mul(k + 1);
            one_d(128, arr(i.wrapping_mul(5) % 16).wrapping_add(arr(n % 16)))
        }
        "cs_call" => one_d(128, (x.wrapping_mul(n).wrapping_add(7)) ^ i),
        "cs_lds" => one_d(128, input(i / 64 * 64 + 63 - i % 64).wrapping_add(n)),
        "cs_2d" => {
            let (gx, gy) = (i % 16, i / 16);
            Some(x.wrapping_add(gx * 1000).wrapping_add(gy))
        }
        _ => panic!("no reference for {name}"),
    }
}

fn ndrange(name: &str) -> NdRange {
    match name {
        "cs_plain" => NdRange {
            work_dim: 1,
            global: [64, 1, 1],
            local: [64, 1, 1],
            offset: [0; 3],
        },
        "cs_2d" => NdRange {
            work_dim: 2,
            global: [16, 16, 1],
            local: [8, 8, 1],
            offset: [0; 3],
        },
        _ => NdRange {
            work_dim: 1,
            global: [128, 1, 1],
            local: [64, 1, 1],
            offset: [0; 3],
        },
    }
}

/// The user data every shader takes: V#s of `in` and `out` in s[1:4] and s[5:8], `n` in
/// s9.
fn user_data() -> Vec<UserSgprs> {
    vec![
        UserSgprs {
            first: 1,
            value: UserData::Resource("in".into()),
            flag: "in".into(),
        },
        UserSgprs {
            first: 5,
            value: UserData::Resource("out".into()),
            flag: "out".into(),
        },
        UserSgprs {
            first: 9,
            value: UserData::Dwords(vec![N]),
            flag: "n".into(),
        },
    ]
}

/// Runs `name` from llc's output and checks every dword of `out`; returns the shader.
fn run(name: &str, bytes: &[u8], obj: bool, target: Target, what: &str) -> PalShader {
    let limits = Limits::default();
    let mut memory = Memory::new();
    let (shader, program) = load(bytes, obj, target, &mut memory);
    let input_bytes: Vec<u8> = (0..ITEMS).flat_map(|i| input(i).to_le_bytes()).collect();
    memory.add("in", input_bytes, limits.global_bytes).unwrap();
    memory
        .add("out", vec![0; 4 * ITEMS as usize], limits.global_bytes)
        .unwrap();
    let setups = dispatch(
        &shader,
        &program,
        &ndrange(name),
        &user_data(),
        &mut memory,
        &limits,
    )
    .unwrap_or_else(|e| panic!("{what}: {e}"));
    let uses_git = memory.find(GIT_BUFFER).is_some();
    assert_eq!(
        uses_git,
        shader.scratch_enabled() && target != Target::Gfx1100,
        "{what}: the GIT is there exactly when scratch needs it"
    );
    let mut machine = Machine::new(Image::new(&program).unwrap());
    machine.memory = memory;
    machine.contract = Some(Contract::llvm_gfx());
    machine
        .run(&shader.entry, &setups)
        .unwrap_or_else(|e| panic!("{what}: {e}"));
    let violations: Vec<String> = machine.violations().iter().map(|v| v.to_string()).collect();
    assert!(violations.is_empty(), "{what}: {violations:#?}");
    let calls = machine.contract.as_ref().map_or(0, |c| c.checked_returns);
    assert_eq!(
        name == "cs_call",
        calls > 0,
        "{what}: {calls} calls returned"
    );
    let out = machine.memory.find("out").unwrap();
    for (i, c) in out.data.chunks(4).enumerate() {
        let v = u32::from_le_bytes([c[0], c[1], c[2], c[3]]);
        let want = expected(name, i as u32).unwrap_or(0);
        assert_eq!(v, want, "{what}: out[{i}] is {v}, expected {want}");
    }
    shader
}

#[test]
fn llc_pal_shaders_run_from_their_own_metadata() {
    if !llc_available() {
        return;
    }
    let names: Vec<String> = sections()
        .into_iter()
        .map(|s| s.0)
        .filter(|n| n != "declarations")
        .collect();
    assert_eq!(names.len(), 8);
    for (cpu, target, wave) in [
        ("tonga", Target::Gfx8, WaveSize::W64),
        ("gfx1030", Target::Gfx1030, WaveSize::W32),
        ("gfx1100", Target::Gfx1100, WaveSize::W32),
    ] {
        for name in &names {
            let ir = module(name, target, false);
            let ir3 = module(name, target, true);
            for opt in [0, 2] {
                let asm = compile(&ir, name, cpu, opt, false);
                let obj = compile(&ir, name, cpu, opt, true);
                let from_asm = run(
                    name,
                    &asm,
                    false,
                    target,
                    &format!("{name} {cpu} -O{opt} .s"),
                );
                let from_obj = run(
                    name,
                    &obj,
                    true,
                    target,
                    &format!("{name} {cpu} -O{opt} .o"),
                );
                // The YAML of the assembly and the MessagePack of the object say the same.
                assert_eq!(from_asm, from_obj, "{name} {cpu} -O{opt}");
                assert_eq!(from_asm.wave, wave, "{name} {cpu}");
                // Version-3 metadata gives the same RSRC2 by named fields (checked at
                // -O2 only, to keep the test short).
                if opt == 2 {
                    let name3 = format!("{name}-v3");
                    let what = format!("{name} {cpu} -O{opt} version 3");
                    let asm3 = compile(&ir3, &name3, cpu, opt, false);
                    let obj3 = compile(&ir3, &name3, cpu, opt, true);
                    let v3_asm = run(name, &asm3, false, target, &format!("{what} .s"));
                    let v3_obj = run(name, &obj3, true, target, &format!("{what} .o"));
                    assert_eq!(v3_asm, v3_obj, "{what}");
                    assert_eq!(v3_asm.rsrc2, from_asm.rsrc2, "{what}");
                    assert_eq!(v3_asm.wave, from_asm.wave, "{what}");
                }
                if name == "cs_stack" {
                    assert!(
                        from_asm.scratch_enabled(),
                        "{name} {cpu} -O{opt}: no scratch"
                    );
                }
                if name == "cs_lds" {
                    // 256 bytes of LDS: one granule of 512.
                    assert_eq!(from_asm.lds_bytes(), 512, "{name} {cpu} -O{opt}");
                }
                if name == "cs_2d" {
                    assert_eq!(from_asm.user_sgprs(), 10);
                    assert_eq!(from_asm.workgroup_ids(), [true, true, false]);
                }
            }
        }
    }
}

/// A PAL shader as the metadata would describe it: f32 denormals kept, IEEE mode as given.
fn hand_shader(rsrc2: u32, sgpr_count: u32, ieee: bool) -> PalShader {
    PalShader {
        entry: "main".into(),
        wave: WaveSize::W32,
        // FLOAT_MODE 0xf0 (bits 12-19), IEEE_MODE bit 23.
        rsrc1: 0xf0 << 12 | u32::from(ieee) << 23,
        rsrc2,
        sgpr_count: Some(sgpr_count),
        vgpr_count: Some(3),
        scratch_bytes: 16,
        threadgroup_dimensions: None,
    }
}

fn bind(first: u16, value: UserData, flag: &str) -> UserSgprs {
    UserSgprs {
        first,
        value,
        flag: flag.into(),
    }
}

fn try_dispatch(
    shader: &PalShader,
    code: &str,
    target: Target,
    user: &[UserSgprs],
    nd: &NdRange,
) -> Result<(Vec<gpuabi_sim::WaveSetup>, Memory), PalDispatchError> {
    let program = parse(code, target, WaveSize::W32).unwrap();
    let mut memory = Memory::new();
    memory.add("buf", vec![0; 64], 1 << 20).unwrap();
    let setups = dispatch(shader, &program, nd, user, &mut memory, &Limits::default())?;
    Ok((setups, memory))
}

const ENDPGM: &str = "main:\n  s_endpgm\n";

fn one_group() -> NdRange {
    ndrange("cs_plain")
}

#[test]
fn bindings_that_do_not_fit_are_refused_naming_the_flag() {
    let cases: Vec<(PalShader, Target, Vec<UserSgprs>, &str)> = vec![
        // SCRATCH_EN on gfx1030: s0 is the GIT address.
        (
            hand_shader(1, 16, true),
            Target::Gfx1030,
            vec![bind(0, UserData::Resource("buf".into()), "--buffer s0=64")],
            "--buffer s0=64: s0 holds the low half of PAL's global information table",
        ),
        // USER_SGPR 6: a V# at s[4:7] straddles its end, s6 is beyond it.
        (
            hand_shader(6 << 1, 16, true),
            Target::Gfx1100,
            vec![bind(
                4,
                UserData::Resource("buf".into()),
                "--arg s[4:7]=@buf",
            )],
            "--arg s[4:7]=@buf: s[4:7] straddles the end of the shader's user data: its \
             COMPUTE_PGM_RSRC2.USER_SGPR is 6 (s0-s5)",
        ),
        (
            hand_shader(6 << 1, 16, true),
            Target::Gfx1100,
            vec![bind(6, UserData::Dwords(vec![1]), "--arg s6=1")],
            "--arg s6=1: s6 is not in the shader's user data",
        ),
        // Without USER_SGPR: at most 16 user SGPRs.
        (
            hand_shader(0, 106, true),
            Target::Gfx1030,
            vec![bind(
                14,
                UserData::Resource("buf".into()),
                "--buffer s14=64",
            )],
            "--buffer s14=64: s[14:17] straddles the end of user data",
        ),
        // An SGPR the shader does not use.
        (
            hand_shader(0, 6, true),
            Target::Gfx1030,
            vec![bind(7, UserData::Dwords(vec![1]), "--arg s7=1")],
            "--arg s7=1: the shader uses 6 SGPRs (.sgpr_count), so it never reads s7",
        ),
        (
            hand_shader(0, 16, true),
            Target::Gfx1030,
            vec![
                bind(1, UserData::Dwords(vec![1, 2]), "--arg s1=1,2"),
                bind(2, UserData::Dwords(vec![3]), "--arg s2=3"),
            ],
            "--arg s2=3: s2 is bound twice",
        ),
        (
            hand_shader(0, 16, true),
            Target::Gfx1030,
            vec![bind(
                1,
                UserData::Address("nothing".into()),
                "--arg s1=@nothing",
            )],
            "--arg s1=@nothing: no buffer `nothing`",
        ),
    ];
    for (shader, target, user, want) in cases {
        let e = try_dispatch(&shader, ENDPGM, target, &user, &one_group())
            .map(|_| ())
            .unwrap_err()
            .to_string();
        assert!(e.starts_with(want), "{e}\n  expected to start with: {want}");
    }
}

#[test]
fn float_modes_the_model_does_not_compute_are_refused() {
    let code = "main:\n  v_add_f32 v1, v0, v0\n  v_max_f32 v1, v0, v1\n  s_endpgm\n";
    let e = try_dispatch(
        &hand_shader(0, 8, false),
        code,
        Target::Gfx1030,
        &[],
        &one_group(),
    )
    .map(|_| ())
    .unwrap_err()
    .to_string();
    assert!(
        e.contains("IEEE mode off") && e.contains("`v_max_f32` (line 3)"),
        "{e}"
    );
    // Without min/max the mode makes no difference.
    let code = "main:\n  v_add_f32 v1, v0, v0\n  s_endpgm\n";
    try_dispatch(
        &hand_shader(0, 8, false),
        code,
        Target::Gfx1030,
        &[],
        &one_group(),
    )
    .unwrap();
    let mut flushing = hand_shader(0, 8, true);
    flushing.rsrc1 &= !(0xff << 12);
    let e = try_dispatch(&flushing, ENDPGM, Target::Gfx1030, &[], &one_group())
        .map(|_| ())
        .unwrap_err()
        .to_string();
    assert!(e.contains("flushes f32 denormals"), "{e}");
}

/// The SGPRs after the user data in the hardware's order (RDNA 2 ISA guide, "Initial Wave
/// State"): work-group ids x and z, the work-group information, the scratch wave offset;
/// s0 the GIT address, whose bytes 16-31 hold the scratch V#.
#[test]
fn system_sgprs_follow_the_user_data_in_hardware_order() {
    // USER_SGPR 3, SCRATCH_EN, TGID_X_EN, TGID_Z_EN, TG_SIZE_EN.
    let rsrc2 = 1 | 3 << 1 | 1 << 7 | 1 << 9 | 1 << 10;
    let nd = NdRange {
        work_dim: 3,
        global: [64, 1, 3],
        local: [32, 1, 1],
        offset: [0; 3],
    };
    let user = [bind(1, UserData::Dwords(vec![7, 8]), "--arg s1=7,8")];
    let (setups, memory) = try_dispatch(
        &hand_shader(rsrc2, 16, true),
        ENDPGM,
        Target::Gfx1030,
        &user,
        &nd,
    )
    .unwrap();
    assert_eq!(setups.len(), 6, "2x1x3 work-groups of one wave32 each");
    let scratch = memory.find("pal_scratch").unwrap();
    // 16 bytes per lane, 32 lanes per wave, 6 waves.
    assert_eq!(scratch.data.len(), 16 * 32 * 6);
    for (w, s) in setups.iter().enumerate() {
        let (gx, gz) = (w as u32 % 2, w as u32 / 2);
        let mut sgprs = s.sgprs.clone();
        sgprs.sort();
        let wave_offset = w as u32 * 16 * 32;
        assert_eq!(
            sgprs,
            vec![
                (0, gpuabi_sim::pal::GIT_ADDRESS as u32),
                (1, 7),
                (2, 8),
                (3, gx),
                (4, gz),
                (5, 1 << 31 | 1),
                (6, wave_offset)
            ],
            "wave {w}"
        );
        assert_eq!(s.vgprs.len(), 3, "ids x, y, z for a 3D NDRange");
    }
    let git = memory.find(GIT_BUFFER).unwrap();
    assert_eq!(git.base, gpuabi_sim::pal::GIT_ADDRESS);
    let word = |k: usize| u32::from_le_bytes(git.data[16 + 4 * k..20 + 4 * k].try_into().unwrap());
    // The V# (GCN3/RDNA2 buffer resource): base in dword 0 and dword 1 bits 0-15, swizzle
    // in dword 1 bit 31, num_records in dword 2, index stride 64 (3) in dword 3 bits
    // 21-22, ADD_TID_ENABLE bit 23.
    assert_eq!(
        u64::from(word(0)) | u64::from(word(1) & 0xffff) << 32,
        scratch.base
    );
    assert_eq!(word(1) >> 31, 1);
    assert_eq!(word(2), 16);
    assert_eq!((word(3) >> 21) & 3, 3);
    assert_eq!((word(3) >> 23) & 1, 1);
}

#[test]
fn gfx11_packs_work_item_ids_in_v0() {
    // TIDIG_COMP_CNT 1; a 4x8 work-group.
    let nd = NdRange {
        work_dim: 2,
        global: [4, 8, 1],
        local: [4, 8, 1],
        offset: [0; 3],
    };
    let (setups, _) = try_dispatch(
        &hand_shader(1 << 11, 8, true),
        ENDPGM,
        Target::Gfx1100,
        &[],
        &nd,
    )
    .unwrap();
    let [s] = setups.as_slice() else {
        panic!("one wave")
    };
    let want: Vec<u32> = (0..32).map(|i| (i % 4) | (i / 4) << 10).collect();
    assert_eq!(
        s.vgprs,
        vec![(0, gpuabi_sim::LaneValues::PerLane(want))],
        "x in bits 0-9, y in bits 10-19"
    );
}

/// Random shaders (RSRC2 fields, register counts, scratch sizes), NDRanges and bindings:
/// the dispatch returns set-ups or an error, never panics, and every set-up has an SGPR
/// for every bound dword.
#[test]
fn random_dispatches_never_panic() {
    arbtest::arbtest(|u| {
        let target = *u.choose(&[Target::Gfx8, Target::Gfx1030, Target::Gfx1100])?;
        let mut shader = hand_shader(u.arbitrary()?, u.int_in_range(0..=120)?, true);
        shader.scratch_bytes = u.arbitrary()?;
        if target == Target::Gfx8 {
            shader.wave = WaveSize::W64;
        }
        let mut user = Vec::new();
        for _ in 0..u.int_in_range(0..=4)? {
            let value = match u.int_in_range(0..=2)? {
                0 => UserData::Dwords((0..u.int_in_range(0..=6)?).map(|k| k * 3).collect()),
                1 => UserData::Address(u.choose(&["buf", "none"])?.to_string()),
                _ => UserData::Resource(u.choose(&["buf", "none"])?.to_string()),
            };
            user.push(bind(u.int_in_range(0..=40)?, value, "random"));
        }
        let dims = u.int_in_range(1..=3)?;
        let mut nd = NdRange {
            work_dim: dims,
            global: [1; 3],
            local: [1; 3],
            offset: [0; 3],
        };
        for d in 0..dims as usize {
            nd.global[d] = u.int_in_range(0..=300)?;
            nd.local[d] = u.int_in_range(0..=64)?;
        }
        let program = parse(ENDPGM, target, shader.wave).unwrap();
        let mut memory = Memory::new();
        memory.add("buf", vec![0; 64], 1 << 20).unwrap();
        let limits = Limits {
            global_bytes: 1 << 22,
            ..Limits::default()
        };
        if let Ok(setups) = dispatch(&shader, &program, &nd, &user, &mut memory, &limits) {
            let bound: usize = user.iter().map(|b| usize::from(b.count())).sum();
            for s in &setups {
                assert!(s.sgprs.len() >= bound);
            }
        }
        Ok(())
    })
    .budget_ms(1000);
}
