//! The call ABIs of a module: for every function that is called and every signature of an
//! indirect call, its ACO call ABI, the register limit and the parameter registers, all
//! from gpuabi-layout's `aco` engine (`aco::assign`, Mesa's `find_param_regs`). The code
//! generator never places a parameter itself; caller and callee read the same
//! [`Convention`].
//!
//! Decisions where Mesa has no rule, because Mesa only compiles ray-tracing stages:
//!
//! * **The default ABI.** A function without `abi(...)` is compiled under [`default_abi`]:
//!   16 preserved then 16 clobbered registers of each file, repeated up to the limit,
//!   parameters limited to 48 SGPRs and 48 VGPRs (the alternating block of the first
//!   example of Mesa's `docs/drivers/amd/function-calls.rst`). Ordinary compute helpers
//!   are small and called from code that keeps values live across them; a conventional
//!   split between caller-saved and callee-saved registers (as every CPU ABI and LLVM's
//!   AMDGPU convention have) serves them better than the ray-tracing ABIs, which clobber
//!   everything or preserve a fixed low half.
//! * **One register limit per module**: the target's ray-tracing limit with one wave
//!   (`aco::Target::default_limit`), clamped to the compile options' register budget, used
//!   for the assignment, the preserved ranges, the allocator and the callee saves alike.
//! * **Launch values in callees.** The IR lets any function read `global_id` and the other
//!   launch values, which the hardware gives only to the kernel. They travel as leading
//!   parameters of every called function and signature, as RADV passes `LAUNCH_ID` and
//!   `LAUNCH_SIZE` first to every ray-tracing function: one parameter per launch value some
//!   called function reads (work-item ids divergent, the others uniform), DISCARDABLE, so
//!   that only the caller keeps them.
//! * **Indirect calls with per-lane pointers.** `call_indirect` may be given a different
//!   pointer in each lane for any signature, so every function whose address is taken is
//!   compiled as DIVERGENT_CALL (the guard and the dispatch epilogue of
//!   `radv_nir_lower_call_abi.c`), whatever its attributes say; a function that is only
//!   called directly follows its attributes.
//! * **Parameters the target cannot name.** Mesa's assignment keeps the registers at and
//!   above the limit available to discardable parameters. The code generator accepts such
//!   a parameter while the target can name its SGPRs (they hold no value of the function)
//!   and refuses the signature otherwise ([`PARAMETER_BEYOND_SGPRS`]); `--policy packed`
//!   never places one there.
//! * **Tail calls** follow RADV's rule made concrete for any ABI: see
//!   `crate::tail_calls`.
//! * **Any-hit/intersection hints** (Mesa's `ahit_isec` affinity) come from the module's
//!   `abi(traversal)` function when there is exactly one; otherwise there are none.
//! * **LLVM's conventions** (`llvm-gfx`, `llvm-amdgpu-gfx`; `gpuabi_layout::llvm`) are ABIs
//!   too: their registers come from `gpuabi_layout::llvm::assign` instead of Mesa's
//!   assignment. They have no RADV callee PCs, so a function under them is never
//!   DIVERGENT_CALL and never a tail call: a call through a per-lane pointer runs the callee
//!   once per distinct pointer (`crate::isel::call`'s waterfall loop, as llc-19 compiles such
//!   calls), and return values come back from v0 on rather than in their parameters'
//!   registers.
//! * **`--abi-override '*=ABI'`** puts every function that can take a call ABI (every
//!   function but the kernels, which keep their entry convention) and every signature under
//!   ABI; an override naming a function wins over `*`.

use gpuabi_amdgpu::{Target, WaveSize};
use gpuabi_ir::ir::{self, Abi as IrAbi, FuncId, InstrKind, Opcode as Op, Region, Type};
use gpuabi_ir::Module;
use gpuabi_layout::aco::{
    self, Abi, AssignRequest, Assignment, Demand, LimitInputs, Location, Param, ParamKind,
    ParamLayout, Policy, RegisterBlock, ScalarType, Signature,
};
use gpuabi_layout::llvm::{self, LlvmAbi};
use gpuabi_layout::reg::{RegFile, RegRange, RegSet};

