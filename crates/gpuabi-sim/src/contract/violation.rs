//! What a callee broke, and how it is reported.

use std::fmt;

use gpuabi_amdgpu::Origin;

/// One break of a call's contract, named by the call and by the instruction that showed it.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct ContractViolation {
    /// The callee: the call site's name for it and its address, or the label at its
    /// address.
    pub callee: String,
    /// The callee's call ABI.
    pub abi: String,
    /// Functions the callee went on to with `s_setpc_b64` before the violation showed (a
    /// divergent call's chain), in order.
    pub chain: Vec<String>,
    /// Address of the `s_swappc_b64` that made the call.
    pub call_addr: u64,
    /// Origin of the call (assembly line or IR span).
    pub call_origin: Origin,
    /// Address of the instruction that showed the violation: the return (`s_setpc_b64` to
    /// the return address, or to the wrong place in the caller) or the store into the
    /// caller's frame.
    pub at_addr: u64,
    /// Origin of that instruction.
    pub at_origin: Origin,
    /// The function (label) that holds that instruction, when the program names one.
    pub at_function: Option<String>,
    /// What was broken.
    pub broken: Broken,
}

/// The part of a contract a violation broke.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Broken {
    /// A register the callee must hand back differs at the return.
    Register {
        /// The register (`s40`, `v12`, `exec`) or `stack pointer s32`.
        register: String,
        /// The lane, for VGPRs (any lane of the wave, active at the call or not).
        lane: Option<u32>,
        /// Value at the call.
        before: u64,
        /// Value at the return.
        after: u64,
    },
    /// The callee went back into its caller's code somewhere other than the return
    /// address.
    Return {
        /// The return address of the call.
        expected: u64,
        /// Where the callee went.
        target: u64,
    },
    /// A store below the floor of the callee's stack, into the caller's frame.
    CallerFrame {
        /// The storing lane.
        lane: u32,
        /// Where it stored: the lane's scratch offset (gfx9 and later) or the global
        /// address in the swizzled scratch buffer (before gfx9).
        address: u64,
        /// Bytes the instruction stores per lane.
        bytes: u32,
        /// The floor, in the same terms as `address`.
        floor: u64,
        /// How far below the floor the store starts, in bytes of the lane's own stack.
        below: u64,
    },
}

impl ContractViolation {
    /// The register, for a register violation.
    pub fn register(&self) -> Option<&str> {
        match &self.broken {
            Broken::Register { register, .. } => Some(register),
            Broken::Return { .. } | Broken::CallerFrame { .. } => None,
        }
    }

    /// The lane involved, if any.
    pub fn lane(&self) -> Option<u32> {
        match self.broken {
            Broken::Register { lane, .. } => lane,
            Broken::Return { .. } => None,
            Broken::CallerFrame { lane, .. } => Some(lane),
        }
    }
}

impl fmt::Display for ContractViolation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "callee {} of ABI {} (called at 0x{:x}{}",
            self.callee,
            self.abi,
            self.call_addr,
            at(&self.call_origin, None)
        )?;
        let by = format!(
            "0x{:x}{}",
            self.at_addr,
            at(&self.at_origin, self.at_function.as_deref())
        );
        match &self.broken {
            Broken::Register {
                register,
                lane,
                before,
                after,
            } => {
                write!(f, "; returned by {by}) changed {register}")?;
                if let Some(l) = lane {
                    write!(f, " in lane {l}")?;
                }
                write!(f, ": 0x{before:x} before the call, 0x{after:x} after")?;
            }
            Broken::Return { expected, target } => write!(
                f,
                ") went back into its caller at 0x{target:x} by {by}, not to the return \
                 address 0x{expected:x}"
            )?,
            Broken::CallerFrame {
                lane,
                address,
                bytes,
                floor,
                below,
            } => write!(
                f,
                ") wrote its caller's frame: a {bytes}-byte store in lane {lane} at \
                 0x{address:x}, {below} bytes below the floor 0x{floor:x}, by {by}"
            )?,
        }
        if !self.chain.is_empty() {
            write!(f, " (the call went on to {})", self.chain.join(", then "))?;
        }
        Ok(())
    }
}

/// `, line 3`, `, line 3, in f`, `, in f` or nothing.
fn at(origin: &Origin, function: Option<&str>) -> String {
    let mut out = match origin {
        Origin::None => String::new(),
        o => format!(", {o}"),
    };
    // An IR origin names its function already.
    if let (Some(name), false) = (function, matches!(origin, Origin::Source { .. })) {
        out += &format!(", in {name}");
    }
    out
}
