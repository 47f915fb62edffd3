//! The writer against the reader: every fixture, arbitrary trees, and trees too deep to
//! recurse on.

use axsnap_core::Rect;
use proptest::prelude::*;
use serde_json::json;

use super::*;
use crate::element::{
    CellState, GridState, LegacyState, RangeState, ScrollState, SelectionState, ValueState, WindowState,
};
use crate::error::ReadError;
use crate::ids::control;
use crate::reader::{read_json, Limits};
use crate::recording::read_elements;

fn fixture(file: &str) -> Vec<u8> {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../../fixtures/desktop/uia/");
    std::fs::read(format!("{dir}{file}")).expect("the fixture")
}

fn round_trip(elements: &Elements) -> Elements {
    let bytes = write_json(elements);
    read_json(&bytes, &Limits::default())
        .unwrap_or_else(|e| panic!("{e}\n{}", String::from_utf8_lossy(&bytes)))
}

#[test]
fn every_fixture_reads_back_the_same() {
    for file in
        ["A11yPatternTest.hier", "A11yElementTest.hier", "Taskbar.snapshot", "WildlifeManagerTest.a11ytest"]
    {
        let elements = read_elements(&fixture(file), &Limits::default()).expect(file);
        assert!(elements.len() > 1, "{file}");
        assert!(round_trip(&elements) == elements, "{file} changed in the round trip");
    }
}

/// The shapes are Accessibility Insights' own: ids as keys and beside the names it gives
/// them, integers for ids and states, floats for rectangles, arrays for runtime ids.
#[test]
fn writes_the_shapes_accessibility_insights_writes() {
    let mut elements = Elements::default();
    let button = Element {
        control_type: Some(control::BUTTON),
        name: "Start \"now\"".into(),
        bounds: Some(Rect { x: 428.0, y: 86.5, w: 98.0, h: 36.0 }),
        runtime_id: vec![42, -2147483647, 65694],
        process_id: Some(8008),
        heading_level: Some(2),
        patterns: Patterns {
            invoke: true,
            toggle: Some(ToggleState::Indeterminate),
            expand_collapse: Some(ExpandState::LeafNode),
            legacy: Some(LegacyState {
                default_action: "Press".into(),
                state: 1048576,
                value: String::new(),
            }),
            ..Patterns::default()
        },
        ..Element::default()
    };
    let root = elements.push(None, button);
    elements.push(Some(root), Element::default());
    let bytes = write_json(&elements);
    assert!(!bytes.starts_with(b"\xEF\xBB\xBF"));
    let text = std::str::from_utf8(&bytes).expect("UTF-8");
    assert!(text.lines().count() > 20, "pretty, one property a line:\n{text}");
    let v: Value = serde_json::from_slice(&bytes).expect("JSON");
    let p = &v["Properties"];
    assert_eq!(p["30000"], json!({"Id": 30000, "Name": "RuntimeId", "Value": [42, -2147483647, 65694]}));
    assert_eq!(p["30001"]["Value"], json!([428.0, 86.5, 98.0, 36.0]));
    assert!(p["30001"]["Value"][0].is_f64(), "rectangles are floats, as the tool writes them");
    assert_eq!(p["30002"]["Value"], json!(8008));
    assert_eq!(p["30003"], json!({"Id": 30003, "Name": "ControlType", "Value": 50000}));
    assert_eq!(p["30005"]["Value"], json!("Start \"now\""));
    assert_eq!(p["30010"], json!({"Id": 30010, "Name": "IsEnabled", "Value": true}));
    assert_eq!(p["30173"]["Value"], json!(80052));
    // Empty strings are left out, as the tool leaves them out.
    assert!(p.get("30011").is_none() && p.get("30004").is_none());
    let patterns = v["Patterns"].as_array().expect("a list");
    let ids: Vec<i64> = patterns.iter().filter_map(|p| p["Id"].as_i64()).collect();
    assert_eq!(ids, [10000, 10005, 10015, 10018]);
    for p in patterns {
        let name = p["Name"].as_str().expect("a name");
        assert_eq!(crate::ids::pattern_by_name(name).map(i64::from), p["Id"].as_i64(), "{name}");
    }
    assert_eq!(patterns[0], json!({"Id": 10000, "Name": "InvokePattern", "Properties": []}));
    assert_eq!(patterns[1]["Properties"], json!([{"Name": "ExpandCollapseState", "Value": 3}]));
    assert_eq!(patterns[2]["Properties"], json!([{"Name": "ToggleState", "Value": 2}]));
    assert_eq!(patterns[3]["Properties"][1], json!({"Name": "State", "Value": 1048576}));
    assert_eq!(v["Children"].as_array().map(Vec::len), Some(1));
    assert_eq!(v["Children"][0]["Children"], json!([]));
    assert!(round_trip(&elements) == elements);
}

