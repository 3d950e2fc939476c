//! Writing AMD Catalyst OpenCL 1.2 binaries: each kernel's layout (from
//! [`crate::layout::layout`]) and machine code become its metadata text, header and CAL
//! image (notes with PROGINFO, `.text`) inside the outer ELF, as AMD's driver writes
//! them. Every ABI number comes from the layout; this module only places bytes.
//!
//! What the layout engine does not know is written as AMD's compiler of driver 1702.3
//! wrote it for the kernels of CLRX's test data: no compile options, an empty `.llvmir`
//! (AMD's holds the program's LLVM bitcode), 0 in the CONDOUT, EARLYEXIT and
//! UAV_MAILBOX_SIZE notes, and 4736 zero bytes of CAL `.data`.

use crate::driver::Driver;
use crate::layout::KernelLayout;

use super::{write_cal_image, write_cal_notes, write_outer};

/// Most bytes of code per kernel: the project's limit, far above what GCN kernels need (a
/// branch reaches 128 KiB either way) and small enough that every offset and size in a
/// kernel's CAL image fits its 32-bit field.
pub const MAX_CODE_BYTES: usize = 16 << 20;

/// Why a binary could not be written.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum WriteError {
    /// No kernels were given.
    #[error("no kernels to write")]
    NoKernels,
    /// Two kernels share a name.
    #[error("kernel '{0}' is given twice")]
    DuplicateKernel(String),
    /// A kernel name cannot be written into symbols and metadata.
    #[error("kernel name '{name}': {message}")]
    BadKernelName {
        /// The name.
        name: String,
        /// What is wrong.
        message: String,
    },
    /// The kernels' layouts are for different targets.
    #[error("kernel '{kernel}' is laid out for {found}, the first kernel for {expected}")]
    MixedTargets {
        /// The kernel.
        kernel: String,
        /// Its target (device, driver, bits).
        found: String,
        /// The first kernel's.
        expected: String,
    },
    /// A kernel's code has a bad size.
    #[error("kernel '{kernel}': {size} bytes of code: {message}")]
    CodeSize {
        /// The kernel.
        kernel: String,
        /// Its size.
        size: usize,
        /// What was expected.
        message: String,
    },
    /// The file would be larger than its ELF class can address.
    #[error("the binary would be larger than 4 GiB, the limit of a 32-bit ELF")]
    TooLarge,
}

/// One kernel to write: its layout and its machine code.
#[derive(Debug, Clone, Copy)]
pub struct KernelCode<'a> {
    /// The kernel's layout (its device, driver and bits are the file's).
    pub layout: &'a KernelLayout,
    /// Its machine code for the layout's device.
    pub code: &'a [u8],
}

/// The `.comment` text of `driver`, as AMD's runtime writes it
/// (`@(#) OpenCL 1.2 AMD-APP (1702.3).  Driver version: 1702.3 (VM)`); the reader's
/// [`super::driver_from_comment`] reads the version back.
pub fn driver_info(driver: u32) -> String {
    let v = Driver(driver).dotted();
    format!("@(#) OpenCL 1.2 AMD-APP ({v}).  Driver version: {v} (VM)")
}

fn target(l: &KernelLayout) -> String {
    format!(
        "{} (driver {}, {}-bit)",
        l.device,
        Driver(l.driver).dotted(),
        l.bits
    )
}

fn check_name(name: &str) -> Result<(), WriteError> {
    let bad = |message: &str| {
        Err(WriteError::BadKernelName {
            name: name.to_string(),
            message: message.to_string(),
        })
    };
    if name.is_empty() {
        return bad("empty");
    }
    match name
        .char_indices()
        .find(|(_, c)| !(c.is_ascii_alphanumeric() || *c == '_'))
    {
        Some((at, c)) => bad(&format!(
            "character {c:?} at byte {at}: a kernel name is an OpenCL C identifier"
        )),
        None => Ok(()),
    }
}

/// The binary holding `kernels` in order. Their layouts must share device, driver and
/// bits; each kernel's `;uniqueid:` is its layout's (lay kernel *i* of *n* out with
/// [`crate::layout::ProgramPlace`] `{ index: i, kernels: n }` for AMD's numbering).
pub fn write(kernels: &[KernelCode<'_>]) -> Result<Vec<u8>, WriteError> {
    let first = kernels.first().ok_or(WriteError::NoKernels)?.layout;
    let device = first.options.device;
    let mut images = Vec::with_capacity(kernels.len());
    let mut headers = Vec::with_capacity(kernels.len());
    for (i, k) in kernels.iter().enumerate() {
        let l = k.layout;
        check_name(&l.kernel)?;
        if kernels[..i].iter().any(|o| o.layout.kernel == l.kernel) {
            return Err(WriteError::DuplicateKernel(l.kernel.clone()));
        }
        if (l.device.as_str(), l.driver, l.bits)
            != (first.device.as_str(), first.driver, first.bits)
        {
            return Err(WriteError::MixedTargets {
                kernel: l.kernel.clone(),
                found: target(l),
                expected: target(first),
            });
        }
        let code_error = |message: String| WriteError::CodeSize {
            kernel: l.kernel.clone(),
            size: k.code.len(),
            message,
        };
        if k.code.len() > MAX_CODE_BYTES {
            return Err(code_error(format!(
                "more than the {MAX_CODE_BYTES} allowed"
            )));
        }
        if k.code.is_empty() || !k.code.len().is_multiple_of(4) {
            return Err(code_error(
                "expected a positive multiple of 4 (GCN instructions are 4 or 8 bytes)".into(),
            ));
        }
        let notes = write_cal_notes::note_segment(&l.notes);
        write_cal_image::image_size(notes.len(), k.code.len()).ok_or(WriteError::TooLarge)?;
        images.push(write_cal_image::write(&device, &notes, k.code));
        headers.push(
            l.header
                .iter()
                .flat_map(|d| d.to_le_bytes())
                .collect::<Vec<u8>>(),
        );
    }
    let parts: Vec<write_outer::KernelParts<'_>> = kernels
        .iter()
        .zip(&images)
        .zip(&headers)
        .map(|((k, image), header)| write_outer::KernelParts {
            name: &k.layout.kernel,
            metadata: k.layout.metadata.as_bytes(),
            header,
            image,
        })
        .collect();
    let info = driver_info(first.driver);
    write_outer::write(
        &write_outer::OuterInput {
            is_64bit: first.bits == 64,
            machine: device.elf_machine as u16,
            compile_options: "",
            driver_info: &info,
        },
        &parts,
    )
    .ok_or(WriteError::TooLarge)
}
