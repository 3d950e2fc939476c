//! A vertex draw of two instances over 40 vertices (two SIMD groups each, the second
//! partly filled), three attributes from three bindings, checked against values computed
//! here from the buffers' bytes: 32-bit floats as stored, 8-bit UNORM as `c / 255`,
//! 16-bit floats widened by the `half` crate, missing components as (0, 0, 0, 1), and
//! elements past a binding as zeros (D3D robustness).

use gpuabi_agx::prolog::{vertex_prolog, PrologAttrib, PrologKey};
use gpuabi_agx::vertex_key::{Robustness, RobustnessLevel, VertexElement};
use gpuabi_agx_exec::vertex::{Binding, IndexBuffer, VertexBuffer, MAX_INVOCATIONS};
use gpuabi_agx_exec::{Names, VertexDraw, VertexError, VertexProgram};
use gpuabi_agx_isa::decode;
use half::f16;

const VERTICES: u32 = 40;
const INSTANCES: u32 = 2;
const FIRST_VERTEX: u32 = 3;
/// Elements of the position binding: vertices from element 30 on read past it.
const POSITIONS: u32 = 30;

fn attrib(slot: u16, format: &str, stride: u32, instanced: bool, components: u8) -> PrologAttrib {
    PrologAttrib {
        slot,
        element: VertexElement {
            format: format.to_string(),
            stride,
            divisor: 1,
            instanced,
        },
        components,
    }
}

fn key() -> PrologKey {
    PrologKey {
        robustness: Robustness {
            level: RobustnessLevel::D3d,
            soft_fault: false,
        },
        hw: true,
        index_size: 0,
        attribs: vec![
            attrib(0, "R32G32_FLOAT", 8, false, 0b1111),
            attrib(1, "R8G8B8A8_UNORM", 4, true, 0b1111),
            attrib(2, "R16G16_FLOAT", 4, false, 0b0011),
        ],
    }
}

/// The position of element `e`, the colour bytes of instance element `i`, the 16-bit
/// floats of element `e`.
fn position(e: u32) -> [f32; 2] {
    [e as f32 * 1.25 - 7.0, 100.0 / (e as f32 + 1.0)]
}
fn colour(i: u32) -> [u8; 4] {
    [
        (17 * i + 3) as u8,
        (200 - 31 * i) as u8,
        0xff,
        (i * 64) as u8,
    ]
}
fn uv(e: u32) -> [f16; 2] {
    [
        f16::from_f32(e as f32 * 0.37 + 1.0),
        f16::from_f32(-(e as f32) * 2.5 - 3.0),
    ]
}

fn draw() -> VertexDraw {
    let elements = FIRST_VERTEX + VERTICES;
    let pos: Vec<u8> = (0..elements)
        .flat_map(|e| position(e).map(f32::to_le_bytes))
        .flatten()
        .collect();
    let col: Vec<u8> = (0..INSTANCES).flat_map(colour).collect();
    // 4 bytes of padding before the first 16-bit pair (the binding's offset).
    let uvs: Vec<u8> = [0u8; 4]
        .into_iter()
        .chain(
            (0..elements)
                .flat_map(|e| uv(e).map(f16::to_le_bytes))
                .flatten(),
        )
        .collect();
    VertexDraw {
        vertex_count: VERTICES,
        instance_count: INSTANCES,
        first_vertex: FIRST_VERTEX,
        buffers: vec![
            VertexBuffer {
                name: "pos".into(),
                bytes: pos,
            },
            VertexBuffer {
                name: "col".into(),
                bytes: col,
            },
            VertexBuffer {
                name: "uv".into(),
                bytes: uvs.clone(),
            },
        ],
        bindings: vec![
            Binding {
                slot: 0,
                buffer: 0,
                offset: 0,
                size: u64::from(POSITIONS) * 8,
            },
            Binding {
                slot: 1,
                buffer: 1,
                offset: 0,
                size: u64::from(INSTANCES) * 4,
            },
            Binding {
                slot: 2,
                buffer: 2,
                offset: 4,
                size: uvs.len() as u64,
            },
        ],
        ..VertexDraw::default()
    }
}

#[test]
fn attributes_are_what_the_formats_say() {
    let key = key();
    let code = vertex_prolog(&key).unwrap().code;
    let program = VertexProgram::new(key, &code).unwrap();
    assert!(
        program.violations().is_empty(),
        "{:?}",
        program.violations()
    );
    let out = program.run(&draw(), &Names::default(), false).unwrap();
    // r5, r6; slot 0 in r8..r11, slot 1 in r12..r15, slot 2's x and y in r16, r17.
    let expected_registers: Vec<u16> = [5, 6].into_iter().chain(8..18).collect();
    assert_eq!(out.registers, expected_registers);
    assert_eq!(out.len(), (VERTICES * INSTANCES) as usize);
    let mut invocations = out.invocations();
    for instance in 0..INSTANCES {
        for v in 0..VERTICES {
            let i = invocations.next().unwrap();
            let e = FIRST_VERTEX + v;
            assert_eq!((i.vertex_id, i.instance_id), (e, instance));
            let [x, y] = if e < POSITIONS { position(e) } else { [0.0; 2] };
            let c = colour(instance).map(|c| f32::from(c) / 255.0);
            let [u, w] = uv(e).map(f16::to_f32);
            let mut expected = vec![e, instance];
            expected.extend([x, y, 0.0, 1.0].map(f32::to_bits));
            expected.extend(c.map(f32::to_bits));
            expected.extend([u, w].map(f32::to_bits));
            assert_eq!(i.values, &expected[..], "vertex {e} instance {instance}");
        }
    }
    assert!(invocations.next().is_none());
}

