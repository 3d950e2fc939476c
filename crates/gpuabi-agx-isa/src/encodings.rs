//! Operand encodings: how an operand field's bits select a register, uniform, immediate or
//! slot, with its size, count and modifiers. Positions are within the operand field; the
//! cases of each encoding are tried in order and the first whose fixed bits match decides,
//! as in Mesa's `src/asahi/isa/AGX2.xml` (`<encoding>` elements) and `test/disasm.py`.

use crate::def::{CaseDef, EncodingDef, OpMod, ValueDef, ValueKind};

const CASE: CaseDef = CaseDef {
    exact: &[],
    value: None,
    mods: &[],
    size: None,
    count: None,
};

const fn val(kind: ValueKind, bits: &'static str) -> Option<ValueDef> {
    Some(ValueDef {
        kind,
        bits,
        shift: 0,
        signed: false,
    })
}

const fn val_shift(kind: ValueKind, bits: &'static str, shift: u32) -> Option<ValueDef> {
    Some(ValueDef {
        kind,
        bits,
        shift,
        signed: false,
    })
}

const fn signed(bits: &'static str) -> Option<ValueDef> {
    Some(ValueDef {
        kind: ValueKind::Imm,
        bits,
        shift: 0,
        signed: true,
    })
}

use OpMod::*;
use ValueKind::{Cf, FImm, Imm, Reg, Ss, Ts, Uniform};

const fn single(name: &'static str, common: CaseDef) -> EncodingDef {
    EncodingDef {
        name,
        common,
        cases: &[],
    }
}

/// Destination of an iterator: size bit, register, count (0 = 4).
pub static DITER: EncodingDef = single(
    "iterator destination",
    CaseDef {
        value: val(Reg, "1:8"),
        mods: &[(Size32, "0"), (Count, "9:10")],
        ..CASE
    },
);

/// Destination of `ldcf`: always three registers.
pub static DLDCF: EncodingDef = single(
    "coefficient destination",
    CaseDef {
        exact: &[("9:10", 0b01)],
        value: val(Reg, "1:8"),
        mods: &[(Size32, "0")],
        count: Some(3),
        ..CASE
    },
);

/// ALU destination: cache bit, size bit, register.
pub static DALU: EncodingDef = single(
    "ALU destination",
    CaseDef {
        value: val(Reg, "2:9"),
        mods: &[(Cache, "0"), (Size32, "1")],
        ..CASE
    },
);

/// 16-bit ALU destination.
pub static DHALF: EncodingDef = single(
    "16-bit ALU destination",
    CaseDef {
        exact: &[("1", 0)],
        value: val(Reg, "2:9"),
        mods: &[(Cache, "0")],
        ..CASE
    },
);

/// Integer ALU destination of 16, 32 or 64 bits.
pub static DALU64: EncodingDef = EncodingDef {
    name: "integer destination",
    common: CaseDef {
        mods: &[(Cache, "0")],
        ..CASE
    },
    cases: &[
        CaseDef {
            exact: &[("1:2", 0b11)],
            value: val_shift(Reg, "3:9", 1),
            size: Some(64),
            ..CASE
        },
        CaseDef {
            exact: &[("1:2", 0b01)],
            value: val_shift(Reg, "3:9", 1),
            size: Some(32),
            ..CASE
        },
        CaseDef {
            exact: &[("1", 0)],
            value: val(Reg, "2:9"),
            size: Some(16),
            ..CASE
        },
    ],
};

/// Texture state slot.
pub static TS: EncodingDef = single(
    "texture state",
    CaseDef {
        value: val(Ts, "0:7"),
        ..CASE
    },
);

/// Sampler state slot.
pub static SS: EncodingDef = single(
    "sampler state",
    CaseDef {
        value: val(Ss, "0:7"),
        ..CASE
    },
);

