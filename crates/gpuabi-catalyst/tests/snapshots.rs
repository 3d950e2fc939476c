//! Snapshots of the printed outputs for the example kernels (reviewed by hand against the
//! spec before acceptance).

use gpuabi_catalyst::layout::{layout, KernelLayout, Options};
use gpuabi_catalyst::opencl::parse_kernels;
use gpuabi_catalyst::registers::Dims;
use gpuabi_catalyst::render;

fn example(name: &str, dims: &str) -> KernelLayout {
    let path = format!(
        "{}/../../examples/catalyst/{name}",
        env!("CARGO_MANIFEST_DIR")
    );
    let src = std::fs::read_to_string(path).unwrap();
    let k = parse_kernels(&src).unwrap().remove(0);
    layout(
        &k,
        &Options {
            dims: Some(Dims::parse(dims).unwrap()),
            ..Options::default()
        },
    )
    .unwrap()
}

#[test]
fn e1_text() {
    insta::assert_snapshot!(render::text::render(&example("e1.cl", "x")));
}

#[test]
fn e1_json() {
    insta::assert_snapshot!(render::json::render(&example("e1.cl", "x")));
}

#[test]
fn mixed_clrx() {
    insta::assert_snapshot!(render::clrx::render(&example("mixed.cl", "xy")));
}

#[test]
fn mixed_metadata() {
    insta::assert_snapshot!(example("mixed.cl", "xy").metadata);
}

#[test]
fn mixed_text() {
    insta::assert_snapshot!(render::text::render(&example("mixed.cl", "xy")));
}

#[test]
fn e2_svg() {
    let svg = render::svg::render(&example("e2.cl", "x"));
    assert!(svg.starts_with("<svg"));
    insta::assert_snapshot!(svg);
}
