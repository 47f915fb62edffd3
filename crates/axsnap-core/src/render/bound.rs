//! The caps of [`crate::caps`] as the renderers apply them: one field, one line of the text
//! form, and whole nodes and diffs for the JSON forms (copied only when something is over).

use std::borrow::Cow;

use super::text_change;
use crate::caps::{cap, cap_paged, cut_counted, ID_CHARS, LINE_CHARS, OPTION_CHARS, TEXT_CHARS, URL_CHARS};
use crate::diff::{Diff, FieldChange, Op};
use crate::role::Role;
use crate::snapshot::Header;
use crate::tree::Node;

/// A name, value, description or text.
pub(super) fn text(s: &str) -> Cow<'_, str> {
    cap(s, TEXT_CHARS)
}

/// A node's value: past the text cap, its first page, whose marker says where the next one
/// starts (`…+515 chars: from=1985`, read on with `snapshot ref=… from=1985`).
pub(super) fn value(s: &str) -> Cow<'_, str> {
    cap_paged(s, TEXT_CHARS, 0)
}

/// A URL.
pub(super) fn url(s: &str) -> Cow<'_, str> {
    cap(s, URL_CHARS)
}

/// One select option.
pub(super) fn option(s: &str) -> Cow<'_, str> {
    cap(s, OPTION_CHARS)
}

/// A platform role, a developer id.
pub(super) fn id(s: &str) -> Cow<'_, str> {
    cap(s, ID_CHARS)
}

/// The header with its title and URL capped.
pub(super) fn header(h: &Header) -> Cow<'_, Header> {
    let (title, url) = (h.title.as_deref().map(title), h.url.as_deref().map(url));
    if matches!(title, None | Some(Cow::Borrowed(_))) && matches!(url, None | Some(Cow::Borrowed(_))) {
        return Cow::Borrowed(h);
    }
    Cow::Owned(Header { title: title.map(Cow::into_owned), url: url.map(Cow::into_owned) })
}

/// A page or window title.
pub(super) fn title(s: &str) -> Cow<'_, str> {
    cap(s, crate::caps::TITLE_CHARS)
}

/// Ends the line that starts at `start` in `out` (not yet with its newline): past
/// [`LINE_CHARS`] it is cut, with the marker. Fields are capped before they are written, so
/// this only bites when escaping made a line longer than its fields.
pub(super) fn end_line(out: &mut String, start: usize) {
    if out.len() - start <= LINE_CHARS {
        return;
    }
    let total = out[start..].chars().count();
    if total <= LINE_CHARS {
        return;
    }
    let mut line = out.split_off(start);
    cut_counted(&mut line, total, LINE_CHARS);
    out.push_str(&line);
}

fn over(s: &str, max: usize) -> bool {
    s.len() > max && s.chars().count() > max
}

fn over_opt(s: &Option<String>, max: usize) -> bool {
    s.as_deref().is_some_and(|s| over(s, max))
}

fn over_role(r: &Role) -> bool {
    matches!(r, Role::Other(s) if over(s, ID_CHARS))
}

/// Whether a node has a field past its cap.
fn node_over(n: &Node) -> bool {
    over(&n.name, TEXT_CHARS)
        || over_opt(&n.value, TEXT_CHARS)
        || over_opt(&n.description, TEXT_CHARS)
        || over_opt(&n.url, URL_CHARS)
        || over_opt(&n.dev_id, ID_CHARS)
        || over_role(&n.role)
        || n.options.iter().any(|o| over(o, OPTION_CHARS))
}

fn cap_in_place(s: &mut String, max: usize) {
    if let Cow::Owned(c) = cap(s, max) {
        *s = c;
    }
}

fn cap_opt(s: &mut Option<String>, max: usize) {
    if let Some(s) = s {
        cap_in_place(s, max);
    }
}

fn cap_role(r: &mut Role) {
    if let Role::Other(s) = r {
        cap_in_place(s, ID_CHARS);
    }
}

fn cap_node(n: &mut Node) {
    cap_in_place(&mut n.name, TEXT_CHARS);
    if let Some(v) = &mut n.value {
        if let Cow::Owned(c) = value(v) {
            *v = c;
        }
    }
    cap_opt(&mut n.description, TEXT_CHARS);
    cap_opt(&mut n.url, URL_CHARS);
    cap_opt(&mut n.dev_id, ID_CHARS);
    cap_role(&mut n.role);
    for o in &mut n.options {
        cap_in_place(o, OPTION_CHARS);
    }
}

/// `n` with every field capped (borrowed when all fit).
pub(super) fn node(n: &Node) -> Cow<'_, Node> {
    if !node_over(n) {
        return Cow::Borrowed(n);
    }
    let mut c = n.clone();
    cap_node(&mut c);
    Cow::Owned(c)
}

fn change_over(c: &FieldChange) -> bool {
    match c {
        FieldChange::Role { old, new } => over_role(old) || over_role(new),
        FieldChange::Name { old, new } => {
            text_change::is_long_text(old, new) || over(old, TEXT_CHARS) || over(new, TEXT_CHARS)
        }
        FieldChange::Value { old, new } | FieldChange::Description { old, new } => {
            text_change::is_long(old, new) || over_opt(old, TEXT_CHARS) || over_opt(new, TEXT_CHARS)
        }
        FieldChange::Url { old, new } => over_opt(old, URL_CHARS) || over_opt(new, URL_CHARS),
        FieldChange::DevId { old, new } => over_opt(old, ID_CHARS) || over_opt(new, ID_CHARS),
        FieldChange::Options { old, new } => old.iter().chain(new).any(|o| over(o, OPTION_CHARS)),
        _ => false,
    }
}

