//! Simulator throughput in lane-instructions per second: a long wave64 ALU loop, and the
//! divergent-call program of `examples/asm/divergent_call.s`.

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use gpuabi_amdgpu::asm::parse;
use gpuabi_amdgpu::{Target, WaveSize};
use gpuabi_layout::aco::Abi;
use gpuabi_layout::reg::{RegFile, RegRange};
use gpuabi_sim::{Contract, Image, LaneValues, Machine, WaveSetup};

const ALU_LOOP: &str = "main:
	s_mov_b32 s0, 2000
loop:
	v_add_nc_u32 v1, v1, v0
	v_xor_b32 v2, v1, v2
	v_mul_lo_u32 v3, v1, v2
	v_lshlrev_b32 v4, 3, v3
	v_and_b32 v5, v4, v1
	v_or_b32 v6, v5, v2
	v_cvt_f32_u32 v7, v6
	v_fma_f32 v8, v7, 0.5, v8
	v_cmp_gt_u32 vcc, v1, v2
	v_cndmask_b32 v9, v1, v2, vcc
	v_sub_nc_u32 v10, v9, v1
	v_max_u32 v11, v10, v3
	v_min_f32 v12, v8, v7
	v_lshrrev_b32 v13, 5, v11
	v_add_co_u32 v14, vcc, v13, v1
	v_add_co_ci_u32 v15, vcc, 0, v2, vcc
	s_sub_u32 s0, s0, 1
	s_cmp_lg_u32 s0, 0
	s_cbranch_scc1 loop
	s_endpgm
";

fn lane_ids() -> WaveSetup {
    WaveSetup {
        vgprs: vec![(0, LaneValues::LaneId(0))],
        ..Default::default()
    }
}

fn alu_loop(c: &mut Criterion) {
    let p = parse(ALU_LOOP, Target::Gfx1030, WaveSize::W64).unwrap();
    let image = Image::new(&p).unwrap();
    let mut probe = Machine::new(image.clone());
    probe.run("main", &[lane_ids()]).unwrap();
    let lane_instructions = probe.stats.lane_instructions;
    let mut g = c.benchmark_group("sim");
    g.throughput(Throughput::Elements(lane_instructions));
    g.bench_function("alu_loop_wave64", |b| {
        b.iter(|| {
            let mut m = Machine::new(image.clone());
            m.run("main", &[lane_ids()]).unwrap();
            m.stats.lane_instructions
        })
    });
    g.finish();
}

fn divergent_call(c: &mut Criterion) {
    let text = include_str!("../../../examples/asm/divergent_call.s");
    let p = parse(text, Target::Gfx1030, WaveSize::W32).unwrap();
    let image = Image::new(&p).unwrap();
    let waves = 64;
    let run = |image: &Image, checked: bool| {
        let mut m = Machine::new(image.clone());
        if checked {
            let abi = Abi::builtin("ahit-isec").unwrap();
            let sp = Some(RegRange::new(RegFile::Sgpr, 84, 1));
            m.contract = Some(
                Contract::from_aco(&abi, Target::Gfx1030, WaveSize::W32, None, &[], sp).unwrap(),
            );
        }
        let out = m.memory.add("out", vec![0; 256], 1 << 20).unwrap();
        let base = m.memory.buffer(out).base;
        let setup = WaveSetup {
            exec: None,
            sgprs: vec![(2, base as u32), (3, (base >> 32) as u32)],
            vgprs: vec![(0, LaneValues::LaneId(0))],
            ..Default::default()
        };
        m.run("main", &vec![setup; waves]).unwrap();
        m.stats.lane_instructions
    };
    let lane_instructions = run(&image, false);
    let mut g = c.benchmark_group("sim");
    g.throughput(Throughput::Elements(lane_instructions));
    g.bench_function("divergent_call_64_waves", |b| b.iter(|| run(&image, false)));
    g.bench_function("divergent_call_64_waves_contract", |b| {
        b.iter(|| run(&image, true))
    });
    g.finish();
}

criterion_group!(benches, alu_loop, divergent_call);
criterion_main!(benches);
