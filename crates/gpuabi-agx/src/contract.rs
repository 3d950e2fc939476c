//! The contract at each boundary between shader parts, checked on a part's code: which
//! registers a part may read on entry and which it may leave behind, and which uniform
//! halves a prolog or epilog may read.
//!
//! The reads and writes of a part are its operands in program order (a straight-line
//! reading: a register read before any instruction writes it is an input). Rules, from
//! the ABI's register tables:
//! * **Vertex prolog**: it reads nothing but `r5`/`r6` (preloaded by a hardware vertex
//!   shader); it writes only its temporaries (`r0`…`r4`, `r7`), the registers it hands
//!   over and the other components of the attribute vectors it hands over, and writes each
//!   register it hands over: `r5`, `r6`, `r4` in the compute variant, and `r(8 + 4a + c)`
//!   for each component the key says the main shader reads. Mesa's ABI
//!   (`src/asahi/compiler/README.md`, "Vertex") leaves `r0`…`r3` and `r7` undefined at
//!   the main shader's entry, free for the prolog (the main shader zeroes the nesting
//!   counter `r0l` before its first control flow, `emit_first_cf` in
//!   `src/asahi/compiler/agx_compile.c`), and Mesa's prologs load each attribute's vector
//!   whole; `agx_fast_link` (`src/asahi/lib/agx_linker.c`) gives the linked program the
//!   largest register count of its parts, so the unread components cost the main shader
//!   nothing. Any other register is a breach.
//! * **Main vertex shader**: it reads only what the prolog hands over; `r0`…`r3`, `r7`
//!   (and `r4` of a hardware vertex shader) hold the prolog's leftovers.
//! * **Fragment prolog**: no register inputs; uniforms only the ABI's fragment halves.
//! * **Fragment epilog**: it reads only the colour registers of the locations its render
//!   targets read (without location 0's alpha under `loc0_w_1`; location 1 as well for a
//!   dual-source blend), `r2` only with `write_z`,
//!   `r3l` only with `write_s`, `r3h` only with `sample_mask_after_force_early`, `r1l`
//!   only with sample shading, and uniform halves only below the ABI's 16.
//! * **Sample loop**: at the footer `r0l` is 0 and `r1l` still holds the iteration's
//!   sample bit ([`check_loop_footer`], on values the caller observes while running).

use std::collections::BTreeMap;
use std::fmt;

use gpuabi_agx_isa::{decode, AgxRegName, DecodeError, RegFile};
use serde::Serialize;

use crate::abi::{
    fout_colour, FIN_SAMPLE_MASK, FOUT_S, FOUT_WRITE_SAMPLES, FOUT_Z, FUNI_COUNT, NESTING_COUNTER,
    VIN_FIRST_ATTRIB_GPR,
};
use crate::blend::{BlendFactor, Equation};
use crate::epilog::EpilogKey;
use crate::prolog::PrologKey;

/// An instruction of a part: its byte offset and text.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Site {
    /// Byte offset in the part.
    pub offset: usize,
    /// The instruction as the disassembler prints it.
    pub text: String,
}

/// A breach of the contract: the part, the instruction (when one is to blame), the
/// register and what is wrong.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Violation {
    /// `prolog`, `main` or `epilog`.
    pub part: String,
    /// The instruction.
    pub site: Option<Site>,
    /// The register or uniform, e.g. `r3h`, `r7`, `u8`.
    pub register: String,
    /// What is wrong.
    pub what: String,
}

impl fmt::Display for Violation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.site {
            Some(s) => write!(
                f,
                "{}: offset {} `{}`: {}",
                self.part, s.offset, s.text, self.what
            ),
            None => write!(f, "{}: {}", self.part, self.what),
        }
    }
}

/// Where a part first reads each half before writing it, and first writes it, per
/// register file.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Uses {
    /// GPR halves read before written.
    pub reads: BTreeMap<u16, Site>,
    /// GPR halves written.
    pub writes: BTreeMap<u16, Site>,
    /// Uniform halves read.
    pub uniforms: BTreeMap<u16, Site>,
}

