//! [`ScriptedAutomation`]: a recorded Windows tree as an [`Automation`], on any system, with
//! a [`Script`] to change it as the app would and to see what the platform asked of it.
//!
//! It is the platform's test bench: each call does to the recorded elements what UI
//! Automation's pattern does to a real control (Toggle cycles Off → On → Indeterminate,
//! SetValue sets the value, Select selects one item of its list), and raises the event a real
//! app raises, so the platform's change signal, its choice of calls and its read-back run
//! here as they run on Windows. The script can also change the tree behind the platform's
//! back — with the event, or silently, as an app that raises none.

use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Instant;

use axsnap_desktop::{Frame, SizeLimits, WindowOp};

use crate::automation::{Automation, Call, CallError, EventKind, Heard, Read, TopWindow};
use crate::element::{Element, Elements, ExpandState, ToggleState};

/// The one window's handle.
pub const HWND: i64 = 0x1_0010;

#[derive(Debug)]
struct Scene {
    elements: Elements,
    process_id: u32,
    process_name: String,
    frame: Frame,
    raises_events: bool,
    events: Vec<Heard>,
    calls: Vec<(Vec<i64>, Call)>,
    reads: usize,
    closed: bool,
    /// Elements whose calls succeed and change nothing (an app that ignores SetValue).
    deaf: Vec<Vec<i64>>,
}

impl Scene {
    fn at(&self, runtime_id: &[i64]) -> Option<usize> {
        self.elements.nodes.iter().position(|e| e.runtime_id == runtime_id)
    }

    fn raise(&mut self, kind: EventKind) {
        if self.raises_events {
            self.events.push(Heard { process_id: self.process_id, at: Instant::now(), kind });
        }
    }

    fn parent_of(&self, child: usize) -> Option<usize> {
        self.elements.children.iter().position(|c| c.contains(&child))
    }
}

/// A recorded window served as UI Automation would serve it.
#[derive(Debug)]
pub struct ScriptedAutomation {
    scene: Arc<Mutex<Scene>>,
}

/// The test's hold on a [`ScriptedAutomation`]: changes made behind the platform's back, and
/// what the platform did.
#[derive(Clone, Debug)]
pub struct Script {
    scene: Arc<Mutex<Scene>>,
}

fn lock(scene: &Mutex<Scene>) -> MutexGuard<'_, Scene> {
    // A test that panicked while holding it has failed already; its state is still readable.
    scene.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
}

impl ScriptedAutomation {
    /// Serves `elements` (a window, as [`crate::read_elements`] reads a recording) as the one
    /// window of process `process_name`; `raises_events` says whether the app raises UIA
    /// events at all.
    pub fn new(elements: Elements, process_name: &str, raises_events: bool) -> (ScriptedAutomation, Script) {
        let process_id = elements.root().and_then(|r| r.process_id).unwrap_or(4242);
        let frame = elements
            .root()
            .and_then(|r| r.bounds)
            .map(|b| Frame {
                x: b.x as i32,
                y: b.y as i32,
                width: b.w as u32,
                height: b.h as u32,
                ..Frame::default()
            })
            .unwrap_or(Frame { width: 800, height: 600, ..Frame::default() });
        let scene = Arc::new(Mutex::new(Scene {
            elements,
            process_id,
            process_name: process_name.to_string(),
            frame: Frame { active: true, ..frame },
            raises_events,
            events: Vec::new(),
            calls: Vec::new(),
            reads: 0,
            closed: false,
            deaf: Vec::new(),
        }));
        (ScriptedAutomation { scene: scene.clone() }, Script { scene })
    }
}

impl Script {
    /// How many times the window was read.
    pub fn reads(&self) -> usize {
        lock(&self.scene).reads
    }

    /// The calls the platform made, in order, each with its element's runtime id.
    pub fn calls(&self) -> Vec<(Vec<i64>, Call)> {
        lock(&self.scene).calls.clone()
    }

    /// The first element `which` picks, as it is now.
    pub fn element(&self, which: impl Fn(&Element) -> bool) -> Option<Element> {
        lock(&self.scene).elements.nodes.iter().find(|e| which(e)).cloned()
    }

