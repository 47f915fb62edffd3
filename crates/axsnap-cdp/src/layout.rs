//! The DOM snapshot side of a capture: one `DOMSnapshot.captureSnapshot` per renderer session,
//! parsed leniently and indexed by backend node id, giving each AX node its bounds, developer
//! id, password-ness, obscured mark, clickability and scrollability.

use std::collections::HashMap;

use axsnap_core::Rect;
use serde::Deserialize;
use serde_json::Value;

/// The attribute the capture script puts on covered elements (value: what covers them).
pub const COVER_ATTR: &str = "data-axsnap-cover";

/// Attributes read as the developer id, in order of preference.
pub const DEV_ID_ATTRS: &[&str] = &["id", "data-testid", "data-test", "data-qa"];

/// Computed styles the snapshot is asked for (indices into `LayoutData::styles`).
pub const STYLES: &[&str] = &["overflow-x", "overflow-y"];

#[derive(Debug, Default, Deserialize)]
#[serde(default, rename_all = "camelCase")]
struct RawSnapshot {
    documents: Vec<RawDoc>,
    strings: Vec<String>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(default, rename_all = "camelCase")]
struct RawDoc {
    frame_id: i64,
    nodes: RawNodes,
    layout: RawLayout,
    scroll_offset_x: f64,
    scroll_offset_y: f64,
    content_width: f64,
    content_height: f64,
}

#[derive(Debug, Default, Deserialize)]
#[serde(default, rename_all = "camelCase")]
struct RawNodes {
    node_name: Vec<i64>,
    backend_node_id: Vec<i64>,
    attributes: Vec<Vec<i64>>,
    shadow_root_type: RareStrings,
    is_clickable: RareBools,
}

#[derive(Debug, Default, Deserialize)]
#[serde(default)]
struct RareStrings {
    index: Vec<i64>,
    value: Vec<i64>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(default)]
struct RareBools {
    index: Vec<i64>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(default, rename_all = "camelCase")]
struct RawLayout {
    node_index: Vec<i64>,
    bounds: Vec<Vec<f64>>,
    styles: Vec<Vec<i64>>,
}

/// What the snapshot says about one DOM node.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Facts {
    /// Border box in the coordinates of its document's snapshot (see [`SnapIndex`]).
    pub bounds: Option<Rect>,
    /// The developer id (`id`, else a test id).
    pub dev_id: Option<String>,
    /// An `<input type=password>`.
    pub password: bool,
    /// Marked as covered by another element at its centre.
    pub covered: bool,
    /// Responds to clicks (a listener or a natural click action).
    pub clickable: bool,
    /// `overflow` auto or scroll on either axis.
    pub scrollable: bool,
    /// The frame id of its document.
    pub frame_id: String,
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
}

#[derive(Debug, Default)]
struct AttrIds {
    dev: Vec<Option<i64>>,
    type_: Option<i64>,
    password: Option<i64>,
    cover: Option<i64>,
    input: Option<i64>,
    scroll_values: Vec<i64>,
}

impl SnapIndex {
    /// Parses a `DOMSnapshot.captureSnapshot` result (lenient: missing parts are empty).
    pub fn parse(v: Value) -> Result<SnapIndex, serde_json::Error> {
        let raw: RawSnapshot = serde_json::from_value(v)?;
        let find = |s: &str| raw.strings.iter().position(|x| x == s).map(|p| p as i64);
        let attr_ids = AttrIds {
            dev: DEV_ID_ATTRS.iter().map(|a| find(a)).collect(),
            type_: find("type"),
            password: find("password"),
            cover: find(COVER_ATTR),
            input: find("INPUT"),
            scroll_values: ["auto", "scroll"].iter().filter_map(|s| find(s)).collect(),
        };
        let mut by_backend = HashMap::new();
        let mut layout_of = Vec::with_capacity(raw.documents.len());
        let mut infos = Vec::with_capacity(raw.documents.len());
        let (mut open, mut closed) = (0, 0);
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
        })
    }

    fn string(&self, i: i64) -> Option<&str> {
        usize::try_from(i).ok().and_then(|i| self.strings.get(i)).map(String::as_str)
    }

    /// The document index of a backend node.
    pub fn doc_of(&self, backend_id: i64) -> Option<usize> {
        self.by_backend.get(&backend_id).map(|(d, _)| *d as usize)
    }

    /// What the snapshot says about the DOM node `backend_id`, if it is in it.
    pub fn facts(&self, backend_id: i64) -> Option<Facts> {
        let &(d, n) = self.by_backend.get(&backend_id)?;
        let (d, n) = (d as usize, n as usize);
        let doc = &self.docs[d];
        let ids = &self.attr_ids;
        let mut f = Facts { frame_id: self.infos[d].frame_id.clone(), ..Facts::default() };
        if let Some(attrs) = doc.nodes.attributes.get(n) {
            let mut dev: Vec<Option<&str>> = vec![None; ids.dev.len()];
            let mut is_password = false;
            for pair in attrs.chunks_exact(2) {
                let (k, v) = (Some(pair[0]), pair[1]);
                if let Some(slot) = ids.dev.iter().position(|a| *a == k) {
                    dev[slot] = self.string(v).filter(|s| !s.is_empty());
                } else if k == ids.type_ && ids.password.is_some() {
                    is_password = self.string(v).is_some_and(|t| t.eq_ignore_ascii_case("password"));
                } else if k == ids.cover {
                    f.covered = true;
                }
            }
            f.dev_id = dev.into_iter().flatten().next().map(str::to_string);
            let is_input = doc.nodes.node_name.get(n).copied() == ids.input && ids.input.is_some();
            f.password = is_password && is_input;
        }
        f.clickable = doc.nodes.is_clickable.index.binary_search(&(n as i64)).is_ok();
        let k = self.layout_of[d][n];
        if k != u32::MAX {
            let k = k as usize;
            if let Some(b) = doc.layout.bounds.get(k).filter(|b| b.len() >= 4) {
                f.bounds = Some(Rect { x: b[0], y: b[1], w: b[2], h: b[3] });
            }
            if let Some(st) = doc.layout.styles.get(k) {
                f.scrollable = st.iter().any(|s| ids.scroll_values.contains(s));
            }
        }
        Some(f)
    }

    /// The value of the cover mark on a node, for messages.
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
        let idx = SnapIndex::parse(v).unwrap();
        assert_eq!(idx.shadow_roots, (1, 0));
        let div = idx.facts(10).unwrap();
        assert_eq!(div.dev_id.as_deref(), Some("t1"));
        assert!(div.covered && div.scrollable && !div.password && !div.clickable);
        assert_eq!(div.bounds, Some(Rect { x: 1.0, y: 2.0, w: 3.0, h: 4.0 }));
        let pw = idx.facts(11).unwrap();
        assert!(pw.password && pw.clickable && !pw.scrollable);
        assert_eq!(pw.dev_id.as_deref(), Some("pw"));
        assert_eq!(idx.facts(12).unwrap().bounds, None);
        assert!(idx.facts(99).is_none());
        assert_eq!(idx.infos[0].frame_id, "F1");
    }
}
