//! The reader of Accessibility Insights for Windows' element JSON: the form its `.hier` and
//! `.snapshot` files hold, and the `el.snapshot` inside an `.a11ytest` zip ([`crate::archive`]).
//!
//! An element is an object with `Properties` (keyed by UIA property id: `"30005": {"Id":
//! 30005, "Name": "Name", "Value": "OK"}`), `Patterns` (a list of `{"Id": 10000, "Name":
//! "InvokePattern", "Properties": [{"Name": "...", "Value": ...}]}`) and `Children` (nested
//! elements). Everything else (scan results, screenshots, glimpses) is not read. Properties
//! are read by id, patterns by id (by name when a file gives none); a property of the wrong
//! type reads as absent rather than failing the file, since versions of the tool differ.
//!
//! serde_json parses with its recursion limit (a constant bound: a file nested past it is an
//! error that says so); the element tree is then walked with an explicit stack.

use axsnap_core::Rect;
use axsnap_desktop::deep_json::{nesting, with_room};
use serde::Deserialize;
use serde_json::{Map, Value};

use crate::element::{
    CellState, Element, Elements, ExpandState, GridState, LegacyState, Patterns, RangeState, ScrollState,
    SelectionState, ToggleState, ValueState, WindowState,
};
use crate::error::ReadError;
use crate::ids::{self, pattern, property};

/// Bounds on what the reader takes, so that a wrong or hostile file cannot exhaust memory.
#[derive(Clone, Copy, Debug)]
pub struct Limits {
    /// Most bytes of JSON (also the most an `.a11ytest` entry may inflate to).
    pub max_bytes: usize,
    /// Most elements.
    pub max_elements: usize,
    /// Most levels of elements inside elements (a web page in a browser's window sits some
    /// 20 levels down, and its own controls go deeper).
    pub max_depth: usize,
}

impl Default for Limits {
    fn default() -> Self {
        Limits { max_bytes: 256 << 20, max_elements: 1_000_000, max_depth: 5_000 }
    }
}

/// Reads an element tree from Accessibility Insights' JSON (a byte-order mark is allowed).
pub fn read_json(bytes: &[u8], limits: &Limits) -> Result<Elements, ReadError> {
    if bytes.len() > limits.max_bytes {
        return Err(ReadError::TooLarge { what: "the file", limit: limits.max_bytes });
    }
    let bytes = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
    let depth = nesting(bytes);
    if depth > limits.max_depth.saturating_mul(2).saturating_add(4) {
        return Err(ReadError::TooLarge { what: "the nesting of elements", limit: limits.max_depth });
    }
    with_room(depth, || elements_of(bytes, limits))?
}

/// [`read_json`] once the file is known to fit the stack it runs on.
fn elements_of(bytes: &[u8], limits: &Limits) -> Result<Elements, ReadError> {
    let json_error =
        |e: serde_json::Error| ReadError::Json { line: e.line(), column: e.column(), message: e.to_string() };
    let mut de = serde_json::Deserializer::from_slice(bytes);
    // The depth was checked above, against the stack this runs on.
    de.disable_recursion_limit();
    let top = Value::deserialize(&mut de).map_err(json_error)?;
    de.end().map_err(json_error)?;
    let Some(root) = top.as_object().filter(|o| is_element(o)) else {
        return Err(ReadError::NotAnElement("its top level has neither `Properties` nor `Children`".into()));
    };
    let mut out = Elements::default();
    let mut stack: Vec<(&Map<String, Value>, Option<usize>)> = vec![(root, None)];
    while let Some((obj, parent)) = stack.pop() {
        if out.len() >= limits.max_elements {
            return Err(ReadError::TooLarge { what: "the element count", limit: limits.max_elements });
        }
        let id = out.push(parent, element(obj));
        let kids = obj.get("Children").and_then(Value::as_array).map(Vec::as_slice).unwrap_or_default();
        // Reversed onto the stack so that elements are numbered in document order.
        for kid in kids.iter().rev().filter_map(Value::as_object) {
            stack.push((kid, Some(id)));
        }
    }
    Ok(out)
}

fn is_element(o: &Map<String, Value>) -> bool {
    o.contains_key("Properties") || o.contains_key("Children")
}

/// The properties of one element by id: `"30005": {"Value": ...}`.
struct Props<'a>(Option<&'a Map<String, Value>>);

