//! Functions besides the kernel: their signatures and bodies, for [`super::GenConfig::calls`].
//!
//! A program has a few callee groups, each one of these shapes:
//!
//! * a single function called directly;
//! * a family of two or three functions with one signature and the same attributes,
//!   declared as a named `sig` and called through a function pointer that each call site
//!   chooses per invocation (`select ptr` between their `func_addr`s), so that the lanes of
//!   one wave call different functions; a member may end in a tail call of the next member
//!   (passing its own parameters on unmodified and returning the results);
//! * a recursive function whose `i32` depth parameter counts down to a base case at 0;
//!   every caller passes a depth of at most [`MAX_DEPTH`], so the recursion is bounded;
//! * a wide signature of [`WIDE_PARAMS`] values, under one of the ray-tracing ABIs, so that
//!   ACO's assignment runs past the ABI's `max_param_demand` of 48 SGPRs and 48 VGPRs
//!   (Mesa `src/amd/compiler/aco_ir.cpp`, the `rtRaygenABI`-style ABI definitions) and puts
//!   parameters in scratch.
//!
//! Every callee gets the invocation's output slice (`%slice`, a divergent pointer) and both
//! input buffers (`%in` and `%tab`, `uniform` pointers: they are the kernel's arguments)
//! passed straight through, so its statements read and write memory under the same rules as
//! the kernel's. Its first `return` parameter is an `i32` that comes back as the digest of
//! everything the callee computed; the other `return` parameters come back as values the
//! caller digests. Function pointers exist only at call sites: they are never stored,
//! compared or hashed, because a function's address is the implementation's choice.
//!
//! Groups are written last first: group `k` calls only groups after it (besides a recursive
//! function calling itself), so the call graph has no cycle but self-recursion, and each
//! function's cost is known before anything calls it (see [`Callee::cost`]).

use super::builder::{Alloca, Base, Builder, Input};
use super::rng::Rng;
use super::{call, control, digest, ops, Constructs, GenConfig, Ty};

/// Deepest recursion depth a caller passes (the recursion runs `MAX_DEPTH + 1` levels).
pub(super) const MAX_DEPTH: u32 = 3;

/// Value parameters of a wide signature.
const WIDE_PARAMS: (u32, u32) = (44, 70);

/// ACO's `max_param_demand` of the three ray-tracing ABIs, in SGPRs and VGPRs.
const RT_PARAM_DEMAND: u32 = 48;

/// Largest estimated cost of one call site: the callee's cost times the trip counts of the
/// loops around the call.
pub(super) const MAX_CALL_WORK: u64 = 6000;

/// The ABI named in a function's `abi(...)`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Abi {
    /// No `abi(...)`: the default.
    Default,
    RtRecursive,
    Traversal,
    AhitIsec,
    /// LLVM's callable-function convention (`llvm_gfx`).
    LlvmGfx,
    /// LLVM's `amdgpu_gfx` convention (`llvm_amdgpu_gfx`).
    LlvmAmdgpuGfx,
}

impl Abi {
    /// The attribute text, with a leading space.
    fn text(self) -> &'static str {
        match self {
            Abi::Default => "",
            Abi::RtRecursive => " abi(rt_recursive)",
            Abi::Traversal => " abi(traversal)",
            Abi::AhitIsec => " abi(ahit_isec)",
            Abi::LlvmGfx => " abi(llvm_gfx)",
            Abi::LlvmAmdgpuGfx => " abi(llvm_amdgpu_gfx)",
        }
    }

    /// Index into [`Constructs::functions_by_abi`].
    fn index(self) -> usize {
        self as usize
    }
}

/// What a parameter carries.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Role {
    /// The invocation's output slice.
    Slice,
    /// Input buffer `i` (in the kernel's order).
    Input(usize),
    /// The recursion depth.
    Depth,
    /// The `i32` digest of the callee (`return`).
    Digest,
    /// Any other value.
    Value,
}

/// One parameter of a signature.
#[derive(Debug, Clone, Copy)]
pub(super) struct Param {
    pub role: Role,
    pub ty: Ty,
    pub uniform: bool,
    pub discardable: bool,
    pub ret: bool,
}

/// A signature with its function attributes.
#[derive(Debug, Clone)]
pub(super) struct Signature {
    pub params: Vec<Param>,
    pub abi: Abi,
    pub divergent_call: bool,
}

