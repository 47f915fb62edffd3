//! Golden tests of the renderings: what a model reads and what a program parses.
//!
//! Review changed snapshots by eye (`cargo insta review`): they are the product.

use axsnap_core::diff::{Diff, FieldChange, NewNode, NewSubtree, Op};
use axsnap_core::project::{project, ProjectOptions, ProjectStats, View};
use axsnap_core::refs::RefSpace;
use axsnap_core::render::{render_diff, render_snapshot, render_unchanged, Format};
use axsnap_core::{
    Action, ActionSet, Header, NativeId, Node, NodeId, Ref, Role, Snapshot, State, StateSet, TargetId, Tree,
};

/// Builds a projected tree with refs by hand (the pipeline stages are tested elsewhere).
struct Builder {
    tree: Tree,
    next_native: u32,
}

fn states(s: &[State]) -> StateSet {
    s.iter().copied().collect()
}

fn actions(a: &[Action]) -> ActionSet {
    a.iter().copied().collect()
}

impl Builder {
    fn new(root: Node) -> Builder {
        Builder { tree: Tree::with_root(root), next_native: 100 }
    }

    fn root(&self) -> NodeId {
        self.tree.root().unwrap()
    }

    fn add(&mut self, parent: NodeId, r: u32, role: Role, name: &str, f: impl FnOnce(&mut Node)) -> NodeId {
        let mut n = Node::new(role, name, NativeId::new("doc1", self.next_native.to_string()));
        self.next_native += 1;
        n.ref_id = Some(Ref(r));
        f(&mut n);
        self.tree.append(parent, n)
    }
}

fn click(n: &mut Node) {
    n.actions = actions(&[Action::Click, Action::Focus]);
    n.states = states(&[State::Focusable]);
}

fn field(n: &mut Node) {
    n.actions = actions(&[Action::Click, Action::SetValue, Action::Focus]);
    n.states = states(&[State::Focusable, State::Editable]);
}

fn none(_: &mut Node) {}

/// A login page as projection would leave it.
fn login_tree(after_submit: bool) -> Tree {
    let mut root = Node::new(Role::Document, "Sign in · Acme", NativeId::new("doc1", "1"));
    root.ref_id = Some(Ref(1));
    root.url = Some("https://acme.example/login".into());
    let mut b = Builder::new(root);
    let r = b.root();
    let banner = b.add(r, 2, Role::Banner, "", none);
    b.add(banner, 3, Role::Link, "Acme", |n| {
        click(n);
        n.url = Some("https://acme.example/".into());
    });
    let main = b.add(r, 4, Role::Main, "", none);
    b.add(main, 5, Role::Heading, "Sign in to Acme", |n| n.level = Some(1));
    let p = b.add(main, 6, Role::Paragraph, "", none);
    b.add(p, 7, Role::Text, "Use your work email. \"Guest\" accounts cannot sign in.", none);
    if after_submit {
        let alert = b.add(main, 30, Role::Alert, "", none);
        b.add(alert, 31, Role::Text, "We could not sign you in.", none);
    }
    let form = b.add(main, 8, Role::Form, "Sign in", none);
    b.add(form, 9, Role::TextBox, "Email", |n| {
        field(n);
        n.states.set(State::Required, true);
        if after_submit {
            n.value = Some("bob@".into());
            n.states.set(State::Invalid, true);
            n.states.set(State::Focused, true);
            n.description = Some("Enter a valid email address".into());
        }
    });
    b.add(form, 10, Role::TextBox, "Password", |n| {
        field(n);
        n.states.set(State::Required, true);
        n.states.set(State::Protected, true);
        n.value = Some("[redacted]".into());
    });
    b.add(form, 11, Role::CheckBox, "Remember me", |n| {
        click(n);
        n.actions.set(Action::Toggle, true);
        if after_submit {
            n.states.set(State::Checked, true);
        }
    });
    b.add(form, 12, Role::Button, "Sign in", |n| {
        click(n);
        if after_submit {
            n.states.set(State::Busy, true);
        }
    });
    let links = b.add(main, 13, Role::Paragraph, "", none);
    b.add(links, 14, Role::Link, "Forgot password?", |n| {
        click(n);
        n.url = Some("https://acme.example/reset".into());
    });
    b.add(links, 15, Role::Link, "Help", |n| {
        click(n);
        n.url = Some("https://acme.example/help/login".into());
    });
    let footer = b.add(r, 16, Role::ContentInfo, "", none);
    b.add(footer, 17, Role::Text, "© 2026 Acme Inc.", none);
    b.add(footer, 18, Role::Link, "Help", |n| {
        click(n);
        n.url = Some("https://help.acme.example/".into());
        n.states.set(State::Offscreen, true);
    });
    b.add(footer, 19, Role::Link, "", |n| {
        click(n);
        n.url = Some("https://acme.example/login#top".into());
    });
    b.tree
}

