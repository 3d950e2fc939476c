//! The committed captures of the ray-tracing example scenes (`testdata/mesa/rt`, made by
//! `tools/mesa/capture-rt-examples`) are whole and agree with themselves and with
//! `examples/rt`: every scene has every GPU's files, the scene copy is the example's,
//! lavapipe's buffer has `width × height` records of 16 bytes, the shader group handles parse
//! and sit in the shader binding table where `sbt.txt` says, every file a manifest lists is
//! there with its size, and every piece of RADV's code (the pipeline's functions, the
//! Raytracing prolog, the acceleration-structure build shaders) assembles to the encodings
//! ACO listed — except where it uses an instruction form gpuabi's assembler does not model
//! yet; [`UNMODELLED`] lists those forms, and a file may only fail on one of them.

mod common;

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use gpuabi_amdgpu::asm::listing::adopt;
use gpuabi_amdgpu::asm::parse_listed;
use gpuabi_amdgpu::{encode, WaveSize};
use gpuabi_layout::aco::Gfx;
use gpuabi_mesa::capture::{chip_gfx, pipeline_functions};

/// The GPU configurations `capture-rt-examples` captures every scene on.
const GPUS: [&str; 4] = ["navi31", "navi31-wave64", "navi21", "polaris10"];

/// Files every GPU directory of a scene holds (where RADV did not fail).
const GPU_FILES: [&str; 14] = [
    "bvh_build.txt",
    "MANIFEST.txt",
    "device.txt",
    "env.txt",
    "rt_scene.log",
    "executables.txt",
    "handles.txt",
    "stack_sizes.txt",
    "sbt.txt",
    "sbt.bin",
    "descriptors.txt",
    "acceleration_structures.txt",
    "raytracing_prolog.txt",
    "trace_rays_ib.txt",
];

/// Instruction forms RADV's code in these captures uses that gpuabi's assembler does not
/// model (yet): DPP (`v_add_nc_u32_dpp`, `v_min_i32_dpp`, gfx8's `v_add_u32_dpp`), gfx8's
/// SDWA operands (`src0_sel`), `v_fma_mix_f32`, `s_round_mode` and `ds_bpermute_b32`. A file
/// that does not assemble must fail on one of these, named in the assembler's message.
const UNMODELLED: [&str; 5] = [
    "_dpp`",
    "src0_sel",
    "v_fma_mix_f32",
    "s_round_mode",
    "ds_bpermute_b32",
];

fn rt() -> PathBuf {
    common::repo().join("testdata/mesa/rt")
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn sorted_entries(dir: &Path) -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.unwrap().path())
        .collect();
    v.sort();
    v
}

fn scenes() -> Vec<String> {
    let scenes: Vec<String> = sorted_entries(&rt())
        .into_iter()
        .filter(|p| p.join("scene/SCENE.toml").is_file())
        .map(|p| p.file_name().unwrap().to_string_lossy().into_owned())
        .collect();
    assert!(!scenes.is_empty(), "no scene in testdata/mesa/rt");
    scenes
}

/// Where a file of a GPU directory is: there, or moved up to the scene (the same for all
/// GPUs) or to the top (the same for everything); a build shader (`bvh_build/NN_...`) where
/// the directory's `bvh_build.txt` says.
fn locate(scene: &str, gpu: &str, file: &str) -> Option<PathBuf> {
    let top = rt();
    let dir = top.join(scene).join(gpu);
    if let Some(name) = file.strip_prefix("bvh_build/") {
        let map = std::fs::read_to_string(dir.join("bvh_build.txt")).ok()?;
        let to = map
            .lines()
            .find_map(|l| l.strip_prefix(name)?.strip_prefix(" = "))?;
        return Some(top.join(to)).filter(|p| p.is_file());
    }
    [dir.join(file), top.join(scene).join(file), top.join(file)]
        .into_iter()
        .find(|p| p.is_file())
}

/// `size W H` of scene.txt.
fn scene_txt_size(text: &str) -> (u64, u64) {
    let line = text
        .lines()
        .find(|l| l.starts_with("size "))
        .expect("scene.txt: a `size` line");
    let v: Vec<u64> = line[5..]
        .split_whitespace()
        .map(|n| n.parse().unwrap())
        .collect();
    (v[0], v[1])
}

