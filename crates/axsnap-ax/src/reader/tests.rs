//! The reader: the format, its errors, its limits.

use super::*;

fn read(text: &str) -> Result<AxRecording, ReadError> {
    read_json(text.as_bytes(), &Limits::default())
}

#[test]
fn a_recording_reads_in_document_order_with_its_attributes() {
    let text = r#"{"format": "axsnap-ax-recording", "version": 1, "app": "Finder", "pid": 412, "root":
        {"AXRole": "AXWindow", "AXTitle": "W", "AXPosition": [10, 20], "AXSize": [300, 200], "AXChildren": [
          {"AXRole": "AXGroup", "AXChildren": [
            {"AXRole": "AXStaticText", "AXValue": "Name:", "id": "l"},
            {"AXRole": "AXTextField", "AXValue": 2.5, "AXTitleUIElement": "l", "AXEnabled": false,
             "AXExpanded": null, "AXDisclosing": 1, "actions": ["AXConfirm", "AXScrollToVisible"],
             "settable": ["AXValue", "AXFocused", "AXSize"], "AXIdentifier": "name", "extra": {"ignored": true}}
          ]},
          {"AXRole": "AXCheckBox", "AXValue": true, "AXMinValue": 0, "AXMaxValue": 1}
        ]}}"#;
    let r = read(text).expect("it reads");
    assert_eq!(r.app.as_deref(), Some("Finder"));
    let e = &r.elements;
    let roles: Vec<&str> = e.nodes.iter().map(|n| n.role.as_str()).collect();
    assert_eq!(roles, ["AXWindow", "AXGroup", "AXStaticText", "AXTextField", "AXCheckBox"]);
    assert_eq!(e.children, vec![vec![1, 4], vec![2, 3], vec![], vec![], vec![]]);
    assert_eq!(e.nodes[0].pid, Some(412));
    assert_eq!(e.nodes[0].bounds, Some(Rect { x: 10.0, y: 20.0, w: 300.0, h: 200.0 }));
    let field = &e.nodes[3];
    assert_eq!(field.value.as_deref(), Some("2.5"));
    assert_eq!(field.title_element, Some(2));
    assert!(!field.enabled);
    assert_eq!(field.expanded, Some(true));
    assert_eq!(field.actions, [AxAction::Confirm, AxAction::Other("AXScrollToVisible".into())]);
    assert!(field.settable.value && field.settable.focused && !field.settable.selected);
    assert_eq!(field.identifier, "name");
    assert_eq!(e.nodes[4].value.as_deref(), Some("1"));
    assert_eq!((e.nodes[4].min_value, e.nodes[4].max_value), (Some(0.0), Some(1.0)));
}

#[test]
fn a_bare_element_reads_too() {
    let r = read(r#"{"AXRole": "AXButton", "AXTitle": "OK"}"#).expect("it reads");
    assert_eq!((r.app, r.elements.len()), (None, 1));
}

#[test]
fn errors_say_what_is_wrong_and_where() {
    let cases = [
        ("[1]", "its top level is not an object"),
        (r#"{"format": "other", "version": 1}"#, "its format is \"other\""),
        (r#"{"format": "axsnap-ax-recording", "version": 2, "root": {}}"#, "version 2"),
        (r#"{"format": "axsnap-ax-recording", "version": 1}"#, "no `root`"),
        (r#"{"AXRole": "AXButton", "AXTitle": 5}"#, "root: `AXTitle` must be a string"),
        (r#"{"AXRole": "AXButton", "AXPosition": [1]}"#, "root: `AXPosition` must be a pair"),
        (r#"{"AXRole": "AXButton", "AXEnabled": "yes"}"#, "`AXEnabled` must be true or false"),
        (r#"{"AXRole": "AXGroup", "AXChildren": [{"AXRole": "AXButton"}, 3]}"#, "root.AXChildren[1]"),
        (
            r#"{"AXRole": "AXGroup", "AXChildren": [{"AXRole": "AXButton", "actions": [1]}]}"#,
            "root.AXChildren[0]: `actions`",
        ),
        (r#"{"AXRole": "AXTextField", "AXTitleUIElement": "nobody"}"#, "names \"nobody\""),
        (r#"{"AXRole": "AXGroup", "id": "a", "AXChildren": [{"AXRole": "AXButton", "id": "a"}]}"#, "already"),
        (r#"{"AXRole": "AXButton", "AXValue": [1]}"#, "`AXValue` must be a string, a number or a boolean"),
        ("{\"AXRole\": ", "not JSON at line 1"),
    ];
    for (text, says) in cases {
        let e = read(text).expect_err(text).to_string();
        assert!(e.contains(says), "{text}: {e}");
    }
}

#[test]
fn limits_hold() {
    let small = Limits { max_bytes: 10, ..Limits::default() };
    let e = read_json(br#"{"AXRole": "AXButton"}"#, &small).expect_err("too large");
    assert!(matches!(e, ReadError::TooLarge { what: "the file", .. }), "{e}");
    let few = Limits { max_elements: 2, ..Limits::default() };
    let three = br#"{"AXRole": "AXGroup", "AXChildren": [{"AXRole": "AXButton"}, {"AXRole": "AXButton"}]}"#;
    let e = read_json(three, &few).expect_err("too many");
    assert!(matches!(e, ReadError::TooLarge { what: "the element count", .. }), "{e}");
}

/// A deep tree (past serde_json's own limit of 128 levels) reads, on the reader's thread;
/// one past the depth limit is refused before it is parsed.
#[test]
fn deep_trees_read_within_the_depth_limit() {
    let deep = |levels: usize| {
        let mut s = String::new();
        for _ in 0..levels {
            s.push_str(r#"{"AXRole": "AXGroup", "AXChildren": ["#);
        }
        s.push_str(r#"{"AXRole": "AXButton"}"#);
        for _ in 0..levels {
            s.push_str("]}");
        }
        s
    };
    let r = read(&deep(1_000)).expect("a deep tree reads");
    assert_eq!(r.elements.len(), 1_001);
    assert_eq!(r.elements.nodes[1_000].role, "AXButton");
    let e = read(&deep(2_100)).expect_err("too deep");
    assert!(matches!(e, ReadError::TooLarge { what: "the nesting of elements", .. }), "{e}");
}
