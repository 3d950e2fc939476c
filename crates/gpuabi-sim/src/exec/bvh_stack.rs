//! RDNA 3's BVH traversal stack in LDS: `ds_bvh_stack_rtn_b32 vdst, vaddr, vdata0,
//! v[data1:data1+3] offset:N`, one short stack per lane that a ray-tracing traversal pushes
//! the children a box test returned onto and pops its next node from.
//!
//! The operands are ACO's (`emit_ds_bvh_stack_push4_pop1_rtn` in
//! `src/amd/compiler/instruction_selection/aco_select_nir_intrinsics.cpp`, the DS_instruction
//! comment in `src/amd/compiler/aco_ir.h`) and the manual's ("RDNA3 ISA", "DS Stack
//! Operations for Ray Tracing"): VDST receives the next node; ADDR is the stack address, read
//! and written back; DATA0 the last visited node; DATA1 the four node pointers of an
//! intersection result; OFFSET1 bits 5:4 the stack size, 8 << that entries (ACO's
//! `ds_bvh_stack_offset1_gfx11`: 16 entries is `offset:4096`).
//!
//! What one lane does, rule by rule with its source:
//!
//! - The address: bits 17:0 are the stack index, counted in entries (0 for an empty stack),
//!   bits 31:18 the stack's base in dwords from the start of LDS; a lane's entries lie 128
//!   bytes apart (Mesa's `radv_build_bvh_stack_rtn_addr` in
//!   `src/amd/vulkan/nir/radv_nir_rt_common.c`: "Bits 0-17 encode the current stack index",
//!   "Bits 18-31 encodes the stack base in multiples of 4", "The hardware uses a stride of
//!   128 bytes (32 entries) for the stack index"). The stack is a ring of its size: the
//!   index counts on past it and entry `index mod size` is written ("RDNA3 ISA": "beyond
//!   that the stack wraps around and overwrites older items").
//! - A last visited node of `RADV_BVH_STACK_TERMINAL_NODE` (0xfffffffe) pushes nothing and
//!   pops (`src/amd/vulkan/bvh/bvh_defines.h`: "Indicator to ignore everything in the
//!   intrinsic result (i.e. push nothing to the stack) and only pop the next node"). RADV's
//!   traversal passes it for every node that is not a box or an instance
//!   (`radv_build_ray_traversal` in `radv_nir_rt_common.c`).
//! - Otherwise DATA1[0], DATA1[1], DATA1[2] are pushed in that order while valid, and
//!   DATA1[3] is returned if valid; a pointer is valid unless it is the invalid node
//!   0xffffffff or equals the last visited node (when that is not 0xffffffff). The first
//!   of DATA1[0..2] that equals the last visited node ends the pushes, and "all further
//!   data" counts as invalid, DATA1[3] included ("RDNA3 ISA", DS_BVH_STACK_RTN_B32's
//!   pseudo-code and its DATA_VALID): a traversal that climbs back to a parent after an
//!   overflow passes the child it came from and so skips the children it already visited.
//! - When DATA1[3] is not returned, the stack is popped: the index goes down by one, the
//!   entry there is returned and overwritten with 0xffffffff ("RDNA3 ISA":
//!   `MEM[stack_base + stack_index] = INVALID_NODE`, "Decrement stack_index"; the manual's
//!   pseudo-code reads before it decrements, which with its push, write then increment,
//!   would return the entry above the last one pushed; the model pops the last pushed,
//!   which RADV's traversal, pushing a box's children and then taking the next node from
//!   the same instruction, relies on). A popped entry that is 0xffffffff was popped before
//!   and then wrapped over: RADV reads 0xffffffff as "the stack overflowed", with the index
//!   already decremented, and adds one back before it climbs to the parent
//!   (`radv_build_ray_traversal`: "ds_bvh_stack_rtn returns 0xFFFFFFFF if and only if there
//!   was a stack overflow", "The HW will decrement the stack pointer by one in that case").
//! - A pop of an empty stack (index 0) returns `RADV_BVH_STACK_TERMINAL_NODE` and leaves
//!   the index at 0: RADV's traversal ends when the node returned is that one ("Early-exit
//!   when the stack is empty and there are no more nodes to process") and never writes it
//!   into the stack, so it can only come from here. The manual does not say what an empty
//!   stack returns; keeping the index at 0 is the project's decision (RADV leaves the loop
//!   there and never reads it).
//!
//! Entries outside the work-group's LDS read as 0xffffffff and are not written, and are
//! counted in [`crate::Stats::lds_out_of_range`], as other LDS accesses are.

use crate::exec::lds::LdsCtx;
use crate::image::{Decoded, Dst, Src};
use crate::wave::Wave;