#[test]
fn every_example_scene_is_captured_and_its_copy_is_the_example() {
    let examples = common::repo().join("examples/rt");
    let mut example_scenes: Vec<String> = sorted_entries(&examples)
        .into_iter()
        .filter(|p| p.join("SCENE.toml").is_file())
        .map(|p| p.file_name().unwrap().to_string_lossy().into_owned())
        .collect();
    example_scenes.sort();
    assert_eq!(scenes(), example_scenes);
    for scene in scenes() {
        let copy = rt().join(&scene).join("scene");
        let src = examples.join(&scene);
        let names = |d: &Path| -> Vec<String> {
            sorted_entries(d)
                .iter()
                .map(|p| p.file_name().unwrap().to_string_lossy().into_owned())
                .collect()
        };
        assert_eq!(names(&copy), names(&src), "{scene}: the files of the copy");
        for name in names(&src) {
            assert_eq!(
                std::fs::read(copy.join(&name)).unwrap(),
                std::fs::read(src.join(&name)).unwrap(),
                "{scene}/{name}: the capture's copy differs from examples/rt; rerun \
                 tools/mesa/capture-rt-examples"
            );
        }
    }
}

#[test]
fn lavapipe_buffers_have_a_record_per_pixel() {
    for scene in scenes() {
        let toml_text = read(&rt().join(&scene).join("scene/SCENE.toml"));
        let doc: toml::Table = toml_text.parse().unwrap();
        let w = doc["width"].as_integer().unwrap() as u64;
        let h = doc["height"].as_integer().unwrap() as u64;
        let txt = read(&locate(&scene, GPUS[0], "scene.txt").expect("scene.txt"));
        assert_eq!(scene_txt_size(&txt), (w, h), "{scene}: scene.txt's size");
        for gpu in GPUS {
            let bin = locate(&scene, gpu, "lavapipe.bin")
                .unwrap_or_else(|| panic!("{scene}/{gpu}: no lavapipe.bin"));
            let len = std::fs::metadata(&bin).unwrap().len();
            assert_eq!(len, w * h * 16, "{}", bin.display());
        }
    }
}

/// The handles of handles.txt, in group order.
fn handles(path: &Path) -> (usize, Vec<Vec<u8>>) {
    let text = read(path);
    let size: usize = text
        .lines()
        .next()
        .and_then(|l| l.strip_prefix("# shaderGroupHandleSize="))
        .and_then(|l| l.split(';').next())
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("{}: no `# shaderGroupHandleSize=N;` line", path.display()));
    let mut out = Vec::new();
    for (i, line) in text.lines().skip(1).enumerate() {
        let (head, words) = line
            .split_once(':')
            .unwrap_or_else(|| panic!("{}:{}: no `group N:`", path.display(), i + 2));
        let n: usize = head.trim_start_matches("group").trim().parse().unwrap();
        assert_eq!(n, out.len(), "{}:{}: group order", path.display(), i + 2);
        let mut bytes = Vec::new();
        for w in words.split_whitespace() {
            assert_eq!(w.len(), 8, "{}:{}: `{w}`", path.display(), i + 2);
            for k in 0..4 {
                bytes.push(u8::from_str_radix(&w[2 * k..2 * k + 2], 16).unwrap());
            }
        }
        assert_eq!(bytes.len(), size, "{}:{}", path.display(), i + 2);
        out.push(bytes);
    }
    (size, out)
}

/// `key=value` fields of a line.
fn fields(line: &str) -> BTreeMap<&str, u64> {
    line.split_whitespace()
        .filter_map(|f| f.split_once('='))
        .filter_map(|(k, v)| Some((k, v.parse().ok()?)))
        .collect()
}

