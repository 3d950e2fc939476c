//! What the tests of compiled programs share.

use gpuabi_codegen::Compiled;
use gpuabi_ir::interp::{Dispatch, Limits as IrLimits};

/// A kernel launch: the kernel, its grid, its arguments and its buffers.
pub struct Launch<'a> {
    pub kernel: &'a str,
    pub dispatch: Dispatch,
    pub args: &'a [u64],
    pub buffers: &'a [(String, Vec<u8>)],
}

/// Kernel `k` over `n` work-items in groups of 64, whose one argument is the buffer `out`
/// of `n` zeroed dwords: the launch of the call tests.
pub struct OutLaunch {
    n: u32,
    args: [u64; 1],
    buffers: Vec<(String, Vec<u8>)>,
}

impl OutLaunch {
    /// The launch over `n` work-items.
    pub fn new(n: u32) -> OutLaunch {
        OutLaunch {
            n,
            args: [gpuabi_exec::buffer_address(0)],
            buffers: vec![("out".to_string(), vec![0u8; 4 * n as usize])],
        }
    }

    /// It as a [`Launch`].
    pub fn launch(&self) -> Launch<'_> {
        Launch {
            kernel: "k",
            dispatch: Dispatch {
                global_size: [self.n, 1, 1],
                group_size: [64, 1, 1],
                global_offset: [0, 0, 0],
                work_dim: 1,
            },
            args: &self.args,
            buffers: &self.buffers,
        }
    }
}

/// Runs `launch` of `module` in the interpreter and compiled (`c`) in the simulator; both
/// must leave `want` in the first buffer and the compiled run must break no call contract.
/// Returns the compiled run.
pub fn run_both(
    module: &gpuabi_ir::Module,
    c: &Compiled,
    launch: &Launch<'_>,
    want: &[u8],
    config: &str,
) -> gpuabi_exec::Outcome {
    let Launch {
        kernel,
        dispatch,
        args,
        buffers,
    } = launch;
    let addrs = gpuabi_exec::function_addresses(module, c).expect("addresses");
    let interp = gpuabi_exec::interpret_at(
        module,
        &addrs,
        kernel,
        dispatch,
        args,
        buffers,
        &IrLimits::default(),
    )
    .expect("the interpreter runs");
    assert_eq!(interp[0].1, want, "the interpreter");
    let limits = gpuabi_sim::Limits::default();
    let out = gpuabi_exec::run(c, kernel, dispatch, args, buffers, &limits).expect("runs");
    assert!(
        out.violations.is_empty(),
        "{config}: {:?}",
        out.violations.first()
    );
    assert_eq!(out.buffers[0].1, want, "{config}");
    out
}
