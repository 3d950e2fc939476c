//! Resource ids: the default `uavid`/`cbid`/`printfid`/`privateid` per driver version, and
//! the two-pass assignment of ids to arguments (explicit ids first, then defaults in
//! declaration order, each counter skipping reserved ids).

use serde::Serialize;

use crate::driver::Driver;
use crate::error::LayoutError;
use crate::types::{AddrSpace, ArgType, ImageAccess, KernelArg};

/// Number of UAV ids (0..1023).
pub const UAV_IDS: u32 = 1024;
/// Number of constant-buffer ids (0..159).
pub const CB_IDS: u32 = 160;
/// Number of read-only image ids (0..127).
pub const RD_IMG_IDS: u32 = 128;
/// Number of write-only image ids (0..7).
pub const WR_IMG_IDS: u32 = 8;
/// Number of counter ids (0..7).
pub const COUNTER_IDS: u32 = 8;
/// Smallest explicit UAV id of a used pointer.
pub const MIN_EXPLICIT_UAV: u32 = 9;
/// First constant-buffer id of `constant` pointers before 1348.05 (cb0 setup, cb1 args).
pub const FIRST_CONSTANT_CB: u32 = 2;
/// Constant-buffer id of the global data before 1348.05.
pub const GLOBAL_DATA_CB: u32 = 2;

/// Default uavid from 1348.05.
pub const UAVID: u32 = 11;
/// Default uavid before 1348.05.
pub const OLD_UAVID: u32 = 9;
/// Default cbid (global constant data) from 1348.05.
pub const CBID: u32 = 10;
/// Default printfid.
pub const PRINTFID: u32 = 9;
/// Default privateid.
pub const PRIVATEID: u32 = 8;

/// The four special ids of a kernel; `None` when the kernel has no such id.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize)]
pub struct SpecialIds {
    /// Default/dummy UAV, the id of unused global pointers.
    pub uavid: Option<u32>,
    /// UAV of the global constant data.
    pub cbid: Option<u32>,
    /// UAV of the printf buffer.
    pub printfid: Option<u32>,
    /// UAV of private memory.
    pub privateid: Option<u32>,
}

/// Explicitly requested special ids.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct ExplicitSpecialIds {
    /// `.uavid`.
    pub uavid: Option<u32>,
    /// `.cbid`.
    pub cbid: Option<u32>,
    /// `.printfid`.
    pub printfid: Option<u32>,
    /// `.privateid`.
    pub privateid: Option<u32>,
}

/// Whether `ty` takes a UAV id at driver `drv` (global pointers; `constant` pointers from
/// 1348.05).
pub fn is_uav_pointer(ty: &ArgType, drv: Driver) -> bool {
    match ty {
        ArgType::Pointer {
            space: AddrSpace::Global,
            ..
        } => true,
        ArgType::Pointer {
            space: AddrSpace::Constant,
            ..
        } => drv.constant_as_uav(),
        _ => false,
    }
}

/// Resolves the special ids: explicit values win, the rest follow the driver gates.
pub fn special_ids(
    drv: Driver,
    args: &[KernelArg],
    printf: bool,
    explicit: ExplicitSpecialIds,
) -> Result<SpecialIds, LayoutError> {
    for (which, v) in [
        ("uavid", explicit.uavid),
        ("cbid", explicit.cbid),
        ("printfid", explicit.printfid),
        ("privateid", explicit.privateid),
    ] {
        if let Some(value) = v {
            if value >= UAV_IDS {
                return Err(LayoutError::SpecialIdOutOfRange { which, value });
            }
        }
    }
    let has_buffer = args.iter().any(|a| {
        matches!(
            a.ty,
            ArgType::Pointer {
                space: AddrSpace::Global | AddrSpace::Constant,
                ..
            }
        )
    });
    let uavid = if !drv.constant_as_uav() {
        Some(OLD_UAVID)
    } else if drv.uavid_conditional() && !(has_buffer || printf) {
        None
    } else {
        Some(UAVID)
    };
    let cbid = drv.constant_as_uav().then_some(CBID);
    let printfid = (drv.printfid_always() || (drv.constant_as_uav() && printf)).then_some(PRINTFID);
    Ok(SpecialIds {
        uavid: explicit.uavid.or(uavid),
        cbid: explicit.cbid.or(cbid),
        printfid: explicit.printfid.or(printfid),
        privateid: explicit.privateid.or(Some(PRIVATEID)),
    })
}

