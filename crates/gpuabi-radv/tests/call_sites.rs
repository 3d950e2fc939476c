//! The call-ABI overhead per call site of a traced capture, against counts made by hand
//! from RADV's listings (`testdata/mesa/rt/mirror/navi21`) and the callees' registers in
//! ACO's `p_startpgm` (`00_raygen.ACO_IR.txt` for raygen; `07_intersection.ACO_IR.txt`,
//! the traversal function, for traversal).

use std::path::PathBuf;

use gpuabi_codegen::Overhead;
use gpuabi_radv::call_sites::SiteStats;

fn trace() -> gpuabi_radv::Trace {
    let dir =
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../testdata/mesa/rt/mirror/navi21");
    let capture = gpuabi_radv::Capture::read(&dir).unwrap();
    gpuabi_radv::run(&capture, &gpuabi_radv::Options::default()).unwrap()
}

fn site<'a>(sites: &'a [SiteStats], file_line: &str) -> &'a SiteStats {
    sites
        .iter()
        .find(|s| s.site.ends_with(file_line))
        .unwrap_or_else(|| panic!("no call site {file_line} in {sites:#?}"))
}

fn overhead(parameter_copies: u64, call_linkage: u64, spills: u64) -> Overhead {
    Overhead {
        callee_saves: 0,
        parameter_copies,
        call_linkage,
        spills,
    }
}

fn times(o: &Overhead, n: u64) -> Overhead {
    overhead(o.parameter_copies * n, o.call_linkage * n, o.spills * n)
}

#[test]
fn raygen_and_prolog_sites_are_the_hand_counts() {
    let t = trace();
    // 64×64 pixels in wave32: 128 waves, each entering raygen once from the prolog and
    // tracing once.
    let waves = 64 * 64 / 32;

    // raygen's trace (`00_raygen.Assembly.txt`, lines 1-80 by hand), callee traversal
    // (parameters s4, s[0:1], v[0:1], s[2:3], v[10:12], s[12:14], s5, s10, s11, s[6:7],
    // s[8:9], v[2:3], v[4:5], v13-v16, v[17:19], v20, v[21:23], v24, v[6:7], v25, v[8:9],
    // v26-v34):
    // - parameter copies, the last write of a parameter register before the call from a
    //   register: line 40 `s_mov_b64 s[2:3], s[8:9]`, 41 v[10:11], 44 v12, 45 v16, 46-53
    //   v25-v32 (8), 54 v[6:7], 55 v33, 56 v34, 57 v[4:5], 58 v[0:1], 59 v[2:3] = 18 (lines
    //   8, 33 and 43 write registers written again before the call; 14-25 and 35 put
    //   constants);
    // - linkage: 60 and 64 (v63, the lane storage of line 39's `v_writelane_b32`, saved
    //   and reloaded), 61 `s_add_u32 s4, s4, 12`, 62 the call, 63 `s_sub_u32 s4, s4, 12` = 5;
    // - spills: stores 37, 38 (v0, v1), 39 `v_writelane_b32`, loads 73, 74, 76
    //   `v_readlane_b32` = 6.
    let raygen = site(&t.call_sites, "00_raygen.Assembly.txt:62");
    assert_eq!(raygen.caller, "f00_raygen");
    assert_eq!(raygen.abi.as_deref(), Some("traversal"));
    assert_eq!(raygen.callees.len(), 1);
    assert_eq!(raygen.callees[0].function, "f07_traversal");
    assert_eq!(raygen.calls, waves);
    assert_eq!(raygen.listed, overhead(18, 5, 6));
    assert_eq!(raygen.executed, times(&raygen.listed, waves));

    // The prolog's call of raygen (`raytracing_prolog.txt` lines 3-57), callee raygen
    // (parameters s4, s[0:1], v[0:1], s[2:3], v[4:6], s[12:14], s5, s10, s11, s[6:7],
    // s[8:9], v[2:3]): copies 17 s8, 31 s5, 33 s10, 34 s4 (the stack pointer, from s22),
    // 35 s11, 39 s[2:3], 49 s[12:13], 51 v[0:1], 52 s14, 53 v[2:3], 54 v[4:5], 55 v6 = 12
    // (28 writes v8, no parameter; 43 writes v[4:5], written again at 54); linkage: the call
    // alone (no stack adjustment); no spill.
    let prolog = site(&t.call_sites, "raytracing_prolog.txt:56");
    assert_eq!(prolog.caller, "rt_prolog");
    assert_eq!(prolog.callees[0].function, "f00_raygen");
    assert_eq!(prolog.calls, waves);
    assert_eq!(prolog.listed, overhead(12, 1, 0));
    assert_eq!(prolog.executed, times(&prolog.listed, waves));
}

/// Every counted instruction lies in the straight-line code around its call, so it ran as
/// often as the call did (the simulator's counts, not the classification, say how often);
/// and every site the run reached was called as often as its callees were.
#[test]
fn every_site_runs_its_overhead_once_per_call() {
    let t = trace();
    assert_eq!(t.call_sites.len(), 5, "{:#?}", t.call_sites);
    for s in &t.call_sites {
        assert_eq!(s.executed, times(&s.listed, s.calls), "{}", s.site);
        let reached: u64 = s.callees.iter().map(|c| c.calls).sum();
        assert_eq!(reached, s.calls, "{}", s.site);
        assert!(s.listed.call_linkage >= 1, "{}", s.site);
    }
    let calls: u64 = t.call_sites.iter().map(|s| s.calls).sum();
    assert_eq!(calls, t.calls);
}
