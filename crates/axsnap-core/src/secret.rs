//! Secrets: what a tree must never show, and the redaction that makes sure of it.
//!
//! A node is a *secret* when its backend marks it [`State::Protected`]: a password field, a
//! field whose `autocomplete` asks for a password or a one-time code, text masked by CSS
//! (`-webkit-text-security`), a platform's password role. The backend decides by meaning,
//! not by type; the core then keeps of a secret nothing that shows its content or its length:
//!
//! - its value becomes [`REDACTED`] (an empty value stays empty, so the agent can tell the
//!   field still needs filling);
//! - every name, value and description inside it becomes [`REDACTED`], and nodes inside it
//!   lose their bounds (the width of its text would tell its length);
//! - its text (its value, the text inside it, and any string the backend read from it, such
//!   as a masked field's bullets) is replaced by [`REDACTED`] wherever a name, value or
//!   description embeds it: in nodes marked [`RawFlags::embeds_secret`] (a backend's mark for
//!   "named or described from a secret": `aria-labelledby`, `aria-describedby`, a label
//!   around it) and in ancestors named by their content, whatever its length; anywhere else
//!   when it has at least [`MIN_ANYWHERE_CHARS`] characters (a shorter text, `1` or `••`,
//!   would cut into the page's own words).
//!
//! Backends call [`redact`] on a capture before it leaves them (the Chromium backend does);
//! projection and the recorded-tree writer call it again on any tree that still needs it, so
//! a backend that forgets cannot leak through the core.
//!
//! [`RawFlags::embeds_secret`]: crate::tree::RawFlags::embeds_secret

use crate::role::Role;
use crate::state::State;
use crate::tree::{Node, NodeId, Tree};

/// What a secret's content becomes.
pub const REDACTED: &str = "[redacted]";

/// A secret's text shorter than this is replaced only where a name or description was
/// computed from the secret, not everywhere it happens to appear.
pub const MIN_ANYWHERE_CHARS: usize = 6;

/// Whether `n` is a secret.
pub fn is_secret(n: &Node) -> bool {
    n.states.contains(State::Protected)
}

/// Redacts the secrets of `tree` in place (see the module doc); `known` are texts the backend
/// read from its secrets outside the tree (a DOM value, the characters of masked text).
/// Returns how many fields it changed. Linear in the tree (times the number of secret texts);
/// never recurses.
pub fn redact(tree: &mut Tree, known: &[String]) -> usize {
    let plan = Plan::of(tree);
    if plan.secrets.is_empty() {
        return 0;
    }
    let mut changed = 0;
    let mut texts: Vec<String> = known.iter().filter(|k| worth_hiding(k)).cloned().collect();
    for &id in &plan.secrets {
        let n = tree.node_mut(id);
        if let Some(v) = n.value.as_mut().filter(|v| worth_hiding(v)) {
            texts.push(std::mem::replace(v, REDACTED.to_string()));
            changed += 1;
        }
    }
    for &id in &plan.inside {
        let n = tree.node_mut(id);
        for field in [Some(&mut n.name), n.value.as_mut(), n.description.as_mut()].into_iter().flatten() {
            if worth_hiding(field) {
                texts.push(std::mem::replace(field, REDACTED.to_string()));
                changed += 1;
            }
        }
        if n.bounds.take().is_some() {
            changed += 1;
        }
    }
    let texts = variants(texts);
    if texts.is_empty() {
        return changed;
    }
    let mut close = vec![false; tree.arena_len()];
    for &id in &plan.secrets {
        // Parent links of a malformed tree can loop: at most one step per node.
        let mut at = tree.node(id).parent;
        for _ in 0..tree.arena_len() {
            let Some(a) = at.filter(|a| tree.get(*a).is_some()) else { break };
            if named_by_content(&tree.node(a).role) {
                close[a.index()] = true;
            }
            at = tree.node(a).parent;
        }
    }
    let mut skip = vec![false; tree.arena_len()];
    for &id in plan.secrets.iter().chain(&plan.inside) {
        skip[id.index()] = true;
    }
    for &id in &plan.order {
        if skip[id.index()] {
            continue;
        }
        let n = tree.node_mut(id);
        let min = if close[id.index()] || n.flags.embeds_secret { 1 } else { MIN_ANYWHERE_CHARS };
        for field in [Some(&mut n.name), n.value.as_mut(), n.description.as_mut()].into_iter().flatten() {
            changed += usize::from(scrub(field, &texts, min));
        }
    }
    changed
}

/// Whether [`redact`] would change anything in `tree`: a secret's value, or anything inside a
/// secret, not yet redacted. Cheap (one pass over the states), so callers ask first and copy
/// a tree only when it needs redacting.
pub fn needs_redaction(tree: &Tree) -> bool {
    // Nearly every page has no secret at all: one look at each node of the arena (in memory
    // order, not the tree's) says so without building the walk's plan.
    let arena = (0..tree.arena_len()).map(|i| tree.node(NodeId(i as u32)));
    if !arena.into_iter().any(is_secret) {
        return false;
    }
    let plan = Plan::of(tree);
    plan.secrets.iter().any(|&id| tree.node(id).value.as_deref().is_some_and(worth_hiding))
        || plan.inside.iter().any(|&id| {
            let n = tree.node(id);
            worth_hiding(&n.name)
                || n.value.as_deref().is_some_and(worth_hiding)
                || n.description.as_deref().is_some_and(worth_hiding)
                || n.bounds.is_some()
        })
}

