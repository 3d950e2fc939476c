//! Mesa's vertex prologs, fragment prologs and fragment epilogs against gpuabi's, key by
//! key: for every draw of the project's Honeykrisp capture (`testdata/mesa/hk`) and of the
//! shared one (`data/mesa/hk` of the shared test data), the draw's Vulkan state gives gpuabi's keys
//! (`gpuabi_agx::hk_key`), gpuabi generates its parts, and both parts run in the simulator
//! on the same random inputs: the vertex prologs must hand the main shader the same
//! registers, the fragment epilogs leave the same tile bytes and coverage, the fragment
//! prologs the same coverage and tested samples, bit for bit.
//!
//! 50 random inputs per key here; the ignored tests run 1,000
//! (`cargo test --release -p gpuabi-agx --test mesa_parts -- --ignored`). A draw of the
//! shared capture that compiled no part of its own reuses the part Honeykrisp compiled for
//! an earlier draw with the same key; it is compared with the part of the latest earlier
//! draw whose derived key is the same (none is an error: the derivation would then differ
//! from Honeykrisp's).

// Shared with `mesa_contract`, which also reads the main shaders.
#[allow(dead_code)]
#[path = "mesa_parts/capture.rs"]
mod capture;
#[path = "mesa_parts/run.rs"]
mod run;

use capture::{Draw, Part};
use gpuabi_agx::epilog::{fragment_epilog, EpilogKey};
use gpuabi_agx::fs_prolog::{fragment_prolog, FsPrologKey};
use gpuabi_agx::hk_key::{fragment_epilog_key, fragment_prolog_key, vertex_prolog_key};
use gpuabi_agx::prolog::{register_use, vertex_prolog, PrologKey};
use gpuabi_agx::tilebuffer::tilebuffer_layout;
use gpuabi_agx_isa::decode;
use run::{fragment_trial, run_fragment, run_vertex, vertex_trial, Rng};

/// Random inputs per key in the default run.
const TRIALS: usize = 50;
/// Random inputs per key in the ignored long run.
const LONG_TRIALS: usize = 1000;

/// Every draw of both captures whose parts are known, with reused parts resolved.
fn draws() -> Vec<Draw> {
    let mut all = capture::project();
    assert_eq!(all.len(), 29, "the project's capture has 29 draws");
    if let Some(dir) = gpuabi_testdata::shared_data("mesa/hk") {
        let mut shared = capture::shared(&dir);
        assert_eq!(
            shared.len(),
            9,
            "draws.txt of the shared capture has 9 draws"
        );
        resolve_reused(&mut shared);
        all.extend(shared);
    }
    all
}

/// Gives each draw without a part of its own the part of the latest earlier draw whose
/// derived key is the same.
fn resolve_reused(draws: &mut [Draw]) {
    for i in 0..draws.len() {
        if draws[i].vertex_prolog.is_none() {
            let key = vkey(&draws[i]);
            let from = draws[..i]
                .iter()
                .rev()
                .find(|d| d.vertex_prolog.is_some() && vkey(d) == key)
                .unwrap_or_else(|| {
                    panic!(
                        "{}: Honeykrisp compiled no vertex prolog for it, but no earlier draw has its key",
                        draws[i].name
                    )
                });
            draws[i].vertex_prolog = from.vertex_prolog.clone();
        }
        if draws[i].fragment_epilog.is_none() {
            let key = ekey(&draws[i]);
            let from = draws[..i]
                .iter()
                .rev()
                .find(|d| d.fragment_epilog.is_some() && ekey(d) == key)
                .unwrap_or_else(|| {
                    panic!(
                        "{}: Honeykrisp compiled no fragment epilog for it, but no earlier draw has its key",
                        draws[i].name
                    )
                });
            draws[i].fragment_epilog = from.fragment_epilog.clone();
        }
    }
}

fn vkey(d: &Draw) -> PrologKey {
    let v = d.state.vertex.as_ref().expect("vertex state");
    vertex_prolog_key(v).unwrap_or_else(|e| panic!("{}: {e}", d.name))
}

fn ekey(d: &Draw) -> EpilogKey {
    let f = d.state.fragment.as_ref().expect("fragment state");
    fragment_epilog_key(f).unwrap_or_else(|e| panic!("{}: {e}", d.name))
}

