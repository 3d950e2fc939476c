//! The one repetition of the pass list: under `catalyst`, scratch changes the user data
//! and the registers the entry reads (see `crate::entry::catalyst`), so a kernel is first
//! compiled without scratch when it has no stack arrays; when its VGPRs must spill,
//! register allocation reports [`Fault::NeedsScratch`] and the kernel is compiled again,
//! from instruction selection, with scratch.

use crate::error::{Fault, PassError};
use crate::mir::Function;
use crate::pipeline::{self, Context, PASSES};

/// Runs every pass on `f` (replaced by instruction selection), again with scratch when a
/// `catalyst` kernel needs it.
pub(crate) fn run(ctx: &mut Context<'_>, f: &mut Function) -> Result<(), PassError> {
    let printed = ctx.printed.len();
    loop {
        match pipeline::run(ctx, f, &PASSES) {
            Err(PassError {
                fault: Fault::NeedsScratch,
                ..
            }) if !ctx.catalyst_scratch => {
                ctx.catalyst_scratch = true;
                // What was printed of the attempt without scratch is not the code.
                ctx.printed.truncate(printed);
                *f = Function::new(&f.name);
            }
            r => return r,
        }
    }
}
