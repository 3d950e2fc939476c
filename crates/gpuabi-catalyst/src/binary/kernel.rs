//! One kernel of a binary: its metadata text, header and CAL image combined into a
//! [`BinaryKernel`], with PROGINFO decoded into user data, registers and the UAV mask.

use crate::args::{cb1_bytes, ArgKind, Vec3Policy};
use crate::cal_notes::{self, addr, CalNotes};
use crate::cb0;
use crate::cb1::Slot;
use crate::driver::Device;
use crate::registers;
use crate::resource_ids::Resource;
use crate::userdata::{DataClass, UserDataEntry, MAX_ENTRIES};

use super::{
    cal_image, metadata_text, outer, BinaryArg, BinaryError, BinaryKernel, Code, NoteSummary,
    NOT_IN_BINARY,
};

fn slice(data: &[u8], (offset, size): (u64, u64)) -> &[u8] {
    // Ranges come from `outer::read`, which checked them against the file.
    usize::try_from(offset)
        .ok()
        .zip(usize::try_from(offset.saturating_add(size)).ok())
        .and_then(|(a, b)| data.get(a..b))
        .unwrap_or(&[])
}

fn words(b: &[u8]) -> impl Iterator<Item = u32> + '_ {
    b.chunks_exact(4)
        .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
}

