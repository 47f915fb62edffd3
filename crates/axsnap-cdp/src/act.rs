//! Actions on elements, by native id, through trusted input events, each followed by a settle.
//!
//! - click / double click / hover: scroll into view, hit-test the centre (a covering element is
//!   refused by name), then `Input.dispatchMouseEvent`;
//! - type: focus, optionally clear (select all, then a real Backspace), `Input.insertText`,
//!   optionally Enter; a field that looks things up as it is typed in (search, combobox,
//!   autocomplete) is given [`LOOKUP_QUIET`] to show what it found;
//! - press: focus, then key events per chord ([`crate::input`]);
//! - select: options of a `<select>` by label or value, then `input` and `change` events;
//! - check: clicks only when the state differs, then verifies the state;
//! - scroll: the element if it scrolls, else its nearest scrolling ancestor, else the page;
//! - focus: `DOM.focus`;
//! - drag: onto another element, as an HTML5 drag (intercepted, carried by drag events) or
//!   by pointer moves;
//! - set files: a file input's files (`DOM.setFileInputFiles`), refused on anything else.
//!
//! The element is resolved fresh for every action ([`crate::locate`]): a removed or replaced
//! element is a [`CdpError::StaleElement`], never a look-alike. The document's own node
//! (`id = "root"`) takes scroll and press.

use axsnap_core::backend::{ElementAction, MouseButton, Outcome, PointerAction, Refusal};
use axsnap_core::NativeId;
use serde_json::{json, Value};

use crate::conn::CALL_TIMEOUT;
use crate::error::CdpError;
use crate::input;
use crate::locate::{self, call_on, clickable_point, not_actionable, Element};
use crate::page::PageHandle;
use crate::settle::{SettleOptions, Watcher};

mod drag;
mod fields;
mod files;

use drag::drag;
use files::set_files;

/// Performs `action` on the element `element` of `page` and waits for the page to settle with
/// the default [`SettleOptions`]. This is what [`axsnap_core::backend::Backend::act`] does.
pub async fn act(page: &PageHandle, element: &NativeId, action: &ElementAction) -> Result<Outcome, CdpError> {
    act_with(page, element, action, &SettleOptions::default()).await
}

/// [`act`] with explicit settle options.
pub async fn act_with(
    page: &PageHandle,
    element: &NativeId,
    action: &ElementAction,
    opts: &SettleOptions,
) -> Result<Outcome, CdpError> {
    if element.id == "root" {
        return act_on_document(page, action, opts).await;
    }
    let el = locate::locate(page, element).await?;
    // An edit is read back once the page settled: what the field held before tells an edit
    // that did not take from one the page reformatted.
    // A submitted field is not read back: a chat box empties itself once its text is sent.
    let edit = match action {
        ElementAction::Type { submit: true, .. } => None,
        ElementAction::Type { text, clear: true, .. } => Some(fields::Edit::Fill(text)),
        ElementAction::Type { text, clear: false, .. } => Some(fields::Edit::Type(text)),
        ElementAction::TypeKeys { submit: true, .. } => None,
        ElementAction::TypeKeys { text, .. } => Some(fields::Edit::Type(text)),
        ElementAction::Select { values } => Some(fields::Edit::Select(values)),
        _ => None,
    };
    let before = match edit {
        Some(_) => fields::value(page, &el).await.ok().flatten(),
        None => None,
    };
    let watcher = Watcher::start(page).await?;
    let Some(done) = watcher.run(perform(page, &el, action)).await? else {
        // A dialog opened mid-action; the page waits for the agent.
        return watcher.settle(opts, false).await;
    };
    // An action may ask for a longer quiet period than the caller's (a search field's debounce).
    let opts = SettleOptions { quiet: opts.quiet.max(done.quiet.unwrap_or_default()), ..*opts };
    let outcome = watcher.settle(&opts, false).await?;
    if outcome.dialog.is_none() && !outcome.navigated {
        if let ElementAction::Check { on } = action {
            verify_checked(page, &el, *on).await?;
        }
        if let Some(mut edit) = edit {
            // A value filled as the field holds it (`red` as `#ff0000`) is what to find, and
            // so are the options a select chose (`3`, an option's value, finds its label `4`).
            if let (fields::Edit::Fill(_), Some(landed)) = (edit, done.landed.as_deref()) {
                edit = fields::Edit::Fill(landed);
            }
            if let (fields::Edit::Select(_), Some(picked)) = (edit, done.picked.as_deref()) {
                edit = fields::Edit::Select(picked);
            }
            // The element may be gone after the edit (the page re-rendered it): then we
            // cannot know, and say nothing.
            let after = fields::value(page, &el).await.ok().flatten();
            fields::check(&el, edit, before.as_ref(), after.as_ref())?;
        }
    }
    Ok(outcome)
}

