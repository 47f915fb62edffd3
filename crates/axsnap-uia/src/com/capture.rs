//! The cache request a window is read with, and one cached element read into [`Element`]
//! the way [`crate::reader`] reads a recorded one, so that a capture and a recording of
//! the same window give the same elements.

use std::collections::HashMap;
use std::time::Instant;

use axsnap_core::Rect;
use windows::Win32::System::Variant::VARIANT;
use windows::Win32::UI::Accessibility::*;

use super::variant;
use crate::automation::Read;
use crate::element::{
    CellState, Element, ExpandState, GridState, LegacyState, Patterns, RangeState, ScrollState,
    SelectionState, ToggleState, ValueState, WindowState,
};

/// Every property the capture reads: the element's own, the patterns' availability and the
/// patterns' state.
const PROPERTIES: &[UIA_PROPERTY_ID] = &[
    UIA_RuntimeIdPropertyId,
    UIA_BoundingRectanglePropertyId,
    UIA_ProcessIdPropertyId,
    UIA_ControlTypePropertyId,
    UIA_LocalizedControlTypePropertyId,
    UIA_NamePropertyId,
    UIA_HasKeyboardFocusPropertyId,
    UIA_IsKeyboardFocusablePropertyId,
    UIA_IsEnabledPropertyId,
    UIA_AutomationIdPropertyId,
    UIA_ClassNamePropertyId,
    UIA_HelpTextPropertyId,
    UIA_IsControlElementPropertyId,
    UIA_IsPasswordPropertyId,
    UIA_IsOffscreenPropertyId,
    UIA_FrameworkIdPropertyId,
    UIA_IsRequiredForFormPropertyId,
    UIA_ItemStatusPropertyId,
    UIA_HeadingLevelPropertyId,
    UIA_IsDialogPropertyId,
    UIA_IsInvokePatternAvailablePropertyId,
    UIA_IsTogglePatternAvailablePropertyId,
    UIA_ToggleToggleStatePropertyId,
    UIA_IsExpandCollapsePatternAvailablePropertyId,
    UIA_ExpandCollapseExpandCollapseStatePropertyId,
    UIA_IsValuePatternAvailablePropertyId,
    UIA_ValueValuePropertyId,
    UIA_ValueIsReadOnlyPropertyId,
    UIA_IsRangeValuePatternAvailablePropertyId,
    UIA_RangeValueValuePropertyId,
    UIA_RangeValueMinimumPropertyId,
    UIA_RangeValueMaximumPropertyId,
    UIA_RangeValueIsReadOnlyPropertyId,
    UIA_IsSelectionPatternAvailablePropertyId,
    UIA_SelectionCanSelectMultiplePropertyId,
    UIA_SelectionIsSelectionRequiredPropertyId,
    UIA_IsSelectionItemPatternAvailablePropertyId,
    UIA_SelectionItemIsSelectedPropertyId,
    UIA_IsGridPatternAvailablePropertyId,
    UIA_GridRowCountPropertyId,
    UIA_GridColumnCountPropertyId,
    UIA_IsGridItemPatternAvailablePropertyId,
    UIA_IsTableItemPatternAvailablePropertyId,
    UIA_GridItemRowPropertyId,
    UIA_GridItemColumnPropertyId,
    UIA_IsTablePatternAvailablePropertyId,
    UIA_IsWindowPatternAvailablePropertyId,
    UIA_WindowIsModalPropertyId,
    UIA_WindowIsTopmostPropertyId,
    UIA_WindowCanMaximizePropertyId,
    UIA_WindowCanMinimizePropertyId,
    UIA_IsScrollPatternAvailablePropertyId,
    UIA_ScrollHorizontallyScrollablePropertyId,
    UIA_ScrollVerticallyScrollablePropertyId,
    UIA_IsScrollItemPatternAvailablePropertyId,
    UIA_IsTextPatternAvailablePropertyId,
    UIA_IsLegacyIAccessiblePatternAvailablePropertyId,
    UIA_LegacyIAccessibleDefaultActionPropertyId,
    UIA_LegacyIAccessibleValuePropertyId,
    UIA_LegacyIAccessibleStatePropertyId,
];

/// A cache request for [`PROPERTIES`] over the raw view, with live elements (full mode) so
/// that pattern calls can be made on what was read.
pub(crate) fn cache_request(
    automation: &IUIAutomation,
    scope: TreeScope,
) -> windows::core::Result<IUIAutomationCacheRequest> {
    // SAFETY: plain COM calls on live interfaces; their arguments are values.
    unsafe {
        let request = automation.CreateCacheRequest()?;
        for &p in PROPERTIES {
            // A property this Windows does not know (HeadingLevel and IsDialog came with
            // 1809) is refused; it then reads as its default rather than failing the read.
            let _ = request.AddProperty(p);
        }
        request.SetTreeScope(scope)?;
        request.SetTreeFilter(&automation.RawViewCondition()?)?;
        request.SetAutomationElementMode(AutomationElementMode_Full)?;
        Ok(request)
    }
}

