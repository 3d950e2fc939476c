//! The part contract on Mesa's own parts: for every draw of the project's Honeykrisp
//! capture (`testdata/mesa/hk`) and of the shared one (`data/mesa/hk` of the shared test data), the parts
//! Honeykrisp bound run across their boundaries in the simulator, and the contract holds:
//!
//! * **Vertex**: the main shader's preamble, then Mesa's vertex prolog, then the main
//!   vertex shader. The prolog runs twice with different garbage in every register that
//!   is no ABI input; the registers it hands over must agree. The main shader runs twice
//!   from the prolog's state with fresh garbage in every register the prolog does not hand
//!   over (`vertex_handed_over`); the vertex outputs it stores (`st_var`) must agree.
//! * **Fragment**: the main shader's preamble, then [Mesa's fragment prolog +] main
//!   fragment shader + Mesa's epilog, linked by gpuabi's linker as `agx_fast_link` links
//!   them (with the sample loop under sample shading). Twice, with different garbage in
//!   every register on entry (but the nesting counter), in every register the main
//!   shader's entry does not receive (all but `r0l` and, under sample shading, `r1l`), and
//!   at the epilog's entry in every half the epilog may not read (`epilog_may_read`); the
//!   tile buffer and coverage must agree. At the sample loop's footer `r0l` is 0 and
//!   `r1l` is the iteration's sample (`check_loop_footer`).
//! * The static checks (`check_vertex_prolog`, `check_vertex_main`, `check_fs_prolog`,
//!   `check_epilog`) report nothing on Mesa's parts.
//!
//! Breaches injected into Mesa's bytes (a prolog clobbering the vertex ID it hands over
//! with a register that is no input, a prolog writing a register the main shader does not
//! read, a main vertex shader storing a prolog temporary, an epilog reading a register the
//! main shader does not hand it, a main fragment shader clearing `r1l` in the sample loop)
//! are reported, statically and by the runs.
//!
//! What is approximated, and why it cannot hide a breach: Honeykrisp's root descriptor
//! table (`struct hk_root_descriptor_table` in `src/asahi/vulkan/hk_cmd_buffer.h`) is not
//! in the captures. The preambles load from it (the viewport transform, the provoking
//! vertex); here it is 4 KiB of random bytes, but for the fragment prolog's two pointers
//! (invocation counter and stipple pattern, where gpuabi's fragment prolog reads them).
//! The vertex buffers, uniforms and coefficient registers are random draws too (the
//! buffers and their uniforms as `mesa_parts` draws them, coefficient planes small finite
//! floats). Both runs of a comparison share all of it, so only registers differ between
//! them: a difference in the results is a read of a register the ABI does not hand over.

#[path = "mesa_parts/capture.rs"]
mod capture;
// Shared with `mesa_parts`, which uses more of it.
#[allow(dead_code)]
#[path = "mesa_parts/run.rs"]
mod run;

use std::collections::BTreeMap;

use capture::Draw;
use gpuabi_agx::abi::{FIN_SAMPLE_MASK, FUNI_ROOT, NESTING_COUNTER};
use gpuabi_agx::contract::{
    check_epilog, check_fs_prolog, check_vertex_main, check_vertex_prolog, epilog_may_read,
    first_uses, vertex_handed_over,
};
use gpuabi_agx::epilog::EpilogKey;
use gpuabi_agx::fs_prolog::{ROOT_POLYGON_STIPPLE, ROOT_PS_INVOCATIONS};
use gpuabi_agx::hk_key::{fragment_epilog_key, vertex_prolog_key};
use gpuabi_agx::link::{link, LinkInput, Part, PartInfo};
use gpuabi_agx::prolog::{register_use, PrologKey};
use gpuabi_agx::tilebuffer::tilebuffer_layout;
use gpuabi_agx_isa::{assemble, decode, OperandKind, RegFile};
use gpuabi_agx_sim::{run as sim_run, run_observed, Fragment, Region, State, GPR_HALVES, LANES};
use run::{fragment_trial, vertex_trial, Rng};

/// Instructions one program may run.
const MAX_STEPS: usize = 200_000;
/// Where the stand-in root descriptor table is.
const ROOT: u64 = 0x1000;
/// Bytes of the stand-in root descriptor table.
const ROOT_BYTES: usize = 4096;
/// The fragment-invocation counter the fragment prolog increments.
const COUNTER: u64 = 0x8000;
/// The 32-word stipple pattern the fragment prolog reads.
const STIPPLE: u64 = 0x9000;

