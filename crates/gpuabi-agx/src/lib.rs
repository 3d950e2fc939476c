//! gpuabi-agx: the Apple AGX (G13) non-monolithic shader ABI as Mesa's Asahi driver builds
//! it — the register and uniform contract between a vertex prolog and the main vertex
//! shader, and between a fragment prolog, the main fragment shader and its epilog — and
//! the linker that joins the parts.
//!
//! Every position is a 16-bit half, as in Mesa; the constants live once in [`abi`] and
//! the engines ([`vertex`], [`fragment`], [`tilebuffer`], [`link`]) are pure functions
//! from a description to a value that [`render`] prints as text, JSON or SVG. The part
//! generators ([`prolog`], [`fs_prolog`], [`epilog`]) turn keys into code, and
//! [`contract`] checks a part's code against the boundary it sits at.

pub mod abi;
pub mod blend;
pub mod components;
pub mod contract;
pub mod encode;
pub mod epilog;
mod epilog_blend;
mod epilog_logic;
pub mod fragment;
pub mod fs_prolog;
pub mod hk_key;
pub mod link;
pub mod prolog;
pub mod render;
pub mod slot;
pub mod spill;
pub mod tilebuffer;
pub mod vertex;
pub mod vertex_key;
pub mod vk_format;
pub mod vk_state;

pub use abi::{Profile, VsStage};
pub use components::{Components, ComponentsError};
pub use fragment::{
    fragment_abi, ColorOutput, ColorType, FragmentAbi, FragmentError, FragmentInput,
};
pub use link::{link, LinkError, LinkInput, LinkedProgram, Part, PartInfo};
pub use prolog::{vertex_prolog, Prolog, PrologAttrib, PrologError, PrologKey};
pub use slot::{RegSlot, UniformSlot};
pub use tilebuffer::{tilebuffer_layout, TileBufferError, TileBufferLayout};
pub use vertex::{vertex_abi, VertexAbi, VertexError, VertexInput};
