//! The DOM snapshot side of a capture: one `DOMSnapshot.captureSnapshot` per renderer session,
//! parsed leniently and indexed by backend node id, giving each AX node its bounds, developer
//! id, secrets (`secrets.rs`), obscured mark, clickability and scrollability. The raw node tables stay
//! readable ([`SnapIndex::doc`]) for the DOM fallback tree (`dom_tree`).

use std::collections::HashMap;

use axsnap_core::{Rect, Role};
use serde::Deserialize;
use serde_json::Value;

use crate::cased::{Casing, TextNode};
use crate::secrets::{self, DocSecrets};

/// The attribute the capture script puts on covered elements (value: what covers them).
pub const COVER_ATTR: &str = "data-axsnap-cover";

/// The attribute the capture script puts on what covers other elements: the top of the branch
/// (or the positioned layer in it) that the hit test found over them.
pub const COVERING_ATTR: &str = "data-axsnap-covering";

/// The attribute the capture script puts on elements that can scroll now.
pub const SCROLL_ATTR: &str = "data-axsnap-scroll";

/// The attribute the capture script puts on the document element once it has looked for
/// elements that can scroll (without it, scrollability falls back to the style alone).
pub const SCROLL_CHECKED_ATTR: &str = "data-axsnap-scroll-checked";

/// Attributes read as the developer id, in order of preference. A form control's `name` is the
/// last: the key its value is sent under, as stable as an id (Datasette's filter selects have
/// no id, and without it two look-alike selects could not keep their refs across a page load).
pub const DEV_ID_ATTRS: &[&str] = &["id", "data-testid", "data-test", "data-qa", "name"];
const DEV_ID_COUNT: usize = 5;

/// Computed styles the snapshot is asked for (indices into `LayoutData::styles`).
pub const STYLES: &[&str] =
    &["overflow-x", "overflow-y", "-webkit-text-security", "cursor", "display", "white-space", "visibility"];

/// The index of `-webkit-text-security` in [`STYLES`] (masked text is a secret).
const MASK_STYLE: usize = 2;
/// Cursors a page gives what it wants acted on: a click target's `pointer`, a drag handle's
/// `grab` and `move` (a sortable list's items, a board's cards).
const TARGET_CURSORS: [&str; 3] = ["pointer", "grab", "move"];

/// The index of `cursor` in [`STYLES`]: a pointer cursor of an element's own (not inherited
/// from its parent) marks a click target that may have no role and no listener of its own.
const CURSOR_STYLE: usize = 3;
/// The index of `display` in [`STYLES`]: a block-level box ends a run of inline text, so the
/// text of two blocks is never joined into one.
const DISPLAY_STYLE: usize = 4;
/// The index of `white-space` in [`STYLES`]: preformatted text (code blocks, editors) keeps
/// its spaces and line breaks.
const WHITE_SPACE_STYLE: usize = 5;
/// The index of `visibility` in [`STYLES`]: a box that is `hidden` is laid out but not drawn
/// (a code block's copy buttons until hovered), and the accessibility tree leaves it out; a
/// tree built from the snapshot alone must too.
const VISIBILITY_STYLE: usize = 6;
/// `display` values of inline-level boxes (and of no box): everything else starts a block.
const INLINE_DISPLAYS: &[&str] = &[
    "inline",
    "inline-block",
    "inline-flex",
    "inline-grid",
    "inline-table",
    "contents",
    "none",
    "ruby",
    "ruby-text",
];
/// `white-space` values that keep spaces and line breaks.
const PRE_WHITE_SPACE: &[&str] = &["pre", "pre-wrap", "pre-line", "break-spaces"];
/// How far up [`SnapIndex::own_pointer`] looks for the nearest ancestor with a box (an
/// element with `display: contents` has none, yet its children inherit its cursor).
const CURSOR_ANCESTORS: usize = 8;

#[derive(Debug, Default, Deserialize)]
#[serde(default, rename_all = "camelCase")]
struct RawSnapshot {
    documents: Vec<RawDoc>,
    strings: Vec<String>,
}