const UNIFORM_CASES_AT_16: &[CaseDef] = &[
    CaseDef {
        exact: &[("16:19", 0b1111), ("0", 0)],
        size: Some(64),
        ..CASE
    },
    CaseDef {
        exact: &[("16:19", 0b0011), ("0", 0)],
        size: Some(32),
        ..CASE
    },
    CaseDef {
        exact: &[("16:19", 0b1111)],
        count: Some(4),
        ..CASE
    },
    CaseDef {
        exact: &[("16:19", 0b0111)],
        count: Some(3),
        ..CASE
    },
    CaseDef {
        exact: &[("16:19", 0b0011)],
        count: Some(2),
        ..CASE
    },
    CaseDef {
        exact: &[("16:19", 0b0001)],
        ..CASE
    },
];

/// Destination of a store to uniform registers: the halves written select the size/count.
pub static UNIFORM_DEST: EncodingDef = EncodingDef {
    name: "uniform destination",
    common: CaseDef {
        value: val(Uniform, "0:15"),
        ..CASE
    },
    cases: UNIFORM_CASES_AT_16,
};

const UNIFORM_CASES_AT_8: &[CaseDef] = &[
    CaseDef {
        exact: &[("8:11", 0b1111), ("0", 0)],
        size: Some(64),
        ..CASE
    },
    CaseDef {
        exact: &[("8:11", 0b0011), ("0", 0)],
        size: Some(32),
        ..CASE
    },
    CaseDef {
        exact: &[("8:11", 0b1111)],
        count: Some(4),
        ..CASE
    },
    CaseDef {
        exact: &[("8:11", 0b0111)],
        count: Some(3),
        ..CASE
    },
    CaseDef {
        exact: &[("8:11", 0b0011)],
        count: Some(2),
        ..CASE
    },
    CaseDef {
        exact: &[("8:11", 0b0001)],
        ..CASE
    },
];

/// Source register of a store to uniform registers.
pub static UNIFORM_SRC: EncodingDef = EncodingDef {
    name: "uniform-store source",
    common: CaseDef {
        value: val(Reg, "0:7"),
        ..CASE
    },
    cases: UNIFORM_CASES_AT_8,
};

/// Texture coordinates: 32- or 16-bit registers, with the last-use bit (`^`).
pub static COORD: EncodingDef = EncodingDef {
    name: "coordinates",
    common: CaseDef {
        value: val(Reg, "0:7"),
        mods: &[(LastUse, "8")],
        ..CASE
    },
    cases: &[
        CaseDef {
            exact: &[("9", 0)],
            size: Some(32),
            ..CASE
        },
        CaseDef {
            exact: &[("9", 1)],
            size: Some(16),
            ..CASE
        },
    ],
};

/// Level of detail (or gradients) of a texture sample; the low bits of the type select.
pub static LOD: EncodingDef = EncodingDef {
    name: "level of detail",
    common: CASE,
    cases: &[
        CaseDef {
            exact: &[("0:11", 0)],
            value: val(Imm, "0"),
            ..CASE
        },
        CaseDef {
            exact: &[("8:11", 0b0100)],
            value: val(Reg, "0:7"),
            size: Some(32),
            count: Some(2),
            ..CASE
        },
        CaseDef {
            exact: &[("8:11", 0b1100)],
            value: val(Reg, "0:7"),
            size: Some(16),
            count: Some(5),
            ..CASE
        },
        CaseDef {
            exact: &[("8:11", 0b0010)],
            value: val(Uniform, "0:7"),
            ..CASE
        },
        CaseDef {
            exact: &[("8:11", 0b0001)],
            value: val(Uniform, "0:7"),
            ..CASE
        },
        CaseDef {
            exact: &[("8:11", 0b1001)],
            value: val(Uniform, "0:7"),
            count: Some(2),
            ..CASE
        },
        CaseDef {
            exact: &[("8:11", 0b1101)],
            value: val(Reg, "0:7"),
            count: Some(2),
            ..CASE
        },
        CaseDef {
            exact: &[("8:11", 0b0110)],
            value: val(Reg, "0:7"),
            ..CASE
        },
        CaseDef {
            exact: &[("8:11", 0b0101)],
            value: val(Reg, "0:7"),
            ..CASE
        },
    ],
};