/// The resource an argument is bound to, in the metadata's id spaces. Serialised as
/// `{"space": <space name>, "id": <id>}`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Resource {
    /// Global pointer: a UAV (`uav:`).
    Uav(u32),
    /// `constant` pointer from 1348.05: a UAV, written `c:`.
    ConstUav(u32),
    /// `constant` pointer before 1348.05: a constant buffer, written `hc:`.
    ConstBuffer(u32),
    /// Local pointer: always `hl:1`.
    Local(u32),
    /// Read-only image: resource-table index.
    ImageRo(u32),
    /// Write-only image: UAV id 0..7.
    ImageWo(u32),
    /// `counter32_t`: counter id.
    Counter(u32),
    /// Sampler argument: sampler id.
    Sampler(u32),
}

impl Serialize for Resource {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeStruct;
        let mut st = s.serialize_struct("Resource", 2)?;
        st.serialize_field("space", self.space())?;
        st.serialize_field("id", &self.id())?;
        st.end()
    }
}

impl Resource {
    /// Name of the id space: the metadata's pointer spaces `uav`, `c`, `hc`, `hl`, and
    /// `image_ro`, `image_wo`, `counter`, `sampler` for the other kinds.
    pub fn space(self) -> &'static str {
        match self {
            Resource::Uav(_) => "uav",
            Resource::ConstUav(_) => "c",
            Resource::ConstBuffer(_) => "hc",
            Resource::Local(_) => "hl",
            Resource::ImageRo(_) => "image_ro",
            Resource::ImageWo(_) => "image_wo",
            Resource::Counter(_) => "counter",
            Resource::Sampler(_) => "sampler",
        }
    }

    /// The id within its space.
    pub fn id(self) -> u32 {
        match self {
            Resource::Uav(i)
            | Resource::ConstUav(i)
            | Resource::ConstBuffer(i)
            | Resource::Local(i)
            | Resource::ImageRo(i)
            | Resource::ImageWo(i)
            | Resource::Counter(i)
            | Resource::Sampler(i) => i,
        }
    }
}

/// Id spaces the assignment counts in.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Space {
    Uav,
    Cb,
    RdImg,
    WrImg,
    Counter,
}

/// Which id space an argument draws from, if any.
fn space_of(ty: &ArgType, drv: Driver) -> Option<Space> {
    match ty {
        ArgType::Pointer {
            space: AddrSpace::Global,
            ..
        } => Some(Space::Uav),
        ArgType::Pointer {
            space: AddrSpace::Constant,
            ..
        } => Some(if drv.constant_as_uav() {
            Space::Uav
        } else {
            Space::Cb
        }),
        ArgType::Image {
            access: ImageAccess::ReadOnly,
            ..
        } => Some(Space::RdImg),
        ArgType::Image {
            access: ImageAccess::WriteOnly,
            ..
        } => Some(Space::WrImg),
        ArgType::Counter32 => Some(Space::Counter),
        _ => None,
    }
}

/// A small fixed bit set over one id space.
struct Reserved(Vec<bool>);

impl Reserved {
    fn new(n: u32) -> Reserved {
        Reserved(vec![false; n as usize])
    }
    fn get(&self, id: u32) -> bool {
        self.0.get(id as usize).copied().unwrap_or(false)
    }
    fn set(&mut self, id: u32) {
        if let Some(b) = self.0.get_mut(id as usize) {
            *b = true;
        }
    }
    /// The first id from `start` that is not reserved, below `limit`.
    fn next_free(&self, start: u32, limit: u32) -> Option<u32> {
        (start..limit).find(|&i| !self.get(i))
    }
}

