//! What an arm has shown the agent: the elements with refs its answers named, so that a step
//! ("click link next") resolves to the ref that arm gave, as an agent reading those answers
//! would find it.
//!
//! - axsnap's text form: `role "name" [e12] …`, `role [e12]: text`, links inline as
//!   `[name](e12 …)`, headings as `h2`; a diff adds lines (`+ under e2:` and the lines below
//!   it), replaces subtrees and removes refs (`- e12 …`); a full answer starts over.
//! - Playwright's snapshot (YAML, `bench::aria`): `- role "name" [ref=e12]`; an incremental
//!   one (0.0.68) adds to what was shown.
//! - chrome-devtools-mcp's: `uid=1_12 role "name" attr…`, indented; a text node has no role.
//! - linux-desktop-mcp's: `- ref_5: [push_button] "OK" (enabled, …)`; its AT-SPI role names
//!   are read as the web's (`push_button` as `button`), so one workload serves every arm.

use crate::aria::AriaSnapshot;
use crate::arms::{devtools_snapshot, playwright_yaml, Dialect};

/// One element an answer showed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Shown {
    /// Its ref in that arm.
    pub r: String,
    /// Its role (headings as `heading`).
    pub role: String,
    /// Its name, or for a nameless element the text on its line.
    pub name: String,
    /// What the answer showed beside it: the rest of its line and the few lines after it
    /// (a nameless checkbox's row text), for a target named by what is near it.
    pub beside: String,
    /// The text of the table row it is in (empty outside a table), for a target named by its
    /// row: phpMyAdmin's `Edit` link of the row whose name cell says `Lantern`.
    pub row: String,
}

/// Roles whose line ends in a value rather than a text of their own.
const VALUED: &[&str] = &[
    "combobox",
    "textbox",
    "searchbox",
    "spinbutton",
    "slider",
    "progressbar",
    "meter",
    "scrollbar",
    "listbox",
    // A desktop document's paragraph (LibreOffice Writer's): its text is its value, and it
    // has no name, as a diff of it says (`paragraph: value "" -> "…"`).
    "paragraph",
];

/// How many lines after an element's own count as beside it.
const BESIDE_LINES: usize = 3;

/// The elements an arm has shown, latest last.
#[derive(Clone, Debug, Default)]
pub struct View {
    items: Vec<Shown>,
    /// agent-browser's tree as last shown, line by line: its deltas are splices of it.
    tree: Vec<String>,
    /// axsnap: the address of the page `items` show, and what was shown of the pages before
    /// (an answer `# back on TITLE — URL, …` is relative to what was shown of that page).
    url: Option<String>,
    pages: Vec<(String, Vec<Shown>)>,
}

/// What an axsnap answer is, read from its text as a model reads it (axsnap sends no
/// `structuredContent`, so no `kind`, by default): `diff` (`# diff N -> M: …`), `unchanged`
/// (`# no change since snapshot N`), else `full` (a page, whole or outlined). Only the lines
/// that open the answer are looked at: a session handle, a note that it is back on a page
/// shown before, then the answer's own header.
pub fn axsnap_kind(text: &str) -> &'static str {
    for line in text.lines() {
        if !line.starts_with('#') && !line.starts_with("session: ") {
            break;
        }
        if line.starts_with("# diff ") {
            return "diff";
        }
        if line.starts_with("# no change since snapshot") {
            return "unchanged";
        }
    }
    "full"
}

/// The address in an axsnap header line's `TITLE — URL` (the part after the last dash).
fn header_url(header: &str) -> Option<&str> {
    header.rsplit_once(" — ").map(|(_, url)| url.trim()).filter(|u| u.contains("://"))
}

