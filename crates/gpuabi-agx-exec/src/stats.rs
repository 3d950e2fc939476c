//! The instructions each part of a program executed, by kind, and the tile-buffer and
//! device-memory traffic, counted while the simulator runs.
//!
//! An instruction counts once per SIMD group that issues it (whatever its active lanes),
//! in a table indexed by its row of the instruction table; names are looked up only when
//! the counts are read. Tile-buffer traffic counts, per active lane, the bytes of one
//! sample that `st_tile`/`ld_tile` touch: the masked components times the element size,
//! or the whole word of a packed format. Memory traffic counts the register bytes of
//! `load`/`store` per active lane, and 4 bytes read plus 4 written per lane of an `atomic`.

use std::ops::Range;

use gpuabi_agx_isa::opcodes::OPCODES;
use gpuabi_agx_isa::{Instruction, Opcode, OperandKind};
use gpuabi_agx_sim::{format_code as code, State};

/// Counts of one part.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PartCounts {
    /// Instructions issued, by [`Opcode::index`].
    issued: Vec<u64>,
    /// Bytes read from the tile buffer.
    pub tile_read_bytes: u64,
    /// Bytes written to the tile buffer.
    pub tile_write_bytes: u64,
    /// Bytes read from device memory.
    pub memory_read_bytes: u64,
    /// Bytes written to device memory.
    pub memory_write_bytes: u64,
}

impl PartCounts {
    fn new() -> PartCounts {
        PartCounts {
            issued: vec![0; OPCODES.len()],
            tile_read_bytes: 0,
            tile_write_bytes: 0,
            memory_read_bytes: 0,
            memory_write_bytes: 0,
        }
    }

    /// The instructions issued at least once, by unique name (in name order) with their
    /// counts.
    pub fn instructions(&self) -> Vec<(&'static str, u64)> {
        let mut v: Vec<(&'static str, u64)> = self
            .issued
            .iter()
            .enumerate()
            .filter(|(_, n)| **n != 0)
            .map(|(i, n)| (OPCODES[i].name, *n))
            .collect();
        v.sort_unstable();
        v
    }

    /// Instructions issued in all.
    pub fn total(&self) -> u64 {
        self.issued.iter().sum()
    }
}

/// The instruction kinds whose traffic is counted.
#[derive(Debug, Clone, Copy)]
struct Kinds {
    st_tile: Option<Opcode>,
    ld_tile: Option<Opcode>,
    load: Option<Opcode>,
    store: Option<Opcode>,
    atomic: Option<Opcode>,
}

/// Counts per part of a program whose parts sit at byte ranges.
#[derive(Debug, Clone)]
pub struct Stats {
    /// Each range with the index of its part's name in `names` (later ranges win).
    ranges: Vec<(Range<usize>, usize)>,
    /// Part names, each once.
    names: Vec<String>,
    /// The index in `names` of `other`, the code outside every range.
    other: usize,
    /// Counts by index in `names`, once the part issued an instruction.
    counts: Vec<Option<PartCounts>>,
    kinds: Kinds,
}

/// The name of code outside every part.
const OTHER: &str = "other";

fn tuple_bytes(op: Option<&gpuabi_agx_isa::Operand>) -> u64 {
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
    /// Counts for a program with these named byte ranges (later ranges win on overlap;
    /// ranges of one name count together).
    pub fn new(parts: Vec<(String, Range<usize>)>) -> Stats {
        let mut names: Vec<String> = Vec::new();
        let mut ranges = Vec::new();
        for (name, range) in parts {
            let i = match names.iter().position(|n| *n == name) {
                Some(i) => i,
                None => {
                    names.push(name);
                    names.len() - 1
                }
            };
            ranges.push((range, i));
        }
        let other = match names.iter().position(|n| n == OTHER) {
            Some(i) => i,
            None => {
                names.push(OTHER.to_string());
                names.len() - 1
            }
        };
        Stats {
            counts: vec![None; names.len()],
            ranges,
            names,
            other,
            kinds: Kinds {
                st_tile: Opcode::by_name("st_tile"),
                ld_tile: Opcode::by_name("ld_tile"),
                load: Opcode::by_name("load"),
                store: Opcode::by_name("store"),
                atomic: Opcode::by_name("atomic"),
            },
        }
    }

    /// Counts the instruction at `pc` about to run on `st`.
    pub fn observe(&mut self, pc: usize, ins: &Instruction, st: &State) {
        let part = self
            .ranges
            .iter()
            .rev()
            .find(|(r, _)| r.contains(&pc))
            .map_or(self.other, |(_, i)| *i);
        let c = self.counts[part].get_or_insert_with(PartCounts::new);
        c.issued[ins.opcode.index()] += 1;
        let op = Some(ins.opcode);
        let k = &self.kinds;
        if op == k.st_tile || op == k.ld_tile || op == k.load || op == k.store || op == k.atomic {
            let lanes = u64::from(st.exec.count_ones());
            if op == k.st_tile {
                c.tile_write_bytes += lanes * tile_bytes(ins);
            } else if op == k.ld_tile {
                c.tile_read_bytes += lanes * tile_bytes(ins);
            } else if op == k.load {
                c.memory_read_bytes +=
                    lanes * tuple_bytes(ins.dests.first().copied().flatten().as_ref());
            } else if op == k.store {
                c.memory_write_bytes +=
                    lanes * tuple_bytes(ins.srcs.first().copied().flatten().as_ref());
            } else {
                c.memory_read_bytes += lanes * 4;
                c.memory_write_bytes += lanes * 4;
            }
        }
    }

    /// The parts that issued instructions, in name order, with their counts.
    pub fn parts(&self) -> Vec<(&str, &PartCounts)> {
        let mut v: Vec<(&str, &PartCounts)> = self
            .names
            .iter()
            .zip(&self.counts)
            .filter_map(|(n, c)| c.as_ref().map(|c| (n.as_str(), c)))
            .collect();
        v.sort_by(|a, b| a.0.cmp(b.0));
        v
    }
}