fn out_of_range(space: Space, arg: &str, detail: String) -> LayoutError {
    let arg = arg.to_string();
    match space {
        Space::Uav => LayoutError::UavIdOutOfRange { arg, detail },
        Space::Cb => LayoutError::CbIdOutOfRange { arg, detail },
        Space::RdImg => LayoutError::RdImgIdOutOfRange { arg, detail },
        Space::WrImg => LayoutError::WrImgIdOutOfRange { arg, detail },
        Space::Counter => LayoutError::CounterIdOutOfRange { arg, detail },
    }
}

fn already_used(space: Space, arg: &str, id: u32) -> LayoutError {
    let arg = arg.to_string();
    match space {
        Space::Uav => LayoutError::UavIdAlreadyUsed { arg, id },
        Space::Cb => LayoutError::CbIdAlreadyUsed { arg, id },
        Space::RdImg => LayoutError::RdImgIdAlreadyUsed { arg, id },
        Space::WrImg => LayoutError::WrImgIdAlreadyUsed { arg, id },
        Space::Counter => LayoutError::CounterIdAlreadyUsed { arg, id },
    }
}

/// Assigns a resource to every argument (or `None` for values and structures).
///
/// `uavid` is the resolved default UAV id; `global_data` says whether the program has
/// global constant data (it moves the first `constant` cb id from 2 to 3 before 1348.05).
/// With `sorted_uavs` the default UAV ids go to the used pointers in the order of their
/// names sorted as text (byte order) instead of declaration order.
pub fn assign(
    args: &[KernelArg],
    drv: Driver,
    global_data: bool,
    uavid: Option<u32>,
    sorted_uavs: bool,
) -> Result<Vec<Option<Resource>>, LayoutError> {
    // uavid is None only when the kernel has no global or constant pointer (see
    // `special_ids`), so the fallback is never used for an id.
    let uavid = uavid.unwrap_or(UAVID);
    let wr_count = args
        .iter()
        .filter(|a| {
            matches!(
                a.ty,
                ArgType::Image {
                    access: ImageAccess::WriteOnly,
                    ..
                }
            )
        })
        .count();
    if wr_count > WR_IMG_IDS as usize {
        return Err(LayoutError::TooManyWriteOnlyImages { count: wr_count });
    }
    let mut uav = Reserved::new(UAV_IDS);
    let mut cb = Reserved::new(CB_IDS);
    let mut rd = Reserved::new(RD_IMG_IDS);
    let mut wr = Reserved::new(WR_IMG_IDS);
    let mut ctr = Reserved::new(COUNTER_IDS);

    // Pass 1: explicit ids are checked and reserved.
    for a in args {
        let Some(id) = a.explicit_id else { continue };
        let Some(space) = space_of(&a.ty, drv) else {
            let kind = match &a.ty {
                ArgType::Pointer { .. } => "local pointer",
                ArgType::Sampler => "sampler",
                ArgType::Struct { .. } => "structure",
                _ => "value",
            };
            return Err(LayoutError::IdNotAllowed {
                arg: a.name.clone(),
                kind: kind.into(),
            });
        };
        let (lo, hi, set) = match space {
            Space::Uav => (MIN_EXPLICIT_UAV, UAV_IDS, &mut uav),
            Space::Cb => (FIRST_CONSTANT_CB, CB_IDS, &mut cb),
            Space::RdImg => (0, RD_IMG_IDS, &mut rd),
            Space::WrImg => (0, WR_IMG_IDS, &mut wr),
            Space::Counter => (0, COUNTER_IDS, &mut ctr),
        };
        if space == Space::Uav && !a.used {
            if id != uavid {
                return Err(out_of_range(
                    space,
                    &a.name,
                    format!("an unused pointer must use the uavid {uavid}, not {id}"),
                ));
            }
            continue;
        }
        if id < lo || id >= hi {
            return Err(out_of_range(
                space,
                &a.name,
                format!("{id} is outside {lo}..{}", hi - 1),
            ));
        }
        if set.get(id) && !(space == Space::Uav && id == uavid) {
            return Err(already_used(space, &a.name, id));
        }
        set.set(id);
    }

    // Pass 2: defaults in declaration order.
    let mut next_uav = uavid + 1;
    let mut next_cb = if global_data {
        FIRST_CONSTANT_CB + 1
    } else {
        FIRST_CONSTANT_CB
    };
    let (mut next_rd, mut next_wr, mut next_ctr, mut next_sampler) = (0, 0, 0, 0);
    let mut sorted_ids: Vec<Option<u32>> = vec![None; args.len()];
    if sorted_uavs {
        let mut order: Vec<usize> = (0..args.len())
            .filter(|&i| {
                let a = &args[i];
                a.used && a.explicit_id.is_none() && space_of(&a.ty, drv) == Some(Space::Uav)
            })
            .collect();
        order.sort_by(|&i, &j| args[i].name.cmp(&args[j].name));
        for i in order {
            let id = uav.next_free(next_uav, UAV_IDS).ok_or_else(|| {
                out_of_range(
                    Space::Uav,
                    &args[i].name,
                    format!("no free id left below {UAV_IDS}"),
                )
            })?;
            next_uav = id + 1;
            sorted_ids[i] = Some(id);
        }
    }
    let mut out = Vec::with_capacity(args.len());
    for (index, a) in args.iter().enumerate() {
        let space = space_of(&a.ty, drv);
        let take = |set: &mut Reserved, next: &mut u32, limit: u32, s: Space| match a.explicit_id {
            Some(id) => Ok(id),
            None => match set.next_free(*next, limit) {
                Some(id) => {
                    *next = id + 1;
                    Ok(id)
                }
                None => Err(out_of_range(
                    s,
                    &a.name,
                    format!("no free id left below {limit}"),
                )),
            },
        };
        let res = match (&a.ty, space) {
            (
                ArgType::Pointer {
                    space: AddrSpace::Local,
                    ..
                },
                _,
            ) => Some(Resource::Local(1)),
            (ArgType::Pointer { space: ps, .. }, Some(Space::Uav)) => {
                let id = match (a.used, sorted_ids[index]) {
                    (false, _) => uavid,
                    (true, Some(id)) => id,
                    (true, None) => take(&mut uav, &mut next_uav, UAV_IDS, Space::Uav)?,
                };
                Some(if *ps == AddrSpace::Global {
                    Resource::Uav(id)
                } else {
                    Resource::ConstUav(id)
                })
            }
            (ArgType::Pointer { .. }, _) => Some(Resource::ConstBuffer(take(
                &mut cb,
                &mut next_cb,
                CB_IDS,
                Space::Cb,
            )?)),
            (
                ArgType::Image {
                    access: ImageAccess::ReadOnly,
                    ..
                },
                _,
            ) => Some(Resource::ImageRo(take(
                &mut rd,
                &mut next_rd,
                RD_IMG_IDS,
                Space::RdImg,
            )?)),
            (
                ArgType::Image {
                    access: ImageAccess::WriteOnly,
                    ..
                },
                _,
            ) => Some(Resource::ImageWo(take(
                &mut wr,
                &mut next_wr,
                WR_IMG_IDS,
                Space::WrImg,
            )?)),
            (ArgType::Counter32, _) => Some(Resource::Counter(take(
                &mut ctr,
                &mut next_ctr,
                COUNTER_IDS,
                Space::Counter,
            )?)),
            (ArgType::Sampler, _) => {
                next_sampler += 1;
                Some(Resource::Sampler(next_sampler - 1))
            }
            _ => None,
        };
        out.push(res);
    }
    Ok(out)
}