/// 64-bit uniform, field in units of 64 bits.
pub static UREG64_SHIFT2: EncodingDef = single(
    "64-bit uniform",
    CaseDef {
        value: val_shift(Uniform, "0:6", 2),
        size: Some(64),
        ..CASE
    },
);

/// 16-bit register.
pub static EXREG16: EncodingDef = single(
    "16-bit register",
    CaseDef {
        value: val(Reg, "0:7"),
        ..CASE
    },
);

/// 32-bit register, field in units of 32 bits.
pub static EXREG32: EncodingDef = single(
    "32-bit register",
    CaseDef {
        value: val_shift(Reg, "0:7", 1),
        size: Some(32),
        ..CASE
    },
);

/// Descriptor-heap offset: a 32-bit register or a 31-bit immediate.
pub static HEAP_OFFS: EncodingDef = EncodingDef {
    name: "heap offset",
    common: CASE,
    cases: &[
        CaseDef {
            exact: &[("31", 0)],
            value: val(Reg, "0:8"),
            size: Some(32),
            ..CASE
        },
        CaseDef {
            exact: &[("31", 1)],
            value: val(Imm, "0:30"),
            size: Some(32),
            ..CASE
        },
    ],
};

/// Result register of a device atomic, or none.
pub static ATOMIC_DEST: EncodingDef = EncodingDef {
    name: "atomic destination",
    common: CASE,
    cases: &[
        CaseDef {
            exact: &[("8", 1)],
            value: val(Reg, "0:7"),
            size: Some(32),
            ..CASE
        },
        CaseDef {
            exact: &[("0:8", 0)],
            ..CASE
        },
    ],
};

/// Result register of a threadgroup atomic, or none.
pub static LOCAL_ATOMIC_DEST: EncodingDef = EncodingDef {
    name: "threadgroup atomic destination",
    common: CASE,
    cases: &[
        CaseDef {
            exact: &[("8:9", 0b11)],
            value: val(Reg, "0:7"),
            size: Some(32),
            ..CASE
        },
        CaseDef {
            exact: &[("0:8", 0)],
            ..CASE
        },
    ],
};

/// Data of an atomic: two registers for compare-and-exchange (operation code 3 in the
/// high bits), one otherwise.
pub static ATOMIC_SOURCE: EncodingDef = EncodingDef {
    name: "atomic source",
    common: CaseDef {
        value: val(Reg, "0:7"),
        size: Some(32),
        ..CASE
    },
    cases: &[
        CaseDef {
            exact: &[("8:11", 0b0011)],
            count: Some(2),
            ..CASE
        },
        CaseDef {
            count: Some(1),
            ..CASE
        },
    ],
};

/// Data registers of a memory access: register, size bit and channel mask.
pub static MEMORY: EncodingDef = single(
    "memory data",
    CaseDef {
        value: val(Reg, "0:7"),
        mods: &[(Size32, "8"), (Mask, "9:12")],
        ..CASE
    },
);

/// A register or an 8-bit immediate.
pub static UVS: EncodingDef = EncodingDef {
    name: "register or immediate",
    common: CASE,
    cases: &[
        CaseDef {
            exact: &[("8", 0)],
            value: val(Reg, "0:7"),
            ..CASE
        },
        CaseDef {
            exact: &[("8", 1)],
            value: val(Imm, "0:7"),
            ..CASE
        },
    ],
};

/// Coefficient register, or a register holding its index.
pub static CF: EncodingDef = EncodingDef {
    name: "coefficient register",
    common: CASE,
    cases: &[
        CaseDef {
            exact: &[("8", 0)],
            value: val(Cf, "0:7"),
            ..CASE
        },
        CaseDef {
            exact: &[("8", 1)],
            value: val(Reg, "0:7"),
            ..CASE
        },
    ],
};