impl Signature {
    /// The parameter list and attributes as `sig` and `fn` headers write them; `names`
    /// gives each parameter's `%name` for a `fn` header, none for a `sig`.
    fn text(&self, names: Option<&[String]>) -> String {
        let params: Vec<String> = self
            .params
            .iter()
            .enumerate()
            .map(|(k, p)| {
                let mut s = match names {
                    Some(n) => format!("{}: {}", n[k], p.ty.name()),
                    None => p.ty.name().to_string(),
                };
                for (on, word) in [
                    (p.uniform, " uniform"),
                    (p.discardable, " discardable"),
                    (p.ret, " return"),
                ] {
                    if on {
                        s.push_str(word);
                    }
                }
                s
            })
            .collect();
        let mut s = format!("({})", params.join(", "));
        s.push_str(self.abi.text());
        if self.divergent_call {
            s.push_str(" divergent_call");
        }
        s
    }

    /// True when the registers ACO may give the parameters cannot hold them: under a
    /// ray-tracing ABI, the `uniform` parameters need more than 48 SGPRs or the others more
    /// than 48 VGPRs (counting the two program counters RADV prepends, as
    /// `radv_nir_lower_callee_signature` in Mesa `src/amd/vulkan/nir/` does). Lane masks
    /// (`i1`) take SGPRs; they are counted as one, their size in wave32.
    pub(super) fn spills_params(&self) -> bool {
        if matches!(self.abi, Abi::Default | Abi::LlvmGfx | Abi::LlvmAmdgpuGfx) {
            return false;
        }
        let (mut sgprs, mut vgprs) = (2u32, 2u32);
        for p in &self.params {
            let dwords = p.ty.bytes().div_ceil(4);
            if p.ty == Ty::I1 {
                sgprs += 1;
            } else if p.uniform {
                sgprs += dwords;
            } else {
                vgprs += dwords;
            }
        }
        sgprs > RT_PARAM_DEMAND || vgprs > RT_PARAM_DEMAND
    }

    /// The parameters that are `return`, in order: the results of a call.
    pub(super) fn returns(&self) -> Vec<Param> {
        self.params.iter().copied().filter(|p| p.ret).collect()
    }
}

/// A callee group as its callers see it.
#[derive(Debug, Clone)]
pub(super) struct Callee {
    /// Function names without `@`: one, or the members of a family.
    pub names: Vec<String>,
    /// The `sig` name of a family (without `$`).
    pub sig_name: Option<String>,
    pub sig: Signature,
    /// Estimated instructions one call runs, callees included: the largest of the members'
    /// estimates. An upper bound in the common case (each written line counted once per
    /// iteration of the loops around it), used only to keep the total work bounded.
    pub cost: u64,
}

/// The shape of a callee group.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Shape {
    Single,
    Family,
    Recursive,
    Wide,
}

/// Everything the callees add to the module: `sig` lines, function texts (each ending in
/// a newline) and the groups the kernel may call.
pub(super) struct Callees {
    /// `sig` lines without their newline.
    pub sigs: Vec<String>,
    /// Function texts in module order.
    pub functions: Vec<String>,
    /// The groups, in the order they may call each other (each only later ones).
    pub groups: Vec<Callee>,
    /// First free byte of the invocation's slice after the callees' slots.
    pub next_slot: u32,
    /// What the callees contain.
    pub constructs: Constructs,
}

