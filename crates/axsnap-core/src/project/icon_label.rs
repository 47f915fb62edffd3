//! An icon beside a label that says the same: the control's name said once.
//!
//! Sites draw an action as an icon and its label, `<a><img alt="Edit">&nbsp;Edit</a>`
//! (phpMyAdmin's every table action and tab). The browser names the control from its content,
//! the icon's alternative text and the label both: `link "Edit Edit"`, over `image "Edit"` and
//! `text: Edit`, the one word said three times (`link "Browse Browse (current)"` over the icon,
//! `Browse` and `(current)`). When every icon in the control says what the label next to it
//! begins (or, after it, ends) with, the icon adds nothing to the name: the control is named by its labels alone
//! (`link "Edit"`, `link "Browse (current)"`), and its children, which then only spell that
//! name, go. An icon whose text differs from the label beside it (`image "Structure"` beside
//! `products`) is content of its own, and nothing changes.

use crate::role::Role;
use crate::tree::{NodeId, Tree};

use super::text::{self, is_blank, is_blank_opt};

/// A piece of a control's content: an icon's alternative text, or a label's text.
enum Piece<'t> {
    Icon(&'t str),
    Label(&'t str),
}

/// The name a control named `name` has with its icons left out, when its children `kids` are
/// icons and labels only that, read in order, spell `name` word for word, and every icon says
/// what a label right next to it says (the label after it begins with the icon's words, or
/// the one before it ends with them: `Browse` beside `Browse (current)`). `None` when anything
/// else is in it, or nothing would change.
///
/// `shown` gives the text a child shows when it is only text (rule 4's reading of a label).
pub(super) fn name_without_icons<'t>(
    tree: &'t Tree,
    name: &str,
    kids: &[NodeId],
    shown: impl Fn(&'t Tree, NodeId) -> Option<&'t str>,
) -> Option<String> {
    if is_blank(name) || kids.len() < 2 {
        return None;
    }
    let pieces = kids
        .iter()
        .map(|&k| match icon_text(tree, k) {
            Some(alt) => Some(Piece::Icon(alt)),
            None => shown(tree, k).map(Piece::Label),
        })
        .collect::<Option<Vec<Piece>>>()?;
    let label_at = |i: usize| match pieces.get(i) {
        Some(Piece::Label(t)) => Some(*t),
        _ => None,
    };
    let mut icons = 0;
    for (i, p) in pieces.iter().enumerate() {
        if let Piece::Icon(alt) = p {
            icons += 1;
            // The label after the icon begins with what it says, or the one before ends so.
            let after = label_at(i + 1).is_some_and(|l| text::has_words_at(l, alt, false));
            let before =
                i.checked_sub(1).and_then(label_at).is_some_and(|l| text::has_words_at(l, alt, true));
            if !(after || before) {
                return None;
            }
        }
    }
    if icons == 0 {
        return None;
    }
    let all = pieces.iter().map(|p| match p {
        Piece::Icon(t) | Piece::Label(t) => *t,
    });
    if !text::words_read_as(name, all) {
        return None;
    }
    let labels: Vec<&str> = pieces
        .iter()
        .filter_map(|p| match p {
            Piece::Label(t) => Some(*t),
            Piece::Icon(_) => None,
        })
        .collect();
    Some(text::joined_words(labels.into_iter()))
}

/// The alternative text of an icon: an image leaf with a name, nothing to do and nothing to
/// say but that name (a `title` repeating its `alt` says nothing more).
fn icon_text(tree: &Tree, id: NodeId) -> Option<&str> {
    let n = tree.node(id);
    let plain = n.role == Role::Image
        && n.children.is_empty()
        && n.actions.is_empty()
        && is_blank_opt(&n.value)
        && !is_blank(&n.name)
        && n.description.as_deref().is_none_or(|d| is_blank(d) || text::same_words(d, &n.name));
    plain.then_some(n.name.as_str())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tree::{NativeId, Node};

    /// A link named `name` over the given pieces (`Some(alt)` an icon, `None` then the text).
    fn link(name: &str, pieces: &[(Role, &str)]) -> (Tree, Vec<NodeId>) {
        let mut t = Tree::with_root(Node::new(Role::Link, name, NativeId::new("d", "a")));
        let root = t.root().unwrap_or_else(|| unreachable!());
        let kids = pieces
            .iter()
            .enumerate()
            .map(|(i, (role, s))| {
                let mut n = Node::new(role.clone(), *s, NativeId::new("d", i.to_string()));
                if *role == Role::Image {
                    n.description = Some(s.to_string());
                }
                t.append(root, n)
            })
            .collect();
        (t, kids)
    }

    fn said(name: &str, pieces: &[(Role, &str)]) -> Option<String> {
        let (t, kids) = link(name, pieces);
        name_without_icons(&t, name, &kids, |t, k| {
            let n = t.node(k);
            (n.role == Role::Text).then_some(n.name.as_str())
        })
    }

    #[test]
    fn an_icon_reading_as_its_label_leaves_the_name() {
        assert_eq!(
            said("Edit \u{a0}Edit", &[(Role::Image, "Edit"), (Role::Text, "\u{a0}Edit")]).as_deref(),
            Some("Edit")
        );
        let browse = [(Role::Image, "Browse"), (Role::Text, "\u{a0}Browse"), (Role::Text, "(current)")];
        assert_eq!(said("Browse \u{a0}Browse (current)", &browse).as_deref(), Some("Browse (current)"));
        // The icon after its label.
        assert_eq!(
            said("Next Next", &[(Role::Text, "Next"), (Role::Image, "Next")]).as_deref(),
            Some("Next")
        );
    }

    #[test]
    fn an_icon_saying_something_else_stays() {
        // The icon and the label differ: both are the name.
        assert_eq!(said("Structure products", &[(Role::Image, "Structure"), (Role::Text, "products")]), None);
        // The label beside it says more: the icon is only its first word.
        assert_eq!(
            said("Edit Edit row", &[(Role::Image, "Edit"), (Role::Text, "Edit row")]).as_deref(),
            Some("Edit row")
        );
        // The icon's text is not next to the label saying it, or only inside a word.
        assert_eq!(said("Edit Editor", &[(Role::Image, "Edit"), (Role::Text, "Editor")]), None);
        let apart = [(Role::Image, "Edit"), (Role::Text, "row"), (Role::Text, "Edit")];
        assert_eq!(said("Edit row Edit", &apart), None);
        // The name is not what the content spells.
        assert_eq!(said("Modify", &[(Role::Image, "Edit"), (Role::Text, "Edit")]), None);
        // No icon, or something other than icons and labels.
        assert_eq!(said("Edit Edit", &[(Role::Text, "Edit"), (Role::Text, "Edit")]), None);
        assert_eq!(said("Edit Edit", &[(Role::Image, "Edit"), (Role::Button, "Edit")]), None);
    }
}
