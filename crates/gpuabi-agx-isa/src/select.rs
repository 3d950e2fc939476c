//! Choosing the encoding of one instruction from its operands in printed order: the search
//! the assembler runs on parsed text and the builder runs on typed operands.
//!
//! Operands are matched against every row printing the same mnemonic (or named so, or one
//! of applegpu's names in `ALIASES`); each candidate encoding is decoded again and kept
//! only if the caller accepts it (the assembler: it prints the same text; the builder: it
//! decodes to the same operands), and the shortest form wins, the first found among forms
//! of one length. The rows Mesa's compiler always packs long (`packed_long`) are emitted
//! long, so that Mesa's instructions get Mesa's bytes.

use crate::bits::low_mask;
use crate::decode::Instruction;
use crate::def::ModKind;
use crate::effects::Effects;
use crate::encode::{encode_absent, encode_case, finish, place, Partial};
use crate::isa::{rows, OperandSlot, Row};
use crate::operand::Operand;

/// applegpu's names for instructions whose operands it writes as Mesa does; accepted as
/// mnemonics and printed under Mesa's name.
const ALIASES: &[(&str, &str)] = &[
    ("mov_imm", "ldimm"),
    ("jmp_exec_any", "jmp_any"),
    ("jmp_exec_none", "jmp_none"),
];

/// One operand as the search sees it, in the instruction's printed order.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct Tok<'a> {
    /// Text matched against modifier names (`ult`, `rte`, `lsl 1`).
    pub word: Option<&'a str>,
    /// The operand value (a register, an immediate operand, `cf3`, ...).
    pub operand: Option<Operand>,
    /// The value of an immediate field.
    pub int: Option<i64>,
    /// The value of a branch offset field when `int` is `None` (a resolved label).
    pub branch: Option<i64>,
    /// `_`: an absent destination.
    pub absent: bool,
}

/// Where the search got furthest: the operand index and what was expected there.
pub(crate) type Miss = (usize, String);

/// The rows printing `name` (Mesa's mnemonic, a row's unique name or an applegpu alias).
pub(crate) fn candidates(name: &str) -> Vec<(usize, &'static Row)> {
    let name = ALIASES
        .iter()
        .find(|(alias, _)| *alias == name)
        .map_or(name, |(_, mesa)| mesa);
    rows()
        .iter()
        .enumerate()
        .filter(|(_, r)| r.def.display == name || r.def.name == name)
        .collect()
}

#[derive(Clone, Copy)]
enum Field<'r> {
    Dest(&'r OperandSlot),
    Src(&'r OperandSlot),
    Imm(usize),
    Mod(usize),
}

struct Search<'a, 'r> {
    row: &'r Row,
    tokens: &'a [Tok<'a>],
    fields: Vec<Field<'r>>,
    found: Vec<Partial>,
    steps: usize,
    furthest: Miss,
}

const MAX_SOLUTIONS: usize = 16;
const MAX_STEPS: usize = 20_000;

impl Search<'_, '_> {
    fn fail(&mut self, at: usize, what: String) {
        if at >= self.furthest.0 {
            self.furthest = (at, what);
        }
    }

    fn operand_cases(slot: &OperandSlot, op: &Operand) -> Vec<(u128, u128)> {
        slot.cases
            .iter()
            .filter_map(|c| encode_case(c, op))
            .filter_map(|l| place(slot, l))
            .collect()
    }

    fn absent_cases(slot: &OperandSlot) -> Vec<(u128, u128)> {
        slot.cases
            .iter()
            .filter_map(encode_absent)
            .filter_map(|l| place(slot, l))
            .collect()
    }

