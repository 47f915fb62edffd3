//! The Windows platform ([`UiaPlatform`]) above its system calls, on a real recorded Windows
//! tree (WPF's Wildlife Manager, from Accessibility Insights) served by a
//! [`ScriptedAutomation`]: which UI Automation calls each action becomes, what is read back,
//! and the change signal — an event marks the window dirty, no event means no read, and an
//! app that raises none is polled — through a scripted sequence of changes (a toggle, a value,
//! a selection, a subtree replaced, a change made silently).

use std::path::PathBuf;

use axsnap_agent::{Agent, AgentOptions};
use axsnap_core::backend::ElementAction;
use axsnap_core::session::{Mode, Request};
use axsnap_desktop::DesktopBackend;
use axsnap_uia::element::{Element, ToggleState, ValueState};
use axsnap_uia::ids::control;
use axsnap_uia::{Call, Elements, Script, ScriptedAutomation, UiaPlatform};

fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_current_thread().enable_time().build().expect("a runtime")
}

fn wildlife() -> Elements {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../fixtures/desktop/uia/WildlifeManagerTest.a11ytest");
    let bytes = std::fs::read(path).expect("the recording");
    axsnap_uia::window_elements(
        &axsnap_uia::read_elements(&bytes, &axsnap_uia::Limits::default()).expect("its elements"),
    )
}

fn auto() -> Request {
    Request { mode: Mode::Auto, ..Request::default() }
}

async fn agent(raises_events: bool) -> (Agent<DesktopBackend<UiaPlatform>>, Script) {
    let (automation, script) = ScriptedAutomation::new(wildlife(), "WildlifeManager.exe", raises_events);
    let platform = UiaPlatform::start(move || Ok(automation)).await.expect("the platform");
    let mut backend = DesktopBackend::new(platform);
    let target = backend.window("wildlifemanager", None).await.expect("its window");
    (
        Agent::new(backend, Some(target), AgentOptions { after_action: auto(), ..AgentOptions::default() }),
        script,
    )
}

/// The ref on the first line holding `needle`.
fn ref_of(text: &str, needle: &str) -> String {
    let line = text.lines().find(|l| l.contains(needle)).unwrap_or_else(|| panic!("no {needle}:\n{text}"));
    let at = line.find("[e").unwrap_or_else(|| panic!("no ref: {line}"));
    line[at + 1..].split(']').next().unwrap_or_default().to_string()
}

fn is_ok_button(e: &Element) -> bool {
    e.name == "Ok" && e.patterns.toggle.is_some()
}

fn is_list(e: &Element) -> bool {
    e.control_type == Some(control::LIST)
}

#[test]
fn actions_become_pattern_calls_and_each_event_marks_the_window_dirty() {
    runtime().block_on(async {
        let (mut agent, script) = agent(true).await;
        let first = agent.snapshot(&auto()).await.expect("a snapshot").response.text;
        assert!(first.contains("option \"Owl\""), "{first}");
        assert_eq!(script.reads(), 1);

        // At first contact the app has raised no event: it is polled, read again.
        let again = agent.snapshot(&auto()).await.expect("a snapshot");
        assert!(again.captured);
        assert_eq!(script.reads(), 2);

        // A three-state button checked: Indeterminate → Off → On, two Toggles, read back.
        let ok = ref_of(&first, "button \"Ok\"");
        let step = agent.act(&ok, &ElementAction::Check { on: true }).await.expect("checked");
        let toggled = script.element(is_ok_button).expect("the button");
        assert_eq!(toggled.patterns.toggle, Some(ToggleState::On));
        let calls: Vec<Call> = script.calls().into_iter().map(|(_, c)| c).collect();
        assert_eq!(calls, vec![Call::Toggle, Call::Toggle]);
        assert!(step.response.text.contains("+pressed -mixed"), "{}", step.response.text);
        assert!(
            step.response.text.lines().count() < first.lines().count(),
            "not a diff: {}",
            step.response.text
        );

        // The app is heard from now: a snapshot with nothing changed reads nothing.
        let reads = script.reads();
        let quiet = agent.snapshot(&auto()).await.expect("a snapshot");
        assert!(!quiet.captured, "read again with no event");
        assert_eq!(script.reads(), reads);

        // A value, through ValuePattern.SetValue, read back.
        let field = ref_of(&first, "textbox");
        let step = agent
            .act(&field, &ElementAction::Type { text: "Otter".into(), clear: true, submit: false })
            .await
            .expect("filled");
        assert!(step.response.text.contains("Otter"), "{}", step.response.text);
        assert!(script.calls().iter().any(|(_, c)| *c == Call::SetValue("Otter".into())));

        // An option selected, on the option's own element.
        let owl = ref_of(&first, "option \"Owl\"");
        let list = ref_of(&first, "listbox");
        agent.act(&list, &ElementAction::Select { values: vec!["owl".into()] }).await.expect("selected");
        let owl_element =
            script.element(|e| e.name == "Owl" && e.patterns.selection_item.is_some()).expect("Owl");
        assert_eq!(owl_element.patterns.selection_item, Some(true));
        let (target, call) = script.calls().last().cloned().expect("a call");
        assert_eq!((target, call), (owl_element.runtime_id.clone(), Call::Select));

        // The list's items replaced behind the agent's back, with a structure event: the next
        // snapshot reads the window and says what changed; the old option's ref is gone.
        let mut new_items = Elements::default();
        let root = new_items.push(None, Element::default());
        for (i, name) in ["Heron", "Otter"].iter().enumerate() {
            let item = new_items.push(
                Some(root),
                Element {
                    control_type: Some(control::LIST_ITEM),
                    name: name.to_string(),
                    runtime_id: vec![7, 9236, 900 + i as i64],
                    patterns: axsnap_uia::Patterns { selection_item: Some(false), ..Default::default() },
                    ..Element::default()
                },
            );
            let _ = item;
        }
        assert!(script.replace_children(is_list, &new_items, false));
        let replaced = agent.snapshot(&auto()).await.expect("a snapshot");
        assert!(replaced.captured);
        let said = &replaced.response.text;
        assert!(said.contains("Heron") && said.contains("Otter"), "{said}");
        assert!(said.lines().count() < first.lines().count(), "not a diff: {said}");
        match agent.act(&owl, &ElementAction::Click { count: 1 }).await {
            Err(e) => assert!(e.to_string().contains("stale") || e.to_string().contains("gone"), "{e}"),
            Ok(step) => panic!("a removed option was clicked: {}", step.response.text),
        }
    });
}

