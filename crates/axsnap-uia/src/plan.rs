//! Which UI Automation calls an action becomes ([`plan`]), decided from the element as the
//! last read saw it, and what reading it back must show ([`Check`]).
//!
//! A pattern first, input last: a click is Invoke, else Toggle, else SelectionItem.Select,
//! else Expand/Collapse, else LegacyIAccessible's default action, and only then a real click
//! where the element is; text goes through a writable Value, else as keys once the element
//! has the focus. The refusals are the other backends' (disabled, not shown, not a text
//! field, no such option), decided here before anything is sent, so a refused action changes
//! nothing.

use axsnap_core::backend::{ElementAction, MouseButton, Refusal};
use axsnap_core::keys::{self, Chord};
use axsnap_core::Role;
use axsnap_desktop::DesktopError;

use crate::automation::Call;
use crate::element::{Element, Elements, ExpandState, ToggleState};
use crate::mapping;

/// One call on one element (by runtime id).
#[derive(Clone, Debug, PartialEq)]
pub struct Step {
    /// The element's runtime id.
    pub target: Vec<i64>,
    /// The call.
    pub call: Call,
}

/// What an element must show once the calls ran, read back with a probe.
#[derive(Clone, Debug, PartialEq)]
pub enum Check {
    /// Its value (a fill through ValuePattern).
    Value(String),
    /// Its toggle state (check and uncheck).
    Toggle(ToggleState),
    /// That it is selected (a radio checked, an option chosen).
    Selected,
}

/// The calls an action becomes, and the check after them.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Plan {
    /// The calls, in order.
    pub steps: Vec<Step>,
    /// What the element (the check's target, by runtime id) must then show.
    pub check: Option<(Vec<i64>, Check)>,
}

impl Plan {
    fn on(target: &[i64], calls: impl IntoIterator<Item = Call>) -> Plan {
        Plan {
            steps: calls.into_iter().map(|call| Step { target: target.to_vec(), call }).collect(),
            check: None,
        }
    }

    fn checking(mut self, target: &[i64], check: Check) -> Plan {
        self.check = Some((target.to_vec(), check));
        self
    }
}

/// The element in words for a message: `button "OK"`, or its control type alone.
pub fn describe(e: &Element) -> String {
    let role = mapping::role(e);
    let kind = if e.localized_control_type.trim().is_empty() {
        role.as_str().to_string()
    } else {
        e.localized_control_type.trim().to_string()
    };
    if e.name.trim().is_empty() {
        kind
    } else {
        format!("{kind} {:?}", e.name.trim())
    }
}

/// The calls that carry out `action` on element `at` of `elements` (a window as last read).
pub fn plan(elements: &Elements, at: usize, action: &ElementAction) -> Result<Plan, DesktopError> {
    let Some(e) = elements.nodes.get(at) else {
        return Err(DesktopError::Gone("it is not in the window's last read".into()));
    };
    let id = e.runtime_id.as_slice();
    if id.is_empty() {
        return Err(DesktopError::refused(
            Refusal::NotActionable,
            format!("{} has no runtime id, so UI Automation cannot find it again to act on it", describe(e)),
        ));
    }
    let passive = matches!(action, ElementAction::Hover | ElementAction::Scroll { .. });
    if !e.enabled && !passive {
        return Err(DesktopError::refused(
            Refusal::Disabled,
            format!("{} is disabled; enable it first or pick another element", describe(e)),
        ));
    }
    match action {
        ElementAction::Click { count } => click(e, MouseButton::Left, *count),
        ElementAction::ClickButton { button, count } => click(e, *button, *count),
        ElementAction::Hover => {
            let (x, y) = center(e)?;
            Ok(Plan::on(id, [Call::HoverAt { x, y }]))
        }
        ElementAction::Type { text, clear, submit } => type_text(e, text, *clear, *submit),
        ElementAction::TypeKeys { text, submit } => {
            let mut calls = vec![Call::Focus];
            if !text.is_empty() {
                calls.push(Call::TypeText(text.clone()));
            }
            if *submit {
                calls.push(Call::Keys(chords("Enter")?));
            }
            Ok(Plan::on(id, calls))
        }
        ElementAction::Select { values } => select(elements, at, values),
        ElementAction::Check { on } => check(e, *on),
        ElementAction::Scroll { dx, dy } => scroll(e, *dx, *dy),
        ElementAction::Focus => Ok(Plan::on(id, [Call::Focus])),
        ElementAction::Press { keys: k } => Ok(Plan::on(id, [Call::Focus, Call::Keys(chords(k)?)])),
        ElementAction::DragTo { .. } => Err(DesktopError::refused(
            Refusal::NotActionable,
            format!(
                "dragging {} is not offered on the desktop yet; use the app's keys or menus",
                describe(e)
            ),
        )),
        ElementAction::SetFiles { .. } => Err(DesktopError::refused(
            Refusal::NotActionable,
            format!(
                "{} takes no files directly: a desktop app opens files through its own dialog; use its Open \
                 button and type the path there",
                describe(e)
            ),
        )),
    }
}

