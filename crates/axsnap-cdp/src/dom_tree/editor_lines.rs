//! The lines a code editor shows, read from the DOM snapshot.
//!
//! Monaco (the editor VS Code and most web IDEs use) draws its lines in a `view-lines` layer
//! marked `aria-hidden`, and gives the accessibility tree only its edit surface: a 0-wide
//! `EditContext` div (or, in older versions, a `<textarea>` holding a window of the text)
//! named "Editor content". Read through the accessibility tree the editor was an empty
//! textbox: `find "greet"` answered nothing, and an agent could not check its own edit.
//! CodeMirror 6 keeps its lines in its editable `cm-content`, where the accessibility tree
//! reads them as the textbox's value (all lines, run together) and again as an editable
//! element per line, each with a ref, without the numbers its gutter (`aria-hidden`) draws.
//! Here the lines drawn, with the numbers the gutter draws beside them, are read from the
//! snapshot so the capture can put them under the edit surface ([`EditorView`]).

use super::{Builder, ELEMENT};
use crate::layout::SnapIndex;

/// Most lines read from one editor: Monaco draws only what is in view (and a few more), so
/// this is never reached but on a page that fakes the classes.
const MAX_LINES: usize = 2_000;

/// One editor's lines as drawn.
#[derive(Debug, PartialEq)]
pub(crate) struct EditorView {
    /// The backend node id of the editor's edit surface (the node the accessibility tree has).
    pub surface: i64,
    /// Whether the surface holds the lines (CodeMirror): its own children in the
    /// accessibility tree are those lines, which these replace.
    pub holds_lines: bool,
    /// Its lines, top to bottom.
    pub lines: Vec<EditorLine>,
}

/// One drawn line of an editor.
#[derive(Debug, PartialEq)]
pub(crate) struct EditorLine {
    /// The line number its gutter draws beside it, when it draws one.
    pub number: Option<u32>,
    /// The line's text, its indentation kept (the editor's no-break spaces as spaces).
    pub text: String,
    /// The backend node id of its element (its layout facts: where it is drawn).
    pub backend: i64,
}

impl EditorLine {
    /// The line as an agent reads it: `120│    return x`, its number first when drawn.
    pub fn shown(&self) -> String {
        match self.number {
            Some(n) => format!("{n}│{}", self.text),
            None => self.text.clone(),
        }
    }
}

/// The classes that mark an editor's parts.
struct Kind {
    /// The editor's root element.
    root: &'static str,
    /// Its edit surface (any of these).
    surface: &'static [&'static str],
    /// One drawn line.
    line: &'static str,
    /// A line number in its gutter.
    number: &'static str,
    /// Whether the surface holds the lines.
    holds_lines: bool,
}

const MONACO: Kind = Kind {
    root: "monaco-editor",
    surface: &["native-edit-context", "inputarea"],
    line: "view-line",
    number: "line-numbers",
    holds_lines: false,
};

const CODEMIRROR: Kind = Kind {
    root: "cm-editor",
    surface: &["cm-content"],
    line: "cm-line",
    number: "cm-gutterElement",
    holds_lines: true,
};

/// The Monaco and CodeMirror 6 editors of document `d` whose edit surface is in the snapshot,
/// with the lines they draw.
pub(crate) fn editor_views(snap: &SnapIndex, d: usize) -> Vec<EditorView> {
    // Most pages have no editor: the class strings are then not in the snapshot at all.
    let kinds: Vec<&Kind> =
        [&MONACO, &CODEMIRROR].into_iter().filter(|k| snap.find_string(k.line).is_some()).collect();
    if kinds.is_empty() {
        return Vec::new();
    }
    let Some(doc) = snap.doc(d) else { return Vec::new() };
    let mut b = Builder::new(snap, doc, d);
    let mut views = Vec::new();
    for i in 0..b.n {
        if b.kind(i) != ELEMENT {
            continue;
        }
        if let Some(kind) = kinds.iter().find(|k| has_class(&b, i, k.root)) {
            if let Some(v) = read_editor(&mut b, i, kind) {
                views.push(v);
            }
        }
    }
    views
}

