//! The agent over an in-memory backend made of constructed trees: which native element an
//! action reaches, when a capture is reused, and how stale and foreign refs are refused.

use std::collections::HashMap;
use std::fmt;
use std::time::Duration;

use axsnap_agent::{Agent, AgentError, AgentOptions};
use axsnap_core::backend::{Backend, Capture, ElementAction, Outcome, Refusal, TargetAction, TargetSummary};
use axsnap_core::session::{Answer, Mode, Request};
use axsnap_core::{Action, ActionSet, Header, NativeId, Node, Role, TargetId, Tree};
use futures::executor::block_on;

#[derive(Debug)]
struct FakeError(String);

impl fmt::Display for FakeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}
impl std::error::Error for FakeError {}

/// Pages of buttons; clicking a button renames it "<name> clicked".
#[derive(Default)]
struct Fake {
    pages: HashMap<TargetId, Vec<(String, String)>>,
    dirty: HashMap<TargetId, bool>,
    captures: usize,
    acted: Vec<String>,
}

impl Fake {
    fn page(&mut self, target: &str, buttons: &[(&str, &str)]) {
        let t = TargetId(target.into());
        self.pages.insert(t.clone(), buttons.iter().map(|(id, n)| (id.to_string(), n.to_string())).collect());
        self.dirty.insert(t, true);
    }
    fn tree(&self, target: &TargetId) -> Tree {
        let mut t = Tree::with_root(Node::new(Role::Document, "page", NativeId::new(&target.0, "root")));
        let root = t.root().unwrap();
        for (id, name) in &self.pages[target] {
            let mut b = Node::new(Role::Button, name.clone(), NativeId::new(&target.0, id.clone()));
            b.actions = ActionSet::EMPTY.with(Action::Click);
            t.append(root, b);
        }
        t
    }
}

impl Backend for Fake {
    type Error = FakeError;

    async fn targets(&mut self) -> Result<Vec<TargetSummary>, FakeError> {
        Ok(self
            .pages
            .keys()
            .map(|id| TargetSummary { id: id.clone(), header: Header::default(), active: false })
            .collect())
    }

    async fn capture(&mut self, target: &TargetId, _deadline: Duration) -> Result<Capture, FakeError> {
        self.captures += 1;
        self.dirty.insert(target.clone(), false);
        Ok(Capture::new(target.clone(), Header::default(), self.tree(target), None))
    }

    async fn act(
        &mut self,
        target: &TargetId,
        element: &NativeId,
        _a: &ElementAction,
    ) -> Result<Outcome, FakeError> {
        let page = self.pages.get_mut(target).ok_or_else(|| FakeError("no page".into()))?;
        let button =
            page.iter_mut().find(|(id, _)| *id == element.id).ok_or_else(|| FakeError("gone".into()))?;
        button.1.push_str(" clicked");
        self.acted.push(element.id.clone());
        self.dirty.insert(target.clone(), true);
        Ok(Outcome { settled: true, ..Outcome::default() })
    }

    async fn act_on_target(&mut self, _t: &TargetId, _a: &TargetAction) -> Result<Outcome, FakeError> {
        Ok(Outcome::default())
    }

    async fn open_target(&mut self, url: &str) -> Result<TargetId, FakeError> {
        Ok(TargetId(url.into()))
    }

    async fn close_target(&mut self, _t: &TargetId) -> Result<(), FakeError> {
        Ok(())
    }

    fn refusal(error: &FakeError) -> Option<Refusal> {
        (error.0 == "gone").then_some(Refusal::Gone)
    }

    async fn changed(&mut self, target: &TargetId) -> Result<bool, FakeError> {
        Ok(self.dirty.get(target).copied().unwrap_or(true))
    }
}

/// The ref the step's snapshot gave the node named `name`.
fn ref_named(step: &axsnap_agent::Step, name: &str) -> axsnap_core::Ref {
    let tree = &step.response.snapshot.tree;
    tree.preorder()
        .map(|(id, _)| tree.node(id))
        .find(|n| n.name == name)
        .and_then(|n| n.ref_id)
        .unwrap_or_else(|| panic!("no node named {name:?} with a ref"))
}

fn agent(fake: Fake, target: &str) -> Agent<Fake> {
    Agent::new(fake, Some(TargetId(target.into())), AgentOptions::default())
}

#[test]
fn acting_by_ref_reaches_the_element_and_answers_with_a_diff() {
    let mut fake = Fake::default();
    // Enough other buttons that a one-line diff is clearly cheaper than the full page.
    let others: Vec<(String, String)> = (10..40).map(|i| (i.to_string(), format!("Other {i}"))).collect();
    let mut buttons = vec![("1", "Save"), ("2", "Cancel"), ("4", "Quit")];
    buttons.extend(others.iter().map(|(a, b)| (a.as_str(), b.as_str())));
    fake.page("t1", &buttons);
    let mut a = agent(fake, "t1");
    let first = block_on(a.snapshot(&Request::default())).unwrap();
    assert!(matches!(first.response.answer, Answer::Full { .. }));
    let text = first.response.text.clone();
    let cancel_ref = text
        .lines()
        .find(|l| l.contains("\"Cancel\""))
        .and_then(|l| l.split('[').nth(1))
        .and_then(|s| s.split(']').next())
        .unwrap()
        .to_string();

    let step = block_on(a.act(&cancel_ref, &ElementAction::Click { count: 1 })).unwrap();
    assert_eq!(a.backend().acted, vec!["2".to_string()]);
    assert!(matches!(step.response.answer, Answer::Diff { .. }), "{:?}", step.response.answer);
    assert!(step.response.text.contains("Cancel clicked"), "{}", step.response.text);
    assert!(
        !step.response.text.contains("Quit"),
        "a diff re-sends nothing unchanged: {}",
        step.response.text
    );
}

