//! Functions, their parameters and SSA values.

use super::{FuncAttrs, Region, SigParam, Span, Type};

/// An SSA value: an index into its function's value table.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Value(pub u32);

impl Value {
    /// Index into [`Function::values`].
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

/// Name and type of an SSA value.
#[derive(Debug, Clone, PartialEq)]
pub struct ValueData {
    /// Text name without the `%`; unique within the function.
    pub name: String,
    /// Type.
    pub ty: Type,
}

/// Attributes of a parameter, as in the seed's signatures.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
pub struct ParamAttrs {
    /// Same value in every lane of a wave; the verifier checks every call's argument with
    /// the uniformity analysis.
    pub uniform: bool,
    /// The callee need not preserve the value.
    pub discardable: bool,
    /// In/out: the call yields the parameter's final value as a new SSA value.
    pub ret: bool,
}

/// A function parameter.
#[derive(Debug, Clone, PartialEq)]
pub struct Param {
    /// The value holding the parameter inside the body.
    pub value: Value,
    /// Attributes.
    pub attrs: ParamAttrs,
}

/// A function: signature, attributes and structured body.
#[derive(Debug, Clone, PartialEq)]
pub struct Function {
    /// Name without the `@`.
    pub name: String,
    /// Parameters in order.
    pub params: Vec<Param>,
    /// Function attributes.
    pub attrs: FuncAttrs,
    /// Every value defined in the function (parameters first).
    pub values: Vec<ValueData>,
    /// The body.
    pub body: Region,
    /// Where the function header was written.
    pub span: Span,
}

impl Function {
    /// Type of a value.
    pub fn ty(&self, v: super::Value) -> Type {
        self.values[v.index()].ty
    }

    /// Name of a value.
    pub fn value_name(&self, v: super::Value) -> &str {
        &self.values[v.index()].name
    }

    /// The parameter list as a signature sees it (types and attributes, no names).
    pub fn sig_params(&self) -> Vec<SigParam> {
        self.params
            .iter()
            .map(|p| SigParam {
                ty: self.ty(p.value),
                attrs: p.attrs,
            })
            .collect()
    }

    /// Types of the `return` parameters, in order: the results of a call.
    pub fn return_types(&self) -> Vec<Type> {
        self.params
            .iter()
            .filter(|p| p.attrs.ret)
            .map(|p| self.ty(p.value))
            .collect()
    }
}
