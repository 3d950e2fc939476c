//! Global and stack memory accesses that are in bounds, naturally aligned and race-free.
//!
//! * Input buffers are read-only and shared: a pointer into one is its parameter plus an
//!   offset masked to the buffer's power-of-two size and to 8-byte alignment, so any
//!   access of up to 8 bytes there is in bounds; narrower accesses add a sub-offset masked
//!   to their own alignment.
//! * The output buffer is cut into one slice per invocation; an invocation writes and
//!   reads back only its own slice, at fixed slots or in a window at masked run-time
//!   offsets. No invocation reads what another writes, so the result does not depend on
//!   the order or grouping in which invocations run.
//! * Stack arrays are accessed at literal offsets or at run-time offsets masked to the
//!   largest power of two that fits the array.
//!
//! The interpreter accepts unaligned accesses, but hardware and a backend's address
//! arithmetic may not, so every access here is aligned to its width: such programs have
//! one meaning everywhere.

use super::builder::{Base, Builder, PTR_SLOT, WINDOW};
use super::Ty;

/// Width in bytes of what a global load opcode reads.
fn load_width(name: &str, ty: Ty) -> u32 {
    match name {
        "load_u8" | "load_s8" => 1,
        "load_u16" | "load_s16" => 2,
        _ => ty.bytes(),
    }
}

/// Writes a new pointer into a random input buffer; returns it.
pub(super) fn new_pointer(b: &mut Builder) -> usize {
    let i = b.rng.below(b.inputs.len());
    new_pointer_into(b, i)
}

/// Writes a new pointer into input buffer `i`: its parameter plus a literal or a masked
/// run-time offset; returns it.
pub(super) fn new_pointer_into(b: &mut Builder, i: usize) -> usize {
    let (param, size) = (b.inputs[i].param.clone(), b.inputs[i].size);
    if b.rng.chance(20) {
        let off = b.rng.below((size / 8) as usize) * 8;
        return b.def_ptr(
            Ty::Ptr,
            true,
            Base::Input(i),
            &format!("ptradd {param}, {off}"),
        );
    }
    let ty = if b.rng.chance(70) { Ty::I32 } else { Ty::I64 };
    let mut u = true;
    let x = b.operand_val(ty, &mut u);
    let m = b.def(ty, u, &format!("and {} {x}, {}", ty.name(), size - 8));
    let m = b.use_val(m);
    b.def_ptr(Ty::Ptr, u, Base::Input(i), &format!("ptradd {param}, {m}"))
}

/// A dereferenceable pointer from the values in scope, or a new one.
fn pointer(b: &mut Builder) -> usize {
    match b.pick(Ty::Ptr, None) {
        Some(p) if b.rng.chance(70) => p,
        _ => new_pointer(b),
    }
}

/// Writes the offset of pointer `p` from the start of its buffer as an `i64` (for a
/// null pointer, its bits, which are 0); returns it.
pub(super) fn pointer_offset(b: &mut Builder, p: usize) -> usize {
    let u = b.vals[p].uniform;
    let base = b.vals[p].base;
    let name = b.use_val(p);
    match base {
        Base::Input(i) => {
            let bits = b.inputs[i].bits.clone();
            let a = b.temp(Ty::I64, &format!("bitcast ptr {name} to i64"));
            b.def(Ty::I64, u, &format!("sub i64 {a}, {bits}"))
        }
        _ => b.def(Ty::I64, u, &format!("bitcast ptr {name} to i64")),
    }
}

/// Writes a pointer made from integer bits: the input buffer's address plus a masked
/// offset, through `bitcast i64 ... to ptr`.
pub(super) fn pointer_from_bits(b: &mut Builder) {
    let i = b.rng.below(b.inputs.len());
    let (bits, size) = (b.inputs[i].bits.clone(), b.inputs[i].size);
    let mut u = true;
    let x = b.operand_val(Ty::I64, &mut u);
    let m = b.def(Ty::I64, u, &format!("and i64 {x}, {}", size - 8));
    let m = b.use_val(m);
    let a = b.temp(Ty::I64, &format!("add i64 {bits}, {m}"));
    b.def_ptr(
        Ty::Ptr,
        u,
        Base::Input(i),
        &format!("bitcast i64 {a} to ptr"),
    );
}

/// An address `width` bytes wide in this invocation's output window, at a run-time
/// offset.
fn window_address(b: &mut Builder, width: u32) -> String {
    let mut u = true;
    let x = b.operand_val(Ty::I32, &mut u);
    let m = b.def(Ty::I32, u, &format!("and i32 {x}, {}", WINDOW.1 - width));
    let m = b.use_val(m);
    let o = b.def(Ty::I32, u, &format!("add i32 {m}, {}", WINDOW.0));
    let o = b.use_val(o);
    b.temp(Ty::Ptr, &format!("ptradd %slice, {o}"))
}

