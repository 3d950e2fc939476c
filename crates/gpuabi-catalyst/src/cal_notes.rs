//! The contents of the seventeen ATI CAL notes of a kernel: inputs, UAVs, constant
//! buffers, input samplers, scratch, PROGINFO and the UAV op mask.

use serde::Serialize;

use crate::compiler_order::dense_map_order;
use crate::driver::{Driver, Generation};
use crate::layout::{ArgLayout, NotesPolicy};
use crate::registers::RegisterState;
use crate::resource_ids::{Resource, SpecialIds, PRINTFID, PRIVATEID};
use crate::types::{ArgType, ImageAccess};
use crate::userdata::{UserDataEntry, MAX_ENTRIES};

/// CAL note types, in the order the notes are written.
pub const NOTE_ORDER: [(u32, &str); 17] = [
    (NOTE_INPUTS, "INPUTS"),
    (3, "OUTPUTS"),
    (NOTE_UAV, "UAV"),
    (NOTE_CONDOUT, "CONDOUT"),
    (5, "FLOAT32CONSTS"),
    (6, "INT32CONSTS"),
    (7, "BOOL32CONSTS"),
    (NOTE_EARLYEXIT, "EARLYEXIT"),
    (9, "GLOBAL_BUFFERS"),
    (NOTE_CONSTANT_BUFFERS, "CONSTANT_BUFFERS"),
    (NOTE_INPUT_SAMPLERS, "INPUT_SAMPLERS"),
    (NOTE_SCRATCH_BUFFERS, "SCRATCH_BUFFERS"),
    (12, "PERSISTENT_BUFFERS"),
    (NOTE_PROGINFO, "PROGINFO"),
    (14, "SUB_CONSTANT_BUFFERS"),
    (NOTE_UAV_MAILBOX_SIZE, "UAV_MAILBOX_SIZE"),
    (NOTE_UAV_OP_MASK, "UAV_OP_MASK"),
];

/// CAL note type of INPUTS.
pub const NOTE_INPUTS: u32 = 2;
/// CAL note type of the UAV list.
pub const NOTE_UAV: u32 = 16;
/// CAL note type of CONDOUT.
pub const NOTE_CONDOUT: u32 = 4;
/// CAL note type of EARLYEXIT.
pub const NOTE_EARLYEXIT: u32 = 8;
/// CAL note type of CONSTANT_BUFFERS.
pub const NOTE_CONSTANT_BUFFERS: u32 = 10;
/// CAL note type of INPUT_SAMPLERS.
pub const NOTE_INPUT_SAMPLERS: u32 = 11;
/// CAL note type of SCRATCH_BUFFERS.
pub const NOTE_SCRATCH_BUFFERS: u32 = 13;
/// CAL note type of PROGINFO.
pub const NOTE_PROGINFO: u32 = 1;
/// CAL note type of UAV_MAILBOX_SIZE.
pub const NOTE_UAV_MAILBOX_SIZE: u32 = 15;
/// CAL note type of UAV_OP_MASK.
pub const NOTE_UAV_OP_MASK: u32 = 17;

/// The name of CAL note type `t` (`PROGINFO`), if known.
pub fn note_name(t: u32) -> Option<&'static str> {
    NOTE_ORDER.iter().find(|n| n.0 == t).map(|n| n.1)
}

/// UAV note entry kinds: (f1, f2, type).
const UAV_WRITE_IMAGE: (u32, u32, u32) = (2, 2, 5);
const UAV_BUFFER: (u32, u32, u32) = (4, 0, 5);
const UAV_PRINTF: (u32, u32, u32) = (0, 0, 5);
const OLD_UAV_WRITE_IMAGE_F1: u32 = 2;
const OLD_UAV_WRITE_IMAGE_TYPE: u32 = 3;
const OLD_UAV_PRINTF: (u32, u32, u32) = (4, 0, 5);
/// Old drivers' constant-buffer size of a `constant` pointer without CONSTSIZE, in 16-byte units.
const OLD_CB_DEFAULT_SIZE: u32 = 4096;
/// Old drivers' size of cb0 in 16-byte units.
const OLD_CB0_SIZE: u32 = 15;

