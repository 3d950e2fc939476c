//! The layout engine: a pure function from a kernel description and options to the whole
//! ABI of the kernel (`KernelLayout`), as CLRX computes it.

use serde::Serialize;

use crate::args::{old_uavprivate_bytes, roundup16, ArgKind, Vec3Policy};
use crate::cal_notes::{self, CalNotes};
use crate::cb0::{self, Cb0Field};
use crate::cb1::{self, Slot};
use crate::driver::{Device, Driver, Generation, DEFAULT_DRIVER};
use crate::error::LayoutError;
use crate::header::header;
use crate::metadata;
use crate::registers::{self, Dims, RegisterInput, RegisterState, MAX_LDS};
use crate::resource_ids::{self, ExplicitSpecialIds, Resource, SpecialIds};
use crate::types::{AddrSpace, ArgType, ImageAccess, Kernel};
use crate::userdata::{self, UsedResources, UserDataEntry, EMPTY_USER_SGPRS};

/// Default float mode (PROGINFO 0x80001043).
pub const DEFAULT_FLOAT_MODE: u32 = 0xC0;

/// Whose output the layout follows where CLRX and AMD's drivers differ (the metadata, the
/// CAL notes, the header and the `amd` user-data derivation).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum NotesPolicy {
    /// What CLRX writes (the default).
    #[default]
    Clrx,
    /// What AMD's drivers wrote, as observed in their binaries (the `amd_*` gates of
    /// [`Driver`]): the UAV note has one extra entry; an unused `const global` and a
    /// `const local` pointer are `RW` in the metadata; under `--userdata auto` a kernel
    /// whose used arguments are all images does not load cb1; the sampler lines follow the
    /// compiler's hash order; drivers before 1124.02 number the ids of more than eight
    /// global pointers by their names sorted as text and list their UAVs in hash order;
    /// drivers 1124.x do not mark 64-bit binaries. What it cannot derive is listed in
    /// [`KernelLayout::not_derived`].
    Amd,
}

/// How the user data is obtained.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase", tag = "policy", content = "entries")]
pub enum UserDataPolicy {
    /// CLRX behaviour: the list as given (empty: USER_SGPR 2).
    Explicit(Vec<UserDataEntry>),
    /// Derived with the model of AMD's compiler.
    Amd,
}

/// Everything besides the argument list that the layout depends on.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Options {
    /// Driver version, `major*100 + minor`.
    pub driver: u32,
    /// Target device.
    pub device: Device,
    /// 64-bit binary (else 32-bit).
    pub is_64bit: bool,
    /// Dimension mask; `None` takes the dimension bits of `pgm_rsrc2`.
    pub dims: Option<Dims>,
    /// TG_SIZE_EN (`.tgsize`).
    pub tgsize: bool,
    /// Scratch buffer size in bytes (`.scratchbuffer`).
    pub scratch_bytes: u32,
    /// Initial local data size in bytes (`.hwlocal`).
    pub hwlocal: u32,
    /// `.hwregion`.
    pub hwregion: u32,
    /// The kernel uses printf (`.useprintf`).
    pub printf: bool,
    /// The kernel uses the program's global constant data (`.useconstdata`: the cbid bit
    /// of the UAV mask, and the data's UAV or constant buffer in `amd` user data).
    pub const_data: bool,
    /// Size of the program's global constant data in bytes (`.globaldata`; 0: none, as in
    /// CLRX, [`Options::has_global_data`]). The program has it whether or not this kernel
    /// uses it: `;memory:datareqd`, cb2 before driver 1348.05 and old drivers'
    /// constant-buffer note (sizes in 16-byte units) follow it.
    pub global_data_bytes: u32,
    /// User-data policy.
    pub userdata: UserDataPolicy,
    /// Size of 64-bit 3-vectors in cb1.
    pub vec3_64: Vec3Policy,
    /// Explicit `.uavid`.
    pub uavid: Option<u32>,
    /// Explicit `.cbid`.
    pub cbid: Option<u32>,
    /// Explicit `.printfid`.
    pub printfid: Option<u32>,
    /// Explicit `.privateid`.
    pub privateid: Option<u32>,
    /// Explicit `.uavprivate`.
    pub uavprivate: Option<u32>,
    /// User PGM_RSRC2 value (`.pgmrsrc2`).
    pub pgm_rsrc2: u32,
    /// Exception mask (`.exceptions`, 7 bits).
    pub exceptions: u32,
    /// Explicit used SGPRs (`.sgprsnum`).
    pub sgprs: Option<u32>,
    /// Explicit used VGPRs (`.vgprsnum`).
    pub vgprs: Option<u32>,
    /// Float mode (`.floatmode`).
    pub float_mode: u32,
    /// IEEE mode (`.ieeemode`).
    pub ieee_mode: bool,
    /// Required work-group size (`.cws`); `None` takes the kernel's attribute.
    pub cws: Option<[u32; 3]>,
    /// Values of the constant (program-scope) samplers the kernel uses (`.sampler`), in
    /// the order the kernel first uses them.
    pub const_samplers: Vec<u32>,
    /// `amd` policy: the code reads the setup buffer cb0.
    pub setup_buffer_used: bool,
    /// Whose metadata and CAL notes to write where CLRX and AMD differ.
    pub notes: NotesPolicy,
    /// The kernel's place in its program, which numbers its metadata ids.
    #[serde(skip_serializing_if = "ProgramPlace::is_alone")]
    pub program: ProgramPlace,
}

