//! Memory operations: global loads and stores, `ptradd`, and stack arrays (`alloca` in
//! address space 5, zero-filled on entry, bounds-checked accesses).

use gpuabi_ir::ir::{Extra, OpInstr, Opcode, Operand, Type, Value};

use crate::function::FnBuilder;
use crate::names;

/// Narrow global accesses: opcode, memory type, extension to i32 (`None` for stores).
const NARROW: &[(Opcode, &str, Option<&str>)] = &[
    (Opcode::LoadU8, "i8", Some("zext")),
    (Opcode::LoadS8, "i8", Some("sext")),
    (Opcode::LoadU16, "i16", Some("zext")),
    (Opcode::LoadS16, "i16", Some("sext")),
    (Opcode::Store8, "i8", None),
    (Opcode::Store16, "i16", None),
];

/// Alignment of a stack array, as the interpreter's frame slots.
const STACK_ALIGN: u32 = 8;

/// True for the memory operations.
pub(crate) fn is_memory(op: Opcode) -> bool {
    use Opcode::*;
    matches!(op, Ptradd | Load | Store | Alloca | Sload | Sstore)
        || NARROW.iter().any(|(o, _, _)| *o == op)
}

impl FnBuilder<'_> {
    pub(crate) fn memory_op(&mut self, op: &OpInstr, result: Option<Value>) -> Option<String> {
        if op.opcode == Opcode::Alloca {
            let size = match op.extra {
                Extra::Imm(n) => n,
                _ => 0,
            };
            let r = result?;
            self.stack_sizes[r.index()] = size;
            let name = names::local(self.func.value_name(r));
            self.prologue.push_str(&format!(
                "  {name} = alloca [{size} x i8], align {STACK_ALIGN}, addrspace(5)\n  call void @llvm.memset.p5.i32(ptr addrspace(5) align {STACK_ALIGN} {name}, i8 0, i32 {size}, i1 false)\n"
            ));
            self.declare(
                "void",
                "llvm.memset.p5.i32",
                &["ptr addrspace(5)", "i8", "i32", "i1"],
            );
            return Some(name);
        }
        let ty = op.ty.unwrap_or(Type::I32);
        let t = names::ty(ty);
        let args: Vec<String> = op.args.iter().map(|a| self.operand(a)).collect();
        if let Some((_, mem, ext)) = NARROW.iter().find(|(o, _, _)| *o == op.opcode) {
            return match ext {
                Some(ext) => {
                    let v = self.def(&format!(
                        "load {mem}, ptr addrspace(1) {}, align 1",
                        args[0]
                    ));
                    Some(self.def(&format!("{ext} {mem} {v} to i32")))
                }
                None => {
                    let v = self.def(&format!("trunc i32 {} to {mem}", args[0]));
                    self.inst(&format!(
                        "store {mem} {v}, ptr addrspace(1) {}, align 1",
                        args[1]
                    ));
                    None
                }
            };
        }
        match op.opcode {
            Opcode::Ptradd => {
                // GEP indices are sign-extended: an i32 offset is sign-extended as the IR
                // defines; without `inbounds` the address wraps.
                let it = names::ty(self.op_ty(&op.args[1]));
                Some(self.def(&format!(
                    "getelementptr i8, ptr addrspace(1) {}, {it} {}",
                    args[0], args[1]
                )))
            }
            Opcode::Load => {
                Some(self.def(&format!("load {t}, ptr addrspace(1) {}, align 1", args[0])))
            }
            Opcode::Store => {
                self.inst(&format!(
                    "store {t} {}, ptr addrspace(1) {}, align 1",
                    args[0], args[1]
                ));
                None
            }
            Opcode::Sload => {
                let at = self.stack_address(&op.args[0], &op.args[1], &args[0], &args[1], ty);
                Some(self.def(&format!("load {t}, ptr addrspace(5) {at}, align 1")))
            }
            Opcode::Sstore => {
                let at = self.stack_address(&op.args[1], &op.args[2], &args[1], &args[2], ty);
                self.inst(&format!(
                    "store {t} {}, ptr addrspace(5) {at}, align 1",
                    args[0]
                ));
                None
            }
            _ => None,
        }
    }

    /// The address of a `ty` at byte `offset` of a stack array, trapping unless the whole
    /// access lies inside the array (the interpreter's check).
    fn stack_address(
        &mut self,
        handle: &Operand,
        offset_op: &Operand,
        base: &str,
        offset: &str,
        ty: Type,
    ) -> String {
        let size = match handle {
            Operand::Value(v) => self.stack_sizes[v.index()],
            Operand::Imm { .. } => 0,
        };
        let len = ty.bits() / 8;
        let last = size.checked_sub(len);
        if let Operand::Imm { bits, .. } = *offset_op {
            // A literal offset is checked here.
            let off = i64::from(bits as u32 as i32);
            if last.is_none_or(|last| off < 0 || off > i64::from(last)) {
                self.trap();
            }
            return self.def(&format!(
                "getelementptr i8, ptr addrspace(5) {base}, i32 {offset}"
            ));
        }
        match last {
            // Offsets are signed: as an unsigned 64-bit number a negative one is above
            // every size.
            Some(last) => {
                let wide = self.def(&format!("sext i32 {offset} to i64"));
                let outside = self.def(&format!("icmp ugt i64 {wide}, {last}"));
                self.trap_if(&outside);
            }
            None => self.trap(),
        }
        self.def(&format!(
            "getelementptr i8, ptr addrspace(5) {base}, i32 {offset}"
        ))
    }
}
