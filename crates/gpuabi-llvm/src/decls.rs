//! Declarations of the intrinsics a module uses, written once each, sorted by name.

use std::collections::BTreeSet;

/// The `declare` lines a module needs.
#[derive(Debug, Default)]
pub(crate) struct Decls(BTreeSet<String>);

impl Decls {
    /// Records `declare RET @NAME(ARGS)`.
    pub(crate) fn add(&mut self, ret: &str, name: &str, args: &[&str]) {
        self.0
            .insert(format!("declare {ret} @{name}({})", args.join(", ")));
    }

    /// The declarations, one a line.
    pub(crate) fn text(&self) -> String {
        self.0.iter().map(|d| format!("{d}\n")).collect()
    }
}