#[test]
fn an_unchanged_target_is_answered_without_a_capture() {
    let mut fake = Fake::default();
    fake.page("t1", &[("1", "Save")]);
    let mut a = agent(fake, "t1");
    block_on(a.snapshot(&Request::default())).unwrap();
    let again = block_on(a.snapshot(&Request::default())).unwrap();
    assert!(!again.captured);
    assert_eq!(a.backend().captures, 1);
    assert!(matches!(again.response.answer, Answer::Unchanged { .. }));
    // A full request on an unchanged page still answers in full, from the kept capture.
    let full = block_on(a.snapshot(&Request { mode: Mode::Full, ..Request::default() })).unwrap();
    assert!(full.response.text.contains("Save"));
    assert_eq!(a.backend().captures, 1);
}

#[test]
fn an_element_removed_since_the_snapshot_gives_a_stale_error() {
    let mut fake = Fake::default();
    fake.page("t1", &[("1", "Save"), ("2", "Cancel")]);
    let mut a = agent(fake, "t1");
    let s = block_on(a.snapshot(&Request::default())).unwrap();
    let save = ref_named(&s, "Save");
    // The page puts another element in Save's place.
    a.backend().page("t1", &[("9", "Delete"), ("2", "Cancel")]);
    let err = block_on(a.act(&save.to_string(), &ElementAction::Click { count: 1 })).unwrap_err();
    assert!(matches!(err, AgentError::Stale { .. }), "{err}");
    assert!(a.backend().acted.is_empty(), "the other element must not be clicked");
    // After a new snapshot the old ref is known stale, and the new element has a ref of its own.
    let s2 = block_on(a.snapshot(&Request::default())).unwrap();
    let err = block_on(a.act(&save.to_string(), &ElementAction::Click { count: 1 })).unwrap_err();
    assert!(matches!(err, AgentError::Ref(axsnap_core::RefError::Stale { .. })), "{err}");
    assert_ne!(ref_named(&s2, "Delete"), save);
}

#[test]
fn an_element_the_page_made_again_equal_keeps_its_ref_from_the_next_snapshot() {
    let mut fake = Fake::default();
    fake.page("t1", &[("1", "Save"), ("2", "Cancel")]);
    let mut a = agent(fake, "t1");
    let s = block_on(a.snapshot(&Request::default())).unwrap();
    let save = ref_named(&s, "Save");
    // The page re-renders Save: an equal element with a new identity, in the same place.
    a.backend().page("t1", &[("9", "Save"), ("2", "Cancel")]);
    // Until a capture shows it, the ref names the old element, which is gone.
    let err = block_on(a.act(&save.to_string(), &ElementAction::Click { count: 1 })).unwrap_err();
    assert!(matches!(err, AgentError::Stale { .. }), "{err}");
    assert!(a.backend().acted.is_empty());
    let s2 = block_on(a.snapshot(&Request::default())).unwrap();
    assert_eq!(ref_named(&s2, "Save"), save, "{}", s2.response.text);
    block_on(a.act(&save.to_string(), &ElementAction::Click { count: 1 })).unwrap();
    assert_eq!(a.backend().acted, vec!["9".to_string()], "the click reached the new element");
}

#[test]
fn a_ref_from_another_target_is_refused_as_foreign() {
    let mut fake = Fake::default();
    fake.page("t1", &[("1", "Save")]);
    fake.page("t2", &[("1", "Other")]);
    let mut a = agent(fake, "t1");
    let s = block_on(a.snapshot(&Request::default())).unwrap();
    let save = ref_named(&s, "Save");
    a.set_target(TargetId("t2".into()));
    block_on(a.snapshot(&Request::default())).unwrap();
    let err = block_on(a.act(&save.to_string(), &ElementAction::Click { count: 1 })).unwrap_err();
    assert!(matches!(err, AgentError::Ref(axsnap_core::RefError::Foreign { .. })), "{err}");
    assert!(a.backend().acted.is_empty());
}

#[test]
fn find_uses_the_current_view() {
    let mut fake = Fake::default();
    fake.page("t1", &[("1", "Log in"), ("2", "Sign up")]);
    let mut a = agent(fake, "t1");
    let hits = block_on(a.find("login button", 5)).unwrap();
    assert_eq!(hits.first().map(|h| h.name.as_str()), Some("Log in"));
}
