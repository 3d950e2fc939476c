//! Parameter register assignment: where each parameter of a call lands (Mesa's
//! `find_param_regs`, spec §6).

use std::fmt;

use serde::{Serialize, Serializer};

use super::abi::Abi;
use super::demand::Demand;
use super::error::AcoError;
use super::hints::Hints;
use super::ranges::register_ranges;
use super::signature::{Param, ScalarType, Signature};
use super::target::Target;
use crate::reg::{Reg, RegClass, RegFile, RegRange, RegSet};

/// How to resolve the places where Mesa's algorithm is arguably wrong.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Policy {
    /// Bit-for-bit Mesa, including its reversed padding-filler test and its fall back to
    /// scratch when a padded range does not fit.
    #[default]
    Mesa,
    /// The filler test the right way round, further aligned registers tried before a
    /// parameter falls back to scratch, and no parameter at or above the register limit
    /// (where Mesa may place a discardable one on registers the program cannot use, or the
    /// target cannot name): such a parameter goes to scratch instead.
    Packed,
}

/// Who adds a parameter to the signature.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum ParamKind {
    /// Added by ACO: the return address and the stack pointer.
    System,
    /// Added by RADV: the divergent and the uniform callee PC.
    Radv,
    /// From the user's signature.
    User,
}

/// Where a parameter lives during the call.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Location {
    /// In registers.
    Reg(RegRange),
    /// In the callee's scratch parameter area, at this byte offset per lane.
    Scratch {
        /// Byte offset from the start of the scratch parameter area.
        offset: u32,
    },
}

impl fmt::Display for Location {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Location::Reg(r) => write!(f, "{r}"),
            Location::Scratch { offset } => write!(f, "scratch +{offset}"),
        }
    }
}

impl Serialize for Location {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        match self {
            Location::Reg(r) => s.collect_str(r),
            Location::Scratch { offset } => {
                let mut map = s.serialize_map(Some(1))?;
                map.serialize_entry("scratch_offset", offset)?;
                map.end()
            }
        }
    }
}

/// The layout of one parameter.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ParamLayout {
    /// `return_address`, `stack_pointer`, `divergent_pc`, `uniform_pc` or the user's name.
    pub name: String,
    /// Who added it.
    pub kind: ParamKind,
    /// Register class it needs.
    #[serde(serialize_with = "collect_str")]
    pub class: RegClass,
    /// Where it went.
    pub location: Location,
    /// The callee must hand the value back explicitly although it sits in a clobbered
    /// register (spec §6.7).
    pub needs_explicit_preservation: bool,
    /// The DISCARDABLE flag.
    pub discardable: bool,
    /// Whether it is a return parameter.
    pub is_return: bool,
}

fn collect_str<S: Serializer, T: fmt::Display>(v: &T, s: S) -> Result<S::Ok, S::Error> {
    s.collect_str(v)
}

/// The result of assigning a signature.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Assignment {
    /// Parameters in signature order, system and RADV parameters first.
    pub params: Vec<ParamLayout>,
    /// Bytes per lane of parameters that went to scratch.
    #[serde(rename = "scratch_param_bytes")]
    pub scratch_param_size: u32,
    /// Register parameters other than the two system parameters.
    pub reg_param_count: u32,
    /// Mesa's count of discardable register parameters (see [`assign`] for its quirk).
    pub reg_discardable_param_count: u32,
    /// Dwords of parameters in registers, system parameters included.
    pub demand: Demand,
    /// Accepted oddities: parameters at or above the limit, blocks Mesa's debug builds reject.
    pub warnings: Vec<String>,
}

/// Everything an assignment depends on.
#[derive(Debug, Clone, Copy)]
pub struct AssignRequest<'a> {
    /// The callee's ABI.
    pub abi: &'a Abi,
    /// Target and wave size.
    pub target: Target,
    /// Register limit (see [`Target::default_limit`]).
    pub limit: Demand,
    /// The signature before RADV and ACO add their parameters.
    pub signature: &'a Signature,
    /// Mesa or packed.
    pub policy: Policy,
    /// Any-hit/intersection hints (spec §6.10), if any.
    pub hints: Option<&'a Hints>,
}