/// One document of the snapshot, as sent (string fields are indices into the string table).
#[derive(Debug, Default, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub(crate) struct RawDoc {
    pub frame_id: i64,
    #[serde(rename = "documentURL", default = "no_string")]
    pub document_url: i64,
    #[serde(default = "no_string")]
    pub title: i64,
    pub nodes: RawNodes,
    pub layout: RawLayout,
    pub scroll_offset_x: f64,
    pub scroll_offset_y: f64,
    pub content_width: f64,
    pub content_height: f64,
}

/// A missing string index (index 0 is a real string).
fn no_string() -> i64 {
    -1
}

/// The node table: one entry per DOM node, in document (pre)order.
#[derive(Debug, Default, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub(crate) struct RawNodes {
    pub parent_index: Vec<i64>,
    pub node_type: Vec<i64>,
    pub node_name: Vec<i64>,
    pub node_value: Vec<i64>,
    pub backend_node_id: Vec<i64>,
    pub attributes: Vec<Vec<i64>>,
    pub shadow_root_type: RareStrings,
    pub pseudo_type: RareStrings,
    pub text_value: RareStrings,
    pub input_value: RareStrings,
    pub input_checked: RareBools,
    pub option_selected: RareBools,
    pub is_clickable: RareBools,
}

/// Values for some nodes only: `value[k]` belongs to node `index[k]` (ascending).
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub(crate) struct RareStrings {
    pub index: Vec<i64>,
    pub value: Vec<i64>,
}

impl RareStrings {
    /// The string index for node `n`, if it has one.
    pub fn get(&self, n: usize) -> Option<i64> {
        let k = self.index.binary_search(&(n as i64)).ok()?;
        self.value.get(k).copied()
    }
}

/// The nodes for which a flag is set (ascending).
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub(crate) struct RareBools {
    pub index: Vec<i64>,
}

impl RareBools {
    /// Whether node `n` has the flag.
    pub fn has(&self, n: usize) -> bool {
        self.index.binary_search(&(n as i64)).is_ok()
    }
}

/// The layout table: one entry per rendered node.
#[derive(Debug, Default, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub(crate) struct RawLayout {
    pub node_index: Vec<i64>,
    pub bounds: Vec<Vec<f64>>,
    pub styles: Vec<Vec<i64>>,
    /// Rendered text of text nodes (string index, -1 for none).
    pub text: Vec<i64>,
}

/// `nodeType` of an element.
const ELEMENT_NODE: i64 = 1;
/// `nodeType` of a text node.
const TEXT_NODE: i64 = 3;

/// The texts of a document that CSS transformed: text nodes laid out other than written. The
/// string table holds each string once, so a text laid out as written is found by index alone.
fn doc_casing(doc: &RawDoc, strings: &[String], layout_of: &[u32]) -> Casing {
    let laid_out = |n: usize| -> Option<i64> {
        let k = *layout_of.get(n).filter(|k| **k != u32::MAX)? as usize;
        doc.layout.text.get(k).copied().filter(|t| *t >= 0)
    };
    let texts = || doc.nodes.node_type.iter().enumerate().filter(|(_, t)| **t == TEXT_NODE).map(|(n, _)| n);
    let written = |n: usize| doc.nodes.node_value.get(n).copied().unwrap_or(-1);
    if !texts().any(|n| laid_out(n).is_some_and(|l| l != written(n))) {
        return Casing::default();
    }
    let string = |i: i64| usize::try_from(i).ok().and_then(|i| strings.get(i)).map_or("", String::as_str);
    Casing::of(texts().map(|n| TextNode {
        backend: doc.nodes.backend_node_id.get(n).copied().unwrap_or(-1),
        written: string(written(n)),
        laid_out: laid_out(n).map(string),
    }))
}