/// The first reads and writes of `code`, in program order.
pub fn first_uses(code: &[u8]) -> Result<Uses, DecodeError> {
    let mut uses = Uses::default();
    for (offset, ins) in decode(code)? {
        let site = || Site {
            offset,
            text: ins.to_string(),
        };
        for op in ins.srcs.iter().flatten() {
            if let Some(t) = op.tuple() {
                for h in t.half_range() {
                    let h = h as u16;
                    match t.file {
                        RegFile::Gpr if !uses.writes.contains_key(&h) => {
                            uses.reads.entry(h).or_insert_with(site);
                        }
                        RegFile::Uniform => {
                            uses.uniforms.entry(h).or_insert_with(site);
                        }
                        _ => {}
                    }
                }
            }
        }
        for op in ins.dests.iter().flatten() {
            if let Some(t) = op.tuple().filter(|t| t.file == RegFile::Gpr) {
                for h in t.half_range() {
                    uses.writes.entry(h as u16).or_insert_with(site);
                }
            }
        }
    }
    Ok(uses)
}

/// The name of the `size`-bit register of `file` at half `h` (`r3h`, `r5`, `u9l`).
fn reg_name(file: RegFile, h: u16, size: u32) -> String {
    AgxRegName {
        file,
        half: u32::from(h),
        size,
    }
    .to_string()
}

/// The name of 32-bit GPR `rN`.
fn gpr_name(n: u16) -> String {
    reg_name(RegFile::Gpr, 2 * n, 32)
}

/// The name of GPR half `h`: `r3h`.
pub fn half_name(h: u16) -> String {
    reg_name(RegFile::Gpr, h, 16)
}

/// First use of each 32-bit register among the halves of `uses` (the lower offset wins).
fn by_register(halves: &BTreeMap<u16, Site>) -> BTreeMap<u16, Site> {
    let mut out: BTreeMap<u16, Site> = BTreeMap::new();
    for (h, s) in halves {
        let e = out.entry(h / 2).or_insert_with(|| s.clone());
        if s.offset < e.offset {
            *e = s.clone();
        }
    }
    out
}

fn violation(part: &str, site: Option<&Site>, register: String, what: String) -> Violation {
    Violation {
        part: part.to_string(),
        site: site.cloned(),
        register,
        what,
    }
}

/// The 32-bit registers a vertex prolog hands to the main shader under `key`.
pub fn vertex_handed_over(key: &PrologKey) -> Vec<u16> {
    let mut handed: Vec<u16> = if key.hw { vec![5, 6] } else { vec![4, 5, 6] };
    let mut attribs: Vec<_> = key.attribs.iter().filter(|x| x.components != 0).collect();
    attribs.sort_by_key(|x| x.slot);
    for at in attribs {
        for c in 0..4 {
            if at.components >> c & 1 == 1 {
                handed.push(VIN_FIRST_ATTRIB_GPR + 4 * at.slot + c);
            }
        }
    }
    handed
}

/// Vertex prolog temporaries: `r0`…`r4` and `r7` (undefined at the main shader's entry).
fn vertex_temporary(r: u16) -> bool {
    matches!(r, 0..=4 | 7)
}

/// Checks a vertex prolog's code against `key`.
pub fn check_vertex_prolog(key: &PrologKey, code: &[u8]) -> Result<Vec<Violation>, DecodeError> {
    let handed = vertex_handed_over(key);
    let uses = first_uses(code)?;
    let (reads, writes) = (by_register(&uses.reads), by_register(&uses.writes));
    let preloaded = |r: u16| key.hw && (r == 5 || r == 6);
    // The unread components of the attribute vectors handed over, which Mesa's prologs
    // load whole.
    let attribute = |r: u16| {
        r >= VIN_FIRST_ATTRIB_GPR
            && handed.iter().any(|&h| {
                h >= VIN_FIRST_ATTRIB_GPR
                    && (h - VIN_FIRST_ATTRIB_GPR) / 4 == (r - VIN_FIRST_ATTRIB_GPR) / 4
            })
    };
    let mut out = Vec::new();
    for (&r, at) in &writes {
        if !vertex_temporary(r) && !handed.contains(&r) && !attribute(r) {
            out.push(violation(
                "prolog",
                Some(at),
                gpr_name(r),
                format!(
                    "writes {}, which the main shader does not read",
                    gpr_name(r)
                ),
            ));
        }
    }
    for (&r, at) in &reads {
        if !preloaded(r) {
            out.push(violation(
                "prolog",
                Some(at),
                gpr_name(r),
                format!("reads {} before writing it (not an ABI input)", gpr_name(r)),
            ));
        }
    }
    for &r in &handed {
        if !writes.contains_key(&r) && !preloaded(r) {
            out.push(violation(
                "prolog",
                None,
                gpr_name(r),
                format!(
                    "does not write {}, which the main shader reads",
                    gpr_name(r)
                ),
            ));
        }
    }
    Ok(out)
}