use crate::error::CodegenError;
use crate::mir::Origin;

/// Call-ABI choices of a compilation, beside [`crate::Options`].
#[derive(Debug, Clone, Default, PartialEq)]
pub struct CallOptions {
    /// User ABIs, usable as `abi(NAME)` in the IR.
    pub abis: Vec<Abi>,
    /// Functions compiled under another ABI than their own: (function, ABI name); the
    /// function `*` stands for every function but the kernels, and every signature.
    pub overrides: Vec<(String, String)>,
    /// Assignment policy (`mesa` or `packed`).
    pub policy: Policy,
}

/// The ABI of functions without `abi(...)`: see the module documentation.
pub fn default_abi() -> Abi {
    Abi {
        name: "compute".into(),
        block: RegisterBlock {
            clobbered: Demand::new(16, 16),
            preserved: Demand::new(16, 16),
            clobbered_first: false,
        },
        max_param_demand: Some(Demand::new(48, 48)),
    }
}

/// The function name of an override that applies to every function and signature.
pub const EVERY_FUNCTION: &str = "*";

/// How one function (or every function of one signature) is called.
#[derive(Debug, Clone, PartialEq)]
pub struct Convention {
    /// The ABI. Under one of LLVM's conventions ([`Convention::llvm`]) only its name is
    /// meaningful: LLVM's preserved registers are no repeating block, and [`Convention::preserved`]
    /// lists them.
    pub abi: Abi,
    /// One of LLVM's conventions, or `None` for an ACO ABI.
    pub llvm: Option<LlvmAbi>,
    /// Under LLVM's conventions, per IR parameter: where a `return` parameter's final
    /// value comes back (`None` for the others); empty under ACO ABIs, whose return
    /// parameters come back in their own registers.
    pub returns: Vec<Option<RegRange>>,
    /// Where every parameter goes (system and RADV parameters first, then the hidden
    /// launch values named `launch<k>`, then the IR's parameters named `arg<k>`).
    pub assignment: Assignment,
    /// ABI-preserved registers below the limit, less those of the IR's return parameters
    /// (they hold the returned values after the call).
    pub preserved: RegSet,
    /// Lanes may want different callees: the guard and dispatch epilogue are compiled.
    pub divergent_call: bool,
    /// Never returns.
    pub noreturn: bool,
}

impl Convention {
    /// The layout of a parameter by name.
    pub fn param(&self, name: &str) -> &ParamLayout {
        self.assignment
            .param(name)
            .expect("the signature was built with these names")
    }

    /// The register range of a parameter that is always in registers.
    pub fn reg(&self, name: &str) -> RegRange {
        match self.param(name).location {
            Location::Reg(r) => r,
            Location::Scratch { .. } => unreachable!("system parameters are always in registers"),
        }
    }

    /// The layout of IR parameter `k`.
    pub fn arg(&self, k: usize) -> &ParamLayout {
        self.param(&format!("arg{k}"))
    }

    /// The layout of hidden launch parameter `k`.
    pub fn launch(&self, k: usize) -> &ParamLayout {
        self.param(&format!("launch{k}"))
    }

    /// Where the final value of IR parameter `k`, a `return` parameter, comes back.
    pub fn ret_location(&self, k: usize) -> Location {
        match self.returns.get(k) {
            Some(Some(r)) => Location::Reg(*r),
            _ => self.arg(k).location,
        }
    }

    /// Whether calls pass RADV's divergent and uniform callee PCs (every ACO ABI), which
    /// chain divergent callees and tail calls; LLVM's conventions do not.
    pub fn has_callee_pcs(&self) -> bool {
        self.llvm.is_none()
    }

