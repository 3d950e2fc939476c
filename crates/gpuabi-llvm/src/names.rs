//! Spelling of LLVM types, names and literals.
//!
//! `.gsir` names are `[A-Za-z0-9_.]+`; LLVM takes such a name as written unless it starts
//! with a digit (LLVM reads `%0` as a numbered value), which is then quoted. Everything the
//! emitter invents (temporaries, block labels) contains a `-`, which no `.gsir` name can,
//! so the two never collide.

use gpuabi_ir::ir::Type;

/// The LLVM type of a first-class IR type; `stack` handles are private allocas.
pub(crate) fn ty(t: Type) -> &'static str {
    match t {
        Type::I1 => "i1",
        Type::I32 => "i32",
        Type::I64 => "i64",
        Type::F32 => "float",
        Type::Ptr => "ptr addrspace(1)",
        Type::Stack => "ptr addrspace(5)",
    }
}

/// The LLVM type of a callable function's parameter (and of the matching call argument):
/// `i1` parameters are `i1 zeroext`.
///
/// Without the attribute llc-19 miscompiles an `i1` argument passed on the stack (after
/// the argument VGPRs are used up): the caller stores the 32-bit register that holds the
/// `i1` unmasked, while the callee loads one byte and takes it as 0 or 1, so `zext` of the
/// parameter can give 100. With `zeroext` the caller zero-extends the value first
/// (LLVM's LangRef, "Parameter Attributes"), which is what the callee assumes.
pub(crate) fn param_ty(t: Type) -> &'static str {
    match t {
        Type::I1 => "i1 zeroext",
        _ => ty(t),
    }
}

/// A name as LLVM reads it back unchanged, without its sigil.
fn quoted(name: &str) -> String {
    if name.starts_with(|c: char| c.is_ascii_digit()) {
        format!("\"{name}\"")
    } else {
        name.to_string()
    }
}

/// `%name` of a `.gsir` value.
pub(crate) fn local(name: &str) -> String {
    format!("%{}", quoted(name))
}

/// `@name` of a `.gsir` function.
pub(crate) fn global(name: &str) -> String {
    format!("@{}", quoted(name))
}

/// The struct a function with `return` parameters returns, or `void`.
pub(crate) fn ret_ty(types: &[Type]) -> String {
    if types.is_empty() {
        "void".to_string()
    } else {
        let fields: Vec<&str> = types.iter().map(|t| ty(*t)).collect();
        format!("{{ {} }}", fields.join(", "))
    }
}

/// An LLVM literal for `bits` of type `t`, or `None` when the value needs an instruction
/// (a NaN, whose payload a float literal does not keep reliably, or a non-null pointer).
pub(crate) fn literal(t: Type, bits: u64) -> Option<String> {
    Some(match t {
        Type::I1 => if bits & 1 != 0 { "true" } else { "false" }.to_string(),
        Type::I32 => (bits as u32 as i32).to_string(),
        Type::I64 => (bits as i64).to_string(),
        Type::F32 => {
            let f = f32::from_bits(bits as u32);
            if f.is_nan() {
                return None;
            }
            // LLVM writes every float literal in the hexadecimal form of the double with the
            // same value; f32 → f64 is exact for non-NaN values.
            format!("0x{:016X}", f64::from(f).to_bits())
        }
        Type::Ptr if bits == 0 => "null".to_string(),
        Type::Ptr | Type::Stack => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn literals() {
        assert_eq!(literal(Type::I32, 0xffff_ffff).unwrap(), "-1");
        assert_eq!(literal(Type::I1, 1).unwrap(), "true");
        // 1.0f = 0x3f800000 is the double 0x3FF0000000000000.
        assert_eq!(
            literal(Type::F32, 0x3f80_0000).unwrap(),
            "0x3FF0000000000000"
        );
        assert_eq!(literal(Type::F32, 0x7fc0_0000), None);
        assert_eq!(local("0x"), "%\"0x\"");
        assert_eq!(local("x.1"), "%x.1");
    }
}
