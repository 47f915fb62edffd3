//! The reader of AX recordings: JSON of nested elements keyed by the AX attribute names, in
//! files named `*.axjson`.
//!
//! ```json
//! {
//!   "format": "axsnap-ax-recording",
//!   "version": 1,
//!   "app": "Finder",
//!   "pid": 412,
//!   "root": {
//!     "AXRole": "AXWindow", "AXSubrole": "AXStandardWindow", "AXTitle": "Downloads",
//!     "AXPosition": [0, 25], "AXSize": [900, 560], "actions": ["AXRaise"],
//!     "AXChildren": [
//!       {"AXRole": "AXButton", "AXTitle": "OK", "actions": ["AXPress"], "settable": ["AXFocused"]}
//!     ]
//!   }
//! }
//! ```
//!
//! The wrapper names the format (so a file says what it is whatever its name), the app, and
//! the process id; a bare element (an object with `AXRole`) is read too. An element's keys:
//! the string attributes `AXRole`, `AXSubrole`, `AXRoleDescription`, `AXTitle`,
//! `AXDescription`, `AXHelp`, `AXPlaceholderValue`, `AXIdentifier`, `AXURL`,
//! `AXMenuItemMarkChar`; the booleans `AXEnabled`, `AXFocused`, `AXSelected`, `AXExpanded`,
//! `AXDisclosing`, `AXModal`, `AXRequired`; `AXValue` (a string, number or boolean);
//! `AXPosition` `[x, y]` and `AXSize` `[w, h]`; `AXMinValue`, `AXMaxValue`; `actions` and
//! `settable` (lists of AX names); `AXChildren`; `pid`; and `id`, a name of the recording's
//! own that `AXTitleUIElement` refers to (the AX API hands back an element; a file names it).
//! A `null` is the attribute absent; other keys are ignored, so a newer file still reads. A
//! value of the wrong kind is an error that says where: the file is written by hand or by a
//! tool, and a silently dropped attribute would make a wrong golden.
//!
//! The element tree is walked with an explicit stack. serde_json parses deep files by
//! recursion, so the depth is scanned first: past [`Limits::max_depth`] is an error, and a
//! deep file is parsed on a thread with a stack reserved for it.

use std::collections::HashMap;

use axsnap_core::Rect;
use axsnap_desktop::deep_json::{nesting, with_room};
use serde_json::{Map, Value};

use crate::element::{AxAction, Element, Elements};
use crate::error::ReadError;

/// What the `format` field of an AX recording says.
pub const FORMAT: &str = "axsnap-ax-recording";

/// The version of the format this reader reads.
pub const VERSION: u64 = 1;

/// An AX recording as read: its elements, and what the wrapper said of them.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct AxRecording {
    /// The app's name, when the file gives it.
    pub app: Option<String>,
    /// The elements; the root is the first.
    pub elements: Elements,
}

/// Bounds on what the reader takes, so that a wrong or hostile file cannot exhaust memory.
#[derive(Clone, Copy, Debug)]
pub struct Limits {
    /// Most bytes of JSON.
    pub max_bytes: usize,
    /// Most elements.
    pub max_elements: usize,
    /// Most levels of elements inside elements (an Electron page sits some 30 levels down).
    pub max_depth: usize,
}

impl Default for Limits {
    fn default() -> Self {
        Limits { max_bytes: 256 << 20, max_elements: 1_000_000, max_depth: 2_000 }
    }
}

/// Reads an AX recording from its bytes (a byte-order mark is allowed).
pub fn read_json(bytes: &[u8], limits: &Limits) -> Result<AxRecording, ReadError> {
    if bytes.len() > limits.max_bytes {
        return Err(ReadError::TooLarge { what: "the file", limit: limits.max_bytes });
    }
    let bytes = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
    let depth = nesting(bytes);
    // Each level of elements is two of JSON (the element, its `AXChildren`), plus the wrapper
    // and the small arrays of an element.
    if depth > limits.max_depth.saturating_mul(2).saturating_add(4) {
        return Err(ReadError::TooLarge { what: "the nesting of elements", limit: limits.max_depth });
    }
    with_room(depth, || parse(bytes, limits))?
}