/// Pretty-prints compact JSON keeping its field order (serde_json's `Value` sorts keys), so a
/// golden shows the order programs get.
fn indent_json(json: &str) -> String {
    let mut out = String::new();
    let mut depth = 0usize;
    let (mut in_str, mut escaped) = (false, false);
    let newline = |out: &mut String, depth: usize| {
        out.push('\n');
        out.push_str(&"  ".repeat(depth));
    };
    for c in json.chars() {
        if in_str {
            out.push(c);
            match (escaped, c) {
                (true, _) => escaped = false,
                (false, '\\') => escaped = true,
                (false, '"') => in_str = false,
                _ => {}
            }
            continue;
        }
        match c {
            '"' => {
                in_str = true;
                out.push(c);
            }
            '{' | '[' => {
                depth += 1;
                out.push(c);
                newline(&mut out, depth);
            }
            '}' | ']' => {
                depth -= 1;
                newline(&mut out, depth);
                out.push(c);
            }
            ',' => {
                out.push(c);
                newline(&mut out, depth);
            }
            ':' => out.push_str(": "),
            c => out.push(c),
        }
    }
    out
}

fn snap(tree: Tree, seq: u64, stats: ProjectStats) -> Snapshot {
    Snapshot {
        target: TargetId("T1".into()),
        seq,
        header: Header {
            url: Some("https://acme.example/login".into()),
            title: Some("Sign in · Acme".into()),
        },
        tree,
        stats,
    }
}

#[test]
fn login_text() {
    let s = snap(login_tree(false), 1, ProjectStats::default());
    insta::assert_snapshot!(render_snapshot(&s, Format::Text));
}

