//! Test input generators for gpuabi: token-level mutation of example texts for its fuzz
//! targets, and random well-defined `.gsir` programs ([`program`]) for differential tests.
//!
//! A fuzz target that starts from a valid example program and makes a few word-level edits
//! reaches far deeper into a parser, verifier or simulator than random bytes do. The edits
//! are the same for every text format; what counts as a word boundary, how many edits are
//! made, how often each kind is picked and where new words come from belong to each target.

pub mod program;

use std::borrow::Cow;

use arbitrary::{Result, Unstructured};

/// One kind of edit [`Mutator::mutate`] makes to an example's list of words.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Edit {
    /// Remove a word.
    Delete,
    /// Repeat a word in place.
    Duplicate,
    /// Move a word to another position.
    Move,
    /// Replace a word by a new one.
    Replace,
    /// Insert a new word before a word.
    Insert,
}

/// How a fuzz target cuts its examples into words and edits them.
#[derive(Debug, Clone, Copy)]
pub struct Mutator<'e> {
    /// Characters that end a word; each stays attached to the word it ends, so the words
    /// concatenate back to the text.
    pub ends_word: fn(char) -> bool,
    /// The most edits made to one text (at least one is made).
    pub max_edits: u32,
    /// The edits to pick from, uniformly; list a kind more than once to weight it.
    pub edits: &'e [Edit],
}

impl Mutator<'_> {
    /// Returns `text` after one to `max_edits` random edits. New words for
    /// [`Edit::Replace`] and [`Edit::Insert`] come from `new_word`, which is told which of
    /// the two it is for.
    pub fn mutate<'a>(
        &self,
        u: &mut Unstructured<'a>,
        text: &str,
        mut new_word: impl FnMut(&mut Unstructured<'a>, Edit) -> Result<String>,
    ) -> Result<String> {
        let mut words: Vec<Cow<'_, str>> = text
            .split_inclusive(self.ends_word)
            .map(Cow::Borrowed)
            .collect();
        for _ in 0..u.int_in_range(1..=self.max_edits)? {
            if words.is_empty() {
                break;
            }
            let i = u.choose_index(words.len())?;
            match *u.choose(self.edits)? {
                Edit::Delete => {
                    words.remove(i);
                }
                Edit::Duplicate => {
                    let w = words[i].clone();
                    words.insert(i, w);
                }
                Edit::Move => {
                    let w = words.remove(i);
                    let j = u.int_in_range(0..=words.len())?;
                    words.insert(j, w);
                }
                edit @ Edit::Replace => words[i] = Cow::Owned(new_word(u, edit)?),
                edit @ Edit::Insert => {
                    let w = new_word(u, edit)?;
                    words.insert(i, Cow::Owned(w));
                }
            }
        }
        Ok(words.concat())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const SPACES: Mutator<'static> = Mutator {
        ends_word: |c| c == ' ',
        max_edits: 3,
        edits: &[
            Edit::Delete,
            Edit::Duplicate,
            Edit::Move,
            Edit::Replace,
            Edit::Insert,
        ],
    };

    /// The words of `text` as a sorted multiset, for comparing texts up to order.
    fn sorted_words(text: &str) -> Vec<&str> {
        let mut w: Vec<&str> = text.split_inclusive(' ').collect();
        w.sort_unstable();
        w
    }

    #[test]
    fn each_edit_does_what_it_says() {
        let text = "a b c d ";
        for (edit, check) in [
            (Edit::Delete, 3usize),
            (Edit::Duplicate, 5),
            (Edit::Move, 4),
            (Edit::Replace, 4),
            (Edit::Insert, 5),
        ] {
            let m = Mutator {
                max_edits: 1,
                edits: &[edit],
                ..SPACES
            };
            // Whichever word the bytes pick, the word counts are fixed by the edit.
            let bytes = [0u8, 1, 3, 0, 0, 0, 0, 0];
            let mut u = Unstructured::new(&bytes);
            let mut asked = None;
            let out = m
                .mutate(&mut u, text, |_, e| {
                    asked = Some(e);
                    Ok("X ".to_string())
                })
                .unwrap();
            assert_eq!(out.split_inclusive(' ').count(), check, "{edit:?}: {out:?}");
            match edit {
                Edit::Delete => assert_eq!(sorted_words(&out).len(), 3),
                Edit::Duplicate | Edit::Move => {
                    assert!(!out.contains('X'));
                    assert!(sorted_words(&out).iter().all(|w| text.contains(w)));
                }
                Edit::Replace | Edit::Insert => {
                    assert_eq!(asked, Some(edit));
                    assert_eq!(out.matches("X ").count(), 1);
                }
            }
        }
    }

    #[test]
    fn words_concatenate_back_to_the_text_when_nothing_changes() {
        // A move of a word to its own place leaves the text as it was.
        let m = Mutator {
            max_edits: 1,
            edits: &[Edit::Move],
            ..SPACES
        };
        let text = "x, y\nz ";
        let bytes = [0u8, 0, 0, 0];
        let out = m
            .mutate(&mut Unstructured::new(&bytes), text, |_, _| {
                unreachable!("a move makes no new word")
            })
            .unwrap();
        assert_eq!(out, text);
    }

    #[test]
    fn an_empty_text_stays_empty() {
        let out = SPACES
            .mutate(&mut Unstructured::new(&[7; 16]), "", |_, _| Ok("X".into()))
            .unwrap();
        assert_eq!(out, "");
    }
}