/// The nodes reachable from the root in document order, the secrets among them (outermost
/// first) and the nodes inside them.
struct Plan {
    order: Vec<NodeId>,
    secrets: Vec<NodeId>,
    inside: Vec<NodeId>,
}

impl Plan {
    /// Walks the tree once, each node at most once (a malformed tree's cycles and shared
    /// children are not followed twice), without recursion.
    fn of(tree: &Tree) -> Plan {
        let mut plan = Plan { order: Vec::new(), secrets: Vec::new(), inside: Vec::new() };
        let Some(root) = tree.root().filter(|r| tree.get(*r).is_some()) else { return plan };
        let mut seen = vec![false; tree.arena_len()];
        seen[root.index()] = true;
        // (node, inside a secret)
        let mut stack = vec![(root, false)];
        while let Some((id, inside)) = stack.pop() {
            plan.order.push(id);
            let n = tree.node(id);
            let secret = !inside && is_secret(n);
            if inside {
                plan.inside.push(id);
            } else if secret {
                plan.secrets.push(id);
            }
            for &c in n.children.iter().rev() {
                if tree.get(c).is_some() && !seen[c.index()] {
                    seen[c.index()] = true;
                    stack.push((c, inside || secret));
                }
            }
        }
        plan
    }
}

/// A text that shows something: not empty, not already redacted.
fn worth_hiding(s: &str) -> bool {
    !s.trim().is_empty() && s != REDACTED
}

/// The texts to look for: each as it was, trimmed, and with its whitespace runs made single
/// spaces (names are normalized that way); longest first, so a text is replaced before a
/// shorter one inside it.
fn variants(texts: Vec<String>) -> Vec<String> {
    let mut out: Vec<String> = Vec::with_capacity(texts.len() * 2);
    for t in texts {
        let normal = t.split_whitespace().collect::<Vec<_>>().join(" ");
        let trimmed = t.trim().to_string();
        for v in [t, trimmed, normal] {
            if worth_hiding(&v) && !v.contains(REDACTED) {
                out.push(v);
            }
        }
    }
    out.sort_by(|a, b| b.chars().count().cmp(&a.chars().count()).then_with(|| a.cmp(b)));
    out.dedup();
    out
}

/// Replaces every text of at least `min` characters found in `field`. Returns whether it
/// replaced any.
fn scrub(field: &mut String, texts: &[String], min: usize) -> bool {
    let mut hit = false;
    for t in texts {
        if t.chars().count() < min {
            // Sorted longest first: the rest are shorter still.
            break;
        }
        if field.contains(t.as_str()) {
            *field = field.replace(t.as_str(), REDACTED);
            hit = true;
        }
    }
    hit
}