/// No node: a child the ray misses; a popped entry.
pub const INVALID_NODE: u32 = 0xffff_ffff;
/// RADV's `RADV_BVH_STACK_TERMINAL_NODE`: "push nothing" as the last visited node, and what
/// a pop of an empty stack returns.
pub const TERMINAL_NODE: u32 = 0xffff_fffe;
/// The address bits that hold the stack index.
const INDEX_MASK: u32 = (1 << 18) - 1;
/// Bytes between two entries of one lane's stack.
const ENTRY_STRIDE: u64 = 128;

/// The number of entries of the stack `offset` (the DS offset field, OFFSET1 in bits 15:8)
/// selects: OFFSET1 bits 5:4 give 8, 16, 32 or 64.
pub fn stack_entries(offset: i32) -> u32 {
    8 << ((offset as u32 >> 12) & 3)
}

/// The memory the stacks live in, by byte address.
pub trait Entries {
    /// The dword at `byte`.
    fn entry(&mut self, byte: u64) -> u32;
    /// Writes the dword at `byte`.
    fn store(&mut self, byte: u64, value: u32);
}

impl Entries for LdsCtx<'_> {
    fn entry(&mut self, byte: u64) -> u32 {
        self.read_or(byte, INVALID_NODE)
    }

    fn store(&mut self, byte: u64, value: u32) {
        self.write_dword(byte, value)
    }
}

/// One lane's stack operation: the new address and the node returned, given the address
/// `addr`, the last visited node `last` and the intersection result `data`, with `size`
/// entries in `lds`.
pub fn step(addr: u32, last: u32, data: [u32; 4], size: u32, lds: &mut impl Entries) -> (u32, u32) {
    let base = u64::from(addr >> 18) * 4;
    let mut index = addr & INDEX_MASK;
    let at = |index: u32| base + u64::from(index % size) * ENTRY_STRIDE;
    let valid = |p: u32| p != INVALID_NODE && !(last != INVALID_NODE && p == last);
    let mut returned = None;
    if last != TERMINAL_NODE {
        let mut stopped = false;
        for &p in &data[..3] {
            if valid(p) {
                lds.store(at(index), p);
                index = (index + 1) & INDEX_MASK;
            } else if p == last {
                stopped = true;
                break;
            }
        }
        if !stopped && valid(data[3]) {
            returned = Some(data[3]);
        }
    }
    let node = match returned {
        Some(p) => p,
        None if index == 0 => TERMINAL_NODE,
        None => {
            index -= 1;
            let p = lds.entry(at(index));
            lds.store(at(index), INVALID_NODE);
            p
        }
    };
    ((addr & !INDEX_MASK) | index, node)
}

/// Runs `ds_bvh_stack_rtn_b32` in the active lanes of `w`.
pub fn exec(d: &Decoded, w: &mut Wave, cx: &mut LdsCtx<'_>) {
    let (Dst::Vgpr(vdst), Dst::Vgpr(vaddr), Src::Vgpr(data0), Src::Vgpr(data1)) =
        (d.dst[0], d.dst[1], d.src[0], d.src[1])
    else {
        return;
    };
    let size = stack_entries(d.mods.offset);
    let exec = w.exec();
    for lane in 0..w.lanes() {
        if exec >> lane & 1 == 0 {
            continue;
        }
        let data = [0, 1, 2, 3].map(|k| w.v(data1 + k, lane));
        let (addr, node) = step(w.v(vaddr, lane), w.v(data0, lane), data, size, cx);
        w.set_v(vaddr, lane, addr);
        w.set_v(vdst, lane, node);
    }
}

#[cfg(test)]
mod tests {
    use std::collections::HashMap;

    use super::*;

    /// A lane's stack in a map of LDS bytes to dwords, with the stack base `base` dwords.
    struct Lane {
        lds: HashMap<u64, u32>,
        addr: u32,
    }

    impl Entries for HashMap<u64, u32> {
        fn entry(&mut self, byte: u64) -> u32 {
            // Never-written LDS: a value no test pushes.
            self.get(&byte).copied().unwrap_or(0xdead_beef)
        }

        fn store(&mut self, byte: u64, value: u32) {
            self.insert(byte, value);
        }
    }

    impl Lane {
        fn new(base: u32) -> Lane {
            Lane {
                lds: HashMap::new(),
                addr: base << 18,
            }
        }

        fn run(&mut self, last: u32, data: [u32; 4]) -> u32 {
            let (addr, node) = step(self.addr, last, data, 16, &mut self.lds);
            self.addr = addr;
            node
        }

        fn index(&self) -> u32 {
            self.addr & INDEX_MASK
        }
    }

    const X: u32 = INVALID_NODE;

    #[test]
    fn the_stack_size_is_offset1_bits_5_4() {
        // ACO's `ds_bvh_stack_offset1_gfx11`: 8, 16, 32, 64 entries are OFFSET1 0x00, 0x10,
        // 0x20, 0x30; RADV's captures write `offset:4096` (OFFSET1 0x10) for its 16.
        assert_eq!(stack_entries(0), 8);
        assert_eq!(stack_entries(0x1000), 16);
        assert_eq!(stack_entries(0x2000), 32);
        assert_eq!(stack_entries(0x3000), 64);
    }