/// The address of output slot `offset` of this invocation.
fn slot_address(b: &mut Builder, offset: u32) -> String {
    b.temp(Ty::Ptr, &format!("ptradd %slice, {offset}"))
}

/// Writes a global load: from an input buffer mostly, else back from this invocation's
/// own output slice (a stored slot or the window).
pub(super) fn load(b: &mut Builder, name: &str) {
    let ty = match name {
        "load" => b.rng.pick(&[Ty::I32, Ty::I64, Ty::F32]),
        _ => Ty::I32,
    };
    let width = load_width(name, ty);
    let t = if name == "load" {
        format!("load {}", ty.name())
    } else {
        name.to_string()
    };
    if b.rng.chance(25) {
        let slots: Vec<u32> = b
            .slots
            .iter()
            .filter(|s| s.1 == width)
            .map(|s| s.0)
            .collect();
        let addr = if !slots.is_empty() && b.rng.chance(60) {
            let off = b.rng.pick(&slots);
            slot_address(b, off)
        } else {
            window_address(b, width)
        };
        b.def(ty, false, &format!("{t} {addr}"));
        return;
    }
    let p = pointer(b);
    let mut u = b.vals[p].uniform;
    let p = b.use_val(p);
    let addr = if width < 8 && b.rng.chance(70) {
        let x = b.operand_val(Ty::I32, &mut u);
        let s = b.def(Ty::I32, u, &format!("and i32 {x}, {}", 8 - width));
        let s = b.use_val(s);
        b.temp(Ty::Ptr, &format!("ptradd {p}, {s}"))
    } else {
        p
    };
    b.def(ty, u, &format!("{t} {addr}"));
}

/// Writes a global store of a value in scope into this invocation's output slice.
pub(super) fn store(b: &mut Builder, name: &str) {
    let (ty, width, t) = match name {
        "store_8" => (Ty::I32, 1, "store_8".to_string()),
        "store_16" => (Ty::I32, 2, "store_16".to_string()),
        _ => {
            let ty = b.rng.pick(&[Ty::I32, Ty::I64, Ty::F32, Ty::Ptr]);
            (ty, ty.bytes(), format!("store {}", ty.name()))
        }
    };
    if ty == Ty::Ptr {
        pointer_round_trip(b, false);
        return;
    }
    let v = b.value(ty);
    let v = b.use_val(v);
    let addr = if b.rng.chance(30) {
        window_address(b, width)
    } else {
        let off = b.slot(width);
        slot_address(b, off)
    };
    b.line(&format!("{t} {v}, {addr}"));
}

/// Stores a pointer and loads it straight back, through global memory (this invocation's
/// pointer slot) or a stack array; the value loaded is the value stored, so it is as
/// uniform as that. The slot is overwritten at the end of the kernel, as
/// its bytes are an address.
fn pointer_round_trip(b: &mut Builder, stack: bool) {
    let p = pointer(b);
    let (u, base) = (b.vals[p].uniform, b.vals[p].base);
    let p = b.use_val(p);
    if stack {
        b.line(&format!("sstore ptr {p}, %pstack, 0"));
        b.def_ptr(Ty::Ptr, u, base, "sload ptr %pstack, 0");
    } else {
        let addr = slot_address(b, PTR_SLOT);
        b.line(&format!("store ptr {p}, {addr}"));
        b.def_ptr(Ty::Ptr, u, base, &format!("load ptr {addr}"));
    }
}

/// A stack array and an in-bounds, aligned offset operand for an access of `width` bytes.
fn stack_place(b: &mut Builder, width: u32) -> (String, String) {
    let a = b.rng.below(b.allocas.len());
    let (name, size, window) = {
        let s = &b.allocas[a];
        (s.name.clone(), s.size, s.window)
    };
    if b.rng.chance(40) {
        let off = b.rng.below(((size - width) / width + 1) as usize) as u32 * width;
        return (name, off.to_string());
    }
    let mut u = true;
    let x = b.operand_val(Ty::I32, &mut u);
    let m = b.def(Ty::I32, u, &format!("and i32 {x}, {}", window - width));
    let m = b.use_val(m);
    (name, m)
}

/// Writes an `sstore` of a value in scope.
pub(super) fn stack_store(b: &mut Builder) {
    let ty = b.rng.pick(&[Ty::I32, Ty::I64, Ty::F32, Ty::F32, Ty::Ptr]);
    if ty == Ty::Ptr {
        pointer_round_trip(b, true);
        return;
    }
    let v = b.value(ty);
    let v = b.use_val(v);
    let (a, off) = stack_place(b, ty.bytes());
    b.line(&format!("sstore {} {v}, {a}, {off}", ty.name()));
}

/// Writes an `sload`.
pub(super) fn stack_load(b: &mut Builder) {
    let ty = b.rng.pick(&[Ty::I32, Ty::I64, Ty::F32]);
    let (a, off) = stack_place(b, ty.bytes());
    b.def(ty, false, &format!("sload {} {a}, {off}", ty.name()));
}
