//! A render target of the simulated tile as 8-bit RGBA (for a picture of it): each
//! pixel's sample 0 loaded by the simulator's `ld_tile`, 32 pixels to a SIMD group.

use gpuabi_agx::tilebuffer::{rt_format, TileBufferError, TileBufferLayout};
use gpuabi_agx_isa::{assemble, AsmError};
use gpuabi_agx_sim::{Fragment, Program, SimError, State, LANES};

use crate::fragment::placement;

/// Why a render target cannot be read back.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum RgbaError {
    /// The format is not a render-target format.
    #[error("{0}")]
    Format(TileBufferError),
    /// The render target is not in the tile.
    #[error("render target {0} is not in the tile (spilled to memory)")]
    Spilled(usize),
    /// The load does not assemble (a defect of the reader).
    #[error("{0}")]
    Assemble(AsmError),
    /// The load stopped with an error.
    #[error("{0}")]
    Sim(SimError),
}

/// Render target `rt` of the tile as 8-bit RGBA: each pixel's sample 0 loaded with
/// `ld_tile` into 32-bit registers; floats clamped to [0, 1] and rounded, integers clamped
/// to 0..255, sRGB bytes taken as stored; components the format lacks are 0 (alpha 255).
pub fn rt_rgba(
    frag: &Fragment,
    layout: &TileBufferLayout,
    rt: usize,
    format: &str,
) -> Result<Vec<u8>, RgbaError> {
    let (canon, comps, _) = rt_format(format).map_err(RgbaError::Format)?;
    let (fmt, offset, _) = placement(layout, rt).ok_or(RgbaError::Spilled(rt))?;
    let pixels = (frag.width * frag.height) as usize;
    let mut out = vec![0u8; pixels * 4];
    let integer = canon.ends_with("_UINT") || canon.ends_with("_SINT");
    let signed = canon.ends_with("_SINT");
    let srgb = canon.ends_with("_SRGB");
    let masks = ["x", "xy", "xyz", "xyzw"];
    let regs = ["r10", "r10_r11", "r10_r11_r12", "r10_r11_r12_r13"];
    let k = (comps as usize).clamp(1, 4) - 1;
    let code = assemble(
        &format!("ld_tile {}, 0, 1, {offset}, {fmt}, {}\n", regs[k], masks[k]),
        "png.s",
    )
    .map_err(RgbaError::Assemble)?
    .bytes;
    let program = Program::decode(&code).map_err(RgbaError::Sim)?;
    for start in (0..pixels).step_by(LANES) {
        let mut st = State {
            frag: Some(Box::new(frag.clone())),
            ..State::default()
        };
        let n = (pixels - start).min(LANES);
        st.exec = if n == LANES { u32::MAX } else { (1 << n) - 1 };
        if let Some(f) = st.frag.as_deref_mut() {
            for l in 0..n {
                let p = (start + l) as u32;
                f.pixel[l] = ((p % frag.width) as u16, (p / frag.width) as u16);
            }
        }
        gpuabi_agx_sim::run_program(&program, &mut st, 16).map_err(RgbaError::Sim)?;
        for l in 0..n {
            let px = &mut out[(start + l) * 4..(start + l) * 4 + 4];
            px[3] = 255;
            for (c, v) in px.iter_mut().enumerate().take(comps.min(4) as usize) {
                let h = 20 + 2 * c;
                let bits = u32::from(st.half(l, h)) | u32::from(st.half(l, h + 1)) << 16;
                *v = if srgb {
                    let (x, y) = p_of(start + l, frag.width);
                    frag.byte(x, y, 0, offset + c as u32, 1)
                        .map_or(0, |i| frag.tib[i])
                } else if integer {
                    let v = if signed {
                        i64::from(bits as i32)
                    } else {
                        i64::from(bits)
                    };
                    v.clamp(0, 255) as u8
                } else {
                    let x = f32::from_bits(bits);
                    if x.is_nan() {
                        0
                    } else {
                        (x.clamp(0.0, 1.0) * 255.0).round() as u8
                    }
                };
            }
        }
    }
    Ok(out)
}

fn p_of(p: usize, width: u32) -> (u32, u32) {
    (p as u32 % width, p as u32 / width)
}