/// Scrolls the page by `(dx, dy)` CSS pixels and settles.
pub async fn scroll_page(
    page: &PageHandle,
    dx: f64,
    dy: f64,
    opts: &SettleOptions,
) -> Result<Outcome, CdpError> {
    act_on_document(page, &ElementAction::Scroll { dx, dy }, opts).await
}

/// A mouse event at a point of the viewport, then a settle (the `mouse` tool: canvases and
/// widgets the tree does not describe). A point outside the viewport is refused.
pub async fn pointer(
    page: &PageHandle,
    x: f64,
    y: f64,
    action: PointerAction,
    opts: &SettleOptions,
) -> Result<Outcome, CdpError> {
    let size = page.eval("[window.innerWidth, window.innerHeight]").await?;
    let (w, h) = (
        size.get(0).and_then(Value::as_f64).unwrap_or(0.0),
        size.get(1).and_then(Value::as_f64).unwrap_or(0.0),
    );
    if !(x >= 0.0 && y >= 0.0 && x < w && y < h) {
        return Err(CdpError::NotActionable {
            kind: Refusal::Hidden,
            action: "mouse".into(),
            target: format!("the point {x},{y}"),
            reason: format!("it is outside the viewport ({w}x{h} CSS pixels from its top left)"),
        });
    }
    let watcher = Watcher::start(page).await?;
    let work = async {
        let send = |p: Value| page.call("Input.dispatchMouseEvent", p);
        let left = MouseButton::Left;
        match action {
            PointerAction::Wheel { dx, dy } => {
                send(json!({"type": "mouseWheel", "x": x, "y": y, "deltaX": dx, "deltaY": dy})).await?;
            }
            _ => {
                send(mouse("mouseMoved", x, y, left, 0)).await?;
                if matches!(action, PointerAction::Click | PointerAction::Down) {
                    send(mouse("mousePressed", x, y, left, 1)).await?;
                }
                if matches!(action, PointerAction::Click | PointerAction::Up) {
                    send(mouse("mouseReleased", x, y, left, 1)).await?;
                }
            }
        }
        Ok(())
    };
    watcher.run(work).await?;
    watcher.settle(opts, false).await
}

/// Presses keys on whatever has focus in the page and settles.
pub async fn press_page(page: &PageHandle, keys: &str, opts: &SettleOptions) -> Result<Outcome, CdpError> {
    act_on_document(page, &ElementAction::Press { keys: keys.to_string() }, opts).await
}

async fn act_on_document(
    page: &PageHandle,
    action: &ElementAction,
    opts: &SettleOptions,
) -> Result<Outcome, CdpError> {
    let watcher = Watcher::start(page).await?;
    let work = async {
        match action {
            ElementAction::Scroll { dx, dy } => {
                page.eval(&format!("window.scrollBy({{left: {dx}, top: {dy}, behavior: 'instant'}}); true"))
                    .await?;
                Ok(())
            }
            ElementAction::Press { keys } => {
                for c in input::chords(keys)? {
                    input::press(page.raw(), page.session_id(), &c).await?;
                }
                Ok(())
            }
            other => Err(CdpError::NotActionable {
                kind: Refusal::NotActionable,
                action: action_name(other).into(),
                target: "the document".into(),
                reason: "the page itself only scrolls and takes key presses; act on an element in it".into(),
            }),
        }
    };
    watcher.run(work).await?;
    watcher.settle(opts, false).await
}