/// What the snapshot says about one DOM node.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Facts {
    /// Border box in the coordinates of its document's snapshot (see [`SnapIndex`]).
    pub bounds: Option<Rect>,
    /// The developer id (`id`, else a test id).
    pub dev_id: Option<String>,
    /// A secret (see `secrets.rs`): a password field, a field whose autocomplete asks for a
    /// password or a one-time code, text masked by CSS.
    pub secret: bool,
    /// Named or described from a secret (`aria-labelledby`, `aria-describedby`, a label
    /// around one).
    pub embeds_secret: bool,
    /// Marked as covered by another element at its centre.
    pub covered: bool,
    /// Marked as what covers other elements.
    pub covering: bool,
    /// An element laid out as a block-level box.
    pub block: bool,
    /// An element laid out as `display: inline` (known, not merely not a block).
    pub inline: bool,
    /// An element whose text keeps its spaces and line breaks (`white-space: pre` and kin).
    pub pre: bool,
    /// Responds to clicks (a listener or a natural click action).
    pub clickable: bool,
    /// Made a target by the page's own hand: a pointer cursor of its own, or a drag source
    /// (not only a listener, which a label around a checkbox also has).
    pub pointer: bool,
    /// An element that can scroll now: on an axis whose `overflow` is auto or scroll, its
    /// content is larger than its box (the capture script's mark; a document the script did
    /// not look at falls back to the style alone). A box that could scroll but whose content
    /// fits has nothing to scroll: rustdoc gives every paragraph `overflow-x: auto`.
    pub scrollable: bool,
    /// Has the `readonly` attribute. Chromium's accessibility tree says read-only only of
    /// text fields: a read-only date, time, colour or number input reads as one that takes
    /// edits.
    pub readonly: bool,
    /// The picker role an `<input>`'s type gives it (`type=month` is [`Role::Month`]): the
    /// accessibility tree calls month, week and datetime-local inputs all `DateTime`.
    pub picker: Option<Role>,
    /// The `step` attribute, when it is a number (`any` is none): the range's step.
    pub step: Option<f64>,
    /// Its document (index into [`SnapIndex::infos`]).
    pub doc: usize,
}

/// The picker role of an `<input>` of this `type` (any case), if it is one.
fn picker_of_type(input_type: &str) -> Option<Role> {
    Some(match input_type.to_ascii_lowercase().as_str() {
        "date" => Role::Date,
        "time" => Role::Time,
        "datetime-local" => Role::DateTime,
        "month" => Role::Month,
        "week" => Role::Week,
        "color" => Role::Color,
        _ => return None,
    })
}

/// Per-document data.
#[derive(Clone, Debug, Default)]
pub struct DocInfo {
    /// Its frame id.
    pub frame_id: String,
    /// Scroll offset.
    pub scroll: (f64, f64),
    /// Content size.
    pub content: (f64, f64),
}

/// One session's snapshot, indexed.
#[derive(Debug, Default)]
pub struct SnapIndex {
    strings: Vec<String>,
    docs: Vec<RawDoc>,
    layout_of: Vec<Vec<u32>>,
    by_backend: HashMap<i64, (u32, u32)>,
    /// Documents, in snapshot order.
    pub infos: Vec<DocInfo>,
    /// Non user-agent shadow roots: open, closed.
    pub shadow_roots: (u64, u64),
    attr_ids: AttrIds,
    /// Per document: the capture script marked the elements that can scroll.
    scroll_checked: Vec<bool>,
    /// Per document: its secrets.
    secrets: Vec<DocSecrets>,
    /// Texts of secrets (values, text inside, masked characters as rendered).
    secret_texts: Vec<String>,
    /// Per document: its texts that CSS transformed, to name things as written.
    casing: Vec<Casing>,
}

/// String-table indices of the names and values facts look for (`None`: not in the table,
/// so no node has it).
#[derive(Debug, Default)]
pub(crate) struct AttrIds {
    dev: [Option<i64>; DEV_ID_COUNT],
    cover: Option<i64>,
    covering: Option<i64>,
    scroll: Option<i64>,
    scroll_values: Vec<i64>,
    /// The cursors that say "act on me": `pointer`, and a drag handle's `grab` and `move`.
    pointer: Vec<i64>,
    /// `draggable` and its value `true`.
    draggable: Option<i64>,
    /// `display` values of inline-level boxes.
    inline_displays: Vec<i64>,
    /// `display: inline`.
    inline: Option<i64>,
    /// `white-space` values that keep spaces and line breaks.
    pre_values: Vec<i64>,
    /// `visibility` values that draw nothing.
    invisible_values: Vec<i64>,
    true_value: Option<i64>,
    readonly: Option<i64>,
    /// The `type` attribute's name.
    type_attr: Option<i64>,
    /// The `step` attribute's name.
    step_attr: Option<i64>,
}

