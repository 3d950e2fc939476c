//! Why a Catalyst binary could not be read. Every error names the place: the ELF (outer
//! file or a kernel's CAL image), the section, symbol or note, and a byte offset in the file.

/// An error reading an AMD Catalyst OpenCL 1.2 binary.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum BinaryError {
    /// The outer file or an inner CAL image is not a well-formed ELF.
    #[error("{what} at byte {offset}: {message}")]
    Elf {
        /// Which ELF (`outer ELF`, `CAL image of kernel 'add'`).
        what: String,
        /// File offset of its start.
        offset: u64,
        /// What the ELF reader found wrong.
        message: String,
    },
    /// The file is not an ELF of the expected class or machine.
    #[error("{what} at byte {offset}: {message}")]
    NotCatalyst {
        /// Which ELF.
        what: String,
        /// File offset of its start.
        offset: u64,
        /// What was expected.
        message: String,
    },
    /// No `__OpenCL_<kernel>_kernel` symbols.
    #[error("no kernels: the symbol table has no __OpenCL_<name>_kernel symbol")]
    NoKernels,
    /// A kernel lacks its metadata, header or CAL image symbol.
    #[error("kernel '{kernel}': no symbol {symbol}")]
    MissingSymbol {
        /// The kernel.
        kernel: String,
        /// The missing symbol.
        symbol: String,
    },
    /// A symbol's range lies outside its section.
    #[error(
        "symbol {symbol}: bytes {start}..{end} of section {section} (size {section_size}) are outside the section"
    )]
    SymbolOutOfRange {
        /// The symbol.
        symbol: String,
        /// Section name or index.
        section: String,
        /// Start offset in the section.
        start: u64,
        /// End offset in the section.
        end: u64,
        /// Section size.
        section_size: u64,
    },
    /// A malformed CAL note, encoding table or section of a kernel's CAL image.
    #[error("kernel '{kernel}', CAL image, byte {offset} of the file: {message}")]
    CalImage {
        /// The kernel.
        kernel: String,
        /// File offset of the bad item.
        offset: u64,
        /// What was wrong.
        message: String,
    },
    /// A metadata line that cannot be read.
    #[error("kernel '{kernel}', metadata line {line} ('{text}'): {message}")]
    Metadata {
        /// The kernel.
        kernel: String,
        /// Line number in the metadata text (from 1).
        line: usize,
        /// The line.
        text: String,
        /// What was expected.
        message: String,
    },
    /// The 32-byte kernel header has another size.
    #[error("kernel '{kernel}': header symbol at byte {offset} is {size} bytes, expected 32")]
    HeaderSize {
        /// The kernel.
        kernel: String,
        /// File offset of the header.
        offset: u64,
        /// Its size.
        size: u64,
    },
}
