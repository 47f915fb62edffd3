//! A query read into words: which are optional, and which name kinds of element.

use super::kinds::KINDS;
use super::words::{stem, words, Word};
use crate::role::Role;

/// Words past this many are ignored (nobody names an element in more).
pub(super) const MAX_QUERY_WORDS: usize = 16;
/// Only the start of a query is read (an MCP argument may be 10 MB).
const MAX_QUERY_BYTES: usize = 1024;

/// Words that carry little: they count when an element has them ("Log in", "Remember me")
/// and are not missed when it has not ("click the sign in button").
const STOP_WORDS: &[&str] = &[
    "the", "a", "an", "to", "of", "in", "on", "for", "with", "and", "or", "my", "your", "our", "this",
    "that", "at", "by", "from", "is", "it", "me", "click", "press", "tap",
];

/// A parsed query.
pub(super) struct Query {
    /// Its words, in order.
    pub words: Vec<Word>,
    /// Per word: a stop word (optional). All false when the query is only stop words.
    pub optional: Vec<bool>,
    /// Bits of the words that are not optional.
    pub required: u32,
    /// Kind phrases found: the bits of their words and the roles they name.
    pub kinds: Vec<(u32, &'static [Role])>,
}

impl Query {
    /// Reads a query.
    pub fn parse(q: &str) -> Query {
        let mut end = q.len().min(MAX_QUERY_BYTES);
        while !q.is_char_boundary(end) {
            end -= 1;
        }
        let mut all = words(&q[..end]);
        all.truncate(MAX_QUERY_WORDS);
        let stop: Vec<bool> = all.iter().map(|w| STOP_WORDS.contains(&w.text.as_str())).collect();
        let optional = if stop.iter().all(|s| *s) { vec![false; all.len()] } else { stop };
        let required = optional.iter().enumerate().filter(|(_, o)| !**o).fold(0, |m, (i, _)| m | 1 << i);
        let mut kinds = Vec::new();
        for (phrase, roles) in KINDS {
            let p: Vec<String> = phrase.split(' ').map(stem).collect();
            for i in 0..all.len().saturating_sub(p.len() - 1) {
                if p.iter().zip(&all[i..]).all(|(a, b)| *a == b.stem) {
                    kinds.push((((1u32 << p.len()) - 1) << i, *roles));
                }
            }
        }
        Query { words: all, optional, required, kinds }
    }

    /// Bits of the words that name `role` as a kind.
    pub fn kind_mask(&self, role: &Role) -> u32 {
        self.kinds.iter().filter(|(_, roles)| roles.contains(role)).fold(0, |m, (bits, _)| m | bits)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kinds_overlap_and_match_by_stem() {
        let q = Query::parse("search box");
        assert_eq!(q.kind_mask(&Role::SearchBox), 0b11);
        assert_eq!(q.kind_mask(&Role::TextBox), 0b10);
        let q = Query::parse("notification checkboxes");
        assert_eq!(q.kind_mask(&Role::CheckBox), 0b10);
        assert_eq!(q.kind_mask(&Role::Switch), 0b10);
        let q = Query::parse("language select");
        assert_eq!(q.kind_mask(&Role::ComboBox), 0b10);
        assert_eq!(q.kind_mask(&Role::ListBox), 0b10);
        assert_eq!(Query::parse("e-mail field").kind_mask(&Role::TextBox), 0b100);
        assert_eq!(Query::parse("drop-down").kind_mask(&Role::ComboBox), 0b11);
    }

    #[test]
    fn stop_words_are_optional_unless_alone() {
        let q = Query::parse("click the sign in button");
        assert_eq!(q.optional, [true, true, false, true, false]);
        assert_eq!(q.required, 0b10100);
        let q = Query::parse("the");
        assert_eq!(q.optional, [false]);
        assert_eq!(q.required, 1);
    }

    #[test]
    fn long_queries_are_cut() {
        let q = Query::parse(&"word ".repeat(2_000_000));
        assert_eq!(q.words.len(), MAX_QUERY_WORDS);
        let q = Query::parse(&"x".repeat(10_000_000));
        assert_eq!(q.words.len(), 1);
        assert!(q.words[0].text.len() <= MAX_QUERY_BYTES);
    }
}
