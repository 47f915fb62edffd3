//! Find: a deterministic scorer over role and name.
//!
//! exact > prefix > substring > all words present; kind words ("button", "link", "box",
//! "field", "input", "checkbox", "tab", "menu", "option", "search box", ...) match roles; case,
//! punctuation and spacing are normalized so "login" finds "Log in".
//!
//! How a query is read:
//! - It is lowercased and every run of non-alphanumeric characters becomes one space; names are
//!   compared both with spaces and with them squeezed out, so "login" finds "Log in" and
//!   "e-mail" finds "Email".
//! - Kind phrases are taken out of it, longest first ("radio button" before "button"), and name
//!   roles. What is left is the name part. A query of kind words only ("search box") lists the
//!   nodes of those roles; its words are also tried as a name, so "menu" finds a button named
//!   "Menu" too, ranked above the role listing.
//! - Score: a matching kind outweighs any name tier (the agent said "button"), then the name
//!   tier, then actionable (has actions, not disabled), then visible (not offscreen); equal
//!   scores keep document order.

use serde::{Deserialize, Serialize};

use crate::refs::Ref;
use crate::role::Role;
use crate::state::State;
use crate::tree::{Node, NodeId, Tree};

/// One ranked match.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Hit {
    /// The element's ref.
    #[serde(rename = "ref")]
    pub r: Ref,
    /// Its role.
    pub role: String,
    /// Its name.
    pub name: String,
    /// Ancestor path, outermost first, as `role "name"` strings of named or landmark ancestors.
    pub path: Vec<String>,
    /// Score (higher is better); ties are broken by document order.
    pub score: u32,
}

/// How well a name matches.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Tier {
    None = 0,
    /// Listed for its role alone.
    RoleOnly = 1,
    AllWords = 2,
    Substring = 3,
    Prefix = 4,
    Exact = 5,
}

const KIND_BONUS: u32 = 1000;
const TIER_WEIGHT: u32 = 100;
const ACTIONABLE_BONUS: u32 = 10;
const VISIBLE_BONUS: u32 = 5;

/// Kind phrases (normalized words) and the roles they name.
const KINDS: &[(&str, &[Role])] = &[
    ("search box", &[Role::SearchBox]),
    ("search field", &[Role::SearchBox]),
    ("search bar", &[Role::SearchBox]),
    ("searchbox", &[Role::SearchBox]),
    ("text box", &[Role::TextBox, Role::SearchBox]),
    ("textbox", &[Role::TextBox, Role::SearchBox]),
    ("text field", &[Role::TextBox, Role::SearchBox]),
    ("text area", &[Role::TextBox]),
    ("textarea", &[Role::TextBox]),
    ("radio button", &[Role::Radio, Role::MenuItemRadio]),
    ("check box", &[Role::CheckBox, Role::MenuItemCheckbox]),
    ("checkbox", &[Role::CheckBox, Role::MenuItemCheckbox]),
    ("menu item", &[Role::MenuItem, Role::MenuItemCheckbox, Role::MenuItemRadio]),
    ("menuitem", &[Role::MenuItem, Role::MenuItemCheckbox, Role::MenuItemRadio]),
    ("combo box", &[Role::ComboBox]),
    ("combobox", &[Role::ComboBox]),
    ("combo", &[Role::ComboBox]),
    ("drop down", &[Role::ComboBox, Role::ListBox]),
    ("dropdown", &[Role::ComboBox, Role::ListBox]),
    ("list box", &[Role::ListBox]),
    ("listbox", &[Role::ListBox]),
    ("button", &[Role::Button]),
    ("link", &[Role::Link]),
    ("box", &[Role::TextBox, Role::SearchBox, Role::ComboBox]),
    ("field", &[Role::TextBox, Role::SearchBox, Role::ComboBox, Role::SpinButton]),
    ("input", &[Role::TextBox, Role::SearchBox, Role::ComboBox, Role::SpinButton]),
    ("radio", &[Role::Radio, Role::MenuItemRadio]),
    ("tab", &[Role::Tab]),
    ("menu", &[Role::Menu, Role::MenuBar]),
    ("option", &[Role::Option]),
    ("slider", &[Role::Slider]),
    ("switch", &[Role::Switch]),
    ("heading", &[Role::Heading]),
    ("image", &[Role::Image]),
    ("picture", &[Role::Image]),
    ("dialog", &[Role::Dialog, Role::AlertDialog]),
    ("modal", &[Role::Dialog, Role::AlertDialog]),
];

