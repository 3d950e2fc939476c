//! A vertex prolog run over a draw: the registers it hands to the main vertex shader for
//! each vertex of each instance.
//!
//! Memory: the draw's buffers at 64 KiB-aligned addresses from [`FIRST_BUFFER`] in the
//! order given (each at least one byte past the end of the one before); the sink is
//! address 0 under soft fault and a 16-byte zero buffer at [`SINK`] otherwise; the compute
//! variant's input-assembly record (index buffer address, index count, vertex count) at
//! [`INPUT_ASSEMBLY`]. Uniforms are filled as the ABI places them: base and clamp per
//! attribute (`agx_calculate_vbo_clamp` in `src/asahi/lib/agx_nir_lower_vbo.c`), first
//! vertex, base instance, draw ID and the input-assembly pointer.
//!
//! Dispatch: each instance's vertices run in SIMD groups of 32 consecutive vertices, lane
//! `l` of a group starting at vertex `s` holding vertex ID `first_vertex + s + l` in `r5`
//! and the instance in `r6`, as a hardware vertex shader starts. Every group starts from
//! zeroed registers and the draw's uniforms; the groups share one device memory.

use gpuabi_agx::abi::{
    vuni_base_instance, vuni_draw_id, vuni_first_vertex, vuni_input_assembly, vuni_vbo_base,
    vuni_vbo_clamp, VIN_INSTANCE_ID, VIN_VERTEX_ID,
};
use gpuabi_agx::contract::{check_vertex_main, check_vertex_prolog, vertex_handed_over, Violation};
use gpuabi_agx::prolog::{slots, PrologKey};
use gpuabi_agx::vertex_key::{base_and_clamp, vertex_format, VertexKeyError};
use gpuabi_agx_isa::DecodeError;
use gpuabi_agx_sim::{Program, Region, Session, SimError, State, LANES};

use crate::{Names, Stats, MAX_STEPS};

/// Address of the sink without soft fault.
pub const SINK: u64 = 0x8000;
/// Address of the input-assembly record of the compute variant.
pub const INPUT_ASSEMBLY: u64 = 0x4000;
/// Address of the first vertex buffer.
pub const FIRST_BUFFER: u64 = 0x10000;
/// Alignment of the vertex buffers' addresses.
pub const BUFFER_ALIGNMENT: u64 = 0x10000;
/// Largest number of invocations (vertices times instances) of one draw.
pub const MAX_INVOCATIONS: u64 = 1 << 20;

/// A buffer of a draw.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct VertexBuffer {
    /// Its name, by which bindings and the index refer to it.
    pub name: String,
    /// Its contents.
    pub bytes: Vec<u8>,
}

/// A vertex buffer binding: the part of a buffer an attribute slot reads.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Binding {
    /// The attribute slot (0 to 15).
    pub slot: u16,
    /// The buffer, by index in [`VertexDraw::buffers`].
    pub buffer: usize,
    /// Byte offset of the binding in the buffer.
    pub offset: u64,
    /// The size the clamp is computed from (`size_B` of `agx_calculate_vbo_clamp`): an
    /// element is in bounds when `offset + index · stride + element size ≤ size`.
    pub size: u64,
}

/// The index buffer the compute variant fetches indices from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct IndexBuffer {
    /// The buffer, by index in [`VertexDraw::buffers`].
    pub buffer: usize,
    /// Byte offset of the first index.
    pub offset: u64,
    /// Number of indices.
    pub count: u32,
}

/// A draw: its counts, buffers and bindings.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct VertexDraw {
    /// Vertices per instance.
    pub vertex_count: u32,
    /// Instances.
    pub instance_count: u32,
    /// The first vertex ID.
    pub first_vertex: u32,
    /// The base instance.
    pub base_instance: u32,
    /// The draw ID (its low 16 bits reach the uniforms).
    pub draw_id: u32,
    /// The buffers, placed in this order.
    pub buffers: Vec<VertexBuffer>,
    /// The vertex buffer bindings.
    pub bindings: Vec<Binding>,
    /// The index buffer of the compute variant.
    pub index: Option<IndexBuffer>,
}