#[test]
fn login_json() {
    let s = snap(login_tree(true), 2, ProjectStats { raw_nodes: 70, output_nodes: 21, ..Default::default() });
    let json = render_snapshot(&s, Format::Json);
    let _: serde_json::Value = serde_json::from_str(&json).unwrap();
    insta::assert_snapshot!(indent_json(&json));
    // Deterministic, compact, and field order as documented.
    assert_eq!(json, render_snapshot(&s, Format::Json));
    assert!(json.starts_with(r#"{"target":"T1","seq":2,"header":"#));
    assert!(json.contains(r#","ref":"e9","role":"textbox","name":"Email","value":"bob@","description":"#));
    assert!(json.contains(r#""root":0,"nodes":[{"id":0,"ref":"e1","role":"document""#), "{json}");
}

#[test]
fn widgets_text() {
    let mut root = Node::new(Role::Document, "Checkout", NativeId::new("doc1", "1"));
    root.ref_id = Some(Ref(1));
    root.states = states(&[State::Busy]);
    let mut b = Builder::new(root);
    let r = b.root();
    let bar = b.add(r, 2, Role::MenuBar, "", none);
    b.add(bar, 3, Role::MenuItem, "File", |n| {
        click(n);
        n.states.set(State::Expanded, true);
    });
    let menu = b.add(r, 4, Role::Menu, "File", none);
    b.add(menu, 5, Role::MenuItem, "Save", |n| {
        click(n);
        n.states.set(State::Disabled, true);
    });
    b.add(menu, 6, Role::MenuItemCheckbox, "Autosave", |n| {
        click(n);
        n.states.set(State::Checked, true);
    });
    b.add(r, 7, Role::ComboBox, "Country", |n| {
        click(n);
        n.value = Some("Germany".into());
        n.states.set(State::Collapsed, true);
        n.options = vec!["France".into(), "Germany".into(), "Côte d'Ivoire".into()];
    });
    b.add(r, 8, Role::CheckBox, "Gift wrap \"deluxe\"\nwith card", |n| {
        click(n);
        n.states.set(State::Mixed, true);
    });
    b.add(r, 9, Role::Slider, "Tip", |n| {
        field(n);
        n.value = Some("2".into());
    });
    let list = b.add(r, 10, Role::List, "Results", none);
    for i in 0..3 {
        let li = b.add(list, 11 + i * 2, Role::ListItem, "", none);
        b.add(li, 12 + i * 2, Role::Text, &format!("Result {i}"), none);
    }
    b.add(list, 40, Role::More, "120 more items", none);
    b.add(r, 41, Role::Other("FancyWidget".into()), "odd", none);
    let s = Snapshot {
        target: TargetId("T4".into()),
        seq: 7,
        header: Header { url: Some("https://store.example/checkout".into()), title: None },
        tree: b.tree,
        stats: ProjectStats { cut_by_view: 120, ..Default::default() },
    };
    insta::assert_snapshot!(render_snapshot(&s, Format::Text));
}

#[test]
fn scoped_and_missing_text() {
    // A scope view: the root is a dialog, drawn with its ref.
    let mut root = Node::new(Role::Dialog, "Added to cart", NativeId::new("doc1", "1"));
    root.ref_id = Some(Ref(50));
    root.states = states(&[State::Modal]);
    let mut b = Builder::new(root);
    let r = b.root();
    b.add(r, 51, Role::Button, "Checkout", click);
    let s = Snapshot {
        target: TargetId("T3".into()),
        seq: 3,
        header: Header::default(),
        tree: b.tree,
        stats: ProjectStats::default(),
    };
    insta::assert_snapshot!("scoped_dialog", render_snapshot(&s, Format::Text));
    let missing = Snapshot {
        target: TargetId("T3".into()),
        seq: 4,
        header: Header { url: Some("https://shop.example/".into()), title: Some("Shop".into()) },
        tree: Tree::new(),
        stats: ProjectStats { scope_missing: true, ..Default::default() },
    };
    insta::assert_snapshot!("scope_missing", render_snapshot(&missing, Format::Text));
    assert_eq!(render_snapshot(&missing, Format::Json).matches("\"root\":null,\"nodes\":[]").count(), 1);
}

fn node(r: u32, role: Role, name: &str, f: impl FnOnce(&mut Node)) -> Node {
    let mut n = Node::new(role, name, NativeId::new("doc1", format!("n{r}")));
    n.ref_id = Some(Ref(r));
    f(&mut n);
    n
}

fn flat(nodes: Vec<(u32, Node)>) -> NewSubtree {
    NewSubtree { nodes: nodes.into_iter().map(|(depth, node)| NewNode { depth, node }).collect() }
}

/// A diff from the login page to the page after a failed submit, with every kind of op.
fn login_diff() -> Diff {
    let alert = flat(vec![
        (0, node(30, Role::Alert, "", none)),
        (1, node(31, Role::Text, "We could not sign you in.", none)),
    ]);
    Diff {
        from_seq: 1,
        to_seq: 2,
        ops: vec![
            Op::Add { parent: Ref(4), after: Some(Ref(6)), subtree: alert },
            Op::Update {
                r: Ref(9),
                changes: vec![
                    FieldChange::Value { old: None, new: Some("bob@".into()) },
                    FieldChange::Description { old: None, new: Some("Enter a valid email address".into()) },
                    FieldChange::States {
                        old: states(&[State::Focusable, State::Editable, State::Required]),
                        new: states(&[
                            State::Focusable,
                            State::Editable,
                            State::Required,
                            State::Invalid,
                            State::Focused,
                        ]),
                    },
                    FieldChange::Bounds {
                        old: None,
                        new: Some(axsnap_core::Rect { x: 1.0, y: 2.0, w: 3.0, h: 4.0 }),
                    },
                ],
            },
            Op::Update {
                r: Ref(11),
                changes: vec![FieldChange::States {
                    old: states(&[State::Focusable, State::Mixed]),
                    new: states(&[State::Focusable, State::Checked]),
                }],
            },
            // Only an offscreen flip: nothing the text form shows.
            Op::Update {
                r: Ref(18),
                changes: vec![FieldChange::States {
                    old: states(&[State::Focusable, State::Offscreen]),
                    new: states(&[State::Focusable]),
                }],
            },
            Op::Update {
                r: Ref(7),
                changes: vec![FieldChange::Name {
                    old: "Use your work email.".into(),
                    new: "Use your \"work\" email.".into(),
                }],
            },
            Op::Move { r: Ref(15), parent: Ref(13), after: None },
            Op::Remove { r: Ref(14) },
            Op::Replace {
                r: Ref(16),
                subtree: flat(vec![
                    (0, node(60, Role::ContentInfo, "", none)),
                    (
                        1,
                        node(61, Role::Link, "Status", |n| {
                            click(n);
                            n.url = Some("https://status.acme.example/".into());
                        }),
                    ),
                ]),
            },
            Op::Update {
                r: Ref(1),
                changes: vec![FieldChange::Name {
                    old: "Sign in · Acme".into(), new: "Error · Acme".into()
                }],
            },
        ],
        unchanged: 12,
    }
}

#[test]
fn diff_text() {
    let prev = login_tree(false);
    let next = login_tree(true);
    let text = render_diff(&login_diff(), &prev, &next, Format::Text);
    insta::assert_snapshot!(text);
}

#[test]
fn diff_json_is_the_serde_form() {
    let d = login_diff();
    let json = render_diff(&d, &Tree::new(), &Tree::new(), Format::Json);
    assert_eq!(json, serde_json::to_string(&d).unwrap());
    let back: Diff = serde_json::from_str(&json).unwrap();
    assert_eq!(back, d);
    insta::assert_snapshot!(indent_json(&json));
}

#[test]
fn unchanged_text() {
    assert_eq!(render_unchanged(4, Format::Text), "# no change since snapshot 4\n");
}

#[test]
fn deep_trees_render_without_recursion() {
    let depth = 100_000u32;
    let mut root = Node::new(Role::Group, "g0", NativeId::new("d", "0"));
    root.ref_id = Some(Ref(1));
    let mut t = Tree::with_root(root);
    let mut p = t.root().unwrap();
    for i in 1..depth {
        let mut n = Node::new(Role::Group, format!("g{i}"), NativeId::new("d", i.to_string()));
        n.ref_id = Some(Ref(i + 1));
        p = t.append(p, n);
    }
    let s = snap(t.clone(), 1, ProjectStats::default());
    let text = render_snapshot(&s, Format::Text);
    assert_eq!(text.lines().filter(|l| l.contains("group \"g")).count(), depth as usize);
    assert!(text.len() < 300 * depth as usize, "indentation must be capped: {} bytes", text.len());
    let json = render_snapshot(&s, Format::Json);
    assert_eq!(json.matches("\"children\":[").count(), depth as usize - 1);
    // Flat: serde_json's default reader (128 levels at most) takes it.
    let v: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert_eq!(v["nodes"][99_999]["parent"], 99_998);
    // A deep added subtree in a diff.
    let mut nodes: Vec<(u32, Node)> =
        (0..50_000).map(|i| (i, node(800_000 + i, Role::Group, "", none))).collect();
    nodes.push((50_000, node(900_000, Role::Group, "leaf", none)));
    let d = Diff {
        from_seq: 1,
        to_seq: 2,
        ops: vec![Op::Add { parent: Ref(1), after: None, subtree: flat(nodes) }],
        unchanged: 0,
    };
    let text = render_diff(&d, &t, &t, Format::Text);
    assert_eq!(text.lines().count(), 50_001 + 2);
    let json = render_diff(&d, &t, &t, Format::Json);
    assert_eq!(json.matches("\"depth\":").count(), 50_001);
    let _: serde_json::Value = serde_json::from_str(&json).unwrap();
}

// ---------------------------------------------------------------------------------------------
// Fixtures and token measurements.

fn fixture(name: &str) -> axsnap_core::interchange::RecordedTree {
    let path = format!("{}/../../fixtures/trees/{name}.json", env!("CARGO_MANIFEST_DIR"));
    let bytes = std::fs::read(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    axsnap_core::interchange::read_tree(&bytes, &Default::default()).unwrap()
}

const FIXTURES: &[&str] =
    &["login", "login_error", "docs_intro", "docs_install", "shop_modal", "shop_closed", "app_menu_combobox"];

/// Runs the real pipeline on a fixture: project, then refs from `refs` (one target), as `seq`.
fn pipeline(name: &str, opts: &ProjectOptions, refs: &mut RefSpace, seq: u64) -> (Tree, Snapshot) {
    let rec = fixture(name);
    let target = TargetId(rec.target.id.clone());
    let mut p = project(&rec.tree, opts);
    refs.refresh(&target, &rec.tree, &mut p.tree);
    let snap = Snapshot {
        target,
        seq,
        header: Header { url: rec.target.url.clone(), title: rec.target.title.clone() },
        tree: p.tree,
        stats: p.stats,
    };
    (rec.tree, snap)
}

fn fixture_snapshot(name: &str) -> Snapshot {
    pipeline(name, &ProjectOptions::default(), &mut RefSpace::new(), 1).1
}

#[test]
fn fixtures_text() {
    for name in FIXTURES {
        let text = render_snapshot(&fixture_snapshot(name), Format::Text);
        insta::assert_snapshot!(format!("fixture_{name}"), text);
    }
}

#[test]
fn fixture_json() {
    let json = render_snapshot(&fixture_snapshot("login_error"), Format::Json);
    let _: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert!(!json.contains("hunter2"), "a password value left the engine");
    insta::assert_snapshot!(indent_json(&json));
}

#[test]
fn fixture_views() {
    let top =
        ProjectOptions { view: View { top_surface: true, ..View::default() }, ..ProjectOptions::default() };
    let s = pipeline("shop_modal", &top, &mut RefSpace::new(), 1).1;
    insta::assert_snapshot!("fixture_shop_modal_top_surface", render_snapshot(&s, Format::Text));
    let interactive = ProjectOptions {
        view: View { interactive_only: true, ..View::default() },
        ..ProjectOptions::default()
    };
    let s = pipeline("docs_intro", &interactive, &mut RefSpace::new(), 1).1;
    insta::assert_snapshot!("fixture_docs_intro_interactive", render_snapshot(&s, Format::Text));
    let capped =
        ProjectOptions { view: View { max_nodes: Some(25), ..View::default() }, ..ProjectOptions::default() };
    let s = pipeline("docs_install", &capped, &mut RefSpace::new(), 1).1;
    insta::assert_snapshot!("fixture_docs_install_25_nodes", render_snapshot(&s, Format::Text));
}

/// Diffs between fixture pairs through the real pipeline; each is checked to apply exactly.
#[test]
fn fixture_diffs() {
    use axsnap_core::tokens::count_cl100k;
    for (from, to) in
        [("login", "login_error"), ("shop_modal", "shop_closed"), ("docs_intro", "docs_install")]
    {
        let mut refs = RefSpace::new();
        let opts = ProjectOptions::default();
        let (_, a) = pipeline(from, &opts, &mut refs, 1);
        let (_, b) = pipeline(to, &opts, &mut refs, 2);
        match axsnap_core::diff::diff(&a.tree, &b.tree) {
            Ok(mut d) => {
                d.from_seq = 1;
                d.to_seq = 2;
                assert!(axsnap_core::diff::apply(&a.tree, &d).unwrap() == b.tree.compacted());
                let text = render_diff(&d, &a.tree, &b.tree, Format::Text);
                let full = render_snapshot(&b, Format::Text);
                println!(
                    "{from} -> {to}: diff {} tokens, full {} tokens",
                    count_cl100k(&text),
                    count_cl100k(&full)
                );
                insta::assert_snapshot!(format!("diff_{from}_to_{to}"), text);
            }
            Err(e) => {
                insta::assert_snapshot!(format!("diff_{from}_to_{to}"), format!("no diff: {e}"));
            }
        }
    }
}

/// A rewrite of the chosen text form (given the snapshot and its rendering).
type Variant = fn(&Snapshot, &str) -> String;

/// `text` with each line that `f` rewrites (given its indentation and body) rewritten.
fn per_line(text: &str, f: impl Fn(&str, &str) -> Option<String>) -> String {
    text.lines()
        .map(|l| {
            let body = l.trim_start();
            f(&l[..l.len() - body.len()], body).unwrap_or_else(|| l.to_string()) + "\n"
        })
        .collect()
}

/// Prints the token cost of the chosen text form and of alternatives on every fixture:
/// `cargo test -p axsnap-core --test golden token_variants -- --ignored --nocapture`.
#[test]
#[ignore = "measurement; prints a table"]
fn token_variants() {
    use axsnap_core::tokens::{count_cl100k, count_o200k};
    let variants: &[(&str, Variant)] = &[
        ("chosen", |_, t| t.to_string()),
        ("'- ' bullet (Playwright)", |_, t| {
            t.lines()
                .map(|l| match l.starts_with('#') {
                    true => l.to_string() + "\n",
                    false => {
                        let body = l.trim_start();
                        format!("{}- {body}\n", &l[..l.len() - body.len()])
                    }
                })
                .collect()
        }),
        ("list items as `listitem:`", |_, t| {
            per_line(t, |ind, body| match (body == "*", body.strip_prefix("* ")) {
                (true, _) => Some(format!("{ind}listitem")),
                (_, Some(rest)) => Some(format!("{ind}listitem: {rest}")),
                _ => None,
            })
        }),
        ("headings as `heading \"…\" [level=N]`", |_, t| {
            per_line(t, |ind, body| {
                let digits = body.strip_prefix('h')?.bytes().take_while(u8::is_ascii_digit).count();
                let rest = body
                    .get(1 + digits..)
                    .filter(|r| digits > 0 && (r.is_empty() || r.starts_with([' ', ':'])))?;
                let after_name = rest.rfind('"').map_or(0, |q| q + 1);
                let colon = rest[after_name..].find(':').map_or(rest.len(), |c| after_name + c);
                let level = &body[1..1 + digits];
                Some(format!("{ind}heading{} [level={level}]{}", &rest[..colon], &rest[colon..]))
            })
        }),
        ("links as `link \"…\" [eN]`", |_, t| {
            per_line(t, |ind, body| {
                let mid = body.find("](e").filter(|_| body.starts_with('['))?;
                let close = mid + body[mid..].find(')')?;
                let r = Some(&body[mid + 2..close]).filter(|r| !r.contains(' '))?;
                Some(format!("{ind}link \"{}\" [{r}]{}", &body[1..mid], &body[close + 1..]))
            })
        }),
        ("states in one bracket", |_, t| t.replace("] [", ", ")),
        ("text quoted", |_, t| {
            per_line(t, |ind, body| {
                body.strip_prefix("text: ").map(|rest| format!("{ind}\"{}\"", rest.replace('"', "\\\"")))
            })
        }),
        ("'...' for …", |_, t| t.replace('…', "...")),
        ("ref first: [e7] button", |_, t| {
            t.lines()
                .map(|l| {
                    let Some(start) = l.find(" [e") else { return l.to_string() + "\n" };
                    let end = start + l[start..].find(']').unwrap() + 1;
                    let r = &l[start + 1..end];
                    let rest = format!("{}{}", &l[..start], &l[end..]);
                    let body = rest.trim_start();
                    format!("{}{r} {body}\n", &rest[..rest.len() - body.len()])
                })
                .collect()
        }),
        ("refs on every line", |s, _| {
            let mut s = s.clone();
            let ids: Vec<NodeId> = s.tree.preorder().map(|(id, _)| id).collect();
            for id in ids {
                s.tree.node_mut(id).states.set(State::Focusable, true);
            }
            render_snapshot(&s, Format::Text).replace("text: ", "text [e0]: ")
        }),
        ("every link URL", |s, lines| {
            let urls: Vec<String> = s
                .tree
                .preorder()
                .filter(|(id, _)| s.tree.node(*id).role == Role::Link)
                .map(|(id, _)| s.tree.node(id).url.clone().unwrap_or_default())
                .collect();
            let origin = s.header.url.as_deref().map(|u| u.split('/').take(3).collect::<Vec<_>>().join("/"));
            let mut k = 0;
            lines
                .lines()
                .map(|l| {
                    let mut l = l.to_string();
                    if l.trim_start().starts_with("link") || l.trim_start().starts_with('[') {
                        if !l.contains(" (") {
                            let u = &urls[k];
                            let short = origin.as_deref().and_then(|o| u.strip_prefix(o)).unwrap_or(u);
                            l.push_str(&format!(" ({short})"));
                        }
                        k += 1;
                    }
                    l + "\n"
                })
                .collect()
        }),
    ];
    println!(
        "{:<24} {:>8} {:>8}   (sum over {} fixtures; cl100k, o200k)",
        "variant",
        "cl100k",
        "o200k",
        FIXTURES.len()
    );
    let snaps: Vec<Snapshot> = FIXTURES.iter().map(|f| fixture_snapshot(f)).collect();
    for (name, f) in variants {
        let (mut a, mut b) = (0, 0);
        for s in &snaps {
            let t = f(s, &render_snapshot(s, Format::Text));
            a += count_cl100k(&t);
            b += count_o200k(&t);
        }
        println!("{name:<24} {a:>8} {b:>8}");
    }
    for (f, s) in FIXTURES.iter().zip(&snaps) {
        let t = render_snapshot(s, Format::Text);
        let size = axsnap_core::tokens::measure(&t);
        println!(
            "{f:<20} {:>6} B {:>5} cl100k {:>5} o200k",
            size.bytes, size.tokens_cl100k, size.tokens_o200k
        );
    }
}

/// Counting must be fast: the policy counts every candidate response.
#[test]
#[ignore = "measurement; run in release for real figures"]
fn token_count_speed() {
    let s = fixture_snapshot("docs_intro");
    let page = render_snapshot(&s, Format::Text);
    let mut text = String::new();
    while text.len() < 100_000 {
        text.push_str(&page);
    }
    text.truncate(text.char_indices().take_while(|(i, _)| *i < 100_000).last().map(|(i, _)| i).unwrap());
    axsnap_core::tokens::count_cl100k("warm up");
    axsnap_core::tokens::count_o200k("warm up");
    let t0 = std::time::Instant::now();
    let n = axsnap_core::tokens::count_cl100k(&text);
    let cl = t0.elapsed();
    let t0 = std::time::Instant::now();
    let size = axsnap_core::tokens::measure(&text);
    let both = t0.elapsed();
    println!("{} bytes: cl100k {n} tokens in {cl:?}; measure (both) {size:?} in {both:?}", text.len());
    let t0 = std::time::Instant::now();
    let long_word = "a".repeat(100_000);
    let n = axsnap_core::tokens::count_cl100k(&long_word);
    println!("100 KB without spaces: {n} tokens in {:?}", t0.elapsed());
}

/// Find over fixtures through the real pipeline: what an agent would ask for.
#[test]
fn find_on_fixtures() {
    use axsnap_core::find::find;
    let top = |fixture: &str, q: &str| {
        let s = fixture_snapshot(fixture);
        let hits = find(&s.tree, q, 3);
        hits.first().map(|h| format!("{} {:?} in {:?}", h.role, h.name, h.path)).unwrap_or_default()
    };
    assert_eq!(top("login", "email field"), r#"textbox "Email" in ["main", "form \"Sign in\""]"#);
    assert_eq!(top("login", "sign in button"), r#"button "Sign in" in ["main", "form \"Sign in\""]"#);
    assert_eq!(top("login", "remember-me"), r#"checkbox "Remember me" in ["main", "form \"Sign in\""]"#);
    assert_eq!(top("login", "forgot password"), r#"link "Forgot password?" in ["main"]"#);
    assert_eq!(top("docs_intro", "search box"), r#"searchbox "Search docs" in ["banner", "search"]"#);
    // Two "Installation" links: the TOC one comes first in document order.
    assert_eq!(
        top("docs_intro", "installation link"),
        r#"link "Installation" in ["navigation \"Table of contents\""]"#
    );
    assert_eq!(
        top("app_menu_combobox", "country dropdown"),
        r#"combobox "Country" in ["main", "tabpanel \"Address\"", "form \"Shipping\""]"#
    );
    assert_eq!(top("app_menu_combobox", "autosave"), r#"menuitemcheckbox "Autosave" in ["menu \"File\""]"#);
    assert_eq!(top("shop_modal", "checkout"), r#"link "Checkout" in ["dialog \"Added to cart\""]"#);
    let s = fixture_snapshot("app_menu_combobox");
    let tabs: Vec<String> = find(&s.tree, "tab", 10).into_iter().map(|h| h.name).collect();
    assert_eq!(tabs, ["Address", "Payment", "Review"]);
}
