//! Text tables of the layouts; every position is printed both as a register name and as
//! 16-bit half indices.

use std::fmt::Write;

use comfy_table::{presets, Table};
use gpuabi_layout::reg::{AgxFile, AgxRange};

use crate::abi::VsStage;
use crate::fragment::FragmentAbi;
use crate::link::LinkedProgram;
use crate::slot::{RegSlot, UniformSlot};
use crate::tilebuffer::TileBufferLayout;
use crate::vertex::VertexAbi;
use crate::vertex_key::{ElementIndex, FetchPlan};

fn table(header: &[&str]) -> Table {
    let mut t = Table::new();
    t.load_preset(presets::ASCII_MARKDOWN);
    t.set_header(header.iter().copied());
    t
}

fn reg_table(slots: &[RegSlot]) -> String {
    let mut t = table(&["reg", "halves", "meaning"]);
    for s in slots {
        t.add_row(vec![
            s.reg.to_string(),
            s.reg.half_text(),
            s.meaning.clone(),
        ]);
    }
    t.to_string()
}

fn uniform_table(slots: &[UniformSlot]) -> String {
    let mut t = table(&["uniform", "halves", "size", "meaning"]);
    for s in slots {
        t.add_row(vec![
            s.reg.to_string(),
            s.reg.half_text(),
            s.size_halves.to_string(),
            s.meaning.clone(),
        ]);
    }
    t.to_string()
}

/// A uniform half printed both ways: `u14l / half 28`.
fn uniform_half(half: u16) -> String {
    format!("{} / half {half}", AgxRange::new(AgxFile::Uniform, half, 1))
}

/// The vertex ABI as text.
pub fn vertex(abi: &VertexAbi) -> String {
    let mut out = String::new();
    let stage = match abi.stage {
        VsStage::Hardware => "hardware vertex shader",
        VsStage::Compute => "vertex shader run as compute",
    };
    let _ = writeln!(
        out,
        "AGX vertex ABI: profile {}, {stage}\nn = {} (components {}, mask {})\n",
        abi.profile.name(),
        abi.n,
        abi.components,
        abi.component_mask
    );
    let _ = writeln!(
        out,
        "Registers written by the prolog:\n{}\n",
        reg_table(&abi.registers)
    );
    let _ = writeln!(
        out,
        "Undefined at entry to the main shader:\n{}\n",
        reg_table(&abi.undefined)
    );
    uniform_map(&mut out, &abi.uniforms, abi.first_free_uniform_half);
    out
}

/// The uniform map and the first half the main shader may use, the end of both ABIs' text.
fn uniform_map(out: &mut String, uniforms: &[UniformSlot], first_free: u16) {
    let _ = writeln!(out, "Uniforms:\n{}\n", uniform_table(uniforms));
    let _ = writeln!(
        out,
        "First uniform half free for the main shader: {}",
        uniform_half(first_free)
    );
}

/// The fragment ABI as text.
pub fn fragment(abi: &FragmentAbi) -> String {
    let mut out = String::from("AGX fragment ABI\n\n");
    if abi.main_inputs.is_empty() {
        out.push_str("Register inputs of the main shader: none (no sample shading)\n\n");
    } else {
        let _ = writeln!(
            out,
            "Register inputs of the main shader:\n{}\n",
            reg_table(&abi.main_inputs)
        );
    }
    if abi.registers.is_empty() {
        out.push_str("Registers read by the epilog: none\n\n");
    } else {
        let _ = writeln!(
            out,
            "Registers read by the epilog:\n{}\n",
            reg_table(&abi.registers)
        );
    }
    let l = &abi.link_info;
    let _ = writeln!(
        out,
        "Epilog link info: loc_written {:#010b}, size_32 {:#010b}, write_z {}, write_s {}, sample_shading {}, sample_mask_after_force_early {}\n",
        l.loc_written, l.size_32, l.write_z, l.write_s, l.sample_shading, l.sample_mask_after_force_early
    );
    let _ = writeln!(
        out,
        "Fragment prolog: no register inputs, may clobber every register, runs once per pixel before any sample loop; reads {}\n",
        abi.prolog
            .uniforms_read
            .iter()
            .map(|u| format!("{} (halves {})", u.reg, u.reg.half_text()))
            .collect::<Vec<_>>()
            .join(", ")
    );
    uniform_map(&mut out, &abi.uniforms, abi.first_free_uniform_half);
    out
}

