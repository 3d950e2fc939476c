//! What the simulator does for each row of the instruction table, as an enum resolved once
//! when a program is decoded: execution matches on [`Op`], never on a row's name.

use std::collections::HashMap;
use std::sync::OnceLock;

use gpuabi_agx_isa::Opcode;

/// The bitfield and shift group (`bfi`, `bfeil`, `extr`, `shlhi`, `shrhi`; `shl` and `shr`
/// are `bfi` and `bfeil` without the first source).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Field {
    Insert,
    Extract,
    Extr,
    ShlHi,
    ShrHi,
}

/// The single-source float functions.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Unary {
    Floor,
    Ceil,
    Trunc,
    Rint,
    Rcp,
    Rsqrt,
    Log2,
    Exp2,
}

/// Which nesting-counter update an `if`/`else`/`while` performs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Nest {
    If,
    Else,
    While,
}

/// The operation of a simulated row.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Op {
    Ldimm,
    Mfsr,
    Iadd,
    Isub,
    Imul,
    Imadd,
    Imsub,
    /// A bitfield operation; `two` when the row has no first source (`shl`, `shr`).
    Bitfield {
        kind: Field,
        two: bool,
    },
    Asr,
    Asrh,
    Fadd,
    Fmul,
    Ffma,
    Hadd,
    Hmul,
    Hfma,
    /// The truth-table unit (`and`, `or`, `mov`, ...; the table is in the encoding).
    Bitop,
    Bitrev,
    Popcnt,
    Ffs,
    Intl,
    Icsel,
    Fcsel,
    /// `if`/`else`/`while` with an integer (`float` false) or float comparison.
    Nest {
        kind: Nest,
        float: bool,
    },
    PopExec,
    UpdateExec,
    Ballot,
    IcmpBallot,
    FcmpBallot,
    Shuffle,
    /// Integer of `bits` bits to float.
    IntToFloat {
        bits: u32,
        signed: bool,
    },
    /// Float to integer of `bits` bits.
    FloatToInt {
        bits: u32,
        signed: bool,
    },
    Unary(Unary),
    UniformStore,
    StVar,
    Store,
    Atomic,
    StTile,
    LdTile,
    SampleMask,
    ZsEmit,
    Iter,
    IterProj,
    Ldcf,
    Imgw,
    Imgwblk,
    Smpi,
    Load,
    /// `wait` and `pixwait`: nothing to do in one simulated SIMD group.
    Nop,
    Stop,
    JmpAny,
    JmpNone,
    /// A row the simulator does not model.
    Unsupported,
}

