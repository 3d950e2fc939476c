//! gpuabi-catalyst: the AMD Catalyst OpenCL 1.2 kernel ABI (GCN 1.0-1.2) as CLRX computes
//! it in its "amd" binary format.
//!
//! A kernel description (read from OpenCL C, JSON or TOML) and options (driver version,
//! device, bitness, dimensions, …) go into [`layout::layout`], a pure function that returns
//! a [`layout::KernelLayout`]: cb1 offsets, resource ids, user data, the initial register
//! state, PGM_RSRC2, the metadata string, the CAL notes and the kernel header. Renderers
//! under [`render`] print it as text, JSON, SVG or CLRX assembly.

pub mod args;
pub mod binary;
pub mod cal_notes;
pub mod cb0;
pub mod cb1;
pub mod compiler_order;
pub mod description;
pub mod driver;
pub mod error;
pub mod header;
pub mod layout;
pub mod metadata;
pub mod opencl;
pub mod registers;
pub mod render;
pub mod resource_ids;
pub mod types;
pub mod userdata;

pub use error::LayoutError;
pub use layout::{layout, KernelLayout, NotesPolicy, Options, ProgramPlace, UserDataPolicy};