fn fkey(d: &Draw) -> Option<FsPrologKey> {
    let f = d.state.fragment.as_ref().expect("fragment state");
    fragment_prolog_key(f).unwrap_or_else(|e| panic!("{}: {e}", d.name))
}

fn mesa<'a>(d: &Draw, p: &'a Option<Part>) -> &'a Part {
    p.as_ref()
        .unwrap_or_else(|| panic!("{}: no part resolved", d.name))
}

fn seed(name: &str, what: u64) -> u64 {
    name.bytes()
        .fold(what, |h, b| h.wrapping_mul(0x100_0000_01b3) ^ u64::from(b))
}

fn compare_vertex(d: &Draw, trials: usize) -> Result<(), String> {
    let key = vkey(d);
    let mesa = mesa(d, &d.vertex_prolog);
    let ours = vertex_prolog(&key).unwrap_or_else(|e| panic!("{}: {e}", d.name));
    let mut rng = Rng(seed(&d.name, 1));
    for t in 0..trials {
        let trial = vertex_trial(&key, &mut rng);
        let a = run_vertex(&mesa.code, &key, &trial, &mut rng)
            .unwrap_or_else(|e| panic!("{}: Mesa's {}: trial {t}: {e}", d.name, mesa.name));
        let b = run_vertex(&ours.code, &key, &trial, &mut rng)
            .unwrap_or_else(|e| panic!("{}: gpuabi's prolog: trial {t}: {e}", d.name));
        for (l, (ra, rb)) in a.iter().zip(&b).enumerate() {
            for ((r, va), (_, vb)) in ra.iter().zip(rb) {
                if va != vb {
                    return Err(format!(
                        "{}: trial {t}, lane {l} (vertex {:#x}, instance {:#x}): r{r} is {va:#010x} after Mesa's {}, {vb:#010x} after gpuabi's prolog",
                        d.name, trial.vertex_id[l], trial.instance_id[l], mesa.name
                    ));
                }
            }
        }
    }
    Ok(())
}

/// Render-target components where Mesa's part computes another expression than the blend
/// equation: draw 02's render target 3 (R16G16B16A16_FLOAT) blends its colour with
/// `DST_COLOR`, `ONE_MINUS_SRC_COLOR`, `ADD`, which `nir_lower_blend` builds as
/// `s·d + d·(1 − s)`; `nir_opt_algebraic`'s inexact rules `a·b + a·c → a·(b + c)` and
/// `a + (−a + b) → b` (`src/compiler/nir/nir_opt_algebraic.py`) turn that into `d`, which
/// Mesa stores (its NIR: `f2f32` of the loaded channel straight into the store). gpuabi
/// evaluates the equation term by term (`epilog_blend.rs`), so the two differ wherever the
/// rounding of the terms or a non-finite source shows (`draw_02_is_rewritten` gives one);
/// there, Mesa's part is checked against `d` instead: (draw, render target, components).
const REWRITTEN: &[(&str, u8, u8)] = &[("testdata/02_wide_packed_unpacked", 3, 0b0111)];

/// The byte ranges of the components `mask` of render target `rt` in a sample, for the
/// per-channel physical formats of [`REWRITTEN`].
fn component_bytes(
    layout: &gpuabi_agx::tilebuffer::TileBufferLayout,
    rt: u8,
    mask: u8,
) -> Vec<std::ops::Range<usize>> {
    let p = layout
        .render_targets
        .iter()
        .find(|p| p.rt == rt)
        .expect("a placed render target");
    let channels = p.size_bytes / p.align_bytes;
    let o = p.offset_bytes.expect("in the tile") as usize;
    let each = (p.size_bytes / channels) as usize;
    (0..4)
        .filter(|c| mask >> c & 1 == 1)
        .map(|c| o + c * each..o + (c + 1) * each)
        .collect()
}

/// Mesa's value of a rewritten component: the destination's fp16 through fp32 and back,
/// NaNs canonical (`F16_NAN` of the simulator).
fn rewritten_value(before: &[u8]) -> Vec<u8> {
    let h = u16::from_le_bytes([before[0], before[1]]);
    let h = if (h & 0x7c00) == 0x7c00 && h & 0x3ff != 0 {
        0x7e00
    } else {
        h
    };
    h.to_le_bytes().to_vec()
}