impl VertexDraw {
    /// The device addresses of [`VertexDraw::buffers`], in order.
    pub fn addresses(&self) -> Vec<u64> {
        let mut next = FIRST_BUFFER;
        self.buffers
            .iter()
            .map(|b| {
                let at = next;
                next = (next + b.bytes.len() as u64 + 1).next_multiple_of(BUFFER_ALIGNMENT);
                at
            })
            .collect()
    }

    /// Invocations of the draw: vertices times instances.
    pub fn invocations(&self) -> u64 {
        u64::from(self.vertex_count) * u64::from(self.instance_count)
    }

    /// Checks that the draw has at most [`MAX_INVOCATIONS`] invocations (`name` names it
    /// in the message).
    pub fn check_size(&self, name: &str) -> Result<(), VertexError> {
        let invocations = self.invocations();
        if invocations > MAX_INVOCATIONS {
            return Err(VertexError::TooManyInvocations {
                draw: name.to_string(),
                invocations,
            });
        }
        Ok(())
    }
}

/// Why a vertex draw cannot run.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum VertexError {
    /// More invocations than [`MAX_INVOCATIONS`].
    #[error("{draw}: {invocations} invocations (at most {MAX_INVOCATIONS})")]
    TooManyInvocations {
        /// The draw's name.
        draw: String,
        /// Its invocations.
        invocations: u64,
    },
    /// The prolog's code does not decode.
    #[error("prolog: {error}")]
    PrologCode {
        /// Why.
        error: DecodeError,
    },
    /// The main shader's code does not decode.
    #[error("main: {error}")]
    MainCode {
        /// Why.
        error: DecodeError,
    },
    /// An attribute's format has no element size.
    #[error("{key}: {error}")]
    Format {
        /// The key's name.
        key: String,
        /// Why.
        error: VertexKeyError,
    },
    /// A uniform the ABI places beyond the uniform file.
    #[error("uniform half {half}: {error}")]
    Uniform {
        /// The uniform's first half.
        half: u16,
        /// Why.
        error: SimError,
    },
    /// The compute variant fetches indices and the draw gives no index buffer.
    #[error("{draw}: index: missing (the key's compute variant fetches indices)")]
    MissingIndex {
        /// The draw's name.
        draw: String,
    },
    /// The prolog stopped with an error.
    #[error("prolog: {error}")]
    Run {
        /// Why.
        error: SimError,
    },
}

/// A vertex prolog ready to run: its key, its code decoded, and the contract breaches
/// its code (and the main shader's, once checked) show.
#[derive(Debug, Clone)]
pub struct VertexProgram {
    key: PrologKey,
    program: Program,
    code_len: usize,
    handed: Vec<u16>,
    violations: Vec<Violation>,
}

/// The registers each invocation of a draw hands to the main vertex shader.
#[derive(Debug, Clone)]
pub struct VertexOutcome {
    /// The 32-bit registers handed over, in the order of the values of each invocation.
    pub registers: Vec<u16>,
    /// `registers.len()` values per invocation, instance by instance, vertex by vertex.
    values: Vec<u32>,
    /// The contract breaches of the parts.
    pub violations: Vec<Violation>,
    /// The instruction counts, when asked for.
    pub stats: Option<Stats>,
}

/// One invocation's handed-over registers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Invocation<'a> {
    /// Its vertex ID (`r5` as handed over; 0 when not handed over).
    pub vertex_id: u32,
    /// Its instance ID (`r6` as handed over; 0 when not handed over).
    pub instance_id: u32,
    /// The values of [`VertexOutcome::registers`].
    pub values: &'a [u32],
}