/// Where a kernel stands in a program of several kernels: the kernel at `index` (from 0)
/// of `kernels`. Its `;uniqueid:` is 1024 + `index`, as both CLRX and AMD's compilers
/// number them; its `;function:` id is the unique id under the `clrx` policy and, under
/// the `amd` policy, the unique id + 2 × `kernels`, as AMD's compiler (driver 1702.3)
/// wrote it in every binary of CLRX's test data (one kernel: 1026; two: 1028 and 1029).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct ProgramPlace {
    /// Index of the kernel in its program (file order).
    pub index: u32,
    /// Number of kernels of the program.
    pub kernels: u32,
}

impl ProgramPlace {
    /// A program of this kernel alone.
    pub const ALONE: ProgramPlace = ProgramPlace {
        index: 0,
        kernels: 1,
    };

    /// Whether the kernel is its program's only one.
    pub fn is_alone(&self) -> bool {
        *self == ProgramPlace::ALONE
    }
}

impl Default for ProgramPlace {
    fn default() -> ProgramPlace {
        ProgramPlace::ALONE
    }
}

/// The value CLRX's `.hwregion` and `.uavprivate` take to mean "use the default"
/// (`BINGEN_DEFAULT` in CLRX's amdbin/AmdBinGen.cpp).
pub const CLRX_DEFAULT: u32 = u32::MAX;
/// Largest scratch buffer whose dword count `(size + 3) / 4` CLRX computes without 32-bit
/// overflow (amdbin/AmdBinGen.cpp writes `(scratchBufferSize+3)>>2`).
pub const MAX_SCRATCH_BYTES: u32 = u32::MAX - 3;
/// More global pointers than this make drivers before 1124.02 sort their UAV ids by name
/// and 1348.x order them in its own way.
pub const AMD_SORTED_UAV_POINTERS: usize = 8;
/// Value of the constant sampler drivers before 1348.05 read images without a sampler
/// through (`CLK_FILTER_NEAREST`, [`Driver::amd_implicit_sampler`]).
pub const AMD_IMPLICIT_SAMPLER: u32 = 0x10;

impl Options {
    /// Whether the program has global constant data as CLRX sees it: at least one byte of
    /// it. CLRX's assembler (amdasm/AsmAmdFormat.cpp) takes an empty `.globaldata` section
    /// for no global data: no `;memory:datareqd`, no cb2, and `constant` pointers of old
    /// drivers start at cb 2.
    pub fn has_global_data(&self) -> bool {
        self.global_data_bytes != 0
    }
}