fn action_name(a: &ElementAction) -> &'static str {
    match a {
        ElementAction::Click { count } if *count >= 2 => "double-click",
        ElementAction::Click { .. } => "click",
        ElementAction::ClickButton { button: MouseButton::Right, .. } => "right-click",
        ElementAction::ClickButton { button: MouseButton::Middle, .. } => "middle-click",
        ElementAction::ClickButton { count, .. } if *count >= 2 => "double-click",
        ElementAction::ClickButton { .. } => "click",
        ElementAction::Hover => "hover",
        ElementAction::Type { .. } | ElementAction::TypeKeys { .. } => "type into",
        ElementAction::Select { .. } => "select in",
        ElementAction::Check { on: true } => "check",
        ElementAction::Check { on: false } => "uncheck",
        ElementAction::Scroll { .. } => "scroll",
        ElementAction::Focus => "focus",
        ElementAction::Press { .. } => "press keys on",
        ElementAction::SetFiles { .. } => "upload files into",
        ElementAction::DragTo { .. } => "drag",
    }
}

/// How long a field that looks things up as it is typed in (a search box, an autocomplete
/// combobox) is given after the text goes in: such fields commonly wait 150-500 ms after the
/// last key before they search (rustdoc's waits 500 ms), and the answer should show what they
/// found, not the page before it.
pub const LOOKUP_QUIET: std::time::Duration = std::time::Duration::from_millis(650);

/// What an action leaves for the settle and the read-back after it.
#[derive(Debug, Default)]
struct Performed {
    /// A quiet period the page needs after it (a search field's lookup).
    quiet: Option<std::time::Duration>,
    /// The value a fill by value left in the field, as the field holds it (a colour name as
    /// `#rrggbb`): what the read-back is to find.
    landed: Option<String>,
    /// The labels of the options a select chose (an option asked for by its value is found by
    /// its label): what the read-back is to find.
    picked: Option<Vec<String>>,
}

/// Performs `action`.
async fn perform(page: &PageHandle, el: &Element, action: &ElementAction) -> Result<Performed, CdpError> {
    let name = action_name(action);
    match action {
        ElementAction::Click { count } => click(page, el, MouseButton::Left, (*count).max(1), name).await,
        ElementAction::ClickButton { button, count } => click(page, el, *button, (*count).max(1), name).await,
        ElementAction::Hover => {
            ensure_enabled(page, el, name, false).await?;
            let (x, y) = clickable_point(page, el, name).await?;
            page.call("Input.dispatchMouseEvent", mouse("mouseMoved", x, y, MouseButton::Left, 0))
                .await
                .map(|_| ())
        }
        ElementAction::Type { text, clear, submit } => {
            return type_text(page, el, text, *clear, *submit).await
        }
        ElementAction::TypeKeys { text, submit } => type_keys(page, el, text, *submit).await,
        ElementAction::Select { values } => {
            let picked = select(page, el, values).await?;
            return Ok(Performed { picked: Some(picked), ..Performed::default() });
        }
        ElementAction::Check { on } => check(page, el, *on).await,
        ElementAction::Scroll { dx, dy } => scroll(page, el, *dx, *dy).await,
        ElementAction::Focus => focus(page, el, name).await,
        ElementAction::SetFiles { paths } => set_files(page, el, paths, name).await,
        ElementAction::DragTo { to } => drag(page, el, to, name).await,
        ElementAction::Press { keys } => {
            let chords = input::chords(keys)?;
            focus(page, el, name).await?;
            for c in &chords {
                input::press(page.raw(), page.session_id(), c).await?;
            }
            Ok(())
        }
    }
    .map(|()| Performed::default())
}

/// Refuses disabled controls (a click on one does nothing, which would look like success).
async fn ensure_enabled(
    page: &PageHandle,
    el: &Element,
    action: &str,
    for_click: bool,
) -> Result<(), CdpError> {
    let v = call_on(
        page,
        el,
        "function() { return !!(this.disabled || (this.closest && this.closest('fieldset:disabled')) ||
           (this.getAttribute && this.getAttribute('aria-disabled') === 'true')); }",
        &[],
    )
    .await?;
    if for_click && v.as_bool() == Some(true) {
        return Err(not_actionable(
            Refusal::Disabled,
            action,
            el,
            "it is disabled; enable it first or pick another element",
        ));
    }
    Ok(())
}

