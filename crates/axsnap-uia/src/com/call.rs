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
    let map = |e: windows::core::Error| error(&e);
    // SAFETY (the pattern calls below): COM calls on live pattern interfaces with values.
    match call {
        Call::Invoke => unsafe {
            pattern::<IUIAutomationInvokePattern>(el, UIA_InvokePatternId, "InvokePattern")?.Invoke()
        }
        .map_err(map),
        Call::Toggle => unsafe {
            pattern::<IUIAutomationTogglePattern>(el, UIA_TogglePatternId, "TogglePattern")?.Toggle()
        }
        .map_err(map),
        Call::Select => unsafe { selection_item(el)?.Select() }.map_err(map),
        Call::AddToSelection => unsafe { selection_item(el)?.AddToSelection() }.map_err(map),
        Call::Expand => unsafe { expand_collapse(el)?.Expand() }.map_err(map),
        Call::Collapse => unsafe { expand_collapse(el)?.Collapse() }.map_err(map),
        Call::DefaultAction => unsafe {
            pattern::<IUIAutomationLegacyIAccessiblePattern>(
                el,
                UIA_LegacyIAccessiblePatternId,
                "LegacyIAccessiblePattern",
            )?
            .DoDefaultAction()
        }
        .map_err(map),
        Call::SetValue(text) => unsafe {
            pattern::<IUIAutomationValuePattern>(el, UIA_ValuePatternId, "ValuePattern")?
                .SetValue(&BSTR::from(text.as_str()))
        }
        .map_err(map),
        Call::SetRange(v) => unsafe {
            pattern::<IUIAutomationRangeValuePattern>(el, UIA_RangeValuePatternId, "RangeValuePattern")?
                .SetValue(*v)
        }
        .map_err(map),
        Call::ScrollIntoView => unsafe {
            pattern::<IUIAutomationScrollItemPattern>(el, UIA_ScrollItemPatternId, "ScrollItemPattern")?
                .ScrollIntoView()
        }
        .map_err(map),
        Call::ScrollSteps { horizontal, vertical } => scroll_steps(el, *horizontal, *vertical),
        // SAFETY: a COM call on a live element.
        Call::Focus => unsafe { el.SetFocus() }.map_err(map),
        Call::ClickAt { x, y, button, count } => {
            uncovered(automation, el, *x, *y)?;
            input::click(*x, *y, *button, *count)
        }
        Call::HoverAt { x, y } => input::move_to(*x, *y),
        Call::WheelAt { x, y, dx, dy } => input::wheel(*x, *y, *dx, *dy),
        Call::TypeText(text) => input::type_text(text),
        Call::Keys(chords) => input::chords(chords),
    }
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
            gone @ (CallError::Gone | CallError::Timeout(_)) => Err(gone),
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
    // SAFETY (this block): COM calls on live interfaces with values; the elements returned
    // are counted references.
    unsafe {
        let hit = automation.ElementFromPoint(POINT { x, y }).map_err(map)?;
        let walker = automation.RawViewWalker().map_err(map)?;
        let mut at = hit.clone();
        for _ in 0..MAX_ANCESTORS {
            if automation.CompareElements(&at, target).map_err(map)?.as_bool() {
                return Ok(());
            }
            match walker.GetParentElement(&at) {
                Ok(parent) => at = parent,
                Err(_) => break,
            }
        }
        let name = hit.CurrentName().map(|s| s.to_string()).unwrap_or_default();
        let kind = hit.CurrentLocalizedControlType().map(|s| s.to_string()).unwrap_or_default();
        let kind = if kind.is_empty() { "element".to_string() } else { kind };
        Err(CallError::Covered(if name.is_empty() { kind } else { format!("{kind} \"{name}\"") }))
    }
}