impl SnapIndex {
    /// Parses a `DOMSnapshot.captureSnapshot` result (lenient: missing parts are empty).
    pub fn parse(v: &Value) -> Result<SnapIndex, serde_json::Error> {
        let raw = RawSnapshot::deserialize(v)?;
        let find = |s: &str| raw.strings.iter().position(|x| x == s).map(|p| p as i64);
        let mut dev = [None; DEV_ID_COUNT];
        for (slot, a) in dev.iter_mut().zip(DEV_ID_ATTRS) {
            *slot = find(a);
        }
        let attr_ids = AttrIds {
            dev,
            cover: find(COVER_ATTR),
            covering: find(COVERING_ATTR),
            scroll: find(SCROLL_ATTR),
            scroll_values: ["auto", "scroll"].iter().filter_map(|s| find(s)).collect(),
            pointer: TARGET_CURSORS.iter().filter_map(|s| find(s)).collect(),
            draggable: find("draggable"),
            inline_displays: INLINE_DISPLAYS.iter().filter_map(|s| find(s)).collect(),
            inline: find("inline"),
            pre_values: PRE_WHITE_SPACE.iter().filter_map(|s| find(s)).collect(),
            invisible_values: ["hidden", "collapse"].iter().filter_map(|s| find(s)).collect(),
            true_value: find("true"),
            readonly: find("readonly"),
            type_attr: find("type"),
            step_attr: find("step"),
        };
        let total: usize = raw.documents.iter().map(|d| d.nodes.backend_node_id.len()).sum();
        let mut by_backend = HashMap::with_capacity(total);
        let mut layout_of = Vec::with_capacity(raw.documents.len());
        let mut infos = Vec::with_capacity(raw.documents.len());
        let (mut open, mut closed) = (0, 0);
        let checked_attr = find(SCROLL_CHECKED_ATTR);
        let mut scroll_checked = Vec::with_capacity(raw.documents.len());
        let mut secrets = Vec::with_capacity(raw.documents.len());
        let mut secret_texts = Vec::new();
        let mut casing = Vec::with_capacity(raw.documents.len());
        let look = secrets::Lookup::new(&raw.strings, MASK_STYLE);
        let string =
            |i: i64| usize::try_from(i).ok().and_then(|i| raw.strings.get(i)).cloned().unwrap_or_default();
        for (d, doc) in raw.documents.iter().enumerate() {
            for (n, id) in doc.nodes.backend_node_id.iter().enumerate() {
                by_backend.insert(*id, (d as u32, n as u32));
            }
            let mut lay = vec![u32::MAX; doc.nodes.backend_node_id.len()];
            for (k, ni) in doc.layout.node_index.iter().enumerate() {
                if let Some(slot) = usize::try_from(*ni).ok().and_then(|i| lay.get_mut(i)) {
                    *slot = k as u32;
                }
            }
            layout_of.push(lay);
            // The mark is on the document element, near the start of the table.
            scroll_checked.push(
                checked_attr.is_some_and(|c| {
                    doc.nodes.attributes.iter().any(|a| a.chunks_exact(2).any(|p| p[0] == c))
                }),
            );
            secrets.push(secrets::find(doc, &look, &mut secret_texts));
            casing.push(doc_casing(doc, &raw.strings, layout_of.last().map_or(&[][..], Vec::as_slice)));
            for v in &doc.nodes.shadow_root_type.value {
                match string(*v).as_str() {
                    "open" => open += 1,
                    "closed" => closed += 1,
                    _ => {}
                }
            }
            infos.push(DocInfo {
                frame_id: string(doc.frame_id),
                scroll: (doc.scroll_offset_x, doc.scroll_offset_y),
                content: (doc.content_width, doc.content_height),
            });
        }
        Ok(SnapIndex {
            strings: raw.strings,
            docs: raw.documents,
            layout_of,
            by_backend,
            infos,
            shadow_roots: (open, closed),
            attr_ids,
            scroll_checked,
            secrets,
            secret_texts,
            casing,
        })
    }

