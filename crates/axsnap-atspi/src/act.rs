//! Acting on one object: the core's [`ElementAction`]s through AT-SPI's Action,
//! EditableText, Value, Selection and Component interfaces, falling back on synthesized input
//! (keys, pointer) where an object offers no interface for it. Where the effect can be read
//! back (a toggle's state, a field's text, a value) it is, and an action that left no effect
//! is an error that says so.

use std::time::{Duration, Instant};

use axsnap_core::backend::{ElementAction, MouseButton, Refusal};
use zbus::zvariant::{OwnedObjectPath, Value};

use crate::bus::{iface, Bus};
use crate::error::AtspiError;
use crate::fetch::{fetch, Children, RawObject};
use crate::keys;
use crate::mapping::{bit, role_name};
use crate::object::ObjectRef;

/// How long an action's effect is awaited before it counts as not applied.
const EFFECT_WAIT: Duration = Duration::from_secs(2);

/// Action names that mean "do the default thing", best first.
const DEFAULT_ACTIONS: &[&str] =
    &["click", "press", "activate", "jump", "open", "invoke", "toggle", "select", "doDefault"];

/// Performs `action` on `obj`.
pub async fn act(bus: &Bus, obj: &ObjectRef, action: &ElementAction) -> Result<(), AtspiError> {
    let raw = fetch(bus, obj, Children::Never).await?;
    if !raw.state(bit::VISIBLE) && !raw.state(bit::SHOWING) {
        return Err(AtspiError::refused(
            Refusal::Hidden,
            format!("{} is not shown; take a new snapshot", describe(&raw)),
        ));
    }
    let enabled = raw.state(bit::ENABLED) || raw.state(bit::SENSITIVE);
    if !enabled && !matches!(action, ElementAction::Hover | ElementAction::Scroll { .. }) {
        return Err(AtspiError::refused(
            Refusal::Disabled,
            format!("{} is disabled; enable it first or pick another element", describe(&raw)),
        ));
    }
    match action {
        ElementAction::Click { count } => click(bus, &raw, MouseButton::Left, *count).await,
        ElementAction::ClickButton { button, count } => click(bus, &raw, *button, *count).await,
        ElementAction::Hover => {
            let (x, y) = center(&raw)?;
            keys::mouse(bus, x, y, "abs").await
        }
        ElementAction::Type { text, clear, submit } => {
            // Focus first, as typing by hand would: the next key pressed (an Enter the agent
            // sends on its own) then goes to this field, not to whatever held the focus
            // (Calc's Name Box filled while the sheet kept the keys).
            if raw.has("Component") && !raw.state(bit::FOCUSED) {
                let _ = bus.call::<_, bool>(&raw.obj, iface::COMPONENT, "GrabFocus", &()).await;
            }
            set_text(bus, &raw, text, *clear).await?;
            if *submit {
                focus(bus, &raw).await?;
                keys::press(bus, &keys::parse("Enter")?).await?;
            }
            Ok(())
        }
        ElementAction::TypeKeys { text, submit } => {
            // Keystrokes, as the keyboard sends them, to the element once it has focus (an
            // app that reads keys, not its text through EditableText).
            focus(bus, &raw).await?;
            if !text.is_empty() {
                keys::type_string(bus, text).await?;
            }
            if *submit {
                keys::press(bus, &keys::parse("Enter")?).await?;
            }
            Ok(())
        }
        ElementAction::Select { values } => select(bus, &raw, values).await,
        ElementAction::Check { on } => check(bus, &raw, *on).await,
        ElementAction::Scroll { dx, dy } => scroll(bus, &raw, *dx, *dy).await,
        ElementAction::Focus => focus(bus, &raw).await,
        ElementAction::DragTo { .. } => Err(AtspiError::refused(
            Refusal::NotActionable,
            format!(
                "dragging {} is not offered on the desktop yet; use the app's keys or menus",
                describe(&raw)
            ),
        )),
        ElementAction::SetFiles { .. } => Err(AtspiError::refused(
            Refusal::NotActionable,
            format!(
                "{} takes no files directly: a desktop app opens files through its own dialog; use its Open \
                 button and type the path there",
                describe(&raw)
            ),
        )),
        ElementAction::Press { keys: k } => {
            let chords = keys::parse(k)?;
            focus(bus, &raw).await?;
            keys::press(bus, &chords).await
        }
    }
}

