//! Properties of the ACO engine over generated ABIs, limits and signatures.

use gpuabi_layout::aco::{
    assign, register_ranges, Abi, AssignRequest, Demand, Gfx, Location, Param, Policy,
    RegisterBlock, ScalarType, Signature, Target,
};
use gpuabi_layout::reg::{Reg, RegFile};
use proptest::prelude::*;

fn block_strategy() -> impl Strategy<Value = RegisterBlock> {
    (0u16..40, 1u16..40, 0u16..40, 1u16..40, any::<bool>()).prop_map(|(ps, cs, pv, cv, first)| {
        RegisterBlock {
            clobbered: Demand::new(cs, cv),
            preserved: Demand::new(ps, pv),
            clobbered_first: first,
        }
    })
}

fn param_strategy() -> impl Strategy<Value = Param> {
    let types = prop::sample::select(vec![
        ScalarType::Bool,
        ScalarType::U8,
        ScalarType::F16,
        ScalarType::U32,
        ScalarType::F32,
        ScalarType::U64,
        ScalarType::F64,
    ]);
    (types, 1u8..5, any::<bool>(), any::<bool>(), any::<bool>()).prop_map(
        |(ty, n, uniform, disc, ret)| Param {
            name: String::new(),
            ty,
            components: n,
            uniform: uniform && !ret,
            discardable: disc,
            is_return: ret,
        },
    )
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    /// Preserved and clobbered partition [0, limit) and follow the block pattern, checked
    /// against the closed form: register i is preserved iff its position in its block
    /// falls in the preserved part.
    #[test]
    fn ranges_partition_and_follow_the_pattern(block in block_strategy(), ls in 0u16..=128, lv in 0u16..=256) {
        let r = register_ranges(&block, Demand::new(ls, lv)).unwrap();
        for file in RegFile::ALL {
            let (p, c, l) = (block.preserved.get(file), block.clobbered.get(file), r.limit.get(file));
            let mut covered = vec![0u8; usize::from(l)];
            for run in r.preserved_runs(file).into_iter().chain(r.clobbered_runs(file)) {
                for reg in run.regs() {
                    covered[usize::from(reg.num)] += 1;
                }
            }
            prop_assert!(covered.iter().all(|&n| n == 1), "{file}: not a partition");
            for i in 0..l {
                let pos = i % (p + c);
                let expected = if block.clobbered_first { pos >= c } else { pos < p };
                prop_assert_eq!(r.preserved.contains(Reg { file, num: i }), expected, "{} {}", file, i);
            }
            prop_assert_eq!(r.num_preserved(file) + r.num_clobbered(file), l);
        }
    }

    /// No two parameters share a register, every register parameter lies inside its file,
    /// and scratch parameters are packed without gaps.
    #[test]
    fn parameters_never_overlap(
        block in block_strategy(),
        params in prop::collection::vec(param_strategy(), 0..24),
        packed in any::<bool>(),
        wave64 in any::<bool>(),
        max in prop::option::of((6u16..64, 2u16..64)),
    ) {
        let signature = Signature {
            params: params.into_iter().enumerate().map(|(i, mut p)| { p.name = format!("p{i}"); p }).collect(),
        };
        let abi = Abi { name: "gen".into(), block, max_param_demand: max.map(|(s, v)| Demand::new(s, v)) };
        let req = AssignRequest {
            abi: &abi,
            target: Target::new(Gfx::Gfx1030, if wave64 { 64 } else { 32 }).unwrap(),
            limit: Demand::new(108, 128),
            signature: &signature,
            policy: if packed { Policy::Packed } else { Policy::Mesa },
            hints: None,
        };
        // A forced parameter may legitimately find no register for some blocks.
        let Ok(a) = assign(&req) else { return Ok(()) };
        let regs: Vec<_> = a.params.iter().filter_map(|p| match p.location {
            Location::Reg(r) => Some(r),
            Location::Scratch { .. } => None,
        }).collect();
        for (i, x) in regs.iter().enumerate() {
            prop_assert!(x.fits_file(), "{x} leaves its file");
            for y in &regs[i + 1..] {
                prop_assert!(!x.overlaps(y), "{x} overlaps {y}");
            }
        }
        let mut scratch: Vec<(u32, u32)> = a.params.iter().filter_map(|p| match p.location {
            Location::Scratch { offset } => Some((offset, 4 * u32::from(p.class.dwords))),
            Location::Reg(_) => None,
        }).collect();
        scratch.sort_unstable();
        let mut next = 0;
        for (offset, size) in scratch {
            prop_assert_eq!(offset, next);
            next += size;
        }
        prop_assert_eq!(next, a.scratch_param_size);
        let in_regs: u32 = a.params.iter().filter(|p| matches!(p.location, Location::Reg(_))).map(|p| u32::from(p.class.dwords)).sum();
        prop_assert_eq!(in_regs, u32::from(a.demand.sgpr) + u32::from(a.demand.vgpr));
    }
}
