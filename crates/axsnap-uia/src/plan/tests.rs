use axsnap_core::backend::{ElementAction, MouseButton, Refusal};
use axsnap_core::Rect;
use axsnap_desktop::DesktopError;

use super::*;
use crate::element::{LegacyState, Patterns, ScrollState, ValueState};
use crate::ids::control;

fn element(control_type: i32, name: &str, id: i64) -> Element {
    Element {
        control_type: Some(control_type),
        name: name.into(),
        runtime_id: vec![42, id],
        bounds: Some(Rect { x: 10.0, y: 20.0, w: 100.0, h: 30.0 }),
        ..Element::default()
    }
}

fn one(e: Element) -> Elements {
    let mut all = Elements::default();
    all.push(None, e);
    all
}

fn click() -> ElementAction {
    ElementAction::Click { count: 1 }
}

fn calls(plan: &Plan) -> Vec<Call> {
    plan.steps.iter().map(|s| s.call.clone()).collect()
}

fn refusal(r: Result<Plan, DesktopError>) -> Refusal {
    match r {
        Err(DesktopError::Refused { kind, .. }) => kind,
        other => panic!("not a refusal: {other:?}"),
    }
}

#[test]
fn a_click_takes_the_first_pattern_that_acts_and_the_pointer_last() {
    let with = |patterns: Patterns| Element { patterns, ..element(control::BUTTON, "OK", 1) };
    let cases = [
        (Patterns { invoke: true, toggle: Some(ToggleState::Off), ..Patterns::default() }, Call::Invoke),
        (
            Patterns { toggle: Some(ToggleState::Off), selection_item: Some(false), ..Patterns::default() },
            Call::Toggle,
        ),
        (Patterns { selection_item: Some(false), ..Patterns::default() }, Call::Select),
        (Patterns { expand_collapse: Some(ExpandState::Collapsed), ..Patterns::default() }, Call::Expand),
        (Patterns { expand_collapse: Some(ExpandState::Expanded), ..Patterns::default() }, Call::Collapse),
        (
            Patterns {
                expand_collapse: Some(ExpandState::LeafNode),
                legacy: Some(LegacyState { default_action: "Press".into(), ..LegacyState::default() }),
                ..Patterns::default()
            },
            Call::DefaultAction,
        ),
        (Patterns::default(), Call::ClickAt { x: 60, y: 35, button: MouseButton::Left, count: 1 }),
    ];
    for (patterns, want) in cases {
        let all = one(with(patterns.clone()));
        let plan = plan(&all, 0, &click()).unwrap();
        assert_eq!(calls(&plan), vec![want], "{patterns:?}");
        assert_eq!(plan.steps[0].target, vec![42, 1]);
    }
}

#[test]
fn a_right_or_double_click_is_the_pointer_even_where_a_pattern_acts() {
    let all = one(Element {
        patterns: Patterns { invoke: true, ..Patterns::default() },
        ..element(control::LIST_ITEM, "a.txt", 1)
    });
    let right = plan(&all, 0, &ElementAction::ClickButton { button: MouseButton::Right, count: 1 }).unwrap();
    assert_eq!(calls(&right), vec![Call::ClickAt { x: 60, y: 35, button: MouseButton::Right, count: 1 }]);
    let double = plan(&all, 0, &ElementAction::Click { count: 2 }).unwrap();
    assert_eq!(calls(&double), vec![Call::ClickAt { x: 60, y: 35, button: MouseButton::Left, count: 2 }]);
}