/// Plans and writes the callees of kernel `kernel`, given the kernel's input buffers and
/// the first slice byte they may use.
pub(super) fn write_all(
    rng: &mut Rng,
    cfg: &GenConfig,
    kernel: &str,
    inputs: &[Input],
    first_slot: u32,
) -> Callees {
    let n = rng.range(2, 5) as usize;
    let shapes: Vec<Shape> = (0..n)
        .map(|_| match rng.below(10) {
            0..=2 => Shape::Single,
            3..=5 => Shape::Family,
            // The recursion's base case is an `if`: not without nesting.
            6 | 7 if cfg.max_depth > 0 => Shape::Recursive,
            6 | 7 => Shape::Single,
            _ => Shape::Wide,
        })
        .collect();
    let mut out = Callees {
        sigs: Vec::new(),
        functions: Vec::new(),
        groups: Vec::new(),
        next_slot: first_slot,
        constructs: Constructs::default(),
    };
    // Written last first, so that each group knows the groups it may call.
    let mut texts = Vec::new();
    for g in (0..n).rev() {
        let shape = shapes[g];
        let sig = signature(rng, shape);
        let members = if shape == Shape::Family || (shape == Shape::Wide && rng.chance(50)) {
            rng.range(2, 3) as usize
        } else {
            1
        };
        let names: Vec<String> = (0..members).map(|m| format!("{kernel}_f{g}_{m}")).collect();
        let sig_name = (members > 1).then(|| format!("{kernel}_s{g}"));
        // Members are written last first too: a member may end in a tail call of the next.
        let mut cost = 0;
        let mut group_texts = Vec::new();
        let mut next: Option<Callee> = None;
        for name in names.iter().rev() {
            let f = Plan {
                name,
                sig: &sig,
                recursive: shape == Shape::Recursive,
                tail: next.take().filter(|_| rng.chance(50)),
            };
            let w = write_one(rng, cfg, inputs, &out, &f);
            out.next_slot = w.next_slot;
            cost = cost.max(w.cost);
            out.constructs.add(&w.constructs);
            out.constructs.functions_by_abi[sig.abi.index()] += 1;
            out.constructs.divergent_call_functions += usize::from(sig.divergent_call);
            group_texts.push(w.text);
            next = Some(Callee {
                names: vec![name.clone()],
                sig_name: None,
                sig: sig.clone(),
                cost: w.cost,
            });
        }
        group_texts.reverse();
        if let Some(s) = &sig_name {
            out.sigs.push(format!("sig ${s}{}", sig.text(None)));
        }
        out.constructs.recursive_functions += usize::from(shape == Shape::Recursive);
        out.constructs.scratch_param_signatures += usize::from(sig.spills_params());
        texts.push(group_texts);
        out.groups.push(Callee {
            names,
            sig_name,
            sig,
            cost,
        });
    }
    out.sigs.reverse();
    out.groups.reverse();
    texts.reverse();
    out.functions = texts.into_iter().flatten().collect();
    out
}

/// A random signature of `shape`: the slice, both inputs, the digest, a depth for a
/// recursive function, and value parameters, in a random order.
fn signature(rng: &mut Rng, shape: Shape) -> Signature {
    let mut params = vec![
        Param {
            role: Role::Slice,
            ty: Ty::Ptr,
            uniform: false,
            discardable: rng.chance(10),
            ret: false,
        },
        Param {
            role: Role::Digest,
            ty: Ty::I32,
            uniform: false,
            discardable: false,
            ret: true,
        },
    ];
    for i in 0..2 {
        params.push(Param {
            role: Role::Input(i),
            ty: Ty::Ptr,
            uniform: true,
            discardable: rng.chance(10),
            ret: false,
        });
    }
    if shape == Shape::Recursive {
        params.push(Param {
            role: Role::Depth,
            ty: Ty::I32,
            uniform: rng.chance(50),
            discardable: false,
            ret: false,
        });
    }
    let (values, uniform_percent, ret_percent) = if shape == Shape::Wide {
        (rng.range(WIDE_PARAMS.0, WIDE_PARAMS.1), 12, 5)
    } else {
        (rng.range(0, 7), 30, 25)
    };
    for _ in 0..values {
        let ty = if shape == Shape::Wide {
            rng.pick(&[Ty::I32, Ty::F32, Ty::F32, Ty::I32, Ty::F32, Ty::I1])
        } else {
            rng.pick(&[Ty::I1, Ty::I32, Ty::I32, Ty::I64, Ty::F32, Ty::F32, Ty::Ptr])
        };
        let ret = rng.chance(ret_percent);
        // A `uniform` pointer would need a uniform pointer value at every call site; only
        // the inputs are, and they are passed as such.
        let uniform = !ret && ty != Ty::Ptr && rng.chance(uniform_percent);
        params.push(Param {
            role: Role::Value,
            ty,
            uniform,
            discardable: !ret && rng.chance(10),
            ret,
        });
    }
    for k in (1..params.len()).rev() {
        let j = rng.below(k + 1);
        params.swap(k, j);
    }
    let abi = match shape {
        Shape::Wide => rng.pick(&[Abi::RtRecursive, Abi::Traversal, Abi::AhitIsec]),
        _ => rng.pick(&[
            Abi::Default,
            Abi::LlvmGfx,
            Abi::RtRecursive,
            Abi::Traversal,
            Abi::AhitIsec,
        ]),
    };
    // One of LLVM's two conventions by the parameter count, which leaves the random
    // stream (and so every other choice of a seed) as it was before they were choices.
    // Wide signatures do not fit LLVM's 32 argument VGPRs.
    let abi = match abi {
        Abi::LlvmGfx if params.len() % 2 == 1 => Abi::LlvmAmdgpuGfx,
        other => other,
    };
    let divergent_call = rng.chance(if abi == Abi::RtRecursive { 60 } else { 20 });
    Signature {
        params,
        abi,
        divergent_call,
    }
}

