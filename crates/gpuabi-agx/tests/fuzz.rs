//! Fuzz targets over the AGX entry points a user reaches: component lists and masks, the
//! vertex and fragment engines, vertex-element fetch plans, the tile-buffer layout and the
//! part linker with arbitrary code bytes. Each target runs for a bounded time under
//! `cargo test`; the property is "an error or a value, never a panic".

use arbitrary::{Result, Unstructured};
use gpuabi_agx::fragment::{ColorOutput, ColorType};
use gpuabi_agx::link::{link, LinkInput, Part, PartInfo};
use gpuabi_agx::tilebuffer::{tilebuffer_layout, RT_FORMATS};
use gpuabi_agx::vertex_key::{fetch_plan, Robustness, RobustnessLevel, VertexElement};
use gpuabi_agx::{
    fragment_abi, render, vertex_abi, Components, FragmentInput, Profile, VertexInput, VsStage,
};

const BUDGET_MS: u64 = 1500;

#[rustfmt::skip]
const LIST_TOKENS: &[&str] = &[
    "0", "1", "3", "7", "15", "16", "29", "30", "31", "32", "33", "255", "65535",
    "4294967296", ":", "x", "y", "z", "w", "xyzw", " ", ",", "0x", "f", "ff", "_",
    "ffffffffffffffffffffffffffffffff", "1ffffffffffffffffffffffffffffffff",
];

fn token_text(u: &mut Unstructured<'_>, vocab: &[&str]) -> Result<String> {
    let mut s = String::new();
    for _ in 0..u.int_in_range(0..=24)? {
        if u.ratio(1, 15)? {
            s.push(u.arbitrary::<char>()?);
        } else {
            s.push_str(u.choose(vocab)?);
        }
    }
    Ok(s)
}

fn text(u: &mut Unstructured<'_>, vocab: &[&str]) -> Result<String> {
    if u.ratio(1, 4)? {
        u.arbitrary()
    } else {
        token_text(u, vocab)
    }
}

#[test]
fn components_and_vertex_abi_never_panic() {
    arbtest::arbtest(|u| {
        let t = text(u, LIST_TOKENS)?;
        let parsed = [
            Components::parse_list(&t),
            Components::parse_mask(&t),
            Components::all_of_first(u.arbitrary()?),
        ];
        for components in parsed.into_iter().flatten() {
            let input = VertexInput {
                components,
                stage: *u.choose(&[VsStage::Hardware, VsStage::Compute])?,
                profile: *u.choose(&[Profile::Readme, Profile::Gl, Profile::Vk])?,
            };
            if let Ok(abi) = vertex_abi(&input) {
                let _ = render::text::vertex(&abi);
                let _ = render::json(&abi);
                let _ = render::svg::vertex(&abi);
            }
        }
        Ok(())
    })
    .budget_ms(BUDGET_MS);
}

#[rustfmt::skip]
const COLOR_TOKENS: &[&str] = &[
    "0", "1", "7", "8", "255", "256", ":", "f", "i", "u", "16", "32", "8", "x", "1", "4", "5",
    "f16x4", "u32x2", "i16", "é",
];

#[test]
fn fragment_abi_never_panics() {
    arbtest::arbtest(|u| {
        let mut input = FragmentInput::default();
        for _ in 0..u.int_in_range(0..=10)? {
            if let Ok(c) = text(u, COLOR_TOKENS)?.parse::<ColorOutput>() {
                input.colors.push(c);
            }
        }
        if u.arbitrary()? {
            input.dual_source = text(u, COLOR_TOKENS)?.parse::<ColorType>().ok();
        }
        input.depth = u.arbitrary()?;
        input.stencil = u.arbitrary()?;
        input.sample_shading = u.arbitrary()?;
        input.early_tests_with_discard = u.arbitrary()?;
        if let Ok(abi) = fragment_abi(&input) {
            let _ = render::text::fragment(&abi);
            let _ = render::json(&abi);
            let _ = render::svg::fragment(&abi);
        }
        Ok(())
    })
    .budget_ms(BUDGET_MS);
}