fn describe(raw: &RawObject) -> String {
    let role = role_name(raw.role).unwrap_or("object");
    if raw.name.is_empty() {
        role.to_string()
    } else {
        format!("{role} {:?}", raw.name)
    }
}

fn center(raw: &RawObject) -> Result<(i32, i32), AtspiError> {
    match raw.extents {
        Some((x, y, w, h)) if w > 0 && h > 0 => Ok((x + w / 2, y + h / 2)),
        _ => Err(AtspiError::refused(
            Refusal::Hidden,
            format!("{} has no place on screen to point at", describe(raw)),
        )),
    }
}

async fn do_action(bus: &Bus, raw: &RawObject, names: &[&str]) -> Result<bool, AtspiError> {
    let Some(index) = names.iter().find_map(|n| raw.actions.iter().position(|a| a == n)) else {
        return Ok(false);
    };
    let done: bool = bus.call(&raw.obj, iface::ACTION, "DoAction", &(index as i32,)).await?;
    if !done {
        return Err(AtspiError::NotApplied(format!(
            "{} refused its {:?} action",
            describe(raw),
            raw.actions[index]
        )));
    }
    Ok(true)
}

async fn click(bus: &Bus, raw: &RawObject, button: MouseButton, count: u8) -> Result<(), AtspiError> {
    if button == MouseButton::Left && count <= 1 && do_action(bus, raw, DEFAULT_ACTIONS).await? {
        return Ok(());
    }
    let (x, y) = center(raw)?;
    let b = match button {
        MouseButton::Left => 1,
        MouseButton::Middle => 2,
        MouseButton::Right => 3,
    };
    let kind = if count >= 2 { 'd' } else { 'c' };
    keys::mouse(bus, x, y, &format!("b{b}{kind}")).await
}

async fn focus(bus: &Bus, raw: &RawObject) -> Result<(), AtspiError> {
    if raw.state(bit::FOCUSED) {
        return Ok(());
    }
    if !raw.has("Component") {
        return Err(AtspiError::refused(
            Refusal::NotActionable,
            format!("{} cannot take focus", describe(raw)),
        ));
    }
    let done: bool = bus.call(&raw.obj, iface::COMPONENT, "GrabFocus", &()).await?;
    if !done {
        return Err(AtspiError::NotApplied(format!("{} did not take focus", describe(raw))));
    }
    Ok(())
}

async fn text_of(bus: &Bus, obj: &ObjectRef) -> Result<String, AtspiError> {
    let count: i32 = bus.property(obj, iface::TEXT, "CharacterCount").await?;
    bus.call(obj, iface::TEXT, "GetText", &(0i32, count)).await
}