impl Default for Options {
    fn default() -> Options {
        Options {
            driver: DEFAULT_DRIVER,
            device: Device::pitcairn(),
            is_64bit: false,
            dims: None,
            tgsize: false,
            scratch_bytes: 0,
            hwlocal: 0,
            hwregion: 0,
            printf: false,
            const_data: false,
            global_data_bytes: 0,
            userdata: UserDataPolicy::Amd,
            vec3_64: Vec3Policy::Clrx,
            uavid: None,
            cbid: None,
            printfid: None,
            privateid: None,
            uavprivate: None,
            pgm_rsrc2: 0,
            exceptions: 0,
            sgprs: None,
            vgprs: None,
            float_mode: DEFAULT_FLOAT_MODE,
            ieee_mode: false,
            cws: None,
            const_samplers: Vec::new(),
            setup_buffer_used: true,
            notes: NotesPolicy::Clrx,
            program: ProgramPlace::ALONE,
        }
    }
}

/// One argument's place in the ABI.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ArgLayout {
    /// Argument name.
    pub name: String,
    /// Broad kind.
    pub kind: ArgKind,
    /// Reflection type name.
    #[serde(rename = "type")]
    pub type_name: String,
    /// Byte offset and size in cb1.
    #[serde(flatten)]
    pub slot: Slot,
    /// Bound resource, if any.
    pub resource: Option<Resource>,
    /// Whether the kernel uses the argument.
    pub used: bool,
    /// The full type.
    #[serde(skip)]
    pub ty: ArgType,
}

/// A field of the layout that the `amd` notes policy cannot derive for the kernel's driver:
/// AMD's compiler decided it from something a prototype and the options do not tell (the
/// kernel's code, the compiler's memory addresses). The layout holds CLRX's value there.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct NotDerived {
    /// The field's name in the JSON output (`input_samplers`, `uav_note`, …; `args` for
    /// the arguments' resources).
    pub field: &'static str,
    /// Why AMD's value is not derivable.
    pub reason: &'static str,
}

/// The complete ABI of one kernel. Field names are those of the JSON output; the results of
/// the sub-engines (special ids, register state, CAL notes, each argument's cb1 slot) are
/// held as they are and flattened into it, so each value is stored once.
///
/// The keys of a flattened sub-result stay together in the JSON output (the CAL-note keys
/// `uav_note` … `scratch_dwords`, then `metadata`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct KernelLayout {
    /// Kernel name.
    pub kernel: String,
    /// Driver version.
    pub driver: u32,
    /// Device name, lower case.
    pub device: String,
    /// GCN generation.
    pub generation: Generation,
    /// 32 or 64.
    pub bits: u32,
    /// Resolved dimension mask (bits 0-2 group ids, 3-5 local ids).
    pub dims: Dims,
    /// Required work-group size (zeros when absent).
    pub cws: [u32; 3],
    /// Arguments in declaration order.
    pub args: Vec<ArgLayout>,
    /// Bytes of cb1 used by arguments.
    pub args_space: u32,
    /// The special UAV ids (`uavid`, `cbid`, `printfid`, `privateid`).
    #[serde(flatten)]
    pub ids: SpecialIds,
    /// `memory:uavprivate`.
    pub uavprivate: u32,
    /// User-data entries.
    pub userdata: Vec<UserDataEntry>,
    /// USER_SGPR.
    pub user_sgprs: u32,
    /// The initial register state (group-id and TG_SIZE SGPRs, scratch offset, local-id
    /// VGPRs), the used SGPR/VGPR counts and PGM_RSRC2.
    #[serde(flatten)]
    pub regs: RegisterState,
    /// Kernel header dwords.
    pub header: [u32; 8],
    /// The CAL notes (UAV, constant buffers, inputs, input samplers, PROGINFO, UAV op
    /// mask, scratch buffers).
    #[serde(flatten)]
    pub notes: CalNotes,
    /// Metadata string.
    pub metadata: String,
    /// cb0 map.
    pub cb0: Vec<Cb0Field>,
    /// Things CLRX accepts but that are probably mistakes (overlapping user data, …).
    pub warnings: Vec<String>,
    /// Fields whose AMD value the `amd` notes policy cannot derive for this kernel.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub not_derived: Vec<NotDerived>,
    /// The options used.
    pub options: Options,
}

