//! Desktop windows as the X server and its window manager see them: the X window behind an
//! accessible window, its place, size and state, and the requests that focus, close, move,
//! resize, minimize, maximize or restore it (EWMH, the window managers' shared protocol).
//!
//! AT-SPI says what is inside a window but cannot move or close it; that is the window
//! manager's. Requests go to it as EWMH client messages, so it decorates, places and stacks as
//! it would for a user. Without a window manager (a bare Xvfb) focus, close, move and resize
//! are done on the window itself, and minimize and maximize are refused: nothing would draw
//! or restore them.
//!
//! The calls here are blocking X requests on a local socket (well under a millisecond each);
//! waiting for their effect is the caller's, which polls [`Screen::frame`].

use x11rb::connection::Connection;
use x11rb::properties::WmSizeHints;
use x11rb::protocol::xproto::{
    AtomEnum, ClientMessageEvent, ConfigureWindowAux, ConnectionExt as _, EventMask, InputFocus, MapState,
    StackMode, Window,
};
use x11rb::rust_connection::RustConnection;
use x11rb::CURRENT_TIME;

use axsnap_desktop::{DesktopError, Frame, SizeLimits, WindowControl, WindowOp};

use crate::error::AtspiError;

x11rb::atom_manager! {
    /// The atoms this module speaks.
    Atoms: AtomsCookie {
        _NET_SUPPORTING_WM_CHECK,
        _NET_SUPPORTED,
        _NET_CLIENT_LIST,
        _NET_ACTIVE_WINDOW,
        _NET_CLOSE_WINDOW,
        _NET_MOVERESIZE_WINDOW,
        _NET_WM_NAME,
        _NET_WM_PID,
        _NET_WM_STATE,
        _NET_WM_STATE_MAXIMIZED_VERT,
        _NET_WM_STATE_MAXIMIZED_HORZ,
        _NET_WM_STATE_HIDDEN,
        _NET_FRAME_EXTENTS,
        WM_STATE,
        WM_CHANGE_STATE,
        WM_PROTOCOLS,
        WM_DELETE_WINDOW,
        UTF8_STRING,
    }
}

/// A connection to the X display in `DISPLAY`, and what its window manager supports.
pub struct Screen {
    conn: RustConnection,
    root: Window,
    atoms: Atoms,
    /// The window manager's name, when one runs.
    wm: Option<String>,
    /// The EWMH atoms it says it supports.
    supported: Vec<u32>,
}

impl std::fmt::Debug for Screen {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Screen").field("root", &self.root).field("wm", &self.wm).finish()
    }
}

fn x11<E: std::fmt::Display>(what: &'static str) -> impl Fn(E) -> AtspiError {
    move |e| AtspiError::Display(format!("{what}: {e}"))
}

impl Screen {
    /// Connects to X display `display` (`None`: the one in `DISPLAY`) and asks which window
    /// manager runs there.
    pub fn open(display: Option<&str>) -> Result<Screen, AtspiError> {
        let (conn, n) = x11rb::connect(display).map_err(|e| match display {
            Some(d) => AtspiError::Display(format!("cannot connect to X display {d} ({e})")),
            None => AtspiError::Display(format!(
                "cannot connect to the X display in DISPLAY ({e}); is DISPLAY set?"
            )),
        })?;
        let root = conn
            .setup()
            .roots
            .get(n)
            .map(|s| s.root)
            .ok_or_else(|| AtspiError::Display(format!("the X display has no screen {n}")))?;
        let atoms =
            Atoms::new(&conn).map_err(x11("interning atoms"))?.reply().map_err(x11("interning atoms"))?;
        let mut screen = Screen { conn, root, atoms, wm: None, supported: Vec::new() };
        screen.wm = screen.window_manager_name();
        if screen.wm.is_some() {
            screen.supported = screen.u32s(root, screen.atoms._NET_SUPPORTED, AtomEnum::ATOM.into());
        }
        Ok(screen)
    }

    /// The window manager's name (EWMH's check window), or `None` when none runs.
    pub fn window_manager(&self) -> Option<&str> {
        self.wm.as_deref()
    }