impl<'a> Props<'a> {
    fn get(&self, id: i32) -> Option<&'a Value> {
        let p = self.0?.get(id.to_string().as_str())?;
        // Always `{"Value": ...}` in the files seen; a bare value is taken too.
        match p {
            Value::Object(o) => o.get("Value"),
            other => Some(other),
        }
    }
    fn str(&self, id: i32) -> String {
        self.get(id).and_then(Value::as_str).unwrap_or_default().to_string()
    }
    fn bool(&self, id: i32) -> Option<bool> {
        self.get(id).and_then(as_bool)
    }
}

fn as_bool(v: &Value) -> Option<bool> {
    match v {
        Value::Bool(b) => Some(*b),
        Value::String(s) if s.eq_ignore_ascii_case("true") => Some(true),
        Value::String(s) if s.eq_ignore_ascii_case("false") => Some(false),
        _ => None,
    }
}

fn as_i64(v: &Value) -> Option<i64> {
    match v {
        Value::Number(n) => n.as_i64().or_else(|| n.as_f64().filter(|f| f.fract() == 0.0).map(|f| f as i64)),
        Value::String(s) => s.trim().parse().ok(),
        _ => None,
    }
}

fn as_f64(v: &Value) -> Option<f64> {
    match v {
        Value::Number(n) => n.as_f64(),
        Value::String(s) => s.trim().parse().ok(),
        _ => None,
    }
}

/// One element's own fields (its children are the caller's).
fn element(obj: &Map<String, Value>) -> Element {
    let p = Props(obj.get("Properties").and_then(Value::as_object));
    let top = |k: &str| obj.get(k);
    let mut e = Element {
        control_type: p
            .get(property::CONTROL_TYPE)
            .or_else(|| top("ControlTypeId"))
            .and_then(as_i64)
            .and_then(|n| i32::try_from(n).ok()),
        localized_control_type: p.str(property::LOCALIZED_CONTROL_TYPE),
        name: p.str(property::NAME),
        automation_id: p.str(property::AUTOMATION_ID),
        class_name: p.str(property::CLASS_NAME),
        framework_id: p.str(property::FRAMEWORK_ID),
        bounds: p.get(property::BOUNDING_RECTANGLE).and_then(rect),
        enabled: p.bool(property::IS_ENABLED).unwrap_or(true),
        offscreen: p.bool(property::IS_OFFSCREEN).unwrap_or(false),
        focused: p.bool(property::HAS_KEYBOARD_FOCUS).unwrap_or(false),
        focusable: p.bool(property::IS_KEYBOARD_FOCUSABLE).unwrap_or(false),
        password: p.bool(property::IS_PASSWORD).unwrap_or(false),
        control_element: p.bool(property::IS_CONTROL_ELEMENT).unwrap_or(true),
        required: p.bool(property::IS_REQUIRED_FOR_FORM).unwrap_or(false),
        help_text: p.str(property::HELP_TEXT),
        item_status: p.str(property::ITEM_STATUS),
        heading_level: p.get(property::HEADING_LEVEL).and_then(as_i64).and_then(heading_level),
        dialog: p.bool(property::IS_DIALOG).unwrap_or(false),
        runtime_id: p
            .get(property::RUNTIME_ID)
            .and_then(Value::as_array)
            .map(|a| a.iter().filter_map(as_i64).collect())
            .unwrap_or_default(),
        process_id: p.get(property::PROCESS_ID).and_then(as_i64).and_then(|n| u32::try_from(n).ok()),
        patterns: patterns(obj.get("Patterns")),
    };
    // A file without `Properties` (an older form) still says what the element is at its top.
    if e.name.is_empty() {
        e.name = top("Name").and_then(Value::as_str).unwrap_or_default().to_string();
    }
    if e.localized_control_type.is_empty() {
        e.localized_control_type =
            top("LocalizedControlType").and_then(Value::as_str).unwrap_or_default().into();
    }
    e
}

/// `HeadingLevel1`..`9` are 80051..80059; `HeadingLevel_None` (80050) is none.
fn heading_level(n: i64) -> Option<u32> {
    (80051..=80059).contains(&n).then(|| (n - 80050) as u32)
}

/// `[left, top, width, height]`; an empty rectangle (UIA's answer for an element with no
/// place on screen) is none.
fn rect(v: &Value) -> Option<Rect> {
    let a = v.as_array()?;
    let [x, y, w, h] = [a.first()?, a.get(1)?, a.get(2)?, a.get(3)?].map(as_f64);
    let r = Rect { x: x?, y: y?, w: w?, h: h? };
    (r.w > 0.0 && r.h > 0.0 && [r.x, r.y, r.w, r.h].iter().all(|f| f.is_finite())).then_some(r)
}

