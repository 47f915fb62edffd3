//! Input as a user makes it, through `SendInput`: clicks and the wheel at a screen point,
//! text as Unicode key presses, and key chords.
//!
//! Windows refuses input to a window of a higher integrity level (an elevated app) without
//! saying which: `SendInput` then inserts fewer events than asked, which is reported.

use axsnap_core::backend::MouseButton;
use axsnap_core::keys::{Chord, Key, Modifier, Named};
use windows::Win32::UI::Input::KeyboardAndMouse::*;
use windows::Win32::UI::WindowsAndMessaging::SetCursorPos;

use crate::automation::CallError;

/// Wheel units per notch (`WHEEL_DELTA`), which scroll about this many pixels.
const WHEEL_DELTA: f64 = 120.0;
const PIXELS_PER_NOTCH: f64 = 100.0;

/// Moves the pointer to a screen point.
pub(crate) fn move_to(x: i32, y: i32) -> Result<(), CallError> {
    // SAFETY: a plain Win32 call with values.
    unsafe { SetCursorPos(x, y) }.map_err(|e| CallError::Platform(format!("SetCursorPos: {e}")))
}

/// Clicks `button` `count` times at a screen point.
pub(crate) fn click(x: i32, y: i32, button: MouseButton, count: u8) -> Result<(), CallError> {
    move_to(x, y)?;
    let (down, up) = match button {
        MouseButton::Left => (MOUSEEVENTF_LEFTDOWN, MOUSEEVENTF_LEFTUP),
        MouseButton::Right => (MOUSEEVENTF_RIGHTDOWN, MOUSEEVENTF_RIGHTUP),
        MouseButton::Middle => (MOUSEEVENTF_MIDDLEDOWN, MOUSEEVENTF_MIDDLEUP),
    };
    let mut inputs = Vec::new();
    for _ in 0..count.max(1) {
        inputs.push(mouse(down, 0));
        inputs.push(mouse(up, 0));
    }
    send(&inputs)
}

/// Turns the wheel over a screen point by `dx`, `dy` pixels (positive: right, down).
pub(crate) fn wheel(x: i32, y: i32, dx: f64, dy: f64) -> Result<(), CallError> {
    move_to(x, y)?;
    let mut inputs = Vec::new();
    // The vertical wheel's positive turn scrolls up, so down is negative; the horizontal
    // wheel's positive turn scrolls right.
    if let Some(d) = units(-dy).filter(|d| *d != 0) {
        inputs.push(mouse(MOUSEEVENTF_WHEEL, d));
    }
    if let Some(d) = units(dx).filter(|d| *d != 0) {
        inputs.push(mouse(MOUSEEVENTF_HWHEEL, d));
    }
    send(&inputs)
}

/// Pixels as wheel units, `None` for no number.
fn units(pixels: f64) -> Option<i32> {
    let u = (pixels / PIXELS_PER_NOTCH * WHEEL_DELTA).round();
    u.is_finite().then(|| u.clamp(f64::from(i32::MIN), f64::from(i32::MAX)) as i32)
}

/// Types `text` as Unicode key presses, one per UTF-16 unit (a surrogate pair is two).
pub(crate) fn type_text(text: &str) -> Result<(), CallError> {
    let mut inputs = Vec::new();
    for unit in text.encode_utf16() {
        inputs.push(unicode(unit, false));
        inputs.push(unicode(unit, true));
    }
    send(&inputs)
}

/// Presses each chord in turn: modifiers down, the key down and up, modifiers up in reverse.
pub(crate) fn chords(chords: &[Chord]) -> Result<(), CallError> {
    for chord in chords {
        let mut inputs = Vec::new();
        let mut held: Vec<VIRTUAL_KEY> = chord.modifiers.iter().map(|m| modifier_vk(*m)).collect();
        match key_press(chord) {
            Press::Vk { vk, shift } => {
                if shift && !held.contains(&VK_SHIFT) {
                    held.push(VK_SHIFT);
                }
                inputs.extend(held.iter().map(|k| key(*k, false)));
                inputs.push(key(vk, false));
                inputs.push(key(vk, true));
            }
            Press::Unicode(units) => {
                inputs.extend(held.iter().map(|k| key(*k, false)));
                for u in units {
                    inputs.push(unicode(u, false));
                    inputs.push(unicode(u, true));
                }
            }
        }
        inputs.extend(held.iter().rev().map(|k| key(*k, true)));
        send(&inputs)?;
    }
    Ok(())
}

/// Presses and releases a virtual key that no layout assigns (0xE8), which types nothing
/// and triggers nothing, but counts as this process's input.
pub(crate) fn tap_unassigned_key() -> Result<(), CallError> {
    const UNASSIGNED: VIRTUAL_KEY = VIRTUAL_KEY(0xE8);
    send(&[key(UNASSIGNED, false), key(UNASSIGNED, true)])
}

/// How a chord's key is pressed.
enum Press {
    /// A virtual key, with Shift added when the layout needs it for the character.
    Vk { vk: VIRTUAL_KEY, shift: bool },
    /// A character no key of the layout types (or only with AltGr): its UTF-16 units.
    Unicode(Vec<u16>),
}

fn key_press(chord: &Chord) -> Press {
    let vk = match chord.key {
        Key::Named(n) => named_vk(n),
        // F1 to F24 are consecutive codes; the parser gives 1 to 24.
        Key::Function(n) => VIRTUAL_KEY(VK_F1.0 + u16::from(n.clamp(1, 24)) - 1),
        Key::Modifier(m) => modifier_vk(m),
        Key::Char(c) => return char_press(c, chord.is_shortcut()),
    };
    Press::Vk { vk, shift: false }
}

