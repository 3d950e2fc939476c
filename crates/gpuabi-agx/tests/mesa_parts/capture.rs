//! The draws of the two Honeykrisp captures, each with its Vulkan state and the vertex
//! prolog, fragment prolog and fragment epilog Mesa compiled for it: the project's
//! `testdata/mesa/hk` (DRAW.json per draw; `linked/index.txt` names the parts of each
//! bound binary, `parts/index.txt` their kinds and files) and the shared
//! `data/mesa/hk` of the shared test data (`draws.txt`, a line per attribute and render target, turned
//! into DRAW.json here).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use gpuabi_agx::vk_state::VkDrawState;

/// One captured draw.
pub struct Draw {
    /// `capture/draw`, for messages.
    pub name: String,
    /// Its state.
    pub state: VkDrawState,
    /// Mesa's vertex prolog (empty code when Mesa bound none, as with static vertex
    /// input); `None` when the draw compiled none of its own and reuses an earlier draw's
    /// (the shared capture does not say which).
    pub vertex_prolog: Option<Part>,
    /// Mesa's fragment epilog, `None` as for the vertex prolog.
    pub fragment_epilog: Option<Part>,
    /// Mesa's fragment prolog, when it bound one.
    pub fragment_prolog: Option<Part>,
    /// The main vertex shader of the draw's pipeline.
    pub vertex_main: Part,
    /// Its preamble, when it has one.
    pub vertex_preamble: Option<Part>,
    /// The main fragment shader of the draw's pipeline.
    pub fragment_main: Part,
    /// Its preamble, when it has one.
    pub fragment_preamble: Option<Part>,
}

/// A part Mesa compiled: where its bytes come from and the bytes.
#[derive(Clone)]
pub struct Part {
    /// The part's name in the capture.
    pub name: String,
    /// Its code.
    pub code: Vec<u8>,
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn part(dir: &Path, name: &str, file: &str) -> Part {
    let path = dir.join(format!("{file}.bin"));
    Part {
        name: name.to_string(),
        code: std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display())),
    }
}

/// `testdata/mesa/hk`.
pub fn project_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../testdata/mesa/hk")
}

/// The draws of the project's capture, in draw order.
pub fn project() -> Vec<Draw> {
    let dir = project_dir();
    // part -> (kind, files)
    let mut parts: BTreeMap<String, (String, String)> = BTreeMap::new();
    for line in read(&dir.join("parts/index.txt")).lines() {
        if line.starts_with('#') {
            continue;
        }
        let f: Vec<&str> = line.split(" | ").collect();
        parts.insert(f[0].to_string(), (f[1].to_string(), f[6].to_string()));
    }
    // draw -> parts of its vertex and fragment programs
    let mut bound: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for line in read(&dir.join("linked/index.txt")).lines() {
        if line.starts_with('#') {
            continue;
        }
        let f: Vec<&str> = line.split(" | ").collect();
        if ![
            "vertex",
            "fragment",
            "vertex preshader",
            "fragment preshader",
        ]
        .contains(&f[1])
        {
            continue;
        }
        let list = f[5].strip_prefix("= ").expect("= parts");
        bound.entry(f[0].to_string()).or_default().extend(
            list.split(" + ")
                .filter(|p| !p.starts_with('('))
                .map(str::to_string),
        );
    }
    let pdir = dir.join("parts");
    let mut out = Vec::new();
    for (draw, names) in bound {
        let of = |kind: &str| -> Option<Part> {
            names
                .iter()
                .find(|n| parts[n.as_str()].0 == kind)
                .map(|n| part(&pdir, n, &parts[n.as_str()].1))
        };
        let state = VkDrawState::from_json(&read(&dir.join(format!("draws/{draw}.json"))))
            .unwrap_or_else(|e| panic!("draws/{draw}.json: {e}"));
        out.push(Draw {
            name: format!("testdata/{draw}"),
            state,
            vertex_prolog: Some(of("vertex prolog").unwrap_or(Part {
                name: "(none)".into(),
                code: Vec::new(),
            })),
            fragment_epilog: Some(of("fragment epilog").expect("every draw has an epilog")),
            fragment_prolog: of("fragment prolog"),
            vertex_main: of("vertex main").expect("every draw has a vertex main"),
            vertex_preamble: of("preamble (of the vertex main)"),
            fragment_main: of("fragment main").expect("every draw has a fragment main"),
            fragment_preamble: of("preamble (of the fragment main)"),
        });
    }
    out
}

