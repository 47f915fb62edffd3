//! The change-event handlers, registered once on the desktop root: each reduces what it hears
//! to a [`Heard`] (which process, when, what kind) in a bounded queue the platform drains.
//!
//! UI Automation calls them on threads of its own, so they share the queue behind a mutex,
//! never block on anything else, and never panic (a poisoned lock drops the event).

use std::collections::VecDeque;
use std::sync::{Arc, Mutex};
use std::time::Instant;

use windows::Win32::System::Com::SAFEARRAY;
use windows::Win32::System::Variant::VARIANT;
use windows::Win32::UI::Accessibility::*;
use windows_core::{implement, Ref, Result};

use crate::automation::{EventKind, Heard};

/// Most events kept between two drains; past it the oldest go (the platform only needs to
/// know which windows changed, and lately).
const MAX_HEARD: usize = 10_000;

/// The queue the handlers fill.
pub(crate) type Sink = Arc<Mutex<VecDeque<Heard>>>;

/// The properties whose changes matter: those the capture reads that change while an app
/// runs.
const WATCHED: &[UIA_PROPERTY_ID] = &[
    UIA_NamePropertyId,
    UIA_IsEnabledPropertyId,
    UIA_IsOffscreenPropertyId,
    UIA_HasKeyboardFocusPropertyId,
    UIA_ToggleToggleStatePropertyId,
    UIA_ExpandCollapseExpandCollapseStatePropertyId,
    UIA_ValueValuePropertyId,
    UIA_RangeValueValuePropertyId,
    UIA_SelectionItemIsSelectedPropertyId,
];

/// Registers the four handlers on `root` (the desktop) for its whole subtree.
pub(crate) fn register(automation: &IUIAutomation, root: &IUIAutomationElement, sink: &Sink) -> Result<()> {
    // Each event's sender comes with its process id cached, so a handler reads it without a
    // call back into the app.
    // SAFETY: plain COM calls on live interfaces with values.
    let cache = unsafe {
        let cache = automation.CreateCacheRequest()?;
        cache.AddProperty(UIA_ProcessIdPropertyId)?;
        cache.SetTreeScope(TreeScope_Element)?;
        cache
    };
    let structure: IUIAutomationStructureChangedEventHandler =
        Handler::new(sink, EventKind::Structure).into();
    let property: IUIAutomationPropertyChangedEventHandler = Handler::new(sink, EventKind::Property).into();
    let focus: IUIAutomationFocusChangedEventHandler = Handler::new(sink, EventKind::Focus).into();
    let opened: IUIAutomationEventHandler = Handler::new(sink, EventKind::WindowOpened).into();
    // SAFETY: registrations with live interfaces; UI Automation holds its own references to
    // the handlers until they are removed (in `ComAutomation`'s drop).
    unsafe {
        automation.AddStructureChangedEventHandler(root, TreeScope_Subtree, &cache, &structure)?;
        automation.AddPropertyChangedEventHandlerNativeArray(
            root,
            TreeScope_Subtree,
            &cache,
            &property,
            WATCHED,
        )?;
        automation.AddFocusChangedEventHandler(&cache, &focus)?;
        automation.AddAutomationEventHandler(
            UIA_Window_WindowOpenedEventId,
            root,
            TreeScope_Subtree,
            &cache,
            &opened,
        )?;
    }
    Ok(())
}

/// One handler: the kind it reports and the queue it reports to. One struct serves all four
/// interfaces; each registration gets its own instance with its kind.
#[implement(
    IUIAutomationStructureChangedEventHandler,
    IUIAutomationPropertyChangedEventHandler,
    IUIAutomationFocusChangedEventHandler,
    IUIAutomationEventHandler
)]
struct Handler {
    sink: Sink,
    kind: EventKind,
}

impl Handler {
    fn new(sink: &Sink, kind: EventKind) -> Handler {
        Handler { sink: Arc::clone(sink), kind }
    }

    /// Queues what `sender` did; nothing here can fail or panic.
    fn heard(&self, sender: Ref<IUIAutomationElement>) {
        let at = Instant::now();
        let process_id = sender.as_ref().map_or(0, process_id);
        if let Ok(mut q) = self.sink.lock() {
            if q.len() >= MAX_HEARD {
                q.pop_front();
            }
            q.push_back(Heard { process_id, at, kind: self.kind });
        }
    }
}

/// The sender's process: cached with the event, else asked (0 when neither answers).
fn process_id(el: &IUIAutomationElement) -> u32 {
    // SAFETY: COM calls on the live sender UIA hands the handler for the call's length.
    let pid = unsafe { el.CachedProcessId().or_else(|_| el.CurrentProcessId()) };
    pid.ok().and_then(|n| u32::try_from(n).ok()).unwrap_or(0)
}

impl IUIAutomationStructureChangedEventHandler_Impl for Handler_Impl {
    fn HandleStructureChangedEvent(
        &self,
        sender: Ref<IUIAutomationElement>,
        _change: StructureChangeType,
        _runtime_id: *const SAFEARRAY,
    ) -> Result<()> {
        self.heard(sender);
        Ok(())
    }
}

impl IUIAutomationPropertyChangedEventHandler_Impl for Handler_Impl {
    fn HandlePropertyChangedEvent(
        &self,
        sender: Ref<IUIAutomationElement>,
        _property: UIA_PROPERTY_ID,
        _value: &VARIANT,
    ) -> Result<()> {
        self.heard(sender);
        Ok(())
    }
}

impl IUIAutomationFocusChangedEventHandler_Impl for Handler_Impl {
    fn HandleFocusChangedEvent(&self, sender: Ref<IUIAutomationElement>) -> Result<()> {
        self.heard(sender);
        Ok(())
    }
}

impl IUIAutomationEventHandler_Impl for Handler_Impl {
    fn HandleAutomationEvent(&self, sender: Ref<IUIAutomationElement>, _event: UIA_EVENT_ID) -> Result<()> {
        self.heard(sender);
        Ok(())
    }
}