#[test]
fn an_app_that_raises_no_events_is_polled_and_a_silent_change_is_seen() {
    runtime().block_on(async {
        let (mut agent, script) = agent(false).await;
        let first = agent.snapshot(&auto()).await.expect("a snapshot").response.text;
        assert!(script.change(
            |e| e.control_type == Some(control::EDIT),
            true,
            |e| e.patterns.value = Some(ValueState { value: "typed elsewhere".into(), read_only: false }),
        ));
        let step = agent.snapshot(&auto()).await.expect("a snapshot");
        assert!(step.captured);
        assert!(step.response.text.contains("typed elsewhere"), "{}", step.response.text);
        assert!(step.response.text.lines().count() < first.lines().count());
        assert_eq!(script.reads(), 2);
    });
}

#[test]
fn refusals_send_nothing_and_a_change_that_does_not_take_is_said() {
    runtime().block_on(async {
        let (mut agent, script) = agent(true).await;
        let first = agent.snapshot(&auto()).await.expect("a snapshot").response.text;
        // A label takes no text: refused before any call.
        let label = ref_of(&first, "menuitem \"Flags\"");
        let err = agent
            .act(&label, &ElementAction::Type { text: "x".into(), clear: true, submit: false })
            .await
            .expect_err("refused");
        assert!(err.to_string().contains("not a text field"), "{err}");
        assert!(script.calls().is_empty(), "{:?}", script.calls());
        // The field turns disabled behind the agent's back (no event): the app refuses the
        // call, and the answer says why.
        assert!(script.change(|e| e.control_type == Some(control::EDIT), true, |e| e.enabled = false));
        let field = ref_of(&first, "textbox");
        let err = agent
            .act(&field, &ElementAction::Type { text: "Otter".into(), clear: true, submit: false })
            .await
            .expect_err("the app refused");
        assert!(err.to_string().contains("disabled"), "{err}");
        // A check box that takes Toggle and stays as it was: read back, it did not take.
        assert!(script.ignore_calls(|e| e.name == "Ok" && e.patterns.toggle.is_some()));
        let ok = ref_of(&first, "button \"Ok\"");
        let err = agent.act(&ok, &ElementAction::Check { on: true }).await.expect_err("no effect");
        assert!(
            err.to_string().contains("did not take") && err.to_string().contains("Indeterminate"),
            "{err}"
        );
    });
}

/// What `axsnap desktop snapshot --record` saves on Windows replays as the same window: the
/// platform's last read, written as Accessibility Insights JSON, read back by the recorded
/// platform, snapshots line for line as the live one did (changes made before it included).
#[test]
fn a_window_recorded_from_the_platform_replays_the_same() {
    runtime().block_on(async {
        let (mut agent, script) = agent(true).await;
        assert!(script.change(
            |e| e.control_type == Some(control::EDIT),
            false,
            |e| e.patterns.value = Some(ValueState { value: "Heron".into(), read_only: false }),
        ));
        let live = agent.snapshot(&auto()).await.expect("a snapshot").response.text;
        let target = agent.last_capture().expect("a capture").target.clone();
        let saved = agent.backend_ref().platform().recorded(&target).expect("a recording");
        let recording = axsnap_uia::recording::from_bytes(&saved, "wildlifemanager").expect("it reads back");
        let backend = DesktopBackend::new(axsnap_desktop::RecordedPlatform::new(recording));
        let mut replay = Agent::new(backend, None, AgentOptions::default());
        let target = replay.backend().window("wildlifemanager", None).await.expect("its window");
        replay.set_target(target);
        let replayed = replay.snapshot(&auto()).await.expect("a snapshot").response.text;
        assert!(live.contains("Heron"), "{live}");
        let body = |t: &str| t.lines().skip(1).map(str::to_string).collect::<Vec<_>>();
        assert_eq!(body(&replayed), body(&live));
    });
}