/// Whether element `i`'s class list holds `class`.
fn has_class(b: &Builder<'_>, i: usize, class: &str) -> bool {
    b.attr(i, super::tags::A::Class).is_some_and(|c| c.split_ascii_whitespace().any(|t| t == class))
}

/// The view of the editor rooted at element `root`: its edit surface, lines and line numbers.
/// An editor inside it (a diff editor's two sides) is read on its own.
fn read_editor(b: &mut Builder<'_>, root: usize, kind: &Kind) -> Option<EditorView> {
    let mut surface = None;
    // (top, height, text, backend) of each drawn line.
    let mut lines: Vec<(f64, f64, String, i64)> = Vec::new();
    let mut numbers: Vec<(f64, u32)> = Vec::new();
    let mut stack: Vec<usize> = b.children(root).iter().rev().map(|&c| c as usize).collect();
    while let Some(i) = stack.pop() {
        if b.kind(i) != ELEMENT || has_class(b, i, kind.root) {
            continue;
        }
        if surface.is_none() && kind.surface.iter().any(|c| has_class(b, i, c)) {
            surface = Some(b.doc.nodes.backend_node_id[i]);
        }
        if has_class(b, i, kind.line) {
            if lines.len() < MAX_LINES && b.has_layout(i) {
                let r = b.snap.facts_at(b.d, i).bounds;
                let (y, h) = r.map_or((0.0, 0.0), |r| (r.y, r.h));
                lines.push((y, h, line_text(b, i), b.doc.nodes.backend_node_id[i]));
            }
            continue;
        }
        if has_class(b, i, kind.number) {
            // CodeMirror's gutter starts with a hidden spacer holding the widest number.
            let bounds = b.snap.facts_at(b.d, i).bounds.filter(|r| r.h >= 1.0 && b.drawn(i));
            if let (Some(r), Ok(n)) = (bounds, line_text(b, i).trim().parse::<u32>()) {
                numbers.push((r.y, n));
            }
            continue;
        }
        stack.extend(b.children(i).iter().rev().map(|&c| c as usize));
    }
    let surface = surface?;
    // Drawn order is top to bottom; the layer keeps its line elements in any order.
    lines.sort_by(|a, b| a.0.total_cmp(&b.0));
    let numbered = !numbers.is_empty();
    let mut kept: Vec<EditorLine> = Vec::with_capacity(lines.len());
    // The bottom of the last line kept.
    let mut bottom: Option<f64> = None;
    for (y, h, text, backend) in lines {
        // A gutter number is beside its line: the same top, give or take a pixel.
        let number = numbers.iter().find(|(ny, _)| (ny - y).abs() < 2.0).map(|&(_, n)| n);
        // A line the gutter does not number is a wrapped line's next row, right under the
        // row before, or the caret's line the editor keeps drawn out of its view (for input
        // methods) while the view shows other lines: that one is not shown.
        let follows = bottom.is_some_and(|b| y <= b + h.max(1.0) / 2.0);
        if numbered && number.is_none() && !follows {
            continue;
        }
        bottom = Some(y + h);
        kept.push(EditorLine { number, text, backend });
    }
    let lines = kept;
    Some(EditorView { surface, holds_lines: kind.holds_lines, lines })
}

