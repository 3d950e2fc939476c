//! The VOP3 output modifiers `clamp` and `omod` (`mul:2`, `mul:4`, `div:2`) against
//! hand-computed results: an f32 result is scaled first, then clamped to [0.0, 1.0] (a NaN
//! to 0.0); an unsigned integer `clamp` saturates ("AMD GCN3 ISA", "RDNA2 ISA", VOP3).

use gpuabi_amdgpu::asm::parse;
use gpuabi_amdgpu::{Target, WaveSize};
use gpuabi_sim::{Image, Machine, Wave, WaveSetup};

fn run(target: Target, wave: WaveSize, body: &str, sgprs: &[(u16, u32)]) -> Wave {
    let text = format!("main:\n{body}\n\ts_endpgm\n");
    let p = parse(&text, target, wave).unwrap_or_else(|e| panic!("{e}\n{text}"));
    let mut m = Machine::new(Image::new(&p).unwrap());
    let setup = WaveSetup {
        sgprs: sgprs.to_vec(),
        ..Default::default()
    };
    m.run("main", &[setup]).unwrap().expect("one wave")
}

fn f(x: f32) -> u32 {
    x.to_bits()
}

const FLOAT_BODY: &str = "\tv_mov_b32 v1, s10\n\
    \tv_mov_b32 v2, s11\n\
    \tv_add_f32_e64 v3, v1, v2 mul:2\n\
    \tv_add_f32_e64 v4, v1, v2 clamp\n\
    \tv_mul_f32_e64 v5, v1, v2 div:2\n\
    \tv_sub_f32_e64 v6, v2, v1 clamp\n\
    \tv_mul_f32_e64 v7, v1, v2 clamp mul:4\n\
    \tv_mul_f32_e64 v8, s12, v1 clamp\n\
    \tv_fma_f32 v9, v1, v2, v2 clamp div:2\n\
    \tv_mul_f32_e64 v10, s12, v1 mul:2";

#[test]
fn f32_results_are_scaled_then_clamped() {
    for (target, wave) in [
        (Target::Gfx8, WaveSize::W64),
        (Target::Gfx1030, WaveSize::W32),
        (Target::Gfx1100, WaveSize::W32),
    ] {
        let w = run(
            target,
            wave,
            FLOAT_BODY,
            &[(10, f(1.5)), (11, f(0.25)), (12, 0x7fc0_1234)],
        );
        for lane in [0, wave.lanes() as usize - 1] {
            let v = |r| w.v(r, lane);
            assert_eq!(v(3), f(3.5), "{target}: (1.5 + 0.25) * 2");
            assert_eq!(v(4), f(1.0), "{target}: 1.75 clamps to 1");
            assert_eq!(v(5), f(0.1875), "{target}: 0.375 / 2");
            assert_eq!(v(6), f(0.0), "{target}: -1.25 clamps to 0");
            // Scaled before clamping: 0.375 * 4 = 1.5 -> 1.0 (clamping first would give 1.5).
            assert_eq!(v(7), f(1.0), "{target}: 0.375 * 4 clamped");
            assert_eq!(v(8), f(0.0), "{target}: a NaN clamps to 0");
            // fma(1.5, 0.25, 0.25) = 0.625, / 2 = 0.3125, inside [0, 1].
            assert_eq!(v(9), f(0.3125), "{target}: fma then div:2");
            assert_eq!(
                v(10),
                0x7fc0_1234,
                "{target}: a NaN stays itself under omod"
            );
        }
    }
}

