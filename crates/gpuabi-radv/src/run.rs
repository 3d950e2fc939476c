//! A trace in the simulator: the memory RADV's runtime would have set up for the trace, the
//! Raytracing prolog dispatched over the launch, every call checked against its callee's
//! ACO ABI, and the output buffer.

use gpuabi_amdgpu::{Target, WaveSize};
use gpuabi_layout::aco::{LimitInputs, Target as AcoTarget};
use gpuabi_sim::check_function::{stack_pointer, FunctionSpec, Placement};
use gpuabi_sim::{CallSite, Contract, Image, LaneValues, Limits, Machine, Stats, WaveSetup};

use crate::bvh;
use crate::call_sites::{site_stats, CalleeAbi, SiteStats};
use crate::capture::Capture;
use crate::error::RadvError;
use crate::program::{assemble, Code};
use crate::sizes::pipeline_sizes;

/// What a run leaves.
#[derive(Debug, Clone)]
pub struct Trace {
    /// The output buffer (binding 1), `width × height` records of 16 bytes.
    pub output: Vec<u8>,
    /// The simulator's counts.
    pub stats: Stats,
    /// Calls whose return was checked against the callee's ABI.
    pub checked_returns: u64,
    /// Calls into RADV's functions (checked at their return, or never returning).
    pub calls: u64,
    /// Executed instructions per function (label, count), in address order.
    pub per_function: Vec<(String, u64)>,
    /// Every call site of RADV's code with its call-ABI overhead, in address order.
    pub call_sites: Vec<SiteStats>,
}

/// Options of a run.
#[derive(Debug, Clone)]
pub struct Options {
    /// Instructions one wave may execute.
    pub max_instructions: u64,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            max_instructions: 10_000_000,
        }
    }
}

/// The user SGPRs of RADV's Raytracing prolog in order, with their dwords
/// (`declare_shader_args` in `src/amd/vulkan/radv_shader_args.c`, compute stage of an RT
/// prolog, `declare_global_input_sgprs` with indirect descriptor sets): the scratch ring
/// offsets, the pointer to the table of descriptor-set addresses, the push constants, the
/// dynamic descriptors, the traversal function's address (low half), the shader binding
/// table descriptors, the launch size address and the dynamic callable stack base.
pub const PROLOG_USER_SGPRS: [(&str, u32); 8] = [
    ("ring_offsets", 2),
    ("descriptor_sets", 1),
    ("push_constants", 1),
    ("dynamic_descriptors", 1),
    ("traversal_shader_addr", 1),
    ("sbt_descriptors", 2),
    ("launch_size_addr", 2),
    ("dynamic_callable_stack_base", 1),
];

/// The first user SGPR of `name` in [`PROLOG_USER_SGPRS`].
fn user_sgpr(name: &str) -> u32 {
    PROLOG_USER_SGPRS
        .iter()
        .take_while(|(n, _)| *n != name)
        .map(|(_, d)| d)
        .sum()
}

/// `COMPUTE_PGM_RSRC2` fields (AMD's register reference; Mesa's `sid.h`).
#[derive(Debug, Clone, Copy)]
struct Rsrc2 {
    scratch: bool,
    user_sgprs: u32,
    tgid: [bool; 3],
    tg_size: bool,
    /// LDS in 512-byte units (128 dwords).
    lds_blocks: u32,
}

impl Rsrc2 {
    fn decode(v: u32) -> Rsrc2 {
        Rsrc2 {
            scratch: v & 1 != 0,
            user_sgprs: (v >> 1) & 31,
            tgid: [v >> 7 & 1 != 0, v >> 8 & 1 != 0, v >> 9 & 1 != 0],
            tg_size: v >> 10 & 1 != 0,
            lds_blocks: (v >> 15) & 0x1ff,
        }
    }
}

