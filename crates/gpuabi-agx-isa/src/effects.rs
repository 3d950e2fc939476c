//! Implicit effects of an instruction, beyond its listed operands.

/// A set of implicit effects (bit flags).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Effects(pub u16);

impl Effects {
    /// No implicit effect.
    pub const NONE: Effects = Effects(0);
    /// Reads and writes the execution mask and the nesting counter in `r0l`
    /// (`if`/`else`/`while`/`pop_exec`/`update_exec`, as applegpu documents them).
    pub const EXEC: Effects = Effects(1);
    /// Reads memory (device, threadgroup, stack, tile buffer, texture or state).
    pub const MEM_READ: Effects = Effects(1 << 1);
    /// Writes memory.
    pub const MEM_WRITE: Effects = Effects(1 << 2);
    /// May change the program counter.
    pub const BRANCH: Effects = Effects(1 << 3);
    /// Ends the program.
    pub const STOP: Effects = Effects(1 << 4);
    /// Faults when executed.
    pub const TRAP: Effects = Effects(1 << 5);
    /// Orders or waits for other work (barriers, waits, pixel ordering).
    pub const SYNC: Effects = Effects(1 << 6);
    /// Reads the values of other lanes (subgroup and quad operations, derivatives).
    pub const CROSS_LANE: Effects = Effects(1 << 7);
    /// Reads the execution mask (ballots, active-lane counts).
    pub const READS_EXEC: Effects = Effects(1 << 8);

    /// Both sets.
    pub const fn union(self, other: Effects) -> Effects {
        Effects(self.0 | other.0)
    }

    /// Whether every effect of `other` is in `self`.
    pub const fn contains(self, other: Effects) -> bool {
        self.0 & other.0 == other.0
    }
}

impl std::ops::BitOr for Effects {
    type Output = Effects;
    fn bitor(self, rhs: Effects) -> Effects {
        self.union(rhs)
    }
}