/// Words that carry nothing in a query ("the login button").
const STOP_WORDS: &[&str] = &["the", "a", "an"];

/// Lowercase words of `s`, split at every non-alphanumeric character.
fn words(s: &str) -> Vec<String> {
    s.split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(|w| w.chars().flat_map(char::to_lowercase).collect())
        .collect()
}

/// A text prepared for matching: its words, joined with spaces and with nothing.
struct Norm {
    words: Vec<String>,
    spaced: String,
    squashed: String,
    /// Byte offsets in `squashed` where a word starts.
    starts: Vec<usize>,
}

impl Norm {
    fn new(words: Vec<String>) -> Norm {
        let spaced = words.join(" ");
        let mut squashed = String::with_capacity(spaced.len());
        let mut starts = Vec::with_capacity(words.len());
        for w in &words {
            starts.push(squashed.len());
            squashed.push_str(w);
        }
        Norm { words, spaced, squashed, starts }
    }

    fn is_empty(&self) -> bool {
        self.words.is_empty()
    }

    /// How well a name matches this query text.
    fn tier(&self, name: &Norm) -> Tier {
        if self.is_empty() || name.is_empty() {
            return Tier::None;
        }
        if name.spaced == self.spaced || name.squashed == self.squashed {
            return Tier::Exact;
        }
        if name.spaced.starts_with(&self.spaced) || name.squashed.starts_with(&self.squashed) {
            return Tier::Prefix;
        }
        // Squashed matches count only from a word start, so "rein" does not hit "Store info".
        let at_word = name.squashed.match_indices(&self.squashed).any(|(i, _)| name.starts.contains(&i));
        if name.spaced.contains(&self.spaced) || at_word {
            return Tier::Substring;
        }
        if self.words.iter().all(|q| name.words.iter().any(|w| w.starts_with(q.as_str()))) {
            return Tier::AllWords;
        }
        Tier::None
    }
}

/// A parsed query.
struct Query {
    /// The whole query as a name.
    full: Norm,
    /// The query without kind words.
    name: Norm,
    /// Roles the kind words name (empty: no kind words).
    roles: Vec<Role>,
    /// The query named a search box: text fields named "search..." count as one.
    search_box: bool,
}

impl Query {
    fn parse(q: &str) -> Query {
        let all: Vec<String> = words(q);
        let meaningful: Vec<String> = if all.iter().any(|w| !STOP_WORDS.contains(&w.as_str())) {
            all.into_iter().filter(|w| !STOP_WORDS.contains(&w.as_str())).collect()
        } else {
            all
        };
        let mut roles = Vec::new();
        let mut rest = Vec::new();
        let mut search_box = false;
        let mut i = 0;
        while i < meaningful.len() {
            let mut taken = 0;
            for (phrase, kind_roles) in KINDS {
                let p: Vec<&str> = phrase.split(' ').collect();
                if p.len() > taken
                    && meaningful.len() - i >= p.len()
                    && p.iter().zip(&meaningful[i..]).all(|(a, b)| *a == b.as_str())
                {
                    taken = p.len();
                    for r in *kind_roles {
                        if !roles.contains(r) {
                            roles.push(r.clone());
                        }
                    }
                    search_box |= kind_roles == &[Role::SearchBox];
                }
            }
            if taken == 0 {
                rest.push(meaningful[i].clone());
                i += 1;
            } else {
                i += taken;
            }
        }
        Query { full: Norm::new(meaningful), name: Norm::new(rest), roles, search_box }
    }
}