/// One entry of the processing list; it borrows its name from the signature.
#[derive(Debug, Clone, Copy)]
struct Entry<'a> {
    name: &'a str,
    kind: ParamKind,
    class: RegClass,
    required_alignment: u16,
    provided_alignment: u16,
    force_reg: bool,
    discardable: bool,
    is_return: bool,
    location: Option<Location>,
    nep: bool,
}

impl Entry<'_> {
    fn effective_discardable(&self) -> bool {
        self.discardable || self.is_return
    }
}

fn provided_alignment(dwords: u16) -> u16 {
    if dwords.is_multiple_of(4) {
        4
    } else if dwords.is_multiple_of(2) {
        2
    } else {
        1
    }
}

fn required_alignment(class: RegClass) -> u16 {
    match (class.file, class.dwords) {
        (RegFile::Vgpr, _) => 1,
        (RegFile::Sgpr, d) if d > 2 => 4,
        (RegFile::Sgpr, 2) => 2,
        (RegFile::Sgpr, _) => 1,
    }
}

fn entry<'a>(
    name: &'a str,
    kind: ParamKind,
    class: RegClass,
    force_reg: bool,
    discardable: bool,
    is_return: bool,
) -> Entry<'a> {
    Entry {
        name,
        kind,
        class,
        required_alignment: required_alignment(class),
        provided_alignment: provided_alignment(class.dwords),
        force_reg,
        discardable,
        is_return,
        location: None,
        nep: false,
    }
}

/// Register class of a signature parameter (spec §6.3): 1-bit values are lane masks in
/// SGPRs; anything else is SGPR if uniform, VGPR otherwise, with a dword per 32 bits or
/// part of them, per component.
pub fn param_class(param: &Param, target: Target) -> RegClass {
    if param.ty == ScalarType::Bool {
        RegClass {
            file: RegFile::Sgpr,
            dwords: target.lane_mask_dwords(),
        }
    } else {
        RegClass {
            file: if param.uniform {
                RegFile::Sgpr
            } else {
                RegFile::Vgpr
            },
            dwords: param.ty.bit_size().div_ceil(32) * u16::from(param.components),
        }
    }
}

/// The list in output order: return address, stack pointer, the two PCs, user parameters.
fn entries<'a>(req: &AssignRequest<'a>) -> Result<Vec<Entry<'a>>, AcoError> {
    let sgpr = |dwords| RegClass {
        file: RegFile::Sgpr,
        dwords,
    };
    // GFX9+ passes a per-lane byte offset; before, the 4-dword scratch buffer resource.
    let sp_dwords = if req.target.gfx.has_flat_scratch() {
        1
    } else {
        4
    };
    let mut list = Vec::with_capacity(req.signature.params.len() + 4);
    // Mesa 26.1 marks the return address a return parameter (`get_callee_info` in
    // `aco_isel_helpers.cpp`: `return_def_info.is_return_param = true`): like the values a
    // callee hands back, it goes to clobbered registers, so an ABI with preserved
    // registers (AHIT_ISEC) takes it above them (s[80:81] on RDNA) and keeps s[0:1] for
    // the callee's own parameters. Its DISCARDABLE flag stays clear, so it needs explicit
    // preservation.
    list.push(entry(
        "return_address",
        ParamKind::System,
        sgpr(2),
        true,
        false,
        true,
    ));
    list.push(entry(
        "stack_pointer",
        ParamKind::System,
        sgpr(sp_dwords),
        true,
        false,
        false,
    ));
    let vgpr2 = RegClass {
        file: RegFile::Vgpr,
        dwords: 2,
    };
    list.push(entry(
        "divergent_pc",
        ParamKind::Radv,
        vgpr2,
        true,
        true,
        false,
    ));
    list.push(entry(
        "uniform_pc",
        ParamKind::Radv,
        sgpr(2),
        true,
        true,
        false,
    ));
    for p in &req.signature.params {
        if p.is_return && p.uniform {
            return Err(AcoError::UniformReturnParam(p.name.clone()));
        }
        let class = param_class(p, req.target);
        list.push(entry(
            &p.name,
            ParamKind::User,
            class,
            false,
            p.discardable,
            p.is_return,
        ));
    }
    Ok(list)
}