fn compare_fragment_epilog(d: &Draw, trials: usize) -> Result<(), String> {
    let key = ekey(d);
    let f = d.state.fragment.as_ref().expect("fragment state");
    let mesa = mesa(d, &d.fragment_epilog);
    let ours = fragment_epilog(&key).unwrap_or_else(|e| panic!("{}: {e}", d.name));
    let formats: Vec<Option<&str>> = key
        .rts
        .iter()
        .map(|r| r.as_ref().map(|r| r.format.as_str()))
        .collect();
    let layout = tilebuffer_layout(&formats, key.samples).expect("layout");
    assert!(
        layout
            .render_targets
            .iter()
            .all(|p| p.offset_bytes.is_some()),
        "{}: a spilled render target",
        d.name
    );
    let mut rng = Rng(seed(&d.name, 2));
    for t in 0..trials {
        let trial = fragment_trial(&key, f, layout.sample_size_bytes, &mut rng);
        let a = run_fragment(&mesa.code, &trial, key.sample_shading, &mut rng)
            .unwrap_or_else(|e| panic!("{}: Mesa's {}: trial {t}: {e}", d.name, mesa.name));
        let b = run_fragment(&ours.code, &trial, key.sample_shading, &mut rng)
            .unwrap_or_else(|e| panic!("{}: gpuabi's epilog: trial {t}: {e}", d.name));
        let rewritten: Vec<std::ops::Range<usize>> = REWRITTEN
            .iter()
            .filter(|(n, _, _)| *n == d.name)
            .flat_map(|&(_, rt, mask)| component_bytes(&layout, rt, mask))
            .collect();
        let size = a.sample_size as usize;
        for l in 0..32 {
            let (x, y) = a.pixel[l];
            let pixel = usize::from(y) * a.width as usize + usize::from(x);
            for smp in 0..a.samples as usize {
                if a.coverage[l] >> smp & 1 == 0 {
                    continue;
                }
                let at = (pixel * a.samples as usize + smp) * size;
                for r in &rewritten {
                    let m = &a.tib[at + r.start..at + r.end];
                    let before = &trial.frag.tib[at + r.start..at + r.end];
                    if m != rewritten_value(before).as_slice() {
                        return Err(format!(
                            "{}: trial {t}: pixel {pixel} sample {smp} bytes {r:?}: Mesa's {} leaves {m:02x?}, not the destination {before:02x?} its rewritten equation gives",
                            d.name, mesa.name
                        ));
                    }
                }
            }
        }
        let differs =
            |i: usize| a.tib[i] != b.tib[i] && !rewritten.iter().any(|r| r.contains(&(i % size)));
        if let Some(i) = (0..a.tib.len()).find(|&i| differs(i)) {
            let size = a.sample_size as usize;
            let (sample, at) = (i / size, i % size);
            let pixel = sample / a.samples as usize;
            let rt = layout
                .render_targets
                .iter()
                .find(|p| {
                    p.offset_bytes
                        .is_some_and(|o| (o as usize..(o + p.size_bytes) as usize).contains(&at))
                })
                .map_or("padding".to_string(), |p| format!("render target {}", p.rt));
            let lane = (0..32).find(|&l| {
                let (x, y) = a.pixel[l];
                usize::from(y) * 8 + usize::from(x) == pixel
            });
            let regs: Vec<String> = lane
                .map(|l| {
                    trial.iterations[0].1[l][8..40]
                        .chunks(2)
                        .enumerate()
                        .map(|(r, h)| format!("r{}={:#06x}{:04x}", r + 4, h[1], h[0]))
                        .collect()
                })
                .unwrap_or_default();
            let s = size * (pixel * a.samples as usize + sample % a.samples as usize);
            let s = s - s % size;
            return Err(format!(
                "{}: trial {t}: pixel {pixel} sample {} byte {at} ({rt}): Mesa's {} leaves {:02x?}, gpuabi's epilog {:02x?} (before: {:02x?}; coverage {:#x})\ncolours: {}",
                d.name,
                sample % a.samples as usize,
                mesa.name,
                &a.tib[s..s + size],
                &b.tib[s..s + size],
                &trial.frag.tib[s..s + size],
                trial.frag.coverage[lane.unwrap_or(0)],
                regs.join(" "),
            ));
        }
        if a.coverage != b.coverage {
            return Err(format!(
                "{}: trial {t}: coverage {:?} after Mesa's {}, {:?} after gpuabi's epilog",
                d.name, a.coverage, mesa.name, b.coverage
            ));
        }
    }
    Ok(())
}

