//! Turning a [`Walk`] into the core's raw [`Tree`]: one node per object, mapped by
//! [`crate::mapping`], plus the text that AT-SPI keeps in a parent's Text interface rather than
//! in child objects (web content puts a paragraph's words there, with U+FFFC where each child
//! object sits).

use axsnap_core::{NativeId, Node, NodeId, RawFlags, Rect, Role, State, Tree, ValueRange};

use crate::capture::Walk;
use crate::fetch::{RawObject, MANY_CHILDREN};
use crate::grid::GridWindow;
use crate::mapping::{self, bit, role_name};

/// The character AT-SPI puts in a text where a child object sits.
const EMBEDDED: char = '\u{FFFC}';

/// One piece of a node's content, in order.
enum Item {
    Text(String),
    Child(usize),
}

/// Builds the raw tree of `walk`, a window's menu bar shown once ([`crate::twins`]).
pub fn build(walk: &Walk) -> Tree {
    let n = walk.objects.len();
    let mut tree = Tree::with_capacity(n * 2);
    let mut kids: Vec<Vec<usize>> = vec![Vec::new(); n];
    for (i, p) in walk.parents.iter().enumerate() {
        if let Some(p) = p {
            kids[*p].push(i);
        }
    }
    for k in &mut kids {
        k.sort_by_key(|i| walk.positions.get(*i).copied().unwrap_or(0));
    }
    let mut ids: Vec<NodeId> = Vec::with_capacity(n);
    let mut web = vec![false; n];
    for (i, raw) in walk.objects.iter().enumerate() {
        let parent = walk.parents[i];
        let parent_role = parent.and_then(|p| role_name(walk.objects[p].role));
        web[i] = parent.is_some_and(|p| web[p])
            || matches!(role_name(raw.role), Some("document web" | "document frame"));
        let node = node_of(raw, parent_role, parent.is_none(), web[i] || !walk.showing_reliable);
        ids.push(tree.push(node));
    }
    if let Some(root) = ids.first() {
        tree.set_root(*root);
    }
    for (i, raw) in walk.objects.iter().enumerate() {
        let role = &tree.node(ids[i]).role;
        let items = content(raw, role, &kids[i], &walk.objects);
        let mut empty_cells = 0usize;
        for (k, item) in items.into_iter().enumerate() {
            match item {
                // A grid's empty cells are counted, not listed: a sheet's screen holds
                // hundreds, and the note says how to reach any of them.
                Item::Child(c) if raw.grid.is_some() && is_empty_cell(&walk.objects[c]) => empty_cells += 1,
                Item::Child(c) => tree.attach(ids[i], ids[c], None),
                Item::Text(t) => {
                    let native = NativeId::new(raw.obj.bus.clone(), format!("{}#text{k}", raw.obj.path));
                    let mut text = Node::new(Role::Text, t, native);
                    text.flags.hidden = tree.node(ids[i]).flags.hidden;
                    tree.append(ids[i], text);
                }
            }
        }
        if let Some(window) = &raw.grid {
            let native = NativeId::new(raw.obj.bus.clone(), format!("{}#more", raw.obj.path));
            let corner =
                |k: Option<&usize>| k.map_or(String::new(), |&c| walk.objects[c].name.trim().to_string());
            let note = grid_note(
                window,
                &corner(kids[i].first()),
                &corner(kids[i].last()),
                kids[i].len(),
                empty_cells,
            );
            tree.append(ids[i], Node::new(Role::More, note, native));
        } else if raw.child_count > MANY_CHILDREN && (raw.children.len() as i64) < i64::from(raw.child_count)
        {
            let more = i64::from(raw.child_count) - raw.children.len() as i64;
            let native = NativeId::new(raw.obj.bus.clone(), format!("{}#more", raw.obj.path));
            let note = format!(
                "{more} more children not read (the app reports {}; only the first {} are read)",
                raw.child_count,
                raw.children.len()
            );
            tree.append(ids[i], Node::new(Role::More, note, native));
        }
    }
    crate::twins::drop_twin_menu_bars(&mut tree);
    tree
}