impl KernelLayout {
    /// CLRX's name of the generation (`GCN1.0`).
    pub fn generation_name(&self) -> &'static str {
        self.generation.name()
    }

    /// Letters of the enabled group-id dimensions, in x, y, z order.
    pub fn group_dims(&self) -> Vec<&'static str> {
        ["x", "y", "z"]
            .into_iter()
            .enumerate()
            .filter(|(i, _)| self.dims.group() & (1 << i) != 0)
            .map(|(_, d)| d)
            .collect()
    }
}

/// Computes `uavprivate` (§8 of the spec); `amd_printf` applies the rule of AMD's drivers
/// for printf kernels without structures ([`Driver::amd_doubles_printf_uavprivate`]).
fn uavprivate(kernel: &Kernel, drv: Driver, scratch: u32, amd_printf: bool) -> u32 {
    let has = kernel
        .args
        .iter()
        .any(|a| matches!(a.ty, ArgType::Struct { .. } | ArgType::Counter32));
    let old_bytes = || {
        kernel
            .args
            .iter()
            .map(|a| old_uavprivate_bytes(&a.ty))
            .fold(0u32, u32::saturating_add)
    };
    let base = if !has {
        if amd_printf && drv.amd_doubles_printf_uavprivate() {
            old_bytes().saturating_mul(2)
        } else {
            0
        }
    } else if drv.new_uavprivate() {
        kernel
            .args
            .iter()
            .map(|a| match &a.ty {
                ArgType::Struct { ty } => roundup16(ty.size),
                _ => 0,
            })
            .fold(0u32, u32::saturating_add)
    } else {
        old_bytes()
    };
    base.max(scratch)
}

/// What the code uses, for the `amd` policy.
fn used_resources(
    args: &[ArgLayout],
    drv: Driver,
    opts: &Options,
    ids: &SpecialIds,
    const_samplers: &[u32],
) -> UsedResources {
    let mut u = UsedResources::default();
    let mut sampler_args = Vec::new();
    for a in args.iter().filter(|a| a.used) {
        match (a.resource, &a.ty) {
            (Some(Resource::ImageRo(id)), _) => u.read_only_images.push(id),
            (Some(Resource::ImageWo(id)), _) => u.write_only_images.push(id),
            (Some(Resource::Uav(id) | Resource::ConstUav(id)), _) => u.uav_buffers.push(id),
            (Some(Resource::ConstBuffer(id)), _) => u.const_buffers.push(id),
            (Some(Resource::Sampler(id)), _) => sampler_args.push(id),
            _ => {}
        }
    }
    // Samplers count only when images are sampled.
    if !u.read_only_images.is_empty() {
        u.samplers = sampler_args;
        let n_arg = args
            .iter()
            .filter(|a| matches!(a.ty, ArgType::Sampler))
            .count() as u32;
        u.samplers
            .extend((0..const_samplers.len() as u32).map(|k| n_arg + k));
        if u.samplers.is_empty() && drv.amd_implicit_sampler() {
            u.samplers.push(0);
        }
    }
    if opts.setup_buffer_used {
        u.const_buffers.push(0);
    }
    // AMD's compiler reads no argument of an all-image kernel from cb1 (images are bound
    // through their descriptors).
    let reads_cb1 = |a: &&ArgLayout| {
        a.used && !(opts.notes == NotesPolicy::Amd && matches!(a.ty, ArgType::Image { .. }))
    };
    if args.iter().any(|a| reads_cb1(&a)) {
        u.const_buffers.push(1);
    }
    if opts.const_data && opts.has_global_data() {
        if drv.constant_as_uav() {
            if let Some(id) = ids.cbid {
                u.uav_buffers.push(id);
            }
        } else {
            u.const_buffers.push(resource_ids::GLOBAL_DATA_CB);
        }
    }
    if opts.printf {
        u.uav_buffers
            .push(ids.printfid.or(ids.uavid).unwrap_or(resource_ids::PRINTFID));
    }
    u.scratch = opts.scratch_bytes != 0;
    for v in [
        &mut u.read_only_images,
        &mut u.samplers,
        &mut u.const_buffers,
        &mut u.uav_buffers,
        &mut u.write_only_images,
    ] {
        v.sort_unstable();
        v.dedup();
    }
    u
}