/// Checks a main vertex shader's reads against what the prolog of `key` hands over; `name`
/// names the main shader's file in the message about components it does not read.
pub fn check_vertex_main(
    key: &PrologKey,
    code: &[u8],
    name: &str,
) -> Result<Vec<Violation>, DecodeError> {
    let handed = vertex_handed_over(key);
    let reads = by_register(&first_uses(code)?.reads);
    let mut out = Vec::new();
    for (&r, at) in &reads {
        let poison = matches!(r, 0..=3 | 7) || (r == 4 && key.hw);
        let what = if poison {
            format!(
                "reads {}, which holds poison on entry (a prolog temporary)",
                gpr_name(r)
            )
        } else if !handed.contains(&r) {
            format!("reads {}, which the prolog does not hand over", gpr_name(r))
        } else {
            continue;
        };
        out.push(violation("main", Some(at), gpr_name(r), what));
    }
    for &r in handed.iter().filter(|&&r| r >= VIN_FIRST_ATTRIB_GPR) {
        if !reads.contains_key(&r) {
            out.push(violation(
                "prolog",
                None,
                gpr_name(r),
                format!(
                    "writes {}, which the main shader does not read (the key asks for more components than {name} reads)",
                    gpr_name(r)
                ),
            ));
        }
    }
    Ok(out)
}

fn check_uniforms(part: &str, uses: &Uses, out: &mut Vec<Violation>) {
    // One report per instruction and 32-bit uniform: `u9` when both halves, else `u9l`.
    let mut seen: BTreeMap<(usize, u16), (Vec<u16>, Site)> = BTreeMap::new();
    for (&u, at) in uses.uniforms.iter().filter(|(&u, _)| u >= FUNI_COUNT) {
        seen.entry((at.offset, u / 2))
            .or_insert((Vec::new(), at.clone()))
            .0
            .push(u);
    }
    for ((_, reg), (halves, at)) in seen {
        let name = match halves.as_slice() {
            [h] => reg_name(RegFile::Uniform, *h, 16),
            _ => reg_name(RegFile::Uniform, 2 * reg, 32),
        };
        out.push(violation(
            part,
            Some(&at),
            name.clone(),
            format!(
                "reads {name}, outside the ABI's fragment uniform halves 0..{FUNI_COUNT} (the main shader's own uniforms)"
            ),
        ));
    }
}

/// Names the registers of halves grouped by instruction and 32-bit register: `r5` when
/// both halves, else `r5l`/`r5h`.
fn name_groups<K: Ord>(
    groups: BTreeMap<(usize, u16, K), (Vec<u16>, Site)>,
) -> Vec<(String, K, Site)> {
    groups
        .into_iter()
        .map(|((_, reg, k), (halves, at))| {
            let name = match halves.as_slice() {
                [h] => half_name(*h),
                _ => reg_name(RegFile::Gpr, 2 * reg, 32),
            };
            (name, k, at)
        })
        .collect()
}

/// Checks a fragment prolog's code: no register inputs, only the ABI's uniform halves.
pub fn check_fs_prolog(code: &[u8]) -> Result<Vec<Violation>, DecodeError> {
    let uses = first_uses(code)?;
    let mut groups: BTreeMap<(usize, u16, ()), (Vec<u16>, Site)> = BTreeMap::new();
    for (&h, at) in &uses.reads {
        groups
            .entry((at.offset, h / 2, ()))
            .or_insert((Vec::new(), at.clone()))
            .0
            .push(h);
    }
    let mut out: Vec<Violation> = name_groups(groups)
        .into_iter()
        .map(|(name, (), at)| {
            let what = format!(
                "reads {name} before writing it (the fragment prolog has no register inputs)"
            );
            violation("prolog", Some(&at), name, what)
        })
        .collect();
    check_uniforms("prolog", &uses, &mut out);
    Ok(out)
}

