//! The "ATI CAL" note segment of a kernel's CAL image, from the layout's CAL notes: all
//! seventeen notes in [`NOTE_ORDER`], as AMD's compiler writes them (the order and sizes
//! of samplekernels.clo of CLRX's test data; CLRX's amdbin/AmdBinGen.cpp writes the same).

use crate::cal_notes::{
    CalNotes, NOTE_CONDOUT, NOTE_CONSTANT_BUFFERS, NOTE_EARLYEXIT, NOTE_INPUTS,
    NOTE_INPUT_SAMPLERS, NOTE_ORDER, NOTE_PROGINFO, NOTE_SCRATCH_BUFFERS, NOTE_UAV,
    NOTE_UAV_MAILBOX_SIZE, NOTE_UAV_OP_MASK,
};

use super::cal_image::CAL_NOTE_NAME;

/// The descriptor dwords of note `note_type`. CONDOUT, EARLYEXIT and UAV_MAILBOX_SIZE
/// hold one dword that the layout engine does not model: 0, the value in every binary
/// of CLRX's test data and CLRX's default; the other notes the layout does not fill
/// (OUTPUTS, the constant notes, GLOBAL_BUFFERS, PERSISTENT_BUFFERS,
/// SUB_CONSTANT_BUFFERS) are empty.
fn descriptor(notes: &CalNotes, note_type: u32) -> Vec<u32> {
    match note_type {
        NOTE_INPUTS => notes.inputs.clone(),
        NOTE_UAV => notes.uav.iter().flatten().copied().collect(),
        NOTE_CONDOUT | NOTE_EARLYEXIT | NOTE_UAV_MAILBOX_SIZE => vec![0],
        NOTE_CONSTANT_BUFFERS => notes.cbmask.iter().flatten().copied().collect(),
        NOTE_INPUT_SAMPLERS => notes.input_samplers.iter().flatten().copied().collect(),
        NOTE_SCRATCH_BUFFERS => vec![notes.scratch_dwords],
        NOTE_PROGINFO => notes.proginfo.iter().flatten().copied().collect(),
        NOTE_UAV_OP_MASK => notes.uav_mask.to_vec(),
        _ => Vec::new(),
    }
}

/// The note segment: per note its name size (8), descriptor size, type, name and
/// descriptor, with no padding.
pub fn note_segment(notes: &CalNotes) -> Vec<u8> {
    let mut out = Vec::with_capacity(1024);
    for (note_type, _) in NOTE_ORDER {
        let desc = descriptor(notes, note_type);
        out.extend_from_slice(&(CAL_NOTE_NAME.len() as u32).to_le_bytes());
        out.extend_from_slice(&(4 * desc.len() as u32).to_le_bytes());
        out.extend_from_slice(&note_type.to_le_bytes());
        out.extend_from_slice(CAL_NOTE_NAME);
        for d in desc {
            out.extend_from_slice(&d.to_le_bytes());
        }
    }
    out
}
