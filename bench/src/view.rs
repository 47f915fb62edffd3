//! What an arm has shown the agent: the elements with refs its answers named, so that a step
//! ("click link next") resolves to the ref that arm gave, as an agent reading those answers
//! would find it.
//!
//! - axsnap's text form: `role "name" [e12] …`, `role [e12]: text`, links inline as
//!   `[name](e12 …)`, headings as `h2`; a diff adds lines (`+ under e2:` and the lines below
//!   it), replaces subtrees and removes refs (`- e12 …`); a full answer starts over.
//! - Playwright's snapshot (YAML, `bench::aria`): `- role "name" [ref=e12]`.

use crate::aria::AriaSnapshot;

/// One element an answer showed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Shown {
    /// Its ref in that arm.
    pub r: String,
    /// Its role (headings as `heading`).
    pub role: String,
    /// Its name, or for a nameless element the text on its line.
    pub name: String,
}

/// The elements an arm has shown, latest last.
#[derive(Clone, Debug, Default)]
pub struct View {
    items: Vec<Shown>,
}

impl View {
    /// Takes in one axsnap answer: a full one replaces the view, a diff updates it.
    pub fn read_axsnap(&mut self, text: &str, kind: Option<&str>) {
        match kind {
            Some("unchanged") => return,
            Some("diff") => {}
            _ => self.items.clear(),
        }
        for line in text.lines() {
            let t = line.trim_start();
            if let Some(rest) = t.strip_prefix("- ") {
                // A removal: `- e12 button "Save"`.
                if let Some(r) = rest.split_whitespace().next().filter(|r| is_ref(r)) {
                    self.items.retain(|s| s.r != r);
                }
                continue;
            }
            if t.starts_with('#') {
                continue;
            }
            self.items.extend(axsnap_line(t));
        }
    }

    /// Takes in a Playwright snapshot: it replaces the view.
    pub fn read_playwright(&mut self, yaml: &str) {
        self.items.clear();
        let Ok(snap) = AriaSnapshot::parse(yaml) else { return };
        for (_, e) in snap.elements() {
            if let Some(r) = e.ref_id() {
                self.items.push(Shown { r: r.to_string(), role: e.role.clone(), name: e.name.clone() });
            }
        }
    }

    /// The ref of the latest shown element with this role and name.
    pub fn find(&self, role: &str, name: &str) -> Option<&str> {
        self.items.iter().rev().find(|s| s.role == role && s.name == name).map(|s| s.r.as_str())
    }

    /// How many elements the view holds.
    pub fn len(&self) -> usize {
        self.items.len()
    }

    /// Whether the view holds nothing.
    pub fn is_empty(&self) -> bool {
        self.items.is_empty()
    }
}

fn is_ref(s: &str) -> bool {
    s.len() > 1 && s.starts_with('e') && s[1..].bytes().all(|b| b.is_ascii_digit())
}

/// The elements one line of axsnap's text form names: its own, then its inline links.
fn axsnap_line(t: &str) -> Vec<Shown> {
    let mut out = Vec::new();
    // Diff markers before the line's own text.
    let t = t.trim_start_matches(['+', '=', '~', ' ']);
    if let Some(own) = own_element(t) {
        out.push(own);
    }
    out.extend(inline_links(t));
    out
}

/// `role "name" [e12]` or `role [e12]: text` at the start of a line.
fn own_element(t: &str) -> Option<Shown> {
    let (role, rest) = t.split_once(' ')?;
    if !role.bytes().all(|b| b.is_ascii_alphanumeric()) {
        return None;
    }
    let role = match role {
        "h1" | "h2" | "h3" | "h4" | "h5" | "h6" => "heading",
        r => r,
    };
    let (name, rest) = match rest.strip_prefix('"') {
        Some(q) => {
            let (name, after) = quoted(q)?;
            (Some(name), after.trim_start())
        }
        None => (None, rest),
    };
    let r = rest.strip_prefix('[')?.split(']').next().filter(|r| is_ref(r))?;
    let name = match name {
        Some(n) => n,
        // A nameless element's line ends in its text: `generic [e20] [clickable]: Upload`.
        None => rest.split_once(": ").map(|(_, tail)| tail.trim().to_string()).unwrap_or_default(),
    };
    Some(Shown { r: r.to_string(), role: role.to_string(), name })
}

/// A JSON-style quoted string's content (after the opening quote) and the text after it.
fn quoted(q: &str) -> Option<(String, &str)> {
    let mut out = String::new();
    let mut chars = q.char_indices();
    while let Some((i, c)) = chars.next() {
        match c {
            '"' => return Some((out, &q[i + 1..])),
            '\\' => match chars.next()?.1 {
                'n' => out.push('\n'),
                't' => out.push('\t'),
                other => out.push(other),
            },
            c => out.push(c),
        }
    }
    None
}

/// `[name](e12 …)` links anywhere in the line.
fn inline_links(t: &str) -> Vec<Shown> {
    let mut out = Vec::new();
    let mut rest = t;
    while let Some(at) = rest.find("](e") {
        let before = &rest[..at];
        let after = &rest[at + 2..];
        let r: String = after.chars().take_while(|c| c.is_ascii_alphanumeric()).collect();
        if let (Some(open), true) = (before.rfind('['), is_ref(&r)) {
            out.push(Shown { r, role: "link".to_string(), name: before[open + 1..].to_string() });
        }
        rest = &rest[at + 3..];
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_axsnap_lines_links_and_diffs() {
        let mut v = View::default();
        v.read_axsnap(
            "# Home — http://x/\nmenubar [e9]\n  menuitem \"File\" [e10]\n  generic [e20] [clickable]: Upload\n  * [index](e61 \"General Index\") | [next](e63 \"Types\")\n  h1 \"Untitled\" [e88] [clickable]\n",
            Some("full"),
        );
        assert_eq!(v.find("menuitem", "File"), Some("e10"));
        assert_eq!(v.find("generic", "Upload"), Some("e20"));
        assert_eq!(v.find("link", "next"), Some("e63"));
        assert_eq!(v.find("link", "index"), Some("e61"));
        assert_eq!(v.find("heading", "Untitled"), Some("e88"));
        v.read_axsnap(
            "# diff 1 -> 2\n+ under e2:\n  menu [e57]\n    menuitem \"New\" [e58]\n- e10 menuitem \"File\"\n",
            Some("diff"),
        );
        assert_eq!(v.find("menuitem", "New"), Some("e58"));
        assert_eq!(v.find("menuitem", "File"), None, "removed");
        v.read_axsnap("# no change", Some("unchanged"));
        assert_eq!(v.find("menuitem", "New"), Some("e58"));
        v.read_axsnap("button \"Go\" [e3]\n", Some("full"));
        assert_eq!((v.find("menuitem", "New"), v.find("button", "Go")), (None, Some("e3")));
    }

    #[test]
    fn the_latest_of_two_alike_wins() {
        let mut v = View::default();
        v.read_axsnap("menuitem \"New\" [e25]\nmenu [e57]\n  menuitem \"New\" [e58]\n", Some("full"));
        assert_eq!(v.find("menuitem", "New"), Some("e58"));
    }

    #[test]
    fn reads_playwright_refs() {
        let mut v = View::default();
        v.read_playwright("- navigation \"related navigation\" [ref=e3]:\n  - link \"next\" [ref=e7] [cursor=pointer]:\n    - /url: stdtypes.html\n");
        assert_eq!(v.find("link", "next"), Some("e7"));
        assert_eq!(v.find("navigation", "related navigation"), Some("e3"));
    }
}