/// Lowest start of `n` consecutive registers of `file` in `regs` and not in `avoid`,
/// optionally only at multiples of `align`.
fn first_fit(
    regs: &RegSet,
    file: RegFile,
    n: u16,
    avoid: Option<&RegSet>,
    align: u16,
) -> Option<Reg> {
    let mut run = 0u16;
    for num in 0..file.capacity() {
        let reg = Reg { file, num };
        let free = regs.contains(reg) && !avoid.is_some_and(|a| a.contains(reg));
        run = if free { run + 1 } else { 0 };
        if run >= n {
            let start = num + 1 - n;
            if start.is_multiple_of(align) {
                return Some(Reg { file, num: start });
            }
        }
    }
    None
}

/// Candidate before the demand and alignment steps: affinity, then first fit away from the
/// avoided registers, then first fit anywhere.
fn candidate(e: &Entry, regs: &RegSet, hints: Option<&Hints>, align: u16) -> Option<Reg> {
    if let Some(range) = hints.and_then(|h| h.affinity_of(e.name)) {
        let fits = range.file() == e.class.file
            && range.count == e.class.dwords
            && regs.contains_range(range);
        if fits && range.first.num % align == 0 {
            return Some(range.first);
        }
    }
    let avoid = hints.map(|h| &h.avoid).filter(|a| !a.is_empty());
    avoid
        .and_then(|a| first_fit(regs, e.class.file, e.class.dwords, Some(a), align))
        .or_else(|| first_fit(regs, e.class.file, e.class.dwords, None, align))
}

fn filler_ok(policy: Policy, filler: &Entry, at: Reg) -> bool {
    match policy {
        // Mesa writes the modulo the wrong way round; `at.num` is at least 1 here.
        Policy::Mesa => filler.required_alignment.is_multiple_of(at.num),
        Policy::Packed => at.num.is_multiple_of(filler.required_alignment),
    }
}