/// The simulated rows by unique name (the `name` of the row in
/// `gpuabi_agx_isa::opcodes::OPCODES`).
pub(crate) const SIMULATED: &[(&str, Op)] = &[
    ("ldimm16", Op::Ldimm),
    ("ldimm32", Op::Ldimm),
    ("mfsr", Op::Mfsr),
    ("iadd", Op::Iadd),
    ("isub", Op::Isub),
    ("imul", Op::Imul),
    ("imadd", Op::Imadd),
    ("imsub", Op::Imsub),
    ("shl", bf(Field::Insert, true)),
    ("bfi", bf(Field::Insert, false)),
    ("shr", bf(Field::Extract, true)),
    ("bfeil", bf(Field::Extract, false)),
    ("extr", bf(Field::Extr, false)),
    ("shlhi", bf(Field::ShlHi, false)),
    ("shrhi", bf(Field::ShrHi, false)),
    ("asr", Op::Asr),
    ("asrh", Op::Asrh),
    ("fadd", Op::Fadd),
    ("fmul", Op::Fmul),
    ("ffma", Op::Ffma),
    ("hadd", Op::Hadd),
    ("hmul", Op::Hmul),
    ("hfma", Op::Hfma),
    ("not_a", Op::Bitop),
    ("mov", Op::Bitop),
    ("not", Op::Bitop),
    ("mov_a", Op::Bitop),
    ("zero", Op::Bitop),
    ("and", Op::Bitop),
    ("andn1", Op::Bitop),
    ("andn2", Op::Bitop),
    ("xor", Op::Bitop),
    ("or", Op::Bitop),
    ("nor", Op::Bitop),
    ("xnor", Op::Bitop),
    ("orn1", Op::Bitop),
    ("orn2", Op::Bitop),
    ("nand", Op::Bitop),
    ("one", Op::Bitop),
    ("bitrev", Op::Bitrev),
    ("popcnt", Op::Popcnt),
    ("ffs", Op::Ffs),
    ("intl", Op::Intl),
    ("icsel", Op::Icsel),
    ("fcsel", Op::Fcsel),
    ("if_icmp", nest(Nest::If, false)),
    ("else_icmp", nest(Nest::Else, false)),
    ("while_icmp", nest(Nest::While, false)),
    ("if_fcmp", nest(Nest::If, true)),
    ("else_fcmp", nest(Nest::Else, true)),
    ("while_fcmp", nest(Nest::While, true)),
    ("pop_exec", Op::PopExec),
    ("update_exec", Op::UpdateExec),
    ("ballot", Op::Ballot),
    ("icmp_ballot", Op::IcmpBallot),
    ("fcmp_ballot", Op::FcmpBallot),
    ("shuffle", Op::Shuffle),
    ("u8_to_f", i2f(8, false)),
    ("s8_to_f", i2f(8, true)),
    ("u16_to_f", i2f(16, false)),
    ("s16_to_f", i2f(16, true)),
    ("u32_to_f", i2f(32, false)),
    ("s32_to_f", i2f(32, true)),
    ("f_to_u16", f2i(16, false)),
    ("f_to_s16", f2i(16, true)),
    ("f_to_u32", f2i(32, false)),
    ("f_to_s32", f2i(32, true)),
    ("floor", Op::Unary(Unary::Floor)),
    ("ceil", Op::Unary(Unary::Ceil)),
    ("trunc", Op::Unary(Unary::Trunc)),
    ("rint", Op::Unary(Unary::Rint)),
    ("rcp", Op::Unary(Unary::Rcp)),
    ("rsqrt", Op::Unary(Unary::Rsqrt)),
    ("log2", Op::Unary(Unary::Log2)),
    ("exp2", Op::Unary(Unary::Exp2)),
    ("uniform_store", Op::UniformStore),
    ("st_var", Op::StVar),
    ("store", Op::Store),
    ("atomic", Op::Atomic),
    ("st_tile", Op::StTile),
    ("ld_tile", Op::LdTile),
    ("sample_mask", Op::SampleMask),
    ("zs_emit", Op::ZsEmit),
    ("iter", Op::Iter),
    ("iterproj", Op::IterProj),
    ("ldcf", Op::Ldcf),
    ("imgw", Op::Imgw),
    ("imgwblk", Op::Imgwblk),
    ("smpi", Op::Smpi),
    ("load", Op::Load),
    ("wait", Op::Nop),
    ("pixwait", Op::Nop),
    ("stop", Op::Stop),
    ("jmp_any", Op::JmpAny),
    ("jmp_none", Op::JmpNone),
];

const fn bf(kind: Field, two: bool) -> Op {
    Op::Bitfield { kind, two }
}

const fn nest(kind: Nest, float: bool) -> Op {
    Op::Nest { kind, float }
}

const fn i2f(bits: u32, signed: bool) -> Op {
    Op::IntToFloat { bits, signed }
}

const fn f2i(bits: u32, signed: bool) -> Op {
    Op::FloatToInt { bits, signed }
}

/// The operation of a table row; rows outside [`SIMULATED`] are [`Op::Unsupported`].
pub(crate) fn of(opcode: Opcode) -> Op {
    static TABLE: OnceLock<HashMap<Opcode, Op>> = OnceLock::new();
    let table = TABLE.get_or_init(|| {
        SIMULATED
            .iter()
            .filter_map(|&(name, op)| Opcode::by_name(name).map(|o| (o, op)))
            .collect()
    });
    table.get(&opcode).copied().unwrap_or(Op::Unsupported)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every simulated name is a row of the instruction table, once.
    #[test]
    fn simulated_rows_exist_in_the_table() {
        let mut seen = std::collections::HashSet::new();
        for &(name, op) in SIMULATED {
            let opcode = Opcode::by_name(name)
                .unwrap_or_else(|| panic!("`{name}` is not a row of the instruction table"));
            assert!(seen.insert(name), "`{name}` listed twice");
            assert_eq!(of(opcode), op, "{name}");
        }
        assert_eq!(
            of(Opcode::by_name("trap").expect("trap row")),
            Op::Unsupported
        );
    }
}