#[test]
fn tilebuffer_layout_never_panics() {
    arbtest::arbtest(|u| {
        let mut names = Vec::new();
        for _ in 0..u.int_in_range(0..=10)? {
            names.push(match u.int_in_range(0..=5)? {
                0 => None,
                1 => Some(u.arbitrary::<String>()?),
                _ => Some(u.choose(RT_FORMATS)?.0.to_string()),
            });
        }
        let formats: Vec<Option<&str>> = names.iter().map(|n| n.as_deref()).collect();
        if let Ok(l) = tilebuffer_layout(&formats, u.arbitrary()?) {
            let _ = render::text::tilebuffer(&l);
            let _ = render::json(&l);
        }
        Ok(())
    })
    .budget_ms(BUDGET_MS);
}

#[rustfmt::skip]
const FORMAT_TOKENS: &[&str] = &[
    "R32G32B32A32_FLOAT", "R8G8B8A8_UNORM", "R16G16_SINT", "R32_UINT", "R10G10B10A2_SNORM",
    "PIPE_FORMAT_", "R", "G", "B", "A", "X", "8", "10", "16", "32", "2", "0", "99999999999",
    "_", "UNORM", "SNORM", "UINT", "SINT", "FLOAT", "USCALED", "SSCALED", "SRGB",
];

#[test]
fn fetch_plans_never_panic() {
    arbtest::arbtest(|u| {
        let element = VertexElement {
            format: if u.arbitrary()? {
                u.choose(&FORMAT_TOKENS[..5])?.to_string()
            } else {
                text(u, FORMAT_TOKENS)?
            },
            // Mostly multiples of 16, which every element size divides.
            stride: u.arbitrary::<u32>()? & if u.arbitrary()? { !15 } else { !0 },
            divisor: u.arbitrary()?,
            instanced: u.arbitrary()?,
        };
        let levels = [
            RobustnessLevel::Disabled,
            RobustnessLevel::Gles,
            RobustnessLevel::Gl,
            RobustnessLevel::D3d,
        ];
        let rs = Robustness {
            level: *u.choose(&levels)?,
            soft_fault: u.arbitrary()?,
        };
        if let Ok(plan) = fetch_plan(&element, rs) {
            let _ = render::text::fetch_plan(&plan);
            let _ = plan.fetch(
                u.arbitrary()?,
                u.arbitrary()?,
                u.arbitrary()?,
                u.arbitrary()?,
                u.arbitrary()?,
            );
        }
        Ok(())
    })
    .budget_ms(BUDGET_MS);
}

fn part<'a>(u: &mut Unstructured<'a>) -> Result<Part<'a>> {
    let len = u.int_in_range(0..=64)?;
    Ok(Part {
        code: u.bytes(len)?,
        info: PartInfo {
            gpr_halves: if u.arbitrary()? {
                u.arbitrary()?
            } else {
                u.int_in_range(0..=256)?
            },
            scratch_bytes: u.arbitrary()?,
            reads_tib: u.arbitrary()?,
            writes_sample_mask: u.arbitrary()?,
            disable_tri_merging: u.arbitrary()?,
            uses_txf: u.arbitrary()?,
            uses_base_param: u.arbitrary()?,
            tag_write_disable: u.arbitrary()?,
        },
    })
}

#[test]
fn link_never_panics() {
    arbtest::arbtest(|u| {
        let prolog = if u.arbitrary()? { Some(part(u)?) } else { None };
        let main = part(u)?;
        let epilog = if u.arbitrary()? { Some(part(u)?) } else { None };
        let samples = if u.arbitrary()? {
            Some(u.arbitrary()?)
        } else {
            None
        };
        if let Ok(p) = link(&LinkInput {
            prolog,
            main,
            epilog,
            samples,
        }) {
            let _ = render::text::link(&p);
            let _ = render::json(&p);
        }
        Ok(())
    })
    .budget_ms(BUDGET_MS);
}