/// One written function.
struct Written {
    text: String,
    next_slot: u32,
    cost: u64,
    constructs: Constructs,
}

/// The limits of a callee's body, derived from the kernel's: a quarter of its instructions,
/// shallower nesting and fewer loop iterations, no burst.
fn callee_config(cfg: &GenConfig) -> GenConfig {
    GenConfig {
        max_instrs: cfg.max_instrs / 4,
        max_depth: cfg.max_depth.min(2),
        max_trip: cfg.max_trip.min(4),
        max_loop_work: cfg.max_loop_work.min(8),
        max_burst: 0,
        ..cfg.clone()
    }
}

/// What to write of one function.
struct Plan<'a> {
    name: &'a str,
    sig: &'a Signature,
    /// Whether it calls itself.
    recursive: bool,
    /// A function with the same signature and attributes to end with a tail call of.
    tail: Option<Callee>,
}

/// Writes function `f`; it may call the groups written so far (`done.groups`) and uses the
/// slice from `done.next_slot` on.
fn write_one(
    rng: &mut Rng,
    cfg: &GenConfig,
    inputs: &[Input],
    done: &Callees,
    f: &Plan,
) -> Written {
    let (name, sig, recursive) = (f.name, f.sig, f.recursive);
    let mut ccfg = callee_config(cfg);
    ccfg.stack_arrays &= rng.chance(50);
    let mut b = Builder::new(Rng::new(rng.next_u64()), &ccfg);
    b.start_slots_at(done.next_slot);
    b.set_callees(done.groups.clone());
    b.inputs = inputs.to_vec();
    let mut names = Vec::new();
    let mut depth = None;
    let mut digest_param = None;
    let mut value_params = 0;
    for p in &sig.params {
        let base = match p.role {
            Role::Input(i) => Base::Input(i),
            Role::Value if p.ty == Ty::Ptr => Base::Input(0),
            _ => Base::None,
        };
        let id = b.detached(p.ty, p.uniform, base);
        let pname = match p.role {
            Role::Slice => "%slice".to_string(),
            Role::Input(i) => inputs[i].param.clone(),
            Role::Depth => "%depth".to_string(),
            Role::Digest => "%digest".to_string(),
            Role::Value => {
                value_params += 1;
                format!("%a{}", value_params - 1)
            }
        };
        b.vals[id].name = pname.clone();
        names.push(pname);
        match p.role {
            // Only parameters with a role in the body are operands: the slice and the
            // inputs are used through their names.
            Role::Value => b.attach(id),
            Role::Depth => {
                b.attach(id);
                depth = Some(id);
            }
            Role::Digest => {
                b.attach(id);
                digest_param = Some(id);
            }
            Role::Slice | Role::Input(_) => {}
        }
        if p.uniform && p.role != Role::Slice {
            b.invariants.push(id);
        }
    }
    let header = format!("fn @{name}{} {{\n", sig.text(Some(&names)));
    prologue(&mut b);
    let lines_before = b.lines_written();
    let mut statements = 0;
    let recursion_at = recursive.then(|| b.rng.below(4));
    while b.budget > 0 || (recursion_at.is_some() && statements <= recursion_at.unwrap_or(0)) {
        if recursion_at == Some(statements) {
            if let Some(d) = depth {
                recurse(&mut b, name, sig, d);
            }
        }
        control::statement(&mut b);
        statements += 1;
        if statements % 8 == 0 {
            digest::checkpoint(&mut b);
        }
    }
    // The `return` values: the digest of everything, and a value of each other type.
    let mut rets = Vec::new();
    for p in sig.returns() {
        if p.role == Role::Value {
            let v = control::carried(&mut b, p.ty);
            rets.push(Some(v));
        } else {
            rets.push(None);
        }
    }
    let seed = digest_param.map_or("5".to_string(), |d| b.use_val(d));
    let d = digest::fold_pending(&mut b, &seed);
    let ret: Vec<String> = match &f.tail {
        // A tail call (Mesa's `radv_nir_lower_call_abi` turns a call that ends a function
        // and passes the function's own parameters unmodified into a jump): the digest
        // goes to memory first, as the call passes the incoming digest on.
        Some(t) => {
            digest::accumulate(&mut b, d);
            b.call_cost += t.cost;
            call::tail(&mut b, t, &names)
                .into_iter()
                .map(|r| b.use_val(r))
                .collect()
        }
        None => rets
            .into_iter()
            .map(|r| b.use_val(r.unwrap_or(d)))
            .collect(),
    };
    b.line(&format!("ret {}", ret.join(", ")));
    let own = (b.lines_written() - lines_before) as u64 * u64::from(ccfg.max_loop_work.max(1));
    let per_level = own + b.call_cost;
    let cost = if recursive {
        per_level * u64::from(MAX_DEPTH + 1)
    } else {
        per_level
    };
    let mut text = header;
    text.push_str(&b.take_text());
    text.push_str("}\n");
    Written {
        text,
        next_slot: b.slice_bytes(),
        cost,
        constructs: b.constructs,
    }
}