#[test]
fn unsigned_clamp_saturates_gcn3() {
    let w = run(
        Target::Gfx8,
        WaveSize::W64,
        "\tv_mov_b32 v10, 0x20\n\
         \tv_mov_b32 v11, s10\n\
         \tv_mov_b32 v14, 0xffffff\n\
         \tv_add_u32_e64 v1, s[20:21], v10, v11 clamp\n\
         \tv_add_u32_e64 v2, s[22:23], v10, v11\n\
         \tv_sub_u32_e64 v3, s[24:25], v10, v11 clamp\n\
         \tv_sub_u32_e64 v4, s[26:27], v11, v10 clamp\n\
         \tv_mad_u32_u24 v5, v14, v14, v10 clamp\n\
         \tv_mad_u32_u24 v6, v14, v14, v10",
        &[(10, 0xffff_fff0)],
    );
    assert_eq!(w.v(1, 0), u32::MAX, "0x20 + 0xfffffff0 saturates");
    assert_eq!(w.sgpr[20], u32::MAX, "the carry out is still set");
    assert_eq!(w.v(2, 0), 0x10, "without clamp the sum wraps");
    assert_eq!(w.v(3, 0), 0, "0x20 - 0xfffffff0 saturates at 0");
    assert_eq!(w.sgpr[24], u32::MAX, "the borrow is still set");
    assert_eq!(w.v(4, 0), 0xffff_ffd0, "no saturation without underflow");
    // 0xffffff * 0xffffff + 0x20 = 0xfffffe000021, above 32 bits.
    assert_eq!(w.v(5, 0), u32::MAX);
    assert_eq!(w.v(6, 0), 0xfe00_0021);
}

#[test]
fn unsigned_clamp_saturates_rdna() {
    for target in [Target::Gfx1030, Target::Gfx1100] {
        let w = run(
            target,
            WaveSize::W32,
            "\tv_mov_b32 v10, 0x20\n\
             \tv_mov_b32 v11, s10\n\
             \tv_add_nc_u32_e64 v1, v10, v11 clamp\n\
             \tv_add_nc_u32_e64 v2, v10, v11\n\
             \tv_sub_nc_u32_e64 v3, v10, v11 clamp\n\
             \tv_subrev_nc_u32_e64 v4, v11, v10 clamp\n\
             \tv_subrev_nc_u32_e64 v5, v10, v11 clamp\n\
             \tv_add_co_u32 v6, s20, v10, v11 clamp\n\
             \tv_sub_co_u32 v7, s21, v10, v11 clamp",
            &[(10, 0xffff_fff0)],
        );
        assert_eq!(w.v(1, 3), u32::MAX, "{target}");
        assert_eq!(w.v(2, 3), 0x10, "{target}");
        assert_eq!(w.v(3, 3), 0, "{target}");
        assert_eq!(w.v(4, 3), 0, "{target}: 0x20 - 0xfffffff0 saturates");
        assert_eq!(w.v(5, 3), 0xffff_ffd0, "{target}");
        assert_eq!(w.v(6, 3), u32::MAX, "{target}");
        assert_eq!(w.sgpr[20], u32::MAX, "{target}: carries of all 32 lanes");
        assert_eq!(w.v(7, 3), 0, "{target}");
        assert_eq!(w.sgpr[21], u32::MAX, "{target}: borrows of all 32 lanes");
    }
}

#[test]
fn modifiers_are_refused_where_llvm_refuses_them() {
    for (line, target, wave) in [
        (
            "v_and_b32_e64 v0, v1, v2 clamp",
            Target::Gfx1030,
            WaveSize::W32,
        ),
        (
            "v_add_nc_u32_e64 v0, v1, v2 mul:2",
            Target::Gfx1030,
            WaveSize::W32,
        ),
        (
            "v_add_f32_e64 v0, v1, v2 mul:2 clamp",
            Target::Gfx8,
            WaveSize::W64,
        ),
        (
            "v_add_f32_e64 v0, v1, v2 mul:3",
            Target::Gfx8,
            WaveSize::W64,
        ),
        (
            "v_add_f32_e32 v0, v1, v2 clamp",
            Target::Gfx8,
            WaveSize::W64,
        ),
    ] {
        let text = format!("\t{line}\n");
        assert!(parse(&text, target, wave).is_err(), "{target}: {line}");
    }
}
