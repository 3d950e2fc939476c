// Development aid: finds small failing programs. Not part of the test suite.
use gpuabi_fuzz::program::{generate, ArgValue, GenConfig};
use gpuabi_ir::interp::{Dispatch, Limits, Memory, Program};
fn main() {
    let a: Vec<String> = std::env::args().collect();
    let target: gpuabi_amdgpu::Target = a[1].parse().unwrap();
    let wave = gpuabi_amdgpu::WaveSize::from_lanes(a[2].parse().unwrap()).unwrap();
    let (v, s): (u16, u16) = (a[3].parse().unwrap(), a[4].parse().unwrap());
    let max_instrs: usize = a[5].parse().unwrap();
    let cfg = if max_instrs == 0 { GenConfig::default() } else { GenConfig { max_instrs, max_burst: max_instrs / 2, ..GenConfig::default() } };
    for seed in 0..a[6].parse::<u64>().unwrap() {
        let p = generate(seed, &cfg);
        let m = gpuabi_ir::parse(&p.source).unwrap();
        let prog = Program::new(&m).unwrap();
        let l = Limits::default();
        let mut mem = Memory::new(l.max_memory_bytes);
        for (n, d) in &p.buffers { mem.add(n, d.clone()).unwrap(); }
        let args: Vec<u64> = p.arg_values.iter().map(|x| match x { ArgValue::Bits(b) => *b, ArgValue::Buffer { name, offset } => mem.address(name).unwrap() + offset }).collect();
        let d = Dispatch { global_size: p.grid, group_size: p.group, global_offset: p.offset, work_dim: p.work_dim };
        prog.dispatch(&p.kernel, &args, &d, &mut mem, &l).unwrap();
        let exp: Vec<(String, Vec<u8>)> = mem.buffers.iter().map(|b| (b.name.clone(), b.data.clone())).collect();
        let mut o = gpuabi_codegen::Options::new(target);
        o.wave = wave; o.max_vgprs = v; o.max_sgprs = s;
        let c = match gpuabi_codegen::compile(&m, &o) { Ok(c) => c, Err(e) => { println!("seed {seed} lines {}: {e}", p.source.lines().count()); continue; } };
        match gpuabi_exec::run(&c, &p.kernel, &d, &args, &p.buffers, &gpuabi_sim::Limits::default()) {
            Ok(out) => if let Some(df) = gpuabi_exec::first_difference(&exp, &out.buffers) { println!("seed {seed} lines {}: {df:?}", p.source.lines().count()); },
            Err(e) => println!("seed {seed} lines {}: {e}", p.source.lines().count()),
        }
    }
}
