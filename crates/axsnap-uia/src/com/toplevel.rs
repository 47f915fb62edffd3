//! Top-level windows through Win32: which there are (front first), a window's frame, and the
//! requests to move, size, show or close one.
//!
//! (Named `toplevel`, not `windows`, so that it never shadows the `windows` crate.)

use std::collections::HashMap;
use std::ffi::c_void;
use std::mem::size_of;

use axsnap_desktop::{Frame, WindowOp};
use windows::core::{BOOL, PWSTR};
use windows::Win32::Foundation::{CloseHandle, HWND, LPARAM, RECT, WPARAM};
use windows::Win32::Graphics::Dwm::{DwmGetWindowAttribute, DWMWA_CLOAKED};
use windows::Win32::System::Threading::{
    OpenProcess, QueryFullProcessImageNameW, PROCESS_NAME_WIN32, PROCESS_QUERY_LIMITED_INFORMATION,
};
use windows::Win32::UI::WindowsAndMessaging::*;

use super::input;
use crate::automation::{CallError, TopWindow};

/// A window handle from the integer the trait carries.
pub(crate) fn hwnd(h: i64) -> HWND {
    HWND(h as isize as *mut c_void)
}

/// The integer the trait carries for a window handle.
fn handle(h: HWND) -> i64 {
    h.0 as isize as i64
}

/// Whether `h` names a window now.
pub(crate) fn exists(h: i64) -> bool {
    // SAFETY: IsWindow takes any value and says whether it is a window.
    unsafe { IsWindow(Some(hwnd(h))) }.as_bool()
}

/// The visible, titled top-level windows, front first: not tool windows (floating palettes,
/// which are no app's window of their own) and not cloaked ones (on another virtual desktop,
/// or suspended Store apps, which are "visible" but not shown).
pub(crate) fn list() -> Vec<TopWindow> {
    let mut all: Vec<HWND> = Vec::new();
    // SAFETY: `collect` only pushes into the Vec whose address is passed, which outlives the
    // call; EnumWindows calls it synchronously on this thread.
    let _ = unsafe { EnumWindows(Some(collect), LPARAM(&mut all as *mut Vec<HWND> as isize)) };
    // SAFETY: takes no argument.
    let front = unsafe { GetForegroundWindow() };
    let mut names: HashMap<u32, String> = HashMap::new();
    let mut out = Vec::new();
    for h in all {
        // SAFETY: a query on a handle, which fails harmlessly once the window is gone.
        if !unsafe { IsWindowVisible(h) }.as_bool() {
            continue;
        }
        // SAFETY: as above.
        let ex_style = WINDOW_EX_STYLE(unsafe { GetWindowLongW(h, GWL_EXSTYLE) } as u32);
        let mut cloaked: u32 = 0;
        // SAFETY: DWMWA_CLOAKED is a u32, written into `cloaked` whose size is passed.
        let got = unsafe {
            DwmGetWindowAttribute(
                h,
                DWMWA_CLOAKED,
                (&mut cloaked as *mut u32).cast(),
                size_of::<u32>() as u32,
            )
        };
        let cloaked = got.is_ok() && cloaked != 0;
        let mut process_id = 0u32;
        // SAFETY: writes the owner's id into `process_id`.
        unsafe { GetWindowThreadProcessId(h, Some(&mut process_id)) };
        let (title, class_name) = (title(h), class(h));
        if title.is_empty() || cloaked || ex_style.contains(WS_EX_TOOLWINDOW) {
            continue;
        }
        let process_name = names.entry(process_id).or_insert_with(|| process_name(process_id)).clone();
        out.push(TopWindow {
            hwnd: handle(h),
            dialog: class_name == "#32770",
            title,
            class_name,
            process_id,
            process_name,
            active: h == front,
            visible: true,
        });
    }
    out
}

unsafe extern "system" fn collect(h: HWND, list: LPARAM) -> BOOL {
    // SAFETY: `list` is the address of the Vec `list()` passed to EnumWindows, alive and not
    // otherwise borrowed while EnumWindows runs.
    let list = unsafe { &mut *(list.0 as *mut Vec<HWND>) };
    list.push(h);
    BOOL::from(true)
}

fn title(h: HWND) -> String {
    // SAFETY: plain queries; the buffer is ours and its length is passed with it.
    unsafe {
        let n = GetWindowTextLengthW(h).clamp(0, 32_767) as usize;
        if n == 0 {
            return String::new();
        }
        let mut buf = vec![0u16; n + 1];
        let got = GetWindowTextW(h, &mut buf).clamp(0, n as i32) as usize;
        String::from_utf16_lossy(&buf[..got])
    }
}

fn class(h: HWND) -> String {
    // Class names are at most 256 characters.
    let mut buf = [0u16; 257];
    // SAFETY: the buffer is ours and its length is passed with it.
    let got = unsafe { GetClassNameW(h, &mut buf) }.clamp(0, 256) as usize;
    String::from_utf16_lossy(&buf[..got])
}