    /// The register pair `s_swappc_b64` jumps through.
    pub fn call_target(&self) -> RegRange {
        match self.llvm {
            Some(_) => self.reg("callee_pc"),
            None => self.reg("uniform_pc"),
        }
    }
}

/// What a call site calls, for the contract checker and the frame.
#[derive(Debug, Clone, PartialEq)]
pub struct CallSite {
    /// The callee (a function name, or `$sig` for an indirect call).
    pub callee: String,
    /// Its convention.
    pub conv: Convention,
    /// Source position of the call.
    pub origin: Origin,
}

/// How a called function is entered and left.
#[derive(Debug, Clone, PartialEq)]
pub struct CalleeFrame {
    /// Its convention.
    pub conv: Convention,
}

/// The conventions of a module.
#[derive(Debug, Clone)]
pub struct ModuleAbis {
    /// The register limit of every function.
    pub limit: Demand,
    /// Per function: its convention when it is called (`None` for kernels).
    pub funcs: Vec<Option<Convention>>,
    /// Per signature.
    pub sigs: Vec<Convention>,
    /// Launch values passed as hidden leading parameters: (opcode, dimension).
    pub hidden: Vec<(Op, u32)>,
    /// Whether the module has any call or function address at all.
    pub any_calls: bool,
    /// Per function, whether its address is taken (`func_addr`), which makes it a possible
    /// target of every indirect call.
    pub address_taken: Vec<bool>,
}

/// What every function's compilation reads of the module: the IR, the conventions, and
/// the order the functions are laid out in.
pub(crate) struct ModuleCtx<'a> {
    /// The module.
    pub module: &'a Module,
    /// Its conventions.
    pub abis: ModuleAbis,
    /// Per function: its place in the program (functions not compiled: after the rest).
    pub position: Vec<usize>,
}

/// The launch values a region reads.
pub(crate) fn launch_values(r: &Region, out: &mut Vec<(Op, u32)>) {
    for i in r.instrs_deep() {
        if let InstrKind::Op(op) = &i.kind {
            if is_launch(op.opcode) {
                let dim = match op.extra {
                    ir::Extra::Imm(d) => d,
                    _ => 0,
                };
                if !out.contains(&(op.opcode, dim)) {
                    out.push((op.opcode, dim));
                }
            }
        }
    }
}

fn is_launch(op: Op) -> bool {
    matches!(
        op,
        Op::LocalId
            | Op::GroupId
            | Op::GlobalId
            | Op::GroupSize
            | Op::NumGroups
            | Op::GlobalSize
            | Op::WorkDim
            | Op::GlobalOffset
    )
}

/// Whether a launch value differs between the lanes of a wave.
pub(crate) fn launch_is_divergent(op: Op) -> bool {
    matches!(op, Op::LocalId | Op::GlobalId)
}

fn has_calls(r: &Region) -> bool {
    r.instrs_deep().iter().any(|i| {
        matches!(
            i.kind,
            InstrKind::Call { .. } | InstrKind::CallIndirect { .. } | InstrKind::FuncAddr { .. }
        )
    })
}

fn address_taken(r: &Region, out: &mut [bool]) {
    for i in r.instrs_deep() {
        if let InstrKind::FuncAddr { func } = i.kind {
            out[func.index()] = true;
        }
    }
}

fn scalar(ty: Type) -> ScalarType {
    match ty {
        Type::I1 => ScalarType::Bool,
        Type::I32 => ScalarType::I32,
        Type::F32 => ScalarType::F32,
        Type::I64 => ScalarType::I64,
        Type::Ptr | Type::Stack => ScalarType::U64,
    }
}