/// The score of one node, or `None` when it does not match.
fn score(q: &Query, n: &Node) -> Option<u32> {
    let name = Norm::new(words(&n.name));
    let kind_match = q.roles.contains(&n.role)
        || (q.search_box
            && matches!(n.role, Role::TextBox | Role::ComboBox)
            && name.words.iter().any(|w| w.starts_with("search")));
    let (tier, bonus) = if q.roles.is_empty() {
        (q.full.tier(&name), 0)
    } else if q.name.is_empty() {
        // Kind words only: list the roles; the words may also be a name ("Menu").
        let as_name = q.full.tier(&name);
        if as_name > Tier::RoleOnly {
            (as_name, 0)
        } else if kind_match {
            (Tier::RoleOnly, 0)
        } else {
            (Tier::None, 0)
        }
    } else {
        let t = q.name.tier(&name).max(q.full.tier(&name));
        (t, if kind_match { KIND_BONUS } else { 0 })
    };
    if tier == Tier::None {
        return None;
    }
    let actionable = !n.actions.is_empty() && !n.states.contains(State::Disabled);
    let visible = !n.states.contains(State::Offscreen);
    Some(
        bonus
            + tier as u32 * TIER_WEIGHT
            + if actionable { ACTIONABLE_BONUS } else { 0 }
            + if visible { VISIBLE_BONUS } else { 0 },
    )
}

/// `role "name"` of the named or landmark ancestors of `id`, outermost first, the root left out.
fn path(tree: &Tree, id: NodeId) -> Vec<String> {
    let root = tree.root();
    let mut out: Vec<String> = tree
        .ancestors(id)
        .filter(|a| Some(*a) != root)
        .filter_map(|a| {
            let n = tree.node(a);
            if n.name.is_empty() && !n.role.is_landmark() {
                return None;
            }
            let mut s = n.role.as_str().to_string();
            if !n.name.is_empty() {
                s.push_str(&format!(" {:?}", n.name));
            }
            Some(s)
        })
        .collect();
    out.reverse();
    out
}