fn compare_fragment_prolog(d: &Draw, key: &FsPrologKey, trials: usize) -> Result<(), String> {
    let mesa = mesa(d, &d.fragment_prolog);
    let ours = fragment_prolog(key).unwrap_or_else(|e| panic!("{}: {e}", d.name));
    let ekey = ekey(d);
    let f = d.state.fragment.as_ref().expect("fragment state");
    let mut rng = Rng(seed(&d.name, 3));
    for t in 0..trials {
        let mut trial = fragment_trial(&ekey, f, 8, &mut rng);
        trial.iterations.truncate(1);
        trial.written.clear();
        let a = run_fragment(&mesa.code, &trial, false, &mut rng)
            .unwrap_or_else(|e| panic!("{}: Mesa's {}: trial {t}: {e}", d.name, mesa.name));
        let b = run_fragment(&ours.code, &trial, false, &mut rng)
            .unwrap_or_else(|e| panic!("{}: gpuabi's prolog: trial {t}: {e}", d.name));
        if (a.coverage, a.tested) != (b.coverage, b.tested) {
            return Err(format!(
                "{}: trial {t}: coverage and tested samples {:?} after Mesa's {}, {:?} after gpuabi's fragment prolog (coverage before {:?})",
                d.name,
                (a.coverage, a.tested),
                mesa.name,
                (b.coverage, b.tested),
                trial.frag.coverage
            ));
        }
    }
    Ok(())
}

/// Fails with every draw's disagreement, one a line.
fn all_agree(results: Vec<Result<(), String>>) {
    let errors: Vec<String> = results.into_iter().filter_map(Result::err).collect();
    assert!(
        errors.is_empty(),
        "{} disagreement(s):\n{}",
        errors.len(),
        errors.join("\n")
    );
}

#[test]
fn every_captured_draw_has_its_keys() {
    for d in draws() {
        vkey(&d);
        ekey(&d);
        let has_prolog = fkey(&d).is_some();
        assert_eq!(
            has_prolog,
            d.fragment_prolog.is_some(),
            "{}: a fragment prolog key exactly when Mesa bound a fragment prolog",
            d.name
        );
    }
}

/// The component masks of the derived keys are the ones Mesa's prologs were compiled for:
/// each attribute component the prolog's NIR exports (`export_agx` from half 16 on, in
/// the part's `.txt`), the vertex and instance IDs aside.
#[test]
fn component_masks_are_mesas() {
    let dir = capture::project_dir().join("parts");
    for d in capture::project() {
        let Some(p) = d.vertex_prolog.as_ref().filter(|p| !p.code.is_empty()) else {
            continue;
        };
        let files = std::fs::read_to_string(dir.join("index.txt")).expect("index");
        let stem = files
            .lines()
            .find(|l| l.starts_with(&format!("{} |", p.name)))
            .and_then(|l| l.rsplit(" | ").next())
            .expect("index line");
        let txt = std::fs::read_to_string(dir.join(format!("{stem}.txt"))).expect("part text");
        let mut mesa: Vec<(u16, u8)> = Vec::new();
        for line in txt.lines().take_while(|l| !l.starts_with("block0")) {
            if let Some(b) = line.split("@export_agx").nth(1) {
                let base: u16 = b
                    .rsplit("(base=")
                    .next()
                    .and_then(|x| x.trim_end_matches(')').parse().ok())
                    .expect("base");
                if base >= 16 {
                    mesa.push(((base - 16) / 8, 1 << ((base - 16) / 2 % 4)));
                }
            }
        }
        let key = vkey(&d);
        let ours: Vec<(u16, u8)> = key
            .attribs
            .iter()
            .flat_map(|a| {
                (0..4)
                    .filter(move |c| a.components >> c & 1 == 1)
                    .map(move |c| (a.slot, 1u8 << c))
            })
            .collect();
        let mut mesa_sorted = mesa.clone();
        mesa_sorted.sort();
        assert_eq!(ours, mesa_sorted, "{}", d.name);
    }
}