/// Whether the epilog of a key may read GPR half `h`; when not, why (completing "reads
/// rN …").
fn epilog_input(key: &EpilogKey, h: u16) -> Result<(), &'static str> {
    let within = |r: gpuabi_layout::reg::AgxRange| (r.first_half..r.end_half()).contains(&h);
    let allowed = |cond: bool, why: &'static str| if cond { Ok(()) } else { Err(why) };
    if within(FOUT_Z) {
        return allowed(key.write_z, "without write_z in the key");
    }
    if within(FOUT_S) {
        return allowed(key.write_s, "without write_s in the key");
    }
    if within(FOUT_WRITE_SAMPLES) {
        return allowed(
            key.sample_mask_after_force_early,
            "without sample_mask_after_force_early in the key",
        );
    }
    if within(FIN_SAMPLE_MASK) {
        return allowed(key.sample_shading, "without sample_shading in the key");
    }
    if within(NESTING_COUNTER) {
        return Err("(the nesting counter, not an epilog input)");
    }
    for rt in key.rts.iter().flatten() {
        let loc = if key.broadcast_rt0 { 0 } else { rt.location };
        let per = if rt.size == 16 { 1 } else { 2 };
        // A dual-source blend also reads location 1, the second colour.
        let second = fout_colour(1);
        if rt.blend.as_ref().is_some_and(reads_src1) && (second..second + 4 * per).contains(&h) {
            return Ok(());
        }
        let first = fout_colour(loc);
        let alpha = first + 3 * per;
        if (first..first + 4 * per).contains(&h) {
            if loc == 0 && key.loc0_w_1 && (alpha..alpha + per).contains(&h) {
                return Err(
                    "(location 0's alpha, which the main shader does not export under loc0_w_1)",
                );
            }
            return Ok(());
        }
    }
    Err("(the main shader exports nothing there for this key)")
}

/// Whether the epilog of `key` may read GPR half `h` (the halves the main shader hands it;
/// [`check_epilog`] says why a read of another half is a breach).
pub fn epilog_may_read(key: &EpilogKey, h: u16) -> bool {
    epilog_input(key, h).is_ok()
}

/// Whether blend equations read the second (dual-source) colour.
fn reads_src1(eqs: &[Equation; 2]) -> bool {
    eqs.iter().flat_map(|e| [e.src, e.dst]).any(|f| {
        matches!(
            f,
            BlendFactor::Src1Color
                | BlendFactor::OneMinusSrc1Color
                | BlendFactor::Src1Alpha
                | BlendFactor::OneMinusSrc1Alpha
        )
    })
}

/// Checks an epilog's code against `key` (under `sample_shading` the main shader hands
/// `r1l`, the sample, over). Both halves of a register read by one
/// instruction for one reason are one violation naming the register (`r2`).
pub fn check_epilog(key: &EpilogKey, code: &[u8]) -> Result<Vec<Violation>, DecodeError> {
    let uses = first_uses(code)?;
    let mut grouped: BTreeMap<(usize, u16, &'static str), (Vec<u16>, Site)> = BTreeMap::new();
    for (&h, at) in &uses.reads {
        if let Err(why) = epilog_input(key, h) {
            grouped
                .entry((at.offset, h / 2, why))
                .or_insert((Vec::new(), at.clone()))
                .0
                .push(h);
        }
    }
    let mut out: Vec<Violation> = name_groups(grouped)
        .into_iter()
        .map(|(name, why, at)| {
            let what = format!("reads {name} {why}");
            violation("epilog", Some(&at), name, what)
        })
        .collect();
    check_uniforms("epilog", &uses, &mut out);
    Ok(out)
}

/// What one lane holds at the sample loop's footer, and who last wrote it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FooterLane {
    /// The lane.
    pub lane: usize,
    /// `r0l` at the footer.
    pub r0l: u16,
    /// `r1l` at the footer.
    pub r1l: u16,
    /// `r1l` when the iteration began (its sample bit).
    pub r1l_at_start: u16,
    /// The part and instruction that last wrote `r0l` in the iteration.
    pub r0l_writer: Option<(String, Site)>,
    /// The part and instruction that last wrote `r1l` in the iteration.
    pub r1l_writer: Option<(String, Site)>,
}

/// Checks the footer's contract for one lane: `r0l` is 0 and `r1l` is intact.
pub fn check_loop_footer(lane: &FooterLane) -> Vec<Violation> {
    let mut out = Vec::new();
    let blame = |w: &Option<(String, Site)>| match w {
        Some((part, site)) => (part.clone(), Some(site.clone())),
        None => ("main".to_string(), None),
    };
    if lane.r0l != 0 {
        let (part, site) = blame(&lane.r0l_writer);
        out.push(Violation {
            part,
            site,
            register: half_name(NESTING_COUNTER.first_half),
            what: format!(
                "lane {}: r0l is {} at the sample loop's footer (expected 0)",
                lane.lane, lane.r0l
            ),
        });
    }
    if lane.r1l != lane.r1l_at_start {
        let (part, site) = blame(&lane.r1l_writer);
        out.push(Violation {
            part,
            site,
            register: half_name(FIN_SAMPLE_MASK.first_half),
            what: format!(
                "lane {}: r1l is {:#x} at the sample loop's footer (expected {:#x}, the iteration's sample mask)",
                lane.lane, lane.r1l, lane.r1l_at_start
            ),
        });
    }
    out
}