fn chords(spec: &str) -> Result<Vec<Chord>, DesktopError> {
    Ok(keys::parse(spec)?)
}

/// Where a real click lands: the middle of the element on screen.
fn center(e: &Element) -> Result<(i32, i32), DesktopError> {
    if e.offscreen {
        return Err(DesktopError::refused(
            Refusal::Hidden,
            format!(
                "{} is off screen: scroll it into view first (scroll its list), then try again",
                describe(e)
            ),
        ));
    }
    match e.bounds {
        Some(b) if b.w >= 1.0 && b.h >= 1.0 && b.x.is_finite() && b.y.is_finite() => {
            Ok(((b.x + b.w / 2.0).round() as i32, (b.y + b.h / 2.0).round() as i32))
        }
        _ => Err(DesktopError::refused(
            Refusal::Hidden,
            format!("{} has no area on screen; take a new snapshot", describe(e)),
        )),
    }
}

fn click(e: &Element, button: MouseButton, count: u8) -> Result<Plan, DesktopError> {
    let id = e.runtime_id.as_slice();
    let p = &e.patterns;
    // Only a plain single click is a pattern's: a right click opens a context menu and a
    // double click opens an item, which only the pointer does.
    if button == MouseButton::Left && count <= 1 {
        let role = mapping::role(e);
        if p.invoke {
            return Ok(Plan::on(id, [Call::Invoke]));
        }
        if p.toggle.is_some() {
            return Ok(Plan::on(id, [Call::Toggle]));
        }
        if p.selection_item.is_some() {
            return Ok(Plan::on(id, [Call::Select]));
        }
        match p.expand_collapse {
            Some(ExpandState::Collapsed | ExpandState::PartiallyExpanded) => {
                return Ok(Plan::on(id, [Call::Expand]))
            }
            Some(ExpandState::Expanded) => return Ok(Plan::on(id, [Call::Collapse])),
            _ => {}
        }
        if p.legacy.as_ref().is_some_and(|l| !l.default_action.trim().is_empty()) {
            return Ok(Plan::on(id, [Call::DefaultAction]));
        }
        // A text field clicked is a text field focused (its caret where it was).
        if mapping::is_text_input(&role) && center(e).is_err() {
            return Ok(Plan::on(id, [Call::Focus]));
        }
    }
    let (x, y) = center(e)?;
    Ok(Plan::on(id, [Call::ClickAt { x, y, button, count: count.max(1) }]))
}

fn type_text(e: &Element, text: &str, clear: bool, submit: bool) -> Result<Plan, DesktopError> {
    let id = e.runtime_id.as_slice();
    let role = mapping::role(e);
    let enter = || chords("Enter");
    if let Some(v) = e.patterns.value.as_ref().filter(|_| mapping::value_is_a_field(&role)) {
        if v.read_only {
            return Err(DesktopError::refused(
                Refusal::ReadOnly,
                format!("{} is read-only; it cannot be typed into", describe(e)),
            ));
        }
        if !mapping::is_secret(e) {
            let want = if clear { text.to_string() } else { format!("{}{text}", v.value) };
            let mut plan = Plan::on(id, [Call::Focus, Call::SetValue(want.clone())]);
            if submit {
                plan.steps.push(Step { target: id.to_vec(), call: Call::Keys(enter()?) });
            }
            return Ok(plan.checking(id, Check::Value(want)));
        }
        // A password field's value cannot be read back (it reads as dots or nothing), and
        // some refuse SetValue: keys, as a user types them.
    } else if !(mapping::is_text_input(&role) || mapping::is_key_editor(e, &role)) {
        return Err(DesktopError::refused(
            Refusal::NotATextField,
            format!(
                "{} does not take text: it is not a text field; click it, or type into a text field",
                describe(e)
            ),
        ));
    }
    let mut calls = vec![Call::Focus];
    if clear {
        calls.push(Call::Keys(chords("Control+a Delete")?));
    }
    if !text.is_empty() {
        calls.push(Call::TypeText(text.to_string()));
    }
    if submit {
        calls.push(Call::Keys(enter()?));
    }
    Ok(Plan::on(id, calls))
}

fn check(e: &Element, on: bool) -> Result<Plan, DesktopError> {
    let id = e.runtime_id.as_slice();
    let p = &e.patterns;
    if let Some(state) = p.toggle {
        let want = if on { ToggleState::On } else { ToggleState::Off };
        if state == want {
            return Ok(Plan::default());
        }
        // A three-state box goes Off → On → Indeterminate → Off: one Toggle may not be enough,
        // and one too many passes the state by; the check after says which.
        let toggles = match (state, want) {
            (ToggleState::Indeterminate, ToggleState::On) => 2,
            _ => 1,
        };
        return Ok(Plan::on(id, std::iter::repeat_n(Call::Toggle, toggles)).checking(id, Check::Toggle(want)));
    }
    if let Some(selected) = p.selection_item {
        if on {
            return Ok(if selected {
                Plan::default()
            } else {
                Plan::on(id, [Call::Select]).checking(id, Check::Selected)
            });
        }
        if mapping::is_radio(&mapping::role(e)) {
            return Err(DesktopError::refused(
                Refusal::NotActionable,
                format!(
                    "{} cannot be unchecked: a radio button is cleared by checking another of its group",
                    describe(e)
                ),
            ));
        }
    }
    Err(DesktopError::refused(
        Refusal::NotActionable,
        format!("{} cannot be checked: it is not a check box, switch or radio button", describe(e)),
    ))
}