impl View {
    /// Takes in one axsnap answer: a full one replaces the view, a diff updates it, and one
    /// that says it is back on a page shown before updates what was shown of that page.
    pub fn read_axsnap(&mut self, text: &str, kind: Option<&str>) {
        let back = text.lines().next().and_then(|l| l.strip_prefix("# back on ")).and_then(|rest| {
            rest.split_once(", the same page as before").and_then(|(page, _)| header_url(page))
        });
        if let Some(url) = back {
            let url = url.to_string();
            self.switch_to(&url, true);
        } else {
            // The page this answer shows: a full answer's header, or a diff's `# page:` line.
            let header = text.lines().take(3).find_map(|l| {
                let l = l.strip_prefix("# ")?;
                let l = l.strip_prefix("page: ").unwrap_or(l);
                (!l.starts_with("outline:") && !l.starts_with("diff ")).then(|| header_url(l)).flatten()
            });
            if let Some(url) = header {
                let url = url.to_string();
                self.switch_to(&url, false);
            }
        }
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
            // An element made again with the same content: `~ e175 link "Next chapter" is
            // now e937`. Its new ref is the one to use.
            if let Some((old, new)) = renamed(t) {
                for s in self.items.iter_mut().filter(|s| s.r == old) {
                    s.r = new.to_string();
                }
                continue;
            }
            self.items.extend(axsnap_line(t));
        }
    }

    /// Notes that the view now shows `url`: what was shown of the page before is kept, and
    /// with `restore`, what was shown of `url` before is what the answer updates.
    fn switch_to(&mut self, url: &str, restore: bool) {
        if self.url.as_deref() == Some(url) {
            return;
        }
        if let Some(old) = self.url.take() {
            self.pages.retain(|(u, _)| *u != old);
            self.pages.push((old, self.items.clone()));
            if self.pages.len() > 8 {
                self.pages.remove(0);
            }
        }
        if restore {
            if let Some(at) = self.pages.iter().position(|(u, _)| u == url) {
                self.items = self.pages.remove(at).1;
            }
        }
        self.url = Some(url.to_string());
    }

    /// Takes in one answer of an arm speaking `dialect`.
    pub fn read(&mut self, dialect: Dialect, text: &str, kind: Option<&str>) {
        match dialect {
            Dialect::Axsnap => self.read_axsnap(text, kind),
            Dialect::PlaywrightYaml { incremental } => {
                if let Some(yaml) = playwright_yaml(text) {
                    self.read_playwright(yaml, incremental);
                }
            }
            Dialect::Devtools => {
                if let Some(snap) = devtools_snapshot(text) {
                    self.read_devtools(snap);
                }
            }
            Dialect::LinuxDesktop => self.read_linux_desktop(text),
            Dialect::AgentBrowser => {
                // Its deltas are splices: what is beside an element is read in the whole tree.
                if self.read_agent_browser(text) {
                    let tree = self.tree.join("\n");
                    fill_beside(&mut self.items, &tree);
                }
                return;
            }
        }
        // The elements this answer added have nothing beside them yet.
        fill_beside(&mut self.items, text);
    }

    /// Takes in one agent-browser answer; whether it changed the view. A snapshot (its tree,
    /// `- role "name" [ref=e1]` lines) replaces it; a delta (JSON whose `treeChange` says
    /// which lines of the last tree to replace: `startLine`, `deleteCount`, `lines`) is
    /// spliced into the last tree; `unchanged (revision 4)` and an action's `✓ Done` leave it.
    pub fn read_agent_browser(&mut self, text: &str) -> bool {
        let t = text.trim_start();
        if t.starts_with('{') {
            let Ok(delta) = serde_json::from_str::<serde_json::Value>(t) else { return false };
            let Some(change) = delta.get("treeChange") else { return false };
            let at = change.get("startLine").and_then(serde_json::Value::as_u64).unwrap_or(0) as usize;
            let gone = change.get("deleteCount").and_then(serde_json::Value::as_u64).unwrap_or(0) as usize;
            let lines =
                change.get("lines").and_then(serde_json::Value::as_array).cloned().unwrap_or_default();
            let at = at.min(self.tree.len());
            let end = (at + gone).min(self.tree.len());
            self.tree.splice(at..end, lines.iter().filter_map(|l| l.as_str().map(str::to_string)));
        } else if t.starts_with("- ") {
            self.tree = t.lines().map(str::to_string).collect();
        } else if t.starts_with("(empty page)") || t.starts_with("(no interactive elements)") {
            // Asked while a page loads (its click does not wait for the navigation): the
            // agent sees nothing to act on, and looks again.
            self.tree.clear();
        } else {
            return false;
        }
        self.items = self.tree.iter().filter_map(|l| agent_browser_line(l)).collect();
        true
    }

    /// Takes in a linux-desktop-mcp snapshot (a text with `- ref_N: [role]` lines): it
    /// replaces the view. An answer without such lines (an action's "clicked") leaves it.
    pub fn read_linux_desktop(&mut self, text: &str) {
        let mut items = Vec::new();
        for line in text.lines() {
            let Some(rest) = line.trim_start().strip_prefix("- ref_") else { continue };
            let Some((n, rest)) = rest.split_once(": [") else { continue };
            let Some((role, rest)) = rest.split_once(']') else { continue };
            // Its names are printed between quotes with nothing escaped: the name runs to the
            // last quote before the state list.
            let rest = rest.trim_start();
            let name = match rest.strip_prefix('"') {
                Some(q) => {
                    let end = q.rfind("\" (").or_else(|| q.rfind('"')).unwrap_or(q.len());
                    q[..end].to_string()
                }
                None => String::new(),
            };
            items.push(Shown {
                r: format!("ref_{n}"),
                role: web_role(role).to_string(),
                name,
                beside: String::new(),
                row: String::new(),
            });
        }
        if !items.is_empty() {
            self.items = items;
        }
    }

    /// Takes in a Playwright snapshot: it replaces the view, or with `incremental` updates it
    /// (an element shown again under the same ref is replaced).
    pub fn read_playwright(&mut self, yaml: &str, incremental: bool) {
        if !incremental {
            self.items.clear();
        }
        let Ok(snap) = AriaSnapshot::parse(yaml) else { return };
        for (_, e) in snap.elements() {
            if let Some(r) = e.ref_id() {
                self.items.retain(|s| s.r != r);
                self.items.push(Shown {
                    r: r.to_string(),
                    role: e.role.clone(),
                    name: e.name.clone(),
                    beside: String::new(),
                    row: String::new(),
                });
            }
        }
    }

    /// Takes in a chrome-devtools-mcp snapshot: it replaces the view.
    pub fn read_devtools(&mut self, snap: &str) {
        self.items.clear();
        for line in snap.lines() {
            let Some(rest) = line.trim_start().strip_prefix("uid=") else { continue };
            let (uid, rest) = rest.split_once(' ').unwrap_or((rest, ""));
            // A text node's line has its quoted text where the role would be.
            if rest.starts_with('"') || rest.is_empty() {
                continue;
            }
            let (role, rest) = rest.split_once(' ').unwrap_or((rest, ""));
            let name = rest.strip_prefix('"').and_then(quoted).map(|(n, _)| n).unwrap_or_default();
            self.items.push(Shown {
                r: uid.to_string(),
                role: role.to_string(),
                name,
                beside: String::new(),
                row: String::new(),
            });
        }
    }

    /// The ref of the latest shown element with this role and name.
    pub fn find(&self, role: &str, name: &str) -> Option<&str> {
        self.find_near(role, name, None)
    }

    /// As [`View::find`] (a `name` ending in `…` matches names that start with the rest), and
    /// with `near`, only an element shown beside that text: the one it
    /// is closest to (the tab whose own label it is, not the tab before), the latest of equals.
    pub fn find_near(&self, role: &str, name: &str, near: Option<&str>) -> Option<&str> {
        self.find_in_row(role, name, near, None)
    }

    /// As [`View::find_near`], and with `row`, only an element in a table row whose text holds
    /// `row` (the `Edit` link of the row that says `Lantern`).
    pub fn find_in_row(&self, role: &str, name: &str, near: Option<&str>, row: Option<&str>) -> Option<&str> {
        // A name ending in `…` is a prefix: a search result's name runs on into its summary.
        let named = |n: &str| match name.strip_suffix('…') {
            Some(start) => n.starts_with(start.trim_end()),
            None => n == name,
        };
        let alike = self
            .items
            .iter()
            .enumerate()
            .filter(|(_, s)| s.role == role && named(&s.name))
            .filter(|(_, s)| row.is_none_or(|text| s.row.contains(text)));
        let Some(near) = near else { return alike.clone().next_back().map(|(_, s)| s.r.as_str()) };
        alike
            .filter_map(|(i, s)| s.beside.find(near).map(|at| (at, i, s)))
            .min_by_key(|&(at, i, _)| (at, std::cmp::Reverse(i)))
            .map(|(_, _, s)| s.r.as_str())
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

/// Sets what each of `items` was shown beside in `text`: the line that holds its ref as a
/// word (`[e12]`, `ref=e12`, `uid=1_2`, `ref_5:`), from the ref on, and the lines after it.
fn fill_beside(items: &mut [Shown], text: &str) {
    if items.iter().all(|s| !s.beside.is_empty()) {
        return;
    }
    let lines: Vec<&str> = text.lines().collect();
    let mut at: std::collections::HashMap<&str, (usize, usize)> = std::collections::HashMap::new();
    for (i, line) in lines.iter().enumerate() {
        let mut start = None;
        for (j, c) in line.char_indices().chain(std::iter::once((line.len(), ' '))) {
            let word = c.is_ascii_alphanumeric() || c == '_';
            match (word, start) {
                (true, None) => start = Some(j),
                (false, Some(s)) => {
                    at.entry(&line[s..j]).or_insert((i, s));
                    start = None;
                }
                _ => {}
            }
        }
    }
    for item in items.iter_mut().filter(|s| s.beside.is_empty()) {
        if let Some(&(i, col)) = at.get(item.r.as_str()) {
            let mut beside = lines[i][col..].trim().to_string();
            for l in lines.iter().skip(i + 1).take(BESIDE_LINES) {
                beside.push_str(" | ");
                beside.push_str(l.trim());
            }
            item.beside = beside;
            item.row = table_row(&lines, i).unwrap_or_default();
        }
    }
}

/// The text of the table row that holds line `i` of an indented answer (axsnap's text form,
/// a Playwright or agent-browser YAML tree): the nearest enclosing line whose role is `row`,
/// and every line indented under it, joined.
fn table_row(lines: &[&str], i: usize) -> Option<String> {
    let indent = |l: &str| l.len() - l.trim_start().len();
    let is_row = |l: &str| {
        let t = l.trim_start().trim_start_matches(['+', '=', '~', '-', ' ']);
        t.strip_prefix("row").is_some_and(|rest| rest.is_empty() || rest.starts_with([' ', ':', '"', '[']))
    };
    let mut depth = indent(lines.get(i)?);
    let mut at = i;
    while depth > 0 && at > 0 {
        at -= 1;
        let l = lines[at];
        if l.trim().is_empty() || indent(l) >= depth {
            continue;
        }
        depth = indent(l);
        if is_row(l) {
            let below =
                lines[at + 1..].iter().copied().take_while(|l| indent(l) > depth || l.trim().is_empty());
            let text: Vec<&str> = std::iter::once(l).chain(below).map(|l| l.trim()).collect();
            return Some(text.join(" | "));
        }
    }
    None
}

/// The element of one line of agent-browser's tree: `- checkbox "Done" [checked=false,
/// ref=e6]`; a line without a ref names none.
fn agent_browser_line(line: &str) -> Option<Shown> {
    let t = line.trim_start().strip_prefix("- ")?;
    let (role, rest) = t.split_once(' ')?;
    let (name, rest) = match rest.strip_prefix('"') {
        Some(q) => quoted(q)?,
        None => (String::new(), rest),
    };
    let attrs = rest.trim_start().strip_prefix('[')?.split(']').next()?;
    let r = attrs.split(',').find_map(|a| a.trim().strip_prefix("ref="))?;
    Some(Shown { r: r.to_string(), role: role.to_string(), name, beside: String::new(), row: String::new() })
}

/// An AT-SPI role name (`push_button`) as the web's (`button`); others as they are.
fn web_role(atspi: &str) -> &str {
    match atspi {
        "push_button" | "toggle_button" => "button",
        "menu_item" | "check_menu_item" | "radio_menu_item" => "menuitem",
        "menu_bar" => "menubar",
        "check_box" => "checkbox",
        "radio_button" => "radio",
        "entry" | "text" | "password_text" => "textbox",
        "combo_box" => "combobox",
        "list_item" => "listitem",
        "tab" => "tab",
        "tab_list" => "tablist",
        "table_cell" => "cell",
        "spin_button" => "spinbutton",
        other => other,
    }
}

fn is_ref(s: &str) -> bool {
    s.len() > 1 && s.starts_with('e') && s[1..].bytes().all(|b| b.is_ascii_digit())
}

/// The elements one line of axsnap's text form names: its own, then its inline links.
/// The old and new ref of a `~ e12 … is now e40` line.
fn renamed(t: &str) -> Option<(&str, &str)> {
    let rest = t.strip_prefix("~ ")?;
    let (_, new) = rest.rsplit_once(" is now ")?;
    let old = rest.split_whitespace().next().filter(|r| is_ref(r))?;
    is_ref(new.trim()).then_some((old, new.trim()))
}

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
        // A nameless element's line ends in its text: `generic [e20] [clickable]: Upload`;
        // a control's, in its value (`combobox [e8]: - column -`), which is not its name.
        None if VALUED.contains(&role) => String::new(),
        None => rest.split_once(": ").map(|(_, tail)| tail.trim().to_string()).unwrap_or_default(),
    };
    Some(Shown { r: r.to_string(), role: role.to_string(), name, beside: String::new(), row: String::new() })
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
            out.push(Shown {
                r,
                role: "link".to_string(),
                name: before[open + 1..].to_string(),
                beside: String::new(),
                row: String::new(),
            });
        }
        rest = &rest[at + 3..];
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_axsnap_element_made_again_takes_its_new_ref() {
        let mut v = View::default();
        v.read(Dialect::Axsnap, "# Ch 4\nnavigation [e3]\n  [Next chapter](e175)\n", None);
        assert_eq!(v.find("link", "Next chapter"), Some("e175"));
        v.read(
            Dialect::Axsnap,
            "# diff 1 -> 2: 1 change, 9 unchanged\n~ e175 link \"Next chapter\" is now e937\n",
            Some("diff"),
        );
        assert_eq!(v.find("link", "Next chapter"), Some("e937"));
        assert_eq!(v.len(), 2);
    }

    #[test]
    fn an_axsnap_answer_back_on_a_page_updates_what_was_shown_of_it() {
        let mut v = View::default();
        v.read(Dialect::Axsnap, "# Results — http://x/s?q=1\nmain [e2]\n  [Vec](e10)\n  [vec](e11)\n", None);
        v.read(Dialect::Axsnap, "# Vec — http://x/vec.html\nmain [e20]\n  [Source](e21)\n", Some("full"));
        assert_eq!(v.find("link", "Vec"), None);
        v.read(
            Dialect::Axsnap,
            "# back on Results — http://x/s?q=1, the same page as before: its refs work again; what changed since you last saw it:\n# diff 1 -> 3: 1 change, 4 unchanged\n~ e10 link \"Vec\": +focused\n",
            Some("diff"),
        );
        assert_eq!(v.find("link", "vec"), Some("e11"));
        assert_eq!(v.find("link", "Source"), None);
        // Forward again: unchanged, and the page between is what was shown of it.
        v.read(
            Dialect::Axsnap,
            "# back on Vec — http://x/vec.html, the same page as before: its refs work again; unchanged since you last saw it\n",
            Some("unchanged"),
        );
        assert_eq!(v.find("link", "Source"), Some("e21"));
        assert_eq!(v.find("link", "vec"), None);
    }

    #[test]
    fn agent_browser_trees_and_their_splices() {
        let mut v = View::default();
        let tree = "- generic\n  - list\n    - listitem [level=1]\n      - checkbox [checked=false, ref=e7]\n      - LabelText\n        - StaticText \"Buy milk\"\n  - link \"All\" [ref=e8]";
        v.read(Dialect::AgentBrowser, tree, None);
        assert_eq!(v.find_near("checkbox", "", Some("Buy milk")), Some("e7"));
        assert_eq!(v.find("link", "All"), Some("e8"));
        // A delta replaces lines 3..6 (the todo) with two todos of new refs.
        let delta = r#"{"kind":"delta","changes":[],"treeChange":{"startLine":3,"deleteCount":3,"lines":[
            "      - checkbox [checked=false, ref=e11]","      - LabelText","        - StaticText \"Buy milk\"",
            "    - listitem [level=1]","      - checkbox [checked=false, ref=e12]","      - LabelText","        - StaticText \"Walk\""]}}"#;
        v.read(Dialect::AgentBrowser, delta, None);
        assert_eq!(v.find_near("checkbox", "", Some("Walk")), Some("e12"));
        assert_eq!(v.find_near("checkbox", "", Some("Buy milk")), Some("e11"));
        assert_eq!(v.find("link", "All"), Some("e8"), "the lines after the splice stay");
        assert_eq!(v.len(), 3, "e7 is gone");
        // A page between documents shows nothing.
        let mut empty = v.clone();
        empty.read(Dialect::AgentBrowser, "(empty page)", None);
        assert!(empty.is_empty());
        // What changes nothing leaves the view.
        v.read(Dialect::AgentBrowser, "unchanged (revision 4)", None);
        v.read(Dialect::AgentBrowser, "✓ Done", None);
        assert_eq!(v.len(), 3);
    }

    #[test]
    fn a_target_near_a_text_of_its_table_row() {
        // phpMyAdmin's browse table: each row's Edit link comes ten lines before its name cell.
        let row = |edit: u32, id: u32, name: &str| {
            format!(
                "    row\n      cell\n        checkbox [e{}]\n      cell\n        [Edit Edit](e{edit})\n          image \"Edit\"\n          text: Edit\n      cell\n        [Delete](e{})\n      cell \"{id}\" [e{}] [clickable]\n      cell \"{name}\" [e{}] [clickable]\n",
                edit - 1,
                edit + 1,
                edit + 2,
                edit + 3
            )
        };
        let page = format!(
            "# Browse — http://h/sql\ntable [e2]\n{}{}  [Edit](e99)\n",
            row(11, 1, "Anchor"),
            row(21, 12, "Lantern")
        );
        let mut v = View::default();
        v.read(Dialect::Axsnap, &page, None);
        assert_eq!(v.find_in_row("link", "Edit Edit", None, Some("Lantern")), Some("e21"));
        assert_eq!(v.find_in_row("link", "Edit Edit", None, Some("Anchor")), Some("e11"));
        assert_eq!(v.find_in_row("link", "Edit", None, Some("Lantern")), None, "not in a row");
        assert_eq!(v.find_near("link", "Edit Edit", Some("Lantern")), None, "not beside it");
        assert_eq!(v.find_in_row("link", "Delete", None, Some("Map case")), None);
        // Playwright's tree: the row line names all its text; its cells are under it.
        let yaml = "- table [ref=e1]:\n  - rowgroup [ref=e2]:\n    - row \"Edit Edit Delete 12 Lantern\" [ref=e3]:\n      - cell \"Edit Edit\" [ref=e4]:\n        - link \"Edit Edit\" [ref=e5] [cursor=pointer]:\n          - img \"Edit\" [ref=e6]\n          - text: Edit\n      - cell \"Delete\" [ref=e7]:\n        - link \"Delete\" [ref=e8]\n      - cell \"12\" [ref=e9]\n      - cell \"Lantern\" [ref=e10]\n    - row \"Edit Edit Delete 13 Map case\" [ref=e11]:\n      - cell \"Edit Edit\" [ref=e12]:\n        - link \"Edit Edit\" [ref=e13]\n";
        let mut p = View::default();
        p.read_playwright(yaml, false);
        fill_beside(&mut p.items, yaml);
        assert_eq!(p.find_in_row("link", "Edit Edit", None, Some("Lantern")), Some("e5"));
        assert_eq!(p.find_in_row("link", "Edit Edit", None, Some("Map case")), Some("e13"));
        // A nameless link found by what it shows and its row: Playwright's Edit link.
        let yaml = "- row [ref=e1]:\n  - cell [ref=e2]:\n    - link [ref=e3] [cursor=pointer]:\n      - /url: index.php\n      - generic [ref=e4]:\n        - img \"Edit\" [ref=e5]\n        - text: Edit\n  - cell [ref=e6]:\n    - link [ref=e7] [cursor=pointer]:\n      - /url: index.php\n      - generic [ref=e8]:\n        - img \"Delete\" [ref=e9]\n  - cell \"Lantern\" [ref=e10]\n";
        let mut p = View::default();
        p.read_playwright(yaml, false);
        fill_beside(&mut p.items, yaml);
        assert_eq!(p.find_in_row("link", "", Some("img \"Edit\""), Some("Lantern")), Some("e3"));
        assert_eq!(p.find_in_row("link", "", Some("img \"Delete\""), Some("Lantern")), Some("e7"));
    }

    #[test]
    fn axsnap_answers_say_what_they_are_in_their_text() {
        assert_eq!(axsnap_kind("# diff 1 -> 2: 2 changes, 17 unchanged\n+ under x:"), "diff");
        assert_eq!(axsnap_kind("# no change since snapshot 2\n"), "unchanged");
        assert_eq!(axsnap_kind("# Title — http://h/\ngeneric\n"), "full");
        assert_eq!(axsnap_kind("# outline: the page is 51,576 tokens\n# T — http://h/\n"), "full");
        let back = "# back on \"Vec\" — http://h/v, the same page as before: its refs work again; unchanged since you last saw it\n# no change since snapshot 4\n";
        assert_eq!(axsnap_kind(back), "unchanged");
        let back = "# back on T — http://h/, the same page as before: its refs work again; what changed since you last saw it:\n# diff 4 -> 6: 1 change, 3 unchanged\n";
        assert_eq!(axsnap_kind(back), "diff");
        assert_eq!(axsnap_kind("session: s1 (stateless)\n# diff 1 -> 2: 1 change\n"), "diff");
        // A line of the page that happens to read like a header does not count.
        assert_eq!(axsnap_kind("# T — http://h/\nparagraph\n# diff 1 -> 2"), "full");
    }

    #[test]
    fn reads_axsnap_lines_links_and_diffs() {
        let mut v = View::default();
        v.read_axsnap(
            "# Home — http://x/\nmenubar [e9]\n  menuitem \"File\" [e10]\n  generic [e20] [clickable]: Upload\n  * [index](e61 \"General Index\") | [next](e63 \"Types\")\n  h1 \"Untitled\" [e88] [clickable]\n",
            Some("full"),
        );
        assert_eq!(v.find("menuitem", "File"), Some("e10"));
        assert_eq!(v.find("generic", "Upload"), Some("e20"));
        v.read(Dialect::Axsnap, "combobox [e8] [collapsed]: - column -\n", Some("diff"));
        assert_eq!(v.find_near("combobox", "", Some("- column -")), Some("e8"), "a value is not a name");
        assert_eq!(v.find("link", "next"), Some("e63"));
        assert_eq!(v.find("link", "index"), Some("e61"));
        assert_eq!(v.find("link", "ind…"), Some("e61"), "a prefix");
        assert_eq!(v.find("link", "ind"), None);
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
    fn a_nameless_target_is_found_by_what_is_beside_it() {
        let mut v = View::default();
        let page = "list\n  *\n    checkbox [e35]\n    label: Buy milk\n  *\n    checkbox [e36]\n    label: Walk the dog\n";
        v.read(Dialect::Axsnap, page, Some("full"));
        assert_eq!(v.find_near("checkbox", "", Some("Buy milk")), Some("e35"));
        assert_eq!(v.find_near("checkbox", "", Some("Walk the dog")), Some("e36"));
        assert_eq!(v.find_near("checkbox", "", Some("Feed the cat")), None);
        // The closest: a tab's own label, not the tab before it.
        v.read(
            Dialect::Axsnap,
            "tablist\n  tab \"Tab\" [e91]\n    label \"page 1\"\n  tab \"Tab\" [e92]\n    label \"page 2\"\n",
            Some("full"),
        );
        assert_eq!(v.find_near("tab", "Tab", Some("page 2")), Some("e92"));
        let yaml = "```yaml\n- listitem [ref=e20]:\n  - checkbox [ref=e21]\n  - text: Buy milk\n```";
        v.read(Dialect::PlaywrightYaml { incremental: false }, yaml, None);
        assert_eq!(v.find_near("checkbox", "", Some("Buy milk")), Some("e21"));
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
        v.read_playwright("- navigation \"related navigation\" [ref=e3]:\n  - link \"next\" [ref=e7] [cursor=pointer]:\n    - /url: stdtypes.html\n", false);
        assert_eq!(v.find("link", "next"), Some("e7"));
        assert_eq!(v.find("navigation", "related navigation"), Some("e3"));
        v.read_playwright("- button \"Go\" [ref=e9]\n", true);
        assert_eq!((v.find("link", "next"), v.find("button", "Go")), (Some("e7"), Some("e9")));
        v.read_playwright("- button \"Go\" [ref=e9]\n", false);
        assert_eq!(v.find("link", "next"), None);
    }

    #[test]
    fn reads_devtools_uids() {
        let mut v = View::default();
        v.read(
            Dialect::Devtools,
            "## Latest page snapshot\nuid=1_0 RootWebArea \"Docs\" url=\"http://x/\"\n  uid=1_1 link \"next\" url=\"a.html\"\n    uid=1_2 \"next\"\n  uid=1_3 checkbox\n  uid=1_4 textbox \"Quick \\\"search\\\"\" focusable\n",
            None,
        );
        assert_eq!(v.find("link", "next"), Some("1_1"));
        assert_eq!(v.find("checkbox", ""), Some("1_3"));
        assert_eq!(v.find("textbox", "Quick \"search\""), Some("1_4"));
        assert_eq!(v.len(), 4);
    }

    #[test]
    fn reads_linux_desktop_refs_with_web_roles() {
        let mut v = View::default();
        v.read(
            Dialect::LinuxDesktop,
            "Snapshot\n- ref_1: [frame] \"Widget Factory\"\n  - ref_2: [push_button] \"Say \"hi\"\" (enabled, focusable)\n  - ref_3: [check_box] (enabled)\n",
            None,
        );
        assert_eq!(v.find("button", "Say \"hi\""), Some("ref_2"));
        assert_eq!(v.find("checkbox", ""), Some("ref_3"));
        v.read(Dialect::LinuxDesktop, "Clicked ref_2", None);
        assert_eq!(v.len(), 3, "an answer without a tree leaves the view");
    }
}