/// The text drawn under element `i`, no-break spaces (how Monaco draws spaces) as spaces.
fn line_text(b: &mut Builder<'_>, i: usize) -> String {
    let mut out = String::new();
    let mut stack = vec![i];
    while let Some(k) = stack.pop() {
        if b.kind(k) == ELEMENT {
            stack.extend(b.children(k).iter().rev().map(|&c| c as usize));
        } else if let Some(t) = b.text(k, false) {
            out.push_str(t);
        }
    }
    out.replace('\u{a0}', " ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// A Monaco editor as Monaco 0.58 lays it out (classes, tops, no-break spaces), its line
    /// elements out of order: lines 1 and 2 numbered, a wrapped row under line 2, and the
    /// caret's line kept drawn far below the view.
    fn monaco() -> SnapIndex {
        let strings = [
            "#document",
            "HTML",
            "BODY",
            "DIV",
            "#text",
            "class",
            "monaco-editor",
            "native-edit-context",
            "margin",
            "line-numbers",
            "view-lines",
            "view-line",
            "1",
            "2",
            "b",
            "a\u{a0}\u{a0}b",
            "c",
            "far",
        ];
        // 0 doc, 1 html, 2 body, 3 editor, 4 surface, 5 margin, 6 num 1, 7 "1", 8 num 2, 9 "2",
        // 10 view-lines, 11 line@19, 12 "b", 13 line@0, 14 "a  b", 15 line@38, 16 "c",
        // 17 line@400, 18 "far"
        let v = json!({
            "strings": strings,
            "documents": [{
                "frameId": 0,
                "nodes": {
                    "parentIndex": [-1, 0, 1, 2, 3, 3, 5, 6, 5, 8, 3, 10, 11, 10, 13, 10, 15, 10, 17],
                    "nodeType":    [9, 1, 1, 1, 1, 1, 1, 3, 1, 3, 1, 1, 3, 1, 3, 1, 3, 1, 3],
                    "nodeName":    [0, 1, 2, 3, 3, 3, 3, 4, 3, 4, 3, 3, 4, 3, 4, 3, 4, 3, 4],
                    "backendNodeId": (1..=19).collect::<Vec<i64>>(),
                    "attributes": [[], [], [], [5, 6], [5, 7], [5, 8], [5, 9], [], [5, 9], [], [5, 10],
                                   [5, 11], [], [5, 11], [], [5, 11], [], [5, 11], []]
                },
                "layout": {
                    "nodeIndex": [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18],
                    "bounds": [[0,0,900,500],[0,0,900,500],[0,0,900,500],[0,0,0,19],[0,0,60,500],
                               [0,0,40,19],[0,0,8,19],[0,19,40,19],[0,19,8,19],[60,0,800,500],
                               [60,19,800,19],[60,19,8,19],[60,0,800,19],[60,0,30,19],[60,38,800,19],
                               [60,38,8,19],[60,400,800,19],[60,400,20,19]],
                    "text": [-1, -1, -1, -1, -1, -1, 12, -1, 13, -1, -1, 14, -1, 15, -1, 16, -1, 17]
                }
            }]
        });
        SnapIndex::parse(&v).unwrap()
    }

    #[test]
    fn monaco_lines_are_read_in_drawn_order_with_their_numbers() {
        let views = editor_views(&monaco(), 0);
        assert_eq!(views.len(), 1);
        let v = &views[0];
        assert_eq!(v.surface, 5, "the EditContext div");
        assert!(!v.holds_lines);
        let shown: Vec<String> = v.lines.iter().map(EditorLine::shown).collect();
        // The wrapped row stays, under its line; the caret's line out of view goes.
        assert_eq!(shown, ["1│a  b", "2│b", "c"]);
    }

    #[test]
    fn a_page_without_an_editor_reads_none() {
        let v = json!({
            "strings": ["#document", "HTML"],
            "documents": [{
                "frameId": 0,
                "nodes": {"parentIndex": [-1, 0], "nodeType": [9, 1], "nodeName": [0, 1],
                          "backendNodeId": [1, 2], "attributes": [[], []]},
                "layout": {"nodeIndex": [1], "bounds": [[0, 0, 1, 1]], "text": [-1]}
            }]
        });
        assert!(editor_views(&SnapIndex::parse(&v).unwrap(), 0).is_empty());
    }
}