/// A control whose Value interface is what it shows: a number in a range.
fn is_range(role: &Role) -> bool {
    matches!(role, Role::Slider | Role::SpinButton | Role::ScrollBar | Role::ProgressBar | Role::Meter)
}

/// A cell that holds a value, as a spreadsheet's do (Text and Value both): its text is its
/// value, not content of its own (a web page's cells have Text only).
fn holds_value(raw: &RawObject, role: &Role) -> bool {
    *role == Role::Cell && raw.has("Text") && raw.has("Value")
}

/// A cell with nothing in it that the user is on: no text, not focused, not selected.
fn is_empty_cell(raw: &RawObject) -> bool {
    raw.text.as_deref().is_none_or(|t| t.trim().is_empty())
        && !raw.state(bit::FOCUSED)
        && !raw.state(bit::SELECTED)
        && raw.children.is_empty()
}

/// What a grid's note says: which cells were read, how many are listed, what the table holds
/// beyond them and how to reach it.
fn grid_note(w: &GridWindow, first: &str, last: &str, read: usize, empty: usize) -> String {
    let span = if first.is_empty() || last.is_empty() {
        format!("rows {}–{}, columns {}–{}", w.rows.0 + 1, w.rows.1 + 1, w.cols.0 + 1, w.cols.1 + 1)
    } else {
        format!("{first} to {last}")
    };
    let mut note = format!(
        "cells {span} on screen ({read} read, {empty} empty not listed) of {} rows × {} columns",
        thousands(w.n_rows),
        thousands(w.n_cols)
    );
    if w.rows_cut > 0 {
        note.push_str(&format!("; {} more rows on screen not read", w.rows_cut));
    }
    note.push_str("; scroll, or go to a cell by its name (a Name Box), to see others");
    note
}

/// `n` with thousands separators.
fn thousands(n: i32) -> String {
    axsnap_core::caps::thousands(n.max(0) as usize)
}

/// `visible_only`: judge hiddenness by `VISIBLE` alone (web content, and apps that do not
/// mark `SHOWING`).
fn node_of(raw: &RawObject, parent_role: Option<&str>, is_root: bool, visible_only: bool) -> Node {
    let role = mapping::role(raw, parent_role);
    let name = raw.name.trim();
    let name = if is_class_name(name) { "" } else { name };
    let mut node = Node::new(role.clone(), name.to_string(), raw.obj.native());
    node.states = mapping::states(raw, &role);
    node.actions = mapping::actions(raw, &role);
    if !raw.description.is_empty() && raw.description != raw.name {
        node.description = Some(raw.description.clone());
    }
    node.level = raw.attributes.get("level").and_then(|l| l.parse().ok());
    if let Some((x, y, w, h)) = raw.extents {
        if w > 0 && h > 0 && x > i32::MIN / 2 && y > i32::MIN / 2 {
            node.bounds = Some(Rect { x: f64::from(x), y: f64::from(y), w: f64::from(w), h: f64::from(h) });
        }
    }
    let dev = if raw.accessible_id.is_empty() {
        raw.attributes.get("id").cloned().unwrap_or_default()
    } else {
        raw.accessible_id.clone()
    };
    node.dev_id = (!dev.is_empty()).then_some(dev);
    let editable =
        node.states.contains(State::Editable) || raw.has("EditableText") && raw.state(bit::EDITABLE);
    if editable {
        node.value = raw.text.clone();
    } else if holds_value(raw, &role) {
        // A spreadsheet cell's text is what it shows; its Value is a number even for an empty
        // cell (Calc says 0).
        node.value = raw.text.clone().filter(|t| !t.trim().is_empty());
    } else if let Some((current, min, max)) = raw.value.filter(|_| is_range(&role)) {
        // Only a range's number is its value: LibreOffice gives every button and menu item a
        // Value of 0, which said `: 0` on each of their lines.
        node.value = Some(number(current));
        // A scroll bar's bounds are pixels of a layout; a toolkit's "no limit" (GTK spin
        // buttons reach ±1.8e308) bounds nothing an agent would type.
        let bounded = min.abs() < 1e15 && max.abs() < 1e15;
        if role != Role::ScrollBar && bounded {
            node.range = ValueRange::new(min, max, None);
        }
    }
    node.flags = RawFlags {
        hidden: !is_root && (!raw.state(bit::VISIBLE) || (!visible_only && !raw.state(bit::SHOWING))),
        block: !matches!(role, Role::Link | Role::Text | Role::Image),
        ..RawFlags::default()
    };
    node
}