async fn set_text(bus: &Bus, raw: &RawObject, text: &str, clear: bool) -> Result<(), AtspiError> {
    if raw.has("EditableText") && raw.state(bit::EDITABLE) {
        let before = text_of(bus, &raw.obj).await.unwrap_or_default();
        let done: bool = if clear {
            bus.call(&raw.obj, iface::EDITABLE_TEXT, "SetTextContents", &(text,)).await?
        } else {
            let at: i32 = bus.property(&raw.obj, iface::TEXT, "CaretOffset").await.unwrap_or(-1);
            let at = if at < 0 { before.chars().count() as i32 } else { at };
            bus.call(&raw.obj, iface::EDITABLE_TEXT, "InsertText", &(at, text, text.chars().count() as i32))
                .await?
        };
        let want = |now: &str| {
            if clear {
                now == text
            } else {
                now.contains(text) && now.chars().count() >= before.chars().count()
            }
        };
        // A password field reads back as bullets: its length is all that can be checked.
        let secret = role_name(raw.role) == Some("password text");
        let expected =
            if clear { text.chars().count() } else { before.chars().count() + text.chars().count() };
        let ok = wait_for(|| async {
            let now = text_of(bus, &raw.obj).await.unwrap_or_default();
            if secret {
                now.chars().count() == expected
            } else {
                want(&now)
            }
        })
        .await;
        if !done || !ok {
            // What it holds now, said unless it is a secret.
            let holds = if secret {
                String::new()
            } else {
                let now = text_of(bus, &raw.obj).await.unwrap_or_default();
                format!("; it holds {:?}", now.chars().take(200).collect::<String>())
            };
            return Err(AtspiError::NoEffect(format!(
                "{} did not take the text {:?}{holds}",
                describe(raw),
                text.chars().take(200).collect::<String>()
            )));
        }
        return Ok(());
    }
    // Only a range control takes its text as a number: a spreadsheet cell and a button may
    // have a Value too (Calc's cells, its "Text Box" button).
    let ranged = matches!(role_name(raw.role), Some("slider" | "spin button" | "scroll bar" | "dial"));
    if raw.has("Value") && ranged {
        let v: f64 = text.trim().parse().map_err(|_| {
            AtspiError::refused(
                Refusal::NotActionable,
                format!("{} takes a number, not {text:?}", describe(raw)),
            )
        })?;
        bus.call::<_, ()>(
            &raw.obj,
            iface::PROPERTIES,
            "Set",
            &(iface::VALUE, "CurrentValue", Value::from(v)),
        )
        .await?;
        let ok = wait_for(|| async {
            bus.property::<f64>(&raw.obj, iface::VALUE, "CurrentValue")
                .await
                .is_ok_and(|now| (now - v).abs() < 1e-9)
        })
        .await;
        if !ok {
            let now = bus.property::<f64>(&raw.obj, iface::VALUE, "CurrentValue").await.unwrap_or(f64::NAN);
            return Err(AtspiError::NoEffect(format!(
                "{} is {now} after setting it to {v} (out of its range?)",
                describe(raw)
            )));
        }
        return Ok(());
    }
    let takes_keys = raw.state(bit::FOCUSABLE)
        && !matches!(
            role_name(raw.role),
            // (The atspi crate names a push button "button".)
            Some(
                "button"
                    | "toggle button"
                    | "check box"
                    | "radio button"
                    | "menu item"
                    | "check menu item"
                    | "radio menu item"
                    | "page tab"
                    | "link"
            )
        );
    if takes_keys {
        // No text interface (a spreadsheet cell, a terminal, a canvas): type it as keystrokes.
        focus(bus, raw).await?;
        if role_name(raw.role) == Some("table cell") {
            // A spreadsheet's cell: typing over it replaces what it holds (Control+a would
            // select the whole sheet, and BackSpace on that opens Calc's Delete Contents);
            // F2 edits it in place with the caret at its end, to add to it.
            let holds = raw.text.as_deref().is_some_and(|t| !t.is_empty());
            if !clear && holds {
                keys::press(bus, &keys::parse("F2")?).await?;
            }
        } else if clear {
            keys::press(bus, &keys::parse("Control+a BackSpace")?).await?;
        }
        return keys::type_string(bus, text).await;
    }
    Err(AtspiError::refused(
        Refusal::NotATextField,
        format!(
            "{} does not take text: it is not a text field; click it, or type into a text field",
            describe(raw)
        ),
    ))
}

async fn check(bus: &Bus, raw: &RawObject, on: bool) -> Result<(), AtspiError> {
    let checked = |r: &RawObject| r.state(bit::CHECKED) || r.state(bit::PRESSED);
    if checked(raw) == on && !raw.state(bit::INDETERMINATE) {
        return Ok(());
    }
    if !do_action(bus, raw, &["toggle", "click", "press", "activate"]).await? {
        // GTK 4.8's check buttons list the Action interface with no action in it: a click
        // where it is on screen is what is left.
        let (x, y) = center(raw).map_err(|_| {
            AtspiError::refused(Refusal::NotActionable, format!("{} cannot be toggled", describe(raw)))
        })?;
        keys::mouse(bus, x, y, "b1c").await?;
    }
    // A mixed check box the app keeps mixed (GTK's "inconsistent") did not take the state.
    let ok = wait_for(|| async {
        fetch(bus, &raw.obj, Children::Never)
            .await
            .is_ok_and(|r| checked(&r) == on && !r.state(bit::INDETERMINATE))
    })
    .await;
    if !ok {
        let was = if raw.state(bit::INDETERMINATE) {
            "mixed"
        } else if on {
            "unchecked"
        } else {
            "checked"
        };
        return Err(AtspiError::NoEffect(format!("{} is still {was}", describe(raw))));
    }
    Ok(())
}

