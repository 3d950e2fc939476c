//! The VOPD pairing rules (destination parity, the VGPR banks of SRC0, VSRC1 and SRC2, one
//! literal, two scalar values, RDNA 4's moves) agree with llvm-mc-19: every pair below is
//! accepted by gpuabi exactly when llvm-mc-19 accepts it, on gfx1100 and gfx1201. The pairs
//! include ACO's own (`v_dual_mov_b32 v27, v14 :: v_dual_mov_b32 v26, v14` of RADV's gfx1201
//! raygen, `v_dual_fmamk_f32 v41, v9, 0x40400000, v41 :: v_dual_fmac_f32 v40, 4.0, v9` of
//! its navi31 raygen) and one pair on each side of every rule.
//!
//! One rule is newer than LLVM 19: on RDNA 4 both halves may read the same VGPR in the same
//! port (Mesa's `are_src_banks_compatible` in `aco_scheduler_ilp.cpp`; ACO's gfx1201 code
//! has `v_dual_mul_f32 v29, v29, v32 :: v_dual_mul_f32 v28, v28, v32`). gpuabi follows
//! ACO there, and [`LLVM19_STRICTER`] lists those pairs: llvm-mc-19 must refuse them and
//! gpuabi accept them.

mod common;

use gpuabi_amdgpu::asm::parse;
use gpuabi_amdgpu::{Target, WaveSize};

const PAIRS: &[&str] = &[
    "v_dual_add_f32 v0, v1, v2 :: v_dual_mul_f32 v1, v6, v3",
    "v_dual_add_f32 v0, v1, v2 :: v_dual_mul_f32 v1, v5, v3",
    "v_dual_add_f32 v0, v1, v2 :: v_dual_mul_f32 v1, v3, v6",
    "v_dual_add_f32 v0, v1, v2 :: v_dual_mul_f32 v2, v3, v7",
    "v_dual_add_f32 v0, s1, v2 :: v_dual_mul_f32 v1, s2, v3",
    "v_dual_add_f32 v0, s1, v2 :: v_dual_mul_f32 v1, s1, v3",
    "v_dual_add_f32 v0, 0x3f000001, v2 :: v_dual_mul_f32 v1, 0x3f800001, v3",
    "v_dual_add_f32 v0, 0x3f000001, v2 :: v_dual_mul_f32 v1, 0x3f000001, v3",
    "v_dual_add_f32 v0, 0x3f000001, v2 :: v_dual_mul_f32 v1, s2, v3",
    "v_dual_cndmask_b32 v0, s1, v2 :: v_dual_mul_f32 v1, s2, v3",
    "v_dual_cndmask_b32 v0, v1, v2 :: v_dual_mul_f32 v1, s2, v3",
    "v_dual_fmaak_f32 v0, s1, v2, 0x3f000001 :: v_dual_mul_f32 v1, s1, v3",
    "v_dual_fmaak_f32 v0, s1, v2, 0x3f000001 :: v_dual_mul_f32 v1, s2, v3",
    "v_dual_fmaak_f32 v41, v9, v1, 0x40400000 :: v_dual_mul_f32 v40, v2, v5",
    "v_dual_fmac_f32 v0, v1, v2 :: v_dual_fmac_f32 v1, v6, v3",
    "v_dual_fmac_f32 v41, v9, v1 :: v_dual_fmac_f32 v40, v2, v5",
    "v_dual_fmac_f32 v41, v9, v41 :: v_dual_mul_f32 v40, v2, v5",
    "v_dual_fmamk_f32 v41, v9, 0x40400000, v41 :: v_dual_fmac_f32 v40, 4.0, v9",
    "v_dual_fmamk_f32 v41, v9, 0x40400000, v41 :: v_dual_mul_f32 v40, v2, v5",
    "v_dual_fmamk_f32 v41, v9, 0x40400000, v2 :: v_dual_fmac_f32 v40, v3, v4",
    "v_dual_fmamk_f32 v41, v9, 0x40400000, v6 :: v_dual_fmamk_f32 v40, v2, 0x40400000, v10",
    "v_dual_fmamk_f32 v41, v9, 0x40400000, v7 :: v_dual_fmamk_f32 v40, v2, 0x40400000, v10",
    "v_dual_mov_b32 v27, v14 :: v_dual_mov_b32 v26, v14",
    "v_dual_mov_b32 v27, v14 :: v_dual_mov_b32 v26, v18",
    "v_dual_mov_b32 v27, v14 :: v_dual_add_f32 v26, v18, v3",
    "v_dual_mul_f32 v29, v29, v32 :: v_dual_mul_f32 v28, v28, v32",
    "v_dual_mul_f32 v115, v21, v115 :: v_dual_mul_f32 v118, v21, v118",
];

/// Pairs of RDNA 4 that gpuabi accepts after ACO and llvm-mc-19 refuses.
const LLVM19_STRICTER: &[&str] = &[
    "v_dual_mul_f32 v29, v29, v32 :: v_dual_mul_f32 v28, v28, v32",
    "v_dual_mul_f32 v115, v21, v115 :: v_dual_mul_f32 v118, v21, v118",
];

#[test]
fn vopd_pairs_are_accepted_as_llvm_mc_accepts_them() {
    if !common::llvm_mc_available() {
        return;
    }
    let mut differ = Vec::new();
    for target in [Target::Gfx1100, Target::Gfx12] {
        for (i, pair) in PAIRS.iter().enumerate() {
            let text = format!("\t{pair}\n");
            let name = format!("vopd_{}_{i}", target.name());
            let mc = common::assemble(&text, target, WaveSize::W32, &name).is_ok();
            let ours = parse(&text, target, WaveSize::W32);
            let newer = target == Target::Gfx12 && LLVM19_STRICTER.contains(pair);
            if newer {
                if mc || ours.is_err() {
                    differ.push(format!(
                        "{target}: `{pair}`: expected llvm-mc-19 to refuse it and gpuabi to \
                         accept it (ACO's rule)"
                    ));
                }
                continue;
            }
            if mc != ours.is_ok() {
                differ.push(format!(
                    "{target}: `{pair}`: llvm-mc-19 {}, gpuabi {}",
                    if mc { "accepts" } else { "refuses" },
                    match ours {
                        Ok(_) => "accepts".to_string(),
                        Err(e) => format!("refuses ({e})"),
                    }
                ));
            }
        }
    }
    assert!(differ.is_empty(), "{}", differ.join("\n"));
}