    fn window_manager_name(&self) -> Option<String> {
        let a = &self.atoms;
        let check = *self.u32s(self.root, a._NET_SUPPORTING_WM_CHECK, AtomEnum::WINDOW.into()).first()?;
        // A stale property of a window manager that exited names a window that is gone or
        // does not point back at itself.
        let own = self.u32s(check, a._NET_SUPPORTING_WM_CHECK, AtomEnum::WINDOW.into());
        if own.first() != Some(&check) {
            return None;
        }
        Some(self.text(check, a._NET_WM_NAME).unwrap_or_else(|| "a window manager".into()))
    }

    /// The 32-bit values of property `prop` of `win` (none when it is unset or the window is
    /// gone).
    fn u32s(&self, win: Window, prop: u32, type_: u32) -> Vec<u32> {
        let reply =
            self.conn.get_property(false, win, prop, type_, 0, 1 << 16).ok().and_then(|c| c.reply().ok());
        reply.and_then(|r| r.value32().map(|v| v.collect())).unwrap_or_default()
    }

    /// A text property (UTF-8 `_NET_WM_NAME`-style, else Latin-1 `WM_NAME`).
    fn text(&self, win: Window, prop: u32) -> Option<String> {
        let r = self.conn.get_property(false, win, prop, AtomEnum::ANY, 0, 1 << 14).ok()?.reply().ok()?;
        if r.value.is_empty() {
            return None;
        }
        if r.type_ == self.atoms.UTF8_STRING {
            Some(String::from_utf8_lossy(&r.value).into_owned())
        } else {
            Some(r.value.iter().map(|b| char::from(*b)).collect())
        }
    }

    /// A window's title.
    fn title(&self, win: Window) -> Option<String> {
        self.text(win, self.atoms._NET_WM_NAME).or_else(|| self.text(win, AtomEnum::WM_NAME.into()))
    }

    /// The app windows on screen: the window manager's client list, or without one the
    /// root's mapped children.
    fn clients(&self) -> Vec<Window> {
        if self.wm.is_some() {
            let list = self.u32s(self.root, self.atoms._NET_CLIENT_LIST, AtomEnum::WINDOW.into());
            if !list.is_empty() {
                return list;
            }
        }
        let Some(tree) = self.conn.query_tree(self.root).ok().and_then(|c| c.reply().ok()) else {
            return Vec::new();
        };
        tree.children
            .into_iter()
            .filter(|w| {
                let attrs = self.conn.get_window_attributes(*w).ok().and_then(|c| c.reply().ok());
                attrs.is_some_and(|a| a.map_state == MapState::VIEWABLE && !a.override_redirect)
            })
            .collect()
    }

    /// The X window of process `pid` titled `title`: the one with that title, else its only
    /// window. `None` when the process shows no such window.
    pub fn find(&self, pid: Option<u32>, title: &str) -> Option<Window> {
        let own: Vec<(Window, String)> = self
            .clients()
            .into_iter()
            .filter(|w| {
                let p = self.u32s(*w, self.atoms._NET_WM_PID, AtomEnum::CARDINAL.into());
                pid.is_none_or(|pid| p.first() == Some(&pid))
            })
            .map(|w| (w, self.title(w).unwrap_or_default()))
            .collect();
        if let Some((w, _)) = own.iter().find(|(_, t)| !title.is_empty() && t == title) {
            return Some(*w);
        }
        let mut holding = own.iter().filter(|(_, t)| !title.is_empty() && t.contains(title));
        if let (Some((w, _)), None) = (holding.next(), holding.next()) {
            return Some(*w);
        }
        match (pid, own.as_slice()) {
            (Some(_), [(w, _)]) => Some(*w),
            _ => None,
        }
    }