/// Walks a cached subtree from `root` into [`Elements`] in document order (parent before its
/// children), with an explicit stack, and keeps each element with a runtime id in `live`.
/// Past `deadline` it stops and says so.
pub(crate) fn walk(
    root: IUIAutomationElement,
    deadline: Instant,
    live: &mut HashMap<Vec<i64>, IUIAutomationElement>,
) -> Read {
    let mut read = Read::default();
    let mut stack: Vec<(IUIAutomationElement, Option<usize>)> = vec![(root, None)];
    while let Some((el, parent)) = stack.pop() {
        // The root is always read (it is cached already); past the deadline, nothing more.
        if !read.elements.is_empty() && Instant::now() >= deadline {
            read.partial = Some(format!(
                "the read reached its deadline after {} elements; {} more branches were not read",
                read.elements.len(),
                stack.len() + 1
            ));
            break;
        }
        let element = element(&el);
        let rid = element.runtime_id.clone();
        let id = read.elements.push(parent, element);
        // Reversed onto the stack so that elements are numbered in document order.
        for kid in children(&el).into_iter().rev() {
            stack.push((kid, Some(id)));
        }
        if !rid.is_empty() {
            live.insert(rid, el);
        }
    }
    read
}

/// An element's cached children (none when it has none: UIA gives a null array then).
pub(crate) fn children(el: &IUIAutomationElement) -> Vec<IUIAutomationElement> {
    // SAFETY: plain COM calls on a live element and the array it returns.
    unsafe {
        let Ok(array) = el.GetCachedChildren() else { return Vec::new() };
        let n = array.Length().unwrap_or(0).max(0);
        (0..n).filter_map(|i| array.GetElement(i).ok()).collect()
    }
}

/// One element's cached properties (fetched by a cache request with [`PROPERTIES`]).
struct Cached<'a>(&'a IUIAutomationElement);

impl Cached<'_> {
    fn get(&self, id: UIA_PROPERTY_ID) -> Option<VARIANT> {
        // SAFETY: a COM call on a live element; the VARIANT returned is ours and freed on drop.
        unsafe { self.0.GetCachedPropertyValue(id) }.ok()
    }
    fn str(&self, id: UIA_PROPERTY_ID) -> String {
        self.get(id).as_ref().and_then(variant::string).unwrap_or_default()
    }
    fn bool(&self, id: UIA_PROPERTY_ID) -> Option<bool> {
        self.get(id).as_ref().and_then(variant::boolean)
    }
    fn flag(&self, id: UIA_PROPERTY_ID) -> bool {
        self.bool(id).unwrap_or(false)
    }
    fn int(&self, id: UIA_PROPERTY_ID) -> Option<i32> {
        self.get(id).as_ref().and_then(variant::int)
    }
    fn u32(&self, id: UIA_PROPERTY_ID) -> u32 {
        self.int(id).and_then(|n| u32::try_from(n).ok()).unwrap_or(0)
    }
    fn f64(&self, id: UIA_PROPERTY_ID) -> f64 {
        self.get(id).as_ref().and_then(variant::double).filter(|f| f.is_finite()).unwrap_or(0.0)
    }
}

/// One cached element's fields (its children are the caller's).
pub(crate) fn element(el: &IUIAutomationElement) -> Element {
    let p = Cached(el);
    Element {
        control_type: p.int(UIA_ControlTypePropertyId),
        localized_control_type: p.str(UIA_LocalizedControlTypePropertyId),
        name: p.str(UIA_NamePropertyId),
        automation_id: p.str(UIA_AutomationIdPropertyId),
        class_name: p.str(UIA_ClassNamePropertyId),
        framework_id: p.str(UIA_FrameworkIdPropertyId),
        bounds: p.get(UIA_BoundingRectanglePropertyId).as_ref().and_then(variant::doubles).and_then(rect),
        enabled: p.bool(UIA_IsEnabledPropertyId).unwrap_or(true),
        offscreen: p.flag(UIA_IsOffscreenPropertyId),
        focused: p.flag(UIA_HasKeyboardFocusPropertyId),
        focusable: p.flag(UIA_IsKeyboardFocusablePropertyId),
        password: p.flag(UIA_IsPasswordPropertyId),
        control_element: p.bool(UIA_IsControlElementPropertyId).unwrap_or(true),
        required: p.flag(UIA_IsRequiredForFormPropertyId),
        help_text: p.str(UIA_HelpTextPropertyId),
        item_status: p.str(UIA_ItemStatusPropertyId),
        heading_level: p.int(UIA_HeadingLevelPropertyId).and_then(heading_level),
        dialog: p.flag(UIA_IsDialogPropertyId),
        runtime_id: p.get(UIA_RuntimeIdPropertyId).as_ref().and_then(variant::ints).unwrap_or_default(),
        process_id: p.int(UIA_ProcessIdPropertyId).and_then(|n| u32::try_from(n).ok()),
        patterns: patterns(&p),
    }
}