/// One `Input.dispatchMouseEvent`'s parameters.
fn mouse(kind: &str, x: f64, y: f64, button: MouseButton, clicks: u8) -> Value {
    let mut p = json!({"type": kind, "x": x, "y": y});
    if kind != "mouseMoved" {
        p["button"] = json!(button.as_str());
        // The `buttons` bit mask: left 1, right 2, middle 4.
        let mask = match button {
            MouseButton::Left => 1,
            MouseButton::Right => 2,
            MouseButton::Middle => 4,
        };
        p["buttons"] = json!(if kind == "mousePressed" { mask } else { 0 });
        p["clickCount"] = json!(clicks);
    }
    p
}

async fn click(
    page: &PageHandle,
    el: &Element,
    button: MouseButton,
    count: u8,
    name: &str,
) -> Result<(), CdpError> {
    ensure_enabled(page, el, name, true).await?;
    let (x, y) = match clickable_point(page, el, name).await {
        Ok(p) => p,
        // A code editor's edit surface has no area of its own (Monaco's `EditContext` div,
        // 0 px wide): a click on it is a click into its editor, which a focus gives without
        // moving the editor's caret.
        Err(CdpError::NotActionable { kind: Refusal::Hidden, .. })
            if button == MouseButton::Left && count == 1 && is_edit_surface(page, el).await =>
        {
            return focus(page, el, name).await;
        }
        // Any other click on a code editor's edit surface that has no area or lies under its
        // own editor's text (VS Code's right click on its editor's textbox was refused as
        // covered by the line it is drawn under) goes where the surface sits: on the text at
        // the caret, where a user's would.
        Err(e @ (CdpError::NotActionable { kind: Refusal::Hidden, .. } | CdpError::Covered { .. })) => {
            match editor_point(page, el).await {
                Some(p) => p,
                None => return Err(e),
            }
        }
        Err(e) => return Err(e),
    };
    // The move and the first press go together (the tab dispatches input events in the order
    // sent: one round trip, not two, with a remote browser). Each release waits for its press:
    // a press that opens a dialog leaves the click there (the watcher stops the action), and
    // a release already queued would land after the agent answered the dialog.
    let send =
        |p: Value| page.raw().send(Some(page.session_id()), "Input.dispatchMouseEvent", p, CALL_TIMEOUT);
    let moved = send(mouse("mouseMoved", x, y, button, 0));
    let pressed = send(mouse("mousePressed", x, y, button, 1));
    moved.await?;
    pressed.await?;
    for n in 1..=count {
        if n > 1 {
            send(mouse("mousePressed", x, y, button, n)).await?;
        }
        send(mouse("mouseReleased", x, y, button, n)).await?;
    }
    Ok(())
}

async fn focus(page: &PageHandle, el: &Element, name: &str) -> Result<(), CdpError> {
    page.raw().call(Some(&el.session), "DOM.focus", json!({"backendNodeId": el.backend})).await.map_err(
        |e| match e {
            CdpError::Protocol { .. } => {
                not_actionable(Refusal::NotActionable, name, el, "it cannot take focus")
            }
            e => e,
        },
    )?;
    Ok(())
}

/// Whether an element is an editor's edit surface: an `EditContext` host (Monaco's current
/// default), or an editable element of no size inside an editor (an older Monaco's
/// `<textarea>`).
async fn is_edit_surface(page: &PageHandle, el: &Element) -> bool {
    let v = call_on(
        page,
        el,
        "function() { if (this.editContext) return true;
           const editable = this instanceof HTMLTextAreaElement || this.isContentEditable;
           const r = this.getBoundingClientRect();
           return editable && (r.width < 2 || r.height < 2); }",
        &[],
    )
    .await;
    matches!(v, Ok(Value::Bool(true)))
}

/// The point in the viewport where a code editor's edit surface sits, when what is drawn there
/// is its own editor's (Monaco's or CodeMirror's): the caret's place in its text. `None` for
/// anything else, and in an out-of-process frame (its points are the frame's).
async fn editor_point(page: &PageHandle, el: &Element) -> Option<(f64, f64)> {
    if !el.hops.is_empty() {
        return None;
    }
    let v = call_on(
        page,
        el,
        "function() {
           const field = this instanceof HTMLTextAreaElement || this.isContentEditable;
           if (!this.editContext && !field) return null;
           const editor = this.closest('.monaco-editor, .cm-editor');
           if (!editor) return null;
           const r = this.getBoundingClientRect();
           const x = r.left + Math.min(Math.max(r.width / 2, 1), 4), y = r.top + r.height / 2;
           if (x < 0 || y < 0 || x >= innerWidth || y >= innerHeight) return null;
           const hit = document.elementFromPoint(x, y);
           return hit && editor.contains(hit) ? [x, y] : null; }",
        &[],
    )
    .await
    .ok()?;
    let pair = v.as_array()?;
    Some((pair.first()?.as_f64()?, pair.get(1)?.as_f64()?))
}