/// The children of a node in order, with its own text between them where it has any that its
/// name does not already say.
fn content(raw: &RawObject, role: &Role, kids: &[usize], objects: &[RawObject]) -> Vec<Item> {
    let text = match &raw.text {
        Some(t)
            if !t.trim().is_empty()
                && !matches!(role, Role::TextBox | Role::SearchBox | Role::SpinButton | Role::ComboBox)
                && !holds_value(raw, role) =>
        {
            t
        }
        _ => return kids.iter().map(|k| Item::Child(*k)).collect(),
    };
    if !text.contains(EMBEDDED) {
        // A label's text is its name; only text the name does not hold is content.
        let mut items: Vec<Item> = kids.iter().map(|k| Item::Child(*k)).collect();
        if kids.is_empty() && text.trim() != raw.name.trim() {
            items.insert(0, Item::Text(text.clone()));
        }
        return items;
    }
    let kids = embedded_kids(text, kids, objects);
    let mut items = Vec::new();
    let mut next_kid = kids.iter();
    for (k, piece) in text.split(EMBEDDED).enumerate() {
        if k > 0 {
            if let Some(c) = next_kid.next() {
                items.push(Item::Child(*c));
            }
        }
        if !piece.is_empty() {
            items.push(Item::Text(piece.to_string()));
        }
    }
    items.extend(next_kid.map(|c| Item::Child(*c)));
    items
}

/// The children that sit at `text`'s U+FFFC marks. Chromium also gives a text run its own
/// `static` child while keeping its words in the parent's text, with no mark for it (a
/// `<label>` over "New note " and a field is `"New note \u{FFFC}"` with two children): such a
/// child, whose words the text already holds, is left out, or the words would be said twice
/// and every later child would take the mark of the one before.
fn embedded_kids(text: &str, kids: &[usize], objects: &[RawObject]) -> Vec<usize> {
    let marks = text.matches(EMBEDDED).count();
    let mut surplus = kids.len().saturating_sub(marks);
    if surplus == 0 {
        return kids.to_vec();
    }
    kids.iter()
        .copied()
        .filter(|&k| {
            let Some(o) = objects.get(k) else { return true };
            let words = o.text.as_deref().unwrap_or(&o.name).trim();
            let said = surplus > 0
                && matches!(role_name(o.role), Some("static" | "text"))
                && o.children.is_empty()
                && !words.is_empty()
                && text.contains(words);
            if said {
                surplus -= 1;
            }
            !said
        })
        .collect()
}

/// Whether `name` is only a toolkit's widget class (`GtkEntry`): GTK 4 names a widget so when
/// nothing else names it, and that says nothing the role does not.
fn is_class_name(name: &str) -> bool {
    name.strip_prefix("Gtk").is_some_and(|rest| {
        rest.starts_with(|c: char| c.is_ascii_uppercase()) && rest.chars().all(|c| c.is_ascii_alphanumeric())
    })
}