/// Every property name written is the one the fixtures give its id (so the tool's own reader,
/// which goes by id, and a person reading the file agree).
#[test]
fn property_names_are_the_fixtures() {
    let mut e = Element {
        control_type: Some(1),
        bounds: Some(Rect { x: 0.0, y: 0.0, w: 1.0, h: 1.0 }),
        runtime_id: vec![1],
        process_id: Some(1),
        ..Element::default()
    };
    for s in [
        &mut e.localized_control_type,
        &mut e.name,
        &mut e.automation_id,
        &mut e.class_name,
        &mut e.framework_id,
        &mut e.help_text,
        &mut e.item_status,
    ] {
        *s = "x".into();
    }
    let written = properties(&e);
    assert_eq!(written.len(), 20);
    let v: Value = serde_json::from_slice(&fixture("A11yPatternTest.hier")[3..]).expect("JSON");
    let z =
        crate::archive::snapshot_json(&fixture("WildlifeManagerTest.a11ytest"), &Limits::default()).unwrap();
    let w: Value = serde_json::from_slice(z.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(&z)).expect("JSON");
    for (id, name, _) in written {
        let key = id.to_string();
        let theirs = v["Properties"].get(&key).or_else(|| w["Properties"].get(&key));
        // ItemStatus is in none of the fixtures; its name is UIA's.
        let theirs = theirs.map_or("ItemStatus", |p| p["Name"].as_str().unwrap_or_default());
        assert_eq!(name, theirs, "{id}");
    }
}