/// Whether an element takes typed text, read before it is focused: a refused `type` leaves the
/// focus where it was.
const TYPEABLE_JS: &str = "function() {
  const t = this;
  const field = t instanceof HTMLInputElement || t instanceof HTMLTextAreaElement;
  if (!field && !t.isContentEditable && !t.editContext) return {editable: false};
  if (t.readOnly) return {editable: false, readonly: true};
  // An editable element that already holds the caret (a code editor the agent clicked into
  // and moved in with keys): typing by hand goes on at that caret, not after the text.
  const s = getSelection();
  const caret = !field && t.isContentEditable && t.contains(document.activeElement) &&
    s.rangeCount > 0 && t.contains(s.anchorNode);
  return {editable: true, caret};
}";

const EDITABLE_JS: &str = "function(clear, caret) {
  const t = this;
  const field = t instanceof HTMLInputElement || t instanceof HTMLTextAreaElement;
  // An EditContext host (a code editor's surface): the editor keeps its own caret and
  // selection; a fill selects all the way a user would (the editor's own Select All).
  if (!field && !t.isContentEditable && t.editContext) return {editable: true, host: !field, lookup: false, hasText: false, selectAll: !!clear};
  if (!field && !t.isContentEditable) return {editable: false};
  if (t.readOnly) return {editable: false, readonly: true};
  // Whether it looks things up as it is typed in: a search field, a combobox, autocomplete.
  const role = (t.getAttribute('role') || '').toLowerCase();
  const auto = (t.getAttribute('aria-autocomplete') || 'none').toLowerCase();
  const lookup = t.type === 'search' || role === 'searchbox' || role === 'combobox' ||
    auto !== 'none' || !!t.list || !!(t.closest && t.closest('search, [role=search]'));
  if (clear) {
    if (field) { t.select(); return {editable: true, host: !field, lookup, hasText: t.value.length > 0}; }
    const r = document.createRange(); r.selectNodeContents(t);
    const s = getSelection(); s.removeAllRanges(); s.addRange(r);
    return {editable: true, host: !field, lookup, hasText: (t.textContent || '').length > 0};
  }
  if (caret) return {editable: true, host: !field, lookup, hasText: false};
  try {
    if (field) { const n = t.value.length; t.setSelectionRange(n, n); }
    else { const r = document.createRange(); r.selectNodeContents(t); r.collapse(false);
           const s = getSelection(); s.removeAllRanges(); s.addRange(r); }
  } catch (_) { /* number and email inputs have no selection API; the caret stays */ }
  return {editable: true, host: !field, lookup, hasText: false};
}";