/// Every draw of both captures.
fn draws(shared: bool) -> Vec<Draw> {
    if !shared {
        return capture::project();
    }
    let Some(dir) = gpuabi_testdata::shared_data("mesa/hk") else {
        return Vec::new();
    };
    let mut draws = capture::shared(&dir);
    assert_eq!(
        draws.len(),
        9,
        "draws.txt of the shared capture has 9 draws"
    );
    // A draw that compiled no part of its own reuses the part of the latest earlier draw
    // whose derived key is the same (as in `mesa_parts`).
    for i in 0..draws.len() {
        if draws[i].vertex_prolog.is_none() {
            let key = vertex_keys(&draws[i]).0;
            draws[i].vertex_prolog = draws[..i]
                .iter()
                .rev()
                .find(|d| d.vertex_prolog.is_some() && vertex_keys(d).0 == key)
                .and_then(|d| d.vertex_prolog.clone());
        }
        if draws[i].fragment_epilog.is_none() {
            let key = ekey(&draws[i]);
            draws[i].fragment_epilog = draws[..i]
                .iter()
                .rev()
                .find(|d| d.fragment_epilog.is_some() && ekey(d) == key)
                .and_then(|d| d.fragment_epilog.clone());
        }
    }
    draws
}

fn seed(name: &str, what: u64) -> u64 {
    name.bytes()
        .fold(what, |h, b| h.wrapping_mul(0x100_0000_01b3) ^ u64::from(b))
}

fn code(src: &str) -> Vec<u8> {
    assemble(src, "inject.s").expect("assembles").bytes
}

/// Fills every GPR half but those `keep` allows with garbage.
fn scramble(st: &mut State, rng: &mut Rng, keep: impl Fn(usize) -> bool) {
    for l in 0..LANES {
        for h in 0..GPR_HALVES {
            if !keep(h) {
                st.set_half(l, h, rng.next() as u16);
            }
        }
    }
}

/// The root table: random bytes with the fragment prolog's two pointers, and the memory
/// they point at.
fn root_memory(rng: &mut Rng) -> Vec<Region> {
    let mut root: Vec<u8> = (0..ROOT_BYTES).map(|_| rng.next() as u8).collect();
    for (at, v) in [
        (ROOT_PS_INVOCATIONS, COUNTER),
        (ROOT_POLYGON_STIPPLE, STIPPLE),
    ] {
        root[at as usize..at as usize + 8].copy_from_slice(&v.to_le_bytes());
    }
    vec![
        Region {
            address: ROOT,
            bytes: root,
        },
        Region {
            address: COUNTER,
            bytes: vec![0; 4],
        },
        Region {
            address: STIPPLE,
            bytes: (0..128).map(|_| rng.next() as u8).collect(),
        },
    ]
}

/// The 64-bit uniforms a preamble's loads take their base address from: the root table's
/// pointer, where Honeykrisp's submit binds it (draw 00: halves 60..63 for the vertex
/// shader, 12..15 for the fragment shader).
fn load_bases(code: &[u8]) -> Vec<u32> {
    decode(code)
        .expect("Mesa's preamble decodes")
        .iter()
        .filter(|(_, i)| i.opcode.name() == "load")
        .filter_map(|(_, i)| match i.srcs.first().copied().flatten()?.kind {
            OperandKind::Reg {
                file: RegFile::Uniform,
                base,
                ..
            } => Some(base),
            _ => None,
        })
        .collect()
}

/// Runs a preamble with one lane, as the hardware runs it once per draw, on `st`'s
/// uniforms and memory; its uniform writes stay in `st`.
fn run_preamble(name: &str, preamble: &[u8], st: &mut State, rng: &mut Rng) {
    for half in load_bases(preamble) {
        st.set_uniform(half, 64, ROOT).expect("root uniform");
    }
    let exec = st.exec;
    st.exec = 1;
    scramble(st, rng, |h| h == 0);
    for l in 0..LANES {
        st.set_half(l, 0, 0);
    }
    sim_run(preamble, st, MAX_STEPS).unwrap_or_else(|e| panic!("{name}: preamble: {e}"));
    st.exec = exec;
}

/// The vertex prolog's key, and the key whose attributes describe the memory the main
/// shader reads: with static vertex input Honeykrisp's prolog loads nothing and the main
/// shader fetches the same attributes through the same uniforms itself.
fn vertex_keys(d: &Draw) -> (PrologKey, PrologKey) {
    let v = d.state.vertex.as_ref().expect("vertex state");
    let key = vertex_prolog_key(v).unwrap_or_else(|e| panic!("{}: {e}", d.name));
    let mut dynamic = v.clone();
    dynamic.static_vertex_input = false;
    let memory = vertex_prolog_key(&dynamic).unwrap_or_else(|e| panic!("{}: {e}", d.name));
    (key, memory)
}