/// Replaces, in RADV's descriptor bytes for the example address and range, the example's
/// address (its eight little-endian bytes, or its low six where the descriptor holds 48
/// bits) and range by `addr` and `range`.
fn descriptor(
    bytes: &[u8],
    example: u64,
    example_range: Option<u32>,
    addr: u64,
    range: u32,
) -> Option<Vec<u8>> {
    let mut out = bytes.to_vec();
    let find = |hay: &[u8], needle: &[u8]| hay.windows(needle.len()).position(|w| w == needle);
    let ex = example.to_le_bytes();
    if let Some(at) = find(&out, &ex) {
        out[at..at + 8].copy_from_slice(&addr.to_le_bytes());
    } else {
        let at = find(&out, &ex[..6])?;
        out[at..at + 6].copy_from_slice(&addr.to_le_bytes()[..6]);
    }
    if let Some(r) = example_range {
        let at = find(&out, &r.to_le_bytes())?;
        out[at..at + 4].copy_from_slice(&range.to_le_bytes());
    }
    Some(out)
}

/// Global memory a run builds, placed in RADV's 32-bit address space (whose high half
/// RADV's 32-bit pointers assume) from `0x1000_0000` on, 64 KiB apart.
struct Allocator {
    next: u64,
}

impl Allocator {
    fn take(&mut self, bytes: usize) -> u64 {
        let at = self.next;
        self.next += (bytes as u64).div_ceil(0x1_0000) * 0x1_0000 + 0x1_0000;
        at
    }
}

fn sim_error(code: &Code, e: &gpuabi_sim::SimError) -> RadvError {
    let place = e
        .origin()
        .and_then(|o| o.line())
        .and_then(|l| code.place_of(l))
        .map(|p| format!("{p}: "))
        .unwrap_or_default();
    RadvError::Sim(format!("{place}{e}"))
}

