//! A [`Call`] carried out on a live element: a control pattern's method, or input sent where
//! the element is once a hit test says nothing else is on top there.

use windows::core::{Interface, BSTR};
use windows::Win32::Foundation::POINT;
use windows::Win32::UI::Accessibility::*;

use super::{error, input};
use crate::automation::{Call, CallError};

/// How far up from the element under a point the hit test looks for the target: deeper
/// nesting than this between a click's target and what is hit is not a real layout.
const MAX_ANCESTORS: usize = 50;

/// Carries out `call` on `el`.
pub(crate) fn call(
    automation: &IUIAutomation,
    el: &IUIAutomationElement,
    call: &Call,
) -> Result<(), CallError> {
    // SAFETY (each `unsafe` below): a COM method of a live pattern or element, called with
    // values; what it returns is checked.
    let done = match call {
        Call::Invoke => {
            let p: IUIAutomationInvokePattern = pattern(el, UIA_InvokePatternId, "InvokePattern")?;
            unsafe { p.Invoke() }
        }
        Call::Toggle => {
            let p: IUIAutomationTogglePattern = pattern(el, UIA_TogglePatternId, "TogglePattern")?;
            unsafe { p.Toggle() }
        }
        Call::Select => {
            let p = selection_item(el)?;
            unsafe { p.Select() }
        }
        Call::AddToSelection => {
            let p = selection_item(el)?;
            unsafe { p.AddToSelection() }
        }
        Call::Expand => {
            let p = expand_collapse(el)?;
            unsafe { p.Expand() }
        }
        Call::Collapse => {
            let p = expand_collapse(el)?;
            unsafe { p.Collapse() }
        }
        Call::DefaultAction => {
            let p: IUIAutomationLegacyIAccessiblePattern =
                pattern(el, UIA_LegacyIAccessiblePatternId, "LegacyIAccessiblePattern")?;
            unsafe { p.DoDefaultAction() }
        }
        Call::SetValue(text) => {
            let p: IUIAutomationValuePattern = pattern(el, UIA_ValuePatternId, "ValuePattern")?;
            let text = BSTR::from(text.as_str());
            unsafe { p.SetValue(&text) }
        }
        Call::SetRange(v) => {
            let p: IUIAutomationRangeValuePattern =
                pattern(el, UIA_RangeValuePatternId, "RangeValuePattern")?;
            unsafe { p.SetValue(*v) }
        }
        Call::ScrollIntoView => {
            let p: IUIAutomationScrollItemPattern =
                pattern(el, UIA_ScrollItemPatternId, "ScrollItemPattern")?;
            unsafe { p.ScrollIntoView() }
        }
        Call::Focus => unsafe { el.SetFocus() },
        Call::ScrollSteps { horizontal, vertical } => return scroll_steps(el, *horizontal, *vertical),
        Call::ClickAt { x, y, button, count } => {
            uncovered(automation, el, *x, *y)?;
            return input::click(*x, *y, *button, *count);
        }
        Call::HoverAt { x, y } => return input::move_to(*x, *y),
        Call::WheelAt { x, y, dx, dy } => return input::wheel(*x, *y, *dx, *dy),
        Call::TypeText(text) => return input::type_text(text),
        Call::Keys(chords) => return input::chords(chords),
    };
    done.map_err(|e| error(&e))
}

/// `el`'s pattern `id` as it is now; `Unsupported(name)` when it has none (any more).
fn pattern<T: Interface>(
    el: &IUIAutomationElement,
    id: UIA_PATTERN_ID,
    name: &'static str,
) -> Result<T, CallError> {
    // SAFETY: a COM call on a live element; the pattern comes back as a counted interface.
    match unsafe { el.GetCurrentPatternAs::<T>(id) } {
        Ok(p) => Ok(p),
        Err(e) => match error(&e) {
            e @ (CallError::Gone | CallError::Disabled | CallError::Timeout(_)) => Err(e),
            // A null pattern (S_OK with nothing) and the other failures: it has none.
            _ => Err(CallError::Unsupported(name)),
        },
    }
}

fn selection_item(el: &IUIAutomationElement) -> Result<IUIAutomationSelectionItemPattern, CallError> {
    pattern(el, UIA_SelectionItemPatternId, "SelectionItemPattern")
}

fn expand_collapse(el: &IUIAutomationElement) -> Result<IUIAutomationExpandCollapsePattern, CallError> {
    pattern(el, UIA_ExpandCollapsePatternId, "ExpandCollapsePattern")
}

/// ScrollPattern.Scroll by small steps, one axis at a time, |n| times each.
fn scroll_steps(el: &IUIAutomationElement, horizontal: i32, vertical: i32) -> Result<(), CallError> {
    let scroll: IUIAutomationScrollPattern = pattern(el, UIA_ScrollPatternId, "ScrollPattern")?;
    let step = |n: i32| if n < 0 { ScrollAmount_SmallDecrement } else { ScrollAmount_SmallIncrement };
    for _ in 0..horizontal.unsigned_abs() {
        // SAFETY: a COM call on a live pattern with values.
        unsafe { scroll.Scroll(step(horizontal), ScrollAmount_NoAmount) }.map_err(|e| error(&e))?;
    }
    for _ in 0..vertical.unsigned_abs() {
        // SAFETY: as above.
        unsafe { scroll.Scroll(ScrollAmount_NoAmount, step(vertical)) }.map_err(|e| error(&e))?;
    }
    Ok(())
}

/// Checks that what is on top at (`x`, `y`) is `target` or inside it; else says what covers
/// it (a dialog, a popup, an overlay), so the click is not sent to something else.
fn uncovered(
    automation: &IUIAutomation,
    target: &IUIAutomationElement,
    x: i32,
    y: i32,
) -> Result<(), CallError> {
    let map = |e: windows::core::Error| error(&e);
    // SAFETY: a hit test with a value; the element is a counted reference.
    let hit = unsafe { automation.ElementFromPoint(POINT { x, y }) }.map_err(map)?;
    // SAFETY: a COM call with no argument.
    let walker = unsafe { automation.RawViewWalker() }.map_err(map)?;
    let mut at = hit.clone();
    for _ in 0..MAX_ANCESTORS {
        // SAFETY: compares two live elements' runtime ids.
        if unsafe { automation.CompareElements(&at, target) }.map_err(map)?.as_bool() {
            return Ok(());
        }
        // SAFETY: a COM call on live interfaces; the desktop's parent is none (an error).
        match unsafe { walker.GetParentElement(&at) } {
            Ok(parent) => at = parent,
            Err(_) => break,
        }
    }
    // SAFETY: property reads on a live element.
    let (name, kind) = unsafe { (hit.CurrentName(), hit.CurrentLocalizedControlType()) };
    let name = name.map(|s| s.to_string()).unwrap_or_default();
    let kind = kind.map(|s| s.to_string()).ok().filter(|k| !k.is_empty()).unwrap_or_else(|| "element".into());
    Err(CallError::Covered(if name.is_empty() { kind } else { format!("{kind} \"{name}\"") }))
}