/// Runs the vertex side of a draw with `prolog` and `main`; returns the breaches found.
fn vertex_breaches(d: &Draw, prolog: &[u8], main: &[u8]) -> Vec<String> {
    let (key, memory) = vertex_keys(d);
    let mut out: Vec<String> = check_vertex_prolog(&key, prolog)
        .expect("prolog decodes")
        .into_iter()
        .chain(check_vertex_main(&key, main, &d.vertex_main.name).expect("main decodes"))
        .map(|v| v.to_string())
        .collect();
    let mut rng = Rng(seed(&d.name, 11));
    let trial = vertex_trial(&memory, &mut rng);
    let mut st = trial.state.clone();
    st.memory.extend(root_memory(&mut rng));
    if let Some(p) = &d.vertex_preamble {
        run_preamble(&d.name, &p.code, &mut st, &mut rng);
    }
    for l in 0..LANES {
        st.set_gpr(l, 10, 32, u64::from(trial.vertex_id[l]))
            .unwrap();
        st.set_gpr(l, 12, 32, u64::from(trial.instance_id[l]))
            .unwrap();
    }
    let handed = vertex_handed_over(&key);
    // The hardware preloads r5 and r6; the compute variant's inputs are uniforms only.
    let input = |h: usize| h == 0 || (key.hw && (10..14).contains(&h));
    let handed_half = |h: usize| h == 0 || handed.contains(&((h / 2) as u16));
    let prolog_run = |rng: &mut Rng| {
        let mut s = st.clone();
        scramble(&mut s, rng, input);
        sim_run(prolog, &mut s, MAX_STEPS)
            .unwrap_or_else(|e| panic!("{}: prolog {}: {e}", d.name, d.vertex_prolog_name()));
        s
    };
    let (a, b) = (prolog_run(&mut rng), prolog_run(&mut rng));
    for l in 0..LANES {
        for &r in &handed {
            let h = 2 * usize::from(r);
            if (a.half(l, h), a.half(l, h + 1)) != (b.half(l, h), b.half(l, h + 1)) {
                out.push(format!(
                    "prolog: lane {l}: r{r}, which it hands over, depends on registers that are no ABI input"
                ));
                break;
            }
        }
    }
    let main_run = |rng: &mut Rng| {
        let mut s = a.clone();
        scramble(&mut s, rng, handed_half);
        sim_run(main, &mut s, MAX_STEPS)
            .unwrap_or_else(|e| panic!("{}: main {}: {e}", d.name, d.vertex_main.name));
        s.varyings
    };
    let (va, vb) = (main_run(&mut rng), main_run(&mut rng));
    assert!(
        va.iter().any(|m| !m.is_empty()),
        "{}: the main shader stored no vertex output",
        d.name
    );
    for (l, (x, y)) in va.iter().zip(&vb).enumerate() {
        if let Some((slot, _)) = x.iter().find(|(s, v)| y.get(s) != Some(v)) {
            out.push(format!(
                "main: lane {l}: vertex output {slot} depends on registers the prolog does not hand over"
            ));
            break;
        }
    }
    out
}

impl Draw {
    fn vertex_prolog_name(&self) -> &str {
        self.vertex_prolog.as_ref().map_or("(none)", |p| &p.name)
    }
}

fn info(code: &[u8], reads_tib: bool, writes_sample_mask: bool) -> PartInfo {
    let gpr_halves = register_use(code)
        .map(|(r, w)| r.iter().chain(&w).map(|h| h + 1).max().unwrap_or(0))
        .unwrap_or(0);
    PartInfo {
        gpr_halves,
        reads_tib,
        writes_sample_mask,
        ..PartInfo::default()
    }
}

fn ekey(d: &Draw) -> EpilogKey {
    let f = d.state.fragment.as_ref().expect("fragment state");
    fragment_epilog_key(f).unwrap_or_else(|e| panic!("{}: {e}", d.name))
}