async fn type_text(
    page: &PageHandle,
    el: &Element,
    text: &str,
    clear: bool,
    submit: bool,
) -> Result<Performed, CdpError> {
    let name = if clear { "fill" } else { "type into" };
    ensure_enabled(page, el, name, true).await?;
    // A date, time, colour or range input takes no typed text: a fill sets its value, as the
    // user's pick in its picker would. Any fill's value is checked against the input's type
    // first: a number input typed "abc" would be left empty.
    let checked = if clear {
        match fields::fill_native(page, el, text).await? {
            fields::NativeFill::Done(landed) => {
                if submit {
                    input::press(page.raw(), page.session_id(), &input::chord("Enter")?).await?;
                }
                return Ok(Performed { landed: Some(landed), ..Performed::default() });
            }
            fields::NativeFill::Type(checked) => Some(checked),
            fields::NativeFill::NotNative => None,
        }
    } else {
        None
    };
    let text = checked.as_deref().unwrap_or(text);
    let can = call_on(page, el, TYPEABLE_JS, &[]).await?;
    let v = if can.get("editable").and_then(Value::as_bool) == Some(true) {
        let caret = can.get("caret").and_then(Value::as_bool) == Some(true);
        focus(page, el, name).await?;
        call_on(page, el, EDITABLE_JS, &[json!(clear), json!(caret)]).await?
    } else {
        can
    };
    if v.get("editable").and_then(Value::as_bool) != Some(true) {
        let (kind, why) = if v.get("readonly").and_then(Value::as_bool) == Some(true) {
            (Refusal::ReadOnly, "it is read-only")
        } else {
            (
                Refusal::NotATextField,
                "it is not a text field or editable element; click it, or type into a text field",
            )
        };
        return Err(not_actionable(kind, name, el, why));
    }
    if v.get("selectAll").and_then(Value::as_bool) == Some(true) {
        input::press(page.raw(), page.session_id(), &input::chord("Control+a")?).await?;
        input::press(page.raw(), page.session_id(), &input::chord("Backspace")?).await?;
    }
    if v.get("hasText").and_then(Value::as_bool) == Some(true) {
        input::press(page.raw(), page.session_id(), &input::chord("Backspace")?).await?;
        // Inputs without a selection API (number, email) may keep their text: clear it the way
        // an editing command would, with the event a page listens to.
        let left = call_on(
            page,
            el,
            "function() { const f = this instanceof HTMLInputElement || this instanceof HTMLTextAreaElement;
               const has = f ? this.value.length > 0 : (this.textContent || '').length > 0;
               if (!has) return false;
               if (f) this.value = ''; else this.textContent = '';
               this.dispatchEvent(new InputEvent('input', {bubbles: true, inputType: 'deleteContentBackward'}));
               return true; }",
            &[],
        )
        .await?;
        let _ = left;
    }
    if !text.is_empty() {
        let host = v.get("host").and_then(Value::as_bool) == Some(true);
        insert_text(page, text, host).await?;
    }
    if submit {
        input::press(page.raw(), page.session_id(), &input::chord("Enter")?).await?;
    }
    let lookup = v.get("lookup").and_then(Value::as_bool) == Some(true);
    Ok(Performed { quiet: lookup.then_some(LOOKUP_QUIET), ..Performed::default() })
}

/// Inserts `text` where the caret is, as typed text lands. In an editable element that is not a
/// form field (`host`: CodeMirror, ProseMirror, an EditContext), each line break goes in on its
/// own: CodeMirror 6, given "\nreturn name" in one insertion, put the line in at the caret and
/// joined two lines forty lines above it.
async fn insert_text(page: &PageHandle, text: &str, host: bool) -> Result<(), CdpError> {
    if !host || !text.contains('\n') {
        page.call("Input.insertText", json!({"text": text})).await?;
        return Ok(());
    }
    for (i, line) in text.split('\n').enumerate() {
        if i > 0 {
            input::press(page.raw(), page.session_id(), &input::chord("Enter")?).await?;
        }
        let line = line.strip_suffix('\r').unwrap_or(line);
        if !line.is_empty() {
            page.call("Input.insertText", json!({"text": line})).await?;
        }
    }
    Ok(())
}

/// Types `text` a key press per character (keydown, keypress, input, keyup: what a page that
/// reads keys listens to), after the field's text when it is one; an element that is no field
/// (a terminal's screen, a game's canvas) gets the keys once focused, as a user's would.
async fn type_keys(page: &PageHandle, el: &Element, text: &str, submit: bool) -> Result<(), CdpError> {
    ensure_enabled(page, el, "type into", true).await?;
    // An editable element that holds the caret keeps it (a code editor moved in with keys);
    // otherwise the caret goes after the current text, where typing by hand goes on.
    let caret =
        call_on(page, el, TYPEABLE_JS, &[]).await?.get("caret").and_then(Value::as_bool) == Some(true);
    focus(page, el, "type into").await?;
    call_on(page, el, EDITABLE_JS, &[json!(false), json!(caret)]).await?;
    for c in text.chars() {
        let chord = if c == '\n' { input::chord("Enter")? } else { input::char_chord(c) };
        input::press(page.raw(), page.session_id(), &chord).await?;
    }
    if submit {
        input::press(page.raw(), page.session_id(), &input::chord("Enter")?).await?;
    }
    Ok(())
}