/// PROGINFO addresses (register or value codes of the entries).
pub mod addr {
    /// Number of user-data entries.
    pub const USER_DATA_COUNT: u32 = 0x8000_1000;
    /// First user-data field (entry k, field j at `USER_DATA + 4k + j`).
    pub const USER_DATA: u32 = 0x8000_1001;
    /// Used VGPRs.
    pub const VGPRS: u32 = 0x8000_1041;
    /// Used SGPRs (excluding VCC).
    pub const SGPRS: u32 = 0x8000_1042;
    /// Most SGPRs the generation allows (excluding VCC).
    pub const MAX_SGPRS: u32 = 0x8000_1863;
    /// Most VGPRs (256).
    pub const MAX_VGPRS: u32 = 0x8000_1864;
    /// Float mode.
    pub const FLOAT_MODE: u32 = 0x8000_1043;
    /// IEEE mode.
    pub const IEEE_MODE: u32 = 0x8000_1044;
    /// Scratch buffer size in dwords.
    pub const SCRATCH_DWORDS: u32 = 0x8000_1045;
    /// The PGM_RSRC2 register.
    pub const PGM_RSRC2: u32 = 0x0000_2E13;
    /// Required work-group size x (y and z follow).
    pub const REQD_WG_X: u32 = 0x8000_001C;
    /// Always 0.
    pub const UNKNOWN_1841: u32 = 0x8000_1841;
    /// UAV mask dword 0.
    pub const UAV_MASK_0: u32 = 0x8000_001F;
    /// UAV mask dwords 0..31.
    pub const UAV_MASK: u32 = 0x8000_1843;
    /// Always 1.
    pub const UNKNOWN_0A: u32 = 0x8000_000A;
    /// Always 64.
    pub const UNKNOWN_78: u32 = 0x8000_0078;
    /// Always 32768.
    pub const UNKNOWN_81: u32 = 0x8000_0081;
    /// The LDS_SIZE field of PGM_RSRC2, shifted left by 8.
    pub const LDS_SIZE: u32 = 0x8000_0082;
}

/// Everything the notes depend on.
pub struct NotesInput<'a> {
    /// Driver version.
    pub drv: Driver,
    /// GCN generation.
    pub generation: Generation,
    /// Laid-out arguments.
    pub args: &'a [ArgLayout],
    /// Special ids.
    pub ids: &'a SpecialIds,
    /// Uses printf.
    pub printf: bool,
    /// Uses global constant data (`.useconstdata`).
    pub const_data: bool,
    /// The program has global constant data (a non-empty `.globaldata`).
    pub global_data: bool,
    /// Global data size in bytes.
    pub global_data_bytes: u32,
    /// End of cb1.
    pub args_space: u32,
    /// Number of constant samplers.
    pub const_samplers: u32,
    /// User-data entries.
    pub userdata: &'a [UserDataEntry],
    /// Register state.
    pub regs: &'a RegisterState,
    /// Float mode.
    pub float_mode: u32,
    /// IEEE mode.
    pub ieee_mode: bool,
    /// Scratch bytes.
    pub scratch_bytes: u32,
    /// Required work-group size (zeros when absent).
    pub cws: [u32; 3],
    /// Whose notes to write.
    pub policy: NotesPolicy,
}

/// Contents of the notes that are not empty. Field order and serialised names are those of
/// the layout's JSON output.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct CalNotes {
    /// UAV entries `[id, f1, f2, type]`.
    #[serde(rename = "uav_note")]
    pub uav: Vec<[u32; 4]>,
    /// CONSTANT_BUFFERS entries `[index, size]`.
    pub cbmask: Vec<[u32; 2]>,
    /// INPUTS.
    pub inputs: Vec<u32>,
    /// INPUT_SAMPLERS entries `[0, sampler]`.
    pub input_samplers: Vec<[u32; 2]>,
    /// PROGINFO entries `[address, value]`.
    pub proginfo: Vec<[u32; 2]>,
    /// UAV_OP_MASK as 32 dwords.
    pub uav_mask: [u32; 32],
    /// SCRATCH_BUFFERS value (dwords).
    pub scratch_dwords: u32,
}

fn entry(id: u32, f: (u32, u32, u32)) -> [u32; 4] {
    [id, f.0, f.1, f.2]
}

/// UAV-note entry of the private (scratch) UAV that AMD writes with counters, structure
/// arguments or printf.
const AMD_PRIVATE_UAV: (u32, u32, u32) = (3, 0, 5);

/// The extra UAV-note entry AMD's drivers from 1124.02 write after CLRX's entries:
/// `[privateid, 3, 0, 5]` when the kernel has a counter or a structure argument or uses
/// printf (alltypes.clo and structkernel2.clo of CLRX's test data), else
/// `[uavid, 4, 0, 5]` (samplekernels.clo), and nothing for a kernel without a uavid
/// (drivers 1348.05 to 1445.05 without pointers: prginfo4's image kernels of CLRX's
/// prginfo4_13_12, driver 1348.5).
fn amd_extra_uav_entry(n: &NotesInput<'_>) -> Option<[u32; 4]> {
    let private = n.printf
        || n.args
            .iter()
            .any(|a| matches!(a.ty, ArgType::Counter32 | ArgType::Struct { .. }));
    if private {
        Some(entry(n.ids.privateid.unwrap_or(PRIVATEID), AMD_PRIVATE_UAV))
    } else {
        n.ids.uavid.map(|id| entry(id, UAV_BUFFER))
    }
}