/// Runs the fragment side of a draw with `main` and `epilog` (and Mesa's fragment prolog
/// when it bound one); returns the breaches found.
fn fragment_breaches(d: &Draw, main: &[u8], epilog: &[u8]) -> Vec<String> {
    let key = ekey(d);
    let f = d.state.fragment.as_ref().expect("fragment state");
    let prolog = d.fragment_prolog.as_ref().map(|p| p.code.as_slice());
    let mut out: Vec<String> = check_epilog(&key, epilog)
        .expect("epilog decodes")
        .into_iter()
        .chain(prolog.map_or(Vec::new(), |p| check_fs_prolog(p).expect("prolog decodes")))
        .map(|v| v.to_string())
        .collect();
    let formats: Vec<Option<&str>> = key
        .rts
        .iter()
        .map(|r| r.as_ref().map(|r| r.format.as_str()))
        .collect();
    let layout = tilebuffer_layout(&formats, key.samples).expect("tile buffer layout");
    let mut rng = Rng(seed(&d.name, 12));
    let trial = fragment_trial(&key, f, layout.sample_size_bytes, &mut rng);
    let mut st = trial.state.clone();
    st.memory.extend(root_memory(&mut rng));
    st.set_uniform(u32::from(FUNI_ROOT.first_half), 64, ROOT)
        .unwrap();
    if let Some(p) = &d.fragment_preamble {
        run_preamble(&d.name, &p.code, &mut st, &mut rng);
    }
    let mut frag: Fragment = trial.frag.clone();
    // Coefficient planes: small finite floats, so that `iter` gives finite values.
    frag.cf = (0..64)
        .map(|_| [0; 3].map(|_: u32| (0.25 + rng.below(1000) as f32 / 1000.0).to_bits()))
        .collect();
    let linked = link(&LinkInput {
        prolog: prolog.map(|code| Part {
            code,
            info: info(code, false, true),
        }),
        main: Part {
            code: main,
            info: info(main, false, false),
        },
        epilog: Some(Part {
            code: epilog,
            info: info(epilog, true, false),
        }),
        samples: key.sample_shading.then_some(key.samples),
    })
    .unwrap_or_else(|e| panic!("{}: link: {e}", d.name));
    let at = |name: &str| {
        linked
            .pieces
            .iter()
            .find(|p| p.name == name)
            .map(|p| p.offset)
    };
    let body = at("main").expect("main piece");
    let epilog_at = at("epilog").expect("epilog piece");
    let footer = at("sample loop footer");
    let r0l = usize::from(NESTING_COUNTER.first_half);
    let r1l = usize::from(FIN_SAMPLE_MASK.first_half);
    let shading = key.sample_shading;
    let mut footer_breaches = BTreeMap::new();
    let mut go = |rng: &mut Rng| {
        let mut s = st.clone();
        s.exec = 0;
        for l in 0..LANES {
            if frag.coverage[l] != 0 {
                s.exec |= 1 << l;
            }
        }
        scramble(&mut s, rng, |_| false);
        for l in 0..LANES {
            // A nesting counter above 0 keeps lanes without a fragment out of every mask.
            s.set_half(l, r0l, u16::from(s.exec >> l & 1 == 0));
        }
        s.frag = Some(Box::new(frag.clone()));
        let mut start = [0u16; LANES];
        let launched = s.exec;
        let mut observe = |pc: usize, _: &gpuabi_agx_isa::Instruction, s: &mut State| {
            if pc == body {
                scramble(s, rng, |h| h == r0l || (shading && h == r1l));
                for (l, v) in start.iter_mut().enumerate() {
                    *v = s.half(l, r1l);
                }
            }
            if pc == epilog_at {
                scramble(s, rng, |h| {
                    h == r0l || h >= GPR_HALVES || epilog_may_read(&key, h as u16)
                });
            }
            if Some(pc) == footer {
                for l in (0..LANES).filter(|l| launched >> l & 1 == 1) {
                    if s.half(l, r0l) != 0 || s.half(l, r1l) != start[l] {
                        footer_breaches.insert(
                            l,
                            format!(
                                "lane {l}: r0l is {} and r1l {:#x} at the sample loop's footer (expected 0 and {:#x})",
                                s.half(l, r0l), s.half(l, r1l), start[l]
                            ),
                        );
                    }
                    // Undone, so that the loop still counts its samples and ends.
                    s.set_half(l, r0l, 0);
                    s.set_half(l, r1l, start[l]);
                }
                s.exec_from_r0l();
            }
        };
        run_observed(&linked.code, &mut s, MAX_STEPS, &mut observe)
            .unwrap_or_else(|e| panic!("{}: linked fragment program: {e}", d.name));
        s.frag.take().expect("fragment state")
    };
    let (a, b) = (go(&mut rng), go(&mut rng));
    out.extend(footer_breaches.into_values().take(1));
    if a.tib != b.tib {
        let i = a.tib.iter().zip(&b.tib).position(|(x, y)| x != y).unwrap();
        out.push(format!(
            "tile byte {i} depends on registers the ABI does not hand over"
        ));
    }
    if a.coverage != b.coverage {
        out.push("coverage depends on registers the ABI does not hand over".to_string());
    }
    out
}

