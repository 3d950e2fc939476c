//! The symbolic names of the data and number formats of typed buffer instructions
//! (`tbuffer_*`) on GCN 1.0/1.1, as LLVM's assembler spells them in `format:[..]`
//! (llvm/lib/Target/AMDGPU/Utils/AMDGPUAsmUtils.cpp, `DfmtSymbolic` and
//! `NfmtSymbolicSICI`); the values are those of the `DFMT` and `NFMT` fields in the MTBUF
//! chapter of AMD's "Southern Islands Series Instruction Set Architecture".

/// Data format names, indexed by the `DFMT` field.
pub const DATA_FORMATS: [&str; 16] = [
    "BUF_DATA_FORMAT_INVALID",
    "BUF_DATA_FORMAT_8",
    "BUF_DATA_FORMAT_16",
    "BUF_DATA_FORMAT_8_8",
    "BUF_DATA_FORMAT_32",
    "BUF_DATA_FORMAT_16_16",
    "BUF_DATA_FORMAT_10_11_11",
    "BUF_DATA_FORMAT_11_11_10",
    "BUF_DATA_FORMAT_10_10_10_2",
    "BUF_DATA_FORMAT_2_10_10_10",
    "BUF_DATA_FORMAT_8_8_8_8",
    "BUF_DATA_FORMAT_32_32",
    "BUF_DATA_FORMAT_16_16_16_16",
    "BUF_DATA_FORMAT_32_32_32",
    "BUF_DATA_FORMAT_32_32_32_32",
    "BUF_DATA_FORMAT_RESERVED_15",
];

/// Number format names, indexed by the `NFMT` field; value 6 has no name on GCN 1.0/1.1
/// and is written as a number.
pub const NUM_FORMATS: [&str; 8] = [
    "BUF_NUM_FORMAT_UNORM",
    "BUF_NUM_FORMAT_SNORM",
    "BUF_NUM_FORMAT_USCALED",
    "BUF_NUM_FORMAT_SSCALED",
    "BUF_NUM_FORMAT_UINT",
    "BUF_NUM_FORMAT_SINT",
    "",
    "BUF_NUM_FORMAT_FLOAT",
];

/// The `DFMT` value of a data format name.
pub fn data_format(name: &str) -> Option<u8> {
    DATA_FORMATS
        .iter()
        .position(|n| *n == name)
        .map(|i| i as u8)
}

/// The `NFMT` value of a number format name.
pub fn num_format(name: &str) -> Option<u8> {
    NUM_FORMATS
        .iter()
        .position(|n| !n.is_empty() && *n == name)
        .map(|i| i as u8)
}

/// `format:..` as LLVM writes it: symbolic where both parts have names, a number otherwise.
pub fn text(format: u8) -> String {
    let nfmt = NUM_FORMATS[usize::from(format >> 4 & 7)];
    if nfmt.is_empty() || format > 0x7f {
        format!("format:{format}")
    } else {
        format!(
            "format:[{},{nfmt}]",
            DATA_FORMATS[usize::from(format & 0xf)]
        )
    }
}