/// The signature gpuabi-layout assigns: hidden launch values, then the IR's parameters.
fn layout_signature(params: &[ir::SigParam], hidden: &[(Op, u32)]) -> Signature {
    let mut out = Vec::new();
    for (k, &(op, _)) in hidden.iter().enumerate() {
        let mut p = Param::new(&format!("launch{k}"), ScalarType::U32, 1).discardable();
        if !launch_is_divergent(op) {
            p = p.uniform();
        }
        out.push(p);
    }
    for (k, sp) in params.iter().enumerate() {
        let mut p = Param::new(&format!("arg{k}"), scalar(sp.ty), 1);
        if sp.attrs.uniform {
            p = p.uniform();
        }
        if sp.attrs.discardable {
            p = p.discardable();
        }
        if sp.attrs.ret {
            p = p.returned();
        }
        out.push(p);
    }
    Signature { params: out }
}

/// An ABI a name resolves to.
#[derive(Debug, Clone)]
enum Resolved {
    /// An ACO ABI: Mesa's, the default, or a user's.
    Aco(Abi),
    /// One of LLVM's conventions.
    Llvm(LlvmAbi),
}

/// Resolves an ABI name of the IR or of an override.
fn resolve(abi: Option<&IrAbi>, opts: &CallOptions) -> Result<Resolved, String> {
    let Some(abi) = abi else {
        return Ok(Resolved::Aco(default_abi()));
    };
    if let Some(a) = Abi::builtin(abi.name()) {
        return Ok(Resolved::Aco(a));
    }
    if let Some(l) = LlvmAbi::from_name(abi.name()) {
        return Ok(Resolved::Llvm(l));
    }
    if abi.name() == default_abi().name && !opts.abis.iter().any(|a| a.name == abi.name()) {
        return Ok(Resolved::Aco(default_abi()));
    }
    if let Some(a) = opts.abis.iter().find(|a| a.name == abi.name()) {
        return Ok(Resolved::Aco(a.clone()));
    }
    let mut names: Vec<String> = aco::NirAbi::ALL
        .iter()
        .map(|a| a.name().to_string())
        .collect();
    names.push(default_abi().name);
    names.extend(LlvmAbi::ALL.iter().map(|a| a.name().to_string()));
    let users: Vec<&str> = opts.abis.iter().map(|a| a.name.as_str()).collect();
    let users = if users.is_empty() {
        "none".to_string()
    } else {
        users.join(", ")
    };
    Err(format!(
        "unknown ABI `{}`: the ABIs are {} (`_` for `-` accepted), and the user ABIs given \
         with `--abi NAME=FILE.toml` ({users})",
        abi.name(),
        names.join(", "),
    ))
}

/// The start of the error for a signature whose assignment places a parameter on SGPRs the
/// target cannot name.
pub const PARAMETER_BEYOND_SGPRS: &str = "a parameter beyond the SGPR file";

/// The first register parameter of `a` that lies beyond the SGPRs `target` can name
/// (s0-s101 on GCN 1.2, s0-s105 on RDNA). Mesa's assignment may place a discardable
/// parameter at or above the register limit (see `gpuabi_layout::aco::assign`); the
/// code generator accepts it while the target can name the registers (they are clobbered
/// by every ABI and hold no value of the function) and refuses it otherwise, VCC included,
/// which the code generator uses for its own compares.
fn unnameable_param(a: &Assignment, target: Target) -> Option<(&ParamLayout, RegRange)> {
    a.params.iter().find_map(|p| match p.location {
        Location::Reg(r) if r.file() == RegFile::Sgpr && r.end() > target.addressable_sgprs() => {
            Some((p, r))
        }
        _ => None,
    })
}

