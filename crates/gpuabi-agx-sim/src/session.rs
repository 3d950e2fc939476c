//! One decoded program run on many SIMD groups that share device memory, as a draw's
//! groups do: the page index of [`State::memory`] is built at the first memory access and
//! kept from one run to the next (it follows the regions, so a region added or resized
//! between runs is still found).

use gpuabi_agx_isa::Instruction;

use crate::error::SimError;
use crate::exec::drive;
use crate::memory::Pages;
use crate::program::Program;
use crate::state::State;

/// A program decoded once with the memory index its runs share.
#[derive(Debug)]
pub struct Session<'p> {
    program: &'p Program,
    pages: Pages,
}

impl<'p> Session<'p> {
    /// A session running `program`.
    pub fn new(program: &'p Program) -> Session<'p> {
        Session {
            program,
            pages: Pages::default(),
        }
    }

    /// The program the session runs.
    pub fn program(&self) -> &'p Program {
        self.program
    }

    /// Runs the program from `st` as [`crate::run_program`] does.
    pub fn run(&mut self, st: &mut State, max_steps: usize) -> Result<usize, SimError> {
        drive(self.program, st, max_steps, &mut self.pages, |_, _, _| {})
    }

    /// Runs the program from `st` as [`crate::run_program_observed`] does.
    pub fn run_observed(
        &mut self,
        st: &mut State,
        max_steps: usize,
        observe: &mut dyn FnMut(usize, &Instruction, &mut State),
    ) -> Result<usize, SimError> {
        drive(self.program, st, max_steps, &mut self.pages, observe)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::state::Region;

    /// Runs of one session share the memory they are given: a store of one run is read by
    /// the next, and a region added between runs is found.
    #[test]
    fn runs_share_memory_and_follow_new_regions() {
        let code = gpuabi_agx_isa::assemble(
            "load r0, du4, 0, i32, x, a\nwait a\niadd r0, r0, 1\nstore r0, du4, 0, i32, x, a\n",
            "count.s",
        )
        .unwrap()
        .bytes;
        let program = Program::decode(&code).unwrap();
        let mut session = Session::new(&program);
        let mut st = State {
            exec: 1,
            ..State::default()
        };
        st.memory.push(Region {
            address: 0x1000,
            bytes: vec![0; 4],
        });
        st.set_uniform(8, 64, 0x1000).unwrap();
        for _ in 0..3 {
            session.run(&mut st, 100).unwrap();
        }
        assert_eq!(st.memory[0].bytes, [3, 0, 0, 0]);
        st.memory.push(Region {
            address: 0x20_0000,
            bytes: vec![41, 0, 0, 0],
        });
        st.set_uniform(8, 64, 0x20_0000).unwrap();
        session.run(&mut st, 100).unwrap();
        assert_eq!(st.memory[1].bytes, [42, 0, 0, 0]);
    }
}
