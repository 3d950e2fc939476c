//! `--stats` of `agx run`: the instructions each part executed, by kind, and the
//! tile-buffer and device-memory traffic, counted while the simulator runs.
//!
//! An instruction counts once per SIMD group that issues it (whatever its active lanes).
//! Tile-buffer traffic counts, per active lane, the bytes of one sample that
//! `st_tile`/`ld_tile` touch: the masked components times the element size, or the whole
//! word of a packed format. Memory traffic counts the register bytes of `load`/`store` per
//! active lane, and 4 bytes read plus 4 written per lane of an `atomic`.

use std::collections::BTreeMap;
use std::ops::Range;

use gpuabi_agx_isa::{Instruction, OperandKind};
use gpuabi_agx_sim::{format_code as code, State};

/// Counts of one part.
#[derive(Debug, Clone, Default)]
pub struct PartStats {
    /// Instructions issued, by name.
    pub instructions: BTreeMap<String, u64>,
    /// Bytes read from the tile buffer.
    pub tile_read_bytes: u64,
    /// Bytes written to the tile buffer.
    pub tile_write_bytes: u64,
    /// Bytes read from device memory.
    pub memory_read_bytes: u64,
    /// Bytes written to device memory.
    pub memory_write_bytes: u64,
}

/// Counts per part of a program whose parts sit at byte ranges.
#[derive(Debug, Clone, Default)]
pub struct Stats {
    parts: Vec<(String, Range<usize>)>,
    counts: BTreeMap<String, PartStats>,
}

fn tuple_bytes(ins: &Instruction, dest: bool, index: usize) -> u64 {
    let op = if dest {
        ins.dests.get(index).copied().flatten()
    } else {
        ins.srcs.get(index).copied().flatten()
    };
    match op.map(|o| o.kind) {
        Some(OperandKind::Reg { size, count, .. }) => u64::from(size / 8 * count),
        _ => 0,
    }
}

/// Bytes of one sample a tile access touches.
fn tile_bytes(ins: &Instruction) -> u64 {
    let mask = u64::from(ins.modifier("mask").unwrap_or(0).count_ones());
    match ins.modifier("format").unwrap_or(0) {
        code::I8 | code::U8NORM | code::S8NORM | code::SRGBA8 => mask,
        code::I16 | code::F16 | code::U16NORM | code::S16NORM => 2 * mask,
        code::I32 => 4 * mask,
        _ => 4,
    }
}

impl Stats {
    /// Counts for a program with these named byte ranges (later ranges win on overlap).
    pub fn new(parts: Vec<(String, Range<usize>)>) -> Stats {
        Stats {
            parts,
            counts: BTreeMap::new(),
        }
    }

    /// Counts the instruction at `pc` about to run on `st`.
    pub fn observe(&mut self, pc: usize, ins: &Instruction, st: &State) {
        let part = self
            .parts
            .iter()
            .rev()
            .find(|(_, r)| r.contains(&pc))
            .map_or("other", |(n, _)| n.as_str());
        let c = self.counts.entry(part.to_string()).or_default();
        let name = ins.opcode.name();
        *c.instructions.entry(name.to_string()).or_default() += 1;
        let lanes = u64::from(st.exec.count_ones());
        match name {
            "st_tile" => c.tile_write_bytes += lanes * tile_bytes(ins),
            "ld_tile" => c.tile_read_bytes += lanes * tile_bytes(ins),
            "load" => c.memory_read_bytes += lanes * tuple_bytes(ins, true, 0),
            "store" => c.memory_write_bytes += lanes * tuple_bytes(ins, false, 0),
            "atomic" => {
                c.memory_read_bytes += lanes * 4;
                c.memory_write_bytes += lanes * 4;
            }
            _ => {}
        }
    }

    /// The counts as JSON: `{part: {instructions, tile_read_bytes, …}}`.
    pub fn json(&self) -> serde_json::Value {
        self.counts
            .iter()
            .map(|(part, c)| {
                let v = serde_json::json!({
                    "instructions": c.instructions,
                    "tile_read_bytes": c.tile_read_bytes,
                    "tile_write_bytes": c.tile_write_bytes,
                    "memory_read_bytes": c.memory_read_bytes,
                    "memory_write_bytes": c.memory_write_bytes,
                });
                (part.clone(), v)
            })
            .collect::<serde_json::Map<_, _>>()
            .into()
    }

    /// The counts as text, one part a paragraph.
    pub fn text(&self) -> String {
        let mut s = String::new();
        for (part, c) in &self.counts {
            let total: u64 = c.instructions.values().sum();
            s += &format!("stats {part}: {total} instructions\n");
            for (n, k) in &c.instructions {
                s += &format!("  {n} {k}\n");
            }
            s += &format!(
                "  tile buffer: {} bytes read, {} written; memory: {} bytes read, {} written\n",
                c.tile_read_bytes, c.tile_write_bytes, c.memory_read_bytes, c.memory_write_bytes
            );
        }
        s
    }
}