/// Lays out `kernel` with `opts`: cb1 offsets, resource ids, user data, registers,
/// PGM_RSRC2, metadata, CAL notes and header.
pub fn layout(kernel: &Kernel, opts: &Options) -> Result<KernelLayout, LayoutError> {
    let drv = Driver(opts.driver);
    let mut names = std::collections::HashSet::with_capacity(kernel.args.len());
    for a in &kernel.args {
        if !names.insert(a.name.as_str()) {
            return Err(LayoutError::DuplicateArg(a.name.clone()));
        }
    }
    if opts.hwlocal > MAX_LDS {
        return Err(LayoutError::HwLocalTooBig(opts.hwlocal));
    }
    if opts.float_mode > 0xFF {
        return Err(LayoutError::FloatModeOutOfRange(opts.float_mode));
    }
    if opts.exceptions > 0x7F {
        return Err(LayoutError::ExceptionsOutOfRange(opts.exceptions));
    }
    if opts.scratch_bytes > MAX_SCRATCH_BYTES {
        return Err(LayoutError::ScratchTooBig(opts.scratch_bytes));
    }
    let amd = opts.notes == NotesPolicy::Amd;
    let sorted_uavs = amd
        && drv.amd_sorts_many_uavs()
        && kernel
            .args
            .iter()
            .filter(|a| resource_ids::is_uav_pointer(&a.ty, drv))
            .count()
            > AMD_SORTED_UAV_POINTERS;
    let ids = resource_ids::special_ids(
        drv,
        &kernel.args,
        opts.printf,
        ExplicitSpecialIds {
            uavid: opts.uavid,
            cbid: opts.cbid,
            printfid: opts.printfid,
            privateid: opts.privateid,
        },
    )?;
    let resources = resource_ids::assign(
        &kernel.args,
        drv,
        opts.has_global_data(),
        ids.uavid,
        sorted_uavs,
    )?;
    let (slots, args_space) = cb1::place(&kernel.args, opts.vec3_64);
    let args: Vec<ArgLayout> = kernel
        .args
        .iter()
        .zip(slots)
        .zip(resources)
        .map(|((a, slot), resource)| ArgLayout {
            name: a.name.clone(),
            kind: ArgKind::of(&a.ty),
            type_name: a.type_name.clone(),
            slot,
            resource,
            used: a.used,
            ty: a.ty.clone(),
        })
        .collect();
    let const_samplers = effective_const_samplers(&args, drv, opts);
    let shown_ids = amd_shown_ids(&args, drv, opts, ids);
    let mut warnings = Vec::new();
    if opts.uavprivate == Some(CLRX_DEFAULT) {
        warnings.push(format!(
            "uavprivate {CLRX_DEFAULT} means \"use the default\" in CLRX; the default is used"
        ));
    }
    let uavprivate = opts
        .uavprivate
        .filter(|&v| v != CLRX_DEFAULT)
        .unwrap_or_else(|| uavprivate(kernel, drv, opts.scratch_bytes, amd && opts.printf));
    let hwregion = if opts.hwregion == CLRX_DEFAULT {
        warnings.push(format!(
            "hwregion {CLRX_DEFAULT} means \"use the default\" in CLRX; 0 is used"
        ));
        0
    } else {
        opts.hwregion
    };
    if opts.const_data && !opts.has_global_data() {
        warnings.push(
            "--const-data without --const-data-size: CLRX takes an empty .globaldata for no \
             global data (no ;memory:datareqd, no cb2)"
                .to_string(),
        );
    }
    let (entries, user_sgprs) = match &opts.userdata {
        UserDataPolicy::Explicit(list) => {
            warnings.extend(userdata::validate(list)?);
            (list.clone(), userdata::user_sgprs(list, EMPTY_USER_SGPRS))
        }
        UserDataPolicy::Amd => {
            // A kernel that uses no resource gets no entries but USER_SGPR 2, as in AMD's
            // binaries (alltypes.clo, structkernel2.clo of CLRX's test data) and in CLRX.
            let list =
                userdata::derive_amd(&used_resources(&args, drv, opts, &ids, &const_samplers));
            let u = userdata::user_sgprs(&list, EMPTY_USER_SGPRS);
            (list, u)
        }
    };
    let user_sgprs_raw = userdata::user_sgprs(&entries, 0);
    let dims = opts
        .dims
        .unwrap_or_else(|| Dims::group_of_pgm_rsrc2(opts.pgm_rsrc2));
    if opts.dims.is_none() && Dims::tidig_of_pgm_rsrc2(opts.pgm_rsrc2) != 0 {
        warnings.push(format!(
            "--pgmrsrc2 sets TIDIG_COMP_CNT {} without --dims: as in CLRX no local-id VGPRs \
             are reserved, though the hardware writes v0 and up",
            Dims::tidig_of_pgm_rsrc2(opts.pgm_rsrc2)
        ));
    }
    let has_local_ptr = kernel.args.iter().any(|a| {
        matches!(
            a.ty,
            ArgType::Pointer {
                space: AddrSpace::Local,
                ..
            }
        )
    });
    let regs = registers::compute(&RegisterInput {
        generation: opts.device.generation,
        user_sgprs,
        user_sgprs_raw,
        dims,
        tgsize: opts.tgsize,
        scratch_bytes: opts.scratch_bytes,
        lds_bytes: if has_local_ptr { MAX_LDS } else { opts.hwlocal },
        exceptions: opts.exceptions,
        user_pgm_rsrc2: opts.pgm_rsrc2,
        sgprs: opts.sgprs,
        vgprs: opts.vgprs,
        dims_from_user: opts.dims.is_none(),
    })?;
    if regs.vgprs < dims.local_id_vgprs() {
        warnings.push(format!(
            "{} used VGPRs, fewer than the {} local-id VGPRs the hardware writes (CLRX keeps the \
             given count)",
            regs.vgprs,
            dims.local_id_vgprs()
        ));
    }
    // AMD's drivers up to 1124.02 do not mark 64-bit binaries.
    let mark_64bit = opts.is_64bit && (!amd || drv.amd_marks_64bit());
    let cws = opts.cws.or(kernel.reqd_work_group_size).unwrap_or([0; 3]);
    let notes: CalNotes = cal_notes::build(&cal_notes::NotesInput {
        drv,
        generation: opts.device.generation,
        args: &args,
        ids: &ids,
        printf: opts.printf,
        const_data: opts.const_data,
        global_data: opts.has_global_data(),
        global_data_bytes: opts.global_data_bytes,
        args_space,
        const_samplers: const_samplers.len() as u32,
        userdata: &entries,
        regs: &regs,
        float_mode: opts.float_mode,
        ieee_mode: opts.ieee_mode,
        scratch_bytes: opts.scratch_bytes,
        cws,
        policy: opts.notes,
    });
    let metadata = metadata::build(&metadata::MetadataInput {
        kernel: &kernel.name,
        drv,
        device: &opts.device,
        uniqueid: metadata::FIRST_UNIQUE_ID.saturating_add(opts.program.index),
        function_id: metadata::function_id(opts.program, opts.notes),
        uavprivate,
        hwlocal: opts.hwlocal,
        hwregion,
        cws,
        args: &args,
        const_data: opts.has_global_data(),
        const_samplers: &const_samplers,
        is_64bit: mark_64bit,
        ids: &shown_ids,
        policy: opts.notes,
    });
    let not_derived = if amd {
        not_derived(kernel, drv, opts, &const_samplers)
    } else {
        Vec::new()
    };
    warnings.extend(not_derived.iter().map(|n| {
        format!(
            "{}: AMD's value is not derived for driver {}: {}",
            n.field,
            drv.dotted(),
            n.reason
        )
    }));
    Ok(KernelLayout {
        kernel: kernel.name.clone(),
        driver: opts.driver,
        device: opts.device.metadata_name(),
        generation: opts.device.generation,
        bits: if opts.is_64bit { 64 } else { 32 },
        dims,
        cws,
        args,
        args_space,
        ids: shown_ids,
        uavprivate,
        userdata: entries,
        user_sgprs,
        regs,
        header: header(drv, uavprivate, opts.hwlocal, mark_64bit, opts.printf),
        notes,
        metadata,
        cb0: cb0::map(opts.is_64bit),
        warnings,
        not_derived,
        options: opts.clone(),
    })
}

