//! Dispatches: run a kernel over a grid, one invocation at a time.

use super::builtins;
use super::error::RunError;
use super::eval::Machine;
use super::limits::Limits;
use super::memory::Memory;
use super::Program;

/// The shape of a dispatch, OpenCL style: sizes in work-items.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Dispatch {
    /// Work-items per dimension (a multiple of `group_size`).
    pub global_size: [u32; 3],
    /// Work-items per group and dimension.
    pub group_size: [u32; 3],
    /// Added to every global id.
    pub global_offset: [u32; 3],
    /// Number of dimensions given (1 to 3), returned by `work_dim`.
    pub work_dim: u32,
}

impl Dispatch {
    /// A one-dimensional dispatch.
    pub fn linear(global: u32, group: u32) -> Dispatch {
        Dispatch {
            global_size: [global, 1, 1],
            group_size: [group, 1, 1],
            global_offset: [0; 3],
            work_dim: 1,
        }
    }
}

/// Why a dispatch did not run or stopped.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum DispatchError {
    /// No function of that name.
    #[error("no function `@{0}` in the module")]
    NoKernel(String),
    /// The function is not a kernel.
    #[error("`@{0}` is not a kernel (add the `kernel` attribute)")]
    NotKernel(String),
    /// Wrong number of kernel arguments.
    #[error("kernel `@{name}` takes {want} argument(s), {got} given")]
    ArgCount {
        /// Kernel.
        name: String,
        /// Parameters.
        want: usize,
        /// Arguments.
        got: usize,
    },
    /// A zero group size, or a global size that is not a multiple of it.
    #[error(
        "dimension {dim}: global size {global} is not a positive multiple of group size {group}"
    )]
    Shape {
        /// Dimension.
        dim: usize,
        /// Global size.
        global: u32,
        /// Group size.
        group: u32,
    },
    /// More invocations than the limit allows.
    #[error("the dispatch has {count} invocations, more than the limit of {limit}")]
    TooManyInvocations {
        /// Invocations asked for (three 32-bit sizes may need 96 bits).
        count: u128,
        /// The limit.
        limit: u64,
    },
    /// An invocation failed.
    #[error(transparent)]
    Run(#[from] RunError),
}

/// What a dispatch did.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct RunStats {
    /// Invocations run.
    pub invocations: u64,
    /// Instructions executed over all invocations.
    pub steps: u64,
}

impl Program {
    /// Runs `kernel` over the dispatch with the given argument bits (one per parameter),
    /// updating `mem`. Invocations run one after another: group by group, and within a
    /// group with x fastest. Programs whose result depends on that order race on a GPU.
    pub fn dispatch(
        &self,
        kernel: &str,
        args: &[u64],
        d: &Dispatch,
        mem: &mut Memory,
        limits: &Limits,
    ) -> Result<RunStats, DispatchError> {
        let k = self
            .funcs
            .iter()
            .position(|f| f.name == kernel)
            .ok_or_else(|| DispatchError::NoKernel(kernel.to_string()))?;
        if !self.funcs[k].kernel {
            return Err(DispatchError::NotKernel(kernel.to_string()));
        }
        let want = self.funcs[k].param_slots.len();
        if args.len() != want {
            return Err(DispatchError::ArgCount {
                name: kernel.to_string(),
                want,
                got: args.len(),
            });
        }
        let mut groups = [0u32; 3];
        for (dim, n) in groups.iter_mut().enumerate() {
            let (g, l) = (d.global_size[dim], d.group_size[dim]);
            if l == 0 || g == 0 || g % l != 0 {
                return Err(DispatchError::Shape {
                    dim,
                    global: g,
                    group: l,
                });
            }
            *n = g / l;
        }
        // Three 32-bit sizes may need 96 bits, which u128 holds exactly.
        let count = d
            .global_size
            .iter()
            .map(|&g| u128::from(g))
            .product::<u128>();
        if count > u128::from(limits.max_invocations) {
            return Err(DispatchError::TooManyInvocations {
                count,
                limit: limits.max_invocations,
            });
        }
        let mut m = Machine::default();
        let mut stats = RunStats::default();
        for gz in 0..groups[2] {
            for gy in 0..groups[1] {
                for gx in 0..groups[0] {
                    for lz in 0..d.group_size[2] {
                        for ly in 0..d.group_size[1] {
                            for lx in 0..d.group_size[0] {
                                let values = builtins::values(
                                    [lx, ly, lz],
                                    [gx, gy, gz],
                                    d.group_size,
                                    groups,
                                    d.global_offset,
                                    d.work_dim,
                                );
                                stats.steps += m.run(self, k, args, &values, mem, limits)?;
                                stats.invocations += 1;
                            }
                        }
                    }
                }
            }
        }
        Ok(stats)
    }
}