/// Assigns registers or scratch to every parameter of `req.signature` under `req.abi`,
/// exactly as spec §6.6 describes (both policies).
///
/// Mesa quirks kept in both policies: the filler's raw DISCARDABLE flag is compared with the
/// current parameter's effective flag; a filler bypasses the demand limit; padding does not
/// count as demand; `reg_discardable_param_count` looks at the parameter being processed
/// rather than at a filler placed for it. Under [`Policy::Mesa`] registers at or above the
/// limit stay available to discardable parameters (reported as a warning); [`Policy::Packed`]
/// sends such parameters to scratch.
pub fn assign(req: &AssignRequest<'_>) -> Result<Assignment, AcoError> {
    let ranges = register_ranges(&req.abi.block, req.limit)?;
    let mut list = entries(req)?;

    // Stable sorts: by provided alignment (descending), then forced entries first.
    let mut order: Vec<usize> = (0..list.len()).collect();
    order.sort_by_key(|&i| std::cmp::Reverse(list[i].provided_alignment));
    order.sort_by_key(|&i| !list[i].force_reg);

    let mut avail_p = ranges.preserved.clone();
    let mut avail_c = match req.policy {
        Policy::Mesa => ranges.clobbered(),
        Policy::Packed => {
            let mut below = RegSet::new();
            for file in [RegFile::Sgpr, RegFile::Vgpr] {
                for r in ranges.clobbered().runs_below(file, req.limit.get(file)) {
                    below.insert_range(r);
                }
            }
            below
        }
    };
    let has_preserved = !avail_p.is_empty();
    let mut demand = Demand::default();
    let mut scratch_bytes = 0u32;
    let mut reg_param_count = 0u32;
    let mut reg_discardable_param_count = 0u32;
    let max_demand = req.abi.max_param_demand;

    for pos in 0..order.len() {
        let idx = order[pos];
        if list[idx].location.is_some() {
            continue; // already placed as a filler
        }
        let use_preserved = has_preserved && !list[idx].effective_discardable();
        let p = list[idx];
        let regs = if use_preserved { &avail_p } else { &avail_c };

        // 1. candidate
        let mut r = candidate(&p, regs, req.hints, 1);
        // 2. demand limit
        if let Some(max) = max_demand {
            if (demand + Demand::of(p.class.file, p.class.dwords)).exceeds(max) {
                r = None;
            }
        }
        // 3. alignment
        let mut filler: Option<(usize, Reg)> = None;
        if let Some(start) = r {
            let misalign = start.num % p.required_alignment;
            if misalign != 0 {
                let pad = p.required_alignment - misalign;
                let padded = RegRange {
                    first: start,
                    count: p.class.dwords + pad,
                };
                if regs.contains_range(padded) {
                    filler = order[pos + 1..]
                        .iter()
                        .copied()
                        .find(|&q| {
                            let q = &list[q];
                            q.location.is_none()
                                && q.class.file == p.class.file
                                && q.discardable == p.effective_discardable()
                                && q.class.dwords <= pad
                                && filler_ok(req.policy, q, start)
                        })
                        .map(|q| (q, start));
                    r = Some(Reg {
                        file: start.file,
                        num: start.num + pad,
                    });
                } else {
                    r = match req.policy {
                        Policy::Mesa => None,
                        Policy::Packed => candidate(&p, regs, req.hints, p.required_alignment),
                    };
                }
            }
        }

        // 4. commit
        let mut place = |e: &mut Entry, at: Reg, demand: &mut Demand| {
            let range = RegRange {
                first: at,
                count: e.class.dwords,
            };
            e.location = Some(Location::Reg(range));
            e.nep = !use_preserved && !e.discardable;
            *demand = *demand + Demand::of(e.class.file, e.class.dwords);
            if e.kind != ParamKind::System {
                reg_param_count += 1;
                if p.effective_discardable() {
                    reg_discardable_param_count += 1;
                }
            }
            range
        };
        if let Some((q, at)) = filler {
            let range = place(&mut list[q], at, &mut demand);
            take(&mut avail_p, &mut avail_c, use_preserved, range);
        }
        match r {
            Some(at) => {
                let range = place(&mut list[idx], at, &mut demand);
                take(&mut avail_p, &mut avail_c, use_preserved, range);
            }
            None if p.force_reg => {
                return Err(AcoError::ForcedParamUnplaceable(p.name.to_string()))
            }
            None => {
                list[idx].location = Some(Location::Scratch {
                    offset: scratch_bytes,
                });
                scratch_bytes += 4 * u32::from(p.class.dwords);
            }
        }
    }

    let mut warnings = ranges.warnings;
    let params = list
        .into_iter()
        .map(|e| {
            let location = e.location.unwrap_or(Location::Scratch { offset: 0 });
            if let Location::Reg(range) = location {
                if range.end() > req.limit.get(range.file()) {
                    warnings.push(format!(
                        "`{}` is at {range}, at or above the register limit of {} {}s \
                         (Mesa keeps such registers available to clobbered parameters)",
                        e.name,
                        req.limit.get(range.file()),
                        range.file()
                    ));
                }
            }
            ParamLayout {
                // The stack pointer and both PCs are always handed back explicitly.
                needs_explicit_preservation: e.nep
                    || e.kind == ParamKind::Radv
                    || e.name == "stack_pointer",
                name: e.name.to_string(),
                kind: e.kind,
                class: e.class,
                location,
                discardable: e.discardable,
                is_return: e.is_return,
            }
        })
        .collect();
    Ok(Assignment {
        params,
        scratch_param_size: scratch_bytes,
        reg_param_count,
        reg_discardable_param_count,
        demand,
        warnings,
    })
}

/// Removes a placed range from the set it was taken from.
fn take(avail_p: &mut RegSet, avail_c: &mut RegSet, from_preserved: bool, range: RegRange) {
    if from_preserved {
        avail_p.remove_range(range);
    } else {
        avail_c.remove_range(range);
    }
}

impl Assignment {
    /// The layout of the parameter called `name`.
    pub fn param(&self, name: &str) -> Option<&ParamLayout> {
        self.params.iter().find(|p| p.name == name)
    }
}