/// The constant samplers of the kernel: the given ones and, under the `amd` notes policy
/// on drivers before 1348.05, the sampler those drivers read a read-only image through
/// when the kernel has no sampler ([`Driver::amd_implicit_sampler`]).
fn effective_const_samplers(args: &[ArgLayout], drv: Driver, opts: &Options) -> Vec<u32> {
    let mut out = opts.const_samplers.clone();
    let reads_image = args.iter().any(|a| {
        a.used
            && matches!(
                a.ty,
                ArgType::Image {
                    access: ImageAccess::ReadOnly,
                    ..
                }
            )
    });
    let has_sampler = !out.is_empty() || args.iter().any(|a| matches!(a.ty, ArgType::Sampler));
    if opts.notes == NotesPolicy::Amd && drv.amd_implicit_sampler() && reads_image && !has_sampler {
        out.push(AMD_IMPLICIT_SAMPLER);
    }
    out
}

/// The special ids as the metadata shows them: under the `amd` notes policy, drivers before
/// 1124.02 write as `;uavid:` the first UAV of their UAV note, in their compiler's hash
/// order ([`Driver::amd_hashes_uav_note`], [`cal_notes::amd_hashed_uavs`]); 9 when the
/// kernel has none. An explicit uavid is kept.
fn amd_shown_ids(args: &[ArgLayout], drv: Driver, opts: &Options, ids: SpecialIds) -> SpecialIds {
    if opts.notes != NotesPolicy::Amd || !drv.amd_hashes_uav_note() || opts.uavid.is_some() {
        return ids;
    }
    let first = cal_notes::amd_hashed_uavs(args, opts.printf)
        .first()
        .copied();
    SpecialIds {
        uavid: Some(first.unwrap_or(resource_ids::OLD_UAVID)),
        ..ids
    }
}