/// A value as people write it: `50`, not `50.0`.
fn number(v: f64) -> String {
    if v.fract() == 0.0 && v.abs() < 1e15 {
        format!("{}", v as i64)
    } else {
        format!("{v}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_grid_lists_what_holds_something_and_says_the_rest() {
        let role_of = |name: &str| (0..200).find(|r| role_name(*r) == Some(name)).unwrap();
        let obj = |path: &str| crate::object::ObjectRef::new(":1.5", path);
        let cell = |path: &str, name: &str, text: &str, states: u64| RawObject {
            obj: obj(path),
            role: role_of("table cell"),
            name: name.into(),
            interfaces: vec!["Text".into(), "Value".into(), "Component".into()],
            text: Some(text.into()),
            value: Some((0.0, f64::NAN, f64::NAN)),
            states: states | 1 << bit::VISIBLE | 1 << bit::SHOWING,
            ..RawObject::default()
        };
        let table = RawObject {
            obj: obj("/t"),
            role: role_of("table"),
            name: "Sheet Sheet1".into(),
            child_count: i32::MAX,
            states: 1 << bit::VISIBLE | 1 << bit::SHOWING | 1 << bit::MANAGES_DESCENDANTS,
            children: vec![obj("/a1"), obj("/b1"), obj("/a2"), obj("/b2")],
            grid: Some(GridWindow {
                rows: (0, 1),
                cols: (0, 1),
                rows_cut: 0,
                n_rows: 1_048_576,
                n_cols: 16_384,
            }),
            ..RawObject::default()
        };
        let walk = Walk {
            objects: vec![
                table,
                cell("/a1", "A1", "", 1 << bit::FOCUSED),
                cell("/b1", "B1", "", 0),
                cell("/a2", "A2", "5", 0),
                cell("/b2", "B2", "", 0),
            ],
            parents: vec![None, Some(0), Some(0), Some(0), Some(0)],
            positions: vec![0, 0, 1, 2, 3],
            showing_reliable: true,
            ..Walk::default()
        };
        let tree = build(&walk);
        let root = tree.root().unwrap();
        let kids: Vec<(String, Option<String>)> = tree
            .node(root)
            .children
            .iter()
            .map(|&k| (tree.node(k).name.clone(), tree.node(k).value.clone()))
            .collect();
        let note =
            "cells A1 to B2 on screen (4 read, 2 empty not listed) of 1,048,576 rows × 16,384 columns; \
                    scroll, or go to a cell by its name (a Name Box), to see others";
        assert_eq!(
            kids,
            [("A1".to_string(), None), ("A2".to_string(), Some("5".to_string())), (note.to_string(), None)],
            "the focused cell and the one holding text, a cell's Value of 0 unsaid"
        );
    }

    #[test]
    fn widget_classes_are_not_names() {
        assert!(is_class_name("GtkEntry") && is_class_name("GtkComboBoxText"));
        assert!(!is_class_name("Gtk") && !is_class_name("Gtkentry") && !is_class_name("GtkEntry 2"));
        assert!(!is_class_name("Save"));
    }

    #[test]
    fn a_text_run_chromium_also_gives_as_a_child_is_said_once() {
        let role_of = |name: &str| (0..200).find(|r| role_name(*r) == Some(name)).unwrap();
        let object = |role: &str, name: &str| RawObject {
            role: role_of(role),
            name: name.into(),
            text: Some(name.into()),
            ..RawObject::default()
        };
        // A list item over a checkbox, its text and a button, as Chromium 150 gives it.
        let objects =
            vec![object("check box", "Done"), object("static", "Buy milk"), object("button", "Delete")];
        let item = RawObject { text: Some("\u{FFFC}Buy milk\u{FFFC}".into()), ..RawObject::default() };
        let items = content(&item, &Role::ListItem, &[0, 1, 2], &objects);
        let shape: Vec<String> = items
            .iter()
            .map(|i| match i {
                Item::Text(t) => format!("text {t}"),
                Item::Child(c) => format!("child {c}"),
            })
            .collect();
        assert_eq!(shape, ["child 0", "text Buy milk", "child 2"]);
        // With a mark for every child, every child stays where its mark is.
        let marked = RawObject { text: Some("\u{FFFC}\u{FFFC}\u{FFFC}".into()), ..RawObject::default() };
        assert_eq!(content(&marked, &Role::ListItem, &[0, 1, 2], &objects).len(), 3);
    }

    #[test]
    fn numbers_read_as_written() {
        assert_eq!(number(50.0), "50");
        assert_eq!(number(0.5), "0.5");
    }
}
