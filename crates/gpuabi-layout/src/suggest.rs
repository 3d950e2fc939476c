//! Messages for a name that is not one of the valid choices, shared by every crate that
//! reads names: an "unknown X" says what the choices are, and which of them is nearest
//! when the name looks like a typo.

/// Choices listed in full up to this many; beyond it only the nearest ones are named.
const LISTED: usize = 24;

/// The choices nearest to `given`: those within a third of its length (at least 2 edits),
/// nearest first, at most three.
pub fn nearest<'a>(given: &str, choices: &[&'a str]) -> Vec<&'a str> {
    let limit = (given.chars().count() / 3).max(2);
    let mut near: Vec<(usize, &str)> = choices
        .iter()
        .map(|c| (strsim::levenshtein(given, c), *c))
        .filter(|(d, _)| *d <= limit)
        .collect();
    near.sort();
    near.into_iter().take(3).map(|(_, c)| c).collect()
}

/// `` `given`; did you mean `near`? (WHATS: a, b, c) `` — the tail of an "unknown X" or
/// "no X" message: the nearest choices, then all of them (or, past [`LISTED`], how many).
pub fn suggest(given: &str, whats: &str, choices: &[&str]) -> String {
    let mut out = format!("`{given}`");
    let near = nearest(given, choices);
    if !near.is_empty() {
        let quoted: Vec<String> = near.iter().map(|c| format!("`{c}`")).collect();
        out.push_str(&format!("; did you mean {}?", quoted.join(" or ")));
    }
    match choices.len() {
        0 => out.push_str(&format!(" (there are no {whats})")),
        n if n <= LISTED => out.push_str(&format!(" ({whats}: {})", choices.join(", "))),
        n => out.push_str(&format!(" ({n} {whats})")),
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn typos_find_their_choice() {
        assert_eq!(nearest("sxpy", &["saxpy", "other"]), ["saxpy"]);
        assert_eq!(
            suggest("sxpy", "kernels", &["saxpy", "other"]),
            "`sxpy`; did you mean `saxpy`? (kernels: saxpy, other)"
        );
        assert_eq!(suggest("x", "buffers", &["out"]), "`x` (buffers: out)");
        assert_eq!(suggest("x", "buffers", &[]), "`x` (there are no buffers)");
    }
}
