//! gpuabi-radv: RADV's ray-tracing pipelines run in gpuabi's simulator.
//!
//! A capture of `tools/mesa/capture-rt` holds RADV's compiled functions, the Raytracing
//! prolog, the shader group handles, the shader binding table, the descriptor layout and
//! what RADV set for the trace's dispatch, and the scene. [`run::run`] builds in the
//! simulator's memory what RADV's runtime would for that trace — descriptor set 0, the push
//! constants, the shader binding table with RADV's handles, the acceleration structures in
//! RADV's node layout ([`bvh`]), the trace's parameters at the addresses RADV passed the
//! prolog — places RADV's code at RADV's addresses ([`program`]), dispatches the prolog over
//! the launch and checks every call against the ACO ABI of the function it calls.
//!
//! - [`capture`]: the capture directory.
//! - [`scene`]: the scene (`scene.txt`).
//! - [`bvh`]: acceleration structures in RADV's layout.
//! - [`program`]: RADV's code at RADV's addresses.
//! - [`sizes`]: the pipeline's payload and hit-attribute sizes.
//! - [`run`]: the trace.
//! - [`call_sites`]: the call-ABI overhead of each call site.

pub mod bvh;
pub mod call_sites;
pub mod capture;
mod error;
pub mod program;
pub mod run;
pub mod scene;
pub mod sizes;

pub use capture::Capture;
pub use error::RadvError;
pub use run::{run, Options, Trace};