#[test]
fn floats_that_json_cannot_hold_are_written_as_the_tool_writes_them() {
    let mut elements = Elements::default();
    let range =
        RangeState { value: f64::INFINITY, minimum: f64::NEG_INFINITY, maximum: -0.0, read_only: true };
    let e = Element {
        patterns: Patterns { range_value: Some(range), ..Patterns::default() },
        ..Element::default()
    };
    elements.push(None, e);
    let back = round_trip(&elements);
    assert!(back == elements);
    assert!(back.nodes[0].patterns.range_value.is_some_and(|r| r.maximum.is_sign_negative()));
    // NaN is never equal to itself, so the trees cannot be compared; it still reads as NaN.
    elements.nodes[0].patterns.range_value = Some(RangeState { value: f64::NAN, ..range });
    let text = String::from_utf8(write_json(&elements)).expect("UTF-8");
    assert!(text.contains(r#"{"Name": "Value", "Value": "NaN"}"#), "{text}");
    let back = round_trip(&elements);
    assert!(back.nodes[0].patterns.range_value.is_some_and(|r| r.value.is_nan()));
}

#[test]
fn an_empty_tree_is_one_element_with_defaults() {
    let back = round_trip(&Elements::default());
    assert_eq!(back.len(), 1);
    assert!(back.nodes[0] == Element::default());
}

/// Elements numbered out of document order come back renumbered in it; an edge back up the
/// tree, a child listed twice and an index past the end are skipped, not followed forever.
#[test]
fn malformed_arenas_end() {
    let named = |n: &str| Element { name: n.into(), ..Element::default() };
    let mut breadth_first = Elements::default();
    for (parent, name) in [(None, "r"), (Some(0), "a"), (Some(0), "b"), (Some(1), "a1")] {
        breadth_first.push(parent, named(name));
    }
    let back = round_trip(&breadth_first);
    let names: Vec<&str> = back.nodes.iter().map(|e| e.name.as_str()).collect();
    assert_eq!(names, ["r", "a", "a1", "b"]);
    assert_eq!(back.children, [vec![1, 3], vec![2], vec![], vec![]]);

    let mut bad = breadth_first.clone();
    bad.children[3].extend([0, 1, 99]);
    bad.children[0].push(3);
    bad.nodes.push(named("unreached"));
    bad.children.push(vec![]);
    assert!(round_trip(&bad) == back);
}

/// A chain `depth` elements deep, each named after its depth, with a runtime id and bounds
/// (arrays, the deepest values an element has).
fn chain(depth: usize) -> Elements {
    let mut t = Elements::default();
    let mut parent = None;
    for i in 0..depth {
        let e = Element {
            name: i.to_string(),
            runtime_id: vec![42, i as i64],
            bounds: Some(Rect { x: 0.5, y: 1.0, w: 2.0, h: 3.0 }),
            ..Element::default()
        };
        parent = Some(t.push(parent, e));
    }
    t
}

#[test]
fn a_tree_thousands_deep_is_written_without_recursing() {
    let depth = 20_000;
    let bytes = write_json(&chain(depth));
    let text = std::str::from_utf8(&bytes).expect("UTF-8");
    // Balanced outside strings, each element's object and Children array once.
    let (mut depth_now, mut max, mut in_string, mut escaped) = (0i64, 0i64, false, false);
    for c in text.bytes() {
        match (in_string, escaped, c) {
            (true, true, _) => escaped = false,
            (true, false, b'\\') => escaped = true,
            (true, false, b'"') | (false, _, b'"') => in_string = !in_string,
            (false, _, b'{' | b'[') => {
                depth_now += 1;
                max = max.max(depth_now);
            }
            (false, _, b'}' | b']') => depth_now -= 1,
            _ => {}
        }
        assert!(depth_now >= 0);
    }
    assert_eq!(depth_now, 0);
    assert!(max > 2 * depth as i64, "{max}");
    assert_eq!(text.matches("\"Children\": [").count(), depth);
    assert!(text.contains(&format!("\"Value\": \"{}\"", depth - 1)));
    // Indentation stops growing, so the text grows with the tree, not with its square.
    assert!(text.lines().all(|l| l.len() < 2 * MAX_INDENT + 200));
    // Past the reader's depth limit: its clear error, not a crash.
    assert!(matches!(read_json(&bytes, &Limits::default()), Err(ReadError::TooLarge { .. })));
}

/// Trees past serde_json's own nesting limit (128 arrays and objects: 62 elements) read back,
/// up to the reader's depth limit; one level more is refused as too deep.
#[test]
fn trees_as_deep_as_the_reader_goes_read_back() {
    for depth in [62, 63, 400] {
        let tree = chain(depth);
        assert!(round_trip(&tree) == tree, "{depth} deep");
    }
    let limits = Limits { max_depth: 400, ..Limits::default() };
    assert!(read_json(&write_json(&chain(400)), &limits).is_ok());
    assert!(matches!(read_json(&write_json(&chain(404)), &limits), Err(ReadError::TooLarge { .. })));
    let deepest = chain(Limits::default().max_depth);
    assert!(read_json(&write_json(&deepest), &Limits::default()).is_ok_and(|e| e.len() == deepest.len()));
}

fn text_strategy() -> impl Strategy<Value = String> {
    prop_oneof![Just(String::new()), "[a-z \"\\\\/\u{e9}\u{200e}\u{1f600}\u{0}\n\t]{1,12}", any::<String>(),]
}

/// Finite floats as a capture reads them: pixels (quarters on high-DPI screens), binary
/// fractions and zeros. Arbitrary 17-digit floats are left out: serde_json's default parser
/// may read those a unit in the last place off, and turning on its exact parser
/// (`float_roundtrip`) would slow every crate's float parsing for a difference no
/// rectangle shows.
fn finite() -> impl Strategy<Value = f64> {
    prop_oneof![
        (-(1i64 << 29)..(1i64 << 29)).prop_map(|n| n as f64 / 1024.0),
        (-20_000i32..20_000).prop_map(|n| f64::from(n) / 4.0),
        Just(0.0),
        Just(-0.0),
    ]
}

fn positive() -> impl Strategy<Value = f64> {
    prop_oneof![
        (1i64..(1i64 << 29)).prop_map(|n| n as f64 / 1024.0),
        (1i32..8_000).prop_map(|n| f64::from(n) / 2.0)
    ]
}

fn patterns_strategy() -> impl Strategy<Value = Patterns> {
    let toggle = prop_oneof![Just(ToggleState::Off), Just(ToggleState::On), Just(ToggleState::Indeterminate)];
    let expand = (0i64..4).prop_map(|n| ExpandState::from_uia(n).unwrap_or(ExpandState::Collapsed));
    let value =
        (text_strategy(), any::<bool>()).prop_map(|(value, read_only)| ValueState { value, read_only });
    let range = (finite(), finite(), finite(), any::<bool>())
        .prop_map(|(value, minimum, maximum, read_only)| RangeState { value, minimum, maximum, read_only });
    let legacy = (text_strategy(), any::<u32>(), text_strategy())
        .prop_map(|(default_action, state, value)| LegacyState { default_action, state, value });
    let first = (
        any::<bool>(),
        proptest::option::of(toggle),
        proptest::option::of(expand),
        proptest::option::of(value),
        proptest::option::of(range),
        proptest::option::of(any::<(bool, bool)>()),
        proptest::option::of(any::<bool>()),
        proptest::option::of(any::<(u32, u32)>()),
    );
    let second = (
        proptest::option::of(any::<(u32, u32)>()),
        any::<bool>(),
        proptest::option::of(any::<(bool, bool, bool, bool)>()),
        proptest::option::of(any::<(bool, bool)>()),
        any::<(bool, bool)>(),
        proptest::option::of(legacy),
    );
    (first, second).prop_map(
        |((invoke, toggle, expand_collapse, value, range_value, sel, item, grid), rest)| {
            let (cell, table, window, scroll, (scroll_item, text), legacy) = rest;
            Patterns {
                invoke,
                toggle,
                expand_collapse,
                value,
                range_value,
                selection: sel.map(|(multiple, required)| SelectionState { multiple, required }),
                selection_item: item,
                grid: grid.map(|(rows, columns)| GridState { rows, columns }),
                grid_item: cell.map(|(row, column)| CellState { row, column }),
                table,
                window: window.map(|(modal, topmost, can_maximize, can_minimize)| WindowState {
                    modal,
                    topmost,
                    can_maximize,
                    can_minimize,
                }),
                scroll: scroll.map(|(horizontal, vertical)| ScrollState { horizontal, vertical }),
                scroll_item,
                text,
                legacy,
            }
        },
    )
}

fn element_strategy() -> impl Strategy<Value = Element> {
    let texts = (text_strategy(), text_strategy(), text_strategy(), text_strategy(), text_strategy());
    let more_texts = (text_strategy(), text_strategy());
    let flags = any::<[bool; 8]>();
    let ids = (
        proptest::option::of(any::<i32>()),
        proptest::option::of((finite(), finite(), positive(), positive())),
        proptest::option::of(1u32..=9),
        proptest::collection::vec(any::<i64>(), 0..8),
        proptest::option::of(any::<u32>()),
    );
    (texts, more_texts, flags, ids, patterns_strategy()).prop_map(
        |((lct, name, aid, class, fw), (help, status), f, (ct, rect, heading, rid, pid), patterns)| Element {
            control_type: ct,
            localized_control_type: lct,
            name,
            automation_id: aid,
            class_name: class,
            framework_id: fw,
            bounds: rect.map(|(x, y, w, h)| Rect { x, y, w, h }),
            enabled: f[0],
            offscreen: f[1],
            focused: f[2],
            focusable: f[3],
            password: f[4],
            control_element: f[5],
            required: f[6],
            help_text: help,
            item_status: status,
            heading_level: heading,
            dialog: f[7],
            runtime_id: rid,
            process_id: pid,
            patterns,
        },
    )
}

/// Trees numbered in document order: each element's parent is on the path from the root to
/// the element before it (`up` says how far up that path).
fn tree_strategy() -> impl Strategy<Value = Elements> {
    (element_strategy(), proptest::collection::vec((element_strategy(), any::<usize>()), 0..24)).prop_map(
        |(root, rest)| {
            let mut t = Elements::default();
            let mut path = vec![t.push(None, root)];
            for (e, up) in rest {
                path.truncate(path.len() - up % path.len());
                let id = t.push(path.last().copied(), e);
                path.push(id);
            }
            t
        },
    )
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn arbitrary_trees_read_back_the_same(tree in tree_strategy()) {
        let back = round_trip(&tree);
        prop_assert!(back == tree, "{:?}\nbecame\n{:?}", tree, back);
    }
}
