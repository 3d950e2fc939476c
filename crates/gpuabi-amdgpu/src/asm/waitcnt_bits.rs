//! The numeric form of `s_waitcnt` (`s_waitcnt 0`, `s_waitcnt 0x3f70`): the counter fields of
//! the 16-bit immediate per target, after `AMDGPUBaseInfo.cpp` of LLVM's AMDGPU back end
//! (`getVmcntBitShiftLo` and its neighbours) and the S_WAITCNT text of AMD's ISA guides.
//!
//! A number becomes the counters it encodes; a counter at its maximum (no wait) is left
//! out, as LLVM's assembler fills a missing counter with its maximum, so the printed
//! counters encode the same number. Bits outside the counter fields are refused: LLVM's
//! counter form always leaves them 0, so no counter text could give them back.

use crate::operand::Waitcnt;
use crate::target::Target;

/// Bit fields of one counter: (shift, width) pieces, lowest bits first.
type Field = &'static [(u32, u32)];

/// vmcnt, expcnt and lgkmcnt fields of `target`.
fn fields(target: Target) -> [Field; 3] {
    match target {
        Target::Gfx1100 | Target::Gfx12 => [&[(10, 6)], &[(0, 3)], &[(4, 6)]],
        Target::Gfx1030 => [&[(0, 4), (14, 2)], &[(4, 3)], &[(8, 6)]],
        _ => [&[(0, 4)], &[(4, 3)], &[(8, 4)]],
    }
}

fn mask(field: Field) -> u32 {
    field.iter().map(|(s, w)| ((1 << w) - 1) << s).sum()
}

fn extract(value: u32, field: Field) -> u32 {
    let mut out = 0;
    let mut at = 0;
    for (shift, width) in field {
        out |= ((value >> shift) & ((1 << width) - 1)) << at;
        at += width;
    }
    out
}

/// The counters of the immediate `value` on `target`, or what is wrong with it.
pub fn decode(value: i64, target: Target) -> Result<Waitcnt, String> {
    let v = u32::try_from(value)
        .ok()
        .filter(|v| *v <= 0xffff)
        .ok_or_else(|| format!("`s_waitcnt {value}`: the immediate is 16 bits (0..65535)"))?;
    let [vm, exp, lgkm] = fields(target);
    let used = mask(vm) | mask(exp) | mask(lgkm);
    if v & !used != 0 {
        return Err(format!(
            "`s_waitcnt {value:#x}`: bits {:#x} are outside the vmcnt, expcnt and lgkmcnt fields \
             of {target}",
            v & !used
        ));
    }
    let count = |f: Field| {
        let c = extract(v, f);
        let max = extract(mask(f), f);
        (c, max)
    };
    let [(vmc, vmax), (expc, emax), (lgc, lmax)] = [count(vm), count(exp), count(lgkm)];
    let some = |c: u32, max: u32| (c != max).then_some(c as u8);
    let mut w = Waitcnt {
        vmcnt: some(vmc, vmax),
        expcnt: some(expc, emax),
        lgkmcnt: some(lgc, lmax),
    };
    if w == Waitcnt::default() {
        // No wait at all: written with every counter at its maximum.
        w = Waitcnt {
            vmcnt: Some(vmax as u8),
            expcnt: Some(emax as u8),
            lgkmcnt: Some(lmax as u8),
        };
    }
    Ok(w)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fields_by_target() {
        let all = |v, e, l| Waitcnt {
            vmcnt: v,
            expcnt: e,
            lgkmcnt: l,
        };
        assert_eq!(decode(0, Target::Gfx8), Ok(all(Some(0), Some(0), Some(0))));
        // gfx8: lgkmcnt(0) alone is vmcnt 15, expcnt 7 in their fields: 0x7f.
        assert_eq!(decode(0x7f, Target::Gfx8), Ok(all(None, None, Some(0))));
        // gfx10: vmcnt 0x21 is split, low 4 bits at 0 and high 2 at 14: 0x4001; expcnt 7
        // and lgkmcnt 63 are at their maxima.
        assert_eq!(
            decode(0x4001 | 0x70 | 0x3f00, Target::Gfx1030),
            Ok(all(Some(0x11), None, None))
        );
        // gfx11: vmcnt 63 << 10, expcnt 7, lgkmcnt 2 << 4.
        assert_eq!(
            decode(0xfc00 | 7 | 2 << 4, Target::Gfx1100),
            Ok(all(None, None, Some(2)))
        );
        assert_eq!(
            decode(0x0f7f, Target::Gfx8),
            Ok(all(Some(15), Some(7), Some(15)))
        );
        assert!(decode(0x8000, Target::Gfx8).is_err());
        assert!(decode(0x10000, Target::Gfx8).is_err());
    }
}
