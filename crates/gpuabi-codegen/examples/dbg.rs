fn main() {
    let args: Vec<String> = std::env::args().collect();
    let seed: u64 = args[1].parse().unwrap();
    let p = gpuabi_fuzz::program::generate(seed, &gpuabi_fuzz::program::GenConfig::default());
    std::fs::write("/tmp/dbg.gsir", &p.source).unwrap();
    let m = gpuabi_ir::parse(&p.source).unwrap();
    let mut o = gpuabi_codegen::Options::new(args[2].parse().unwrap());
    o.wave = gpuabi_amdgpu::WaveSize::from_lanes(args[3].parse().unwrap()).unwrap();
    if args.len() > 4 { o.max_vgprs = 24; o.max_sgprs = 32; }
    match gpuabi_codegen::compile(&m, &o) {
        Ok(c) => { std::fs::write("/tmp/dbg.s", gpuabi_amdgpu::asm::print(&c.program)).unwrap(); println!("ok"); }
        Err(e) => println!("{e}"),
    }
    println!("{}", p.run_command());
}
