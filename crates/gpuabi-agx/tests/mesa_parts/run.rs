//! Running a vertex prolog, fragment prolog or fragment epilog alone in the simulator on
//! random inputs, as the ABI hands them over: the draw's uniforms and memory, the registers
//! the main shader or the hardware leaves, the tile buffer and coverage.
//!
//! Registers outside the ABI's inputs hold garbage drawn anew for each part run (`r0l`,
//! the nesting counter, is 0), so a part that read one would disagree with the other part.

use gpuabi_agx::abi::{
    fout_colour, vuni_base_instance, vuni_draw_id, vuni_first_vertex, vuni_vbo_base,
    vuni_vbo_clamp, FUNI_BLEND_R, FUNI_EMRT_HEAP, FUNI_ROOT,
};
use gpuabi_agx::contract::vertex_handed_over;
use gpuabi_agx::epilog::EpilogKey;
use gpuabi_agx::prolog::{slots, PrologKey};
use gpuabi_agx::vk_state::{VkFragmentState, VkOutputType};
use gpuabi_agx_sim::{run, Fragment, Region, SimError, State, GPR_HALVES, LANES};

/// Instructions one part may run.
const MAX_STEPS: usize = 100_000;

/// A SplitMix64 generator: the same seed gives the same trials on every machine.
pub struct Rng(pub u64);

impl Rng {
    /// The next 64 random bits.
    pub fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// A number below `n`.
    pub fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }

    /// True with probability `p` percent.
    pub fn percent(&mut self, p: u64) -> bool {
        self.below(100) < p
    }

    fn u32(&mut self) -> u32 {
        self.next() as u32
    }
}

/// Bytes of one element of a pipe format (`util_format_get_blocksize`): 4 for the packed
/// 32-bit formats, the channels' bits over 8 for array formats.
fn block_bytes(format: &str) -> u32 {
    let layout = format.rsplit_once('_').map_or(format, |(l, _)| l);
    let bits: u32 = layout
        .split(|c: char| c.is_ascii_alphabetic())
        .filter_map(|d| d.parse::<u32>().ok())
        .sum();
    bits / 8
}

/// Mesa's `AGX_ZERO_PAGE_ADDRESS` and `AGX_ZERO_PAGE_SIZE` (`src/asahi/lib/agx_abi.h`):
/// where Honeykrisp points an attribute whose buffer holds no whole element.
const ZERO_PAGE: u64 = 1 << 32;
const ZERO_PAGE_SIZE: usize = 16384;

/// The draw of one vertex trial: uniforms and memory (in `state`) and each lane's vertex
/// and instance ID.
pub struct VertexTrial {
    /// Uniforms and memory.
    pub state: State,
    /// `r5` of each lane.
    pub vertex_id: [u32; LANES],
    /// `r6` of each lane.
    pub instance_id: [u32; LANES],
}

/// A random draw for `key`: per attribute a buffer of random bytes, size and offset, its
/// base and clamp as `agx_calculate_vbo_clamp` (`src/asahi/lib/agx_helpers.h`) computes
/// them, random first vertex, base instance and draw ID, and IDs mostly near the buffers'
/// ends (in and out of bounds) and sometimes anywhere.
pub fn vertex_trial(key: &PrologKey, rng: &mut Rng) -> VertexTrial {
    let n = slots(key);
    let mut st = State::default();
    st.memory.push(Region {
        address: ZERO_PAGE,
        bytes: vec![0; ZERO_PAGE_SIZE],
    });
    let mut most = 0u32;
    for (i, a) in key.attribs.iter().enumerate() {
        let stride = a.element.stride;
        let elsize = block_bytes(&a.element.format);
        let address = 0x10_0000 * (i as u64 + 1);
        let offset = 4 * rng.below(8) as u32;
        let size = match rng.below(10) {
            0 => rng.below(u64::from(offset + elsize)) as u32,
            _ => offset + elsize + rng.below(u64::from(stride.max(4)) * 12) as u32,
        };
        let bytes: Vec<u8> = (0..size).map(|_| rng.next() as u8).collect();
        st.memory.push(Region { address, bytes });
        let (base, clamp) = if size >= offset + elsize {
            let clamp = (size - offset - elsize)
                .checked_div(stride)
                .unwrap_or(u32::MAX);
            (address + u64::from(offset), clamp)
        } else {
            (ZERO_PAGE, 0)
        };
        if clamp != u32::MAX {
            most = most.max(clamp);
        }
        st.set_uniform(u32::from(vuni_vbo_base(a.slot)), 64, base)
            .expect("base uniform");
        st.set_uniform(u32::from(vuni_vbo_clamp(n, a.slot)), 32, u64::from(clamp))
            .expect("clamp uniform");
    }
    let base_instance = if rng.percent(70) {
        rng.below(6) as u32
    } else {
        rng.u32()
    };
    st.set_uniform(u32::from(vuni_first_vertex(n)), 32, rng.below(100))
        .expect("first vertex");
    st.set_uniform(
        u32::from(vuni_base_instance(n)),
        32,
        u64::from(base_instance),
    )
    .expect("base instance");
    st.set_uniform(u32::from(vuni_draw_id(n)), 16, rng.below(4))
        .expect("draw id");
    let mut vertex_id = [0; LANES];
    let mut instance_id = [0; LANES];
    for l in 0..LANES {
        vertex_id[l] = if rng.percent(85) {
            rng.below(u64::from(most) + 4) as u32
        } else {
            rng.u32()
        };
        instance_id[l] = match rng.below(10) {
            0 => rng.u32(),
            1..=3 => rng.below(200) as u32,
            _ => rng.below(24) as u32,
        };
    }
    VertexTrial {
        state: st,
        vertex_id,
        instance_id,
    }
}