/// A process's executable file name (`notepad.exe`), empty when it cannot be asked (a
/// protected process, one that just exited).
fn process_name(pid: u32) -> String {
    // SAFETY: the handle is closed below; the buffer is ours and its length passed with it.
    let path = unsafe {
        let Ok(process) = OpenProcess(PROCESS_QUERY_LIMITED_INFORMATION, false, pid) else {
            return String::new();
        };
        let mut buf = vec![0u16; 1024];
        let mut len = buf.len() as u32;
        let got = QueryFullProcessImageNameW(process, PROCESS_NAME_WIN32, PWSTR(buf.as_mut_ptr()), &mut len);
        let _ = CloseHandle(process);
        if got.is_err() {
            return String::new();
        }
        String::from_utf16_lossy(&buf[..(len as usize).min(buf.len())])
    };
    path.rsplit(['\\', '/']).next().unwrap_or_default().to_string()
}

/// Window `h`'s frame: its window rectangle, and whether it is minimized, maximized, active.
pub(crate) fn frame(h: i64) -> Result<Frame, CallError> {
    if !exists(h) {
        return Err(CallError::Gone);
    }
    let w = hwnd(h);
    let mut r = RECT::default();
    // SAFETY: plain queries on a handle; `r` is ours.
    unsafe { GetWindowRect(w, &mut r) }.map_err(|e| CallError::Platform(format!("GetWindowRect: {e}")))?;
    // SAFETY: plain queries on a handle.
    let (iconic, hidden, maximized, front) = unsafe {
        (IsIconic(w).as_bool(), !IsWindowVisible(w).as_bool(), IsZoomed(w).as_bool(), GetForegroundWindow())
    };
    Ok(Frame {
        x: r.left,
        y: r.top,
        width: u32::try_from(r.right.saturating_sub(r.left)).unwrap_or(0),
        height: u32::try_from(r.bottom.saturating_sub(r.top)).unwrap_or(0),
        minimized: iconic || hidden,
        maximized,
        active: front == w,
    })
}

/// Brings window `h` to the front (restored first when minimized), and says whether it is
/// there: Windows refuses the foreground to a process that did not get the last input.
pub(crate) fn bring_to_front(h: i64) -> Result<(), CallError> {
    if !exists(h) {
        return Err(CallError::Gone);
    }
    let w = hwnd(h);
    // SAFETY: plain window calls on a handle.
    let front = unsafe {
        if IsIconic(w).as_bool() {
            let _ = ShowWindow(w, SW_RESTORE);
        }
        SetForegroundWindow(w).as_bool()
    };
    // The foreground lock lets the process that sent the last input take the foreground: a
    // press of a key no layout assigns makes this process that one, and it tries once more.
    // SAFETY: as above.
    let front = front || (input::tap_unassigned_key().is_ok() && unsafe { SetForegroundWindow(w) }.as_bool());
    // SAFETY: takes no argument.
    if front || unsafe { GetForegroundWindow() } == w {
        Ok(())
    } else {
        Err(CallError::Platform("Windows did not bring the window to the front (foreground lock)".into()))
    }
}

/// Carries out `op` through Win32 (close is the caller's, which tries WindowPattern first).
pub(crate) fn request(h: i64, op: WindowOp) -> Result<(), CallError> {
    if !exists(h) {
        return Err(CallError::Gone);
    }
    let w = hwnd(h);
    let show = |cmd| {
        // SAFETY: a plain window call; its answer is the window's previous visibility, not an
        // error.
        let _ = unsafe { ShowWindow(w, cmd) };
        Ok(())
    };
    let place = |x, y, cx, cy, flags| {
        // SAFETY: a plain window call on a handle.
        unsafe { SetWindowPos(w, None, x, y, cx, cy, flags | SWP_NOZORDER | SWP_NOACTIVATE) }
            .map_err(|e| CallError::Platform(format!("SetWindowPos: {e}")))
    };
    match op {
        WindowOp::Focus => bring_to_front(h),
        WindowOp::Close => post_close(h),
        WindowOp::Move { x, y } => place(x, y, 0, 0, SWP_NOSIZE),
        WindowOp::Resize { width, height } => {
            let cx = i32::try_from(width).unwrap_or(i32::MAX);
            let cy = i32::try_from(height).unwrap_or(i32::MAX);
            place(0, 0, cx, cy, SWP_NOMOVE)
        }
        WindowOp::Minimize => show(SW_MINIMIZE),
        WindowOp::Maximize => show(SW_MAXIMIZE),
        WindowOp::Restore => show(SW_RESTORE),
    }
}

/// Asks window `h` to close as its close button does (the app may ask to save first).
pub(crate) fn post_close(h: i64) -> Result<(), CallError> {
    // SAFETY: posting a message with no pointers in it.
    unsafe { PostMessageW(Some(hwnd(h)), WM_CLOSE, WPARAM(0), LPARAM(0)) }
        .map_err(|e| CallError::Platform(format!("PostMessageW(WM_CLOSE): {e}")))
}