async fn select(bus: &Bus, raw: &RawObject, values: &[String]) -> Result<(), AtspiError> {
    // The options: the children, or a popup menu's children (GTK's combo boxes).
    let mut holder = raw.obj.clone();
    let mut options = children(bus, &raw.obj).await?;
    if options.len() == 1 {
        let only = fetch(bus, &options[0], Children::Never).await?;
        if matches!(role_name(only.role), Some("menu" | "popup menu" | "list" | "list box" | "window")) {
            holder = options[0].clone();
            options = children(bus, &options[0]).await?;
        }
    }
    let mut named = Vec::new();
    for o in &options {
        let r = fetch(bus, o, Children::Never).await?;
        named.push(r);
    }
    for value in values {
        let Some(index) = named.iter().position(|o| o.name == *value).or_else(|| {
            let lower = value.to_lowercase();
            named.iter().position(|o| o.name.to_lowercase() == lower)
        }) else {
            let known: Vec<String> = named.iter().map(|o| format!("{:?}", o.name)).collect();
            return Err(AtspiError::refused(
                Refusal::NoSuchOption,
                format!("{} has no option {value:?} (options: {})", describe(raw), known.join(", ")),
            ));
        };
        let selected = if raw.has("Selection") {
            bus.call::<_, bool>(&raw.obj, iface::SELECTION, "SelectChild", &(index as i32,)).await?
        } else {
            false
        };
        if !selected && !do_action(bus, &named[index], DEFAULT_ACTIONS).await? {
            return Err(AtspiError::refused(
                Refusal::NotActionable,
                format!("{} cannot select {value:?}", describe(raw)),
            ));
        }
    }
    let last = values.last().cloned().unwrap_or_default();
    let ok = wait_for(|| async {
        match fetch(bus, &raw.obj, Children::Never).await {
            Ok(now) => {
                now.name == last
                    || now.text.as_deref() == Some(last.as_str())
                    || selected_named(bus, &holder, &last).await
            }
            Err(_) => false,
        }
    })
    .await;
    if !ok {
        return Err(AtspiError::NoEffect(format!("{} does not show {last:?} selected", describe(raw))));
    }
    Ok(())
}

async fn selected_named(bus: &Bus, holder: &ObjectRef, name: &str) -> bool {
    let Ok(kids) = children(bus, holder).await else { return false };
    for k in kids {
        if let Ok(r) = fetch(bus, &k, Children::Never).await {
            if r.name == name && r.state(bit::SELECTED) {
                return true;
            }
        }
    }
    false
}

async fn children(bus: &Bus, obj: &ObjectRef) -> Result<Vec<ObjectRef>, AtspiError> {
    let kids: Vec<(String, OwnedObjectPath)> = bus.call(obj, iface::ACCESSIBLE, "GetChildren", &()).await?;
    Ok(kids.into_iter().map(ObjectRef::from).filter(|k| !k.is_null()).collect())
}

async fn scroll(bus: &Bus, raw: &RawObject, dx: f64, dy: f64) -> Result<(), AtspiError> {
    let (x, y) = center(raw)?;
    // Wheel buttons: 4 up, 5 down, 6 left, 7 right; a notch is about 50 pixels.
    let notches = |d: f64| ((d.abs() / 50.0).round() as i32).max(if d == 0.0 { 0 } else { 1 });
    for (d, neg, pos) in [(dy, 4, 5), (dx, 6, 7)] {
        let b = if d < 0.0 { neg } else { pos };
        for _ in 0..notches(d) {
            keys::mouse(bus, x, y, &format!("b{b}c")).await?;
        }
    }
    Ok(())
}

/// Polls `check` until it holds or [`EFFECT_WAIT`] passes.
async fn wait_for<F, Fut>(check: F) -> bool
where
    F: Fn() -> Fut,
    Fut: std::future::Future<Output = bool>,
{
    let start = Instant::now();
    loop {
        if check().await {
            return true;
        }
        if start.elapsed() > EFFECT_WAIT {
            return false;
        }
        tokio::time::sleep(Duration::from_millis(25)).await;
    }
}