    /// The texts of document `d` that CSS transformed (see `cased`).
    pub(crate) fn casing(&self, d: usize) -> Option<&Casing> {
        self.casing.get(d).filter(|c| !c.is_empty())
    }

    /// How many DOM nodes the snapshot holds, over all its documents.
    pub fn node_count(&self) -> usize {
        self.by_backend.len()
    }

    /// The secret texts of every document (for [`axsnap_core::secret::redact`]).
    pub fn secret_texts(&self) -> &[String] {
        &self.secret_texts
    }

    /// A string of the table.
    pub(crate) fn string(&self, i: i64) -> Option<&str> {
        usize::try_from(i).ok().and_then(|i| self.strings.get(i)).map(String::as_str)
    }

    /// The string-table index of `s`, if any node uses it.
    pub(crate) fn find_string(&self, s: &str) -> Option<i64> {
        self.strings.iter().position(|x| x == s).map(|p| p as i64)
    }

    /// Document `d`'s raw tables.
    pub(crate) fn doc(&self, d: usize) -> Option<&RawDoc> {
        self.docs.get(d)
    }

    /// The index of the document of `frame_id`.
    pub(crate) fn doc_of_frame(&self, frame_id: &str) -> Option<usize> {
        self.infos.iter().position(|i| i.frame_id == frame_id)
    }

    /// The layout-table entry of node `n` of document `d`.
    pub(crate) fn layout_index(&self, d: usize, n: usize) -> Option<usize> {
        let k = *self.layout_of.get(d)?.get(n)?;
        (k != u32::MAX).then_some(k as usize)
    }

    /// Whether node `n` of document `d` has a box that is drawn: laid out and not
    /// `visibility: hidden` (a text node's box carries its parent's visibility).
    pub(crate) fn drawn(&self, d: usize, n: usize) -> bool {
        let Some(k) = self.layout_index(d, n) else { return false };
        let style =
            self.docs.get(d).and_then(|doc| doc.layout.styles.get(k)).and_then(|st| st.get(VISIBILITY_STYLE));
        !style.is_some_and(|v| self.attr_ids.invisible_values.contains(v))
    }

    /// The backend node id of the DOM parent of `backend_id` (`None` for a document root, or
    /// a node not in the snapshot).
    pub(crate) fn parent_of(&self, backend_id: i64) -> Option<i64> {
        let &(d, n) = self.by_backend.get(&backend_id)?;
        let nodes = &self.docs.get(d as usize)?.nodes;
        let p = usize::try_from(*nodes.parent_index.get(n as usize)?).ok()?;
        nodes.backend_node_id.get(p).copied()
    }

    /// Whether `backend_id` is a list item's `::marker` (its bullet or number).
    pub(crate) fn is_marker(&self, backend_id: i64) -> bool {
        let Some(&(d, n)) = self.by_backend.get(&backend_id) else { return false };
        let Some(doc) = self.docs.get(d as usize) else { return false };
        doc.nodes.pseudo_type.get(n as usize).and_then(|t| self.string(t)) == Some("marker")
    }

    /// What the snapshot says about the DOM node `backend_id`, if it is in it.
    pub fn facts(&self, backend_id: i64) -> Option<Facts> {
        let &(d, n) = self.by_backend.get(&backend_id)?;
        Some(self.facts_at(d as usize, n as usize))
    }