#[test]
fn the_refusals_come_before_anything_is_sent() {
    let disabled = one(Element { enabled: false, ..element(control::BUTTON, "Save", 1) });
    assert_eq!(refusal(plan(&disabled, 0, &click())), Refusal::Disabled);
    // Hovering a disabled control is allowed (its tooltip says why it is disabled).
    assert!(plan(&disabled, 0, &ElementAction::Hover).is_ok());
    let offscreen = one(Element { offscreen: true, ..element(control::BUTTON, "Far", 1) });
    assert_eq!(refusal(plan(&offscreen, 0, &click())), Refusal::Hidden);
    let no_area = one(Element { bounds: None, ..element(control::BUTTON, "Nowhere", 1) });
    assert_eq!(refusal(plan(&no_area, 0, &click())), Refusal::Hidden);
    let label = one(element(control::TEXT, "Name:", 1));
    let typed = ElementAction::Type { text: "x".into(), clear: true, submit: false };
    assert_eq!(refusal(plan(&label, 0, &typed)), Refusal::NotATextField);
    let read_only = one(Element {
        patterns: Patterns {
            value: Some(ValueState { value: "v".into(), read_only: true }),
            ..Patterns::default()
        },
        ..element(control::EDIT, "Path", 1)
    });
    assert_eq!(refusal(plan(&read_only, 0, &typed)), Refusal::ReadOnly);
    let no_id = one(Element { runtime_id: vec![], ..element(control::BUTTON, "OK", 1) });
    assert_eq!(refusal(plan(&no_id, 0, &click())), Refusal::NotActionable);
    assert!(matches!(plan(&no_id, 5, &click()), Err(DesktopError::Gone(_))));
}

#[test]
fn text_goes_through_a_writable_value_and_is_read_back() {
    let field = |value: &str| {
        one(Element {
            patterns: Patterns {
                value: Some(ValueState { value: value.into(), read_only: false }),
                ..Patterns::default()
            },
            ..element(control::EDIT, "Name", 7)
        })
    };
    let fill =
        plan(&field("old"), 0, &ElementAction::Type { text: "new".into(), clear: true, submit: false })
            .unwrap();
    assert_eq!(calls(&fill), vec![Call::Focus, Call::SetValue("new".into())]);
    assert_eq!(fill.check, Some((vec![42, 7], Check::Value("new".into()))));
    let append =
        plan(&field("old"), 0, &ElementAction::Type { text: " more".into(), clear: false, submit: true })
            .unwrap();
    assert_eq!(calls(&append)[1], Call::SetValue("old more".into()));
    assert!(matches!(&calls(&append)[2], Call::Keys(k) if k.len() == 1));
    assert_eq!(append.check, Some((vec![42, 7], Check::Value("old more".into()))));
}

#[test]
fn an_editor_without_a_value_and_a_password_take_keys() {
    let editor = one(Element {
        focusable: true,
        patterns: Patterns { text: true, ..Patterns::default() },
        ..element(control::DOCUMENT, "Text Editor", 3)
    });
    let typed =
        plan(&editor, 0, &ElementAction::Type { text: "fn main()".into(), clear: true, submit: false })
            .unwrap();
    assert_eq!(calls(&typed)[0], Call::Focus);
    assert!(matches!(&calls(&typed)[1], Call::Keys(k) if k.len() == 2), "Control+a then Delete");
    assert_eq!(calls(&typed)[2], Call::TypeText("fn main()".into()));
    assert_eq!(typed.check, None);
    let password = one(Element {
        password: true,
        patterns: Patterns {
            value: Some(ValueState { value: String::new(), read_only: false }),
            ..Patterns::default()
        },
        ..element(control::EDIT, "Password", 4)
    });
    let secret =
        plan(&password, 0, &ElementAction::Type { text: "hunter2".into(), clear: false, submit: false })
            .unwrap();
    assert_eq!(calls(&secret), vec![Call::Focus, Call::TypeText("hunter2".into())]);
    assert_eq!(secret.check, None, "a password is never read back");
}

#[test]
fn check_toggles_only_when_the_state_differs() {
    let boxed = |state| {
        one(Element {
            patterns: Patterns { toggle: Some(state), ..Patterns::default() },
            ..element(control::CHECK_BOX, "Bold", 2)
        })
    };
    assert_eq!(
        plan(&boxed(ToggleState::On), 0, &ElementAction::Check { on: true }).unwrap(),
        Plan::default()
    );
    let on = plan(&boxed(ToggleState::Off), 0, &ElementAction::Check { on: true }).unwrap();
    assert_eq!(calls(&on), vec![Call::Toggle]);
    assert_eq!(on.check, Some((vec![42, 2], Check::Toggle(ToggleState::On))));
    let mixed = plan(&boxed(ToggleState::Indeterminate), 0, &ElementAction::Check { on: true }).unwrap();
    assert_eq!(calls(&mixed), vec![Call::Toggle, Call::Toggle]);
    let radio = one(Element {
        patterns: Patterns { selection_item: Some(false), ..Patterns::default() },
        ..element(control::RADIO_BUTTON, "Large", 5)
    });
    assert_eq!(calls(&plan(&radio, 0, &ElementAction::Check { on: true }).unwrap()), vec![Call::Select]);
    assert_eq!(refusal(plan(&radio, 0, &ElementAction::Check { on: false })), Refusal::NotActionable);
    let button = one(element(control::BUTTON, "OK", 6));
    assert_eq!(refusal(plan(&button, 0, &ElementAction::Check { on: true })), Refusal::NotActionable);
}

