//! The writer of Accessibility Insights for Windows' element JSON, the inverse of
//! [`crate::reader`]: a captured window written as the `.snapshot`/`.hier` form, so that it can
//! be attached to a bug report and replayed anywhere with `--recording FILE`.
//!
//! The form is the one Accessibility Insights writes (the `el.snapshot` of its `.a11ytest`
//! files): an element object with `Properties` keyed by UIA property id (`"30005": {"Id":
//! 30005, "Name": "Name", "Value": "OK"}`), `Patterns` as a list of `{"Id": 10015, "Name":
//! "TogglePattern", "Properties": [{"Name": "ToggleState", "Value": 1}]}` and `Children`. Values
//! have the types the tool gives them: ids and states as integers, `BoundingRectangle` as
//! `[left, top, width, height]` floats, `RuntimeId` as an array of integers.
//!
//! As Accessibility Insights does, string properties that are empty, and properties an element
//! does not have (`None`), are left out; the reader gives the same defaults back. Booleans and
//! `HeadingLevel` are always written, as the tool writes them. What the tool adds for its own
//! display (`TextValue`, `NodeValue`, `IsUIActionable`, screenshots, scan results) is not
//! written: [`Element`] does not hold it and nothing reads it back.
//!
//! The text is built with an explicit stack, never by recursion (nor by serializing a nested
//! `serde_json::Value`, which recurses), because trees can be thousands of elements deep.
//! The reader takes trees up to [`crate::Limits::max_depth`] elements deep (5,000 by
//! default); a deeper one is written, and the reader refuses it saying so.

use serde_json::{Number, Value};

use crate::element::{Element, Elements, ExpandState, Patterns, ToggleState};
use crate::ids::{pattern, property};

/// Indentation stops growing past this many levels of JSON nesting (about 30 elements deep):
/// indenting every line of a tree thousands deep by its depth would make the text grow with
/// the square of the depth. Whitespace means nothing to a JSON reader.
const MAX_INDENT: usize = 64;

/// `HeadingLevel_None`; `HeadingLevel1`..`9` follow it (80051..80059).
const HEADING_LEVEL_NONE: i64 = 80050;

/// Writes `elements` as Accessibility Insights' element JSON (pretty, UTF-8, no byte-order
/// mark), which [`crate::read_json`] reads back into the same elements.
///
/// The root is the first element; what is written is its subtree, elements in document
/// order. So the round trip gives back the same [`Elements`] when they are numbered in that
/// order (as the reader numbers them, and as a depth-first walk pushes them); a tree numbered
/// otherwise comes back as the same tree, renumbered. An element no path from the root reaches
/// is not written, and one listed a second time (or an edge back up the tree) is skipped, so
/// that a malformed arena cannot make the writer loop. An empty tree, having no element to be
/// the file's top, is written as one element with every property at its default.
///
/// What the reader would not take back is not kept either: a heading level outside 1 to 9
/// reads as none, and bounds with no area or with an edge that is not finite read as none
/// (the reader's rule for UIA's empty rectangle). A NaN in a range is written as `"NaN"` and
/// reads back as NaN (which, being unequal to itself, makes the trees compare unequal).
pub fn write_json(elements: &Elements) -> Vec<u8> {
    let mut out = Out { buf: Vec::with_capacity(elements.len().saturating_mul(1024).min(64 << 20)) };
    let Some(root) = elements.root() else {
        out.open_element(&Element::default(), 0);
        out.close_element(0, false);
        out.buf.push(b'\n');
        return out.buf;
    };
    let n = elements.len();
    let mut written = vec![false; n];
    written[0] = true;
    out.open_element(root, 0);
    // Each open element: its index, the position of the next child to look at, whether a
    // child has been written (for the comma and for `[]`), and its JSON nesting level.
    let mut stack: Vec<Frame> = vec![Frame { node: 0, next: 0, any: false, level: 0 }];
    while let Some(frame) = stack.last_mut() {
        let kids = elements.children.get(frame.node).map(Vec::as_slice).unwrap_or_default();
        let mut child = None;
        while let Some(&c) = kids.get(frame.next) {
            frame.next += 1;
            if c < n && !written[c] {
                child = Some(c);
                break;
            }
        }
        let level = frame.level;
        match child {
            Some(c) => {
                if frame.any {
                    out.buf.push(b',');
                }
                frame.any = true;
                written[c] = true;
                // An element's object is at `level`, its `Children` array one deeper, the
                // children's objects two deeper.
                out.newline(level + 2);
                out.open_element(&elements.nodes[c], level + 2);
                stack.push(Frame { node: c, next: 0, any: false, level: level + 2 });
            }
            None => {
                let any = frame.any;
                stack.pop();
                out.close_element(level, any);
            }
        }
    }
    out.buf.push(b'\n');
    out.buf
}