/// Fills every GPR half with garbage and `r0l` with 0.
fn garbage(st: &mut State, rng: &mut Rng) {
    for l in 0..LANES {
        for h in 1..GPR_HALVES {
            st.set_half(l, h, rng.next() as u16);
        }
        st.set_half(l, 0, 0);
    }
}

/// Runs a vertex prolog on `trial` and returns, per lane, the registers the ABI hands to
/// the main shader under `key` (register, value).
pub fn run_vertex(
    code: &[u8],
    key: &PrologKey,
    trial: &VertexTrial,
    rng: &mut Rng,
) -> Result<Vec<Vec<(u16, u32)>>, SimError> {
    let mut st = trial.state.clone();
    garbage(&mut st, rng);
    for l in 0..LANES {
        st.set_gpr(l, 10, 32, u64::from(trial.vertex_id[l]))?;
        st.set_gpr(l, 12, 32, u64::from(trial.instance_id[l]))?;
    }
    run(code, &mut st, MAX_STEPS)?;
    let handed = vertex_handed_over(key);
    (0..LANES)
        .map(|l| {
            handed
                .iter()
                .map(|&r| Ok((r, st.read_gpr(l, 2 * u32::from(r), 32)? as u32)))
                .collect()
        })
        .collect()
}

/// What the main fragment shader leaves for one iteration: colour register halves.
pub type Colours = Vec<[u16; GPR_HALVES]>;

/// The main shader's side of one fragment trial.
pub struct FragmentTrial {
    /// The tile buffer, coverage and pixel of each lane before the part runs.
    pub frag: Fragment,
    /// Uniforms (blend constants, heap and root pointers).
    pub state: State,
    /// Per iteration (one, or one per sample under sample shading): `r1l` and the colour
    /// halves the main shader wrote, per lane.
    pub iterations: Vec<(u16, Colours)>,
    /// The halves the main shader writes (the others are garbage).
    pub written: Vec<u16>,
}

/// A float the main shader might write: mostly in and around [0, 1], sometimes a value
/// at an edge (0, −0, 1, ½, ±∞, NaN, a subnormal, huge), sometimes any bits.
fn float32(rng: &mut Rng) -> u32 {
    match rng.below(20) {
        0..=9 => (rng.below(1_500_001) as f32 / 1_000_000.0 - 0.25).to_bits(),
        10..=13 => (rng.below(1_000_001) as f32 / 1_000_000.0).to_bits(),
        14..=17 => [
            0.0f32,
            -0.0,
            1.0,
            0.5,
            2.0,
            -1.0,
            f32::INFINITY,
            f32::NEG_INFINITY,
            1e30,
            -1e-3,
        ][rng.below(10) as usize]
            .to_bits(),
        18 => [0x7fc0_0000, 0x0000_0001, 0x807f_ffff, 0xffc0_0001][rng.below(4) as usize],
        _ => rng.u32(),
    }
}

/// The fp16 of a float the main shader might write.
fn float16(rng: &mut Rng) -> u16 {
    let f = f32::from_bits(float32(rng));
    half::f16::from_f32(f).to_bits()
}

fn int32(rng: &mut Rng) -> u32 {
    match rng.below(4) {
        0 => rng.below(600) as u32,
        1 => (rng.below(600) as i32 - 300) as u32,
        2 => (rng.below(140_000) as i32 - 70_000) as u32,
        _ => rng.u32(),
    }
}