/// `HeadingLevel1`..`9` are 80051..80059; `HeadingLevel_None` (80050) is none.
fn heading_level(n: i32) -> Option<u32> {
    (80051..=80059).contains(&n).then(|| (n - 80050) as u32)
}

/// `[left, top, width, height]`; an empty rectangle (an element with no place on screen) is
/// none, as the reader has it.
fn rect(a: Vec<f64>) -> Option<Rect> {
    let [x, y, w, h] = <[f64; 4]>::try_from(a).ok()?;
    let r = Rect { x, y, w, h };
    (r.w > 0.0 && r.h > 0.0 && [r.x, r.y, r.w, r.h].iter().all(|f| f.is_finite())).then_some(r)
}

/// The patterns an element has (by their availability properties) with their state.
fn patterns(p: &Cached) -> Patterns {
    let has = |id| p.flag(id);
    let mut out = Patterns { invoke: has(UIA_IsInvokePatternAvailablePropertyId), ..Patterns::default() };
    if has(UIA_IsTogglePatternAvailablePropertyId) {
        // A toggle whose state is unknown is still a toggle: off, as the reader says.
        let state = p.int(UIA_ToggleToggleStatePropertyId).map(i64::from).and_then(ToggleState::from_uia);
        out.toggle = Some(state.unwrap_or(ToggleState::Off));
    }
    if has(UIA_IsExpandCollapsePatternAvailablePropertyId) {
        let state = p
            .int(UIA_ExpandCollapseExpandCollapseStatePropertyId)
            .map(i64::from)
            .and_then(ExpandState::from_uia);
        out.expand_collapse = Some(state.unwrap_or(ExpandState::Collapsed));
    }
    if has(UIA_IsValuePatternAvailablePropertyId) {
        out.value = Some(ValueState {
            value: p.str(UIA_ValueValuePropertyId),
            read_only: p.flag(UIA_ValueIsReadOnlyPropertyId),
        });
    }
    if has(UIA_IsRangeValuePatternAvailablePropertyId) {
        out.range_value = Some(RangeState {
            value: p.f64(UIA_RangeValueValuePropertyId),
            minimum: p.f64(UIA_RangeValueMinimumPropertyId),
            maximum: p.f64(UIA_RangeValueMaximumPropertyId),
            read_only: p.flag(UIA_RangeValueIsReadOnlyPropertyId),
        });
    }
    if has(UIA_IsSelectionPatternAvailablePropertyId) {
        out.selection = Some(SelectionState {
            multiple: p.flag(UIA_SelectionCanSelectMultiplePropertyId),
            required: p.flag(UIA_SelectionIsSelectionRequiredPropertyId),
        });
    }
    if has(UIA_IsSelectionItemPatternAvailablePropertyId) {
        out.selection_item = Some(p.flag(UIA_SelectionItemIsSelectedPropertyId));
    }
    if has(UIA_IsGridPatternAvailablePropertyId) {
        out.grid = Some(GridState {
            rows: p.u32(UIA_GridRowCountPropertyId),
            columns: p.u32(UIA_GridColumnCountPropertyId),
        });
    }
    // TableItem's cell is GridItem's (a table item is a grid item); either gives it.
    if has(UIA_IsGridItemPatternAvailablePropertyId) || has(UIA_IsTableItemPatternAvailablePropertyId) {
        out.grid_item = Some(CellState {
            row: p.u32(UIA_GridItemRowPropertyId),
            column: p.u32(UIA_GridItemColumnPropertyId),
        });
    }
    out.table = has(UIA_IsTablePatternAvailablePropertyId);
    if has(UIA_IsWindowPatternAvailablePropertyId) {
        out.window = Some(WindowState {
            modal: p.flag(UIA_WindowIsModalPropertyId),
            topmost: p.flag(UIA_WindowIsTopmostPropertyId),
            can_maximize: p.flag(UIA_WindowCanMaximizePropertyId),
            can_minimize: p.flag(UIA_WindowCanMinimizePropertyId),
        });
    }
    if has(UIA_IsScrollPatternAvailablePropertyId) {
        out.scroll = Some(ScrollState {
            horizontal: p.flag(UIA_ScrollHorizontallyScrollablePropertyId),
            vertical: p.flag(UIA_ScrollVerticallyScrollablePropertyId),
        });
    }
    out.scroll_item = has(UIA_IsScrollItemPatternAvailablePropertyId);
    out.text = has(UIA_IsTextPatternAvailablePropertyId);
    if has(UIA_IsLegacyIAccessiblePatternAvailablePropertyId) {
        out.legacy = Some(LegacyState {
            default_action: p.str(UIA_LegacyIAccessibleDefaultActionPropertyId),
            // MSAA's state is a set of bits: the number as unsigned.
            state: p.int(UIA_LegacyIAccessibleStatePropertyId).map_or(0, |n| n as u32),
            value: p.str(UIA_LegacyIAccessibleValuePropertyId),
        });
    }
    out
}