const SELECT_JS: &str = "function(values) {
  const sel = this instanceof HTMLSelectElement ? this : null;
  if (!sel) return {error: 'it is not a <select> element (for a custom listbox or combobox, click its options)'};
  if (sel.disabled) return {error: 'it is disabled'};
  const opts = [...sel.options];
  const norm = (s) => (s || '').replace(/\\s+/g, ' ').trim();
  const picked = [], missing = [];
  for (const w of values) {
    let o = opts.find((o) => norm(o.label) === norm(w)) || opts.find((o) => o.value === w) ||
      opts.find((o) => norm(o.label).toLowerCase() === norm(w).toLowerCase());
    if (o) picked.push(o); else missing.push(w);
  }
  if (missing.length) {
    return {missing, available: opts.map((o) => o.value !== norm(o.label) ? norm(o.label) + ' (value ' + o.value + ')' : norm(o.label))};
  }
  if (!sel.multiple && picked.length > 1) return {error: 'it takes one option only, ' + picked.length + ' were given'};
  if (picked.some((o) => o.disabled)) return {error: 'option ' + norm(picked.find((o) => o.disabled).label) + ' is disabled'};
  if (sel.multiple) { for (const o of opts) o.selected = picked.includes(o); }
  else if (picked.length) sel.selectedIndex = opts.indexOf(picked[0]);
  sel.dispatchEvent(new Event('input', {bubbles: true, composed: true}));
  sel.dispatchEvent(new Event('change', {bubbles: true}));
  return {selected: picked.map((o) => o.label)};
}";

/// Chooses the options `values` name (by label, then value) and returns their labels.
async fn select(page: &PageHandle, el: &Element, values: &[String]) -> Result<Vec<String>, CdpError> {
    // Focus first, as a person would; some pages react to it.
    let _ = page.raw().call(Some(&el.session), "DOM.focus", json!({"backendNodeId": el.backend})).await;
    let v = call_on(page, el, SELECT_JS, &[json!(values)]).await?;
    if let Some(e) = v.get("error").and_then(Value::as_str) {
        return Err(not_actionable(Refusal::NotActionable, "select in", el, e));
    }
    if let Some(missing) = v.get("missing").and_then(Value::as_array) {
        let strings = |a: &Value| -> Vec<String> {
            a.as_array().into_iter().flatten().filter_map(Value::as_str).map(str::to_string).collect()
        };
        return Err(CdpError::NoSuchOption {
            target: el.desc.clone(),
            wanted: strings(&Value::Array(missing.clone())),
            available: strings(v.get("available").unwrap_or(&Value::Null)),
        });
    }
    let picked = v.get("selected").and_then(Value::as_array).into_iter().flatten();
    let picked: Vec<String> = picked
        .filter_map(Value::as_str)
        .map(|l| l.split_whitespace().collect::<Vec<_>>().join(" "))
        .collect();
    // A page that answered nothing readable: compare with what was asked, as before.
    Ok(if picked.is_empty() { values.to_vec() } else { picked })
}

const CHECKED_JS: &str = "function() {
  const t = (this instanceof HTMLLabelElement && this.control) ? this.control : this;
  if (t instanceof HTMLInputElement && (t.type === 'checkbox' || t.type === 'radio')) return {kind: t.type, on: t.checked};
  const a = t.getAttribute && (t.getAttribute('aria-checked') ?? t.getAttribute('aria-pressed'));
  if (a !== null && a !== undefined) return {kind: t.getAttribute('role') || 'toggle', on: a === 'true'};
  return {kind: null};
}";

async fn checked_state(page: &PageHandle, el: &Element, name: &str) -> Result<(String, bool), CdpError> {
    let v = call_on(page, el, CHECKED_JS, &[]).await?;
    let Some(kind) = v.get("kind").and_then(Value::as_str) else {
        return Err(not_actionable(
            Refusal::NotActionable,
            name,
            el,
            "it is not a checkbox, radio button, switch or toggle; use click",
        ));
    };
    Ok((kind.to_string(), v.get("on").and_then(Value::as_bool).unwrap_or(false)))
}