/// The fields the `amd` notes policy cannot derive for this kernel and driver.
fn not_derived(
    kernel: &Kernel,
    drv: Driver,
    opts: &Options,
    const_samplers: &[u32],
) -> Vec<NotDerived> {
    let mut out = Vec::new();
    let samples =
        kernel.args.iter().any(|a| matches!(a.ty, ArgType::Sampler)) || !const_samplers.is_empty();
    if drv.amd_input_samplers_from_code() && samples {
        out.push(NotDerived {
            field: "input_samplers",
            reason: "drivers before 1124.02 write one entry per sampling instruction of the code",
        });
    }
    let uav_pointers = kernel
        .args
        .iter()
        .filter(|a| resource_ids::is_uav_pointer(&a.ty, drv))
        .count();
    if drv.amd_orders_many_uavs_by_address() && uav_pointers > AMD_SORTED_UAV_POINTERS {
        for field in ["args", "uav_note", "metadata"] {
            out.push(NotDerived {
                field,
                reason: "driver 1348.x numbers more than eight global pointers in an order \
                         that depends on its compiler's memory addresses",
            });
        }
    }
    let has_struct = kernel
        .args
        .iter()
        .any(|a| matches!(a.ty, ArgType::Struct { .. }));
    if drv.amd_printf_struct_private_unknown() && opts.printf && has_struct {
        let fields: &[&'static str] = if drv.new_uavprivate() {
            &["header"]
        } else {
            &["uavprivate", "header", "metadata"]
        };
        for &field in fields {
            out.push(NotDerived {
                field,
                reason: "from 1526.03 the private size of a printf kernel with a structure \
                         argument follows no rule AMD's binaries show",
            });
        }
    }
    out
}
