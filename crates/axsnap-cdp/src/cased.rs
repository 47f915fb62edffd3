//! Names as written: the accessibility tree's names undo CSS `text-transform`.
//!
//! Chromium names elements from their text as rendered, so a label styled `text-transform:
//! uppercase` names its field `"AUTHOR"` and a `capitalize` button reads `"Save Draft"`,
//! where the document says `Author` and `save draft` (and every other tool says so too). The
//! DOM snapshot holds both forms of each text node: its value as written and its text as laid
//! out. A text node whose two forms differ only in letter case was transformed; its laid-out
//! form found in a name is put back as written.
//!
//! A text's own node (the accessibility tree's static text of that DOM text node) always takes
//! its written form. In other names (a field named by its label, a button by its content) a
//! transformed text is put back only where it is unambiguous: as whole words, and only when no
//! text written that way appears untransformed in the document (a heading that really says
//! `NASA` is not made `nasa` because a transformed label said `nasa`) and the text was written
//! one way only.

use std::borrow::Cow;
use std::collections::HashMap;

use aho_corasick::{AhoCorasick, MatchKind};

/// The transformed texts of one document, and how to put them back.
#[derive(Debug, Default)]
pub(crate) struct Casing {
    /// Backend id of a transformed text node -> (as laid out, as written), whitespace collapsed.
    own: HashMap<i64, (String, String)>,
    /// For names other than a text's own: the unambiguous laid-out forms, and their written
    /// forms (`written[k]` for pattern `k`).
    search: Option<(AhoCorasick, Vec<String>)>,
}

/// One text node of a document: its backend id, its value as written, and its text as laid
/// out (`None`: not laid out).
pub(crate) struct TextNode<'s> {
    pub backend: i64,
    pub written: &'s str,
    pub laid_out: Option<&'s str>,
}

impl Casing {
    /// Finds the transformed texts among a document's text nodes.
    pub(crate) fn of<'s>(texts: impl Iterator<Item = TextNode<'s>>) -> Casing {
        let mut own = HashMap::new();
        let mut plain: Vec<&'s str> = Vec::new();
        for t in texts {
            match t.laid_out.filter(|l| *l != t.written) {
                Some(laid) => {
                    let (laid, written) = (collapse(laid), collapse(t.written));
                    if laid != written && same_but_case(&laid, &written) {
                        own.insert(t.backend, (laid, written));
                    } else {
                        plain.push(t.written);
                    }
                }
                None => plain.push(t.written),
            }
        }
        if own.is_empty() {
            return Casing::default();
        }
        // Each laid-out form with the one way it was written; two ways make it ambiguous.
        let mut written_as: HashMap<&str, Option<&str>> = HashMap::new();
        for (laid, written) in own.values() {
            written_as
                .entry(laid.as_str())
                .and_modify(|w| {
                    if *w != Some(written.as_str()) {
                        *w = None
                    }
                })
                .or_insert(Some(written.as_str()));
        }
        let mut candidates: Vec<(&str, &str)> =
            written_as.into_iter().filter_map(|(l, w)| w.map(|w| (l, w))).collect();
        candidates.sort_unstable();
        // Drop the forms that also appear untransformed: there, the laid-out form is as written.
        if let Ok(ac) = AhoCorasick::new(candidates.iter().map(|(l, _)| *l)) {
            let mut seen = vec![false; candidates.len()];
            for text in plain {
                for m in ac.find_overlapping_iter(text) {
                    seen[m.pattern().as_usize()] = true;
                }
            }
            candidates = candidates.into_iter().zip(seen).filter(|(_, s)| !s).map(|(c, _)| c).collect();
        }
        let search = (!candidates.is_empty())
            .then(|| {
                let ac = AhoCorasick::builder()
                    .match_kind(MatchKind::LeftmostLongest)
                    .build(candidates.iter().map(|(l, _)| *l))
                    .ok()?;
                Some((ac, candidates.iter().map(|(_, w)| (*w).to_string()).collect()))
            })
            .flatten();
        Casing { own, search }
    }

    /// Whether the text node `backend` was transformed (laid out other than written, but for
    /// case).
    pub(crate) fn transformed(&self, backend: i64) -> bool {
        self.own.contains_key(&backend)
    }

    /// Whether the document has no transformed text (nothing to put back).
    pub(crate) fn is_empty(&self) -> bool {
        self.own.is_empty()
    }

    /// `name` as written, for the node of DOM node `backend`.
    pub(crate) fn restore<'n>(&self, backend: Option<i64>, name: &'n str) -> Cow<'n, str> {
        if self.own.is_empty() || name.is_empty() {
            return Cow::Borrowed(name);
        }
        if let Some((laid, written)) = backend.and_then(|b| self.own.get(&b)) {
            if let Some(at) = name.find(laid.as_str()) {
                let mut out = String::with_capacity(name.len());
                out.push_str(&name[..at]);
                out.push_str(written);
                out.push_str(&name[at + laid.len()..]);
                return Cow::Owned(out);
            }
        }
        let Some((ac, written)) = &self.search else { return Cow::Borrowed(name) };
        let mut out: Option<String> = None;
        let mut done = 0;
        for m in ac.find_iter(name) {
            if !whole_words(name, m.start(), m.end()) {
                continue;
            }
            let o = out.get_or_insert_with(|| String::with_capacity(name.len()));
            o.push_str(&name[done..m.start()]);
            o.push_str(&written[m.pattern().as_usize()]);
            done = m.end();
        }
        match out {
            Some(mut o) => {
                o.push_str(&name[done..]);
                Cow::Owned(o)
            }
            None => Cow::Borrowed(name),
        }
    }
}

