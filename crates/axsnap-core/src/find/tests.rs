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
    /// A node without a ref (a group or heading projection left unnumbered).
    fn add_plain(&mut self, parent: NodeId, role: Role, name: &str) -> NodeId {
        let id = self.add(parent, role, name);
        self.t.node_mut(id).ref_id = None;
        id
    }
    fn root(&self) -> NodeId {
        self.t.root().unwrap()
    }
}

fn names(hits: &[Hit]) -> Vec<String> {
    hits.iter().map(|h| format!("{} {}", h.role, h.name)).collect()
}

fn top(t: &Tree, q: &str) -> String {
    find(t, q, 1).first().map(|h| format!("{} {}", h.role, h.name)).unwrap_or_default()
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

/// A settings form: the page of issue 7.
fn settings() -> B {
    let mut b = B::new();
    let r = b.root();
    let form = b.add(r, Role::Form, "Settings");
    b.add(form, Role::ComboBox, "Language");
    b.add(form, Role::TextBox, "Display name");
    let plan = b.add_plain(form, Role::Group, "Plan");
    for p in ["Free", "Pro", "Team"] {
        b.add(plan, Role::Radio, p);
    }
    let support = b.add_plain(form, Role::Group, "Support");
    b.add(support, Role::Radio, "Community");
    b.add(support, Role::Radio, "Pro");
    let notif = b.add_plain(form, Role::Group, "Notifications");
    b.add(notif, Role::CheckBox, "Email notifications");
    b.add(notif, Role::Switch, "Weekly digest");
    b.add(form, Role::Switch, "Dark mode");
    b.add(form, Role::Button, "Select all");
    b.add(form, Role::ComboBox, "All categories");
    b
}

#[test]
fn separators_and_case_are_normalized() {
    let b = sample();
    let hits = find(&b.t, "login", 10);
    // Whole names first (joined words count), then names it starts, then names it is inside.
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
        vec!["text File open", "text file open dialog", "text the file open", "text open the file dialog"]
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
    assert_eq!(hits[2].missing, ["button"]);
    assert_eq!(names(&find(&b.t, "password field", 10))[0], "textbox Password");
}

#[test]
fn role_only_queries_list_roles() {
    let b = sample();
    assert_eq!(
        names(&find(&b.t, "search box", 10)),
        vec!["searchbox Search docs", "textbox Search products"]
    );
    assert_eq!(names(&find(&b.t, "checkbox", 10)), vec!["checkbox Remember me"]);
    assert_eq!(names(&find(&b.t, "checkboxes", 10)), vec!["checkbox Remember me"]);
    // "menu" is a kind and a name: the button named Menu first, then the menu.
    assert_eq!(names(&find(&b.t, "menu", 10)), vec!["button Menu", "menu File"]);
    // "menu item": the item; the button named Menu answers half, after it.
    let hits = find(&b.t, "menu item", 10);
    assert_eq!(names(&hits), vec!["menuitem Open", "button Menu"]);
    assert_eq!(hits[1].missing, ["item"]);
    assert_eq!(find(&b.t, "the link", 10).len(), 2);
}

#[test]
fn synonyms_of_kind_words() {
    let b = settings();
    for q in
        ["language select", "language dropdown", "language drop-down", "language picker", "language combobox"]
    {
        assert_eq!(top(&b.t, q), "combobox Language", "{q}");
    }
    for q in ["name field", "name input", "display name text box"] {
        assert_eq!(top(&b.t, q), "textbox Display name", "{q}");
    }
    for q in ["dark mode toggle", "dark mode switch", "dark mode checkbox", "enable dark mode"] {
        assert_eq!(top(&b.t, q), "switch Dark mode", "{q}");
    }
    assert_eq!(top(&b.t, "email notifications toggle"), "checkbox Email notifications");
    assert_eq!(
        names(&find(&b.t, "toggles", 10)),
        ["checkbox Email notifications", "switch Weekly digest", "switch Dark mode"]
    );
}

#[test]
fn a_name_spelled_in_order_beats_a_kind_word() {
    let b = settings();
    // "select" is a kind word, but the button's name is the whole query.
    assert_eq!(top(&b.t, "select all"), "button Select all");
    // Out of order it is a name and a kind: the select wins.
    assert_eq!(top(&b.t, "all categories select"), "combobox All categories");
}

#[test]
fn ancestor_names_answer_words() {
    let b = settings();
    let hits = find(&b.t, "plan pro", 10);
    assert_eq!(hits[0].name, "Pro");
    assert_eq!(hits[0].path, ["form \"Settings\"", "group \"Plan\""]);
    assert!(hits[0].missing.is_empty());
    // The other "Pro" answers one word of two.
    assert_eq!(hits[1].path, ["form \"Settings\"", "group \"Support\""]);
    assert_eq!(hits[1].missing, ["plan"]);
    assert_eq!(find(&b.t, "support pro", 1)[0].path[1], "group \"Support\"");
    // Ancestors and kinds together: every radio of the plan group.
    assert_eq!(names(&find(&b.t, "plan radio", 10)), ["radio Free", "radio Pro", "radio Team"]);
    // Ancestor words alone list nothing: the radios do not answer "plan" themselves.
    assert!(find(&b.t, "plan", 10).is_empty());
    // Plurals and stems reach ancestors too.
    assert_eq!(top(&b.t, "weekly digest notification"), "switch Weekly digest");
}

#[test]
fn ancestor_words_never_outrank_a_direct_name_match() {
    let mut b = settings();
    let r = b.root();
    b.add(r, Role::Link, "Pro plan details");
    b.add(r, Role::Link, "Plan");
    // Both words in the link's own name beat one in the radio's and one in its group's.
    assert_eq!(top(&b.t, "plan pro"), "link Pro plan details");
    // "plan": the link named Plan, never the radios in the group Plan.
    assert_eq!(names(&find(&b.t, "plan", 10)), ["link Plan", "link Pro plan details"]);
}

#[test]
fn unnamed_containers_are_known_by_their_heading() {
    let mut b = B::new();
    let r = b.root();
    let mut add = Vec::new();
    for product in ["Trail Runner", "City Walker", "Beach Slide"] {
        let card = b.add_plain(r, Role::Article, "");
        let link = b.add(card, Role::Link, product);
        b.add_plain(link, Role::Heading, product);
        add.push(b.add(card, Role::Button, "Add to cart"));
    }
    let r = |i: usize| b.t.node(add[i]).ref_id.unwrap();
    let hits = find(&b.t, "add city walker to cart", 10);
    assert_eq!(hits[0].r, r(1), "{hits:?}");
    // The other cards' buttons answer "add" and "cart" but not "city walker".
    assert_eq!(hits[1].missing, ["city", "walker"]);
    assert_eq!(find(&b.t, "beach slide add to cart", 1)[0].r, r(2));
}

#[test]
fn unnamed_rows_are_known_by_their_cells() {
    let mut b = B::new();
    let r = b.root();
    let table = b.add(r, Role::Table, "API tokens");
    let mut revoke = Vec::new();
    for token in ["CI deploy", "Laptop"] {
        let row = b.add_plain(table, Role::Row, "");
        b.add_plain(row, Role::Cell, token);
        let cell = b.add_plain(row, Role::Cell, "");
        revoke.push(b.add(cell, Role::Button, "Revoke"));
    }
    let refs = |q: &str| find(&b.t, q, 10).iter().map(|h| h.r).collect::<Vec<_>>();
    let r = |i: usize| b.t.node(revoke[i]).ref_id.unwrap();
    assert_eq!(refs("revoke laptop token"), [r(1), r(0)]);
    assert_eq!(refs("revoke ci deploy"), [r(0)]);
}

#[test]
fn ancestor_roles_answer_kind_words() {
    let mut b = B::new();
    let r = b.root();
    b.add(r, Role::Button, "Close");
    let d = b.add(r, Role::Dialog, "Added to cart");
    b.add(d, Role::Button, "Close");
    let hits = find(&b.t, "close dialog", 10);
    assert_eq!(hits[0].r, Ref(4));
    assert_eq!(names(&hits), ["button Close", "button Close"]);
}

#[test]
fn description_value_and_options_answer_words() {
    let mut b = B::new();
    let r = b.root();
    let del = b.add(r, Role::Button, "Delete account");
    b.t.node_mut(del).description = Some("Permanently removes your data".into());
    b.add(r, Role::Button, "Remove filter");
    let sort = b.add(r, Role::ComboBox, "Sort by");
    b.t.node_mut(sort).options = vec!["Featured".into(), "Price: low to high".into()];
    let city = b.add(r, Role::TextBox, "City");
    b.t.node_mut(city).value = Some("Berlin".into());
    b.add(r, Role::Link, "Price list");
    assert_eq!(top(&b.t, "permanently remove data"), "button Delete account");
    assert_eq!(top(&b.t, "price low to high"), "combobox Sort by");
    assert_eq!(top(&b.t, "berlin"), "textbox City");
    // A name match beats the same word in a description or value.
    assert_eq!(top(&b.t, "remove"), "button Remove filter");
    assert_eq!(top(&b.t, "price"), "link Price list");
}

#[test]
fn words_match_in_any_order_by_stem_and_by_prefix() {
    let b = settings();
    assert_eq!(top(&b.t, "mode dark"), "switch Dark mode");
    assert_eq!(top(&b.t, "notification email"), "checkbox Email notifications");
    assert_eq!(top(&b.t, "notif"), "checkbox Email notifications");
    assert_eq!(top(&b.t, "languages"), "combobox Language");
    // No typo tolerance.
    assert_eq!(top(&b.t, "langauge"), "");
}

#[test]
fn partial_matches_say_what_is_missing() {
    let b = settings();
    let hits = find(&b.t, "language zebra", 10);
    assert_eq!(names(&hits), ["combobox Language"]);
    assert_eq!(hits[0].missing, ["zebra"]);
    // Less than half the words: nothing.
    assert!(find(&b.t, "language zebra giraffe", 10).is_empty());
    // Stop words are never missing.
    let hits = find(&b.t, "click the language select", 10);
    assert_eq!(names(&hits)[0], "combobox Language");
    assert!(hits[0].missing.is_empty());
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
    assert_eq!(find(&b.t, "save", 10), hits, "the same answer every time");
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
    // The page title (the root's name) answers nothing.
    assert!(find(&b.t, "page", 10).is_empty());
}

#[test]
fn long_strings_are_cut_with_a_marker() {
    let mut b = B::new();
    let r = b.root();
    let g = b.add(r, Role::Group, &format!("Group {}", "g".repeat(1_000_000)));
    b.add(g, Role::Button, &format!("Go {}", "x".repeat(500_000)));
    let hits = find(&b.t, "go", 10);
    assert_eq!(hits.len(), 1);
    assert!(hits[0].name.ends_with("…+499,803 chars"), "{}", &hits[0].name[190..]);
    assert!(hits[0].path[0].len() < 150 && hits[0].path[0].contains("…+"), "{}", hits[0].path[0]);
    let long_query = format!("go {}", "y".repeat(10_000_000));
    let hits = find(&b.t, &long_query, 10);
    assert!(hits[0].missing.iter().all(|m| m.chars().count() < 100), "{:?}", hits[0].missing);
}

/// Issue 8: a 100,000-deep tree gives a short hit, fast (one walk, no per-node ancestor walk).
#[test]
fn deep_trees_give_short_hits_fast() {
    const DEPTH: usize = 100_000;
    let mut t = Tree::with_capacity(DEPTH + 2);
    let mut root = Node::new(Role::Document, "Deep", NativeId::new("d", "root"));
    root.ref_id = Some(Ref(1));
    let root = t.push(root);
    t.set_root(root);
    let mut parent = root;
    for i in 0..DEPTH {
        let mut n = Node::new(Role::Group, format!("Level {i}"), NativeId::new("d", i.to_string()));
        n.ref_id = Some(Ref(i as u32 + 2));
        parent = t.append(parent, n);
    }
    let mut leaf = Node::new(Role::Button, "Deep button", NativeId::new("d", "leaf"));
    leaf.ref_id = Some(Ref(DEPTH as u32 + 2));
    leaf.actions = [Action::Click].into_iter().collect();
    t.append(parent, leaf);

    let t0 = std::time::Instant::now();
    let hits = find(&t, "deep button", 10);
    let took = t0.elapsed();
    assert_eq!(hits[0].name, "Deep button");
    assert_eq!(
        hits[0].path,
        [
            "group \"Level 0\"",
            "group \"Level 1\"",
            "…+99,996 levels",
            "group \"Level 99998\"",
            "group \"Level 99999\""
        ]
    );
    let json = serde_json::to_string(&hits[0]).unwrap();
    assert!(json.len() < 400, "{json}");
    // Every level answers "level": limited to the best 10, each short.
    let t1 = std::time::Instant::now();
    let hits = find(&t, "level 99999", 10);
    assert_eq!(hits[0].name, "Level 99999");
    assert!(hits.iter().all(|h| serde_json::to_string(h).unwrap().len() < 400));
    let took = took.max(t1.elapsed());
    println!("find on a {DEPTH}-deep tree: {took:?} (slower of two queries)");
    // Debug build on a shared machine: generous, but a per-node ancestor walk takes minutes.
    assert!(took < std::time::Duration::from_secs(5), "find took {took:?}");
}
