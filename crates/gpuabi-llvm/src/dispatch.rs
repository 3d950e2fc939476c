//! Dispatch intrinsics (`local_id`, `group_size`, ...): work-item and group ids from the
//! AMDGPU intrinsics, sizes from the HSA kernel dispatch packet, the global offset from the
//! implicit kernel arguments (layouts: `hsa_kernel_dispatch_packet_t` in ROCR's `hsa.h`;
//! "Code Object V5 Metadata", hidden arguments, in LLVM's AMDGPUUsage documentation).

use gpuabi_ir::ir::{Extra, OpInstr, Opcode};

use crate::function::FnBuilder;

/// Byte offset of `setup` (dimensions in bits 0-1) in the dispatch packet.
const SETUP: u32 = 2;
/// Byte offset of `workgroup_size_x` (u16; y and z follow).
const WORKGROUP_SIZE: u32 = 4;
/// Byte offset of `grid_size_x` (u32, in work-items; y and z follow).
const GRID_SIZE: u32 = 12;
/// Byte offset of `hidden_global_offset_x` (u64; y and z follow) in the implicit kernel
/// arguments of code object v5, the default of llc-19.
const GLOBAL_OFFSET: u32 = 40;

/// True for the dispatch intrinsics.
pub(crate) fn is_dispatch(op: Opcode) -> bool {
    use Opcode::*;
    matches!(
        op,
        LocalId | GroupId | GlobalId | GroupSize | NumGroups | GlobalSize | WorkDim | GlobalOffset
    )
}

impl FnBuilder<'_> {
    pub(crate) fn dispatch_op(&mut self, op: &OpInstr) -> Option<String> {
        let d = match op.extra {
            Extra::Imm(d) => d.min(2),
            _ => 0,
        };
        Some(self.dispatch_value(op.opcode, d))
    }

    fn dispatch_value(&mut self, op: Opcode, d: u32) -> String {
        let xyz = ["x", "y", "z"][d as usize];
        match op {
            Opcode::LocalId => {
                self.intrinsic("i32", &format!("llvm.amdgcn.workitem.id.{xyz}"), &[])
            }
            Opcode::GroupId => {
                self.intrinsic("i32", &format!("llvm.amdgcn.workgroup.id.{xyz}"), &[])
            }
            Opcode::GroupSize => {
                let v = self.read("llvm.amdgcn.dispatch.ptr", WORKGROUP_SIZE + 2 * d, "i16");
                self.def(&format!("zext i16 {v} to i32"))
            }
            Opcode::GlobalSize => self.read("llvm.amdgcn.dispatch.ptr", GRID_SIZE + 4 * d, "i32"),
            Opcode::NumGroups => {
                let grid = self.dispatch_value(Opcode::GlobalSize, d);
                let group = self.dispatch_value(Opcode::GroupSize, d);
                self.def(&format!("udiv i32 {grid}, {group}"))
            }
            Opcode::WorkDim => {
                let setup = self.read("llvm.amdgcn.dispatch.ptr", SETUP, "i16");
                let dims = self.def(&format!("and i16 {setup}, 3"));
                self.def(&format!("zext i16 {dims} to i32"))
            }
            Opcode::GlobalOffset => {
                self.read("llvm.amdgcn.implicitarg.ptr", GLOBAL_OFFSET + 8 * d, "i32")
            }
            _ => {
                // global_id: group_id * group_size + local_id + global_offset, wrapping.
                let group = self.dispatch_value(Opcode::GroupId, d);
                let size = self.dispatch_value(Opcode::GroupSize, d);
                let local = self.dispatch_value(Opcode::LocalId, d);
                let offset = self.dispatch_value(Opcode::GlobalOffset, d);
                let base = self.def(&format!("mul i32 {group}, {size}"));
                let id = self.def(&format!("add i32 {base}, {local}"));
                self.def(&format!("add i32 {id}, {offset}"))
            }
        }
    }

    /// Loads a `ty` at `offset` bytes from the constant-memory pointer `base` returns.
    fn read(&mut self, base: &str, offset: u32, ty: &str) -> String {
        let p = self.intrinsic("ptr addrspace(4)", base, &[]);
        let at = self.def(&format!(
            "getelementptr i8, ptr addrspace(4) {p}, i64 {offset}"
        ));
        let align = if ty == "i16" { 2 } else { 4 };
        self.def(&format!("load {ty}, ptr addrspace(4) {at}, align {align}"))
    }
}