/// Roles whose name the platform computes from their content, so an ancestor's name can hold
/// a secret's text (a button or a label around a field). Containers named by their author
/// (a form, a dialog, the document's title) are not.
fn named_by_content(role: &Role) -> bool {
    matches!(
        role,
        Role::Button
            | Role::Link
            | Role::Heading
            | Role::Label
            | Role::CheckBox
            | Role::Radio
            | Role::Switch
            | Role::Option
            | Role::MenuItem
            | Role::MenuItemCheckbox
            | Role::MenuItemRadio
            | Role::Tab
            | Role::TreeItem
            | Role::Row
            | Role::Cell
            | Role::ColumnHeader
            | Role::RowHeader
            | Role::Tooltip
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tree::{NativeId, Rect};

    fn n(role: Role, name: &str, id: &str) -> Node {
        Node::new(role, name, NativeId::new("d", id))
    }

    fn secret(value: &str, id: &str) -> Node {
        let mut f = n(Role::TextBox, "Password", id);
        f.value = Some(value.into());
        f.states.set(State::Protected, true);
        f
    }

    fn all_text(t: &Tree) -> String {
        t.preorder()
            .map(|(id, _)| {
                let n = t.node(id);
                format!("{}|{:?}|{:?}\n", n.name, n.value, n.description)
            })
            .collect()
    }

    /// A login form as Chromium gives it: a password field with its bullets inside, a button
    /// named from it by `aria-labelledby`, a one-time code described elsewhere.
    fn login() -> Tree {
        let mut t = Tree::with_root(n(Role::Document, "Sign in", "root"));
        let r = t.root().unwrap();
        let label = t.append(r, n(Role::Label, "", "label"));
        t.append(label, n(Role::Text, "Password ", "lt"));
        let pw = t.append(label, secret("••••••••", "pw"));
        let inner = t.append(pw, n(Role::Generic, "", "inner"));
        let mut text = n(Role::Text, "••••••••", "bullets");
        text.bounds = Some(Rect { x: 0.0, y: 0.0, w: 64.0, h: 12.0 });
        let text = t.append(inner, text);
        t.append(text, n(Role::TextRun, "••••••••", "run"));
        let mut named = n(Role::Button, "Show ••••••••", "show");
        named.flags.embeds_secret = true;
        t.append(r, named);
        let otp = t.append(r, secret("12", "otp"));
        t.append(otp, n(Role::Text, "12", "otp-text"));
        let mut described = n(Role::Button, "Verify", "verify");
        described.description = Some("code 12".into());
        described.flags.embeds_secret = true;
        t.append(r, described);
        t.append(r, n(Role::Paragraph, "Call 12 or 0800 12 12", "far"));
        t
    }

    #[test]
    fn values_text_inside_and_names_from_secrets_are_redacted() {
        let mut t = login();
        assert!(needs_redaction(&t));
        let changed = redact(&mut t, &[]);
        assert!(changed >= 8, "{changed}");
        assert!(!needs_redaction(&t));
        let text = all_text(&t);
        assert!(!text.contains('•') && !text.contains("code 12"), "{text}");
        let find = |id: &str| t.preorder().map(|(i, _)| t.node(i)).find(|n| n.native.id == id).unwrap();
        assert_eq!(find("pw").value.as_deref(), Some(REDACTED));
        assert_eq!(find("bullets").name, REDACTED);
        assert_eq!(find("bullets").bounds, None, "the text's width would tell the length");
        assert_eq!(find("show").name, "Show [redacted]");
        assert_eq!(find("verify").description.as_deref(), Some("code [redacted]"));
        // A short secret is not cut out of text that was not computed from it.
        assert_eq!(find("far").name, "Call 12 or 0800 12 12");
        assert_eq!(find("root").name, "Sign in");
        // Redacting twice changes nothing.
        let once = t.clone();
        assert_eq!(redact(&mut t, &[]), 0);
        assert!(t.preorder().zip(once.preorder()).all(|((a, _), (b, _))| t.node(a) == once.node(b)));
    }

    #[test]
    fn long_secrets_go_everywhere_and_known_texts_count() {
        let mut t = Tree::with_root(n(Role::Document, "hunter22 - welcome", "root"));
        let r = t.root().unwrap();
        t.append(r, secret("", "pw"));
        t.append(r, n(Role::Paragraph, "you typed hunter22", "echo"));
        t.append(r, n(Role::Paragraph, "a hunter", "short"));
        // The field's value is empty in the tree; the backend read the secret elsewhere.
        let changed = redact(&mut t, &["hunter22".to_string()]);
        assert_eq!(changed, 2);
        assert_eq!(all_text(&t).matches(REDACTED).count(), 2, "{}", all_text(&t));
        assert!(!all_text(&t).contains("hunter22"));
        assert!(all_text(&t).contains("a hunter"));
    }

    #[test]
    fn empty_values_stay_empty_and_no_secret_means_no_change() {
        let mut t = Tree::with_root(n(Role::Document, "", "root"));
        let r = t.root().unwrap();
        t.append(r, secret("", "pw"));
        assert!(!needs_redaction(&t));
        assert_eq!(redact(&mut t, &[]), 0);
        let mut plain = Tree::with_root(n(Role::Document, "hunter22", "root"));
        assert_eq!(redact(&mut plain, &["hunter22".into()]), 0, "no secret in the tree");
    }

    #[test]
    fn whitespace_variants_are_found() {
        let mut t = Tree::with_root(n(Role::Document, "", "root"));
        let r = t.root().unwrap();
        t.append(r, secret("  two   words ", "pw"));
        let mut b = n(Role::Button, "Say two words", "b");
        b.flags.embeds_secret = true;
        t.append(r, b);
        redact(&mut t, &[]);
        assert!(all_text(&t).contains("Say [redacted]"), "{}", all_text(&t));
    }

    #[test]
    fn cycles_and_shared_children_are_walked_once() {
        let mut t = Tree::with_root(n(Role::Document, "", "root"));
        let r = t.root().unwrap();
        let b = t.append(r, n(Role::Button, "Show hunter22", "b"));
        let pw = t.append(b, secret("hunter22", "pw"));
        t.attach(pw, r, None); // a cycle back to the root
        t.attach(r, pw, None); // the field shared by two parents
        assert!(needs_redaction(&t));
        assert!(redact(&mut t, &[]) >= 2);
        assert_eq!(t.node(b).name, "Show [redacted]");
    }

    #[test]
    fn a_deep_tree_is_walked_without_recursion() {
        let mut t = Tree::with_root(n(Role::Document, "", "root"));
        let mut p = t.root().unwrap();
        p = t.append(p, secret("deep-secret", "pw"));
        for i in 0..100_000 {
            p = t.append(p, n(Role::Generic, "deep-secret", &i.to_string()));
        }
        assert!(redact(&mut t, &[]) >= 100_000);
        assert!(!all_text(&t).contains("deep-secret"));
    }
}