    /// Where `win` is and what state it is in.
    pub fn frame(&self, win: Window) -> Result<Frame, AtspiError> {
        let gone = |_| AtspiError::Gone(format!("X window {win:#x} is gone"));
        let geometry =
            self.conn.get_geometry(win).map_err(x11("reading a window's size"))?.reply().map_err(gone)?;
        let at = self
            .conn
            .translate_coordinates(win, self.root, 0, 0)
            .map_err(x11("reading a window's place"))?
            .reply()
            .map_err(gone)?;
        // The frame the window manager draws: left, right, top, bottom.
        let extents = self.u32s(win, self.atoms._NET_FRAME_EXTENTS, AtomEnum::CARDINAL.into());
        let (left, top) = match extents.as_slice() {
            [l, _, t, _] => (*l as i32, *t as i32),
            _ => (0, 0),
        };
        let a = &self.atoms;
        let states = self.u32s(win, a._NET_WM_STATE, AtomEnum::ATOM.into());
        let iconic = self.u32s(win, a.WM_STATE, a.WM_STATE).first() == Some(&3);
        let active = match self.wm {
            Some(_) => {
                self.u32s(self.root, a._NET_ACTIVE_WINDOW, AtomEnum::WINDOW.into()).first() == Some(&win)
            }
            None => self.has_focus(win),
        };
        Ok(Frame {
            x: i32::from(at.dst_x) - left,
            y: i32::from(at.dst_y) - top,
            width: u32::from(geometry.width),
            height: u32::from(geometry.height),
            minimized: iconic || states.contains(&a._NET_WM_STATE_HIDDEN),
            maximized: states.contains(&a._NET_WM_STATE_MAXIMIZED_VERT)
                && states.contains(&a._NET_WM_STATE_MAXIMIZED_HORZ),
            active,
        })
    }

    /// The smallest and largest sizes the app allows (its `WM_NORMAL_HINTS`), when it says.
    pub fn size_limits(&self, win: Window) -> SizeLimits {
        let hints =
            WmSizeHints::get_normal_hints(&self.conn, win).ok().and_then(|c| c.reply().ok()).flatten();
        let size = |s: Option<(i32, i32)>| s.map(|(w, h)| (w.max(0) as u32, h.max(0) as u32));
        hints.map(|h| SizeLimits { min: size(h.min_size), max: size(h.max_size) }).unwrap_or_default()
    }

    /// Whether the keyboard focus is in `win` (it or a window inside it).
    fn has_focus(&self, win: Window) -> bool {
        let Some(mut focus) = self.conn.get_input_focus().ok().and_then(|c| c.reply().ok()).map(|r| r.focus)
        else {
            return false;
        };
        // Up the tree from the focus to the root.
        for _ in 0..32 {
            if focus == win {
                return true;
            }
            match self.conn.query_tree(focus).ok().and_then(|c| c.reply().ok()) {
                Some(t) if t.parent != 0 && focus != self.root => focus = t.parent,
                _ => return false,
            }
        }
        false
    }

    /// Whether the window manager says it supports EWMH atom `atom`.
    fn supports(&self, atom: u32) -> bool {
        self.supported.contains(&atom)
    }

    /// A client message about `win`, to the root (for the window manager) or to `win` itself.
    fn message(&self, to: Window, win: Window, type_: u32, data: [u32; 5]) -> Result<(), AtspiError> {
        let event = ClientMessageEvent::new(32, win, type_, data);
        let mask = if to == self.root {
            EventMask::SUBSTRUCTURE_REDIRECT | EventMask::SUBSTRUCTURE_NOTIFY
        } else {
            EventMask::NO_EVENT
        };
        self.conn.send_event(false, to, mask, event).map_err(x11("sending a window request"))?;
        Ok(())
    }

