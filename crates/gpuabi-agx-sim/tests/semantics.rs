//! Instructions applegpu's emulator does not run, checked against values worked out by
//! hand: stores of the unconverted formats (the inverse of `device_load`'s addressing in
//! applegpu's `DeviceLoadInstructionDesc`), conversions and float functions (the rules
//! stated in the crate; IEEE 754 values computed by hand), and the soft-fault rule.

use gpuabi_agx_isa::assemble;
use gpuabi_agx_sim::{run, Region, SimError, State};

fn exec(src: &str, st: &mut State) -> Result<usize, SimError> {
    let p = assemble(src, "t.s").expect("assembles");
    run(&p.bytes, st, 1000)
}

fn lane0(st: &State, half: u32, size: u32) -> u64 {
    st.read_gpr(0, half, size).unwrap()
}

#[test]
fn stores_write_little_endian_elements() {
    let mut st = State {
        exec: 1,
        ..State::default()
    };
    st.memory.push(Region {
        address: 0x1000,
        bytes: vec![0; 16],
    });
    st.set_uniform(8, 64, 0x1000).unwrap(); // du4
    st.set_gpr(0, 2, 32, 0x1122_3344).unwrap(); // r1
    st.set_gpr(0, 4, 32, 0x5566_7788).unwrap(); // r2
                                                // i32 elements 1 and 2 (mask xy after index 1): bytes 4..12.
    exec("store r1_r2, du4, 1, i32, xy, a\n", &mut st).unwrap();
    assert_eq!(
        st.memory[0].bytes,
        [0, 0, 0, 0, 0x44, 0x33, 0x22, 0x11, 0x88, 0x77, 0x66, 0x55, 0, 0, 0, 0]
    );
    // i16 from r1l to element 7 (bytes 14..16), mask z skips two elements: index 5 + 2.
    exec("store r1l, du4, 5, i16, z, a\n", &mut st).unwrap();
    assert_eq!(&st.memory[0].bytes[14..], &[0x44, 0x33]);
}

#[test]
fn unmapped_stores_fault_unless_soft_fault() {
    let mut st = State::default();
    let e = exec("store r0, du0, 0, i32, x, a\n", &mut st).unwrap_err();
    assert!(
        matches!(
            e,
            SimError::Fault {
                lane: 0,
                address: 0,
                ..
            }
        ),
        "{e}"
    );
    let mut st = State {
        soft_fault: true,
        ..State::default()
    };
    exec(
        "store r0, du0, 0, i32, x, a\nload r1, du0, 0, i32, x, a\n",
        &mut st,
    )
    .unwrap();
    assert_eq!(lane0(&st, 2, 32), 0);
}

#[test]
fn conversions() {
    let mut st = State {
        exec: 1,
        ..State::default()
    };
    st.set_gpr(0, 2, 32, 16_777_219).unwrap(); // r1 = 2^24 + 3
    st.set_gpr(0, 4, 32, 0xc020_0000).unwrap(); // r2 = -2.5f
    st.set_gpr(0, 6, 32, 0xffff_fffe).unwrap(); // r3 = -2 (s32)
    exec(
        "u32_to_f r4, r1, rte\nu32_to_f r5, r1, rtz\nf_to_s32 r6, r2, rtz\n\
         f_to_s32 r7, r2, rte\ns32_to_f r8, r3, rte\nu32_to_f r9l, r1, rte\n",
        &mut st,
    )
    .unwrap();
    assert_eq!(lane0(&st, 8, 32), 0x4b80_0002); // 2^24 + 4
    assert_eq!(lane0(&st, 10, 32), 0x4b80_0001); // 2^24 + 2
    assert_eq!(lane0(&st, 12, 32), 0xffff_fffe); // -2
    assert_eq!(lane0(&st, 14, 32), 0xffff_fffe); // -2 (ties to even)
    assert_eq!(lane0(&st, 16, 32), 0xc000_0000); // -2.0f
    assert_eq!(lane0(&st, 18, 16), 0x7c00); // beyond fp16: infinity
}