/// Coefficient register of the perspective divisor.
pub static CF_PERSPECTIVE: EncodingDef = single(
    "perspective coefficient register",
    CaseDef {
        value: val(Cf, "0:7"),
        ..CASE
    },
);

/// Sample index of an iterator: a register, an immediate, or none.
pub static ITER_SAMPLE: EncodingDef = EncodingDef {
    name: "iterator sample",
    common: CASE,
    cases: &[
        CaseDef {
            exact: &[("8:9", 0b11)],
            value: val(Reg, "0:7"),
            ..CASE
        },
        CaseDef {
            exact: &[("8:9", 0b01)],
            value: val(Imm, "0:7"),
            ..CASE
        },
        CaseDef {
            exact: &[("8", 0), ("0:7", 0)],
            ..CASE
        },
    ],
};

/// Four colour registers of an image write, 16 or 32 bits each.
pub static PBE_SOURCE: EncodingDef = EncodingDef {
    name: "image data",
    common: CaseDef {
        value: val(Reg, "0:7"),
        count: Some(4),
        ..CASE
    },
    cases: &[
        CaseDef {
            exact: &[("8", 0)],
            size: Some(16),
            ..CASE
        },
        CaseDef {
            exact: &[("8", 1)],
            size: Some(32),
            ..CASE
        },
    ],
};

/// 64-bit base address of a device access: register pair or uniform pair.
pub static MEMBASE: EncodingDef = EncodingDef {
    name: "memory base",
    common: CASE,
    cases: &[
        CaseDef {
            exact: &[("0", 0), ("8", 0)],
            value: val_shift(Reg, "1:7", 1),
            size: Some(64),
            ..CASE
        },
        CaseDef {
            exact: &[("0", 0), ("8", 1)],
            value: val_shift(Uniform, "1:7", 1),
            size: Some(64),
            ..CASE
        },
    ],
};

/// Base of a threadgroup access: register, none (zero) or uniform.
pub static LOCAL_MEMBASE: EncodingDef = EncodingDef {
    name: "threadgroup base",
    common: CASE,
    cases: &[
        CaseDef {
            exact: &[("8:9", 0b00)],
            value: val(Reg, "0:7"),
            ..CASE
        },
        CaseDef {
            exact: &[("8:9", 0b10), ("0:7", 0)],
            ..CASE
        },
        CaseDef {
            exact: &[("8", 1)],
            value: val(Uniform, "0:7 9"),
            ..CASE
        },
    ],
};

/// Index of a device access: 32-bit register (sign- or zero-extended) or 16-bit immediate.
pub static MEMINDEX: EncodingDef = EncodingDef {
    name: "memory index",
    common: CASE,
    cases: &[
        CaseDef {
            exact: &[("0 8:16", 0)],
            value: val_shift(Reg, "1:7", 1),
            size: Some(32),
            mods: &[(Zx, "17")],
            ..CASE
        },
        CaseDef {
            exact: &[("16", 1), ("17", 0)],
            value: signed("0:15"),
            ..CASE
        },
        CaseDef {
            exact: &[("16", 1), ("17", 1)],
            value: val(Imm, "0:15"),
            ..CASE
        },
    ],
};

/// Index of a threadgroup access: register or signed 16-bit immediate.
pub static LOCAL_MEMINDEX: EncodingDef = EncodingDef {
    name: "threadgroup index",
    common: CASE,
    cases: &[
        CaseDef {
            exact: &[("8:16", 0)],
            value: val(Reg, "0:7"),
            ..CASE
        },
        CaseDef {
            exact: &[("16", 1)],
            value: signed("0:15"),
            ..CASE
        },
    ],
};

