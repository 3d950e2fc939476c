//! Program control: SOPP branches and `s_endpgm`, and the program-counter moves
//! `s_getpc_b64`, `s_setpc_b64`, `s_swappc_b64` (byte addresses).

use gpuabi_amdgpu::Opcode;

use super::Flow;
use crate::image::Decoded;
use crate::wave::Wave;

/// Whether `op` is a scheduling hint (`s_setprio`, `s_clause`, `s_inst_prefetch`,
/// `s_delay_alu`), which the hardware uses to order or prefetch work and which changes no
/// result: the simulator runs it as a no-op and counts it in
/// [`crate::Stats::scheduling_hints`].
pub fn is_scheduling_hint(op: Opcode) -> bool {
    matches!(
        op,
        Opcode::SSetprio | Opcode::SClause | Opcode::SInstPrefetch | Opcode::SDelayAlu
    )
}

/// Whether `op` waits for outstanding operations or for the ALU (`s_waitcnt*`,
/// `s_waitcnt_depctr`, RDNA 4's `s_wait_*` per counter, `s_wait_alu`, `s_wait_idle`): the
/// simulator completes every access at once and runs it as a no-op counted in
/// [`crate::Stats::waits`].
pub fn is_wait(op: Opcode) -> bool {
    use Opcode::*;
    matches!(
        op,
        SWaitcnt
            | SWaitcntVscnt
            | SWaitcntVmcnt
            | SWaitcntExpcnt
            | SWaitcntLgkmcnt
            | SWaitcntDepctr
            | SWaitLoadcnt
            | SWaitStorecnt
            | SWaitSamplecnt
            | SWaitBvhcnt
            | SWaitExpcnt
            | SWaitDscnt
            | SWaitKmcnt
            | SWaitLoadcntDscnt
            | SWaitStorecntDscnt
            | SWaitIdle
    )
}

/// Executes a control instruction and says where execution continues.
pub fn exec(d: &Decoded, w: &mut Wave) -> Flow {
    use Opcode::*;
    let taken = match d.op {
        SEndpgm => return Flow::End,
        // `s_code_end` only pads the code after the last instruction: a wave that reaches
        // it ran past its program, which the simulator reports as it reports a trap.
        STrap | SSethalt | SCodeEnd => return Flow::Trap,
        // Waits order memory the simulator completes at once; MSG_DEALLOC_VGPRS, the
        // message llc sends before `s_endpgm`, frees registers the wave no longer reads.
        SNop | SSendmsg => return Flow::Next,
        _ if is_wait(d.op) => return Flow::Next,
        // The simulator has no caches: every access reaches memory at once, so fences'
        // invalidations and write-backs change nothing.
        BufferGl0Inv | BufferGl1Inv | BufferWbinvl1Vol | GlobalInv | GlobalWb | GlobalWbinv => {
            return Flow::Next
        }
        SBarrier => return Flow::Barrier,
        // RDNA 4 splits the barrier: a wave signals its arrival, may run on, and waits for
        // the others (`s_barrier_signal -1`, `s_barrier_wait -1`: the work-group's barrier).
        // The simulator, which runs the waves of a group in turn, makes the wait the whole
        // barrier; what a wave runs between the two then happens before every other wave
        // leaves its wait, one of the orders the hardware allows.
        SBarrierSignal => return Flow::Next,
        SBarrierWait => return Flow::Barrier,
        _ if is_scheduling_hint(d.op) => return Flow::Next,
        // The PC of the next instruction, as the ISA defines it.
        SGetpcB64 => {
            w.write_s64(d.dst[0], d.next_addr);
            return Flow::Next;
        }
        SSetpcB64 => return Flow::Jump(w.s64(d.src[0])),
        SSwappcB64 => {
            // The source is read before the return address is written (they may overlap).
            let target = w.s64(d.src[0]);
            w.write_s64(d.dst[0], d.next_addr);
            return Flow::Jump(target);
        }
        SBranch => true,
        SCbranchScc0 => !w.scc,
        SCbranchScc1 => w.scc,
        SCbranchVccz => w.vcc() == 0,
        SCbranchVccnz => w.vcc() != 0,
        SCbranchExecz => w.exec() == 0,
        SCbranchExecnz => w.exec() != 0,
        _ => unreachable!("{:?} is not a control instruction", d.op),
    };
    if taken {
        Flow::Goto(d.target)
    } else {
        Flow::Next
    }
}
