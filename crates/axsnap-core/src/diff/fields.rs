//! Field-by-field comparison of two nodes, and replaying one [`FieldChange`] on a node.

use super::{FieldChange, TextField};
use crate::tree::{Node, Rect, ValueRange};

/// The changes that turn `old`'s own fields into `new`'s, in a fixed field order. Refs and
/// arena links are not fields: the caller matched the nodes by ref.
pub(super) fn changes(old: &Node, new: &Node) -> Vec<FieldChange> {
    let mut out = Vec::new();
    macro_rules! cmp {
        ($field:ident, $variant:ident) => {
            cmp!($field, $variant, |a, b| a == b)
        };
        ($field:ident, $variant:ident, $eq:expr) => {
            if !$eq(&old.$field, &new.$field) {
                out.push(FieldChange::$variant { old: old.$field.clone(), new: new.$field.clone() });
            }
        };
    }
    cmp!(role, Role);
    cmp!(name, Name);
    cmp!(value, Value);
    cmp!(description, Description);
    cmp!(states, States);
    cmp!(actions, Actions);
    cmp!(level, Level);
    cmp!(url, Url);
    cmp!(options, Options);
    cmp!(range, Range, ValueRange::same);
    cmp!(bounds, Bounds, same_bounds);
    cmp!(dev_id, DevId);
    cmp!(native, Native);
    cmp!(flags, Flags);
    cmp!(folded, Folded);
    out
}

impl FieldChange {
    /// The field's name, as serialized (`"name"`, `"dev_id"`, ...).
    pub fn field(&self) -> &'static str {
        match self {
            FieldChange::Role { .. } => "role",
            FieldChange::Name { .. } => "name",
            FieldChange::Value { .. } => "value",
            FieldChange::Description { .. } => "description",
            FieldChange::States { .. } => "states",
            FieldChange::Actions { .. } => "actions",
            FieldChange::Level { .. } => "level",
            FieldChange::Url { .. } => "url",
            FieldChange::Options { .. } => "options",
            FieldChange::Range { .. } => "range",
            FieldChange::Bounds { .. } => "bounds",
            FieldChange::DevId { .. } => "dev_id",
            FieldChange::Native { .. } => "native",
            FieldChange::Flags { .. } => "flags",
            FieldChange::Folded { .. } => "folded",
            FieldChange::Edit { of: TextField::Name, .. } => "name",
            FieldChange::Edit { of: TextField::Value, .. } => "value",
            FieldChange::Edit { of: TextField::Description, .. } => "description",
        }
    }

    /// Sets the field on `node` to `new` if it currently equals `old`; otherwise leaves the
    /// node alone and returns the field's name.
    pub(super) fn apply_to(&self, node: &mut Node) -> Result<(), &'static str> {
        macro_rules! set {
            ($field:ident, $old:expr, $new:expr) => {
                set!($field, $old, $new, |a, b| a == b)
            };
            ($field:ident, $old:expr, $new:expr, $eq:expr) => {{
                if !$eq(&node.$field, $old) {
                    return Err(self.field());
                }
                node.$field = $new.clone();
            }};
        }
        match self {
            FieldChange::Role { old, new } => set!(role, old, new),
            FieldChange::Name { old, new } => set!(name, old, new),
            FieldChange::Value { old, new } => set!(value, old, new),
            FieldChange::Description { old, new } => set!(description, old, new),
            FieldChange::States { old, new } => set!(states, old, new),
            FieldChange::Actions { old, new } => set!(actions, old, new),
            FieldChange::Level { old, new } => set!(level, old, new),
            FieldChange::Url { old, new } => set!(url, old, new),
            FieldChange::Options { old, new } => set!(options, old, new),
            FieldChange::Range { old, new } => set!(range, old, new, ValueRange::same),
            FieldChange::Bounds { old, new } => set!(bounds, old, new, same_bounds),
            FieldChange::DevId { old, new } => set!(dev_id, old, new),
            FieldChange::Native { old, new } => set!(native, old, new),
            FieldChange::Flags { old, new } => set!(flags, old, new),
            FieldChange::Folded { old, new } => set!(folded, old, new),
            FieldChange::Edit { of, edit } => {
                let text = match of {
                    TextField::Name => Some(&mut node.name),
                    TextField::Value => node.value.as_mut(),
                    TextField::Description => node.description.as_mut(),
                };
                let Some(text) = text else { return Err(self.field()) };
                *text = edit.apply(text).ok_or(self.field())?;
            }
        }
        Ok(())
    }
}

/// Bounds compare bit for bit, so that a NaN coordinate (which JSON cannot carry, but a
/// backend bug could) equals itself and diff never makes an update its own `old` would fail.
fn same_bounds(a: &Option<Rect>, b: &Option<Rect>) -> bool {
    let bits = |r: &Option<Rect>| r.map(|r| [r.x.to_bits(), r.y.to_bits(), r.w.to_bits(), r.h.to_bits()]);
    bits(a) == bits(b)
}

/// A copy of a node's content without its arena links.
pub(super) fn detached(node: &Node) -> Node {
    Node {
        role: node.role.clone(),
        name: node.name.clone(),
        value: node.value.clone(),
        description: node.description.clone(),
        states: node.states,
        actions: node.actions,
        level: node.level,
        url: node.url.clone(),
        options: node.options.clone(),
        range: node.range,
        bounds: node.bounds,
        dev_id: node.dev_id.clone(),
        native: node.native.clone(),
        ref_id: node.ref_id,
        flags: node.flags,
        folded: node.folded.clone(),
        children: Vec::new(),
        parent: None,
    }
}