/// Traces the scene of `capture` with RADV's code in the simulator.
pub fn run(capture: &Capture, options: &Options) -> Result<Trace, RadvError> {
    let target: Target = capture.gfx;
    let lanes = capture.functions.first().map_or(64, |f| f.wave);
    let wave = if lanes == 32 {
        WaveSize::W32
    } else {
        WaveSize::W64
    };
    let code = assemble(capture, target, wave)?;
    // The code at its 48-bit address: the program counter has 48 bits, and `s_getpc_b64`
    // gives them zero-extended (RADV's code builds buffer descriptors from it, whose high
    // dword must hold no stride).
    let image = Image::new_at(&code.program, code.base & 0xffff_ffff_ffff)
        .map_err(|e| sim_error(&code, &e))?;
    let ib = capture.dir.join("trace_rays_ib.txt");
    let d = &capture.dispatch;
    let rsrc2 = Rsrc2::decode(d.reg(&ib, "COMPUTE_PGM_RSRC2")?);
    let expected: u32 = PROLOG_USER_SGPRS.iter().map(|(_, n)| n).sum();
    if rsrc2.user_sgprs != expected {
        return Err(RadvError::format(
            &ib,
            0,
            format!(
                "the prolog takes {} user SGPRs; RADV's layout gpuabi knows has {expected}",
                rsrc2.user_sgprs
            ),
        ));
    }
    // Memory at the 48-bit GPU addresses of RADV's 32-bit address space (the code's high
    // half, `0xffff8000`, is the sign extension of `0x8000`).
    let hi = code.base & 0xffff_0000_0000;
    let mut machine = Machine::new(image);
    let limit = u64::MAX;
    // On polaris10 RADV's addresses lie in the low 4 GiB (a high half of 0), where the
    // simulator keeps the code's own space.
    let add = |m: &mut Machine, name: &str, at: u64, bytes: Vec<u8>| -> Result<(), RadvError> {
        let placed = if at < gpuabi_sim::memory::GLOBAL_BASE {
            m.memory.add_in_code_space(name, at, bytes, limit)
        } else {
            m.memory.add_at(name, at, bytes, limit)
        };
        placed.map(|_| ()).map_err(|e| {
            RadvError::Sim(format!(
                "{name} at 0x{at:x}: {e} (or it overlaps another buffer)"
            ))
        })
    };
    // Constant data after each function's code.
    for p in &code.pieces {
        if let Some((at, bytes)) = &p.constant_data {
            add(
                &mut machine,
                &format!("{} constant data", p.label),
                *at,
                bytes.clone(),
            )?;
        }
    }
    let mut alloc = Allocator {
        next: hi | 0x1000_0000,
    };
    let scene = &capture.scene;
    // Acceleration structures.
    let propagate = matches!(target, Target::Gfx1100);
    let blases: Vec<bvh::Encoded> = scene
        .geometries
        .iter()
        .map(|g| bvh::blas(g, propagate))
        .collect();
    let sizes_file = capture.dir.join("acceleration_structures.txt");
    let mut blas_addrs = Vec::new();
    for (i, b) in blases.iter().enumerate() {
        if capture.as_sizes.get(i) != Some(&(b.bytes.len() as u64)) {
            return Err(RadvError::format(
                &sizes_file,
                0,
                format!(
                    "BLAS {i}: gpuabi's layout has {} bytes, RADV's {:?}",
                    b.bytes.len(),
                    capture.as_sizes.get(i)
                ),
            ));
        }
        let at = alloc.take(b.bytes.len());
        add(&mut machine, &format!("BLAS {i}"), at, b.bytes.clone())?;
        blas_addrs.push(at);
    }
    let tlas = bvh::tlas(&scene.instances, &blases, &blas_addrs, propagate);
    if capture.as_sizes.get(blases.len()) != Some(&(tlas.bytes.len() as u64)) {
        return Err(RadvError::format(
            &sizes_file,
            0,
            format!("TLAS: gpuabi's layout has {} bytes", tlas.bytes.len()),
        ));
    }
    let tlas_at = alloc.take(tlas.bytes.len());
    add(&mut machine, "TLAS", tlas_at, tlas.bytes)?;
    // The output buffer, zeroed as the capture's was before the trace.
    let out_bytes = scene.size[0] as usize * scene.size[1] as usize * 16;
    let out_at = alloc.take(out_bytes);
    add(&mut machine, "output", out_at, vec![0; out_bytes])?;
    // Descriptor set 0.
    let desc_file = capture.dir.join("descriptors.txt");
    let mut set = vec![0u8; capture.set.size as usize];
    for (k, (b, addr)) in capture
        .set
        .bindings
        .iter()
        .zip([tlas_at, out_at])
        .enumerate()
    {
        let bytes =
            descriptor(&b.bytes, b.address, b.range, addr, out_bytes as u32).ok_or_else(|| {
                RadvError::format(
                    &desc_file,
                    0,
                    format!("binding {k}: the example address is not in its bytes"),
                )
            })?;
        let o = b.offset as usize;
        set.get_mut(o..o + bytes.len())
            .ok_or_else(|| {
                RadvError::format(&desc_file, 0, format!("binding {k} lies outside the set"))
            })?
            .copy_from_slice(&bytes);
    }
    let set_at = alloc.take(set.len());
    add(&mut machine, "descriptor set 0", set_at, set)?;
    // The shader binding table.
    let sbt_at = alloc.take(capture.sbt.len());
    add(
        &mut machine,
        "shader binding table",
        sbt_at,
        capture.sbt.clone(),
    )?;
    // What RADV uploads for the trace, at the addresses it passed the prolog.
    let ud = |n: u32| d.user_data(n);
    let ud64 = |n: u32| (u64::from(ud(n)) | u64::from(ud(n + 1)) << 32) & 0xffff_ffff_ffff;
    let sbt_desc_at = ud64(user_sgpr("sbt_descriptors"));
    let launch_at = ud64(user_sgpr("launch_size_addr"));
    let sets_at = hi | u64::from(ud(user_sgpr("descriptor_sets")));
    let push_at = hi | u64::from(ud(user_sgpr("push_constants")));
    // VkTraceRaysIndirectCommand2KHR (radv_trace_rays): the regions' address, size and
    // stride (raygen has no stride), then the launch size.
    let mut table = Vec::new();
    for (k, r) in capture.regions.iter().enumerate() {
        let addr = if r.size == 0 { 0 } else { sbt_at + r.offset };
        table.extend_from_slice(&addr.to_le_bytes());
        table.extend_from_slice(&r.size.to_le_bytes());
        if k > 0 {
            table.extend_from_slice(&r.stride.to_le_bytes());
        }
    }
    let launch: Vec<u8> = [scene.size[0], scene.size[1], 1]
        .iter()
        .flat_map(|v| v.to_le_bytes())
        .collect();
    let mut pieces: Vec<(u64, Vec<u8>)> = vec![(sbt_desc_at, table.clone())];
    if launch_at == sbt_desc_at + table.len() as u64 {
        pieces[0].1.extend_from_slice(&launch);
    } else {
        pieces.push((launch_at, launch));
    }
    pieces.push((sets_at, (set_at as u32).to_le_bytes().to_vec()));
    let push: Vec<u8> = scene
        .push_constants
        .iter()
        .flat_map(|v| v.to_le_bytes())
        .collect();
    if !push.is_empty() {
        pieces.push((push_at, push));
    }
    pieces.sort_by_key(|p| p.0);
    let lo = pieces[0].0;
    let hi_end = pieces
        .iter()
        .map(|p| p.0 + p.1.len() as u64)
        .max()
        .unwrap_or(lo);
    let mut upload = vec![0u8; (hi_end - lo) as usize];
    for (at, bytes) in &pieces {
        let o = (at - lo) as usize;
        if upload[o..o + bytes.len()].iter().any(|b| *b != 0) {
            return Err(RadvError::format(
                &ib,
                0,
                "the prolog's user data pointers overlap",
            ));
        }
        upload[o..o + bytes.len()].copy_from_slice(bytes);
    }
    add(&mut machine, "RADV's upload for the trace", lo, upload)?;

    // The contract: every call is checked against the ABI of the function it calls, RADV's
    // for that function's stage, with the pipeline's payload and hit-attribute sizes.
    let aco_target = AcoTarget::new(target, lanes).map_err(|e| RadvError::Sim(e.to_string()))?;
    let limit_regs = aco_target.default_limit(LimitInputs::default());
    let (payload, hit_attribs) = pipeline_sizes(&capture.functions, aco_target, limit_regs)?;
    let mut sites = Vec::new();
    let mut callee_abis = std::collections::BTreeMap::new();
    for p in &code.pieces {
        let Some(stage) = p.stage else {
            continue;
        };
        let place = Placement {
            entry: p.label.clone(),
            name: p.label.clone(),
            target,
            wave,
            limit: limit_regs,
        };
        let spec =
            FunctionSpec::for_stage(&place, stage, payload, hit_attribs, None).map_err(|e| {
                RadvError::Sim(format!(
                    "{}: the ABI of its {stage} stage: {e}",
                    p.file.display()
                ))
            })?;
        let sp = stack_pointer(&spec.layout).ok_or_else(|| {
            RadvError::Sim(format!(
                "{}: the stack pointer is not in registers",
                p.file.display()
            ))
        })?;
        let mut preserved = spec.preserved.clone();
        preserved.remove_range(sp);
        callee_abis.insert(
            p.addr,
            CalleeAbi {
                label: p.label.clone(),
                abi: spec.abi.clone(),
                layout: spec.layout.clone(),
                preserved: preserved.clone(),
                stack_pointer: sp,
            },
        );
        sites.push((
            p.addr,
            CallSite {
                callee: p.label.clone(),
                abi: spec.abi.clone(),
                preserved,
                stack_pointer: Some(sp),
                scratch_param_bytes: spec.layout.scratch_param_size,
                scratch_resource: None,
            },
        ));
    }
    let prolog = code
        .pieces
        .iter()
        .find(|p| p.stage.is_none())
        .ok_or_else(|| RadvError::Unsupported("no prolog".into()))?;
    machine.contract = Some(Contract::from_sites([]).with_callee_sites(sites));
    machine.limits = Limits {
        instructions_per_wave: options.max_instructions,
        ..Limits::default()
    };
    machine.count_instructions();

    // One wave per work-group of the dispatch (RADV's work-group is one wave).
    let [gx, gy, gz] = d.groups;
    // GCN 1.2 reaches scratch through a swizzled buffer descriptor the prolog builds from
    // the scratch ring's address (the `ring_offsets` user SGPRs) plus the wave's offset
    // (the system SGPR after the others): the ring is placed there, one wave's share
    // (COMPUTE_TMPRING_SIZE.WAVESIZE, in units of 1 KiB on GCN) after another. Later
    // generations' scratch instructions get the lane's private memory directly.
    let ring_wave_bytes = if target == Target::Gfx8 && rsrc2.scratch {
        let tmpring = d.reg(&ib, "COMPUTE_TMPRING_SIZE")?;
        u64::from(tmpring >> 12 & 0x1fff) * 1024
    } else {
        0
    };
    if ring_wave_bytes > 0 {
        let waves = u64::from(gx) * u64::from(gy) * u64::from(gz);
        let bytes = usize::try_from(ring_wave_bytes * waves)
            .map_err(|_| RadvError::Sim("the scratch ring does not fit in memory".into()))?;
        add(
            &mut machine,
            "scratch ring",
            ud64(user_sgpr("ring_offsets")),
            vec![0; bytes],
        )?;
    }
    let mut setups = Vec::new();
    for z in 0..gz {
        for y in 0..gy {
            for x in 0..gx {
                let mut s = WaveSetup {
                    workgroup: setups.len() as u32,
                    lds_bytes: rsrc2.lds_blocks * 512,
                    ..WaveSetup::default()
                };
                for n in 0..rsrc2.user_sgprs {
                    s.sgprs.push((n as u16, ud(n)));
                }
                let mut next = rsrc2.user_sgprs as u16;
                for (k, id) in [x, y, z].into_iter().enumerate() {
                    if rsrc2.tgid[k] {
                        s.sgprs.push((next, id));
                        next += 1;
                    }
                }
                if rsrc2.tg_size {
                    s.sgprs.push((next, 0));
                    next += 1;
                }
                if rsrc2.scratch {
                    // The wave's scratch offset: its share of GCN 1.2's ring; elsewhere
                    // scratch is per lane in the simulator.
                    let offset = setups.len() as u64 * ring_wave_bytes;
                    s.sgprs.push((next, offset as u32));
                }
                s.vgprs.push((0, LaneValues::LaneId(0)));
                setups.push(s);
            }
        }
    }
    let result = machine.run(&prolog.label, &setups);
    if let Some(c) = machine.contract.as_ref() {
        if let Some(v) = c.violations.first() {
            return Err(RadvError::Sim(format!(
                "{} call contract violation(s); the first: {v}",
                c.violations.len()
            )));
        }
    }
    result.map_err(|e| sim_error(&code, &e))?;
    let output = machine
        .memory
        .find("output")
        .map(|b| b.data.clone())
        .unwrap_or_default();
    let counts = machine.counts.clone().unwrap_or_default();
    let mut per_function: Vec<(String, u64)> =
        code.pieces.iter().map(|p| (p.label.clone(), 0)).collect();
    for (i, n) in counts.iter().enumerate() {
        if let Some(p) = code.piece_at(machine.image.insts[i].addr) {
            if let Some(e) = per_function.iter_mut().find(|e| e.0 == p.label) {
                e.1 += n;
            }
        }
    }
    let contract = machine.contract.as_ref();
    // Each piece's items, and each item's address and count.
    let image = &machine.image;
    let mut item_inst = std::collections::HashMap::new();
    let mut ranges: Vec<Option<std::ops::Range<usize>>> = vec![None; code.pieces.len()];
    for i in 0..image.insts.len() as u32 {
        let Some(item) = image.item_index(i) else {
            continue;
        };
        item_inst.insert(item, i as usize);
        let addr = image.insts[i as usize].addr;
        if let Some(k) = code
            .pieces
            .iter()
            .position(|p| p.addr <= addr && addr < p.addr + p.size)
        {
            let r = ranges[k].get_or_insert(item..item + 1);
            r.start = r.start.min(item);
            r.end = r.end.max(item + 1);
        }
    }
    let pieces: Vec<(String, std::ops::Range<usize>)> = code
        .pieces
        .iter()
        .zip(ranges)
        .filter_map(|(p, r)| Some((p.label.clone(), r?)))
        .collect();
    let empty = std::collections::BTreeMap::new();
    let call_sites = site_stats(
        &code.program,
        &pieces,
        |item| {
            code.program.items[item]
                .origin
                .line()
                .and_then(|l| code.place_of(l))
                .unwrap_or_else(|| format!("item {item}"))
        },
        |item| {
            item_inst
                .get(&item)
                .map(|&i| counts.get(i).copied().unwrap_or(0))
        },
        |item| item_inst.get(&item).map(|&i| image.insts[i].addr),
        contract.map_or(&empty, |c| &c.calls_made),
        &callee_abis,
    );
    if let Some(c) = contract.filter(|c| c.default_calls > 0) {
        return Err(RadvError::Sim(format!(
            "{} call(s) went to an address where no function of the pipeline starts",
            c.default_calls
        )));
    }
    Ok(Trace {
        output,
        stats: machine.stats.clone(),
        checked_returns: contract.map_or(0, |c| c.checked_returns),
        calls: machine.stats.calls,
        per_function,
        call_sites,
    })
}