/// A pattern's properties by name (names are trimmed: one file says
/// `"HorizontalScrollPercent "`).
struct PatternProps<'a>(&'a [Value]);

impl<'a> PatternProps<'a> {
    fn get(&self, name: &str) -> Option<&'a Value> {
        self.0.iter().filter_map(Value::as_object).find_map(|p| {
            let n = p.get("Name").and_then(Value::as_str)?;
            (n.trim() == name).then(|| p.get("Value")).flatten()
        })
    }
    fn bool(&self, name: &str) -> bool {
        self.get(name).and_then(as_bool).unwrap_or(false)
    }
    fn u32(&self, name: &str) -> u32 {
        self.get(name).and_then(as_i64).and_then(|n| u32::try_from(n).ok()).unwrap_or(0)
    }
    fn f64(&self, name: &str) -> f64 {
        self.get(name).and_then(as_f64).unwrap_or(0.0)
    }
    fn str(&self, name: &str) -> String {
        self.get(name).and_then(Value::as_str).unwrap_or_default().to_string()
    }
}

fn patterns(v: Option<&Value>) -> Patterns {
    let mut out = Patterns::default();
    for p in v.and_then(Value::as_array).map(Vec::as_slice).unwrap_or_default() {
        let Some(p) = p.as_object() else { continue };
        let id = p
            .get("Id")
            .and_then(as_i64)
            .and_then(|n| i32::try_from(n).ok())
            .or_else(|| p.get("Name").and_then(Value::as_str).and_then(ids::pattern_by_name));
        let props = p.get("Properties").and_then(Value::as_array).map(Vec::as_slice).unwrap_or_default();
        let q = PatternProps(props);
        match id {
            Some(pattern::INVOKE) => out.invoke = true,
            Some(pattern::TOGGLE) => {
                // A toggle whose state is missing or unknown is still a toggle: say off.
                out.toggle = Some(
                    q.get("ToggleState")
                        .and_then(as_i64)
                        .and_then(ToggleState::from_uia)
                        .unwrap_or(ToggleState::Off),
                )
            }
            Some(pattern::EXPAND_COLLAPSE) => {
                out.expand_collapse = Some(
                    q.get("ExpandCollapseState")
                        .and_then(as_i64)
                        .and_then(ExpandState::from_uia)
                        .unwrap_or(ExpandState::Collapsed),
                )
            }
            Some(pattern::VALUE) => {
                out.value = Some(ValueState { value: q.str("Value"), read_only: q.bool("IsReadOnly") })
            }
            Some(pattern::RANGE_VALUE) => {
                out.range_value = Some(RangeState {
                    value: q.f64("Value"),
                    minimum: q.f64("Minimum"),
                    maximum: q.f64("Maximum"),
                    read_only: q.bool("IsReadOnly"),
                })
            }
            Some(pattern::SELECTION) => {
                out.selection = Some(SelectionState {
                    multiple: q.bool("CanSelectMultiple"),
                    required: q.bool("IsSelectionRequired"),
                })
            }
            Some(pattern::SELECTION_ITEM) => out.selection_item = Some(q.bool("IsSelected")),
            Some(pattern::GRID) => {
                out.grid = Some(GridState { rows: q.u32("RowCount"), columns: q.u32("ColumnCount") })
            }
            // TableItem's cell is GridItem's; either gives it.
            Some(pattern::GRID_ITEM | pattern::TABLE_ITEM)
                if out.grid_item.is_none() || q.get("Row").is_some() =>
            {
                out.grid_item = Some(CellState { row: q.u32("Row"), column: q.u32("Column") });
            }
            Some(pattern::TABLE) => out.table = true,
            Some(pattern::WINDOW) => {
                out.window = Some(WindowState {
                    modal: q.bool("IsModal"),
                    topmost: q.bool("IsTopmost"),
                    can_maximize: q.bool("CanMaximize"),
                    can_minimize: q.bool("CanMinimize"),
                })
            }
            Some(pattern::SCROLL) => {
                out.scroll = Some(ScrollState {
                    horizontal: q.bool("HorizontallyScrollable"),
                    vertical: q.bool("VerticallyScrollable"),
                })
            }
            Some(pattern::SCROLL_ITEM) => out.scroll_item = true,
            Some(pattern::TEXT) => out.text = true,
            Some(pattern::LEGACY_IACCESSIBLE) => {
                out.legacy = Some(LegacyState {
                    default_action: q.str("DefaultAction"),
                    state: q.u32("State"),
                    value: q.str("Value"),
                })
            }
            _ => {}
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ids::control;

    const BUTTON: &str = r#"{
      "Properties": {
        "30000": {"Id": 30000, "Name": "RuntimeId", "Value": [42, 65694]},
        "30001": {"Id": 30001, "Name": "BoundingRectangle", "Value": [10.0, 20.0, 30.0, 40.0]},
        "30003": {"Id": 30003, "Name": "ControlType", "Value": 50000},
        "30005": {"Id": 30005, "Name": "Name", "Value": "Start"},
        "30010": {"Id": 30010, "Name": "IsEnabled", "Value": false},
        "30173": {"Id": 30173, "Name": "HeadingLevel", "Value": 80050}
      },
      "Patterns": [
        {"Id": 10000, "Name": "InvokePattern", "Properties": []},
        {"Name": "TogglePattern", "Properties": [{"Name": "ToggleState", "Value": 1}]},
        {"Id": 10004, "Name": "ScrollPattern", "Properties": [
          {"Name": "VerticallyScrollable ", "Value": true}]}
      ],
      "Children": [
        {"Properties": {"30005": {"Value": "a"}}, "Children": [{"Properties": {"30005": {"Value": "b"}}}]},
        {"Properties": {"30005": {"Value": "c"}}}
      ],
      "ScanResults": {"ignored": true}
    }"#;

    #[test]
    fn reads_properties_patterns_and_children_in_order() {
        let mut bytes = b"\xEF\xBB\xBF".to_vec();
        bytes.extend_from_slice(BUTTON.as_bytes());
        let t = read_json(&bytes, &Limits::default()).unwrap();
        let b = &t.nodes[0];
        assert_eq!(b.control_type, Some(control::BUTTON));
        assert_eq!(b.name, "Start");
        assert_eq!(b.runtime_id, vec![42, 65694]);
        assert_eq!(b.bounds, Some(Rect { x: 10.0, y: 20.0, w: 30.0, h: 40.0 }));
        assert!(!b.enabled && b.heading_level.is_none());
        assert!(b.patterns.invoke);
        assert_eq!(b.patterns.toggle, Some(ToggleState::On));
        assert_eq!(b.patterns.scroll, Some(ScrollState { horizontal: false, vertical: true }));
        let names: Vec<&str> = t.nodes.iter().map(|e| e.name.as_str()).collect();
        assert_eq!(names, ["Start", "a", "b", "c"]);
        assert_eq!(t.children[0], [1, 3]);
        assert_eq!(t.children[1], [2]);
    }

    #[test]
    fn wrong_files_say_what_they_are() {
        let e = read_json(b"{\"format\": \"axsnap-tree\"}", &Limits::default()).unwrap_err();
        assert!(matches!(e, ReadError::NotAnElement(_)), "{e}");
        let e = read_json(b"{\"Properties\": ", &Limits::default()).unwrap_err();
        assert!(e.to_string().contains("line 1"), "{e}");
        let small = Limits { max_bytes: 10, max_elements: 2, ..Limits::default() };
        assert!(matches!(read_json(BUTTON.as_bytes(), &small), Err(ReadError::TooLarge { .. })));
        let few = Limits { max_elements: 2, ..Limits::default() };
        assert!(matches!(read_json(BUTTON.as_bytes(), &few), Err(ReadError::TooLarge { .. })));
    }

    #[test]
    fn deep_nesting_is_an_error_not_a_crash() {
        let depth = 10_000;
        let mut s = String::new();
        for _ in 0..depth {
            s.push_str(r#"{"Properties": {}, "Children": ["#);
        }
        for _ in 0..depth {
            s.push_str("]}");
        }
        assert!(matches!(read_json(s.as_bytes(), &Limits::default()), Err(ReadError::TooLarge { .. })));
        // Within the limit, as deep a tree reads whole (past serde_json's own 128 levels).
        let deep = Limits { max_depth: depth, ..Limits::default() };
        assert_eq!(read_json(s.as_bytes(), &deep).map(|e| e.len()).ok(), Some(depth));
    }
}
