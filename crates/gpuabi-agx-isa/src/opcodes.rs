//! The instruction table: one row per instruction, in decoding priority order (the first
//! row whose fixed bits match decides, so aliases such as `imul`, `shl`, `pop_exec` and
//! `update_exec` come before the general rows they specialise). Encodings follow Mesa's
//! `src/asahi/isa/AGX2.xml` and Dougall Johnson's applegpu (`applegpu.py`).

use crate::def::{ImmDef, ModDef, ModKind, OpcodeDef, OperandDef};
use crate::effects::Effects;
use crate::encodings as enc;
use crate::enums;

const E: Effects = Effects::NONE;
const EXEC: Effects = Effects::EXEC;
const RD: Effects = Effects::MEM_READ;
const WR: Effects = Effects::MEM_WRITE;
const BR: Effects = Effects::BRANCH;
const SYNC: Effects = Effects::SYNC;
const XL: Effects = Effects::CROSS_LANE;

const fn flag(name: &'static str, bits: &'static str) -> ModDef {
    ModDef {
        name,
        display: name,
        bits,
        kind: ModKind::Flag,
    }
}

const fn choice(name: &'static str, bits: &'static str, e: &'static crate::def::EnumDef) -> ModDef {
    ModDef {
        name,
        display: name,
        bits,
        kind: ModKind::Enum(e),
    }
}

const fn op(enc: &'static crate::def::EncodingDef, bits: &'static str) -> OperandDef {
    OperandDef { enc, bits }
}

const fn imm(name: &'static str, bits: &'static str) -> ImmDef {
    ImmDef {
        name,
        bits,
        signed: false,
    }
}

// Shared fields. Negative positions are the extension bits at the end of the longest form.
const SAT: ModDef = ModDef {
    name: "saturate",
    display: "sat",
    bits: "6",
    kind: ModKind::Flag,
};
const WAITGROUP: ModDef = choice("group", "30", &enums::GROUP);
const COHERENCY: ModDef = choice("coherency", "44:45", &enums::COHERENT);
const SHIFT_MEM: ModDef = choice("shift", "42:43", &enums::SHIFT);
const SHIFT_ADD: ModDef = choice("shift", "39 52:53", &enums::SHIFT);
const FORMAT_DEV: ModDef = choice("format", "7:9 48", &enums::FORMAT);
const FORMAT_STACK: ModDef = choice("format", "8:9 50:51", &enums::FORMAT);
const FORMAT_LOCAL: ModDef = choice("format", "24:27", &enums::FORMAT);
const MASK_DEV: ModDef = choice("mask", "52:55", &enums::MASK);
const MASK_LOCAL: ModDef = choice("mask", "36:39", &enums::MASK);
const CACHE7: ModDef = flag("cache", "7");
const ICOND_CF: ModDef = choice("cond", "13:15 8", &enums::ICOND);
const FCOND_CF: ModDef = choice("cond", "13:15 8", &enums::FCOND);
const ICOND_SEL: ModDef = choice("condition", "61:63", &enums::ICOND);
const FCOND_SEL: ModDef = choice("condition", "61:63", &enums::FCOND);
const ICOND_BALLOT: ModDef = choice("condition", "61:63 47", &enums::ICOND);
const QUAD48: ModDef = choice("quad", "48", &enums::QUAD);
const ROUND: ModDef = choice("round", "26:27", &enums::ROUND);
const SR: ModDef = choice("sr", "16:21 26:27", &enums::SR);
const GROUP8: ModDef = choice("group", "8", &enums::GROUP);
const GROUP16: ModDef = choice("group", "16", &enums::GROUP);
const DIM_SMP: ModDef = choice("dim", "40:42 71", &enums::DIM);
const DIM_IMG: ModDef = choice("dim", "40:42 55", &enums::DIM);
const RTZ: ModDef = flag("rtz", "53");
const INTERP: ModDef = choice("interpolation", "48:49", &enums::INTERPOLATION);
const FWD: ModDef = flag("fwd", "22");
const ELIDE: ModDef = flag("elide", "46");
const KILL52: ModDef = flag("kill", "52");
const EXPLICIT23: ModDef = flag("explicit_coords", "23");
const EXPLICIT35: ModDef = flag("explicit_coords", "35");
const ATOMIC_OP_DEV: ModDef = choice("op", "6:9", &enums::ATOMIC);
const ATOMIC_OP_LOCAL: ModDef = choice("op", "24:27", &enums::ATOMIC);