    /// [`SnapIndex::facts`] of node `n` of document `d`.
    pub(crate) fn facts_at(&self, d: usize, n: usize) -> Facts {
        let mut f = Facts { doc: d, ..Facts::default() };
        let Some(doc) = self.docs.get(d) else { return f };
        let ids = &self.attr_ids;
        if let Some(attrs) = doc.nodes.attributes.get(n) {
            let mut dev: [Option<&str>; DEV_ID_COUNT] = [None; DEV_ID_COUNT];
            for pair in attrs.chunks_exact(2) {
                if Some(pair[0]) == ids.scroll {
                    f.scrollable = true;
                }
                // A drag source is something a user takes hold of: a target.
                if Some(pair[0]) == ids.draggable && Some(pair[1]) == ids.true_value {
                    f.clickable = true;
                    f.pointer = true;
                }
                let (k, v) = (Some(pair[0]), pair[1]);
                if let Some(slot) = ids.dev.iter().position(|a| *a == k) {
                    dev[slot] = self.string(v).filter(|s| !s.is_empty());
                } else if k == ids.cover {
                    f.covered = true;
                } else if k == ids.covering {
                    f.covering = true;
                } else if k == ids.readonly {
                    f.readonly = true;
                } else if k == ids.type_attr {
                    f.picker = self.string(v).and_then(picker_of_type);
                } else if k == ids.step_attr {
                    f.step = self.string(v).and_then(|s| s.trim().parse().ok());
                }
            }
            f.dev_id = dev.into_iter().flatten().next().map(str::to_string);
        }
        if let Some(s) = self.secrets.get(d) {
            f.secret = s.is_secret(n);
            f.embeds_secret = s.embeds(n);
        }
        f.pointer |= self.own_pointer(d, n);
        f.clickable |= doc.nodes.is_clickable.has(n) || f.pointer;
        if let Some(k) = self.layout_index(d, n) {
            if let Some(b) = doc.layout.bounds.get(k).filter(|b| b.len() >= 4) {
                f.bounds = Some(Rect { x: b[0], y: b[1], w: b[2], h: b[3] });
            }
            // Without the script's marks, the style alone: "could scroll".
            let checked = self.scroll_checked.get(d).copied().unwrap_or(false);
            let is_element = doc.nodes.node_type.get(n) == Some(&ELEMENT_NODE);
            let styles = doc.layout.styles.get(k);
            if let (false, true, Some(st)) = (checked, is_element, styles) {
                f.scrollable = st.iter().take(2).any(|s| ids.scroll_values.contains(s));
            }
            if let (true, Some(st)) = (is_element, styles) {
                f.block = st.get(DISPLAY_STYLE).is_some_and(|d| !ids.inline_displays.contains(d));
                f.inline = ids.inline.is_some() && st.get(DISPLAY_STYLE) == ids.inline.as_ref();
                f.pre = st.get(WHITE_SPACE_STYLE).is_some_and(|w| ids.pre_values.contains(w));
            }
        }
        f
    }

    /// Whether element `n` of document `d` has a pointer cursor of its own: its computed
    /// cursor is one of [`TARGET_CURSORS`] and its nearest ancestor with a box does not have
    /// the same (a link's text and an icon inside a clickable card inherit theirs).
    fn own_pointer(&self, d: usize, n: usize) -> bool {
        let pointers = &self.attr_ids.pointer;
        let Some(doc) = self.docs.get(d) else { return false };
        if doc.nodes.node_type.get(n) != Some(&ELEMENT_NODE) {
            return false;
        }
        let cursor = |i: usize| {
            self.layout_index(d, i)
                .and_then(|k| doc.layout.styles.get(k))
                .and_then(|st| st.get(CURSOR_STYLE).copied())
        };
        let Some(pointer) = cursor(n).filter(|c| pointers.contains(c)) else { return false };
        let mut at = n;
        for _ in 0..CURSOR_ANCESTORS {
            let Some(parent) = doc.nodes.parent_index.get(at).and_then(|p| usize::try_from(*p).ok()) else {
                return true;
            };
            if let Some(c) = cursor(parent) {
                return c != pointer;
            }
            at = parent;
        }
        true
    }