impl VertexOutcome {
    /// Number of invocations.
    pub fn len(&self) -> usize {
        self.values
            .len()
            .checked_div(self.registers.len())
            .unwrap_or(0)
    }

    /// Whether the draw had no invocation.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The invocations in order.
    pub fn invocations(&self) -> impl Iterator<Item = Invocation<'_>> + '_ {
        let at = |r: u16| self.registers.iter().position(|&x| x == r);
        let (vid, iid) = (
            at(VIN_VERTEX_ID.first_half / 2),
            at(VIN_INSTANCE_ID.first_half / 2),
        );
        let n = self.registers.len().max(1);
        self.values.chunks(n).map(move |values| Invocation {
            vertex_id: vid.map_or(0, |i| values[i]),
            instance_id: iid.map_or(0, |i| values[i]),
            values,
        })
    }
}

/// Bytes of one vertex element of a format: the whole block (one 32-bit word for the
/// packed and software-unpacked formats).
fn element_bytes(format: &str) -> Result<u32, VertexKeyError> {
    let f = vertex_format(format)?;
    let unit = f.interchange.block_bytes();
    Ok(if f.interchange.supports_mask() {
        unit * u32::from(f.components_loaded)
    } else {
        unit
    })
}

impl VertexProgram {
    /// The prolog `code` of `key`, checked against the key's contract and decoded.
    pub fn new(key: PrologKey, code: &[u8]) -> Result<VertexProgram, VertexError> {
        let violations =
            check_vertex_prolog(&key, code).map_err(|error| VertexError::PrologCode { error })?;
        let program = Program::decode(code).map_err(|error| VertexError::Run { error })?;
        Ok(VertexProgram {
            handed: vertex_handed_over(&key),
            key,
            program,
            code_len: code.len(),
            violations,
        })
    }

    /// Checks the main vertex shader `code` (named `name` in the messages) for reads of
    /// registers the prolog does not hand over.
    pub fn check_main(&mut self, name: &str, code: &[u8]) -> Result<(), VertexError> {
        let v = check_vertex_main(&self.key, code, name)
            .map_err(|error| VertexError::MainCode { error })?;
        self.violations.extend(v);
        Ok(())
    }

    /// The contract breaches found so far.
    pub fn violations(&self) -> &[Violation] {
        &self.violations
    }

    /// The state every group starts from (zeroed registers, the draw's uniforms), without
    /// memory, and the draw's device memory.
    fn setup(&self, draw: &VertexDraw, names: &Names) -> Result<(State, Vec<Region>), VertexError> {
        let key = &self.key;
        let soft_fault = key.robustness.soft_fault;
        let mut base = State {
            soft_fault,
            ..State::default()
        };
        let addresses = draw.addresses();
        let sink = if soft_fault { 0 } else { SINK };
        let mut memory = Vec::new();
        if !soft_fault {
            memory.push(Region {
                address: SINK,
                bytes: vec![0; 16],
            });
        }
        for (b, &address) in draw.buffers.iter().zip(&addresses) {
            memory.push(Region {
                address,
                bytes: b.bytes.clone(),
            });
        }
        let set = |st: &mut State, half: u16, size: u32, v: u64| {
            st.set_uniform(u32::from(half), size, v)
                .map_err(|error| VertexError::Uniform { half, error })
        };
        let n = slots(key);
        let mut attribs: Vec<_> = key.attribs.iter().filter(|x| x.components != 0).collect();
        attribs.sort_by_key(|x| x.slot);
        for at in attribs {
            let elsize =
                element_bytes(&at.element.format).map_err(|error| VertexError::Format {
                    key: names.key.clone(),
                    error,
                })?;
            let (b, clamp) = match draw.bindings.iter().find(|b| b.slot == at.slot) {
                Some(b) => base_and_clamp(
                    addresses[b.buffer],
                    b.size,
                    b.offset,
                    at.element.stride,
                    elsize,
                    sink,
                ),
                None => (sink, 0),
            };
            set(&mut base, vuni_vbo_base(at.slot), 64, b)?;
            set(&mut base, vuni_vbo_clamp(n, at.slot), 32, u64::from(clamp))?;
        }
        set(
            &mut base,
            vuni_first_vertex(n),
            32,
            u64::from(draw.first_vertex),
        )?;
        set(
            &mut base,
            vuni_base_instance(n),
            32,
            u64::from(draw.base_instance),
        )?;
        set(
            &mut base,
            vuni_draw_id(n),
            16,
            u64::from(draw.draw_id & 0xffff),
        )?;
        if !key.hw {
            let (ib, range) = match draw.index {
                Some(ix) => (addresses[ix.buffer] + ix.offset, ix.count),
                None if key.index_size == 0 => (0, u32::MAX),
                None => {
                    return Err(VertexError::MissingIndex {
                        draw: names.draw.clone(),
                    })
                }
            };
            let mut record = ib.to_le_bytes().to_vec();
            record.extend(range.to_le_bytes());
            record.extend(draw.vertex_count.to_le_bytes());
            memory.push(Region {
                address: INPUT_ASSEMBLY,
                bytes: record,
            });
            set(&mut base, vuni_input_assembly(n), 64, INPUT_ASSEMBLY)?;
        }
        Ok((base, memory))
    }