/// Reads the kernel whose parts `outer::read` found.
pub fn read(
    data: &[u8],
    parts: &outer::KernelParts,
    driver: Option<u32>,
    bits: u32,
    device: Option<Device>,
) -> Result<BinaryKernel, BinaryError> {
    let name = &parts.name;
    let mut warnings = Vec::new();

    let meta_bytes = slice(data, parts.metadata);
    let meta_text = String::from_utf8_lossy(meta_bytes);
    let end = meta_text
        .find(";ARGEND:")
        .map(|i| {
            i + meta_text[i..]
                .find('\n')
                .map_or(meta_text.len() - i, |n| n + 1)
        })
        .unwrap_or(meta_text.len());
    let metadata = meta_text[..end].to_string();
    let meta = metadata_text::parse(name, &metadata)?;
    warnings.extend(
        meta.unknown_lines
            .iter()
            .map(|l| format!("metadata line not understood: {l}")),
    );

    let header_bytes = slice(data, parts.header);
    if header_bytes.len() != 32 {
        return Err(BinaryError::HeaderSize {
            kernel: name.clone(),
            offset: parts.header.0,
            size: parts.header.1,
        });
    }
    let mut header = [0u32; 8];
    for (h, w) in header.iter_mut().zip(words(header_bytes)) {
        *h = w;
    }

    let image = cal_image::read(name, slice(data, parts.cal_image), parts.cal_image.0)?;
    let note = |t: u32| image.notes.iter().find(|n| n.note_type == t);
    let note_err = |t: u32, msg: String| BinaryError::CalImage {
        kernel: name.clone(),
        offset: note(t).map_or(parts.cal_image.0, |n| n.offset),
        message: msg,
    };
    let note_words = |t: u32, unit: usize| -> Result<Vec<u32>, BinaryError> {
        match note(t) {
            None => Ok(Vec::new()),
            Some(n) if n.desc.len() % (4 * unit) != 0 => Err(note_err(
                t,
                format!(
                    "CAL note {} has {} bytes, not a multiple of {}",
                    cal_notes::note_name(t).unwrap_or("?"),
                    n.desc.len(),
                    4 * unit
                ),
            )),
            Some(n) => Ok(words(&n.desc).collect()),
        }
    };
    let proginfo: Vec<[u32; 2]> = note_words(cal_notes::NOTE_PROGINFO, 2)?
        .chunks_exact(2)
        .map(|c| [c[0], c[1]])
        .collect();
    if note(cal_notes::NOTE_PROGINFO).is_none() {
        return Err(note_err(
            cal_notes::NOTE_PROGINFO,
            "no PROGINFO note".into(),
        ));
    }
    let get = |a: u32| proginfo.iter().find(|e| e[0] == a).map(|e| e[1]);
    let require = |a: u32, what: &str| {
        get(a).ok_or_else(|| {
            note_err(
                cal_notes::NOTE_PROGINFO,
                format!("PROGINFO has no entry {a:#010x} ({what})"),
            )
        })
    };
    let count = require(addr::USER_DATA_COUNT, "number of user-data entries")?;
    if count as usize > MAX_ENTRIES {
        return Err(note_err(
            cal_notes::NOTE_PROGINFO,
            format!("PROGINFO gives {count} user-data entries, at most {MAX_ENTRIES} exist"),
        ));
    }
    let mut userdata = Vec::with_capacity(count as usize);
    for k in 0..count {
        let at = addr::USER_DATA + 4 * k;
        let f = |j: u32| require(at + j, "user-data entry");
        userdata.push(UserDataEntry::new(DataClass(f(0)?), f(1)?, f(2)?, f(3)?));
    }
    let pgm_rsrc2 = require(addr::PGM_RSRC2, "PGM_RSRC2")?;
    let (dims, regs) = registers::state_from_pgm_rsrc2(
        pgm_rsrc2,
        require(addr::SGPRS, "used SGPRs")?,
        require(addr::VGPRS, "used VGPRs")?,
    );

    let mut uav_mask = [0u32; 32];
    let mask_words = note_words(cal_notes::NOTE_UAV_OP_MASK, 1)?;
    if mask_words.len() == 32 {
        uav_mask.copy_from_slice(&mask_words);
    } else {
        for (j, m) in uav_mask.iter_mut().enumerate() {
            *m = get(addr::UAV_MASK + j as u32).unwrap_or(0);
        }
    }
    let mask_bit = |bit: u32| {
        uav_mask
            .get((bit / 32) as usize)
            .is_some_and(|w| w & (1 << (bit % 32)) != 0)
    };

    let mut args = Vec::with_capacity(meta.args.len());
    let mut wo_pos = 0;
    // Unused pointers get the dummy uavid (spec §7): the metadata's from driver 1348.05
    // on; before, 9, whose mask bit the printf buffer sets (it shares the id), while the
    // metadata's `;uavid:` is one of the pointers' ids (the first its compiler's UAV set
    // lists: `prginfo1_12_10` of CLRX's test data gives `copier` `;uavid:11` with `out`
    // at UAV 11).
    let unused_id = match driver {
        Some(d) if !crate::driver::Driver(d).constant_as_uav() => {
            Some(crate::resource_ids::OLD_UAVID)
        }
        _ => meta.ids.uavid,
    };
    for a in meta.args {
        let used = match a.resource {
            Some(Resource::Uav(id)) if Some(id) == unused_id => Some(false),
            Some(Resource::Uav(id) | Resource::ConstUav(id)) => Some(mask_bit(id)),
            Some(Resource::ImageWo(_)) => {
                wo_pos += 1;
                Some(mask_bit(wo_pos - 1))
            }
            _ => None,
        };
        args.push(BinaryArg {
            kind: ArgKind::of(&a.ty),
            slot: Slot {
                offset: a.offset,
                size: cb1_bytes(&a.ty, Vec3Policy::Amd),
            },
            name: a.name,
            type_name: a.type_name,
            resource: a.resource,
            used,
            ty: a.ty,
        });
    }
    let args_space = args
        .iter()
        .map(|a| a.slot.offset.saturating_add(a.slot.size))
        .max()
        .unwrap_or(0);

    let device_name = meta
        .device
        .clone()
        .or_else(|| device.map(|d| d.metadata_name()))
        .unwrap_or_default();
    let generation = match (device, Device::from_name(&device_name)) {
        (Some(d), Ok(m)) if d != m => {
            warnings.push(format!(
                "the ELF machine code says {}, the metadata says {}",
                d.name, m.name
            ));
            Some(m.generation)
        }
        (_, Ok(m)) => Some(m.generation),
        (Some(d), Err(_)) => Some(d.generation),
        (None, Err(_)) => None,
    };

    let pairs = |t: u32| -> Result<Vec<[u32; 2]>, BinaryError> {
        Ok(note_words(t, 2)?
            .chunks_exact(2)
            .map(|c| [c[0], c[1]])
            .collect())
    };
    let single =
        |t: u32| -> Result<Option<u32>, BinaryError> { Ok(note_words(t, 1)?.first().copied()) };
    let notes = CalNotes {
        uav: note_words(cal_notes::NOTE_UAV, 4)?
            .chunks_exact(4)
            .map(|c| [c[0], c[1], c[2], c[3]])
            .collect(),
        cbmask: pairs(cal_notes::NOTE_CONSTANT_BUFFERS)?,
        inputs: note_words(cal_notes::NOTE_INPUTS, 1)?,
        input_samplers: pairs(cal_notes::NOTE_INPUT_SAMPLERS)?,
        uav_mask,
        scratch_dwords: single(cal_notes::NOTE_SCRATCH_BUFFERS)?.unwrap_or(0),
        proginfo: proginfo.clone(),
    };
    let cal_notes_list = image
        .notes
        .iter()
        .map(|n| NoteSummary {
            note_type: n.note_type,
            name: cal_notes::note_name(n.note_type),
            offset: n.offset,
            size: n.desc.len(),
        })
        .collect();
    let hex = image.text.iter().map(|b| format!("{b:02x}")).collect();
    // Code the machine model cannot decode stays hex only, with a warning saying where.
    let disassembly = generation.and_then(|g| {
        super::disasm::disassemble(&image.text, g)
            .map_err(|e| {
                warnings.push(format!(
                    "code does not decode as {}: {e}",
                    super::disasm::target_of(g)
                ))
            })
            .ok()
    });
    Ok(BinaryKernel {
        kernel: name.clone(),
        driver,
        device: device_name,
        generation,
        bits,
        dims,
        cws: meta.cws.unwrap_or([0; 3]),
        args,
        args_space,
        ids: meta.ids,
        uavprivate: meta.uavprivate,
        userdata,
        user_sgprs: registers::user_sgprs_of_pgm_rsrc2(pgm_rsrc2),
        regs,
        header,
        notes,
        metadata,
        cb0: cb0::map(bits == 64),
        warnings,
        options: None,
        not_in_binary: NOT_IN_BINARY.to_vec(),
        hwlocal: meta.hwlocal,
        hwregion: meta.hwregion,
        datareqd: meta.datareqd,
        abi64: meta.abi64,
        const_samplers: meta.const_samplers.clone(),
        float_mode: get(addr::FLOAT_MODE),
        ieee_mode: get(addr::IEEE_MODE),
        condout: single(cal_notes::NOTE_CONDOUT)?,
        earlyexit: single(cal_notes::NOTE_EARLYEXIT)?,
        cal_notes: cal_notes_list,
        code: Code {
            offset: image.text_offset,
            size: image.text.len(),
            hex,
        },
        data_size: image.data_size,
        disassembly,
    })
}