async fn check(page: &PageHandle, el: &Element, on: bool) -> Result<(), CdpError> {
    let name = if on { "check" } else { "uncheck" };
    let (kind, now) = checked_state(page, el, name).await?;
    if now == on {
        return Ok(());
    }
    if kind == "radio" && !on {
        return Err(not_actionable(
            Refusal::NotActionable,
            name,
            el,
            "a radio button cannot be unchecked; check another option of its group",
        ));
    }
    click(page, el, MouseButton::Left, 1, name).await
}

async fn verify_checked(page: &PageHandle, el: &Element, on: bool) -> Result<(), CdpError> {
    let name = if on { "check" } else { "uncheck" };
    // The element may be gone after the click (the page re-rendered it): then we cannot know.
    let (_, now) = match checked_state(page, el, name).await {
        Ok(s) => s,
        Err(CdpError::Protocol { .. }) => return Ok(()),
        Err(e) => return Err(e),
    };
    if now != on {
        let word = |b: bool| if b { "checked" } else { "unchecked" };
        return Err(CdpError::CheckFailed {
            target: el.desc.clone(),
            wanted: word(on).into(),
            actual: word(now).into(),
        });
    }
    Ok(())
}

const SCROLL_JS: &str = "function(dx, dy) {
  const scrolls = (e) => {
    const s = getComputedStyle(e);
    const y = e.scrollHeight > e.clientHeight && /(auto|scroll|overlay)/.test(s.overflowY);
    const x = e.scrollWidth > e.clientWidth && /(auto|scroll|overlay)/.test(s.overflowX);
    return (dy !== 0 && y) || (dx !== 0 && x);
  };
  let e = this.nodeType === 1 ? this : this.parentElement;
  for (; e && e !== document.body && e !== document.documentElement; e = e.parentElement || (e.getRootNode().host)) {
    if (scrolls(e)) break;
  }
  if (!e || e === document.body || e === document.documentElement) {
    const [x0, y0] = [window.scrollX, window.scrollY];
    window.scrollBy({left: dx, top: dy, behavior: 'instant'});
    const moved = window.scrollX !== x0 || window.scrollY !== y0;
    if (moved) return {page: true, moved};
    // Nothing scrolled by script: a scroller of its own that only wheel events move (a code
    // editor's view). Where a wheel over the element lands: the centre of its first box with
    // an area, itself or an ancestor (an editor's edit surface is 0 px wide).
    for (let a = this.nodeType === 1 ? this : this.parentElement; a; a = a.parentElement) {
      const r = a.getBoundingClientRect();
      const w = Math.min(r.right, innerWidth) - Math.max(r.left, 0);
      const h = Math.min(r.bottom, innerHeight) - Math.max(r.top, 0);
      if (w > 2 && h > 2) return {page: true, moved, wheel: [Math.max(r.left, 0) + w / 2, Math.max(r.top, 0) + h / 2]};
    }
    return {page: true, moved};
  }
  e.scrollBy({left: dx, top: dy, behavior: 'instant'});
  return {page: false, moved: true};
}";

/// Pixels one wheel notch scrolls a page; a scroller that reads wheel events itself may take a
/// notch as less (Monaco: 50 px, whatever the event's delta), so a scroll by wheel is sent as
/// notches, as a user's wheel sends them.
const WHEEL_NOTCH: f64 = 100.0;

/// Most notches one scroll sends.
const MAX_NOTCHES: f64 = 60.0;

/// Scrolls the element's scroller by script, else (a scroller that only wheel events move,
/// Monaco's) a mouse wheel over the element, as a user's would.
async fn scroll(page: &PageHandle, el: &Element, dx: f64, dy: f64) -> Result<(), CdpError> {
    let v = call_on(page, el, SCROLL_JS, &[json!(dx), json!(dy)]).await?;
    let at = v.get("wheel").and_then(Value::as_array);
    if let Some([x, y]) = at.map(Vec::as_slice) {
        let (x, y) = (x.as_f64().unwrap_or(0.0), y.as_f64().unwrap_or(0.0));
        let notches = (dx.abs().max(dy.abs()) / WHEEL_NOTCH).round().clamp(1.0, MAX_NOTCHES);
        let (sx, sy) = (dx / notches, dy / notches);
        for _ in 0..notches as u32 {
            let wheel = json!({"type": "mouseWheel", "x": x, "y": y, "deltaX": sx, "deltaY": sy});
            page.call("Input.dispatchMouseEvent", wheel).await?;
        }
    }
    Ok(())
}
