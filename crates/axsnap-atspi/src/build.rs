//! Turning a [`Walk`] into the core's raw [`Tree`]: one node per object, mapped by
//! [`crate::mapping`], plus the text that AT-SPI keeps in a parent's Text interface rather than
//! in child objects (web content puts a paragraph's words there, with U+FFFC where each child
//! object sits).

use axsnap_core::{NativeId, Node, NodeId, RawFlags, Rect, Role, State, Tree};

use crate::capture::Walk;
use crate::fetch::{RawObject, MANY_CHILDREN};
use crate::mapping::{self, bit, role_name};

/// The character AT-SPI puts in a text where a child object sits.
const EMBEDDED: char = '\u{FFFC}';

/// One piece of a node's content, in order.
enum Item {
    Text(String),
    Child(usize),
}

/// Builds the raw tree of `walk`.
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
        for (k, item) in items.into_iter().enumerate() {
            match item {
                Item::Child(c) => tree.attach(ids[i], ids[c], None),
                Item::Text(t) => {
                    let native = NativeId::new(raw.obj.bus.clone(), format!("{}#text{k}", raw.obj.path));
                    let mut text = Node::new(Role::Text, t, native);
                    text.flags.hidden = tree.node(ids[i]).flags.hidden;
                    tree.append(ids[i], text);
                }
            }
        }
        if raw.child_count > MANY_CHILDREN && (raw.children.len() as i64) < i64::from(raw.child_count) {
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
    tree
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
    } else if let Some((current, _, _)) = raw.value {
        node.value = Some(number(current));
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
                && !matches!(role, Role::TextBox | Role::SearchBox | Role::SpinButton | Role::ComboBox) =>
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
