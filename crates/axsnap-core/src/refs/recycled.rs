//! Recycled items: a collection's element that now shows another item.
//!
//! Virtualized lists and trees (VS Code's explorer, a long listbox, a data grid's rows) keep a
//! handful of elements and write whichever items are in view into them. The element that
//! showed `main.py` then shows `notes.md` under the same native id: kept by native identity,
//! the ref an agent holds for `main.py` would open `notes.md`, a wrong element in all but name.
//! A ref names an item, not the element a list recycles.
//!
//! So a collection item (see [`is_collection_item`]) whose shown name was replaced, not edited,
//! is a new item: its old ref goes stale and it gets a new one. A name is replaced when, under
//! the same parent:
//! - the old name is now shown by another item of its role, or the new name was shown by another
//!   one before (the identity moved from one element to another: a scroll, an insertion above,
//!   a sort that rewrote rows in place); or
//! - two or more items changed to names unlike their old ones at once (a scroll that moved
//!   every row to items not in view before).
//!
//! A name changed alone, with neither name on a sibling, is edited in place (a rename the agent
//! typed) and keeps its ref; so does a name like its old one when several change at once (a
//! row's counts ticking). Grid cells are not collection items here: a sheet's cell is its
//! position (a value typed into it keeps its ref), and grids recycle their rows, which are.

use crate::role::Role;

/// Roles whose element names an item of a collection that a virtualized view may recycle.
pub(super) fn is_collection_item(role: &Role) -> bool {
    matches!(
        role,
        Role::TreeItem
            | Role::Option
            | Role::Row
            | Role::ListItem
            | Role::Tab
            | Role::MenuItem
            | Role::MenuItemCheckbox
            | Role::MenuItemRadio
    )
}

/// One item under a parent, as a refresh sees it.
#[derive(Debug)]
pub(super) struct Item<'a> {
    /// Its role now.
    pub role: &'a Role,
    /// The name its ref last showed, if it held a ref before this refresh (with the same role).
    pub was: Option<&'a str>,
    /// Its name now.
    pub now: &'a str,
}

/// Which of one parent's `items` (its children, in order) show another item than their ref
/// named: indices into `items`.
pub(super) fn replaced(items: &[Item<'_>]) -> Vec<usize> {
    let renamed: Vec<usize> = (0..items.len())
        .filter(|&i| {
            let it = &items[i];
            is_collection_item(it.role)
                && it.was.is_some_and(|was| !was.is_empty() && was != it.now)
                && !it.now.is_empty()
        })
        .collect();
    if renamed.is_empty() {
        return renamed;
    }
    let unlike = renamed.iter().filter(|&&i| !alike(items[i].was.unwrap_or_default(), items[i].now)).count();
    renamed
        .into_iter()
        .filter(|&i| {
            let it = &items[i];
            let was = it.was.unwrap_or_default();
            let moved = items.iter().enumerate().any(|(j, other)| {
                j != i && other.role == it.role && (other.now == was || other.was == Some(it.now))
            });
            moved || (unlike >= 2 && !alike(was, it.now))
        })
        .collect()
}

/// Whether `new` reads as an edit of `old`: what they share at the start and the end covers at
/// least half of the shorter (`main.py` -> `main2.py`, `Build 41 running` -> `Build 41 passed`),
/// by characters.
fn alike(old: &str, new: &str) -> bool {
    let (a, b): (Vec<char>, Vec<char>) = (old.chars().collect(), new.chars().collect());
    let shorter = a.len().min(b.len());
    let prefix = a.iter().zip(&b).take_while(|(x, y)| x == y).count();
    let rest = shorter - prefix;
    let suffix = a.iter().rev().zip(b.iter().rev()).take(rest).take_while(|(x, y)| x == y).count();
    shorter > 0 && 2 * (prefix + suffix) >= shorter
}

#[cfg(test)]
mod tests {
    use super::*;

    fn items<'a>(rows: &'a [(Role, Option<&'a str>, &'a str)]) -> Vec<Item<'a>> {
        rows.iter().map(|(role, was, now)| Item { role, was: *was, now }).collect()
    }

    #[test]
    fn a_row_showing_the_item_its_neighbour_showed_is_replaced() {
        // A new file sorted above: every row shows the item of the row above it.
        let rows = [
            (Role::TreeItem, Some("app.py"), "app.py"),
            (Role::TreeItem, Some("main.py"), "notes.md"),
            (Role::TreeItem, Some("setup.cfg"), "main.py"),
        ];
        assert_eq!(replaced(&items(&rows)), vec![1, 2]);
    }

    #[test]
    fn a_scroll_that_shows_only_new_items_replaces_them_all() {
        let rows = [
            (Role::Option, Some("Albania"), "Kenya"),
            (Role::Option, Some("Algeria"), "Kiribati"),
            (Role::Option, Some("Andorra"), "Kuwait"),
        ];
        assert_eq!(replaced(&items(&rows)), vec![0, 1, 2]);
    }

    #[test]
    fn a_rename_alone_keeps_its_item() {
        let rows =
            [(Role::TreeItem, Some("untitled"), "report.md"), (Role::TreeItem, Some("main.py"), "main.py")];
        assert!(replaced(&items(&rows)).is_empty());
        // Numbered look-alikes: one renamed in place is still an edit, but a scroll by one row
        // (each showing its neighbour's name) is not.
        let rows =
            [(Role::ListItem, Some("file 10"), "file 12"), (Role::ListItem, Some("file 11"), "file 11")];
        assert!(replaced(&items(&rows)).is_empty());
        let rows =
            [(Role::ListItem, Some("file 10"), "file 11"), (Role::ListItem, Some("file 11"), "file 12")];
        assert_eq!(replaced(&items(&rows)), vec![0, 1]);
    }

    #[test]
    fn names_that_change_like_themselves_keep_their_items() {
        // Counts ticking on every row at once.
        let rows = [
            (Role::Row, Some("build 41 running 12 s"), "build 41 running 13 s"),
            (Role::Row, Some("build 40 passed 3 min"), "build 40 passed 4 min"),
        ];
        assert!(replaced(&items(&rows)).is_empty());
    }

    #[test]
    fn only_collection_items_named_before_and_now_count() {
        let rows = [(Role::Button, Some("Play"), "Pause"), (Role::Button, Some("Pause"), "Play")];
        assert!(replaced(&items(&rows)).is_empty(), "a button's label is its state, not an item");
        let rows = [(Role::Cell, Some("0"), "5"), (Role::Cell, Some("5"), "0")];
        assert!(replaced(&items(&rows)).is_empty(), "a cell is its position");
        let rows = [(Role::TreeItem, None, "main.py"), (Role::TreeItem, Some("main.py"), "")];
        assert!(replaced(&items(&rows)).is_empty(), "new, or emptied while it loads");
    }

    #[test]
    fn alike_is_an_edit_by_its_ends() {
        assert!(alike("main.py", "main2.py"));
        assert!(alike("Untitled-1", "Untitled-2"));
        assert!(!alike("main.py", "notes.md"));
        assert!(!alike("README.md", "notes.md"));
        assert!(!alike("", "x"));
    }
}