/// The buffer UAVs of a kernel as AMD's drivers before 1124.02 list them in the UAV note
/// ([`Driver::amd_hashes_uav_note`]): the ids of the global pointers (unused ones at 9)
/// and of the printf buffer (9), each once, in the iteration order of their compiler's
/// `DenseMap` of UAV ids. CLRX's prginfo1_12_10 and prginfo8_12_10 (driver 1016.4) show
/// it: pointers 10 to 13 are listed 11, 13, 10, 12 (buckets 23, 33, 50, 60 of 64), the
/// printf buffer 9 (bucket 13) first.
pub fn amd_hashed_uavs(args: &[ArgLayout], printf: bool) -> Vec<u32> {
    let mut ids: Vec<u32> = args
        .iter()
        .filter_map(|a| match a.resource {
            Some(Resource::Uav(id)) => Some(id),
            _ => None,
        })
        .collect();
    if printf {
        ids.push(PRINTFID);
    }
    dense_map_order(&ids)
}

/// Builds the notes.
pub fn build(n: &NotesInput<'_>) -> CalNotes {
    let old = n.drv.old_notes();
    let uavid = n.ids.uavid.unwrap_or(0);

    // INPUTS: one entry per read-only image, positional.
    let ro_count = n
        .args
        .iter()
        .filter(|a| {
            matches!(
                a.ty,
                ArgType::Image {
                    access: ImageAccess::ReadOnly,
                    ..
                }
            )
        })
        .count() as u32;
    let inputs: Vec<u32> = if old {
        (0..ro_count).rev().collect()
    } else {
        (0..ro_count).collect()
    };

    // UAV note.
    let amd = n.policy == NotesPolicy::Amd;
    let mut uav = Vec::new();
    if amd && n.drv.amd_hashes_uav_note() {
        for a in n.args {
            if let (Some(Resource::ImageWo(id)), ArgType::Image { dim, .. }) = (a.resource, &a.ty) {
                uav.push([
                    id,
                    OLD_UAV_WRITE_IMAGE_F1,
                    dim.old_uav_dim(),
                    OLD_UAV_WRITE_IMAGE_TYPE,
                ]);
            }
        }
        for id in amd_hashed_uavs(n.args, n.printf) {
            uav.push(entry(id, UAV_BUFFER));
        }
        // Then the private UAV, as a buffer, in every kernel with an argument (1016.4's
        // kernelPrintf5 of prginfo8_12_10, without arguments, has none).
        if !n.args.is_empty() {
            uav.push(entry(n.ids.privateid.unwrap_or(PRIVATEID), UAV_BUFFER));
        }
    } else if !old {
        for a in n.args {
            match a.resource {
                Some(Resource::ImageWo(id)) => uav.push(entry(id, UAV_WRITE_IMAGE)),
                Some(Resource::Uav(id)) => uav.push(entry(id, UAV_BUFFER)),
                _ => {}
            }
        }
        if n.printf {
            uav.push(entry(uavid, UAV_PRINTF));
        }
    } else {
        for a in n.args {
            if let (Some(Resource::ImageWo(id)), ArgType::Image { dim, .. }) = (a.resource, &a.ty) {
                uav.push([
                    id,
                    OLD_UAV_WRITE_IMAGE_F1,
                    dim.old_uav_dim(),
                    OLD_UAV_WRITE_IMAGE_TYPE,
                ]);
            }
        }
        if n.printf {
            uav.push(entry(uavid, OLD_UAV_PRINTF));
        }
        for a in n.args {
            if let Some(Resource::Uav(id)) = a.resource {
                uav.push(entry(id, UAV_BUFFER));
            }
        }
    }

    if amd && !n.drv.amd_hashes_uav_note() {
        uav.extend(amd_extra_uav_entry(n));
    }

    // CONSTANT_BUFFERS note.
    let const_ptr_ids: Vec<u32> = n
        .args
        .iter()
        .filter_map(|a| match a.resource {
            Some(Resource::ConstBuffer(id) | Resource::ConstUav(id)) => Some(id),
            _ => None,
        })
        .collect();
    let mut cbmask = Vec::new();
    if !old {
        cbmask.push([0, 0]);
        cbmask.push([1, 0]);
        cbmask.extend(const_ptr_ids.iter().map(|&id| [id, 0]));
        if !n.drv.constant_as_uav() && n.global_data {
            cbmask.push([2, 0]);
        }
    } else {
        // CONSTSIZE is not part of the description, so every pointer gets the default.
        cbmask.extend(
            const_ptr_ids
                .iter()
                .rev()
                .map(|&id| [id, OLD_CB_DEFAULT_SIZE]),
        );
        if n.global_data {
            cbmask.push([2, n.global_data_bytes.div_ceil(16)]);
        }
        if !(amd && n.drv.amd_omits_unused_cb1() && n.args.is_empty()) {
            cbmask.push([1, n.args_space.div_ceil(16)]);
        }
        cbmask.push([0, OLD_CB0_SIZE]);
    }

    // INPUT_SAMPLERS: constant samplers first, then argument samplers.
    let n_arg = n
        .args
        .iter()
        .filter(|a| matches!(a.ty, ArgType::Sampler))
        .count() as u32;
    let mut input_samplers: Vec<[u32; 2]> = (0..n.const_samplers).map(|k| [0, n_arg + k]).collect();
    input_samplers.extend(n.args.iter().filter_map(|a| match a.resource {
        Some(Resource::Sampler(id)) => Some([0, id]),
        _ => None,
    }));

    // UAV op mask.
    let mut mask = [0u32; 32];
    let mut set = |bit: u32| {
        if let Some(w) = mask.get_mut((bit / 32) as usize) {
            *w |= 1 << (bit % 32);
        }
    };
    let mut wo_pos = 0;
    for a in n.args {
        match a.resource {
            Some(Resource::ImageWo(_)) => {
                if a.used {
                    set(wo_pos);
                }
                wo_pos += 1;
            }
            Some(Resource::Uav(id) | Resource::ConstUav(id)) if a.used => set(id),
            _ => {}
        }
    }
    if n.const_data && n.drv.constant_as_uav() {
        if let Some(cbid) = n.ids.cbid {
            set(cbid);
        }
    }
    if n.printf {
        set(n.ids.printfid.unwrap_or(PRINTFID));
    }

    // PROGINFO.
    let scratch_dwords = n.scratch_bytes.div_ceil(4);
    let mut p: Vec<[u32; 2]> = Vec::with_capacity(50 + 4 * MAX_ENTRIES);
    p.push([addr::USER_DATA_COUNT, n.userdata.len() as u32]);
    let shown = if old { MAX_ENTRIES } else { n.userdata.len() };
    for k in 0..shown {
        let e = n.userdata.get(k);
        let vals = e.map_or([0; 4], |e| [e.class.0, e.api_slot, e.reg_start, e.reg_size]);
        for (j, v) in vals.iter().enumerate() {
            p.push([addr::USER_DATA + 4 * k as u32 + j as u32, *v]);
        }
    }
    p.push([addr::VGPRS, n.regs.vgprs]);
    p.push([addr::SGPRS, n.regs.sgprs]);
    p.push([addr::MAX_SGPRS, n.generation.max_sgprs()]);
    p.push([addr::MAX_VGPRS, crate::registers::MAX_VGPRS]);
    p.push([addr::FLOAT_MODE, n.float_mode]);
    p.push([addr::IEEE_MODE, u32::from(n.ieee_mode)]);
    p.push([addr::SCRATCH_DWORDS, scratch_dwords]);
    p.push([addr::PGM_RSRC2, n.regs.pgm_rsrc2]);
    let wg = if n.cws.iter().all(|&c| c != 0) {
        n.cws
    } else {
        [256, 0, 0]
    };
    for (j, v) in wg.iter().enumerate() {
        p.push([addr::REQD_WG_X + j as u32, *v]);
    }
    p.push([addr::UNKNOWN_1841, 0]);
    p.push([addr::UAV_MASK_0, mask[0]]);
    for (j, v) in mask.iter().enumerate() {
        p.push([addr::UAV_MASK + j as u32, *v]);
    }
    p.push([addr::UNKNOWN_0A, 1]);
    p.push([addr::UNKNOWN_78, 64]);
    p.push([addr::UNKNOWN_81, 32768]);
    p.push([addr::LDS_SIZE, n.regs.lds_size_field << 8]);

    CalNotes {
        uav,
        cbmask,
        inputs,
        input_samplers,
        proginfo: p,
        uav_mask: mask,
        scratch_dwords,
    }
}