fn cap_change(c: &mut FieldChange) {
    // A long value's change is read as its span, not as two copies of the text.
    if let Some(edit) = text_change::as_edit(c) {
        *c = edit;
        return;
    }
    match c {
        FieldChange::Role { old, new } => {
            cap_role(old);
            cap_role(new);
        }
        FieldChange::Name { old, new } => {
            cap_in_place(old, TEXT_CHARS);
            cap_in_place(new, TEXT_CHARS);
        }
        FieldChange::Value { old, new } | FieldChange::Description { old, new } => {
            cap_opt(old, TEXT_CHARS);
            cap_opt(new, TEXT_CHARS);
        }
        FieldChange::Url { old, new } => {
            cap_opt(old, URL_CHARS);
            cap_opt(new, URL_CHARS);
        }
        FieldChange::DevId { old, new } => {
            cap_opt(old, ID_CHARS);
            cap_opt(new, ID_CHARS);
        }
        FieldChange::Options { old, new } => {
            for o in old.iter_mut().chain(new.iter_mut()) {
                cap_in_place(o, OPTION_CHARS);
            }
        }
        _ => {}
    }
}

fn op_over(op: &Op) -> bool {
    match op {
        Op::Add { subtree, .. } | Op::Replace { subtree, .. } => {
            subtree.nodes.iter().any(|n| node_over(&n.node))
        }
        Op::Update { changes, .. } => changes.iter().any(change_over),
        Op::Remove { .. } | Op::Move { .. } => false,
    }
}

/// `d` with every text in it capped (borrowed when all fit), a long value's change made its
/// span ([`FieldChange::Edit`]). A capped diff no longer applies exactly to the full trees;
/// it is for reading.
pub(super) fn diff(d: &Diff) -> Cow<'_, Diff> {
    if !d.ops.iter().any(op_over) {
        return Cow::Borrowed(d);
    }
    let mut c = d.clone();
    for op in &mut c.ops {
        match op {
            Op::Add { subtree, .. } | Op::Replace { subtree, .. } => {
                subtree.nodes.iter_mut().for_each(|n| cap_node(&mut n.node));
            }
            Op::Update { changes, .. } => changes.iter_mut().for_each(cap_change),
            Op::Remove { .. } | Op::Move { .. } => {}
        }
    }
    Cow::Owned(c)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diff::{NewNode, NewSubtree};
    use crate::refs::Ref;
    use crate::tree::NativeId;

    #[test]
    fn nodes_and_diffs_are_copied_only_when_over() {
        let small = Node::new(Role::Button, "OK", NativeId::new("d", "1"));
        assert!(matches!(node(&small), Cow::Borrowed(_)));
        let mut big = small.clone();
        big.name = "n".repeat(1 << 20);
        big.url = Some(format!("data:{}", "u".repeat(5_000)));
        big.options = vec!["o".repeat(1_000)];
        let c = node(&big);
        assert_eq!(c.name.chars().count(), TEXT_CHARS);
        assert!(c.name.ends_with("…+1,046,593 chars"), "{}", &c.name[1_900..]);
        assert_eq!(c.url.as_ref().unwrap().chars().count(), URL_CHARS);
        assert_eq!(c.options[0].chars().count(), OPTION_CHARS);

        let d = |n: Node| Diff {
            from_seq: 1,
            to_seq: 2,
            ops: vec![
                Op::Add {
                    parent: Ref(1),
                    after: None,
                    subtree: NewSubtree { nodes: vec![NewNode { depth: 0, node: n.clone() }] },
                },
                Op::Update { r: Ref(2), changes: vec![FieldChange::Name { old: "a".into(), new: n.name }] },
            ],
            unchanged: 0,
        };
        assert!(matches!(diff(&d(small)), Cow::Borrowed(_)));
        let big_diff = d(big);
        let capped = diff(&big_diff);
        let json = serde_json::to_string(&*capped).unwrap();
        assert!(json.len() < 3 * TEXT_CHARS + URL_CHARS + OPTION_CHARS + 500, "{}", json.len());
        assert_eq!(json.matches("…+1,046,593 chars").count(), 1, "the added node's name");
        // The renamed node's change is its span, the new text paged from where it starts.
        assert!(json.contains(r#""field":"edit","of":"name""#), "{}", &json[..300]);
        assert!(json.contains(" chars: from="), "the edit's inserted text says where to read on");
    }

    #[test]
    fn lines_past_the_limit_are_cut_with_the_marker() {
        let mut out = "before\n".to_string();
        let start = out.len();
        out.push_str(&"\\u{1}".repeat(LINE_CHARS));
        end_line(&mut out, start);
        assert_eq!(out[start..].chars().count(), LINE_CHARS);
        assert!(out.ends_with(" chars") && out.starts_with("before\n"));
        let mut short = "x".repeat(10);
        end_line(&mut short, 0);
        assert_eq!(short, "x".repeat(10));
    }
}