/// An element whose `Children` are being written.
struct Frame {
    node: usize,
    next: usize,
    any: bool,
    level: usize,
}

/// The text being written.
struct Out {
    buf: Vec<u8>,
}

impl Out {
    fn push(&mut self, s: &str) {
        self.buf.extend_from_slice(s.as_bytes());
    }

    fn newline(&mut self, level: usize) {
        self.buf.push(b'\n');
        let width = 2 * level.min(MAX_INDENT);
        self.buf.resize(self.buf.len() + width, b' ');
    }

    /// Writes `{`, the element's `Properties` and `Patterns`, and opens its `Children` (which
    /// [`Out::close_element`] closes once the children are written).
    fn open_element(&mut self, e: &Element, level: usize) {
        self.push("{");
        self.newline(level + 1);
        self.push("\"Properties\": {");
        for (i, (id, name, value)) in properties(e).into_iter().enumerate() {
            if i > 0 {
                self.push(",");
            }
            self.newline(level + 2);
            // Keys are ids as strings, as Accessibility Insights writes them.
            self.push(&format!(
                "\"{id}\": {{\"Id\": {id}, \"Name\": \"{name}\", \"Value\": {}}}",
                inline(&value)
            ));
        }
        self.newline(level + 1);
        self.push("},");
        self.newline(level + 1);
        let list = patterns(&e.patterns);
        if list.is_empty() {
            self.push("\"Patterns\": [],");
        } else {
            self.push("\"Patterns\": [");
            for (i, (id, name, props)) in list.into_iter().enumerate() {
                if i > 0 {
                    self.push(",");
                }
                self.newline(level + 2);
                let props: Vec<String> = props
                    .into_iter()
                    .map(|(n, v)| format!("{{\"Name\": \"{n}\", \"Value\": {}}}", inline(&v)))
                    .collect();
                self.push(&format!(
                    "{{\"Id\": {id}, \"Name\": \"{name}\", \"Properties\": [{}]}}",
                    props.join(", ")
                ));
            }
            self.newline(level + 1);
            self.push("],");
        }
        self.newline(level + 1);
        self.push("\"Children\": [");
    }

    /// Closes the `Children` array [`Out::open_element`] opened (`any`: whether a child was
    /// written into it) and the element's object.
    fn close_element(&mut self, level: usize, any: bool) {
        if any {
            self.newline(level + 1);
        }
        self.push("]");
        self.newline(level);
        self.push("}");
    }
}

/// A property's or pattern property's value on one line: a scalar, or an array of scalars
/// (`RuntimeId`, `BoundingRectangle`). Nothing nests deeper, so this does not recurse.
fn inline(v: &Value) -> String {
    match v {
        Value::Array(items) => {
            let items: Vec<String> = items.iter().map(Value::to_string).collect();
            format!("[{}]", items.join(", "))
        }
        // Display of a scalar is its JSON: strings quoted and escaped, floats in full.
        scalar => scalar.to_string(),
    }
}