    /// A box with children a, b (c, d missed), then each child a triangle: b is returned by
    /// the pop right away, a on the next pop, then the empty stack answers the terminal
    /// node. Entries sit 128 bytes apart from the lane's base (3 dwords: byte 12).
    #[test]
    fn pushes_pop_in_reverse_and_an_empty_stack_is_terminal() {
        let mut l = Lane::new(3);
        assert_eq!(l.run(X, [10, 11, X, X]), 11);
        assert_eq!(l.index(), 1);
        assert_eq!(l.lds[&12], 10, "entry 0 at the base");
        assert_eq!(l.lds[&(12 + 128)], X, "entry 1 popped");
        assert_eq!(l.run(TERMINAL_NODE, [1, 2, 3, 4]), 10);
        assert_eq!(l.index(), 0);
        assert_eq!(l.lds[&12], X);
        assert_eq!(l.run(TERMINAL_NODE, [1, 2, 3, 4]), TERMINAL_NODE);
        assert_eq!(l.index(), 0);
        assert_eq!(l.addr >> 18, 3, "the base is kept");
    }

    /// Four valid children: three pushed, the fourth returned without touching the stack.
    #[test]
    fn a_valid_fourth_pointer_is_returned() {
        let mut l = Lane::new(0);
        assert_eq!(l.run(X, [1, 2, 3, 4]), 4);
        assert_eq!(l.index(), 3);
        assert_eq!([l.lds[&0], l.lds[&128], l.lds[&256]], [1, 2, 3]);
        assert_eq!(l.run(TERMINAL_NODE, [9, 9, 9, 9]), 3);
        assert_eq!(l.run(TERMINAL_NODE, [9, 9, 9, 9]), 2);
        assert_eq!(l.run(TERMINAL_NODE, [9, 9, 9, 9]), 1);
        assert_eq!(l.run(TERMINAL_NODE, [9, 9, 9, 9]), TERMINAL_NODE);
    }

    /// An instance: RADV pushes the root with the last node invalid, and the pop returns it.
    #[test]
    fn an_instance_root_comes_straight_back() {
        let mut l = Lane::new(0);
        assert_eq!(l.run(X, [5, X, X, X]), 5);
        assert_eq!(l.index(), 0);
    }

    /// Climbing back after an overflow: the box's children re-tested, the last visited
    /// node the child the walk came from. Pointers up to it are pushed, it and the rest
    /// (DATA1[3] included) are not.
    #[test]
    fn the_last_visited_node_stops_the_pushes() {
        let mut l = Lane::new(0);
        assert_eq!(l.run(2, [1, 2, 3, 4]), 1);
        assert_eq!(l.index(), 0);
        let mut l = Lane::new(0);
        assert_eq!(l.run(4, [1, 2, 3, 4]), 3, "the fourth was the last visited");
        assert_eq!(l.index(), 2);
        let mut l = Lane::new(0);
        assert_eq!(l.run(1, [1, 2, 3, 4]), TERMINAL_NODE);
    }

    /// 18 pushes on a 16-entry stack: five boxes push three children each (entries 0-14)
    /// and return the fourth; a sixth pushes 600, 601 and 602 into entries 15, 0 and 1 (over
    /// 100 and 101) and pops 602 back. The pops then return 601, 600 and the children
    /// from 502 down to 102 (entry 2), and the next finds entry 1, popped already:
    /// 0xffffffff, the index decremented to 1.
    #[test]
    fn a_wrapped_stack_answers_invalid_with_the_index_decremented() {
        let mut l = Lane::new(0);
        for k in 0..5 {
            let b = 100 * (k + 1);
            assert_eq!(l.run(X, [b, b + 1, b + 2, b + 3]), b + 3);
        }
        assert_eq!(l.index(), 15);
        assert_eq!(l.run(X, [600, 601, 602, X]), 602);
        assert_eq!(l.index(), 17);
        assert_eq!(l.lds[&0], 601, "entry 0: 100 wrapped over");
        assert_eq!(l.lds[&128], X, "entry 1: 602, popped");
        let mut popped = Vec::new();
        while l.index() > 2 {
            popped.push(l.run(TERMINAL_NODE, [0; 4]));
        }
        let expected: Vec<u32> = [601, 600]
            .into_iter()
            .chain(
                (1..=5)
                    .rev()
                    .flat_map(|k| (0..3).rev().map(move |c| 100 * k + c)),
            )
            .take(15)
            .collect();
        assert_eq!(popped, expected);
        assert_eq!(l.run(TERMINAL_NODE, [0; 4]), X);
        assert_eq!(l.index(), 1);
    }
}