#[test]
fn every_gpu_directory_is_whole_and_its_handles_are_in_the_sbt() {
    for scene in scenes() {
        let groups: usize = read(&locate(&scene, GPUS[0], "scene.txt").unwrap())
            .lines()
            .find_map(|l| l.strip_prefix("groups "))
            .and_then(|n| n.parse().ok())
            .expect("scene.txt: `groups N`");
        for gpu in GPUS {
            let dir = rt().join(&scene).join(gpu);
            assert!(dir.is_dir(), "{}: missing", dir.display());
            if dir.join("radv_failure.txt").is_file() {
                continue;
            }
            for file in GPU_FILES {
                assert!(dir.join(file).is_file(), "{scene}/{gpu}: no {file}");
            }
            assert!(
                read(&dir.join("env.txt")).ends_with("rc=0\n"),
                "{scene}/{gpu}/env.txt"
            );

            let (size, handles) = handles(&dir.join("handles.txt"));
            assert_eq!(handles.len(), groups, "{scene}/{gpu}: handles");
            let sbt_txt = read(&dir.join("sbt.txt"));
            let sbt = std::fs::read(dir.join("sbt.bin")).unwrap();
            let head = sbt_txt
                .lines()
                .find(|l| l.starts_with("shaderGroupHandleSize="))
                .unwrap();
            assert_eq!(fields(head)["shaderGroupHandleSize"] as usize, size);
            assert_eq!(fields(head)["size"] as usize, sbt.len(), "{scene}/{gpu}");
            let mut seen = 0;
            for line in sbt_txt.lines().filter(|l| l.starts_with("region ")) {
                let f = fields(line);
                for i in 0..f["groups"] as usize {
                    let at = (f["offset"] + i as u64 * f["stride"]) as usize;
                    let group = f["first_group"] as usize + i;
                    assert_eq!(
                        &sbt[at..at + size],
                        &handles[group][..],
                        "{scene}/{gpu}: group {group}'s handle in sbt.bin at {at}"
                    );
                    seen += 1;
                }
            }
            assert_eq!(seen, groups, "{scene}/{gpu}: the regions' groups");
        }
    }
}

#[test]
fn every_file_a_manifest_lists_is_there_with_its_size() {
    for scene in scenes() {
        for gpu in GPUS {
            let manifest = rt().join(&scene).join(gpu).join("MANIFEST.txt");
            let text = read(&manifest);
            let mut files = 0;
            for (i, line) in text
                .lines()
                .enumerate()
                .filter(|(_, l)| !l.starts_with('#'))
            {
                // The description may hold " | " itself.
                let parts: Vec<&str> = line.splitn(3, " | ").collect();
                let [file, bytes, _what] = parts[..] else {
                    panic!(
                        "{}:{}: expected `file | bytes | what`",
                        manifest.display(),
                        i + 1
                    );
                };
                let path = locate(&scene, gpu, file)
                    .unwrap_or_else(|| panic!("{scene}/{gpu}: {file} is listed but not there"));
                let len = std::fs::metadata(&path).unwrap().len();
                assert_eq!(len.to_string(), bytes, "{}", path.display());
                files += 1;
            }
            assert!(files > 10, "{}: {files} files", manifest.display());
        }
    }
}

/// Assembles ACO's text under the target and wave size and compares every instruction with
/// the encoding listed after it (as `gpuabi asm check --encodings` does).
fn assembles(path: &Path, text: &str, target: Gfx, wave: WaveSize) -> Result<usize, String> {
    let (mut program, listed) = parse_listed(text, target, wave).map_err(|e| e.to_string())?;
    if let Some(m) = adopt(&mut program, &listed).first() {
        return Err(format!(
            "{}:{}: gpuabi encodes {:02x?}, ACO listed {:02x?}",
            path.display(),
            m.line,
            m.ours,
            m.listed
        ));
    }
    let listed_bytes: Vec<u8> = listed
        .iter()
        .flat_map(|l| l.words.iter().flat_map(|w| w.to_le_bytes()))
        .collect();
    if encode(&program).map_err(|e| e.to_string())? != listed_bytes {
        return Err(format!(
            "{}: the bytes differ from the listing",
            path.display()
        ));
    }
    Ok(listed.len())
}

/// The code of a RADV disassembly: from its first `BB0:` on (a dump's title and `disasm:`
/// before it are RADV's headings) up to `/* constant data */`, which ACO prints after the
/// code when the shader has constant data (bytes in hex that follow the code in the binary).
fn code_of(text: &str) -> &str {
    let text = text.find("BB0:").map_or(text, |i| &text[i..]);
    text.find("\n/* constant data */")
        .map_or(text, |i| &text[..i + 1])
}