impl ModuleAbis {
    /// The conventions of every called function and signature of `module`.
    pub fn new(
        module: &Module,
        target: Target,
        wave: WaveSize,
        max: Demand,
        opts: &CallOptions,
    ) -> Result<ModuleAbis, CodegenError> {
        let any_calls = module.functions.iter().any(|f| has_calls(&f.body));
        let aco_target = aco::Target::new(target, wave.lanes())
            .map_err(|e| CodegenError::Options(e.to_string()))?;
        let rt = aco_target.default_limit(LimitInputs {
            min_waves: 1,
            ray_tracing: true,
        });
        let limit = Demand::new(rt.sgpr.min(max.sgpr), rt.vgpr.min(max.vgpr));
        let mut hidden = Vec::new();
        for f in module.functions.iter().filter(|f| !f.attrs.kernel) {
            launch_values(&f.body, &mut hidden);
        }
        hidden.sort_by_key(|&(op, d)| (op as u8, d));
        let mut taken = vec![false; module.functions.len()];
        for f in &module.functions {
            address_taken(&f.body, &mut taken);
        }
        for (name, abi) in &opts.overrides {
            resolve(Some(&IrAbi::from_name(abi)), opts)
                .map_err(|e| CodegenError::Options(format!("--abi-override {name}={abi}: {e}")))?;
            if name == EVERY_FUNCTION {
                continue;
            }
            let Some(i) = module.functions.iter().position(|f| f.name == *name) else {
                return Err(CodegenError::Options(format!(
                    "--abi-override {name}={abi}: the module has no function `@{name}`"
                )));
            };
            if module.functions[i].attrs.kernel || taken[i] {
                return Err(CodegenError::Options(format!(
                    "--abi-override {name}={abi}: `@{name}` is {}; only functions called \
                     directly can change ABI",
                    if taken[i] {
                        "called through its address, under its signature's ABI"
                    } else {
                        "a kernel"
                    }
                )));
            }
        }
        let every = opts
            .overrides
            .iter()
            .find(|(n, _)| n == EVERY_FUNCTION)
            .map(|(_, a)| IrAbi::from_name(a));
        let abi_of = |f: &ir::Function| -> Result<Resolved, CodegenError> {
            let over = opts.overrides.iter().find(|(n, _)| *n == f.name);
            let name = over.map(|(_, a)| IrAbi::from_name(a)).or(every.clone());
            resolve(name.as_ref().or(f.attrs.abi.as_ref()), opts).map_err(|what| {
                CodegenError::Unsupported {
                    function: f.name.clone(),
                    start: f.span.start,
                    end: f.span.end,
                    what,
                }
            })
        };
        let below_limit = |set: &RegSet| {
            let mut out = RegSet::new();
            for (file, l) in [(RegFile::Sgpr, limit.sgpr), (RegFile::Vgpr, limit.vgpr)] {
                for r in set.runs_below(file, l) {
                    out.insert_range(r);
                }
            }
            out
        };
        let assign = |abi: &Abi,
                      params: &[ir::SigParam],
                      hints: Option<&aco::Hints>,
                      who: &str,
                      span: ir::Span|
         -> Result<(Assignment, RegSet), CodegenError> {
            let signature = layout_signature(params, &hidden);
            let fail = |what: String| CodegenError::Unsupported {
                function: who.to_string(),
                start: span.start,
                end: span.end,
                what,
            };
            let a = aco::assign(&AssignRequest {
                abi,
                target: aco_target,
                limit,
                signature: &signature,
                policy: opts.policy,
                hints,
            })
            .map_err(|e| {
                fail(format!(
                    "parameter assignment under ABI `{}`: {e}",
                    abi.name
                ))
            })?;
            if let Some((p, r)) = unnameable_param(&a, target) {
                return Err(fail(format!(
                    "{PARAMETER_BEYOND_SGPRS}: parameter `{}` of ABI `{}` is at {r}, beyond \
                     the SGPRs {} can name (s0-s{}); Mesa's assignment leaves the registers \
                     above the register limit ({}) to discardable parameters; `--policy \
                     packed` keeps parameters below it",
                    p.name,
                    abi.name,
                    target.name(),
                    target.addressable_sgprs() - 1,
                    limit.sgpr,
                )));
            }
            let ranges = aco::register_ranges(&abi.block, limit)
                .map_err(|e| fail(format!("ABI `{}`: {e}", abi.name)))?;
            let mut preserved = RegSet::new();
            for file in [RegFile::Sgpr, RegFile::Vgpr] {
                let l = match file {
                    RegFile::Sgpr => limit.sgpr,
                    RegFile::Vgpr => limit.vgpr,
                };
                for r in ranges.preserved.runs_below(file, l) {
                    preserved.insert_range(r);
                }
            }
            // A return parameter's registers carry the returned value back to the caller:
            // the callee leaves its result there instead of restoring them, and the caller
            // keeps nothing else there across the call. Mesa's `find_param_regs`
            // (`aco_isel_helpers.cpp`) sends return parameters to clobbered registers, but
            // a parameter filling the alignment padding of another is matched on its own
            // DISCARDABLE flag, which a return parameter need not have: a wave32 `i1`
            // return parameter (one SGPR) can land in the preserved padding before a
            // preserved 64-bit uniform parameter.
            for p in &a.params {
                if let (true, ParamKind::User, Location::Reg(r)) = (p.is_return, p.kind, p.location)
                {
                    preserved.remove_range(r);
                }
            }
            Ok((a, preserved))
        };
        // A convention of a function or signature: LLVM's, or an ACO ABI's through `assign`.
        let convention = |abi: Resolved,
                          params: &[ir::SigParam],
                          hints: Option<&aco::Hints>,
                          who: &str,
                          span: ir::Span,
                          divergent_call: bool,
                          noreturn: bool|
         -> Result<Convention, CodegenError> {
            let Resolved::Llvm(l) = abi else {
                let Resolved::Aco(abi) = abi else {
                    unreachable!("two kinds")
                };
                let (assignment, preserved) = assign(&abi, params, hints, who, span)?;
                return Ok(Convention {
                    abi,
                    llvm: None,
                    returns: Vec::new(),
                    assignment,
                    preserved,
                    divergent_call,
                    noreturn,
                });
            };
            let sp_dwords = if aco_target.gfx.has_flat_scratch() {
                1
            } else {
                4
            };
            let signature = layout_signature(params, &hidden);
            let a = llvm::assign(l, &signature, llvm::stack_pointer(sp_dwords)).map_err(|e| {
                CodegenError::Unsupported {
                    function: who.to_string(),
                    start: span.start,
                    end: span.end,
                    what: format!("parameter assignment under ABI `{l}`: {e}"),
                }
            })?;
            Ok(Convention {
                abi: Abi {
                    name: l.name().to_string(),
                    block: aco::RegisterBlock::ALL_CLOBBERED,
                    max_param_demand: None,
                },
                llvm: Some(l),
                returns: a.returns[hidden.len()..].to_vec(),
                assignment: a.assignment,
                preserved: below_limit(&l.preserved()),
                divergent_call: false,
                noreturn,
            })
        };
        // Hints for any-hit and intersection functions from the one traversal function.
        let traversal: Vec<&ir::Function> = module
            .functions
            .iter()
            .filter(|f| !f.attrs.kernel && f.attrs.abi == Some(IrAbi::Traversal))
            .collect();
        let hints = match traversal.as_slice() {
            [t] => match abi_of(t)? {
                Resolved::Aco(abi) => {
                    let (a, _) = assign(&abi, &t.sig_params(), None, &t.name, t.span)?;
                    Some(aco::ahit_isec_hints(&a))
                }
                Resolved::Llvm(_) => None,
            },
            _ => None,
        };
        let hints_for = |abi: &Resolved| match abi {
            Resolved::Aco(abi) => (abi.name == aco::NirAbi::AhitIsec.abi().name)
                .then_some(hints.as_ref())
                .flatten(),
            Resolved::Llvm(_) => None,
        };
        let mut funcs = Vec::with_capacity(module.functions.len());
        for (i, f) in module.functions.iter().enumerate() {
            if f.attrs.kernel {
                funcs.push(None);
                continue;
            }
            let abi = abi_of(f)?;
            let h = hints_for(&abi);
            funcs.push(Some(convention(
                abi,
                &f.sig_params(),
                h,
                &f.name,
                f.span,
                f.attrs.divergent_call || taken[i],
                f.attrs.noreturn,
            )?));
        }
        let mut sigs = Vec::with_capacity(module.sigs.len());
        for s in &module.sigs {
            let name = every.as_ref().or(s.attrs.abi.as_ref());
            let abi = resolve(name, opts).map_err(|what| CodegenError::Unsupported {
                function: format!("${}", s.name),
                start: s.span.start,
                end: s.span.end,
                what,
            })?;
            let h = hints_for(&abi);
            sigs.push(convention(
                abi,
                &s.params,
                h,
                &format!("${}", s.name),
                s.span,
                true,
                s.attrs.noreturn,
            )?);
        }
        Ok(ModuleAbis {
            limit,
            funcs,
            sigs,
            hidden,
            any_calls,
            address_taken: taken,
        })
    }