fn select(elements: &Elements, at: usize, values: &[String]) -> Result<Plan, DesktopError> {
    let Some(e) = elements.nodes.get(at) else { return Ok(Plan::default()) };
    let options = options_of(elements, at);
    let mut plan = Plan::default();
    let mut first = true;
    for value in values {
        let found = options
            .iter()
            .find(|&&o| elements.nodes[o].name.trim() == value.trim())
            .or_else(|| {
                let lower = value.trim().to_lowercase();
                options.iter().find(|&&o| elements.nodes[o].name.trim().to_lowercase() == lower)
            })
            .copied();
        match found {
            Some(o) => {
                let option = &elements.nodes[o];
                if option.runtime_id.is_empty() {
                    return Err(DesktopError::refused(
                        Refusal::NotActionable,
                        format!("the option {value:?} of {} has no runtime id to act on", describe(e)),
                    ));
                }
                let call = if option.patterns.selection_item.is_some() {
                    if first {
                        Call::Select
                    } else {
                        Call::AddToSelection
                    }
                } else if option.patterns.invoke {
                    Call::Invoke
                } else {
                    return Err(DesktopError::refused(
                        Refusal::NotActionable,
                        format!("the option {value:?} of {} cannot be selected", describe(e)),
                    ));
                };
                plan.steps.push(Step { target: option.runtime_id.clone(), call });
                plan.check = Some((option.runtime_id.clone(), Check::Selected))
                    .filter(|_| option.patterns.selection_item.is_some());
            }
            // A combo box whose list is not open shows no options: its Value takes the text.
            None if options.is_empty() && e.patterns.value.as_ref().is_some_and(|v| !v.read_only) => {
                plan.steps.push(Step { target: e.runtime_id.clone(), call: Call::SetValue(value.clone()) });
                plan.check = Some((e.runtime_id.clone(), Check::Value(value.clone())));
            }
            None if options.is_empty() && e.patterns.expand_collapse.is_some() => {
                return Err(DesktopError::refused(
                    Refusal::NoSuchOption,
                    format!(
                        "{} shows no options while closed: click it to open its list, then select again",
                        describe(e)
                    ),
                ));
            }
            None => {
                let known: Vec<String> =
                    options.iter().map(|&o| format!("{:?}", elements.nodes[o].name.trim())).collect();
                return Err(DesktopError::refused(
                    Refusal::NoSuchOption,
                    format!("{} has no option {value:?} (options: {})", describe(e), known.join(", ")),
                ));
            }
        }
        first = false;
    }
    Ok(plan)
}

/// The options under element `at`: the elements below it that can be selected, or invoked
/// list items and menu items, not looking into an option's own children.
fn options_of(elements: &Elements, at: usize) -> Vec<usize> {
    let mut out = Vec::new();
    let mut stack: Vec<usize> =
        elements.children.get(at).map(|c| c.iter().rev().copied().collect()).unwrap_or_default();
    while let Some(i) = stack.pop() {
        let Some(n) = elements.nodes.get(i) else { continue };
        let role = mapping::role(n);
        let item = n.patterns.selection_item.is_some()
            || matches!(role, Role::ListItem | Role::MenuItem | Role::Option | Role::TreeItem)
                && n.patterns.invoke;
        if item {
            out.push(i);
        } else if let Some(c) = elements.children.get(i) {
            stack.extend(c.iter().rev().copied());
        }
    }
    out
}

fn scroll(e: &Element, dx: f64, dy: f64) -> Result<Plan, DesktopError> {
    let id = e.runtime_id.as_slice();
    // A scrollable pane scrolls by its own steps (a line is about 40 pixels); anything else
    // gets the wheel where it is, as the pointer would.
    if let Some(s) = e.patterns.scroll.filter(|s| s.horizontal || s.vertical) {
        let (horizontal, vertical) = (steps(dx, s.horizontal), steps(dy, s.vertical));
        if horizontal != 0 || vertical != 0 {
            return Ok(Plan::on(id, [Call::ScrollSteps { horizontal, vertical }]));
        }
    }
    let (x, y) = center(e)?;
    Ok(Plan::on(id, [Call::WheelAt { x, y, dx, dy }]))
}

/// Scroll steps for `pixels` (about 40 a step, at least one for any move, at most 200) on an
/// axis that scrolls.
fn steps(pixels: f64, scrolls: bool) -> i32 {
    if !scrolls || !pixels.is_finite() || pixels.abs() < 1.0 {
        return 0;
    }
    let n = (pixels.abs() / 40.0).round().clamp(1.0, 200.0) as i32;
    if pixels < 0.0 {
        -n
    } else {
        n
    }
}

#[cfg(test)]
mod tests;