/// [`read_json`] once the file is known to fit the stack it runs on.
fn parse(bytes: &[u8], limits: &Limits) -> Result<AxRecording, ReadError> {
    use serde::Deserialize as _;
    let json_error =
        |e: serde_json::Error| ReadError::Json { line: e.line(), column: e.column(), message: e.to_string() };
    let mut de = serde_json::Deserializer::from_slice(bytes);
    // The depth was checked above, against the stack this runs on.
    de.disable_recursion_limit();
    let top = Value::deserialize(&mut de).map_err(json_error)?;
    de.end().map_err(json_error)?;
    let Some(top) = top.as_object() else {
        return Err(ReadError::NotARecording("its top level is not an object".into()));
    };
    let (root, app, pid) = if top.contains_key("AXRole") {
        (top, None, None)
    } else {
        match top.get("format").and_then(Value::as_str) {
            Some(FORMAT) => {}
            Some(other) => return Err(ReadError::NotARecording(format!("its format is {other:?}"))),
            None => return Err(ReadError::NotARecording("it has no `format` and no `AXRole`".into())),
        }
        match top.get("version").and_then(Value::as_u64) {
            Some(VERSION) => {}
            Some(v) => return Err(ReadError::Version(v)),
            None => return Err(ReadError::NotARecording("it has no `version`".into())),
        }
        let Some(root) = top.get("root").and_then(Value::as_object) else {
            return Err(ReadError::NotARecording("it has no `root` element".into()));
        };
        let app = text(top, "app", "recording")?.filter(|a| !a.trim().is_empty());
        (root, app, int(top, "pid", "recording")?)
    };
    let elements = walk(root, pid, limits)?;
    Ok(AxRecording { app, elements })
}

/// The element tree under `root`, in document order, title elements resolved.
fn walk(root: &Map<String, Value>, pid: Option<i32>, limits: &Limits) -> Result<Elements, ReadError> {
    let mut out = Elements::default();
    let mut ids: HashMap<String, usize> = HashMap::new();
    // (element, its index, where it is) for each `AXTitleUIElement`, resolved once all are read.
    let mut titled: Vec<(usize, String, String)> = Vec::new();
    let mut stack: Vec<(&Map<String, Value>, Option<usize>, String)> = vec![(root, None, "root".into())];
    while let Some((obj, parent, at)) = stack.pop() {
        if out.len() >= limits.max_elements {
            return Err(ReadError::TooLarge { what: "the element count", limit: limits.max_elements });
        }
        let mut e = element(obj, &at)?;
        if parent.is_none() {
            e.pid = e.pid.or(pid);
        }
        let index = out.push(parent, e);
        if let Some(id) = text(obj, "id", &at)? {
            if ids.insert(id.clone(), index).is_some() {
                return Err(ReadError::DuplicateId { at, id });
            }
        }
        if let Some(label) = text(obj, "AXTitleUIElement", &at)? {
            titled.push((index, label, at.clone()));
        }
        let kids = match obj.get("AXChildren") {
            None | Some(Value::Null) => &[][..],
            Some(Value::Array(kids)) => kids.as_slice(),
            Some(_) => return Err(wrong(&at, "AXChildren", "must be a list of elements")),
        };
        // Reversed onto the stack so that elements are numbered in document order.
        for (i, kid) in kids.iter().enumerate().rev() {
            let kid_at = format!("{at}.AXChildren[{i}]");
            let Some(kid) = kid.as_object() else {
                return Err(wrong(&kid_at, "AXChildren", "must hold elements (objects)"));
            };
            stack.push((kid, Some(index), kid_at));
        }
    }
    for (index, label, at) in titled {
        let Some(&target) = ids.get(&label) else {
            return Err(ReadError::UnknownTitleElement { at, id: label });
        };
        out.nodes[index].title_element = Some(target);
    }
    Ok(out)
}

/// One element's own attributes (its children are the caller's).
fn element(obj: &Map<String, Value>, at: &str) -> Result<Element, ReadError> {
    let s = |key: &str| text(obj, key, at).map(Option::unwrap_or_default);
    let b = |key: &str| flag(obj, key, at);
    let mut e = Element {
        role: s("AXRole")?,
        subrole: s("AXSubrole")?,
        role_description: s("AXRoleDescription")?,
        title: s("AXTitle")?,
        description: s("AXDescription")?,
        value: value_text(obj, at)?,
        help: s("AXHelp")?,
        placeholder: s("AXPlaceholderValue")?,
        identifier: s("AXIdentifier")?,
        url: s("AXURL")?,
        mark: s("AXMenuItemMarkChar")?,
        enabled: b("AXEnabled")?.unwrap_or(true),
        focused: b("AXFocused")?.unwrap_or(false),
        selected: b("AXSelected")?.unwrap_or(false),
        expanded: b("AXExpanded")?.or(b("AXDisclosing")?),
        modal: b("AXModal")?.unwrap_or(false),
        required: b("AXRequired")?.unwrap_or(false),
        bounds: None,
        min_value: number(obj, "AXMinValue", at)?,
        max_value: number(obj, "AXMaxValue", at)?,
        pid: int(obj, "pid", at)?,
        ..Element::default()
    };
    if let (Some([x, y]), Some([w, h])) = (pair(obj, "AXPosition", at)?, pair(obj, "AXSize", at)?) {
        e.bounds = Some(Rect { x, y, w, h });
    }
    e.actions = names(obj, "actions", at)?.into_iter().map(AxAction::parse).collect();
    for name in names(obj, "settable", at)? {
        e.settable.set(name);
    }
    Ok(e)
}