#[test]
fn float_functions() {
    let mut st = State {
        exec: 1,
        ..State::default()
    };
    st.set_gpr(0, 2, 32, 0xbfc0_0000).unwrap(); // r1 = -1.5f
    st.set_gpr(0, 4, 32, 0x4020_0000).unwrap(); // r2 = 2.5f
    st.set_gpr(0, 6, 32, 0x4080_0000).unwrap(); // r3 = 4.0f
    exec(
        "floor r4, r1\nceil r5, r1\ntrunc r6, r1\nrint r7, r2\nrcp r8, r3\nrsqrt r9, r3\n\
         log2 r10, r3\nexp2 r11, r3\n",
        &mut st,
    )
    .unwrap();
    assert_eq!(lane0(&st, 8, 32), 0xc000_0000); // floor(-1.5) = -2
    assert_eq!(lane0(&st, 10, 32), 0xbf80_0000); // ceil(-1.5) = -1
    assert_eq!(lane0(&st, 12, 32), 0xbf80_0000); // trunc(-1.5) = -1
    assert_eq!(lane0(&st, 14, 32), 0x4000_0000); // rint(2.5) = 2 (ties to even)
    assert_eq!(lane0(&st, 16, 32), 0x3e80_0000); // 1/4
    assert_eq!(lane0(&st, 18, 32), 0x3f00_0000); // 1/sqrt(4)
    assert_eq!(lane0(&st, 20, 32), 0x4000_0000); // log2(4) = 2
    assert_eq!(lane0(&st, 22, 32), 0x4180_0000); // 2^4 = 16
}

/// `fltn`/`fgtn` as Mesa's `fmin`/`fmax` use them (`csel d, a, b, a, b, cond`): the
/// smaller/larger operand, the number when the other is NaN, `b` for equal operands (signed
/// zeros included) and when both are NaN.
#[test]
fn min_max_conditions() {
    let cases: [(u32, u32, u32, u32); 7] = [
        // (a, b, min, max)
        (0x3f80_0000, 0x4000_0000, 0x3f80_0000, 0x4000_0000), // 1.0, 2.0
        (0xc000_0000, 0x3f80_0000, 0xc000_0000, 0x3f80_0000), // -2.0, 1.0
        (0x7fc0_0000, 0x3f80_0000, 0x3f80_0000, 0x3f80_0000), // NaN, 1.0
        (0x3f80_0000, 0x7fc0_0001, 0x3f80_0000, 0x3f80_0000), // 1.0, NaN
        (0x8000_0000, 0x0000_0000, 0x0000_0000, 0x0000_0000), // -0.0, +0.0: b
        (0x7fc0_0000, 0x7fc0_0001, 0x7fc0_0001, 0x7fc0_0001), // NaN, NaN: b
        (0xff80_0000, 0x7f80_0000, 0xff80_0000, 0x7f80_0000), // -inf, +inf
    ];
    for (a, b, min, max) in cases {
        let mut st = State {
            exec: 1,
            ..State::default()
        };
        st.set_gpr(0, 2, 32, u64::from(a)).unwrap(); // r1
        st.set_gpr(0, 4, 32, u64::from(b)).unwrap(); // r2
        exec(
            "csel r3, r1, r2, r1, r2, fltn\ncsel r4, r1, r2, r1, r2, fgtn\n",
            &mut st,
        )
        .unwrap();
        assert_eq!(lane0(&st, 6, 32), u64::from(min), "min({a:#x}, {b:#x})");
        assert_eq!(lane0(&st, 8, 32), u64::from(max), "max({a:#x}, {b:#x})");
    }
    // 16-bit operands: min(1.0h, -0.5h) = -0.5h; max(NaN, 2.0h) = 2.0h.
    let mut st = State {
        exec: 1,
        ..State::default()
    };
    st.set_gpr(0, 2, 16, 0x3c00).unwrap(); // r1l
    st.set_gpr(0, 3, 16, 0xb800).unwrap(); // r1h
    st.set_gpr(0, 4, 16, 0x7e00).unwrap(); // r2l
    st.set_gpr(0, 5, 16, 0x4000).unwrap(); // r2h
    exec(
        "csel r3l, r1l, r1h, r1l, r1h, fltn\ncsel r3h, r2l, r2h, r2l, r2h, fgtn\n",
        &mut st,
    )
    .unwrap();
    assert_eq!(lane0(&st, 6, 16), 0xb800);
    assert_eq!(lane0(&st, 7, 16), 0x4000);
}

#[test]
fn unsupported_instructions_are_named() {
    let mut st = State::default();
    let e = exec("ldimm r0l, 0\nsample_mask 255, 255\n", &mut st).unwrap_err();
    assert!(
        matches!(&e, SimError::Unsupported { offset: 4, text, .. } if text.starts_with("sample_mask")),
        "{e}"
    );
}

#[test]
fn step_limit_ends_a_loop() {
    let mut st = State::default();
    let e = exec("top: jmp_any top\n", &mut st).unwrap_err();
    assert_eq!(e, SimError::StepLimit(1000));
}

#[test]
fn nesting_counter_overflow_is_an_error() {
    // A lane already inactive at depth 65535 cannot nest deeper.
    let mut st = State::default();
    st.set_gpr(3, 0, 16, 0xffff).unwrap();
    let e = exec("if r1, 0, 1, ieq\n", &mut st).unwrap_err();
    assert!(
        matches!(
            e,
            SimError::Nesting {
                offset: 0,
                lane: 3,
                ..
            }
        ),
        "{e}"
    );
}