/// A tile-buffer layout as text.
pub fn tilebuffer(layout: &TileBufferLayout) -> String {
    let mut t = table(&[
        "rt",
        "format",
        "physical",
        "align",
        "size",
        "offset",
        "masked store",
    ]);
    for rt in &layout.render_targets {
        t.add_row(vec![
            rt.rt.to_string(),
            rt.format.clone(),
            rt.physical.clone(),
            rt.align_bytes.to_string(),
            rt.size_bytes.to_string(),
            rt.offset_bytes
                .map_or_else(|| "spilled to memory".to_string(), |o| o.to_string()),
            if rt.supports_mask { "yes" } else { "no" }.to_string(),
        ]);
    }
    format!(
        "AGX tile buffer: {} sample(s)\n\n{t}\n\nsample size {} bytes, tile {}x{}, {} bytes per tile\n",
        layout.samples,
        layout.sample_size_bytes,
        layout.tile_width,
        layout.tile_height,
        layout.total_bytes
    )
}

/// A link summary as text (the bytes themselves go to a file).
pub fn link(prog: &LinkedProgram) -> String {
    let mut t = table(&["offset", "bytes", "piece"]);
    for p in &prog.pieces {
        t.add_row(vec![
            format!("{:#06x}", p.offset),
            p.size.to_string(),
            p.name.clone(),
        ]);
    }
    let mut ins = table(&["offset", "bytes", "instruction written by the linker"]);
    for e in &prog.emitted {
        ins.add_row(vec![
            format!("{:#06x}", e.offset),
            e.bytes.clone(),
            e.text.clone(),
        ]);
    }
    // Without sample shading the linker writes no instruction of its own.
    let ins = if prog.emitted.is_empty() {
        String::new()
    } else {
        format!("{ins}\n\n")
    };
    let mut out = format!(
        "{t}\n\n{ins}total {} bytes, GPRs {} halves ({} registers)",
        prog.code.len(),
        prog.combined.info.gpr_halves,
        prog.combined.info.gpr_halves.div_ceil(2)
    );
    if let Some(off) = prog.loop_jump_offset {
        let _ = write!(out, ", sample-loop jump offset {off}");
    }
    out.push('\n');
    for w in &prog.warnings {
        let _ = writeln!(out, "warning: {w}");
    }
    out
}

/// The serialised name of a unit enum variant (`R32_UINT`, `GL`, `sign_extend`).
fn serde_name<T: serde::Serialize>(value: &T) -> String {
    match serde_json::to_value(value) {
        Ok(serde_json::Value::String(s)) => s,
        _ => String::from("?"),
    }
}

/// A vertex element's fetch plan as text.
pub fn fetch_plan(plan: &FetchPlan) -> String {
    let f = &plan.format;
    let index = match plan.element_index {
        ElementIndex::VertexId => "el = vertex_id (r5, includes the base vertex)".to_string(),
        ElementIndex::InstanceDivided { divisor } => {
            format!("el = instance_id / {divisor} + base_instance")
        }
        ElementIndex::BaseInstance => "el = base_instance (divisor 0)".to_string(),
    };
    let swizzle: String = f.swizzle.iter().map(ToString::to_string).collect();
    let mut rules = Vec::new();
    if plan.clamp_index_to_zero {
        rules.push("el = oob ? 0 : el");
    }
    if plan.zero_base_when_oob {
        rules.push("base = oob ? 0 : base");
    }
    if plan.zero_data_when_oob {
        rules.push("loaded vector = oob ? 0 : loaded vector");
    }
    if rules.is_empty() {
        rules.push("none");
    }
    let address = if plan.shift > 0 {
        format!(
            "base + (el << {}) * {} (load's built-in shift)",
            plan.shift, plan.elsize
        )
    } else {
        format!("base + (el * {}) * {}", plan.stride_el, plan.elsize)
    };
    format!(
        "AGX vertex fetch: {} ({})\n\n\
         loaded format:  {}, {} component(s), {} byte(s) per unit\n\
         conversion:     {}\n\
         swizzle:        {swizzle}\n\
         element index:  {index}\n\
         bounds:         oob = clamp < el (clamp inclusive)\n\
         robustness:     level {}; {}\n\
         address:        {address}\n",
        f.name,
        serde_name(&f.ty),
        serde_name(&f.interchange),
        f.components_loaded,
        plan.elsize,
        serde_name(&f.conversion),
        serde_name(&plan.effective_level),
        rules.join("; "),
    )
}
