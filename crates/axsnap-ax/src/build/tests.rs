//! The build: names, values, native ids, secrets.

use axsnap_core::{Node, Role, State};

use super::*;
use crate::element::{AxAction, Element, Elements};

fn el(role: &str, title: &str) -> Element {
    Element { role: role.into(), title: title.into(), ..Element::default() }
}

fn nodes(t: &Tree) -> Vec<&Node> {
    t.preorder().map(|(n, _)| t.node(n)).collect()
}

#[test]
fn native_ids_are_serials_or_positions_in_the_pid_scope() {
    let mut t = Elements::default();
    let root = t.push(None, Element { pid: Some(412), serial: Some(7), ..el("AXWindow", "W") });
    t.push(Some(root), Element { serial: Some(8), ..el("AXButton", "A") });
    t.push(Some(root), Element { serial: Some(8), ..el("AXButton", "B") });
    t.push(Some(root), el("AXButton", "C"));
    let b = build(&t).tree;
    let ids: Vec<(String, String)> =
        nodes(&b).iter().map(|n| (n.native.scope.clone(), n.native.id.clone())).collect();
    let want = [("ax:412", "n7"), ("ax:412", "n8"), ("ax:412", "at:2"), ("ax:412", "at:3")];
    assert_eq!(ids, want.map(|(s, i)| (s.to_string(), i.to_string())));
}

#[test]
fn a_secure_fields_value_never_leaves() {
    let mut t = Elements::default();
    let root = t.push(None, el("AXWindow", "Sign in"));
    let field = Element {
        subrole: "AXSecureTextField".into(),
        value: Some("hunter2secret".into()),
        ..el("AXTextField", "Password")
    };
    t.push(Some(root), field);
    t.push(Some(root), Element { value: Some("typed: hunter2secret".into()), ..el("AXStaticText", "") });
    t.push(Some(root), Element { value: Some(String::new()), ..el("AXSecureTextField", "PIN") });
    let built = build(&t);
    let all = format!("{:?}", nodes(&built.tree));
    assert!(!all.contains("hunter2secret"), "{all}");
    assert_eq!(built.secret_texts, ["hunter2secret"]);
    let n = nodes(&built.tree);
    assert!(n[1].states.contains(State::Protected));
    assert_eq!(n[1].value.as_deref(), Some("[redacted]"));
    // An empty secret stays empty: the agent can tell it still needs filling.
    assert_eq!(n[3].value.as_deref(), Some(""));
}

#[test]
fn names_from_titles_labels_descriptions_and_placeholders() {
    let mut t = Elements::default();
    let root = t.push(None, el("AXWindow", "W"));
    let label = t.push(Some(root), Element { value: Some("Save As:".into()), ..el("AXStaticText", "") });
    t.push(
        Some(root),
        Element { title_element: Some(label), value: Some(String::new()), ..el("AXTextField", "") },
    );
    t.push(Some(root), Element { description: "Back".into(), help: "Go back".into(), ..el("AXButton", "") });
    t.push(Some(root), Element { placeholder: "Search".into(), ..el("AXTextField", "") });
    let close = Element {
        subrole: "AXCloseButton".into(),
        role_description: "close button".into(),
        ..el("AXButton", "")
    };
    t.push(Some(root), close);
    t.push(Some(root), Element { value: Some("2".into()), ..el("AXHeading", "Inbox") });
    t.push(Some(root), Element { url: "https://example.com/".into(), ..el("AXLink", "Home") });
    t.push(Some(root), Element { value: Some("OK".into()), ..el("AXButton", "OK") });
    t.push(
        Some(root),
        Element { value: Some("1".into()), actions: vec![AxAction::Press], ..el("AXCheckBox", "Bold") },
    );
    t.push(Some(root), Element { identifier: "_NS:42".into(), ..el("AXButton", "Made up") });
    t.push(Some(root), Element { identifier: "saveButton".into(), ..el("AXButton", "Save") });
    let b = build(&t).tree;
    let n = nodes(&b);
    assert_eq!(
        (n[1].role.clone(), n[1].name.as_str(), n[1].value.as_deref()),
        (Role::Text, "Save As:", None)
    );
    assert_eq!((n[2].name.as_str(), n[2].value.as_deref()), ("Save As:", Some("")));
    assert_eq!((n[3].name.as_str(), n[3].description.as_deref()), ("Back", Some("Go back")));
    assert_eq!(
        (n[4].name.as_str(), n[4].description.as_deref(), n[4].value.as_deref()),
        ("Search", None, Some(""))
    );
    assert_eq!(n[5].name, "close button");
    assert_eq!((n[6].name.as_str(), n[6].level, n[6].value.as_deref()), ("Inbox", Some(2), None));
    assert_eq!(n[7].url.as_deref(), Some("https://example.com/"));
    assert_eq!(n[8].value, None);
    assert_eq!(n[9].value, None);
    assert!(n[9].states.contains(State::Checked));
    assert_eq!(n[10].dev_id, None);
    assert_eq!(n[11].dev_id.as_deref(), Some("saveButton"));
}