/// The key that types `c` on the current layout. In a shortcut (`Control+A`) the letter's
/// key is pressed as it is, without the Shift its case would need, as other backends do.
fn char_press(c: char, shortcut: bool) -> Press {
    let mut buf = [0u16; 2];
    let units = c.encode_utf16(&mut buf);
    if let [unit] = units {
        // SAFETY: a plain Win32 call with a value.
        let scan = unsafe { VkKeyScanW(*unit) };
        // -1 (both bytes set) means no key types it; the high byte is the shift state:
        // 1 Shift, 2 Control, 4 Alt (Control and Alt together are AltGr).
        let [vk, state] = scan.to_le_bytes();
        if scan != -1 && state & 0b110 == 0 {
            return Press::Vk { vk: VIRTUAL_KEY(u16::from(vk)), shift: state & 1 != 0 && !shortcut };
        }
    }
    Press::Unicode(units.to_vec())
}

fn named_vk(n: Named) -> VIRTUAL_KEY {
    match n {
        Named::Enter => VK_RETURN,
        Named::Tab => VK_TAB,
        Named::Escape => VK_ESCAPE,
        Named::Backspace => VK_BACK,
        Named::Delete => VK_DELETE,
        Named::Insert => VK_INSERT,
        Named::Space => VK_SPACE,
        Named::ArrowUp => VK_UP,
        Named::ArrowDown => VK_DOWN,
        Named::ArrowLeft => VK_LEFT,
        Named::ArrowRight => VK_RIGHT,
        Named::Home => VK_HOME,
        Named::End => VK_END,
        Named::PageUp => VK_PRIOR,
        Named::PageDown => VK_NEXT,
        Named::ContextMenu => VK_APPS,
    }
}

fn modifier_vk(m: Modifier) -> VIRTUAL_KEY {
    match m {
        Modifier::Shift => VK_SHIFT,
        Modifier::Control => VK_CONTROL,
        Modifier::Alt => VK_MENU,
        Modifier::Meta => VK_LWIN,
    }
}

/// Keys of the navigation block (not the keypad's twins) and the Windows and menu keys are
/// "extended": without the flag, an arrow arrives as the keypad's.
fn extended(vk: VIRTUAL_KEY) -> bool {
    [
        VK_INSERT, VK_DELETE, VK_HOME, VK_END, VK_PRIOR, VK_NEXT, VK_UP, VK_DOWN, VK_LEFT, VK_RIGHT, VK_LWIN,
        VK_APPS,
    ]
    .contains(&vk)
}

fn key(vk: VIRTUAL_KEY, up: bool) -> INPUT {
    let mut flags = if up { KEYEVENTF_KEYUP } else { KEYBD_EVENT_FLAGS(0) };
    if extended(vk) {
        flags |= KEYEVENTF_EXTENDEDKEY;
    }
    // The scan code too, for apps that read it rather than the virtual key.
    // SAFETY: a plain Win32 call with values.
    let scan = unsafe { MapVirtualKeyW(u32::from(vk.0), MAPVK_VK_TO_VSC) };
    keyboard(KEYBDINPUT {
        wVk: vk,
        wScan: u16::try_from(scan).unwrap_or(0),
        dwFlags: flags,
        ..Default::default()
    })
}

fn unicode(unit: u16, up: bool) -> INPUT {
    let flags = if up { KEYEVENTF_UNICODE | KEYEVENTF_KEYUP } else { KEYEVENTF_UNICODE };
    keyboard(KEYBDINPUT { wVk: VIRTUAL_KEY(0), wScan: unit, dwFlags: flags, ..Default::default() })
}

fn keyboard(ki: KEYBDINPUT) -> INPUT {
    INPUT { r#type: INPUT_KEYBOARD, Anonymous: INPUT_0 { ki } }
}

/// A mouse event where the pointer is (no move), with `data` the wheel's units.
fn mouse(flags: MOUSE_EVENT_FLAGS, data: i32) -> INPUT {
    // The wheel's units are signed, carried in an unsigned field.
    let mi = MOUSEINPUT { mouseData: data as u32, dwFlags: flags, ..Default::default() };
    INPUT { r#type: INPUT_MOUSE, Anonymous: INPUT_0 { mi } }
}

/// Sends `inputs` as one uninterrupted sequence.
fn send(inputs: &[INPUT]) -> Result<(), CallError> {
    if inputs.is_empty() {
        return Ok(());
    }
    let size = std::mem::size_of::<INPUT>() as i32;
    // SAFETY: `inputs` is a slice of initialised INPUTs and `size` is their size.
    let sent = unsafe { SendInput(inputs, size) };
    if sent as usize == inputs.len() {
        Ok(())
    } else {
        Err(CallError::Platform(format!(
            "SendInput inserted {sent} of {} events: input was blocked (the window may belong to an \
             elevated app, or the desktop is locked)",
            inputs.len()
        )))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pixels_become_wheel_units() {
        assert_eq!(units(100.0), Some(120));
        assert_eq!(units(-50.0), Some(-60));
        assert_eq!(units(0.4), Some(0));
        assert_eq!(units(f64::NAN), None);
        assert_eq!(units(1e300), Some(i32::MAX));
    }

    #[test]
    fn function_keys_are_consecutive() {
        let f = |n| key_press(&Chord { modifiers: vec![], key: Key::Function(n) });
        assert!(matches!(f(1), Press::Vk { vk: VK_F1, shift: false }));
        assert!(matches!(f(24), Press::Vk { vk: VK_F24, shift: false }));
    }
}