    /// Runs the prolog over `draw` (`names` name the key and draw in messages), counting
    /// the instructions when `stats` is set.
    pub fn run(
        &self,
        draw: &VertexDraw,
        names: &Names,
        stats: bool,
    ) -> Result<VertexOutcome, VertexError> {
        draw.check_size(&names.draw)?;
        let invocations = draw.invocations();
        let (base, memory) = self.setup(draw, names)?;
        let mut counts = stats.then(|| Stats::new(vec![("prolog".to_string(), 0..self.code_len)]));
        let mut session = Session::new(&self.program);
        let width = self.handed.len();
        let mut values = Vec::with_capacity(invocations as usize * width);
        let (vid, iid) = (
            usize::from(VIN_VERTEX_ID.first_half),
            usize::from(VIN_INSTANCE_ID.first_half),
        );
        let mut st = base.clone();
        st.memory = memory;
        for instance in 0..draw.instance_count {
            let mut start = 0u32;
            while start < draw.vertex_count {
                let lanes = (draw.vertex_count - start).min(LANES as u32);
                // The group's own state restarts from the draw's; memory is shared.
                st.regs.copy_from_slice(&base.regs);
                st.written.copy_from_slice(&base.written);
                st.uniforms.copy_from_slice(&base.uniforms);
                st.varyings.clone_from(&base.varyings);
                st.exec = if lanes == 32 {
                    u32::MAX
                } else {
                    (1u32 << lanes) - 1
                };
                st.grid = [start, instance, 0];
                for l in 0..lanes as usize {
                    let v = draw.first_vertex.wrapping_add(start + l as u32);
                    st.set_half(l, vid, v as u16);
                    st.set_half(l, vid + 1, (v >> 16) as u16);
                    st.set_half(l, iid, instance as u16);
                    st.set_half(l, iid + 1, (instance >> 16) as u16);
                }
                let ran = match &mut counts {
                    Some(c) => session.run_observed(&mut st, MAX_STEPS, &mut |pc, ins, st| {
                        c.observe(pc, ins, st)
                    }),
                    None => session.run(&mut st, MAX_STEPS),
                };
                ran.map_err(|error| VertexError::Run { error })?;
                for l in 0..lanes as usize {
                    values.extend(self.handed.iter().map(|&r| {
                        let h = 2 * usize::from(r);
                        u32::from(st.half(l, h)) | u32::from(st.half(l, h + 1)) << 16
                    }));
                }
                start += lanes;
            }
        }
        Ok(VertexOutcome {
            registers: self.handed.clone(),
            values,
            violations: self.violations.clone(),
            stats: counts,
        })
    }
}
