//! `--stats` of `agx run`: the instructions each part executed, by kind, and the
//! tile-buffer and device-memory traffic, counted while the simulator runs.
//!
//! An instruction counts once per SIMD group that issues it (whatever its active lanes);
//! traffic counts the register bytes moved by the active lanes: the data tuple of
//! `st_tile`/`ld_tile`, of `load`/`store`, and 4 bytes read plus 4 written per lane of an
//! `atomic`.

use std::collections::BTreeMap;
use std::ops::Range;

use gpuabi_agx_isa::{Instruction, OperandKind};
use gpuabi_agx_sim::State;

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
            "st_tile" => c.tile_write_bytes += lanes * tuple_bytes(ins, false, 0),
            "ld_tile" => c.tile_read_bytes += lanes * tuple_bytes(ins, true, 0),
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