    /// Changes the first element `which` picks with `change`, raising a property event unless
    /// `silently`. False when it picks none.
    pub fn change(
        &self,
        which: impl Fn(&Element) -> bool,
        silently: bool,
        change: impl FnOnce(&mut Element),
    ) -> bool {
        let mut scene = lock(&self.scene);
        let Some(i) = scene.elements.nodes.iter().position(which) else { return false };
        change(&mut scene.elements.nodes[i]);
        if !silently {
            scene.raise(EventKind::Property);
        }
        true
    }

    /// Makes the first element `which` picks take every call and change nothing, as an app
    /// that ignores a pattern's setter does. False when it picks none.
    pub fn ignore_calls(&self, which: impl Fn(&Element) -> bool) -> bool {
        let mut scene = lock(&self.scene);
        let Some(e) = scene.elements.nodes.iter().find(|e| which(e)).map(|e| e.runtime_id.clone()) else {
            return false;
        };
        scene.deaf.push(e);
        true
    }

    /// Replaces the children of the first element `which` picks with the children of
    /// `subtree`'s root (their elements appended; the old ones left unreachable, as UIA's
    /// destroyed elements are), raising a structure event unless `silently`.
    pub fn replace_children(
        &self,
        which: impl Fn(&Element) -> bool,
        subtree: &Elements,
        silently: bool,
    ) -> bool {
        let mut scene = lock(&self.scene);
        let Some(at) = scene.elements.nodes.iter().position(which) else { return false };
        let offset = scene.elements.len();
        for (i, e) in subtree.nodes.iter().enumerate().skip(1) {
            scene.elements.nodes.push(e.clone());
            let kids = subtree
                .children
                .get(i)
                .map(|c| c.iter().map(|k| k + offset - 1).collect())
                .unwrap_or_default();
            scene.elements.children.push(kids);
        }
        let top =
            subtree.children.first().map(|c| c.iter().map(|k| k + offset - 1).collect()).unwrap_or_default();
        scene.elements.children[at] = top;
        if !silently {
            scene.raise(EventKind::Structure);
        }
        true
    }
}

impl Automation for ScriptedAutomation {
    fn windows(&mut self) -> Result<Vec<TopWindow>, CallError> {
        let scene = lock(&self.scene);
        if scene.closed {
            return Ok(Vec::new());
        }
        let root = scene.elements.root();
        Ok(vec![TopWindow {
            hwnd: HWND,
            title: root.map(|r| r.name.clone()).unwrap_or_default(),
            class_name: root.map(|r| r.class_name.clone()).unwrap_or_default(),
            process_id: scene.process_id,
            process_name: scene.process_name.clone(),
            active: scene.frame.active,
            visible: true,
            dialog: root.is_some_and(|r| r.dialog),
        }])
    }

    fn read(&mut self, hwnd: i64, _: Instant) -> Result<Read, CallError> {
        let mut scene = lock(&self.scene);
        if hwnd != HWND || scene.closed {
            return Err(CallError::Gone);
        }
        scene.reads += 1;
        // What a cache request of the window returns: the elements reachable from its root.
        let mut read = Elements::default();
        let mut stack = vec![(0usize, None)];
        while let Some((i, parent)) = stack.pop() {
            let Some(e) = scene.elements.nodes.get(i) else { continue };
            let id = read.push(parent, e.clone());
            for &c in scene.elements.children[i].iter().rev() {
                stack.push((c, Some(id)));
            }
        }
        Ok(Read { elements: read, partial: None })
    }

    fn probe(&mut self, _: i64, element: &[i64]) -> Result<Element, CallError> {
        let scene = lock(&self.scene);
        scene.at(element).map(|i| scene.elements.nodes[i].clone()).ok_or(CallError::Gone)
    }

    fn call(&mut self, _: i64, element: &[i64], call: &Call) -> Result<(), CallError> {
        let mut scene = lock(&self.scene);
        let i = scene.at(element).ok_or(CallError::Gone)?;
        scene.calls.push((element.to_vec(), call.clone()));
        if !scene.elements.nodes[i].enabled {
            return Err(CallError::Disabled);
        }
        if scene.deaf.iter().any(|d| d == element) {
            return Ok(());
        }
        let kind = apply(&mut scene, i, call)?;
        if let Some(kind) = kind {
            scene.raise(kind);
        }
        Ok(())
    }