    /// The convention of a called function.
    pub fn func(&self, f: FuncId) -> &Convention {
        self.funcs[f.index()]
            .as_ref()
            .expect("the verifier rejects calls to kernels")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// In wave32 under the default ABI (s0-s15 preserved), Mesa's `find_param_regs` gives
    /// the stack pointer s0 (forced parameters first), then the 64-bit uniform parameter
    /// wants an aligned pair: its first fit s1 is padded to s[2:3], and the padding s1 goes
    /// to the first later 1-SGPR parameter whose raw DISCARDABLE flag (clear) matches the
    /// pair's: the `i1`, a return parameter of `@odd`, an ordinary one of `@count`.
    #[test]
    fn a_return_parameter_in_a_preserved_register_is_not_preserved() {
        let src = "fn @odd(%a: i32, %tab: ptr uniform, %r: i1 return) {\n  ret %r\n}\n\n\
                   fn @count(%a: i32, %c: i1, %tab: ptr uniform, %n: i32 return) {\n  \
                   %o = call @odd(%a, %tab, %c)\n  ret %a\n}\n\n\
                   fn @k(%out: ptr uniform) kernel {\n  %c = const i1 true\n  \
                   %z = const i32 0\n  %n = call @count(%z, %c, %out, %z)\n  ret\n}\n";
        let m = gpuabi_ir::parse(src).unwrap();
        let abis = ModuleAbis::new(
            &m,
            Target::Gfx1030,
            WaveSize::W32,
            Demand::new(104, 256),
            &CallOptions::default(),
        )
        .unwrap();
        let s = |n: u16| RegRange::new(RegFile::Sgpr, n, 1);
        let conv = |name: &str| {
            let i = m.functions.iter().position(|f| f.name == name).unwrap();
            abis.funcs[i].as_ref().unwrap()
        };
        let (odd, count) = (conv("odd"), conv("count"));
        assert_eq!(odd.reg("stack_pointer"), s(0));
        assert_eq!(
            odd.arg(1).location,
            Location::Reg(RegRange::new(RegFile::Sgpr, 2, 2))
        );
        assert_eq!(odd.arg(2).location, Location::Reg(s(1)));
        assert_eq!(count.arg(1).location, Location::Reg(s(1)));
        let preserved = |c: &Convention| -> Vec<u16> {
            (0..16)
                .filter(|&n| {
                    c.preserved.contains(gpuabi_layout::reg::Reg {
                        file: RegFile::Sgpr,
                        num: n,
                    })
                })
                .collect()
        };
        let all: Vec<u16> = (0..16).collect();
        let but_s1: Vec<u16> = all.iter().copied().filter(|&n| n != 1).collect();
        assert_eq!(preserved(odd), but_s1, "the return value comes back in s1");
        assert_eq!(
            preserved(count),
            all,
            "an ordinary parameter's s1 stays preserved"
        );
    }
}