#[test]
fn select_picks_the_option_by_name_or_sets_a_closed_combo_box() {
    let mut list = Elements::default();
    let root = list.push(
        None,
        Element {
            patterns: Patterns { selection: Some(Default::default()), ..Patterns::default() },
            ..element(control::LIST, "Animals", 1)
        },
    );
    for (i, name) in ["Cat", "Dog", "Emu"].iter().enumerate() {
        list.push(
            Some(root),
            Element {
                patterns: Patterns { selection_item: Some(false), ..Patterns::default() },
                ..element(control::LIST_ITEM, name, 10 + i as i64)
            },
        );
    }
    let picked = plan(&list, 0, &ElementAction::Select { values: vec!["dog".into()] }).unwrap();
    assert_eq!(picked.steps, vec![Step { target: vec![42, 11], call: Call::Select }]);
    assert_eq!(picked.check, Some((vec![42, 11], Check::Selected)));
    let two = plan(&list, 0, &ElementAction::Select { values: vec!["Cat".into(), "Emu".into()] }).unwrap();
    assert_eq!(calls(&two), vec![Call::Select, Call::AddToSelection]);
    match plan(&list, 0, &ElementAction::Select { values: vec!["Yak".into()] }) {
        Err(DesktopError::Refused { kind: Refusal::NoSuchOption, message }) => {
            assert!(message.contains("\"Cat\", \"Dog\", \"Emu\""), "{message}")
        }
        other => panic!("{other:?}"),
    }
    let combo = one(Element {
        patterns: Patterns {
            value: Some(ValueState { value: "Debug".into(), read_only: false }),
            expand_collapse: Some(ExpandState::Collapsed),
            ..Patterns::default()
        },
        ..element(control::COMBO_BOX, "Solution Configurations", 3)
    });
    let set = plan(&combo, 0, &ElementAction::Select { values: vec!["Release".into()] }).unwrap();
    assert_eq!(calls(&set), vec![Call::SetValue("Release".into())]);
    let closed = one(Element {
        patterns: Patterns { expand_collapse: Some(ExpandState::Collapsed), ..Patterns::default() },
        ..element(control::COMBO_BOX, "Font", 4)
    });
    assert_eq!(
        refusal(plan(&closed, 0, &ElementAction::Select { values: vec!["Arial".into()] })),
        Refusal::NoSuchOption
    );
}

#[test]
fn scroll_uses_the_pane_s_steps_else_the_wheel() {
    let pane = one(Element {
        patterns: Patterns {
            scroll: Some(ScrollState { horizontal: false, vertical: true }),
            ..Patterns::default()
        },
        ..element(control::PANE, "", 8)
    });
    let down = plan(&pane, 0, &ElementAction::Scroll { dx: 30.0, dy: 400.0 }).unwrap();
    assert_eq!(calls(&down), vec![Call::ScrollSteps { horizontal: 0, vertical: 10 }]);
    let nudge = plan(&pane, 0, &ElementAction::Scroll { dx: 0.0, dy: -5.0 }).unwrap();
    assert_eq!(calls(&nudge), vec![Call::ScrollSteps { horizontal: 0, vertical: -1 }]);
    let sideways = plan(&pane, 0, &ElementAction::Scroll { dx: 300.0, dy: 0.0 }).unwrap();
    assert_eq!(
        calls(&sideways),
        vec![Call::WheelAt { x: 60, y: 35, dx: 300.0, dy: 0.0 }],
        "the pane does not scroll sideways"
    );
}