    /// The document info of document `d`.
    pub fn frame_of_doc(&self, d: usize) -> Option<&DocInfo> {
        self.infos.get(d)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn facts_from_a_small_snapshot() {
        let strings = [
            "F1",
            "INPUT",
            "type",
            "password",
            "id",
            "pw",
            "DIV",
            "data-testid",
            "t1",
            COVER_ATTR,
            "button \"x\"",
            "auto",
            "visible",
            "open",
            "user-agent",
        ];
        let v = json!({
            "strings": strings,
            "documents": [{
                "frameId": 0, "scrollOffsetX": 0.0, "scrollOffsetY": 10.0, "contentWidth": 800, "contentHeight": 2000,
                "nodes": {
                    "nodeType": [1, 1, 1],
                    "nodeName": [6, 1, 6],
                    "backendNodeId": [10, 11, 12],
                    "attributes": [[7, 8, 9, 10], [2, 3, 4, 5], []],
                    "shadowRootType": {"index": [0, 2], "value": [13, 14]},
                    "isClickable": {"index": [1]},
                    "somethingNew": [1]
                },
                "layout": {"nodeIndex": [0, 1], "bounds": [[1, 2, 3, 4], [5, 6, 7, 8]], "styles": [[11, 12], [12, 12]]}
            }]
        });
        let idx = SnapIndex::parse(&v).unwrap();
        assert_eq!(idx.shadow_roots, (1, 0));
        let div = idx.facts(10).unwrap();
        assert_eq!(div.dev_id.as_deref(), Some("t1"));
        assert!(div.covered && div.scrollable && !div.secret && !div.clickable);
        assert_eq!(div.bounds, Some(Rect { x: 1.0, y: 2.0, w: 3.0, h: 4.0 }));
        let pw = idx.facts(11).unwrap();
        assert!(pw.secret && pw.clickable && !pw.scrollable);
        assert_eq!(pw.dev_id.as_deref(), Some("pw"));
        assert_eq!(idx.facts(12).unwrap().bounds, None);
        assert!(idx.facts(99).is_none());
        assert_eq!(idx.infos[0].frame_id, "F1");
        assert_eq!(idx.doc_of_frame("F1"), Some(0));
    }

    /// Scrollable: what the capture script marked, in a document it looked at; the style
    /// alone ("could scroll") in one it did not; never a text node.
    #[test]
    fn scrollable_from_the_script_marks_else_the_style() {
        // strings: 0 auto, 1 visible, 2 HTML, 3 DIV, 4 #text, 5 the checked mark, 6 "", 7 the
        // scroll mark.
        let strings =
            json!(["auto", "visible", "HTML", "DIV", "#text", SCROLL_CHECKED_ATTR, "", SCROLL_ATTR]);
        let doc = |attrs: serde_json::Value, ids: [i64; 4]| {
            json!({
                "frameId": 0,
                "nodes": {
                    "nodeType": [1, 1, 1, 3],
                    "nodeName": [2, 3, 3, 4],
                    "backendNodeId": ids,
                    "attributes": attrs,
                },
                "layout": {
                    "nodeIndex": [0, 1, 2, 3],
                    "bounds": [[0, 0, 9, 9], [0, 0, 9, 9], [0, 0, 9, 9], [0, 0, 9, 9]],
                    "styles": [[1, 1], [0, 1], [0, 0], [0, 0]],
                }
            })
        };
        let v = json!({
            "strings": strings,
            "documents": [
                // Looked at: the first div overflows (marked), the second only could.
                doc(json!([[5, 6], [7, 6], [], []]), [1, 2, 3, 4]),
                // Not looked at (no script in that frame): the style decides.
                doc(json!([[], [], [], []]), [11, 12, 13, 14]),
            ]
        });
        let idx = SnapIndex::parse(&v).unwrap();
        let scrollable = |id| idx.facts(id).unwrap().scrollable;
        assert!(scrollable(2), "marked");
        assert!(!scrollable(3), "overflow auto, content fits");
        assert!(!scrollable(4), "a text node");
        assert!(!scrollable(1), "overflow visible");
        assert!(scrollable(12) && scrollable(13), "no marks: overflow auto could scroll");
        assert!(!scrollable(14), "a text node, even then");
    }
}
