//! The passes of the code generator as data: [`PASSES`] lists them in the order they run
//! on every function (as ACO's `aco_compile_shader` in `aco_interface.cpp` calls its
//! passes, and Cranelift's `Context::compile` its stages), each a function
//! `fn(&mut Context, &mut Function) -> Result<(), PassError>` in its own file.
//!
//! Instruction selection is the first pass although it changes what the function is: it
//! reads the IR function the [`Context`] carries and replaces the (empty) machine function
//! it is given. From `lower_to_hw` on the code is register-allocated hardware
//! instructions, kept in [`Context::hw`] beside the function, whose header and blocks
//! they belong to; they print in the same text as the machine IR (every operand a
//! register). Emission ([`crate::emit`]) then appends the lowered code to the program: it
//! is the sink of the list, not a pass of it.
//!
//! After each pass, with [`Context::verify`] (always in debug builds, and with `gpuabi
//! compile --verify`), the validator checks the rules the pass's output must keep
//! ([`Checks`]); a failure is reported as the fault of that pass. [`Context::print_after`]
//! prints the function after the passes it names.

use gpuabi_amdgpu::Target;
use gpuabi_ir::ir::FuncId;

use crate::call_abi::{Convention, ModuleCtx};
use crate::error::{Fault, PassError};
use crate::lower_calls::{Frame, Saved};
use crate::lower_to_hw::HwBlock;
use crate::mir::{self, Function};
use crate::{KernelEntry, Options};

/// What a pass function is.
pub type PassFn = fn(&mut Context<'_>, &mut Function) -> Result<(), PassError>;

/// The rules of the machine IR that hold after a pass.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Checks {
    /// [`mir::validate`]: operands fit their temps, branch targets exist, phis first,
    /// terminators last, logical parts well formed.
    pub basic: bool,
    /// [`mir::validate_cfg`]: the edge lists agree with each other and with the phis;
    /// `Some(true)` also with the hardware branches.
    pub cfg: Option<bool>,
    /// [`mir::validate_ssa`]: every dword written once, every write dominating its reads.
    pub ssa: bool,
}

impl Checks {
    const NONE: Checks = Checks {
        basic: false,
        cfg: None,
        ssa: false,
    };
    const BASIC: Checks = Checks {
        basic: true,
        ..Checks::NONE
    };
}

/// One pass of the list.
#[derive(Clone, Copy)]
pub struct Pass {
    /// Its name, as `--print-after` takes it.
    pub name: &'static str,
    /// What it does, in one line.
    pub what: &'static str,
    /// The pass.
    pub run: PassFn,
    /// What the validator checks after it.
    pub checks: Checks,
}

/// The passes, in the order they run.
pub const PASSES: [Pass; 11] = [
    Pass {
        name: "isel",
        what: "instruction selection: SSA machine IR over the IR's CFG, with phis and the \
               branch pseudo-instructions of divergent control flow",
        run: crate::isel::run,
        checks: Checks::BASIC,
    },
    Pass {
        name: "control_flow",
        what: "the logical and linear CFGs: edge lists, phi sources in predecessor order",
        run: crate::control_flow::run,
        checks: Checks {
            basic: true,
            cfg: Some(false),
            ssa: true,
        },
    },
    Pass {
        name: "insert_exec_mask",
        what: "branch pseudo-instructions become exec-mask code and hardware branches",
        run: crate::insert_exec_mask::run,
        checks: Checks {
            basic: true,
            cfg: Some(true),
            ssa: false,
        },
    },
    Pass {
        name: "register_allocation",
        what: "VGPRs then SGPRs assigned over liveness, spilling (p_spill/p_reload) until \
               both fit",
        run: crate::register_allocation::run,
        checks: Checks {
            basic: true,
            cfg: Some(true),
            ssa: false,
        },
    },
    Pass {
        name: "ssa_elimination",
        what: "phis become parallel copies at the end of their predecessors",
        run: crate::ssa_elimination::run,
        checks: Checks::BASIC,
    },
    Pass {
        name: "lower_spills",
        what: "p_spill/p_reload become scratch accesses and VGPR lane writes and reads",
        run: crate::lower_spills::run,
        checks: Checks::BASIC,
    },
    Pass {
        name: "check_ra",
        what: "the allocation checker: every read finds its value in its register",
        run: crate::check_ra::run,
        checks: Checks::NONE,
    },
    Pass {
        name: "lower_calls",
        what: "the frame is laid out; calls, callee saves and returns become machine code",
        run: crate::lower_calls::run,
        checks: Checks::BASIC,
    },
    Pass {
        name: "lower_to_hw",
        what: "temps become registers, parallel copies moves",
        run: crate::lower_to_hw::run,
        checks: Checks::NONE,
    },
    Pass {
        name: "insert_waitcnt",
        what: "s_waitcnt where a loaded register is first read or overwritten",
        run: crate::insert_waitcnt::run,
        checks: Checks::NONE,
    },
    Pass {
        name: "form_vopd",
        what: "pairs of independent VALU instructions become VOPD dual instructions (RDNA 3 \
               and 4, wave32)",
        run: crate::form_vopd::run,
        checks: Checks::NONE,
    },
];

/// The pass named `name`.
pub fn pass(name: &str) -> Option<&'static Pass> {
    PASSES.iter().find(|p| p.name == name)
}

/// The names of the passes, comma-separated, for messages.
pub fn pass_names() -> String {
    let names: Vec<&str> = PASSES.iter().map(|p| p.name).collect();
    names.join(", ")
}