const DEST1: OperandDef = op(&enc::DALU, "7:14 -4:-3");
const HDEST1: OperandDef = op(&enc::DHALF, "7:14 -4:-3");
const SRC1: OperandDef = op(&enc::ALU, "16:25 -6:-5");
const SRC2: OperandDef = op(&enc::ALU, "28:37 -8:-7");
const SRC3: OperandDef = op(&enc::ALU, "40:49 -10:-9");
const FSRC1: OperandDef = op(&enc::FLOAT, "16:27 -6:-5");
const FSRC2: OperandDef = op(&enc::FLOAT, "28:39 -8:-7");
const FSRC3: OperandDef = op(&enc::FLOAT, "40:51 -10:-9");
const HSRC1: OperandDef = op(&enc::HALF, "16:26 -6:-5");
const HSRC2: OperandDef = op(&enc::HALF, "28:38 -8:-7");
const HSRC3: OperandDef = op(&enc::HALF, "40:50 -10:-9");
const CMPSEL3: OperandDef = op(&enc::CMPSEL, "40:48 -10:-9 8");
const CMPSEL4: OperandDef = op(&enc::CMPSEL, "52:60 -12:-11 8");
const MEMDATA: OperandDef = op(&enc::MEMORY, "10:15 40:41 49 52:55");
const LOCALDATA: OperandDef = op(&enc::MEMORY, "9:14 60:61 8 36:39");
const MEMBASE: OperandDef = op(&enc::MEMBASE, "16:19 36:39 27");
const MEMINDEX: OperandDef = op(&enc::MEMINDEX, "20:23 32:35 56:63 24 25");
const LOCALBASE: OperandDef = op(&enc::LOCAL_MEMBASE, "16:21 58:59 22:23");
const LOCALINDEX: OperandDef = op(&enc::LOCAL_MEMINDEX, "28:33 48:57 34");
const DALU_BALLOT: OperandDef = op(&enc::DALU, "7:14 44:45");
const CF_SRC: OperandDef = op(&enc::CF, "16:21 58:59 23");
const ITER_SAMPLE: OperandDef = op(&enc::ITER_SAMPLE, "32:39 48:49");
const DITER: OperandDef = op(&enc::DITER, "8:14 56:57 30:31");
const STATE_BASE: OperandDef = op(&enc::UREG64_SHIFT2, "59:63");
const STATE_OFFSET: OperandDef = op(&enc::HEAP_OFFS, "26:56 58");
const IMG_HEAP: OperandDef = op(&enc::HEAP, "48:52 39");
const IMG_TEXTURE: OperandDef = op(&enc::TEXTURE, "32:37 62:63 38:39");
const IMG_COORD: OperandDef = op(&enc::COORD, "16:21 58:59 22 47");
const IMG_LOD: OperandDef = op(&enc::UVS, "24:29 60:61 31");
const TILE_COORD: OperandDef = op(&enc::TILECOORD, "16:21 58:59 55");
const TILE_SAMPLES: OperandDef = op(&enc::SAMPLES, "42:47 56:57 22");
const DISCARD_A: OperandDef = op(&enc::DISCARD, "9:14 24:25 8");

const NO_OPS: &[OperandDef] = &[];
const NO_IMMS: &[ImmDef] = &[];
const NO_MODS: &[&ModDef] = &[];

/// Fields every row sets; rows override what they use.
const ROW: OpcodeDef = OpcodeDef {
    name: "",
    display: "",
    lengths: &[2],
    length_bit: None,
    packed_long: false,
    exact: &[],
    dests: NO_OPS,
    srcs: NO_OPS,
    imms: NO_IMMS,
    mods: NO_MODS,
    effects: E,
};

/// Short/long forms selected by bit 15, the usual length bit.
const fn lengths_at_15(short: &'static [u32]) -> Option<u32> {
    if short.len() > 1 {
        Some(15)
    } else {
        None
    }
}

/// A row; fields not given take their values from `ROW`.
macro_rules! row {
    (
        $name:literal as $display:literal,
        [$($len:literal),+] $(@ $lbit:literal)?,
        { $($field:ident : $value:expr),* $(,)? }
    ) => {
        OpcodeDef {
            name: $name,
            display: $display,
            lengths: &[$($len),+],
            length_bit: row!(@lbit [$($len),+] $($lbit)?),
            $($field: $value,)*
            ..ROW
        }
    };
    (@lbit [$($len:literal),+]) => { lengths_at_15(&[$($len),+]) };
    (@lbit [$($len:literal),+] $lbit:literal) => { Some($lbit) };
}

const CONVERT_OPS: &[OperandDef] = &[op(&enc::ALU, "28:37 40:41")];
const INTUNOP_SRC: &[OperandDef] = &[op(&enc::ALU, "16:25 42:43")];

macro_rules! convert {
    ($name:literal, $mode:literal) => {
        row!($name as $name, [6], {
            exact: &[("0:6 15", 0b1011_1110), ("16:21", $mode), ("22:25 38:39 42:43", 0)],
            dests: &[DEST1], srcs: CONVERT_OPS, mods: &[&ROUND],
        })
    };
}

macro_rules! shift_bitfield {
    ($name:literal, $op:literal) => {
        row!($name as $name, [8], {
            exact: &[("0:6", 0b010_1110), ("15 26:27", $op)],
            dests: &[DEST1], srcs: &[SRC1, SRC2, SRC3],
            imms: &[imm("bitmask", "38:39 50:51 63")],
        })
    };
}