#[test]
fn grid_position_special_registers() {
    // Lane l of a group whose lane 0 is at (5, 7, 2) is thread (5 + l, 7, 2).
    let mut st = State {
        grid: [5, 7, 2],
        ..State::default()
    };
    exec(
        "mov r1, thread_in_grid_x\nmov r2, thread_in_grid_y\nmov r3, thread_in_grid_z\n",
        &mut st,
    )
    .unwrap();
    assert_eq!(st.read_gpr(9, 2, 32).unwrap(), 14);
    assert_eq!(st.read_gpr(9, 4, 32).unwrap(), 7);
    assert_eq!(st.read_gpr(9, 6, 32).unwrap(), 2);
}

#[test]
fn device_atomics_return_the_old_word() {
    // Hand values: 5 + 3 = 8, then max(8, 2) = 8, then 8 xor 0xf = 7.
    let mut st = State {
        exec: 1,
        memory: vec![Region {
            address: 0x1000,
            bytes: vec![0, 0, 0, 0, 5, 0, 0, 0],
        }],
        ..State::default()
    };
    st.set_gpr(0, 8, 32, 0x1000).unwrap();
    st.set_gpr(0, 2, 32, 3).unwrap();
    st.set_gpr(0, 4, 32, 2).unwrap();
    st.set_gpr(0, 6, 32, 0xf).unwrap();
    exec(
        "atomic r10, r1, dr4, 1, add, a\natomic r11, r2, dr4, 1, umax, a\natomic _, r3, dr4, 1, xor, a\n",
        &mut st,
    )
    .unwrap();
    assert_eq!(st.memory[0].bytes, [0, 0, 0, 0, 7, 0, 0, 0]);
    assert_eq!(st.read_gpr(0, 20, 32).unwrap(), 5);
    assert_eq!(st.read_gpr(0, 22, 32).unwrap(), 8);
}

#[test]
fn every_lane_adds_in_turn() {
    let mut st = State {
        exec: 0b1011,
        memory: vec![Region {
            address: 0x2000,
            bytes: vec![1, 0, 0, 0],
        }],
        ..State::default()
    };
    for l in 0..4 {
        st.set_gpr(l, 8, 32, 0x2000).unwrap();
        st.set_gpr(l, 2, 32, 10 * (l as u64 + 1)).unwrap();
    }
    exec("atomic r6, r1, dr4, 0, add, a\n", &mut st).unwrap();
    // 1 + 10 + 20 + 40 = 71; lanes see 1, 11, and 31.
    assert_eq!(st.memory[0].bytes, [71, 0, 0, 0]);
    assert_eq!(st.read_gpr(0, 12, 32).unwrap(), 1);
    assert_eq!(st.read_gpr(1, 12, 32).unwrap(), 11);
    assert_eq!(st.read_gpr(3, 12, 32).unwrap(), 31);
}

/// `st_var value, slot` (Mesa's `src/asahi/isa/AGX2.xml`: an `exreg32` value, a `uvs` slot)
/// records each active lane's 32-bit word under its slot; a later write replaces it and
/// inactive lanes record nothing.
#[test]
fn st_var_records_each_lanes_vertex_output_by_slot() {
    let mut st = State {
        exec: 0b101,
        ..State::default()
    };
    for lane in 0..3 {
        st.set_gpr(lane, 2, 32, 0x100 + lane as u64).unwrap(); // r1
        st.set_gpr(lane, 4, 32, 0x200 + lane as u64).unwrap(); // r2
    }
    exec("st_var r1, 4\nst_var r2, 5\nst_var r2, 4, last\n", &mut st).unwrap();
    assert_eq!(
        st.varyings[0].iter().collect::<Vec<_>>(),
        [(&4, &0x200), (&5, &0x200)]
    );
    assert!(st.varyings[1].is_empty());
    assert_eq!(st.varyings[2][&5], 0x202);
}

/// A preamble hands values to its main shader by writing uniform registers (`mov du16,
/// dr0` as in Honeykrisp's background preambles, `mov u8l, r0l` as in its fragment
/// preambles): the 64 bits land in halves 32..36, the 16 in half 16.
#[test]
fn moves_to_uniform_registers_write_the_uniforms() {
    let mut st = State {
        exec: 1,
        ..State::default()
    };
    st.set_gpr(0, 0, 64, 0x1122_3344_5566_7788).unwrap(); // dr0
    exec("mov du16, dr0\nmov u8l, r0l\n", &mut st).unwrap();
    assert_eq!(st.read_uniform(32, 64).unwrap(), 0x1122_3344_5566_7788);
    assert_eq!(st.read_uniform(16, 16).unwrap(), 0x7788);
    assert_eq!(st.read_uniform(17, 16).unwrap(), 0);
}