fn contract_holds(shared: bool) {
    let draws = draws(shared);
    let mut failures = Vec::new();
    for d in &draws {
        let (Some(prolog), Some(epilog)) = (&d.vertex_prolog, &d.fragment_epilog) else {
            panic!("{}: no part resolved", d.name);
        };
        for b in vertex_breaches(d, &prolog.code, &d.vertex_main.code) {
            failures.push(format!("{}: {b}", d.name));
        }
        for b in fragment_breaches(d, &d.fragment_main.code, &epilog.code) {
            failures.push(format!("{}: {b}", d.name));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn mesas_parts_keep_the_contract_on_every_draw_of_the_project_capture() {
    contract_holds(false);
}

#[test]
#[cfg_attr(
    gpuabi_no_shared_data,
    ignore = "needs the shared test data (GPUABI_SHARED_DIR), which was absent when the tests were built"
)]
fn mesas_parts_keep_the_contract_on_every_draw_of_the_shared_capture() {
    contract_holds(true);
}

/// Asserts that `found` has a breach containing each of `wanted`.
fn reported(d: &Draw, what: &str, found: &[String], wanted: &[&str]) {
    for w in wanted {
        assert!(
            found.iter().any(|f| f.contains(w)),
            "{}: {what}: no breach mentions `{w}`: {found:?}",
            d.name
        );
    }
}

fn breaches_are_caught(shared: bool) {
    for d in &draws(shared) {
        let (Some(prolog), Some(epilog)) = (&d.vertex_prolog, &d.fragment_epilog) else {
            panic!("{}: no part resolved", d.name);
        };
        let (key, _) = vertex_keys(d);
        // A prolog that clobbers the vertex ID it hands over with a register that is no
        // input (r120: above every register the captured parts use).
        let mut p = prolog.code.clone();
        p.extend(code("mov r5, r120\n"));
        let found = vertex_breaches(d, &p, &d.vertex_main.code);
        reported(
            d,
            "prolog clobbering r5",
            &found,
            &[
                "reads r120 before writing it",
                "r5, which it hands over, depends on registers that are no ABI input",
            ],
        );
        // A prolog writing a register the main shader does not read.
        let mut p = prolog.code.clone();
        p.extend(code("mov r100, r5\n"));
        let found = vertex_breaches(d, &p, &d.vertex_main.code);
        reported(
            d,
            "prolog writing r100",
            &found,
            &["writes r100, which the main shader does not read"],
        );
        // A main shader storing a prolog temporary (r3 of a hardware vertex shader; the
        // compute variant hands r4 over but not r3 either).
        let mut m = code("st_var r3, 63\n");
        m.extend(&d.vertex_main.code);
        let found = vertex_breaches(d, &prolog.code, &m);
        reported(
            d,
            "main storing r3",
            &found,
            &[
                "reads r3, which holds poison on entry",
                "vertex output 63 depends on registers the prolog does not hand over",
            ],
        );
        assert!(
            key.hw,
            "{}: the captured draws use hardware vertex shaders",
            d.name
        );
        // An epilog whose first colour read takes a register the main shader does not
        // hand it (r100).
        let uses = first_uses(&epilog.code).expect("epilog decodes");
        let first = uses
            .reads
            .iter()
            .min_by_key(|(_, s)| s.offset)
            .map(|(&h, _)| h)
            .expect("the epilog reads a colour");
        let mut e = code(&format!("mov r{}, r100\n", first / 2));
        e.extend(&epilog.code);
        let found = fragment_breaches(d, &d.fragment_main.code, &e);
        reported(
            d,
            "epilog reading r100l",
            &found,
            &[
                "reads r100 (the main shader exports nothing there for this key)",
                "depends on registers the ABI does not hand over",
            ],
        );
        // Under sample shading, a main shader that clears the iteration's sample.
        if ekey(d).sample_shading {
            let mut m = d.fragment_main.code.clone();
            m.extend(code("mov r1l, 0\n"));
            let found = fragment_breaches(d, &m, &epilog.code);
            reported(
                d,
                "main clearing r1l",
                &found,
                &["at the sample loop's footer"],
            );
        }
    }
}

#[test]
fn breaches_injected_into_mesas_parts_are_reported_on_the_project_capture() {
    breaches_are_caught(false);
}

#[test]
#[cfg_attr(
    gpuabi_no_shared_data,
    ignore = "needs the shared test data (GPUABI_SHARED_DIR), which was absent when the tests were built"
)]
fn breaches_injected_into_mesas_parts_are_reported_on_the_shared_capture() {
    breaches_are_caught(true);
}