    fn keys(&mut self, _: i64, keys: &[axsnap_core::keys::Chord]) -> Result<(), CallError> {
        let mut scene = lock(&self.scene);
        scene.calls.push((Vec::new(), Call::Keys(keys.to_vec())));
        Ok(())
    }

    fn frame(&mut self, hwnd: i64) -> Result<Frame, CallError> {
        let scene = lock(&self.scene);
        if hwnd != HWND || scene.closed {
            return Err(CallError::Gone);
        }
        Ok(scene.frame)
    }

    fn size_limits(&mut self, _: i64) -> SizeLimits {
        SizeLimits::default()
    }

    fn request(&mut self, hwnd: i64, op: WindowOp) -> Result<(), CallError> {
        let mut scene = lock(&self.scene);
        if hwnd != HWND || scene.closed {
            return Err(CallError::Gone);
        }
        let f = &mut scene.frame;
        match op {
            WindowOp::Focus => f.active = true,
            WindowOp::Close => scene.closed = true,
            WindowOp::Move { x, y } => (f.x, f.y) = (x, y),
            WindowOp::Resize { width, height } => (f.width, f.height) = (width, height),
            WindowOp::Minimize => f.minimized = true,
            WindowOp::Maximize => (f.maximized, f.minimized) = (true, false),
            WindowOp::Restore => (f.maximized, f.minimized) = (false, false),
        }
        scene.raise(EventKind::Property);
        Ok(())
    }

    fn hears_events(&self) -> bool {
        true
    }

    fn heard(&mut self) -> Vec<Heard> {
        std::mem::take(&mut lock(&self.scene).events)
    }
}

/// What `call` does to element `i`, and the event it raises.
fn apply(scene: &mut Scene, i: usize, call: &Call) -> Result<Option<EventKind>, CallError> {
    let p = &mut scene.elements.nodes[i].patterns;
    let kind = match call {
        Call::Toggle => {
            let now = p.toggle.ok_or(CallError::Unsupported("TogglePattern"))?;
            p.toggle = Some(match now {
                ToggleState::Off => ToggleState::On,
                ToggleState::On => ToggleState::Indeterminate,
                ToggleState::Indeterminate => ToggleState::Off,
            });
            EventKind::Property
        }
        Call::SetValue(text) => {
            let v = p.value.as_mut().ok_or(CallError::Unsupported("ValuePattern"))?;
            v.value = text.clone();
            EventKind::Property
        }
        Call::Expand | Call::Collapse => {
            p.expand_collapse.ok_or(CallError::Unsupported("ExpandCollapsePattern"))?;
            p.expand_collapse =
                Some(if *call == Call::Expand { ExpandState::Expanded } else { ExpandState::Collapsed });
            EventKind::Property
        }
        Call::Select | Call::AddToSelection => {
            p.selection_item.ok_or(CallError::Unsupported("SelectionItemPattern"))?;
            if *call == Call::Select {
                // Select clears the rest of its list.
                if let Some(list) = scene.parent_of(i) {
                    for c in scene.elements.children[list].clone() {
                        if let Some(s) = scene.elements.nodes[c].patterns.selection_item.as_mut() {
                            *s = false;
                        }
                    }
                }
            }
            scene.elements.nodes[i].patterns.selection_item = Some(true);
            EventKind::Property
        }
        Call::Focus => {
            for e in &mut scene.elements.nodes {
                e.focused = false;
            }
            scene.elements.nodes[i].focused = true;
            EventKind::Focus
        }
        Call::TypeText(text) => {
            if let Some(v) = p.value.as_mut() {
                v.value.push_str(text);
            }
            EventKind::Property
        }
        Call::Invoke if !p.invoke => return Err(CallError::Unsupported("InvokePattern")),
        // What the rest do is the app's (a button's command, a click's): a script says it.
        _ => return Ok(None),
    };
    Ok(Some(kind))
}