/// Writes a callee's prologue: the inputs' addresses, the ids it makes divergent
/// conditions from, and its stack arrays (in its own frame) when its configuration has
/// them.
fn prologue(b: &mut Builder) {
    for k in 0..b.inputs.len() {
        let (param, bits) = (b.inputs[k].param.clone(), b.inputs[k].bits.clone());
        b.line(&format!("{bits} = bitcast ptr {param} to i64"));
    }
    let l = ops::builtin(b, "local_id", 0);
    let g = ops::builtin(b, "global_id", 0);
    b.lane_ids.extend([l, g]);
    if b.cfg.stack_arrays {
        b.line("%pstack = alloca 8");
        let size = b.rng.pick(&[8u32, 16, 24, 64]);
        b.line(&format!("%stack0 = alloca {size}"));
        b.allocas.push(Alloca {
            name: "%stack0".to_string(),
            size,
            window: 1 << (31 - size.leading_zeros()),
        });
        b.constructs.allocas += 2;
    }
}

/// Writes the recursion of function `name`: an `if` on the depth reaching 0 whose base arm
/// computes a little and whose other arm calls `name` with the depth minus one; the
/// recursion's results leave the `if` as its results.
fn recurse(b: &mut Builder, name: &str, sig: &Signature, depth: usize) {
    let uniform = b.vals[depth].uniform;
    let dn = b.use_val(depth);
    let stop = b.def(Ty::I1, uniform, &format!("icmp sle i32 {dn}, 0"));
    b.vals[stop].branched = true;
    let stop = b.use_val(stop);
    let rets = sig.returns();
    let results: Vec<usize> = rets
        .iter()
        .map(|p| b.detached(p.ty, false, call::result_base(p.ty)))
        .collect();
    let names: Vec<String> = results.iter().map(|&r| b.name(r)).collect();
    let tys: Vec<&str> = rets.iter().map(|p| p.ty.name()).collect();
    if uniform {
        b.constructs.uniform_if += 1;
    } else {
        b.constructs.divergent_if += 1;
    }
    b.depth += 1;
    b.ifs.push(uniform);
    b.open(&format!(
        "{} = if {stop} -> {} {{",
        names.join(", "),
        tys.join(", ")
    ));
    for arm in 0..2 {
        if arm == 1 {
            b.reopen();
        }
        let mut yields: Vec<usize> = Vec::new();
        if arm == 1 {
            let d1 = b.def(Ty::I32, uniform, &format!("sub i32 {dn}, 1"));
            let d1 = b.use_val(d1);
            let callee = Callee {
                names: vec![name.to_string()],
                sig_name: None,
                sig: sig.clone(),
                cost: 0,
            };
            yields = call::direct(b, &callee, Some(&d1));
        }
        let n = b.rng.range(0, 2) as usize;
        control::block(b, n);
        let mut ops = Vec::new();
        for (k, p) in rets.iter().enumerate() {
            let v = match yields.get(k) {
                Some(&v) if p.role == Role::Digest => v,
                _ if p.role == Role::Digest => b.value(Ty::I32),
                _ => control::carried(b, p.ty),
            };
            ops.push(v);
        }
        // The arm's other values: folded into the digest it yields.
        let digest_at = rets.iter().position(|p| p.role == Role::Digest);
        let seed = digest_at.map_or("7".to_string(), |k| b.name(ops[k]));
        let d = digest::digest_locals(b, &seed);
        if let Some(k) = digest_at {
            ops[k] = d;
        }
        let texts: Vec<String> = ops.iter().map(|&v| b.use_val(v)).collect();
        b.line(&format!("yield {}", texts.join(", ")));
        b.close(if arm == 0 { "} else {" } else { "}" });
    }
    for (k, r) in results.into_iter().enumerate() {
        if rets[k].role == Role::Digest {
            b.vals[r].pinned = true;
        }
        b.attach(r);
    }
    b.ifs.pop();
    b.depth -= 1;
}