#[test]
fn vertex_prologs_agree_with_mesa() {
    all_agree(draws().iter().map(|d| compare_vertex(d, TRIALS)).collect());
}

#[test]
fn fragment_epilogs_agree_with_mesa() {
    all_agree(
        draws()
            .iter()
            .map(|d| compare_fragment_epilog(d, TRIALS))
            .collect(),
    );
}

#[test]
fn fragment_prologs_agree_with_mesa() {
    let results: Vec<_> = draws()
        .iter()
        .filter_map(|d| fkey(d).map(|k| compare_fragment_prolog(d, &k, TRIALS)))
        .collect();
    assert_eq!(results.len(), 1, "draw 15 has the one fragment prolog");
    all_agree(results);
}

#[test]
#[ignore = "1,000 random inputs per key: run with --release -- --ignored"]
fn vertex_prologs_agree_with_mesa_long() {
    all_agree(
        draws()
            .iter()
            .map(|d| compare_vertex(d, LONG_TRIALS))
            .collect(),
    );
}

#[test]
#[ignore = "1,000 random inputs per key: run with --release -- --ignored"]
fn fragment_epilogs_agree_with_mesa_long() {
    all_agree(
        draws()
            .iter()
            .map(|d| compare_fragment_epilog(d, LONG_TRIALS))
            .collect(),
    );
}

#[test]
#[ignore = "1,000 random inputs per key: run with --release -- --ignored"]
fn fragment_prologs_agree_with_mesa_long() {
    all_agree(
        draws()
            .iter()
            .filter_map(|d| fkey(d).map(|k| compare_fragment_prolog(d, &k, LONG_TRIALS)))
            .collect(),
    );
}

/// Instructions and GPR halves (one past the highest half read or written) of a part.
fn size(code: &[u8]) -> (usize, u16) {
    let n = decode(code).expect("decodes").len();
    let (r, w) = register_use(code).expect("registers");
    let gprs = r.iter().chain(&w).map(|h| h + 1).max().unwrap_or(0);
    (n, gprs)
}

/// A row of the part-size table: what, Mesa's part, the draws, Mesa's and gpuabi's
/// (instructions, GPR halves).
type SizeRow = (String, String, Vec<String>, (usize, u16), (usize, u16));

/// The per-key table of the README: both parts' instructions and GPR halves, one row per
/// part Mesa compiled (with the draws that bound it).
#[test]
#[ignore = "prints the README's table: -- --ignored --nocapture part_sizes"]
fn part_sizes() {
    let mut rows: Vec<SizeRow> = Vec::new();
    let mut add = |what: &str, mesa: &Part, ours: Vec<u8>, draw: &str| {
        let short = draw.rsplit('/').next().unwrap_or(draw);
        let short = if draw.starts_with("shared/") {
            draw.trim_start_matches("shared/").to_string()
        } else {
            short[..2].to_string()
        };
        match rows.iter_mut().find(|r| r.0 == what && r.1 == mesa.name) {
            Some(r) => r.2.push(short),
            None => rows.push((
                what.to_string(),
                mesa.name.clone(),
                vec![short],
                size(&mesa.code),
                size(&ours),
            )),
        }
    };
    for d in draws() {
        let v = mesa(&d, &d.vertex_prolog);
        if !v.code.is_empty() {
            add(
                "vertex prolog",
                v,
                vertex_prolog(&vkey(&d)).expect("prolog").code,
                &d.name,
            );
        }
        let e = mesa(&d, &d.fragment_epilog);
        add(
            "fragment epilog",
            e,
            fragment_epilog(&ekey(&d)).expect("epilog").code,
            &d.name,
        );
        if let (Some(k), Some(p)) = (fkey(&d), &d.fragment_prolog) {
            add(
                "fragment prolog",
                p,
                fragment_prolog(&k).expect("fs prolog").code,
                &d.name,
            );
        }
    }
    println!(
        "| part | draws | Mesa: instructions, GPR halves | gpuabi: instructions, GPR halves |"
    );
    println!("|---|---|---|---|");
    for (what, _, draws, (mn, mg), (gn, gg)) in rows {
        println!(
            "| {what} | {} | {mn}, {mg} | {gn}, {gg} |",
            draws.join(", ")
        );
    }
}

