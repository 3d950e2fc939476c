#[test]
fn dev() {
    let src = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../../examples/saxpy.gsir")).unwrap();
    let m = gpuabi_ir::parse(&src).unwrap();
    for (t, w) in [(gpuabi_amdgpu::Target::Gfx1030, 32), (gpuabi_amdgpu::Target::Gfx1100, 64), (gpuabi_amdgpu::Target::Gfx1030, 64)] {
        let mut opts = gpuabi_codegen::Options::new(t);
        opts.wave = gpuabi_amdgpu::WaveSize::from_lanes(w).unwrap();
        match gpuabi_codegen::compile(&m, &opts) {
            Ok(c) => std::fs::write(format!("/tmp/cg_{}_{w}.s", t.name()), gpuabi_amdgpu::asm::print(&c.program)).unwrap(),
            Err(e) => println!("{t:?}: {e}"),
        }
    }
}