/// A float as JSON. serde_json writes the shortest text that reads back as the same float
/// (`428.0`, `0.1`). JSON has no NaN or infinity: those are written as the strings
/// Accessibility Insights' serializer (Json.NET) writes for them, which the reader parses.
fn float(f: f64) -> Value {
    match Number::from_f64(f) {
        Some(n) => Value::Number(n),
        None if f.is_nan() => Value::from("NaN"),
        None if f > 0.0 => Value::from("Infinity"),
        None => Value::from("-Infinity"),
    }
}

/// The element's properties in id order, each as (id, Accessibility Insights' name, value).
fn properties(e: &Element) -> Vec<(i32, &'static str, Value)> {
    let mut p: Vec<(i32, &'static str, Value)> = Vec::with_capacity(20);
    if !e.runtime_id.is_empty() {
        p.push((property::RUNTIME_ID, "RuntimeId", Value::from(e.runtime_id.clone())));
    }
    if let Some(r) = e.bounds {
        let rect = [r.x, r.y, r.w, r.h].map(float).to_vec();
        p.push((property::BOUNDING_RECTANGLE, "BoundingRectangle", Value::Array(rect)));
    }
    if let Some(pid) = e.process_id {
        p.push((property::PROCESS_ID, "ProcessId", Value::from(pid)));
    }
    if let Some(ct) = e.control_type {
        p.push((property::CONTROL_TYPE, "ControlType", Value::from(ct)));
    }
    text(&mut p, property::LOCALIZED_CONTROL_TYPE, "LocalizedControlType", &e.localized_control_type);
    text(&mut p, property::NAME, "Name", &e.name);
    p.push((property::HAS_KEYBOARD_FOCUS, "HasKeyboardFocus", Value::from(e.focused)));
    p.push((property::IS_KEYBOARD_FOCUSABLE, "IsKeyboardFocusable", Value::from(e.focusable)));
    p.push((property::IS_ENABLED, "IsEnabled", Value::from(e.enabled)));
    text(&mut p, property::AUTOMATION_ID, "AutomationId", &e.automation_id);
    text(&mut p, property::CLASS_NAME, "ClassName", &e.class_name);
    text(&mut p, property::HELP_TEXT, "HelpText", &e.help_text);
    p.push((property::IS_CONTROL_ELEMENT, "IsControlElement", Value::from(e.control_element)));
    p.push((property::IS_PASSWORD, "IsPassword", Value::from(e.password)));
    p.push((property::IS_OFFSCREEN, "IsOffscreen", Value::from(e.offscreen)));
    text(&mut p, property::FRAMEWORK_ID, "FrameworkId", &e.framework_id);
    p.push((property::IS_REQUIRED_FOR_FORM, "IsRequiredForForm", Value::from(e.required)));
    text(&mut p, property::ITEM_STATUS, "ItemStatus", &e.item_status);
    // Levels 1 to 9 only, as the property defines; anything else is "none".
    let level = e.heading_level.filter(|l| (1..=9).contains(l)).map_or(0, i64::from);
    p.push((property::HEADING_LEVEL, "HeadingLevel", Value::from(HEADING_LEVEL_NONE + level)));
    p.push((property::IS_DIALOG, "IsDialog", Value::from(e.dialog)));
    p
}

/// A string property, left out when empty as the tool does (the reader reads an absent string
/// as empty).
fn text(p: &mut Vec<(i32, &'static str, Value)>, id: i32, name: &'static str, s: &str) {
    if !s.is_empty() {
        p.push((id, name, Value::from(s)));
    }
}

/// One pattern as written: (id, name, its properties as (name, value)).
type PatternOut = (i32, &'static str, Vec<(&'static str, Value)>);

/// The patterns the element supports, in id order, with the state [`Patterns`] holds. Property
/// names and value types are Accessibility Insights' (states as UIA's integers).
fn patterns(ps: &Patterns) -> Vec<PatternOut> {
    let mut out: Vec<PatternOut> = Vec::new();
    let b = Value::from;
    if ps.invoke {
        out.push((pattern::INVOKE, "InvokePattern", vec![]));
    }
    if let Some(s) = ps.selection {
        out.push((
            pattern::SELECTION,
            "SelectionPattern",
            vec![("CanSelectMultiple", b(s.multiple)), ("IsSelectionRequired", b(s.required))],
        ));
    }
    if let Some(v) = &ps.value {
        out.push((
            pattern::VALUE,
            "ValuePattern",
            vec![("IsReadOnly", b(v.read_only)), ("Value", Value::from(v.value.as_str()))],
        ));
    }
    if let Some(r) = ps.range_value {
        out.push((
            pattern::RANGE_VALUE,
            "RangeValuePattern",
            vec![
                ("IsReadOnly", b(r.read_only)),
                ("Maximum", float(r.maximum)),
                ("Minimum", float(r.minimum)),
                ("Value", float(r.value)),
            ],
        ));
    }
    if let Some(s) = ps.scroll {
        out.push((
            pattern::SCROLL,
            "ScrollPattern",
            vec![("HorizontallyScrollable", b(s.horizontal)), ("VerticallyScrollable", b(s.vertical))],
        ));
    }
    if let Some(s) = ps.expand_collapse {
        let n = match s {
            ExpandState::Collapsed => 0,
            ExpandState::Expanded => 1,
            ExpandState::PartiallyExpanded => 2,
            ExpandState::LeafNode => 3,
        };
        out.push((
            pattern::EXPAND_COLLAPSE,
            "ExpandCollapsePattern",
            vec![("ExpandCollapseState", Value::from(n))],
        ));
    }
    if let Some(g) = ps.grid {
        out.push((
            pattern::GRID,
            "GridPattern",
            vec![("ColumnCount", Value::from(g.columns)), ("RowCount", Value::from(g.rows))],
        ));
    }
    if let Some(c) = ps.grid_item {
        // A TableItem's cell is written as the GridItem it also is; the reader takes either.
        out.push((
            pattern::GRID_ITEM,
            "GridItemPattern",
            vec![("Column", Value::from(c.column)), ("Row", Value::from(c.row))],
        ));
    }
    if let Some(w) = ps.window {
        out.push((
            pattern::WINDOW,
            "WindowPattern",
            vec![
                ("CanMaximize", b(w.can_maximize)),
                ("CanMinimize", b(w.can_minimize)),
                ("IsModal", b(w.modal)),
                ("IsTopmost", b(w.topmost)),
            ],
        ));
    }
    if let Some(selected) = ps.selection_item {
        out.push((pattern::SELECTION_ITEM, "SelectionItemPattern", vec![("IsSelected", b(selected))]));
    }
    if ps.table {
        out.push((pattern::TABLE, "TablePattern", vec![]));
    }
    if ps.text {
        out.push((pattern::TEXT, "TextPattern", vec![]));
    }
    if let Some(t) = ps.toggle {
        let n = match t {
            ToggleState::Off => 0,
            ToggleState::On => 1,
            ToggleState::Indeterminate => 2,
        };
        out.push((pattern::TOGGLE, "TogglePattern", vec![("ToggleState", Value::from(n))]));
    }
    if ps.scroll_item {
        out.push((pattern::SCROLL_ITEM, "ScrollItemPattern", vec![]));
    }
    if let Some(l) = &ps.legacy {
        out.push((
            pattern::LEGACY_IACCESSIBLE,
            "LegacyIAccessiblePattern",
            vec![
                ("DefaultAction", Value::from(l.default_action.as_str())),
                ("State", Value::from(l.state)),
                ("Value", Value::from(l.value.as_str())),
            ],
        ));
    }
    out
}

#[cfg(test)]
mod tests;
