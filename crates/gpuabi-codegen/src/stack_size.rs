//! The scratch a kernel needs per lane once its calls are compiled: its own frame and the
//! deepest chain of frames and scratch parameters below it. The kernel descriptor's
//! `private_segment_fixed_size` asks the dispatch for that much.
//!
//! An indirect call may reach every function whose address the module takes (the project
//! does not track which pointers reach which call). A kernel whose calls can recurse has
//! no bound (a tail call counts as a call here): it gets [`RECURSIVE_STACK_BYTES`] (the stack LLVM assumes for a call whose
//! stack it cannot see, [`gpuabi_amdgpu::hsa::ASSUMED_STACK_BYTES`]), or its own frame if
//! that is larger. A recursion deeper than that overruns the wave's slice of the private
//! segment.

use crate::{CallSiteInfo, FunctionStats};

/// Bytes per lane given to a kernel whose calls can recurse.
pub const RECURSIVE_STACK_BYTES: u32 = gpuabi_amdgpu::hsa::ASSUMED_STACK_BYTES;

/// The stack of one kernel.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StackSize {
    /// The deepest chain of calls needs this many bytes per lane.
    Bounded(u32),
    /// The calls can recurse.
    Recursive,
}

impl StackSize {
    /// The private segment bytes per lane to ask for.
    pub fn bytes(self, own_frame: u32) -> u32 {
        match self {
            StackSize::Bounded(b) => b,
            StackSize::Recursive => RECURSIVE_STACK_BYTES.max(own_frame),
        }
    }
}

/// The stack of the function `root` of `functions` (its frame: `scratch_bytes`), given
/// every call site and the functions indirect calls may reach.
pub fn stack_size(
    root: usize,
    functions: &[FunctionStats],
    calls: &[CallSiteInfo],
    indirect_targets: &[usize],
) -> StackSize {
    // Depth-first over the call graph; a function met again while it is open recurses.
    #[derive(Clone, Copy, PartialEq)]
    enum State {
        New,
        Open,
        Done(u32),
    }
    let index = |name: &str| functions.iter().position(|f| f.name == name);
    let targets = |callee: &str| -> Vec<usize> {
        if callee.starts_with('$') {
            indirect_targets.to_vec()
        } else {
            index(callee).into_iter().collect()
        }
    };
    // A tail callee runs on the caller's stack pointer once the caller is done; counting
    // it below the caller's frame overestimates, which is safe.
    let callees = |f: usize| -> Vec<(usize, u32)> {
        let calls = calls
            .iter()
            .filter(|c| c.caller == functions[f].name)
            .flat_map(|c| {
                targets(&c.callee)
                    .into_iter()
                    .map(move |t| (t, c.scratch_param_bytes))
            });
        let tail = functions[f].tail_call.iter().flat_map(|c| targets(c));
        calls.chain(tail.map(|t| (t, 0))).collect()
    };
    let mut state = vec![State::New; functions.len()];
    // An explicit stack: (function, its callees, next callee, deepest so far).
    let mut stack = vec![(root, callees(root), 0usize, 0u32)];
    state[root] = State::Open;
    while let Some((f, edges, next, deepest)) = stack.last_mut() {
        let Some(&(callee, params)) = edges.get(*next) else {
            let need = functions[*f].scratch_bytes + *deepest;
            state[*f] = State::Done(need);
            stack.pop();
            if let Some((_, edges, next, deepest)) = stack.last_mut() {
                let params = edges[*next].1;
                *deepest = (*deepest).max(params + need);
                *next += 1;
            }
            continue;
        };
        match state[callee] {
            State::Open => return StackSize::Recursive,
            State::Done(need) => {
                *deepest = (*deepest).max(params + need);
                *next += 1;
            }
            State::New => {
                state[callee] = State::Open;
                let e = callees(callee);
                stack.push((callee, e, 0, 0));
            }
        }
    }
    match state[root] {
        State::Done(b) => StackSize::Bounded(b),
        _ => StackSize::Recursive,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn func(name: &str, frame: u32) -> FunctionStats {
        FunctionStats {
            name: name.into(),
            scratch_bytes: frame,
            ..FunctionStats::default()
        }
    }

    fn call(caller: &str, callee: &str, params: u32) -> CallSiteInfo {
        CallSiteInfo {
            item: 0,
            caller: caller.into(),
            callee: callee.into(),
            abi: "compute".into(),
            preserved: gpuabi_layout::reg::RegSet::new(),
            stack_pointer: gpuabi_layout::reg::RegRange::new(
                gpuabi_layout::reg::RegFile::Sgpr,
                0,
                1,
            ),
            scratch_param_bytes: params,
            params: Vec::new(),
            limit: gpuabi_layout::aco::Demand::new(104, 256),
            origin: crate::mir::Origin::default(),
        }
    }

    #[test]
    fn the_deepest_chain_of_frames_and_parameters() {
        // k (16) calls a (32, 8 bytes of parameters) and b (8); a calls b; b calls nothing.
        // Chains: k+8+a+b = 16+8+32+8 = 64, k+b = 24.
        let f = [func("k", 16), func("a", 32), func("b", 8)];
        let c = [call("k", "a", 8), call("k", "b", 0), call("a", "b", 0)];
        assert_eq!(stack_size(0, &f, &c, &[]), StackSize::Bounded(64));
        assert_eq!(stack_size(1, &f, &c, &[]), StackSize::Bounded(40));
    }

    #[test]
    fn indirect_calls_reach_every_address_taken_function() {
        // k (0) calls through a signature: a (100) or b (4); b calls a directly.
        let f = [func("k", 0), func("a", 100), func("b", 4)];
        let c = [call("k", "$s", 12), call("b", "a", 0)];
        assert_eq!(
            stack_size(0, &f, &c, &[1, 2]),
            StackSize::Bounded(12 + 4 + 100)
        );
    }

    #[test]
    fn a_tail_callee_counts_below_its_caller() {
        // k (16) calls a (32, 8 bytes of parameters); a tail-calls b (48), which starts
        // where a started but is counted after a's frame: 16 + 8 + 32 + 48.
        let mut f = [func("k", 16), func("a", 32), func("b", 48)];
        f[1].tail_call = Some("b".into());
        let c = [call("k", "a", 8)];
        assert_eq!(stack_size(0, &f, &c, &[]), StackSize::Bounded(104));
        // A function that tail-calls itself recurses.
        f[2].tail_call = Some("b".into());
        assert_eq!(stack_size(0, &f, &c, &[]), StackSize::Recursive);
    }

    #[test]
    fn a_cycle_is_recursive() {
        let f = [func("k", 0), func("a", 4), func("b", 4)];
        let c = [call("k", "a", 0), call("a", "b", 0), call("b", "a", 0)];
        assert_eq!(stack_size(0, &f, &c, &[]), StackSize::Recursive);
        assert_eq!(StackSize::Recursive.bytes(20), RECURSIVE_STACK_BYTES);
    }
}