/// Records a file that does not assemble: a failure unless the message names an
/// [`UNMODELLED`] form.
fn not_assembled(
    path: &Path,
    error: String,
    unmodelled: &mut Vec<String>,
    failures: &mut Vec<String>,
) {
    let line = format!("{}: {error}", path.display());
    if UNMODELLED.iter().any(|form| error.contains(form)) {
        unmodelled.push(line);
    } else {
        failures.push(line);
    }
}

fn chip(dir: &Path) -> String {
    read(&dir.join("device.txt"))
        .lines()
        .find_map(|l| l.strip_prefix("deviceName:"))
        .and_then(|l| {
            l.rsplit_once("(RADV ")?
                .1
                .strip_suffix(')')
                .map(str::to_string)
        })
        .expect("device.txt: `deviceName: ... (RADV CHIP)`")
}

#[test]
fn radvs_code_assembles_to_the_listed_encodings() {
    let mut checked = 0;
    let mut bvh_checked = BTreeSet::new();
    let mut failures = Vec::new();
    let mut unmodelled = Vec::new();
    for scene in scenes() {
        for gpu in GPUS {
            let dir = rt().join(&scene).join(gpu);
            if dir.join("radv_failure.txt").is_file() {
                continue;
            }
            let chip = chip(&dir);
            let target = chip_gfx(&chip).unwrap_or_else(|| panic!("{chip}: not modelled"));
            let functions = pipeline_functions(&dir, gpu, &chip).unwrap();
            assert!(!functions.is_empty(), "{scene}/{gpu}: no executable");
            for f in &functions {
                let wave = WaveSize::from_lanes(f.wave).unwrap();
                let text = read(&f.assembly);
                match assembles(&f.assembly, code_of(&text), target, wave) {
                    Ok(n) => assert!(n > 0, "{}: nothing listed", f.assembly.display()),
                    Err(e) => not_assembled(&f.assembly, e, &mut unmodelled, &mut failures),
                }
                checked += 1;
            }
            // The prolog runs at the functions' wave size.
            let wave = WaveSize::from_lanes(functions[0].wave).unwrap();
            let prolog = dir.join("raytracing_prolog.txt");
            let text = read(&prolog);
            assert!(
                text.starts_with("Raytracing prolog\n"),
                "{}",
                prolog.display()
            );
            if let Err(e) = assembles(&prolog, code_of(&text), target, wave) {
                not_assembled(&prolog, e, &mut unmodelled, &mut failures);
            }
            checked += 1;

            // The build shaders this GPU compiled, each once (compute shaders whose wave
            // size RADV's dump does not give: the first, native first, under which every
            // listed encoding is gpuabi's).
            let map = read(&dir.join("bvh_build.txt"));
            let waves: &[WaveSize] = if target == Gfx::Gfx8 {
                &[WaveSize::W64]
            } else {
                &[WaveSize::W32, WaveSize::W64]
            };
            let mut shaders = 0;
            for line in map.lines().filter(|l| !l.starts_with('#')) {
                let (_, to) = line
                    .split_once(" = ")
                    .expect("`NN_compute.Assembly.txt = FILE`");
                let file = rt().join(to);
                shaders += 1;
                if !bvh_checked.insert(file.clone()) {
                    continue;
                }
                let text = read(&file);
                let mut errors = Vec::new();
                for w in waves {
                    match assembles(&file, code_of(&text), target, *w) {
                        Ok(_) => {
                            errors.clear();
                            break;
                        }
                        Err(e) => errors.push(e),
                    }
                }
                // The wave size that got furthest (the message starts with `line:column`).
                let line_of = |e: &String| -> usize {
                    e.split(':')
                        .next()
                        .and_then(|n| n.parse().ok())
                        .unwrap_or(0)
                };
                if let Some(e) = errors.into_iter().max_by_key(line_of) {
                    not_assembled(&file, e, &mut unmodelled, &mut failures);
                }
            }
            assert!(shaders > 0, "{scene}/{gpu}: no build shader");
        }
    }
    assert!(checked > 0);
    assert!(!bvh_checked.is_empty());
    assert!(
        failures.is_empty(),
        "{} files:\n{}",
        failures.len(),
        failures.join("\n")
    );
    eprintln!(
        "{checked} functions and prologs and {} build shaders checked; {} stop at an \
         instruction form gpuabi does not model:\n{}",
        bvh_checked.len(),
        unmodelled.len(),
        unmodelled.join("\n")
    );
}