    /// Asks for `op` on `win`. Refused when it needs a window manager and none runs.
    pub fn request(&self, win: Window, op: WindowOp) -> Result<(), AtspiError> {
        let a = &self.atoms;
        // EWMH's "source indication" 2: a pager or tool acting for the user, which window
        // managers obey without focus-stealing checks.
        const USER: u32 = 2;
        if op.needs_wm() && self.wm.is_none() {
            return Err(AtspiError::NoWindowManager(format!(
                "cannot {} a window: no window manager runs on this X display, and only one can {0} \
                 and restore windows (scripts/desktop-session starts openbox)",
                op.name()
            )));
        }
        let managed = self.wm.is_some();
        match op {
            WindowOp::Focus if managed && self.supports(a._NET_ACTIVE_WINDOW) => {
                self.message(self.root, win, a._NET_ACTIVE_WINDOW, [USER, CURRENT_TIME, 0, 0, 0])?
            }
            WindowOp::Focus => {
                let raise = ConfigureWindowAux::new().stack_mode(StackMode::ABOVE);
                self.conn.configure_window(win, &raise).map_err(x11("raising a window"))?;
                self.conn
                    .set_input_focus(InputFocus::PARENT, win, CURRENT_TIME)
                    .map_err(x11("focusing a window"))?;
            }
            WindowOp::Close if managed && self.supports(a._NET_CLOSE_WINDOW) => {
                self.message(self.root, win, a._NET_CLOSE_WINDOW, [CURRENT_TIME, USER, 0, 0, 0])?
            }
            WindowOp::Close => {
                let protocols = self.u32s(win, a.WM_PROTOCOLS, AtomEnum::ATOM.into());
                if !protocols.contains(&a.WM_DELETE_WINDOW) {
                    return Err(AtspiError::Unsupported(
                        "the window takes no close request (it does not speak WM_DELETE_WINDOW); \
                         close it with its own controls"
                            .into(),
                    ));
                }
                self.message(win, win, a.WM_PROTOCOLS, [a.WM_DELETE_WINDOW, CURRENT_TIME, 0, 0, 0])?
            }
            WindowOp::Move { .. } | WindowOp::Resize { .. }
                if managed && self.supports(a._NET_MOVERESIZE_WINDOW) =>
            {
                // Flags: bits 8–11 say which of x, y, width, height are given; bits 12–13 the
                // source; gravity 0 is the window's own (north-west unless it says otherwise).
                let (flags, [x, y, w, h]) = match op {
                    WindowOp::Move { x, y } => (0b0011, [x as u32, y as u32, 0, 0]),
                    WindowOp::Resize { width, height } => (0b1100, [0, 0, width, height]),
                    _ => (0, [0; 4]),
                };
                let head = (flags << 8) | (USER << 12);
                self.message(self.root, win, a._NET_MOVERESIZE_WINDOW, [head, x, y, w, h])?
            }
            WindowOp::Move { x, y } => {
                self.conn
                    .configure_window(win, &ConfigureWindowAux::new().x(x).y(y))
                    .map_err(x11("moving a window"))?;
            }
            WindowOp::Resize { width, height } => {
                let size = ConfigureWindowAux::new().width(width).height(height);
                self.conn.configure_window(win, &size).map_err(x11("resizing a window"))?;
            }
            WindowOp::Minimize => {
                // ICCCM's request to iconify: WM_CHANGE_STATE with IconicState (3).
                self.message(self.root, win, a.WM_CHANGE_STATE, [3, 0, 0, 0, 0])?
            }
            WindowOp::Maximize => self.maximized(win, true)?,
            WindowOp::Restore => {
                let frame = self.frame(win)?;
                if frame.maximized {
                    self.maximized(win, false)?;
                }
                if frame.minimized {
                    self.message(self.root, win, a._NET_ACTIVE_WINDOW, [USER, CURRENT_TIME, 0, 0, 0])?;
                }
            }
        }
        self.conn.flush().map_err(x11("sending a window request"))?;
        Ok(())
    }

    /// Adds (or removes) both maximized states.
    fn maximized(&self, win: Window, on: bool) -> Result<(), AtspiError> {
        let a = &self.atoms;
        let data = [u32::from(on), a._NET_WM_STATE_MAXIMIZED_VERT, a._NET_WM_STATE_MAXIMIZED_HORZ, 2, 0];
        self.message(self.root, win, a._NET_WM_STATE, data)
    }
}

/// A window on the X display, as `axsnap-desktop` asks for its frame and its changes.
#[derive(Debug)]
pub struct XControl {
    screen: Screen,
    window: Window,
}

impl XControl {
    /// The X window `window` of `screen`.
    pub fn new(screen: Screen, window: Window) -> XControl {
        XControl { screen, window }
    }
}

impl WindowControl for XControl {
    fn manager(&self) -> Option<&str> {
        self.screen.window_manager()
    }

    fn frame(&self) -> Result<Frame, DesktopError> {
        Ok(self.screen.frame(self.window)?)
    }

    fn request(&self, op: WindowOp) -> Result<(), DesktopError> {
        Ok(self.screen.request(self.window, op)?)
    }

    fn size_limits(&self) -> SizeLimits {
        self.screen.size_limits(self.window)
    }
}