/// Runs of whitespace as one space, trimmed (as names are).
fn collapse(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// Whether `a` and `b` are the same letters but for case, character for character.
fn same_but_case(a: &str, b: &str) -> bool {
    a.chars().count() == b.chars().count()
        && a.chars().zip(b.chars()).all(|(x, y)| x == y || x.to_lowercase().eq(y.to_lowercase()))
}

/// Whether `s[start..end]` starts and ends at word boundaries.
fn whole_words(s: &str, start: usize, end: usize) -> bool {
    let before = s[..start].chars().next_back().is_none_or(|c| !c.is_alphanumeric());
    let after = s[end..].chars().next().is_none_or(|c| !c.is_alphanumeric());
    before && after
}

#[cfg(test)]
mod tests {
    use super::*;

    fn casing(texts: &[(i64, &str, Option<&str>)]) -> Casing {
        Casing::of(texts.iter().map(|&(backend, written, laid_out)| TextNode { backend, written, laid_out }))
    }

    #[test]
    fn a_transformed_text_is_put_back_in_its_own_node_and_in_names_that_hold_it() {
        let c = casing(&[
            (1, "Author", Some("AUTHOR")),
            (2, "Post  address ", Some("POST  ADDRESS ")),
            (3, "save draft", Some("Save Draft")),
            (4, "Plain text", Some("Plain text")),
        ]);
        assert_eq!(c.restore(Some(1), "AUTHOR"), "Author");
        assert_eq!(c.restore(Some(2), "POST ADDRESS "), "Post address ");
        // A field named by its label, a button by its content.
        assert_eq!(c.restore(Some(99), "AUTHOR"), "Author");
        assert_eq!(c.restore(None, "POST ADDRESS"), "Post address");
        assert_eq!(c.restore(None, "Save Draft"), "save draft");
        assert_eq!(c.restore(None, "Plain text"), "Plain text");
        // Only whole words.
        assert_eq!(c.restore(None, "COAUTHORS"), "COAUTHORS");
        assert_eq!(c.restore(None, "AUTHOR: Jane"), "Author: Jane");
    }

    #[test]
    fn a_form_also_written_as_laid_out_is_left_alone_elsewhere() {
        // A transformed label says "nasa"; a heading really says "NASA".
        let c = casing(&[(1, "nasa", Some("NASA")), (2, "NASA missions", Some("NASA missions"))]);
        assert_eq!(c.restore(None, "NASA missions"), "NASA missions");
        assert_eq!(c.restore(None, "NASA"), "NASA");
        // Its own text node is still put back.
        assert_eq!(c.restore(Some(1), "NASA"), "nasa");
    }

    #[test]
    fn a_form_written_two_ways_is_left_alone_elsewhere() {
        let c = casing(&[(1, "Save", Some("SAVE")), (2, "save", Some("SAVE"))]);
        assert_eq!(c.restore(None, "SAVE"), "SAVE");
        assert_eq!(c.restore(Some(2), "SAVE"), "save");
    }

    #[test]
    fn text_changed_by_more_than_case_is_not_a_transform() {
        // `content` or a script-made layout text, `ß` uppercased to `SS`.
        let c = casing(&[(1, "straße", Some("STRASSE")), (2, "a", Some("b"))]);
        assert!(c.is_empty());
        assert_eq!(c.restore(Some(1), "STRASSE"), "STRASSE");
    }
}