/// The halves the main shader writes for `f`'s outputs, with their kind: (half, bits of
/// the value, float?); location 0's w is left out when the shader writes the constant 1.0
/// there (Mesa then exports nothing, `agx_nir_lower_fs_output_to_epilog`).
fn output_halves(f: &VkFragmentState) -> Vec<(u16, u32, bool)> {
    let mut out = Vec::new();
    for o in &f.shader_outputs {
        let loc = if o.index == 1 { 1 } else { o.location as u8 };
        let step = (o.bits / 16) as u16;
        for c in 0..4u16 {
            if loc == 0 && c == 3 && o.w_is_one {
                continue;
            }
            out.push((
                fout_colour(loc) + c * step,
                o.bits,
                o.ty == VkOutputType::Float,
            ));
        }
    }
    out
}

/// A random tile for `key` (`sample_size` bytes per sample): random bytes, coverage of
/// each pixel (empty for a few, which then run no fragment), blend constants, and what
/// the main shader leaves in each iteration.
pub fn fragment_trial(
    key: &EpilogKey,
    f: &VkFragmentState,
    sample_size: u32,
    rng: &mut Rng,
) -> FragmentTrial {
    let samples = u32::from(key.samples);
    let mut frag = Fragment::new(8, 4, samples, sample_size).expect("tile");
    for b in frag.tib.iter_mut() {
        *b = rng.next() as u8;
    }
    let all = frag.all_samples();
    for l in 0..LANES {
        frag.coverage[l] = match rng.below(10) {
            0 => 0,
            1..=3 => rng.next() as u8 & all,
            _ => all,
        };
    }
    frag.input_coverage = frag.coverage;
    let mut state = State::default();
    state
        .set_uniform(u32::from(FUNI_EMRT_HEAP.first_half), 64, 0x4000)
        .expect("heap");
    for c in 0..4 {
        let v = if rng.percent(80) {
            (rng.below(1_000_001) as f32 / 1_000_000.0).to_bits()
        } else {
            float32(rng)
        };
        state
            .set_uniform(u32::from(FUNI_BLEND_R) + 2 * c, 32, u64::from(v))
            .expect("blend constant");
    }
    state
        .set_uniform(u32::from(FUNI_ROOT.first_half), 64, 0x1000)
        .expect("root");
    let halves = output_halves(f);
    let iterations: Vec<u16> = if key.sample_shading {
        (0..samples).map(|s| 1 << s).collect()
    } else {
        vec![0]
    };
    let iterations = iterations
        .into_iter()
        .map(|r1l| {
            let colours: Colours = (0..LANES)
                .map(|_| {
                    let mut regs = [0u16; GPR_HALVES];
                    for &(h, bits, float) in &halves {
                        let v = match (bits, float) {
                            (32, true) => float32(rng),
                            (32, false) => int32(rng),
                            (_, true) => u32::from(float16(rng)),
                            _ => int32(rng) & 0xffff,
                        };
                        regs[usize::from(h)] = v as u16;
                        if bits == 32 {
                            regs[usize::from(h) + 1] = (v >> 16) as u16;
                        }
                    }
                    regs
                })
                .collect();
            (r1l, colours)
        })
        .collect();
    let written = halves
        .iter()
        .flat_map(|&(h, bits, _)| (h..h + (bits / 16) as u16).collect::<Vec<_>>())
        .collect();
    FragmentTrial {
        frag,
        state,
        iterations,
        written,
    }
}

/// Runs a fragment prolog or epilog on `trial` (each iteration in turn, with `r1l` the
/// iteration's sample under sample shading) and returns the fragment state it leaves.
pub fn run_fragment(
    code: &[u8],
    trial: &FragmentTrial,
    sample_shading: bool,
    rng: &mut Rng,
) -> Result<Fragment, SimError> {
    let mut frag = trial.frag.clone();
    for (r1l, colours) in &trial.iterations {
        let mut st = trial.state.clone();
        garbage(&mut st, rng);
        st.exec = 0;
        for (l, lane) in colours.iter().enumerate() {
            if frag.coverage[l] != 0 || (sample_shading && frag.input_coverage[l] != 0) {
                st.exec |= 1 << l;
            }
            for &h in &trial.written {
                st.set_half(l, usize::from(h), lane[usize::from(h)]);
            }
            if sample_shading {
                st.set_half(l, 2, *r1l);
            }
        }
        st.frag = Some(Box::new(frag));
        run(code, &mut st, MAX_STEPS)?;
        frag = *st.frag.take().expect("fragment state");
    }
    Ok(frag)
}
