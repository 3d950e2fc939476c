//! Structured regions: the bodies of functions, `if` arms and loops.

use super::Instr;

/// A straight-line list of instructions; control flow is nested inside `if` and `loop`
/// instructions, as in NIR's structured control flow.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Region {
    /// The instructions, in order. Only the last may be a terminator.
    pub instrs: Vec<Instr>,
}

impl Region {
    /// Every instruction of the region and of the regions nested in it, each `if` and
    /// `loop` before the instructions of its own regions (then arm, else arm, body).
    pub fn instrs_deep(&self) -> Vec<&Instr> {
        let mut out = Vec::new();
        let mut stack: Vec<std::slice::Iter<'_, Instr>> = vec![self.instrs.iter()];
        while let Some(top) = stack.last_mut() {
            let Some(i) = top.next() else {
                stack.pop();
                continue;
            };
            out.push(i);
            // Pushed in reverse so the then arm is walked before the else arm.
            let nested: Vec<&Region> = i.kind.regions().collect();
            for r in nested.into_iter().rev() {
                stack.push(r.instrs.iter());
            }
        }
        out
    }

    /// True when the region can run off its end (it is empty or its last instruction is not
    /// a terminator).
    pub fn falls_through(&self) -> bool {
        !matches!(self.instrs.last(), Some(i) if i.kind.is_terminator())
    }
}

#[cfg(test)]
mod tests {
    use crate::ir::InstrKind;

    #[test]
    fn instrs_deep_walks_nested_regions_in_order() {
        let src = "fn @k(%out: ptr, %c: i1) kernel {\n  %a = add i32 1, 2\n  if %c {\n    \
                   %b = add i32 3, 4\n  } else {\n    %d = add i32 5, 6\n  }\n  \
                   %e = loop (%i: i32 = 0) -> i32 {\n    break %i\n  }\n  \
                   store i32 %e, %out\n  ret\n}\n";
        let m = crate::parse(src).unwrap();
        let kinds: Vec<&str> = m.functions[0]
            .body
            .instrs_deep()
            .iter()
            .map(|i| match &i.kind {
                InstrKind::Op(o) => match o.args.first() {
                    Some(crate::ir::Operand::Imm { bits, .. }) => match bits {
                        1 => "add1",
                        3 => "add3",
                        5 => "add5",
                        _ => "store",
                    },
                    _ => "store",
                },
                InstrKind::If { .. } => "if",
                InstrKind::Loop { .. } => "loop",
                InstrKind::Yield(_) => "yield",
                InstrKind::Break(_) => "break",
                InstrKind::Ret(_) => "ret",
                _ => "other",
            })
            .collect();
        assert_eq!(
            kinds,
            ["add1", "if", "add3", "add5", "loop", "break", "store", "ret"]
        );
    }
}
