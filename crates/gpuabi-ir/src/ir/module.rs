//! Modules, named signatures and function attributes.

use super::{Function, ParamAttrs, Span, Type};

/// The calling convention a function uses.
///
/// The three Mesa RT ABIs are built in; any other name is kept as written and resolved by
/// the layout crate later (the IR does not know what it means).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Abi {
    /// `rt_recursive`: raygen, callable, closest-hit and miss shaders.
    RtRecursive,
    /// `traversal`: the traversal function.
    Traversal,
    /// `ahit_isec`: any-hit and intersection shaders.
    AhitIsec,
    /// A user ABI by name.
    Named(String),
}

impl Abi {
    /// Text name inside `abi(...)`.
    pub fn name(&self) -> &str {
        match self {
            Abi::RtRecursive => "rt_recursive",
            Abi::Traversal => "traversal",
            Abi::AhitIsec => "ahit_isec",
            Abi::Named(n) => n,
        }
    }

    /// Reads an ABI name.
    pub fn from_name(name: &str) -> Abi {
        match name {
            "rt_recursive" => Abi::RtRecursive,
            "traversal" => Abi::Traversal,
            "ahit_isec" => Abi::AhitIsec,
            other => Abi::Named(other.to_string()),
        }
    }
}

/// Function attributes.
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash)]
pub struct FuncAttrs {
    /// An entry point of a dispatch; parameters are kernel arguments. Kernels cannot be
    /// called.
    pub kernel: bool,
    /// Calling convention, if not the default one.
    pub abi: Option<Abi>,
    /// Lanes of one wave may enter wanting different callees (Mesa's DIVERGENT_CALL).
    pub divergent_call: bool,
    /// Never returns to its caller: its `ret` ends the invocation (Mesa's NORETURN).
    pub noreturn: bool,
}

/// A parameter of a named signature.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct SigParam {
    /// Type.
    pub ty: Type,
    /// Attributes.
    pub attrs: ParamAttrs,
}

/// A named signature for indirect calls: `sig $name(T attrs, ...) attrs`.
#[derive(Debug, Clone, PartialEq)]
pub struct Signature {
    /// Name without the `$`.
    pub name: String,
    /// Parameters.
    pub params: Vec<SigParam>,
    /// Attributes (`kernel` is not allowed).
    pub attrs: FuncAttrs,
    /// Where it was written.
    pub span: Span,
}

impl Signature {
    /// Types of the `return` parameters: the results of a call.
    pub fn return_types(&self) -> Vec<Type> {
        self.params
            .iter()
            .filter(|p| p.attrs.ret)
            .map(|p| p.ty)
            .collect()
    }

    /// True when a function has exactly this signature: same parameter types and
    /// attributes, same ABI, `divergent_call` and `noreturn`.
    pub fn matches(&self, f: &Function) -> bool {
        self.params == f.sig_params()
            && self.attrs.abi == f.attrs.abi
            && self.attrs.divergent_call == f.attrs.divergent_call
            && self.attrs.noreturn == f.attrs.noreturn
    }
}

/// A function of a module: an index into [`Module::functions`], resolved from its name by
/// the parser.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct FuncId(pub u32);

impl FuncId {
    /// Index into [`Module::functions`].
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

/// A signature of a module: an index into [`Module::sigs`], resolved from its name by the
/// parser.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct SigId(pub u32);

impl SigId {
    /// Index into [`Module::sigs`].
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

/// A module: named signatures and functions.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Module {
    /// Signatures for indirect calls.
    pub sigs: Vec<Signature>,
    /// Functions.
    pub functions: Vec<Function>,
}

impl Module {
    /// The function `id` refers to; panics when `id` is not of this module (the verifier
    /// rejects such ids).
    pub fn func(&self, id: FuncId) -> &Function {
        &self.functions[id.index()]
    }

    /// The signature `id` refers to; panics when `id` is not of this module (the verifier
    /// rejects such ids).
    pub fn signature(&self, id: SigId) -> &Signature {
        &self.sigs[id.index()]
    }

    /// The id of the first function named `name`.
    pub fn func_id(&self, name: &str) -> Option<FuncId> {
        self.functions
            .iter()
            .position(|f| f.name == name)
            .map(|i| FuncId(i as u32))
    }

    /// The id of the first signature named `name`.
    pub fn sig_id(&self, name: &str) -> Option<SigId> {
        self.sigs
            .iter()
            .position(|s| s.name == name)
            .map(|i| SigId(i as u32))
    }

    /// A function by name.
    pub fn function(&self, name: &str) -> Option<&Function> {
        self.functions.iter().find(|f| f.name == name)
    }

    /// A signature by name.
    pub fn sig(&self, name: &str) -> Option<&Signature> {
        self.sigs.iter().find(|s| s.name == name)
    }
}