/// Ranks the nodes of a snapshot tree (refs assigned) against `query`; at most `limit` hits.
pub fn find(tree: &Tree, query: &str, limit: usize) -> Vec<Hit> {
    let q = Query::parse(query);
    if q.full.is_empty() || limit == 0 {
        return Vec::new();
    }
    let mut scored: Vec<(u32, usize, NodeId, crate::refs::Ref)> = Vec::new();
    for (order, (id, _)) in tree.preorder().enumerate() {
        let n = tree.node(id);
        let Some(r) = n.ref_id else { continue };
        if matches!(n.role, Role::More | Role::TextRun) || Some(id) == tree.root() {
            continue;
        }
        if let Some(s) = score(&q, n) {
            scored.push((s, order, id, r));
        }
    }
    scored.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
    scored
        .into_iter()
        .take(limit)
        .map(|(score, _, id, r)| {
            let n = tree.node(id);
            Hit { r, role: n.role.as_str().to_string(), name: n.name.clone(), path: path(tree, id), score }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::state::{Action, StateSet};
    use crate::tree::NativeId;

    struct B {
        t: Tree,
        next: u32,
    }

    impl B {
        fn new() -> B {
            let mut root = Node::new(Role::Document, "Page", NativeId::new("d", "0"));
            root.ref_id = Some(Ref(1));
            B { t: Tree::with_root(root), next: 2 }
        }
        fn add(&mut self, parent: NodeId, role: Role, name: &str) -> NodeId {
            let mut n = Node::new(role.clone(), name, NativeId::new("d", self.next.to_string()));
            n.ref_id = Some(Ref(self.next));
            if role.is_widget() {
                n.actions = [Action::Click].into_iter().collect();
            }
            self.next += 1;
            self.t.append(parent, n)
        }
        fn root(&self) -> NodeId {
            self.t.root().unwrap()
        }
    }

    fn names(hits: &[Hit]) -> Vec<String> {
        hits.iter().map(|h| format!("{} {}", h.role, h.name)).collect()
    }

    fn sample() -> B {
        let mut b = B::new();
        let r = b.root();
        let nav = b.add(r, Role::Navigation, "Main");
        b.add(nav, Role::Link, "Log in");
        b.add(nav, Role::Link, "Docs");
        let main = b.add(r, Role::Main, "");
        let form = b.add(main, Role::Form, "Sign in");
        b.add(form, Role::TextBox, "Email");
        b.add(form, Role::TextBox, "Password");
        b.add(form, Role::CheckBox, "Remember me");
        b.add(form, Role::Button, "Log in now");
        b.add(form, Role::Button, "Login");
        b.add(main, Role::Text, "Please log in to continue");
        b.add(main, Role::SearchBox, "Search docs");
        b.add(main, Role::TextBox, "Search products");
        b.add(main, Role::Button, "Menu");
        let menu = b.add(main, Role::Menu, "File");
        b.add(menu, Role::MenuItem, "Open");
        b
    }

    #[test]
    fn separators_and_case_are_normalized() {
        let b = sample();
        let hits = find(&b.t, "login", 10);
        // Exact matches (squashed) first, then prefix, then the word-start substring in text.
        assert_eq!(
            names(&hits),
            vec!["link Log in", "button Login", "button Log in now", "text Please log in to continue"]
        );
        assert_eq!(names(&find(&b.t, "E-MAIL", 10)), vec!["textbox Email"]);
    }

    #[test]
    fn tiers_rank_exact_prefix_substring_words() {
        let mut b = B::new();
        let r = b.root();
        b.add(r, Role::Text, "open the file dialog");
        b.add(r, Role::Text, "the file open");
        b.add(r, Role::Text, "file open dialog");
        b.add(r, Role::Text, "File open");
        let hits = find(&b.t, "file open", 10);
        assert_eq!(
            names(&hits),
            vec![
                "text File open",
                "text file open dialog",
                "text the file open",
                "text open the file dialog"
            ]
        );
        let s: Vec<u32> = hits.iter().map(|h| h.score).collect();
        assert!(s.windows(2).all(|w| w[0] > w[1]), "{s:?}");
    }

    #[test]
    fn kind_words_prefer_roles_and_leave_the_name() {
        let b = sample();
        let hits = find(&b.t, "log in button", 10);
        assert_eq!(hits[0].name, "Login");
        assert_eq!(hits[0].role, "button");
        assert_eq!(hits[1].name, "Log in now");
        // The link matches the name exactly but not the kind: after both buttons.
        assert_eq!(hits[2].role, "link");
        let hits = find(&b.t, "password field", 10);
        assert_eq!(names(&hits)[0], "textbox Password");
    }

    #[test]
    fn role_only_queries_list_roles() {
        let b = sample();
        assert_eq!(
            names(&find(&b.t, "search box", 10)),
            vec!["searchbox Search docs", "textbox Search products"]
        );
        assert_eq!(names(&find(&b.t, "checkbox", 10)), vec!["checkbox Remember me"]);
        // "menu" is a kind and a name: the button named Menu first, then the menu.
        assert_eq!(names(&find(&b.t, "menu", 10)), vec!["button Menu", "menu File"]);
        assert_eq!(names(&find(&b.t, "menu item", 10)), vec!["menuitem Open"]);
        assert_eq!(find(&b.t, "the link", 10).len(), 2);
    }

    #[test]
    fn actionable_and_visible_break_ties_then_document_order() {
        let mut b = B::new();
        let r = b.root();
        let off = b.add(r, Role::Button, "Save");
        b.t.node_mut(off).states = StateSet::EMPTY.with(State::Offscreen);
        let dis = b.add(r, Role::Button, "Save");
        b.t.node_mut(dis).states = StateSet::EMPTY.with(State::Disabled);
        b.add(r, Role::Button, "Save");
        b.add(r, Role::Button, "Save");
        let hits = find(&b.t, "save", 10);
        let refs: Vec<String> = hits.iter().map(|h| h.r.to_string()).collect();
        assert_eq!(refs, vec!["e4", "e5", "e2", "e3"]);
        assert_eq!(find(&b.t, "save", 2).len(), 2);
    }

    #[test]
    fn path_names_landmarks_and_named_ancestors() {
        let b = sample();
        let hits = find(&b.t, "remember me", 1);
        assert_eq!(hits[0].path, vec!["main".to_string(), "form \"Sign in\"".to_string()]);
        let hits = find(&b.t, "docs link", 1);
        assert_eq!(hits[0].path, vec!["navigation \"Main\"".to_string()]);
    }

    #[test]
    fn no_match_and_empty_queries() {
        let b = sample();
        assert!(find(&b.t, "zebra", 10).is_empty());
        assert!(find(&b.t, "  --  ", 10).is_empty());
        assert!(find(&b.t, "login", 0).is_empty());
        // "rein" is inside "Store info" only across a word boundary: no match.
        let mut c = B::new();
        let r = c.root();
        c.add(r, Role::Text, "Store info");
        assert!(find(&c.t, "rein", 10).is_empty());
    }
}