/// `VkBlendFactor` names by value (Vulkan's `vulkan_core.h`).
const FACTORS: [&str; 19] = [
    "ZERO",
    "ONE",
    "SRC_COLOR",
    "ONE_MINUS_SRC_COLOR",
    "DST_COLOR",
    "ONE_MINUS_DST_COLOR",
    "SRC_ALPHA",
    "ONE_MINUS_SRC_ALPHA",
    "DST_ALPHA",
    "ONE_MINUS_DST_ALPHA",
    "CONSTANT_COLOR",
    "ONE_MINUS_CONSTANT_COLOR",
    "CONSTANT_ALPHA",
    "ONE_MINUS_CONSTANT_ALPHA",
    "SRC_ALPHA_SATURATE",
    "SRC1_COLOR",
    "ONE_MINUS_SRC1_COLOR",
    "SRC1_ALPHA",
    "ONE_MINUS_SRC1_ALPHA",
];
/// `VkBlendOp` names by value.
const OPS: [&str; 5] = ["ADD", "SUBTRACT", "REVERSE_SUBTRACT", "MIN", "MAX"];

/// `key=value` fields of a `draws.txt` line.
fn fields(line: &str) -> BTreeMap<&str, &str> {
    line.split([' ', '{', '}', ','])
        .filter_map(|w| w.split_once('='))
        .collect()
}