macro_rules! unbitop {
    ($name:literal, $op:literal) => {
        row!($name as $name, [6], {
            exact: &[("0:6", 0b111_1110), ("15", 0), ("28:37 40:41", 0), ("26:27 38:39", $op)],
            dests: &[DEST1], srcs: &[SRC1],
        })
    };
}

macro_rules! binbitop {
    ($name:literal, $op:literal) => {
        row!($name as $name, [6], {
            exact: &[("0:6", 0b111_1110), ("15", 0), ("26:27 38:39", $op)],
            dests: &[DEST1], srcs: &[SRC1, SRC2],
        })
    };
}

macro_rules! funop {
    ($name:literal, $op:literal, $effects:expr) => {
        row!($name as $name, [4, 6], {
            exact: &[("0:5", 0b00_1010), ("28:33", $op), ("34:41", 0)],
            dests: &[DEST1], srcs: &[FSRC1], mods: &[&SAT], effects: $effects,
        })
    };
}

macro_rules! barrier {
    ($name:literal, $a:literal, $b:literal, $c:literal) => {
        row!($name as $name, [2], {
            exact: &[("0:7", 0b1111_0101), ("8:9", $b), ("10:11", $a), ("12:15", $c)],
            effects: SYNC,
        })
    };
}

/// The table. (Rows that give every field still go through `row!`, hence the allow.)
#[allow(clippy::needless_update)]
pub static OPCODES: &[OpcodeDef] = &[
    row!("ldimm16" as "ldimm", [4, 6], {
        exact: &[("0:6 8", 0b0110_0010)], dests: &[DEST1], imms: &[imm("imm", "16:31")],
    }),
    row!("ldimm32" as "ldimm", [6, 8], {
        exact: &[("0:6 8", 0b1110_0010)], dests: &[DEST1], imms: &[imm("imm", "16:47")],
    }),
    row!("mfsr" as "mov", [4], {
        exact: &[("0:6 15", 0b0111_0010)], dests: &[DEST1], mods: &[&SR],
    }),
    row!("iadd" as "iadd", [8], {
        exact: &[("0:5 15", 0b000_1110), ("27", 0)],
        dests: &[op(&enc::DALU64, "7:14 44:45")],
        srcs: &[op(&enc::ADD, "16:26 42:43"), op(&enc::ADD, "28:38 40:41")],
        mods: &[&SHIFT_ADD, &SAT],
    }),
    row!("isub" as "isub", [8], {
        exact: &[("0:5 15", 0b000_1110), ("27", 1)],
        dests: &[op(&enc::DALU64, "7:14 44:45")],
        srcs: &[op(&enc::ADD, "16:26 42:43"), op(&enc::ADD, "28:38 40:41")],
        mods: &[&SHIFT_ADD, &SAT],
    }),
    row!("imul" as "imul", [8], {
        exact: &[("0:5 15", 0b001_1110), ("27 40:50 54:55 39 52:53", 0)],
        dests: &[op(&enc::DALU64, "7:14 60:61")],
        srcs: &[op(&enc::MUL, "16:26 58:59"), op(&enc::MUL, "28:38 56:57")],
        mods: &[&SAT],
    }),
    row!("imadd" as "imadd", [8], {
        exact: &[("0:5 15", 0b001_1110), ("27", 0)],
        dests: &[op(&enc::DALU64, "7:14 60:61")],
        srcs: &[
            op(&enc::MUL, "16:26 58:59"),
            op(&enc::MUL, "28:38 56:57"),
            op(&enc::ADD, "40:50 54:55"),
        ],
        mods: &[&SHIFT_ADD, &SAT],
    }),
    row!("imsub" as "imsub", [8], {
        exact: &[("0:5 15", 0b001_1110), ("27", 1)],
        dests: &[op(&enc::DALU64, "7:14 60:61")],
        srcs: &[
            op(&enc::MUL, "16:26 58:59"),
            op(&enc::MUL, "28:38 56:57"),
            op(&enc::ADD, "40:50 54:55"),
        ],
        mods: &[&SHIFT_ADD, &SAT],
    }),
    convert!("u8_to_f", 0b00_0000),
    convert!("s8_to_f", 0b00_0001),
    convert!("f_to_u16", 0b00_0100),
    convert!("f_to_s16", 0b00_0101),
    convert!("u16_to_f", 0b00_0110),
    convert!("s16_to_f", 0b00_0111),
    convert!("f_to_u32", 0b00_1000),
    convert!("f_to_s32", 0b00_1001),
    convert!("u32_to_f", 0b00_1010),
    convert!("s32_to_f", 0b00_1011),
    row!("shl" as "shl", [8], {
        exact: &[("0:6", 0b010_1110), ("15 26:27", 0b000), ("16:25 58:59 38:39 50:51 63", 0)],
        dests: &[DEST1], srcs: &[SRC2, SRC3],
    }),
    row!("shr" as "shr", [8], {
        exact: &[("0:6", 0b010_1110), ("15 26:27", 0b001), ("16:25 58:59 38:39 50:51 63", 0)],
        dests: &[DEST1], srcs: &[SRC2, SRC3],
    }),
    shift_bitfield!("bfi", 0b000),
    shift_bitfield!("bfeil", 0b001),
    shift_bitfield!("extr", 0b010),
    shift_bitfield!("shlhi", 0b100),
    shift_bitfield!("shrhi", 0b101),
    shift_bitfield!("asr", 0b011),
    shift_bitfield!("asrh", 0b111),
    row!("ffma" as "ffma", [6, 8], {
        exact: &[("0:5", 0b11_1010)], dests: &[DEST1], srcs: &[FSRC1, FSRC2, FSRC3], mods: &[&SAT],
    }),
    row!("hfma" as "hfma", [6, 8], {
        exact: &[("0:5", 0b11_0110)], dests: &[HDEST1], srcs: &[HSRC1, HSRC2, HSRC3], mods: &[&SAT],
    }),
    row!("fadd" as "fadd", [4, 6], {
        exact: &[("0:5", 0b10_1010)], dests: &[DEST1], srcs: &[FSRC1, FSRC2], mods: &[&SAT],
    }),
    row!("fmul" as "fmul", [4, 6], {
        exact: &[("0:5", 0b01_1010)], dests: &[DEST1], srcs: &[FSRC1, FSRC2], mods: &[&SAT],
    }),
    row!("hadd" as "hadd", [4, 6], {
        exact: &[("0:5", 0b10_0110)], dests: &[HDEST1], srcs: &[HSRC1, HSRC2], mods: &[&SAT],
    }),
    row!("hmul" as "hmul", [4, 6], {
        exact: &[("0:5", 0b01_0110)], dests: &[HDEST1], srcs: &[HSRC1, HSRC2], mods: &[&SAT],
    }),
    unbitop!("not_a", 0b1100),
    unbitop!("mov", 0b1010),
    unbitop!("not", 0b0101),
    unbitop!("mov_a", 0b0011),
    binbitop!("zero", 0b0000),
    binbitop!("and", 0b1000),
    binbitop!("andn1", 0b0100),
    binbitop!("andn2", 0b0010),
    binbitop!("xor", 0b0110),
    binbitop!("or", 0b1110),
    binbitop!("nor", 0b0001),
    binbitop!("xnor", 0b1001),
    binbitop!("orn1", 0b1101),
    binbitop!("orn2", 0b1011),
    binbitop!("nand", 0b0111),
    binbitop!("one", 0b1111),
    row!("bitrev" as "bitrev", [6], {
        exact: &[("0:6", 0b011_1110), ("15", 0), ("26:27", 0b01), ("28:39", 0)],
        dests: &[DEST1], srcs: INTUNOP_SRC,
    }),
    row!("popcnt" as "popcnt", [6], {
        exact: &[("0:6", 0b011_1110), ("15", 0), ("26:27", 0b10), ("28:39", 0)],
        dests: &[DEST1], srcs: INTUNOP_SRC,
    }),
    row!("ffs" as "ffs", [6], {
        exact: &[("0:6", 0b011_1110), ("15", 0), ("26:27", 0b11), ("28:39", 0)],
        dests: &[DEST1], srcs: INTUNOP_SRC,
    }),
    row!("intl" as "intl", [6], {
        exact: &[("0:6", 0b011_1110), ("15 26:27 38:39", 0)],
        dests: &[DEST1], srcs: &[op(&enc::ALU, "16:25 42:43"), op(&enc::ALU, "28:37 40:41")],
    }),
    funop!("floor", 0b00_0000, E),
    funop!("rsqrts", 0b00_0001, E),
    funop!("rcp", 0b00_1000, E),
    funop!("rsqrt", 0b00_1001, E),
    funop!("sinr", 0b00_1010, E),
    funop!("dfdx", 0b00_0100, XL),
    funop!("dfdy", 0b00_0110, XL),
    funop!("sinc", 0b00_1110, E),
    funop!("log2", 0b00_1100, E),
    funop!("exp2", 0b00_1101, E),
    funop!("ceil", 0b01_0000, E),
    funop!("trunc", 0b10_0000, E),
    funop!("rint", 0b11_0000, E),
    row!("stop" as "stop", [2], { exact: &[("0:15", 0x0088)], effects: Effects::STOP }),
    row!("trap" as "trap", [2], { exact: &[("0:15", 0x0008)], effects: Effects::TRAP }),
    row!("jmp_incomplete" as "jmp_incomplete", [4], {
        exact: &[("0:15 24:31", 0)], imms: &[imm("offset", "16:23")], effects: BR,
    }),
    row!("ret" as "ret", [2], {
        exact: &[("0:6", 0b001_0100)], srcs: &[op(&enc::EXREG32, "9:15")], effects: BR,
    }),
    row!("call_reg" as "call", [2], {
        exact: &[("0:6", 0b000_0100)], srcs: &[op(&enc::EXREG32, "9:15")], effects: BR,
    }),
    row!("jmp_any" as "jmp_any", [6], {
        exact: &[("0:15", 0xc000)],
        imms: &[ImmDef { name: "offset", bits: "16:47", signed: true }],
        effects: BR.union(Effects::READS_EXEC),
    }),
    row!("call" as "call", [6], {
        exact: &[("0:15", 0xc010)],
        imms: &[ImmDef { name: "offset", bits: "16:47", signed: true }],
        effects: BR,
    }),
    row!("jmp_none" as "jmp_none", [6], {
        exact: &[("0:15", 0xc020)],
        imms: &[ImmDef { name: "offset", bits: "16:47", signed: true }],
        effects: BR.union(Effects::READS_EXEC),
    }),
    row!("pop_exec" as "pop_exec", [6], {
        exact: &[("0:6", 0b101_0010), ("9:10", 0b11), ("13:47", 0)],
        imms: &[imm("nest", "11:12")], mods: &[&CACHE7], effects: EXEC,
    }),
    row!("if_icmp" as "if", [6], {
        exact: &[("0:6", 0b101_0010), ("9:10", 0b00), ("26:27 38:39 44:45", 0)],
        srcs: &[SRC1, SRC2],
        imms: &[imm("nest", "11:12")],
        mods: &[&CACHE7, &ICOND_CF],
        effects: EXEC,
    }),
    row!("else_icmp" as "else", [6], {
        exact: &[("0:6", 0b101_0010), ("9:10", 0b01), ("26:27 38:39 44:45", 0)],
        srcs: &[SRC1, SRC2],
        imms: &[imm("nest", "11:12")],
        mods: &[&CACHE7, &ICOND_CF],
        effects: EXEC,
    }),
    row!("while_icmp" as "while", [6], {
        exact: &[("0:6", 0b101_0010), ("9:10", 0b10), ("26:27 38:39 44:45", 0)],
        srcs: &[SRC1, SRC2],
        imms: &[imm("nest", "11:12")],
        mods: &[&CACHE7, &ICOND_CF],
        effects: EXEC,
    }),
    row!("update_exec" as "update_exec", [6], {
        exact: &[("0:6", 0b100_0010), ("8:45", 0)], mods: &[&CACHE7], effects: EXEC,
    }),
    row!("if_fcmp" as "if", [6], {
        exact: &[("0:6", 0b100_0010), ("9:10", 0b00), ("44:45", 0)],
        srcs: &[FSRC1, FSRC2],
        imms: &[imm("nest", "11:12")],
        mods: &[&CACHE7, &FCOND_CF],
        effects: EXEC,
    }),
    row!("else_fcmp" as "else", [6], {
        exact: &[("0:6", 0b100_0010), ("9:10", 0b01), ("44:45", 0)],
        srcs: &[FSRC1, FSRC2],
        imms: &[imm("nest", "11:12")],
        mods: &[&CACHE7, &FCOND_CF],
        effects: EXEC,
    }),
    row!("while_fcmp" as "while", [6], {
        exact: &[("0:6", 0b100_0010), ("9:10", 0b10), ("44:45", 0)],
        srcs: &[FSRC1, FSRC2],
        imms: &[imm("nest", "11:12")],
        mods: &[&CACHE7, &FCOND_CF],
        effects: EXEC,
    }),
    row!("icsel" as "csel", [8, 10], {
        exact: &[("0:6", 0b001_0010)],
        dests: &[DEST1], srcs: &[SRC1, SRC2, CMPSEL3, CMPSEL4], mods: &[&ICOND_SEL],
    }),
    row!("fcsel" as "csel", [8, 10], {
        exact: &[("0:6", 0b000_0010)],
        dests: &[DEST1], srcs: &[FSRC1, FSRC2, CMPSEL3, CMPSEL4], mods: &[&FCOND_SEL],
    }),
    row!("ballot" as "ballot", [8], {
        exact: &[("0:6", 0b011_0010), ("16 47 48", 0b111), ("17:25 28:37 49:63", 0)],
        dests: &[DALU_BALLOT], effects: Effects::READS_EXEC,
    }),
    row!("icmp_ballot" as "ballot", [8], {
        exact: &[("0:6", 0b011_0010), ("49:60", 0)],
        dests: &[DALU_BALLOT],
        srcs: &[op(&enc::ALU, "16:25 42:43"), op(&enc::ALU, "28:37 40:41")],
        mods: &[&QUAD48, &ICOND_BALLOT], effects: Effects::READS_EXEC,
    }),
    row!("fcmp_ballot" as "ballot", [8], {
        exact: &[("0:6", 0b010_0010), ("49:60", 0)],
        dests: &[DALU_BALLOT],
        srcs: &[op(&enc::FLOAT, "16:25 42:43"), op(&enc::FLOAT, "28:37 40:41")],
        mods: &[&QUAD48, &ICOND_BALLOT], effects: Effects::READS_EXEC,
    }),
    row!("shuffle" as "shuffle", [6], {
        exact: &[("0:6", 0b110_1111), ("15 27", 0)],
        dests: &[DEST1], srcs: &[SRC1, SRC2],
        mods: &[
            &choice("quad", "26", &enums::QUAD),
            &flag("rotate", "47"),
            &choice("op", "38:39", &enums::SHUFFLE_OP),
        ],
        effects: XL,
    }),
    row!("pixwait" as "pixwait", [4], {
        exact: &[("0:7", 0b0100_1000)], imms: &[imm("i", "8:17"), imm("j", "22:23")], effects: SYNC,
    }),
    row!("pixrel" as "pixrel", [4], {
        exact: &[("0:7", 0b0101_1000)], imms: &[imm("i", "8:17"), imm("j", "22:23")], effects: SYNC,
    }),
    row!("wait" as "wait", [2], {
        exact: &[("0:7", 0b0011_1000)], mods: &[&GROUP8], effects: SYNC,
    }),
    row!("no_var" as "no_var", [4], { exact: &[("0:9 22 31", 0b1000_0101_0001)], effects: WR }),
    row!("st_var" as "st_var", [4], {
        exact: &[("0:6", 0b001_0001), ("8:9 22", 0), ("31", 1)],
        srcs: &[op(&enc::EXREG32, "10:14 24:25"), op(&enc::UVS, "16:21 26:27 23")],
        mods: &[&flag("last", "7")], effects: WR,
    }),
    row!("load" as "load", [6, 8] @ 47, {
        exact: &[("0:6", 0b000_0101), ("26 46", 0b11)],
        dests: &[MEMDATA], srcs: &[MEMBASE, MEMINDEX],
        mods: &[&SHIFT_MEM, &FORMAT_DEV, &MASK_DEV, &COHERENCY, &WAITGROUP], effects: RD,
    }),
    row!("atomic" as "atomic", [8], {
        exact: &[("0:5", 0b01_0101), ("26 31 46", 0b111)],
        dests: &[op(&enc::ATOMIC_DEST, "10:15 40:41 47")],
        srcs: &[op(&enc::ATOMIC_SOURCE, "48:55 6:9"), MEMBASE, MEMINDEX],
        mods: &[&ATOMIC_OP_DEV, &COHERENCY, &WAITGROUP], effects: RD.union(WR),
    }),
    row!("latomic" as "latomic", [6, 10], {
        exact: &[("0:5", 0b01_1001), ("36 47", 0b11)],
        dests: &[op(&enc::LOCAL_ATOMIC_DEST, "9:14 60:61 38 8")],
        srcs: &[op(&enc::ATOMIC_SOURCE, "64:71 24:27"), LOCALBASE, LOCALINDEX],
        mods: &[&ATOMIC_OP_LOCAL], effects: RD.union(WR),
    }),
    row!("stack_load" as "stack_load", [6, 8] @ 47, {
        exact: &[("0:7", 0b0011_0101), ("26", 1), ("36:38", 0), ("44:46", 0b100)],
        dests: &[MEMDATA], srcs: &[MEMINDEX],
        mods: &[&SHIFT_MEM, &FORMAT_STACK, &MASK_DEV, &WAITGROUP], effects: RD,
    }),
    row!("stack_adjust" as "stack_adjust", [6, 8] @ 47, {
        packed_long: true,
        exact: &[("0:7", 0b1011_0101), ("16 26", 0b11), ("36:38", 0b010), ("44:46", 0)],
        srcs: &[MEMINDEX],
    }),
    row!("stack_store" as "stack_store", [6, 8] @ 47, {
        exact: &[("0:7", 0b1011_0101), ("26", 1), ("36:38", 0), ("44:46", 0b100)],
        srcs: &[MEMDATA, MEMINDEX],
        mods: &[&SHIFT_MEM, &FORMAT_STACK, &MASK_DEV, &WAITGROUP], effects: WR,
    }),
    row!("uniform_store" as "mov", [6, 8] @ 47, {
        exact: &[
            ("0:6", 0b100_0101), ("26:27", 0b11), ("28:29", 0b11), ("16:19 36:39 50:51", 0),
            ("7:9 48", 0b0001), ("24", 1), ("25 42:43 30", 0),
        ],
        dests: &[op(&enc::UNIFORM_DEST, "20:23 32:35 56:63 52:55")],
        srcs: &[op(&enc::UNIFORM_SRC, "10:15 40:41 52:55")],
    }),
    row!("uniform_store_unk" as "uniform_store_unk", [6, 8] @ 47, {
        exact: &[("0:6", 0b100_0101), ("26:27", 0b11), ("28:29", 0b11), ("16:19 36:39 50:51", 0)],
        srcs: &[MEMDATA, MEMINDEX],
        mods: &[&SHIFT_MEM, &FORMAT_DEV, &MASK_DEV, &WAITGROUP],
    }),
    row!("tex_state_store" as "load", [8], {
        exact: &[("0:7 20", 0b1_1110_1101)],
        dests: &[op(&enc::TS, "8:14")],
        srcs: &[STATE_BASE, STATE_OFFSET],
        mods: &[&GROUP16],
        effects: RD,
    }),
    row!("sampler_state_store" as "load", [8], {
        exact: &[("0:7 20", 0b1_1010_1101)],
        dests: &[op(&enc::SS, "8:14")],
        srcs: &[STATE_BASE, STATE_OFFSET],
        mods: &[&GROUP16],
        effects: RD,
    }),
    row!("store" as "store", [6, 8] @ 47, {
        exact: &[("0:6", 0b100_0101), ("26 46", 0b11)],
        srcs: &[MEMDATA, MEMBASE, MEMINDEX],
        mods: &[&SHIFT_MEM, &FORMAT_DEV, &MASK_DEV, &COHERENCY, &WAITGROUP], effects: WR,
    }),
    row!("lload" as "lload", [6, 8], {
        packed_long: true,
        exact: &[("0:6", 0b110_1001)],
        dests: &[LOCALDATA],
        srcs: &[LOCALBASE, LOCALINDEX],
        mods: &[&FORMAT_LOCAL, &MASK_LOCAL],
        effects: RD,
    }),
    row!("lstore" as "lstore", [6, 8], {
        packed_long: true,
        exact: &[("0:6", 0b010_1001)],
        srcs: &[LOCALDATA, LOCALBASE, LOCALINDEX], mods: &[&FORMAT_LOCAL, &MASK_LOCAL], effects: WR,
    }),
    row!("barrier" as "barrier", [2], { exact: &[("0:7", 0b0110_1000)], effects: SYNC }),
    row!("doorbell" as "doorbell", [2], {
        exact: &[("0:7", 0b0010_1000)], imms: &[imm("imm", "8:15")],
    }),
    row!("jmp_if_skipping_doorbell" as "jmp_if_skipping_doorbell", [4], {
        exact: &[("0:15", 0x0020), ("24:31", 0)], imms: &[imm("offset", "16:23")], effects: BR,
    }),
    row!("unmap" as "unmap", [8], {
        exact: &[
            ("0:7", 0b0111_0101), ("47", 1), ("16:19", 0b0000), ("24:25", 0b01),
            ("10 27:29 31", 0), ("8:9 30 37:39", 0), ("26", 1),
            ("42:46", 0b1_0000), ("48:55", 0b0001_0000),
        ],
        srcs: &[op(&enc::EXREG32, "11:15 40:41")],
        imms: &[imm("target", "36"), imm("v", "20:23 32:35 56:63")],
    }),
    row!("map" as "map", [8], {
        exact: &[
            ("0:7", 0b0111_0101), ("47", 1), ("16:19", 0b0001), ("24:25", 0b01),
            ("10 27:29 31", 0), ("8:9 30 37:39", 0), ("26", 1),
            ("42:46", 0b1_0000), ("48:55", 0b0001_0000),
        ],
        srcs: &[op(&enc::EXREG32, "11:15 40:41")],
        imms: &[imm("target", "36"), imm("v", "20:23 32:35 56:63")],
    }),
    barrier!("memory_barrier", 0b01, 0b10, 0b1001),
    barrier!("image_barrier_1", 0b10, 0b10, 0b1010),
    barrier!("image_barrier_2", 0b11, 0b10, 0b1010),
    barrier!("image_barrier_3", 0b10, 0b01, 0b1010),
    barrier!("image_barrier_4", 0b11, 0b01, 0b1010),
    barrier!("flush_memory_to_texture", 0b00, 0b00, 0b0100),
    barrier!("memory_barrier_2", 0b10, 0b10, 0b1001),
    barrier!("memory_barrier_3", 0b10, 0b01, 0b1001),
    barrier!("unknown_barrier_1", 0b00, 0b11, 0b0011),
    barrier!("unknown_barrier_2", 0b00, 0b11, 0b0000),
    barrier!("device_barrier_1", 0b11, 0b01, 0b1001),
    barrier!("device_barrier_2", 0b11, 0b10, 0b1001),
    row!("quad" as "quad", [6], {
        exact: &[("0:7", 0b0110_1111), ("15", 1), ("26:27 31:37 41", 0), ("29", 0)],
        dests: &[DEST1], srcs: &[SRC1],
        mods: &[&flag("prefix", "30"), &choice("op", "28 38:40 47", &enums::SUBOP)], effects: XL,
    }),
    row!("simd" as "simd", [6], {
        exact: &[("0:7", 0b0110_1111), ("15", 1), ("26:27 31:37 41", 0), ("29", 1)],
        dests: &[DEST1], srcs: &[SRC1],
        mods: &[&flag("prefix", "30"), &choice("op", "28 38:40 47", &enums::SUBOP)], effects: XL,
    }),
    row!("ld_tile" as "ld_tile", [8, 10], {
        exact: &[("0:6", 0b100_1001), ("35", 1)],
        dests: &[LOCALDATA], srcs: &[TILE_COORD, TILE_SAMPLES],
        imms: &[imm("offset", "28:34 40:41")], mods: &[&FORMAT_LOCAL, &MASK_LOCAL], effects: RD,
    }),
    row!("st_tile" as "st_tile", [8, 10], {
        exact: &[("0:6", 0b000_1001)],
        srcs: &[LOCALDATA, TILE_COORD, TILE_SAMPLES],
        imms: &[imm("offset", "28:34 40:41")],
        mods: &[&EXPLICIT35, &FORMAT_LOCAL, &MASK_LOCAL],
        effects: WR,
    }),
    row!("sample_mask" as "sample_mask", [4], {
        exact: &[("0:7", 0b1100_0001), ("15", 0)],
        srcs: &[DISCARD_A, op(&enc::DISCARD, "16:21 26:27 23")], effects: WR,
    }),
    row!("zs_emit" as "zs_emit", [4], {
        exact: &[("0:7", 0b0100_0001), ("15 22:23", 0)],
        srcs: &[DISCARD_A, op(&enc::ZS, "16:21 26:27 29 30")], effects: WR,
    }),
    row!("iter" as "iter", [4, 8], {
        packed_long: true,
        exact: &[("0:7", 0b0010_0001)],
        dests: &[DITER], srcs: &[CF_SRC, ITER_SAMPLE],
        mods: &[&FWD, &ELIDE, &INTERP, &KILL52], effects: RD,
    }),
    row!("iterproj" as "iter", [4, 8], {
        packed_long: true,
        exact: &[("0:7", 0b0110_0001)],
        dests: &[DITER], srcs: &[CF_SRC, op(&enc::CF_PERSPECTIVE, "24:29 60:61"), ITER_SAMPLE],
        mods: &[&FWD, &ELIDE, &INTERP, &KILL52], effects: RD,
    }),
    row!("ldcf" as "ldcf", [4, 8], {
        packed_long: true,
        exact: &[("0:7", 0b1010_0001)],
        dests: &[op(&enc::DLDCF, "8:14 56:57 30:31")], srcs: &[CF_SRC, ITER_SAMPLE], effects: RD,
    }),
    row!("smpf" as "smpf", [8, 12], {
        exact: &[("0:5 7", 0b011_0001), ("6", 0), ("45:46", 0b11)],
        dests: &[SMP_DEST], srcs: SMP_SRCS, mods: SMP_MODS, effects: RD,
    }),
    row!("smpi" as "smpi", [8, 12], {
        exact: &[("0:5 7", 0b011_0001), ("6", 1), ("45:46", 0b11)],
        dests: &[SMP_DEST], srcs: SMP_SRCS, mods: SMP_MODS, effects: RD,
    }),
    row!("imgw" as "imgw", [6, 8], {
        exact: &[("0:7", 0b1111_0001), ("23 43 46", 0b111)],
        srcs: &[op(&enc::PBE_SOURCE, "9:14 56:57 8"), IMG_HEAP, IMG_TEXTURE, IMG_COORD, IMG_LOD],
        mods: &[&DIM_IMG, &RTZ, &COHERENCY], effects: WR,
    }),
    row!("imgwblk" as "imgwblk", [6, 10], {
        exact: &[("0:7", 0b1011_0001), ("68:77", 0), ("43 46 67", 0b111)],
        srcs: &[op(&enc::EXREG16, "9:14 56:57"), IMG_HEAP, IMG_TEXTURE, IMG_COORD, IMG_LOD],
        mods: &[&EXPLICIT23, &DIM_IMG, &choice("format", "8 64:66", &enums::FORMAT), &RTZ],
        effects: WR,
    }),
];

const SMP_DEST: OperandDef = op(&enc::MEMORY, "9:14 72:73 8 48:51");
const SMP_SRCS: &[OperandDef] = &[
    op(&enc::HEAP, "64:68 39"),
    op(&enc::TEXTURE, "32:37 78:79 38:39"),
    op(&enc::SAMPLER, "56:61 92:93 62"),
    op(&enc::COORD, "16:21 74:75 22 47"),
    op(&enc::LOD, "24:29 76:77 52:55"),
    op(&enc::ZS, "80:85 94:95 23 91"),
];
const SMP_MODS: &[&ModDef] = &[
    &flag("shadow", "23"),
    &flag("query_lod", "31"),
    &flag("rw", "43"),
    &flag("coherent", "44"),
    &flag("sparse", "70"),
    &flag("kill", "69"),
    &DIM_SMP,
    &MASK_SMP,
    &choice("lod_type", "52:55", &enums::LOD_TYPE),
    &choice("gather", "87:90", &enums::GATHER),
    &choice("group", "63", &enums::GROUP),
];
const MASK_SMP: ModDef = choice("mask", "48:51", &enums::MASK);