fn wrong(at: &str, attribute: &str, expected: &'static str) -> ReadError {
    ReadError::Attribute { at: at.to_string(), attribute: attribute.to_string(), expected }
}

fn text(obj: &Map<String, Value>, key: &str, at: &str) -> Result<Option<String>, ReadError> {
    match obj.get(key) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(s)) => Ok(Some(s.clone())),
        Some(_) => Err(wrong(at, key, "must be a string")),
    }
}

fn flag(obj: &Map<String, Value>, key: &str, at: &str) -> Result<Option<bool>, ReadError> {
    match obj.get(key) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::Bool(b)) => Ok(Some(*b)),
        // CFBoolean and the 0/1 NSNumber some apps give instead are the same to AX clients.
        Some(Value::Number(n)) if n.as_u64() == Some(0) => Ok(Some(false)),
        Some(Value::Number(n)) if n.as_u64() == Some(1) => Ok(Some(true)),
        Some(_) => Err(wrong(at, key, "must be true or false")),
    }
}

fn number(obj: &Map<String, Value>, key: &str, at: &str) -> Result<Option<f64>, ReadError> {
    match obj.get(key) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::Number(n)) => Ok(n.as_f64().filter(|f| f.is_finite())),
        Some(_) => Err(wrong(at, key, "must be a number")),
    }
}

fn int(obj: &Map<String, Value>, key: &str, at: &str) -> Result<Option<i32>, ReadError> {
    match obj.get(key) {
        None | Some(Value::Null) => Ok(None),
        Some(v) => v
            .as_i64()
            .and_then(|n| i32::try_from(n).ok())
            .map(Some)
            .ok_or_else(|| wrong(at, key, "must be a whole number (a process id)")),
    }
}

fn pair(obj: &Map<String, Value>, key: &str, at: &str) -> Result<Option<[f64; 2]>, ReadError> {
    let expected = "must be a pair of numbers, [x, y] or [width, height]";
    match obj.get(key) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::Array(a)) => match a.as_slice() {
            [x, y] => match (x.as_f64(), y.as_f64()) {
                (Some(x), Some(y)) if x.is_finite() && y.is_finite() => Ok(Some([x, y])),
                _ => Err(wrong(at, key, expected)),
            },
            _ => Err(wrong(at, key, expected)),
        },
        Some(_) => Err(wrong(at, key, expected)),
    }
}

fn names<'a>(obj: &'a Map<String, Value>, key: &str, at: &str) -> Result<Vec<&'a str>, ReadError> {
    match obj.get(key) {
        None | Some(Value::Null) => Ok(Vec::new()),
        Some(Value::Array(a)) => {
            a.iter().map(|v| v.as_str().ok_or_else(|| wrong(at, key, "must be a list of AX names"))).collect()
        }
        Some(_) => Err(wrong(at, key, "must be a list of AX names")),
    }
}

/// `AXValue` as text (see [`Element::value`]).
fn value_text(obj: &Map<String, Value>, at: &str) -> Result<Option<String>, ReadError> {
    Ok(match obj.get("AXValue") {
        None | Some(Value::Null) => None,
        Some(Value::String(s)) => Some(s.clone()),
        Some(Value::Bool(b)) => Some(if *b { "1" } else { "0" }.to_string()),
        Some(Value::Number(n)) => Some(match n.as_f64() {
            Some(f) if f.fract() == 0.0 && f.abs() < 1e15 => format!("{}", f as i64),
            _ => n.to_string(),
        }),
        Some(_) => return Err(wrong(at, "AXValue", "must be a string, a number or a boolean")),
    })
}

#[cfg(test)]
mod tests;
