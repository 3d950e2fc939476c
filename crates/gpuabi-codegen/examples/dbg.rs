fn main() {
    let args: Vec<String> = std::env::args().collect();
    let seed: u64 = args[1].parse().unwrap();
    let n: usize = args[2].parse().unwrap();
    let cfg = if n == 0 { gpuabi_fuzz::program::GenConfig::default() } else { gpuabi_fuzz::program::GenConfig { max_instrs: n, max_burst: n / 2, ..Default::default() } };
    let p = gpuabi_fuzz::program::generate(seed, &cfg);
    let dir = std::path::Path::new("/tmp/s5");
    std::fs::create_dir_all(dir).unwrap();
    let cmd = p.write_files(dir).unwrap();
    println!("{cmd}");
}