/// Third and fourth sources of `csel`.
pub static CMPSEL: EncodingDef = EncodingDef {
    name: "select source",
    common: CASE,
    cases: &[
        CaseDef {
            exact: &[("6:8", 0b100)],
            value: val(Imm, "0:5 9:10"),
            ..CASE
        },
        CaseDef {
            exact: &[("8", 0)],
            value: val(Reg, "0:5 9:10"),
            mods: &[(Hint, "6:7"), (Size32, "11")],
            ..CASE
        },
        CaseDef {
            exact: &[("7:8", 0b11)],
            value: val(Uniform, "0:5 9:10 6"),
            mods: &[(Size32, "11")],
            ..CASE
        },
    ],
};

/// ALU source: immediate, uniform or register.
pub static ALU: EncodingDef = EncodingDef {
    name: "ALU source",
    common: CASE,
    cases: &[
        CaseDef {
            exact: &[("6:9", 0)],
            value: val(Imm, "0:5 10:11"),
            ..CASE
        },
        CaseDef {
            exact: &[("8:9", 0b01)],
            value: val(Uniform, "0:5 10:11 6"),
            mods: &[(Size32, "7")],
            ..CASE
        },
        CaseDef {
            exact: &[("8", 0)],
            value: val(Reg, "0:5 10:11"),
            mods: &[(Hint, "6:7"), (Size32, "9")],
            ..CASE
        },
    ],
};

/// Multiplier source: like ALU sources with a sign-extension bit.
pub static MUL: EncodingDef = EncodingDef {
    name: "multiplier source",
    common: CaseDef {
        mods: &[(Sx, "10")],
        ..CASE
    },
    cases: &[
        CaseDef {
            exact: &[("6:9", 0)],
            value: val(Imm, "0:5 11:12"),
            ..CASE
        },
        CaseDef {
            exact: &[("8:9", 0b01)],
            value: val(Uniform, "0:5 11:12 6"),
            mods: &[(Size32, "7")],
            ..CASE
        },
        CaseDef {
            exact: &[("8", 0)],
            value: val(Reg, "0:5 11:12"),
            mods: &[(Hint, "6:7"), (Size32, "9")],
            ..CASE
        },
    ],
};

/// Adder source: like multiplier sources, registers may be 64-bit pairs.
pub static ADD: EncodingDef = EncodingDef {
    name: "adder source",
    common: CaseDef {
        mods: &[(Sx, "10")],
        ..CASE
    },
    cases: &[
        CaseDef {
            exact: &[("6:9", 0)],
            value: val(Imm, "0:5 11:12"),
            ..CASE
        },
        CaseDef {
            exact: &[("8:9", 0b01)],
            value: val(Uniform, "0:5 11:12 6"),
            mods: &[(Size32, "7")],
            ..CASE
        },
        CaseDef {
            value: val(Reg, "0:5 11:12"),
            mods: &[(Hint, "6:7"), (Size64, "8"), (Size32, "9")],
            ..CASE
        },
    ],
};

/// 32-bit float source: float immediate, uniform or register, with `.abs`/`.neg`.
pub static FLOAT: EncodingDef = EncodingDef {
    name: "float source",
    common: CaseDef {
        mods: &[(Abs, "10"), (Neg, "11")],
        ..CASE
    },
    cases: &[
        CaseDef {
            exact: &[("6:9", 0)],
            value: val(FImm, "0:5 12:13"),
            ..CASE
        },
        CaseDef {
            exact: &[("8:9", 0b01)],
            value: val(Uniform, "0:5 12:13 6"),
            mods: &[(Size32, "7")],
            ..CASE
        },
        CaseDef {
            exact: &[("8", 0)],
            value: val(Reg, "0:5 12:13"),
            mods: &[(Hint, "6:7"), (Size32, "9")],
            ..CASE
        },
    ],
};

/// 16-bit float source.
pub static HALF: EncodingDef = EncodingDef {
    name: "half source",
    common: CaseDef {
        mods: &[(Abs, "9"), (Neg, "10")],
        ..CASE
    },
    cases: &[
        CaseDef {
            exact: &[("6:10", 0)],
            value: val(FImm, "0:5 11:12"),
            ..CASE
        },
        CaseDef {
            exact: &[("8", 1), ("7", 0)],
            value: val(Uniform, "0:5 11:12 6"),
            ..CASE
        },
        CaseDef {
            exact: &[("8", 0)],
            value: val(Reg, "0:5 11:12"),
            mods: &[(Hint, "6:7")],
            ..CASE
        },
    ],
};

