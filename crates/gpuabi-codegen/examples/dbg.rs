fn main() {
    let args: Vec<String> = std::env::args().collect();
    let seed: u64 = args[1].parse().unwrap();
    let p = gpuabi_fuzz::program::generate(seed, &gpuabi_fuzz::program::GenConfig::default());
    let dir = std::path::Path::new("/tmp/s4");
    let cmd = p.write_files(dir).unwrap();
    println!("{cmd}");
}