/// Draw 02's render target 3 (`REWRITTEN`): with an infinite source red over a destination
/// of 0.5, the equation `s·d + d·(1 − s)` is `∞ + (−∞)`, NaN, which gpuabi's epilog
/// stores; Mesa's rewritten `d` keeps 0.5.
#[test]
fn draw_02_is_rewritten() {
    let d = capture::project()
        .into_iter()
        .find(|d| d.name == "testdata/02_wide_packed_unpacked")
        .expect("draw 02");
    let key = ekey(&d);
    let f = d.state.fragment.as_ref().expect("fragment state");
    let formats: Vec<Option<&str>> = key
        .rts
        .iter()
        .map(|r| r.as_ref().map(|r| r.format.as_str()))
        .collect();
    let layout = tilebuffer_layout(&formats, key.samples).expect("layout");
    let red = component_bytes(&layout, 3, 1)[0].clone();
    let mut trial = fragment_trial(&key, f, layout.sample_size_bytes, &mut Rng(7));
    trial.frag.coverage[0] = 1;
    // Lane 0 is pixel 0: its red of location 3 (r16) is +∞, the tile's red 0.5 (fp16).
    let r16 = usize::from(gpuabi_agx::abi::fout_colour(3));
    trial.iterations[0].1[0][r16] = 0x0000;
    trial.iterations[0].1[0][r16 + 1] = 0x7f80;
    trial.frag.tib[red.clone()].copy_from_slice(&0x3800u16.to_le_bytes());
    let mesa = run_fragment(
        &d.fragment_epilog.as_ref().unwrap().code,
        &trial,
        false,
        &mut Rng(1),
    )
    .expect("Mesa's epilog runs");
    let ours = run_fragment(
        &fragment_epilog(&key).unwrap().code,
        &trial,
        false,
        &mut Rng(2),
    )
    .expect("gpuabi's epilog runs");
    assert_eq!(mesa.tib[red.clone()], 0x3800u16.to_le_bytes());
    assert_eq!(ours.tib[red], 0x7e00u16.to_le_bytes());
}

/// Two things Mesa's vertex prologs do that gpuabi's generator does not, and which the
/// contract accepts because Mesa's ABI allows them:
/// * `r0` as a temporary: Mesa's compiler README lists `r0`-`r3` and `r7` as undefined at
///   the main vertex shader's entry and free for the prolog, and its main shaders zero
///   `r0l` before their first control flow (`emit_first_cf` in
///   `src/asahi/compiler/agx_compile.c`); gpuabi's generator keeps off `r0`.
/// * attribute components the main shader does not read: `agx_nir_lower_vbo` loads the
///   components of the format up to the last one read (`load r24_r25_r26_r27 ... xyzw` for
///   `x` and `z`), and the load writes all of them. Mesa's README gives each attribute slot
///   its whole vector (`r8` onwards hold 128-bit vectors per attribute), so nothing reads
///   them; gpuabi's generator writes exactly the components read.
///
/// The contract reports nothing on Mesa's prologs, and both happen in the capture.
#[test]
fn the_contract_accepts_mesas_temporaries_and_whole_vectors() {
    let (mut r0, mut unread) = (0, 0);
    for d in capture::project() {
        let p = d.vertex_prolog.as_ref().expect("resolved");
        if p.code.is_empty() {
            continue;
        }
        let key = vkey(&d);
        let v = gpuabi_agx::contract::check_vertex_prolog(&key, &p.code).expect("decodes");
        assert!(v.is_empty(), "{}: {v:?}", d.name);
        let handed = gpuabi_agx::contract::vertex_handed_over(&key);
        let uses = gpuabi_agx::contract::first_uses(&p.code).expect("decodes");
        let written: std::collections::BTreeSet<u16> = uses.writes.keys().map(|h| h / 2).collect();
        r0 += usize::from(written.contains(&0));
        unread += written
            .iter()
            .filter(|&&r| r >= 8 && !handed.contains(&r))
            .count();
    }
    assert!(r0 > 0 && unread > 0);
}