    fn go(&mut self, fi: usize, ti: usize, acc: Partial) {
        self.steps += 1;
        if self.found.len() >= MAX_SOLUTIONS || self.steps > MAX_STEPS {
            return;
        }
        let Some(&field) = self.fields.get(fi) else {
            if ti == self.tokens.len() {
                self.found.push(acc);
            } else {
                self.fail(ti, "no further operand".into());
            }
            return;
        };
        let tok = self.tokens.get(ti).copied();
        match field {
            Field::Dest(slot) | Field::Src(slot) => {
                let is_dest = matches!(field, Field::Dest(_));
                if let Some(t) = tok {
                    let options = if is_dest && t.absent {
                        Self::absent_cases(slot)
                    } else if let Some(op) = t.operand {
                        Self::operand_cases(slot, &op)
                    } else {
                        Vec::new()
                    };
                    if options.is_empty() {
                        self.fail(ti, format!("expected {}", slot.enc.name));
                    }
                    for (v, m) in options {
                        if let Some(next) = acc.merge(v, m) {
                            self.go(fi + 1, ti + 1, next);
                        }
                    }
                } else if is_dest {
                    self.fail(ti, format!("expected {}", slot.enc.name));
                }
                if !is_dest {
                    for (v, m) in Self::absent_cases(slot) {
                        if let Some(next) = acc.merge(v, m) {
                            self.go(fi + 1, ti, next);
                        }
                    }
                }
            }
            Field::Imm(i) => {
                let (def, bits) = &self.row.imms[i];
                let Some(t) = tok else {
                    self.fail(ti, format!("expected {}", def.name));
                    return;
                };
                let branch = def.name == "offset" && self.row.def.effects.contains(Effects::BRANCH);
                let value = match (t.int, branch) {
                    (Some(v), _) => Some(v),
                    (None, true) => t.branch,
                    (None, false) => None,
                };
                let w = bits.width();
                let fits = value.and_then(|v| {
                    let ok = if def.signed {
                        v >= -(1i64 << (w - 1)) && v < (1i64 << (w - 1))
                    } else {
                        v >= 0 && (v as u128) <= low_mask(w)
                    };
                    ok.then_some((v as u64) & (low_mask(w) as u64))
                });
                match fits {
                    Some(x) => {
                        if let Some(next) = acc.merge(bits.deposit(x), bits.mask()) {
                            self.go(fi + 1, ti + 1, next);
                        }
                    }
                    None => {
                        let what = if branch {
                            format!("expected a label or a byte offset that fits {w} bits")
                        } else {
                            format!(
                                "expected {} ({}{w}-bit integer)",
                                def.name,
                                if def.signed { "signed " } else { "" }
                            )
                        };
                        self.fail(ti, what);
                    }
                }
            }
            Field::Mod(i) => {
                let (def, bits) = &self.row.mods[i];
                let mut present = Vec::new();
                let mut absent = None;
                match def.kind {
                    ModKind::Flag => {
                        present.push((1u64, def.display));
                        absent = Some(0);
                    }
                    ModKind::Enum(e) => {
                        for (code, text) in e.values {
                            match text {
                                Some(t) => present.push((u64::from(*code), *t)),
                                None if absent.is_none() => absent = Some(u64::from(*code)),
                                None => {}
                            }
                        }
                    }
                }
                if let Some(t) = tok {
                    let mut any = false;
                    for (code, _) in present.iter().filter(|(_, text)| Some(*text) == t.word) {
                        any = true;
                        if let Some(next) = acc.merge(bits.deposit(*code), bits.mask()) {
                            self.go(fi + 1, ti + 1, next);
                        }
                    }
                    if !any {
                        let names: Vec<&str> = present.iter().map(|p| p.1).collect();
                        let what = if names.len() > 6 {
                            format!("expected {} ({}, ...)", def.name, names[..6].join(", "))
                        } else {
                            format!("expected {} ({})", def.name, names.join(", "))
                        };
                        self.fail(ti, what);
                    }
                }
                match absent {
                    Some(code) => {
                        if let Some(next) = acc.merge(bits.deposit(code), bits.mask()) {
                            self.go(fi + 1, ti, next);
                        }
                    }
                    None if tok.is_none() => self.fail(ti, format!("expected {}", def.name)),
                    None => {}
                }
            }
        }
    }
}

/// The shortest encoding among `candidates` of the operands `tokens` that `accept` takes
/// (the first found among those of one length), or where the search got furthest (an
/// empty message when every complete match was refused).
pub(crate) fn select(
    candidates: &[(usize, &'static Row)],
    tokens: &[Tok<'_>],
    accept: &mut dyn FnMut(&Row, &Instruction) -> bool,
) -> Result<Instruction, Miss> {
    let mut best: Option<Instruction> = None;
    let mut furthest: Miss = (0, String::new());
    for &(index, row) in candidates {
        let mut fields: Vec<Field> = Vec::new();
        fields.extend(row.dests.iter().map(Field::Dest));
        fields.extend(row.srcs.iter().map(Field::Src));
        fields.extend((0..row.imms.len()).map(Field::Imm));
        fields.extend((0..row.mods.len()).map(Field::Mod));
        let mut s = Search {
            row,
            tokens,
            fields,
            found: Vec::new(),
            steps: 0,
            furthest: (0, String::new()),
        };
        let start = Partial::default()
            .merge(row.exact_value, row.exact_mask)
            .unwrap_or_default();
        s.go(0, 0, start);
        if s.furthest.0 >= furthest.0 && !s.furthest.1.is_empty() {
            furthest = s.furthest.clone();
        }
        for p in s.found {
            let Some(ins) = finish(index, row, p, None) else {
                continue;
            };
            if best.as_ref().is_some_and(|b| ins.length >= b.length) || !accept(row, &ins) {
                continue;
            }
            best = Some(ins);
        }
    }
    best.ok_or(furthest)
}
