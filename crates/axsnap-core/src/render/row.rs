//! Table rows on one line: `row: [1](e59) | Emma | Jane Austen | 1815`.
//!
//! A row drawn a line per cell spends an indent, a role word, quotes and a newline on every
//! cell: on a Datasette table page that is five lines a record where one says it all. A row
//! whose cells each read as one piece of running text (a name, or an inline run of text,
//! code and links with their refs kept) is drawn on its own line, the cells in order,
//! separated by ` | ` as in a Markdown table. Anything else keeps a line per cell: a cell with
//! a ref, a value, a state or a widget in it, a cell whose text has a `|` (it could not be told
//! from the separator) or a line break, and a row holding a `… N more` marker.

use super::inline::inline_tail;
use super::line::{shown_description, shown_states, shows_ref, LineCtx, Source};
use crate::role::Role;

/// The cells of a one-line row stop being drawn so past this many bytes, as an inline run
/// does: a row of 10,000 cells is not one line.
const ROW_BYTES: usize = 8_000;

/// The tail of row `id`'s line: its cells joined by ` | `, when every cell reads as one piece
/// of text (see the module doc); `None` when the row keeps a line per cell.
pub(super) fn row_tail<'a, S: Source<'a>>(
    src: &S,
    id: S::Id,
    kids: &[S::Id],
    ctx: &LineCtx,
) -> Option<String> {
    let n = src.node(id);
    if n.role != Role::Row || kids.is_empty() || n.value.is_some() {
        return None;
    }
    let mut out = String::new();
    let mut any_text = false;
    for (i, &k) in kids.iter().enumerate() {
        let part = cell_text(src, k, ctx)?;
        if part.contains(['|', '\n']) {
            return None;
        }
        if i > 0 {
            out.push_str(" |");
        }
        if !part.is_empty() {
            if i > 0 {
                out.push(' ');
            }
            out.push_str(&part);
            any_text = true;
        }
        if out.len() > ROW_BYTES {
            return None;
        }
    }
    // A row of empty cells says nothing on one line either.
    any_text.then_some(out)
}

/// What cell `id` reads as on its row's line, or `None` when it needs lines of its own.
fn cell_text<'a, S: Source<'a>>(src: &S, id: S::Id, ctx: &LineCtx) -> Option<String> {
    let c = src.node(id);
    let is_cell = matches!(c.role, Role::Cell | Role::ColumnHeader | Role::RowHeader);
    if !is_cell
        || shows_ref(c, false)
        || c.value.is_some()
        || c.folded.is_some()
        || shown_states(c).next().is_some()
    {
        return None;
    }
    let grandkids = src.children(id);
    if grandkids.is_empty() {
        // A nameless cell would show its description as what labels it.
        if c.name.trim().is_empty() && shown_description(c).is_some() {
            return None;
        }
        return Some(super::bound::text(c.name.trim()).into_owned());
    }
    // A named cell with content besides its name is more than one piece.
    if !c.name.is_empty() {
        return None;
    }
    inline_tail(src, id, &grandkids, ctx)
}

#[cfg(test)]
mod tests {
    use crate::refs::Ref;
    use crate::render::layout::write_subtree;
    use crate::render::line::LineCtx;
    use crate::role::Role;
    use crate::state::{Action, State};
    use crate::tree::{NativeId, Node, NodeId, Tree};

    fn nd(role: Role, name: &str, id: &str) -> Node {
        Node::new(role, name, NativeId::new("d", id))
    }

    fn render(t: &Tree) -> String {
        let mut s = String::new();
        write_subtree(&mut s, &t, t.root().unwrap(), 0, &LineCtx::for_tree(t, None));
        s
    }

    /// A table of `rows`, each a list of cell names; a cell named `@x` holds a link `x`.
    fn table(rows: &[&[&str]]) -> (Tree, NodeId) {
        let mut t = Tree::with_root(nd(Role::Table, "", "t"));
        let root = t.root().unwrap();
        t.node_mut(root).ref_id = Some(Ref(1));
        for (r, cells) in rows.iter().enumerate() {
            let row = t.append(root, nd(Role::Row, "", &format!("r{r}")));
            for (c, name) in cells.iter().enumerate() {
                let id = format!("c{r}-{c}");
                match name.strip_prefix('@') {
                    Some(link) => {
                        let cell = t.append(row, nd(Role::Cell, "", &id));
                        let mut a = nd(Role::Link, link, &format!("a{id}"));
                        a.ref_id = Some(Ref(10 + r as u32));
                        a.actions = [Action::Click].into_iter().collect();
                        t.append(cell, a);
                    }
                    None => {
                        t.append(row, nd(Role::Cell, name, &id));
                    }
                }
            }
        }
        (t, root)
    }

    #[test]
    fn a_row_of_plain_cells_is_one_line_and_keeps_its_links_refs() {
        let (t, _) = table(&[&["@1", "Emma", "Jane Austen", "1815"], &["@2", "", "Walter Scott", "1819"]]);
        assert_eq!(
            render(&t),
            "table [e1]\n  row: [1](e10) | Emma | Jane Austen | 1815\n  row: [2](e11) | | Walter Scott | 1819\n"
        );
    }

    #[test]
    fn a_cell_that_is_more_than_text_keeps_the_row_a_line_per_cell() {
        // A bar in the text could not be told from the separator.
        let (t, _) = table(&[&["a | b", "c"]]);
        assert_eq!(render(&t), "table [e1]\n  row\n    cell \"a | b\"\n    cell \"c\"\n");
        // A selected cell, a cell with a button.
        let (mut t, root) = table(&[&["a", "b"]]);
        let row = t.node(root).children[0];
        let cell = t.node(row).children[1];
        t.node_mut(cell).states.set(State::Selected, true);
        assert!(render(&t).contains("  row\n    cell \"a\"\n"), "{}", render(&t));
        let (mut t, root) = table(&[&["a", ""]]);
        let row = t.node(root).children[0];
        let cell = t.node(row).children[1];
        let mut b = nd(Role::Button, "Delete", "b");
        b.ref_id = Some(Ref(40));
        t.append(cell, b);
        assert!(render(&t).contains("      button \"Delete\" [e40]\n"), "{}", render(&t));
        // A row of empty cells, a row holding a marker.
        let (t, _) = table(&[&["", ""]]);
        assert_eq!(render(&t), "table [e1]\n  row\n    cell\n    cell\n");
        let (mut t, root) = table(&[&["a", "b"]]);
        let row = t.node(root).children[0];
        t.append(row, nd(Role::More, "… 3 more", "m"));
        assert!(render(&t).contains("  row\n    cell \"a\"\n"), "{}", render(&t));
    }
}