/// Which passes' output to print.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum PrintAfter {
    /// None.
    #[default]
    Nothing,
    /// This one.
    Pass(&'static str),
    /// Every pass.
    All,
}

/// A pass name that is not in [`PASSES`].
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown pass `{name}`: expected `all` or one of {}", pass_names())]
pub struct UnknownPass {
    /// The name given.
    pub name: String,
}

impl PrintAfter {
    /// `all` or a pass name.
    pub fn parse(text: &str) -> Result<PrintAfter, UnknownPass> {
        if text == "all" {
            return Ok(PrintAfter::All);
        }
        match pass(text) {
            Some(p) => Ok(PrintAfter::Pass(p.name)),
            None => Err(UnknownPass {
                name: text.to_string(),
            }),
        }
    }

    fn includes(self, name: &str) -> bool {
        match self {
            PrintAfter::Nothing => false,
            PrintAfter::Pass(p) => p == name,
            PrintAfter::All => true,
        }
    }
}

/// The IR function instruction selection compiles, and what it needs of the module.
pub(crate) struct IselInput<'a> {
    /// The module's conventions and layout.
    pub module: &'a ModuleCtx<'a>,
    /// The function's id in the module.
    pub fid: FuncId,
    /// The IR function (for a called function, the one `crate::lower_call_abi` made).
    pub func: &'a gpuabi_ir::ir::Function,
    /// A called function's convention and the parameters `crate::lower_call_abi` added.
    pub callee: Option<(&'a Convention, crate::lower_call_abi::AddedParams)>,
    /// Per IR value: uniform in every lane.
    pub uniform: Vec<bool>,
    /// The IR function's CFG.
    pub cfg: gpuabi_ir::cfg::Cfg,
    /// Per loop of the CFG: divergent.
    pub divergent_loops: Vec<bool>,
}

/// What the passes share besides the function: the options, the input of instruction
/// selection, and what passes hand on to later ones and to the statistics.
pub struct Context<'a> {
    /// Target, wave size, register limits, entry ABI.
    pub opts: Options,
    /// Validate the machine IR after every pass.
    pub verify: bool,
    /// Which passes' output to print into [`Context::printed`].
    pub print_after: PrintAfter,
    /// The printed machine IR, each print headed by `; after PASS`.
    pub printed: String,
    pub(crate) input: Option<IselInput<'a>>,
    /// A `catalyst` kernel is entered with scratch (see `crate::scratch_retry`).
    pub catalyst_scratch: bool,
    /// How the kernel is entered (instruction selection; `None` for a called function).
    pub entry: Option<KernelEntry>,
    /// Values spilled from VGPRs and from SGPRs (register allocation).
    pub spilled: [usize; 2],
    /// The frame, the saved registers, and the calls in the order of their
    /// `s_swappc_b64` (call lowering).
    pub frame: Frame,
    /// The preserved registers a called function saves.
    pub saved: Saved,
    /// Indices into [`Function::calls`] in program order.
    pub call_order: Vec<usize>,
    /// The lowered code, per block (from `lower_to_hw` on).
    pub hw: Option<Vec<HwBlock>>,
}

impl<'a> Context<'a> {
    /// A context for running passes on machine IR (no IR input: instruction selection
    /// cannot run).
    pub fn new(opts: Options) -> Context<'a> {
        Context {
            opts,
            verify: cfg!(debug_assertions),
            print_after: PrintAfter::Nothing,
            printed: String::new(),
            input: None,
            catalyst_scratch: false,
            entry: None,
            spilled: [0; 2],
            frame: Frame::default(),
            saved: Saved::default(),
            call_order: Vec::new(),
            hw: None,
        }
    }

    /// The function as it stands: `f`, or from `lower_to_hw` on `f`'s header and blocks
    /// with the lowered code in them.
    pub fn current(&self, f: &Function) -> Function {
        match &self.hw {
            None => f.clone(),
            Some(hw) => crate::lower_to_hw::as_machine_ir(f, hw),
        }
    }

    /// The printed function as it stands (see [`Context::current`]).
    pub fn print(&self, f: &Function) -> String {
        match &self.hw {
            None => mir::print_function(f, self.target()),
            Some(_) => mir::print_function(&self.current(f), self.target()),
        }
    }

    fn target(&self) -> Target {
        self.opts.target
    }
}

/// Checks what pass `p` must leave true of `f`.
fn validate(p: &Pass, f: &Function) -> Result<(), PassError> {
    let c = p.checks;
    let fail = |e| PassError::new(p.name, f, Fault::Invalid(e));
    if c.basic {
        mir::validate(f).map_err(fail)?;
    }
    if let Some(hw) = c.cfg {
        mir::validate_cfg(f, hw).map_err(fail)?;
    }
    if c.ssa {
        mir::validate_ssa(f).map_err(fail)?;
    }
    Ok(())
}

/// Runs pass `p` on `f`, then validates and prints as the context asks.
pub fn run_pass(ctx: &mut Context<'_>, f: &mut Function, p: &Pass) -> Result<(), PassError> {
    (p.run)(ctx, f)?;
    if ctx.verify {
        validate(p, f)?;
    }
    if ctx.print_after.includes(p.name) {
        let text = ctx.print(f);
        ctx.printed.push_str("; after ");
        ctx.printed.push_str(p.name);
        ctx.printed.push('\n');
        ctx.printed.push_str(&text);
    }
    Ok(())
}

/// Runs `passes` in order on `f`.
pub fn run(ctx: &mut Context<'_>, f: &mut Function, passes: &[Pass]) -> Result<(), PassError> {
    for p in passes {
        run_pass(ctx, f, p)?;
    }
    Ok(())
}
