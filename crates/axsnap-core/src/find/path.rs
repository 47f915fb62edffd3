//! A hit's pieces, bounded: its ancestor path and every string in it.

use crate::caps::thousands;
use crate::role::Role;
use crate::tree::{NodeId, Tree};

/// A hit's name is cut after this many characters.
pub(super) const MAX_NAME_CHARS: usize = 200;
/// A path entry's name is cut after this many characters.
pub(super) const MAX_PATH_NAME_CHARS: usize = 80;
/// A role the vocabulary does not know is the platform's string: cut it too.
const MAX_ROLE_CHARS: usize = 40;
/// The outermost and the innermost entries kept when a path is shortened.
pub(super) const PATH_ENDS: usize = 2;

/// `s` whole, or its first `max` characters and a marker saying how many were cut
/// (`…+123,456 chars`).
pub(super) fn cap(s: &str, max: usize) -> String {
    match s.char_indices().nth(max) {
        None => s.to_string(),
        Some((cut, _)) => {
            let rest = s[cut..].chars().count();
            format!("{}{}", &s[..cut], crate::caps::marker(rest))
        }
    }
}

/// A role's name, bounded.
pub(super) fn role_str(role: &Role) -> String {
    cap(role.as_str(), MAX_ROLE_CHARS)
}

/// Whether an ancestor is shown in paths: it has a name or is a landmark (the root never).
pub(super) fn in_path(tree: &Tree, id: NodeId) -> bool {
    let n = tree.node(id);
    !n.name.is_empty() || n.role.is_landmark()
}

/// The path-worthy ancestors of a node, kept bounded while the tree is walked: how many there
/// are, the outermost [`PATH_ENDS`] and the innermost [`PATH_ENDS`].
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct PathEnds {
    count: usize,
    outer: [Option<NodeId>; PATH_ENDS],
    inner: [Option<NodeId>; PATH_ENDS],
}

impl PathEnds {
    /// These ends with `id` added as the new innermost ancestor.
    pub fn push(mut self, id: NodeId) -> PathEnds {
        if self.count < PATH_ENDS {
            self.outer[self.count] = Some(id);
        }
        self.inner.rotate_left(1);
        self.inner[PATH_ENDS - 1] = Some(id);
        self.count += 1;
        self
    }

    /// `role "name"` entries, outermost first; when more than `2 * PATH_ENDS` ancestors
    /// qualify, the outermost and innermost [`PATH_ENDS`] with one `…+N levels` entry between.
    pub fn render(&self, tree: &Tree) -> Vec<String> {
        let entry = |id: NodeId| {
            let n = tree.node(id);
            let mut s = role_str(&n.role);
            if !n.name.is_empty() {
                s.push_str(&format!(" {:?}", cap(&n.name, MAX_PATH_NAME_CHARS)));
            }
            s
        };
        let outer: Vec<NodeId> = self.outer.iter().flatten().copied().collect();
        let inner: Vec<NodeId> = self.inner.iter().flatten().copied().collect();
        let mut out: Vec<String> = outer.iter().map(|id| entry(*id)).collect();
        if self.count <= 2 * PATH_ENDS {
            // Everything fits: the inner ends that the outer ones did not list.
            let overlap = (outer.len() + inner.len()).saturating_sub(self.count);
            out.extend(inner[overlap..].iter().map(|id| entry(*id)));
        } else {
            out.push(format!("…+{} levels", thousands(self.count - 2 * PATH_ENDS)));
            out.extend(inner.iter().map(|id| entry(*id)));
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tree::{NativeId, Node};

    #[test]
    fn cap_marks_what_it_cut() {
        assert_eq!(cap("short", 10), "short");
        assert_eq!(cap("exactly10!", 10), "exactly10!");
        assert_eq!(cap(&"é".repeat(1_000_010), 10), format!("{}…+1,000,000 chars", "é".repeat(10)));
        assert_eq!(thousands(0), "0");
        assert_eq!(thousands(999), "999");
        assert_eq!(thousands(1000), "1,000");
        assert_eq!(thousands(123_456), "123,456");
    }

    #[test]
    fn short_paths_whole_long_paths_ends_and_a_count() {
        let mut t = Tree::with_root(Node::new(Role::Document, "", NativeId::new("d", "0")));
        let mut parent = t.root().unwrap();
        let mut ids = Vec::new();
        for i in 0..7 {
            parent =
                t.append(parent, Node::new(Role::Group, format!("g{i}"), NativeId::new("d", i.to_string())));
            ids.push(parent);
        }
        for n in 0..=7 {
            let ends = ids[..n].iter().fold(PathEnds::default(), |e, id| e.push(*id));
            let got = ends.render(&t);
            if n <= 4 {
                let want: Vec<String> = (0..n).map(|i| format!("group \"g{i}\"")).collect();
                assert_eq!(got, want, "{n} levels");
            } else {
                assert_eq!(got.len(), 5, "{got:?}");
                assert_eq!(got[0], "group \"g0\"");
                assert_eq!(got[1], "group \"g1\"");
                assert_eq!(got[2], format!("…+{} levels", n - 4));
                assert_eq!(got[4], format!("group \"g{}\"", n - 1));
            }
        }
    }
}
