//! Runs a kernel compiled for the `catalyst` entry: the simulator's Catalyst dispatch fills
//! cb0, cb1 and the UAV descriptors from the kernel's layout, then the arguments' bits are
//! written into cb1 as the interpreter takes them.
//!
//! A pointer argument must point into one of the given buffers (or just past its end):
//! its UAV describes that buffer and its cb1 slot holds the byte offset into it (the
//! Catalyst representation of a global pointer; the dispatch writes 0 there, this run
//! writes the offset). A pointer anywhere else has no UAV to describe it and is refused.

use std::collections::BTreeMap;

use gpuabi_catalyst::args::ArgKind;
use gpuabi_catalyst::types::ArgType;
use gpuabi_catalyst::KernelLayout;
use gpuabi_sim::dispatch::{ArgValue, NdRange, WaveSetup};
use gpuabi_sim::memory::Memory;
use gpuabi_sim::Limits;

use crate::ExecError;

/// The buffer `addr` points into: its name and the byte offset, or `None`.
fn buffer_of(memory: &Memory, addr: u64) -> Option<(String, u64)> {
    memory
        .buffers()
        .iter()
        .find(|b| addr >= b.base && addr - b.base <= b.data.len() as u64)
        .map(|b| (b.name.clone(), addr - b.base))
}

/// Sets up the dispatch of `layout` with the interpreter's argument bits.
pub(crate) fn setups(
    layout: &KernelLayout,
    nd: &NdRange,
    args: &[u64],
    memory: &mut Memory,
    limits: &Limits,
) -> Result<Vec<WaveSetup>, ExecError> {
    if layout.args.len() != args.len() {
        return Err(ExecError::Setup(format!(
            "kernel `{}` takes {} arguments, {} given",
            layout.kernel,
            layout.args.len(),
            args.len()
        )));
    }
    // What each argument's cb1 slot receives: (byte offset, bytes of the value).
    let mut values: BTreeMap<String, ArgValue> = BTreeMap::new();
    let mut writes: Vec<(u32, Vec<u8>)> = Vec::new();
    for (a, &bits) in layout.args.iter().zip(args) {
        let bytes = bits.to_le_bytes();
        match (&a.kind, &a.ty) {
            (ArgKind::Pointer, _) => {
                let (name, offset) = buffer_of(memory, bits).ok_or_else(|| {
                    ExecError::Setup(format!(
                        "argument `{}` = {bits:#x} points into no buffer: under the catalyst \
                         entry a pointer argument is a buffer (its UAV) and an offset into it",
                        a.name
                    ))
                })?;
                if memory.find(&name).map(|b| b.base) != Some(bits - offset) {
                    return Err(ExecError::Setup(format!(
                        "argument `{}`: two buffers are named `{name}`",
                        a.name
                    )));
                }
                values.insert(a.name.clone(), ArgValue::Buffer(name));
                let width = if layout.bits == 64 { 8 } else { 4 };
                writes.push((a.slot.offset, offset.to_le_bytes()[..width].to_vec()));
            }
            (ArgKind::Value, ArgType::Value { ty }) => {
                values.insert(a.name.clone(), ArgValue::Numbers(vec![0.0.into()]));
                let width = (ty.stored_lanes() * ty.scalar.bytes()).min(8) as usize;
                writes.push((a.slot.offset, bytes[..width].to_vec()));
            }
            (kind, _) => {
                return Err(ExecError::Setup(format!(
                    "argument `{}`: {kind:?} arguments are not run",
                    a.name
                )))
            }
        }
    }
    let setups = gpuabi_sim::catalyst::dispatch(layout, nd, &values, memory, limits.global_bytes)
        .map_err(|e| ExecError::Setup(e.to_string()))?;
    // The dispatch adds cb1 after every argument buffer: the last buffer of that name.
    let cb1 = memory
        .buffers()
        .iter()
        .rev()
        .find(|b| b.name == gpuabi_sim::catalyst::CB1_BUFFER)
        .map(|b| b.base)
        .ok_or_else(|| ExecError::Setup("the dispatch made no cb1".into()))?;
    for (offset, bytes) in writes {
        memory
            .write_bytes(cb1 + u64::from(offset), &bytes)
            .ok_or_else(|| ExecError::Setup(format!("cb1 has no byte {offset}")))?;
    }
    Ok(setups)
}