/// Register or immediate with the selector bit set for immediates.
pub static DISCARD: EncodingDef = EncodingDef {
    name: "register or immediate",
    common: CASE,
    cases: &[
        CaseDef {
            exact: &[("8", 0)],
            value: val(Reg, "0:7"),
            ..CASE
        },
        CaseDef {
            exact: &[("8", 1)],
            value: val(Imm, "0:7"),
            ..CASE
        },
    ],
};

/// Sample selector of tile accesses: register or immediate mask.
pub static SAMPLES: EncodingDef = EncodingDef {
    name: "samples",
    common: CASE,
    cases: &[
        CaseDef {
            exact: &[("8", 1)],
            value: val(Reg, "0:7"),
            ..CASE
        },
        CaseDef {
            exact: &[("8", 0)],
            value: val(Imm, "0:7"),
            ..CASE
        },
    ],
};

/// Tile coordinates: immediate, or a register pair of explicit coordinates.
pub static TILECOORD: EncodingDef = EncodingDef {
    name: "tile coordinates",
    common: CASE,
    cases: &[
        CaseDef {
            exact: &[("8", 0)],
            value: val(Imm, "0:7"),
            ..CASE
        },
        CaseDef {
            exact: &[("8", 1)],
            value: val(Reg, "0:7"),
            count: Some(2),
            ..CASE
        },
    ],
};

/// Depth/stencil registers (or compare/offset registers of a sample).
pub static ZS: EncodingDef = EncodingDef {
    name: "depth/stencil",
    common: CASE,
    cases: &[
        CaseDef {
            exact: &[("0:9", 0)],
            ..CASE
        },
        CaseDef {
            exact: &[("8:9", 0b01)],
            value: val(Reg, "0:7"),
            size: Some(32),
            ..CASE
        },
        CaseDef {
            exact: &[("8:9", 0b10)],
            value: val(Reg, "0:7"),
            ..CASE
        },
        CaseDef {
            exact: &[("8:9", 0b11)],
            value: val(Reg, "0:7"),
            count: Some(3),
            ..CASE
        },
    ],
};

/// Descriptor heap of a texture access: none, or a 64-bit uniform.
pub static HEAP: EncodingDef = EncodingDef {
    name: "descriptor heap",
    common: CASE,
    cases: &[
        CaseDef {
            exact: &[("0:5", 0)],
            ..CASE
        },
        CaseDef {
            exact: &[("5", 1)],
            value: val_shift(Uniform, "0:4", 2),
            size: Some(64),
            ..CASE
        },
    ],
};

/// Texture: state slot, register, immediate or 32-bit bindless offset.
pub static TEXTURE: EncodingDef = EncodingDef {
    name: "texture",
    common: CASE,
    cases: &[
        CaseDef {
            exact: &[("8:9", 0b00)],
            value: val(Ts, "0:7"),
            ..CASE
        },
        CaseDef {
            exact: &[("8:9", 0b01)],
            value: val(Reg, "0:7"),
            ..CASE
        },
        CaseDef {
            exact: &[("8:9", 0b10)],
            value: val(Imm, "0:7"),
            ..CASE
        },
        CaseDef {
            exact: &[("8:9", 0b11)],
            value: val(Reg, "0:7"),
            size: Some(32),
            ..CASE
        },
    ],
};

/// Sampler: state slot or register.
pub static SAMPLER: EncodingDef = EncodingDef {
    name: "sampler",
    common: CASE,
    cases: &[
        CaseDef {
            exact: &[("8", 0)],
            value: val(Ss, "0:7"),
            ..CASE
        },
        CaseDef {
            exact: &[("8", 1)],
            value: val(Reg, "0:7"),
            ..CASE
        },
    ],
};
