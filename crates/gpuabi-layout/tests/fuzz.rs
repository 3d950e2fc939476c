//! Fuzz targets over every text a user hands the ACO engine: signatures (text and TOML),
//! ABI files, register names, and the assignment of whatever parses. Each target runs for
//! a bounded time under `cargo test`; the property is "an error or a value, never a panic".

use arbitrary::{Result, Unstructured};
use gpuabi_layout::aco::{
    assign, parse_signature, register_ranges, signature_from_toml, Abi, AssignRequest, Demand, Gfx,
    Param, Policy, RegisterBlock, ScalarType, Signature, Target,
};
use gpuabi_layout::reg::{AgxRange, RegRange};

const BUDGET_MS: u64 = 1500;

/// Text made of the grammar's own tokens, with a little noise, so generated inputs get past
/// the lexer.
fn token_text(u: &mut Unstructured<'_>, vocab: &[&str]) -> Result<String> {
    let mut s = String::new();
    let n = u.int_in_range(0..=40)?;
    for _ in 0..n {
        if u.ratio(1, 12)? {
            s.push(u.arbitrary::<char>()?);
        } else {
            s.push_str(u.choose(vocab)?);
        }
    }
    Ok(s)
}

#[rustfmt::skip]
const SIG_TOKENS: &[&str] = &[
    "a", "b", "p0", "x", ":", ",", " ", "\n", "#", "bool", "u8", "i8", "u16", "i16", "f16",
    "u32", "i32", "f32", "u64", "i64", "f64", "x", "2", "3", "4", "16", "17", "0", "255",
    "256", "99999999999999999999", "uniform", "discardable", "return", "return_address",
    "stack_pointer", "u32x", "f32x4", "bool x3", "-", "[", "]",
];

#[rustfmt::skip]
const TOML_TOKENS: &[&str] = &[
    "[[param]]\n", "[block]\n", "name = \"a\"\n", "name = \"b\"\n", "type = \"f32x3\"\n",
    "type = \"u64\"\n", "type = \"bool\"\n", "type = \"u32x99\"\n", "type = 3\n",
    "uniform = true\n", "discardable = true\n", "return = true\n", "components = 4\n",
    "clobbered = { sgpr = 16, vgpr = 16 }\n", "preserved = { sgpr = 16, vgpr = 16 }\n",
    "clobbered = { sgpr = 0, vgpr = 0 }\n", "preserved = { sgpr = 0, vgpr = 0 }\n",
    "preserved = { sgpr = 65535, vgpr = 65535 }\n", "clobbered = { sgpr = 65535, vgpr = 1 }\n",
    "clobbered_first = true\n", "max_param_demand = { sgpr = 48, vgpr = 48 }\n",
    "max_param_demand = { sgpr = 0, vgpr = 0 }\n", "max_param_demand = { sgpr = 65535, vgpr = 65535 }\n",
    "name = \"generic\"\n", "=", "\"", "{", "}", "\n", "x = 1\n", "sgpr = -1", "vgpr = 70000",
];

#[rustfmt::skip]
const REG_TOKENS: &[&str] = &[
    "s", "v", "r", "u", "[", "]", ":", "_", "l", "h", "0", "1", "4", "7", "255", "256", "511",
    "512", "65535", "65536", "4294967295", "18446744073709551616", "-", "s[", "v[", "u6_u7",
    "r3l", "r3h",
];

#[test]
fn parse_signature_never_panics() {
    arbtest::arbtest(|u| {
        let text = if u.ratio(1, 4)? {
            u.arbitrary::<String>()?
        } else {
            token_text(u, SIG_TOKENS)?
        };
        let _ = parse_signature(&text);
        Ok(())
    })
    .budget_ms(BUDGET_MS);
}

#[test]
fn toml_readers_never_panic() {
    arbtest::arbtest(|u| {
        let text = if u.ratio(1, 4)? {
            u.arbitrary::<String>()?
        } else {
            token_text(u, TOML_TOKENS)?
        };
        let _ = signature_from_toml(&text);
        if let Ok(abi) = Abi::from_toml(&text) {
            let limit = Demand::new(u.arbitrary()?, u.arbitrary()?);
            let _ = register_ranges(&abi.block, limit);
        }
        Ok(())
    })
    .budget_ms(BUDGET_MS);
}

#[test]
fn register_names_never_panic() {
    arbtest::arbtest(|u| {
        let text = if u.ratio(1, 4)? {
            u.arbitrary::<String>()?
        } else {
            token_text(u, REG_TOKENS)?
        };
        if let Ok(r) = text.parse::<RegRange>() {
            // What parses prints back to something that parses to the same range.
            assert_eq!(r.to_string().parse::<RegRange>().ok(), Some(r), "{text:?}");
        }
        if let Ok(r) = text.parse::<AgxRange>() {
            let _ = r.to_string();
        }
        Ok(())
    })
    .budget_ms(BUDGET_MS);
}