/// Every group runs the whole straight-line prolog once: the counts are the decoded
/// instructions times the groups, and the loads read their registers' bytes for each
/// active lane.
#[test]
fn stats_count_each_group_once() {
    let key = key();
    let code = vertex_prolog(&key).unwrap().code;
    let listing = decode(&code).unwrap();
    let texts: Vec<String> = listing.iter().map(|(_, i)| i.to_string()).collect();
    assert!(!texts
        .iter()
        .any(|t| t.starts_with("jmp") || t.starts_with("if")));
    let program = VertexProgram::new(key, &code).unwrap();
    let out = program.run(&draw(), &Names::default(), true).unwrap();
    let stats = out.stats.expect("asked for");
    let parts = stats.parts();
    assert_eq!(parts.len(), 1);
    let (name, c) = parts[0];
    assert_eq!(name, "prolog");
    let groups = u64::from(INSTANCES * VERTICES.div_ceil(32));
    assert_eq!(c.total(), groups * listing.len() as u64);
    let mut names: Vec<&str> = listing.iter().map(|(_, i)| i.opcode.name()).collect();
    names.sort_unstable();
    names.dedup();
    let counted: Vec<&str> = c.instructions().iter().map(|(n, _)| *n).collect();
    assert_eq!(counted, names);
    // Bytes of the registers each load writes, per lane.
    let per_lane: u64 = texts
        .iter()
        .zip(&listing)
        .filter(|(t, _)| t.starts_with("load") || t.starts_with("device_load"))
        .map(|(_, (_, ins))| match ins.dests[0].unwrap().kind {
            gpuabi_agx_isa::OperandKind::Reg { size, count, .. } => u64::from(size / 8 * count),
            _ => 0,
        })
        .sum();
    assert_eq!(
        c.memory_read_bytes,
        per_lane * u64::from(VERTICES * INSTANCES)
    );
    assert_eq!((c.tile_read_bytes, c.memory_write_bytes), (0, 0));
}

#[test]
fn errors_name_the_draw_and_the_key() {
    let names = Names {
        key: "K.toml".into(),
        draw: "D.toml".into(),
    };
    let mut big = draw();
    big.vertex_count = MAX_INVOCATIONS as u32;
    let key = key();
    let code = vertex_prolog(&key).unwrap().code;
    let program = VertexProgram::new(key.clone(), &code).unwrap();
    let e = program.run(&big, &names, false).unwrap_err();
    assert!(
        matches!(e, VertexError::TooManyInvocations { invocations, .. } if invocations == 2 * MAX_INVOCATIONS)
    );
    assert_eq!(
        e.to_string(),
        format!(
            "D.toml: {} invocations (at most {MAX_INVOCATIONS})",
            2 * MAX_INVOCATIONS
        )
    );
    // The compute variant with an index size fetches indices: the draw must give them.
    let compute = PrologKey {
        hw: false,
        index_size: 2,
        ..key
    };
    let code = vertex_prolog(&compute).unwrap().code;
    let program = VertexProgram::new(compute, &code).unwrap();
    let e = program.run(&draw(), &names, false).unwrap_err();
    assert_eq!(
        e.to_string(),
        "D.toml: index: missing (the key's compute variant fetches indices)"
    );
    // With 16-bit indices 2, 0, 1 (instance 0 only), lane l fetches the element its index
    // names.
    let mut indexed = draw();
    indexed.vertex_count = 3;
    indexed.instance_count = 1;
    indexed.first_vertex = 0;
    indexed.buffers.push(VertexBuffer {
        name: "ix".into(),
        bytes: vec![2, 0, 0, 0, 1, 0],
    });
    indexed.index = Some(IndexBuffer {
        buffer: 3,
        offset: 0,
        count: 3,
    });
    let out = program.run(&indexed, &names, false).unwrap();
    let xs: Vec<(u32, u32)> = out
        .invocations()
        .map(|i| {
            (
                i.vertex_id,
                i.values[out.registers.iter().position(|&r| r == 8).unwrap()],
            )
        })
        .collect();
    let expected: Vec<(u32, u32)> = [2u32, 0, 1]
        .iter()
        .map(|&e| (e, position(e)[0].to_bits()))
        .collect();
    assert_eq!(xs, expected);
}