/// The components the vertex shader of a prolog's pipeline reads, by location: the
/// attribute exports of the prolog's NIR (`export_agx` from half 16 on), which are its
/// key's component mask. The shared capture's shaders read locations 0 to 5 (its vertex
/// shader's `inputs_read: 15-20`), so slot and location agree.
fn shader_inputs(prolog_txt: &str) -> String {
    let mut comps: BTreeMap<u32, String> = BTreeMap::new();
    for line in prolog_txt.lines() {
        if line.starts_with("block0") {
            break;
        }
        let Some(rest) = line.split("@export_agx").nth(1) else {
            continue;
        };
        let base: u32 = rest
            .rsplit("(base=")
            .next()
            .and_then(|b| b.trim_end_matches(')').parse().ok())
            .expect("export base");
        if base >= 16 {
            let k = (base - 16) / 2;
            comps
                .entry(k / 4)
                .or_default()
                .push(b"xyzw"[(k % 4) as usize] as char);
        }
    }
    comps
        .iter()
        .map(|(l, c)| format!("{{\"location\": {l}, \"components\": \"{c}\"}}"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// The shared capture's draws, their state written as DRAW.json from `draws.txt` and
/// `device.txt`: robustness disabled (its device enables no robustness feature), one
/// binding per attribute with the line's stride and rate (divisor 1), the vertex shader's
/// components from the prolog compiled for its pipeline; 1 sample (the decoded submit's
/// sample count), the attachment formats of the pipeline's set in `device.txt` (`dynA`
/// set A, `dynB` set B), each at its own location, the equation numbers as Vulkan's
/// names, `write_enable=0` as the empty write mask, `logic_op_xor=1` as XOR; the fragment
/// shader writes 32-bit colours at locations 0 and 1 (float) and 2 (uint), as its NIR's
/// exports show. The draw of `staticA` has no line in `draws.txt` and is left out.
pub fn shared(dir: &Path) -> Vec<Draw> {
    let device = read(&dir.join("device.txt"));
    let formats = |set: &str, rt: usize| -> String {
        device
            .lines()
            .find_map(|l| {
                l.strip_prefix(&format!("set {set} rt{rt} format "))
                    .map(|r| r.split(' ').next().unwrap_or_default().to_string())
            })
            .unwrap_or_else(|| panic!("device.txt: no set {set} rt{rt}"))
    };
    // compiles: (event, stage name, part file stem), in order; mains by (event, stage)
    // with whether they have a preamble.
    let mut compiles: Vec<(String, String, String)> = Vec::new();
    let mut mains: Vec<(String, String, String, bool)> = Vec::new();
    for line in read(&dir.join("parts/index.txt")).lines() {
        let f: Vec<&str> = line.split(" | ").collect();
        if f.len() < 5 || !f[4].contains("main=") {
            continue;
        }
        let event = f[1].trim_start_matches("event=").to_string();
        let name = f[3].trim_start_matches("name=").to_string();
        if name == "main" {
            mains.push((
                event.clone(),
                f[2].trim_start_matches("stage=").to_string(),
                f[0].to_string(),
                f[4].contains("preamble="),
            ));
        }
        compiles.push((event, name, f[0].to_string()));
    }
    let mut draws: Vec<(String, Vec<String>)> = Vec::new();
    for line in read(&dir.join("draws.txt")).lines() {
        let name = line.split(' ').next().expect("draw name").to_string();
        match draws.last_mut() {
            Some((n, lines)) if *n == name => lines.push(line.to_string()),
            _ => draws.push((name, vec![line.to_string()])),
        }
    }
    let pdir = dir.join("parts");
    let mut out = Vec::new();
    for (name, lines) in &draws {
        let (pipeline, _) = name.split_once('/').expect("pipeline/draw");
        let set = &pipeline[pipeline.len() - 1..];
        let event = format!("draw_{}", name.replace('/', "_"));
        let own = |stage: &str| {
            compiles
                .iter()
                .find(|c| c.0 == event && c.1 == stage)
                .map(|c| part(&pdir, &c.2, &format!("{}.main", c.2)))
        };
        // `dynB` compiles no main of its own: it has `dynA`'s shaders, and the capture's
        // `linked/index.txt` shows its binaries built from `dynA`'s mains.
        let main = |stage: &str| {
            let from = if pipeline == "dynB" { "dynA" } else { pipeline };
            let m = mains
                .iter()
                .find(|m| m.0 == format!("pipeline_{from}") && m.1 == stage)
                .unwrap_or_else(|| panic!("{name}: no {stage} main compiled for {pipeline}"));
            let pre = m.3.then(|| part(&pdir, &m.2, &format!("{}.preamble", m.2)));
            (part(&pdir, &m.2, &format!("{}.main", m.2)), pre)
        };
        let (vertex_main, vertex_preamble) = main("vertex");
        let (fragment_main, fragment_preamble) = main("fragment");
        // The components read: from any prolog compiled for a draw of the pipelines
        // sharing the vertex shader (the capture compiles it once, for dynA).
        let prolog_txt = compiles
            .iter()
            .find(|c| c.1 == "VS prolog" && c.0.starts_with("draw_dyn"))
            .map(|c| read(&pdir.join(format!("{}.txt", c.2))))
            .expect("a vertex prolog");
        let mut bindings = Vec::new();
        let mut attributes = Vec::new();
        let mut attachments = Vec::new();
        let mut logic_xor = false;
        for line in lines {
            let f = fields(line);
            let what = line.split(' ').nth(1).expect("attrN or rtN");
            if let Some(a) = what.strip_prefix("attr") {
                let rate = f["rate"];
                bindings.push(format!(
                    "{{\"binding\": {a}, \"stride\": {}, \"input_rate\": \"{rate}\", \"divisor\": 1}}",
                    f["stride"]
                ));
                attributes.push(format!(
                    "{{\"location\": {a}, \"binding\": {a}, \"format\": \"VK_FORMAT_{}\", \"offset\": {}}}",
                    f["format"], f["offset"]
                ));
            } else if let Some(r) = what.strip_prefix("rt") {
                let rt: usize = r.parse().expect("rt index");
                let n = |k: &str| -> usize { f[k].parse().expect("number") };
                let mask: u32 =
                    u32::from_str_radix(f["mask"].trim_start_matches("0x"), 16).expect("mask");
                let mask = if f["write_enable"] == "1" { mask } else { 0 };
                let letters: String = "rgba"
                    .chars()
                    .enumerate()
                    .filter(|(i, _)| mask >> i & 1 == 1)
                    .map(|(_, c)| c)
                    .collect();
                logic_xor |= f["logic_op_xor"] == "1";
                attachments.push(format!(
                    "{{\"location\": {rt}, \"format\": \"VK_FORMAT_{}\", \"blend_enable\": {}, \
                     \"src_color\": \"VK_BLEND_FACTOR_{}\", \"dst_color\": \"VK_BLEND_FACTOR_{}\", \
                     \"color_op\": \"VK_BLEND_OP_{}\", \"src_alpha\": \"VK_BLEND_FACTOR_{}\", \
                     \"dst_alpha\": \"VK_BLEND_FACTOR_{}\", \"alpha_op\": \"VK_BLEND_OP_{}\", \
                     \"write_mask\": \"{letters}\"}}",
                    formats(set, rt),
                    f["blend"] == "1",
                    FACTORS[n("srcC")],
                    FACTORS[n("dstC")],
                    OPS[n("opC")],
                    FACTORS[n("srcA")],
                    FACTORS[n("dstA")],
                    OPS[n("opA")],
                ));
            }
        }
        let json = format!(
            "{{\"vertex\": {{\"robustness\": \"disabled\", \"bindings\": [{}], \"attributes\": [{}], \
             \"shader_inputs\": [{}]}}, \
             \"fragment\": {{\"samples\": 1, \"sample_shading\": false, \"alpha_to_coverage\": false, \
             \"alpha_to_one\": false, \"logic_op\": {}, \"blend_constants\": [0.0, 0.0, 0.0, 0.0], \
             \"attachments\": [{}], \"shader_outputs\": [{{\"location\": 0, \"type\": \"float\", \"bits\": 32}}, \
             {{\"location\": 1, \"type\": \"float\", \"bits\": 32}}, {{\"location\": 2, \"type\": \"uint\", \"bits\": 32}}]}}}}",
            bindings.join(", "),
            attributes.join(", "),
            shader_inputs(&prolog_txt),
            if logic_xor { "\"VK_LOGIC_OP_XOR\"" } else { "null" },
            attachments.join(", "),
        );
        let state = VkDrawState::from_json(&json).unwrap_or_else(|e| panic!("{name}: {e}"));
        out.push(Draw {
            name: format!("shared/{name}"),
            state,
            vertex_prolog: own("VS prolog"),
            fragment_epilog: own("FS epilog"),
            fragment_prolog: None,
            vertex_main,
            vertex_preamble,
            fragment_main,
            fragment_preamble,
        });
    }
    out
}