const TYPES: [ScalarType; 12] = [
    ScalarType::Bool,
    ScalarType::U8,
    ScalarType::I8,
    ScalarType::U16,
    ScalarType::I16,
    ScalarType::F16,
    ScalarType::U32,
    ScalarType::I32,
    ScalarType::F32,
    ScalarType::U64,
    ScalarType::I64,
    ScalarType::F64,
];

/// Small numbers most of the time, the type's extremes some of the time.
fn count(u: &mut Unstructured<'_>) -> Result<u16> {
    Ok(match u.int_in_range(0..=5)? {
        0 => u.arbitrary()?,
        1 => u16::MAX - u.int_in_range(0..=3)?,
        _ => u.int_in_range(0..=64)?,
    })
}

fn demand(u: &mut Unstructured<'_>) -> Result<Demand> {
    Ok(Demand::new(count(u)?, count(u)?))
}

#[test]
fn assign_never_panics() {
    arbtest::arbtest(|u| {
        let block = RegisterBlock {
            clobbered: demand(u)?,
            preserved: demand(u)?,
            clobbered_first: u.arbitrary()?,
        };
        let abi = Abi {
            name: "fuzz".into(),
            block,
            max_param_demand: if u.arbitrary()? {
                Some(demand(u)?)
            } else {
                None
            },
        };
        let n = u.int_in_range(0..=40)?;
        let mut params = Vec::with_capacity(n);
        for i in 0..n {
            let mut p = Param::new(
                &format!("p{i}"),
                *u.choose(&TYPES)?,
                u.int_in_range(0..=20)?,
            );
            p.uniform = u.arbitrary()?;
            p.discardable = u.arbitrary()?;
            p.is_return = u.arbitrary()?;
            params.push(p);
        }
        let signature = Signature { params };
        let Ok(target) = Target::new(*u.choose(&Gfx::ALL)?, *u.choose(&[32, 64, 0, 16])?) else {
            return Ok(());
        };
        let req = AssignRequest {
            abi: &abi,
            target,
            limit: demand(u)?,
            signature: &signature,
            policy: if u.arbitrary()? {
                Policy::Packed
            } else {
                Policy::Mesa
            },
            hints: None,
        };
        let _ = assign(&req);
        Ok(())
    })
    .budget_ms(BUDGET_MS);
}

/// Inputs the targets above found, kept as plain tests.
#[test]
fn regressions() {
    use gpuabi_layout::aco::{stage_signature, AcoError, RtStage, MAX_STAGE_DATA_BYTES};
    use gpuabi_layout::reg::RegFile;

    // ranges.rs preserved_runs: `off + P` overflowed u16. Hand-computed: SGPRs start with
    // 65535 clobbered registers, past the limit, so none is preserved; VGPRs clobber v0 and
    // preserve the next 65535, cut at the limit: v1..v127.
    let block = RegisterBlock {
        clobbered: Demand::new(65535, 1),
        preserved: Demand::new(65535, 65535),
        clobbered_first: true,
    };
    let r = register_ranges(&block, Demand::new(108, 128)).unwrap();
    assert_eq!(r.num_preserved(RegFile::Sgpr), 0);
    assert_eq!(r.num_preserved(RegFile::Vgpr), 127);

    // agx.rs AgxRange::from_str: `first + halves` overflowed u32 for huge register numbers.
    for text in [
        "r4294967295h",
        "u2147483647h",
        "r2147483648",
        "r99999999999999999999l",
    ] {
        assert!(text.parse::<AgxRange>().is_err(), "{text}");
    }

    // stages.rs stage_signature: one parameter per payload dword, 2^30 of them.
    assert!(matches!(
        stage_signature(RtStage::ClosestHit, u32::MAX, 0),
        Err(AcoError::StageDataTooLarge {
            what: "ray payload",
            ..
        })
    ));
    assert!(matches!(
        stage_signature(RtStage::AnyHit, 0, MAX_STAGE_DATA_BYTES + 1),
        Err(AcoError::StageDataTooLarge {
            what: "hit attributes",
            ..
        })
    ));
    // At the limit: 65536 bytes are 16384 payload dwords, each its own parameter.
    let s = stage_signature(RtStage::Miss, MAX_STAGE_DATA_BYTES, 0).unwrap();
    let payload = s
        .signature
        .params
        .iter()
        .filter(|p| p.name.starts_with("payload"))
        .count();
    assert_eq!(payload, 16384);
}
