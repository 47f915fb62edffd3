"""`axsnap mcp --desktop` driven by the official Python SDK over stdio, on a real GTK app
(gtk3-widget-factory) in a private desktop session (scripts/desktop-session: Xvfb, openbox, a
D-Bus session bus, the AT-SPI bus), and the same tests on a recording of that app's windows
(fixtures/desktop/widget-factory.json: trees recorded over AT-SPI with `axsnap desktop snapshot
--record`, their frames and size limits read on the display), replayed by `--recording` with no
desktop at all: the path the Windows and macOS backends' upper half is tested by. It lists the desktop's windows, takes a window's snapshot, and
toggles a check button: the answer is a diff with exactly that checkbox's state change. Errors
say what to do next (an unknown window, no accessibility bus), and without --desktop the tool
list is the browser's alone.

Xvfb, the AT-SPI bus launcher and gtk3-widget-factory must be installed (scripts/test installs
them): a missing one fails these tests, it does not skip them.
"""

from __future__ import annotations

import contextlib
import os
import re
import shlex
import shutil
import subprocess
import time
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import anyio
import pytest
from answers import error_code, full_text
from conftest import STRUCTURED, REPO, browser_path, connect, stop_group, text_of
from mcp.client.stdio import StdioServerParameters
from mcp.shared.exceptions import MCPError
from test_axsnap_agent import check_text_says

pytestmark = pytest.mark.anyio

SESSION_SCRIPT = REPO / "scripts" / "desktop-session"
APP = "gtk3-widget-factory"
RECORDING = REPO / "fixtures" / "desktop" / "widget-factory.json"
# How long the app may take to show its window on the accessibility bus.
APP_TIMEOUT = 30.0
# What the desktop tools add to the tool list.
WINDOWED = {"snapshot", "find", "wait_for", "click", "hover", "type", "fill", "press", "select", "check", "scroll"}


def parse_env(script: str) -> tuple[dict[str, str], list[str]]:
    """The `export K=V ...;` and `unset K ...;` lines `desktop-session --print` prints."""
    exports: dict[str, str] = {}
    unsets: list[str] = []
    for line in script.splitlines():
        words = shlex.split(line.strip().rstrip(";"))
        if not words:
            continue
        if words[0] == "export":
            for w in words[1:]:
                key, _, value = w.partition("=")
                exports[key] = value
        elif words[0] == "unset":
            unsets.extend(words[1:])
    return exports, unsets


@contextlib.contextmanager
def desktop_session() -> Iterator[dict[str, str]]:
    """A private desktop session (scripts/desktop-session --print, with openbox): the environment
    of a process in it; stopped, with everything it started, on the way out."""
    for tool in ("Xvfb", "dbus-daemon", "openbox"):
        if shutil.which(tool) is None:
            pytest.fail(f"{tool} is not installed (Debian: scripts/setup.sh ensure_desktop installs it)")
    if not os.access(SESSION_SCRIPT, os.X_OK):
        pytest.fail(f"{SESSION_SCRIPT} is missing or not executable")
    started = subprocess.run(
        [str(SESSION_SCRIPT), "--print"], capture_output=True, text=True, timeout=180, check=False
    )
    if started.returncode != 0:
        pytest.fail(f"desktop-session --print failed ({started.returncode}):\n{started.stderr}")
    exports, unsets = parse_env(started.stdout)
    session_dir = exports.get("AXSNAP_DESKTOP_SESSION", "")
    try:
        assert exports.get("DISPLAY") and exports.get("DBUS_SESSION_BUS_ADDRESS"), started.stdout
        env = {k: v for k, v in os.environ.items() if k not in unsets}
        env.update(exports)
        yield env
    finally:
        if session_dir:
            subprocess.run([str(SESSION_SCRIPT), "--stop", session_dir], capture_output=True, timeout=60, check=False)


@pytest.fixture(scope="module")
def desktop_env(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, str]]:
    """A private desktop session with gtk3-widget-factory running in it: the environment of a
    process in that session."""
    if shutil.which(APP) is None:
        pytest.fail(f"{APP} is not installed (Debian: scripts/setup.sh ensure_desktop installs it)")
    logs = tmp_path_factory.mktemp("desktop")
    with desktop_session() as env:
        with open(logs / "app.log", "wb") as log:
            app = subprocess.Popen(
                [APP], env=env, stdin=subprocess.DEVNULL, stdout=log, stderr=subprocess.STDOUT,
                start_new_session=True,
            )  # fmt: skip
        try:
            time.sleep(0.2)
            if app.poll() is not None:
                pytest.fail(f"{APP} exited ({app.returncode}):\n{(logs / 'app.log').read_text()}")
            yield env
        finally:
            stop_group(app)


def server_params(axsnap_bin: Path, env: dict[str, str], *extra: str) -> StdioServerParameters:
    argv = [str(axsnap_bin), "mcp", "--browser", browser_path(), *extra]
    return StdioServerParameters(command=argv[0], args=argv[1:], env=env)


@pytest.fixture(params=["atspi", "recorded"])
def platform(request: pytest.FixtureRequest) -> tuple[str, dict[str, str], tuple[str, ...]]:
    """Which desktop the server works on, the environment it runs in and its options: the real
    AT-SPI session, or the recording replayed with no display and no bus."""
    if request.param == "atspi":
        return "atspi", request.getfixturevalue("desktop_env"), ()
    env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "AT_SPI_BUS_ADDRESS", "WAYLAND_DISPLAY")}
    env["DBUS_SESSION_BUS_ADDRESS"] = "unix:path=/nonexistent/bus"
    return "recorded", env, ("--recording", str(RECORDING))


@pytest.fixture
async def desktop_client(axsnap_bin: Path, platform) -> AsyncIterator:
    """A Python SDK session with `axsnap mcp --desktop` on `platform`, with the JSON form
    (`--structured-content`) the tests read windows from; `call` checks the text says it."""
    _, env, extra = platform
    async with connect(server_params(axsnap_bin, env, "--desktop", *extra, STRUCTURED)) as client:
        yield client


def recorded(platform) -> bool:
    """Whether the server replays the recording (no process runs its apps)."""
    return platform[0] == "recorded"


def kill(platform, pid: int) -> None:
    """Ends a launched app (a recorded one has no process)."""
    if not recorded(platform):
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, 15)


async def call(client, tool: str, **args) -> tuple[str, dict]:
    r = await client.call_tool(tool, args)
    assert not r.is_error, f"{tool} {args}: {text_of(r)}"
    s = r.structured_content or {}
    if s:
        check_text_says(r, s)
    return text_of(r), s


async def call_error(client, tool: str, code: str, **args) -> str:
    r = await client.call_tool(tool, args)
    assert r.is_error, f"{tool} {args} should have failed: {text_of(r)}"
    assert error_code(r) == code, text_of(r)
    if r.structured_content is not None:
        assert r.structured_content["error"] == code, r.structured_content
    return text_of(r)


async def app_window(client) -> dict:
    """The widget factory's window, once the app shows it on the bus."""
    deadline = time.monotonic() + APP_TIMEOUT
    while True:
        text, s = await call(client, "desktop_windows")
        windows = [w for w in s["windows"] if w["app"] == APP and w["role"] == "frame"]
        if windows:
            w = windows[0]
            assert set(w) == {"id", "app", "title", "role", "active"}, w
            assert re.fullmatch(r"w\d+", w["id"]), w
            assert f'{w["id"]} frame "{w["title"]}" app "{APP}"' in text, text
            return w
        assert time.monotonic() < deadline, f"no {APP} window after {APP_TIMEOUT} s: {text}"
        await anyio.sleep(0.3)


def enabled_checkbutton(snapshot_text: str) -> tuple[str, bool]:
    """The ref of a `checkbox "checkbutton"` that is neither disabled nor mixed (GTK keeps a
    mixed one mixed when toggled), and whether it is checked."""
    for m in re.finditer(r'^\s*checkbox "checkbutton" \[(e\d+)\](.*)$', snapshot_text, re.M):
        flags = m.group(2)
        if "[disabled]" not in flags and "[mixed]" not in flags:
            return m.group(1), "[checked]" in flags
    raise AssertionError(f'no enabled, unmixed checkbox "checkbutton" in:\n{snapshot_text}')


def change_lines(text: str) -> list[str]:
    """A diff's lines that say what changed (not its `#` header lines)."""
    return [line for line in text.splitlines() if line.strip() and not line.startswith("#")]


async def test_windows_snapshot_and_a_checkbox_toggled_as_a_diff(desktop_client) -> None:
    window = await app_window(desktop_client)
    wid = window["id"]

    text, s = await call(desktop_client, "snapshot", window=wid, max_tokens=0)
    assert (s["kind"], s["window"]) == ("full", wid), text
    ref, checked = enabled_checkbutton(text)

    # Toggle it: the answer is a diff of exactly that checkbox's state.
    for want in (not checked, checked):
        text, s = await call(desktop_client, "check", window=wid, ref=ref, checked=want)
        assert s["kind"] == "diff", text
        assert s["window"] == wid
        flip = "+checked" if want else "-checked"
        assert change_lines(text) == [f'~ {ref} checkbox "checkbutton": {flip}'], text

    # Nothing changed since: the snapshot says so in one line.
    text, s = await call(desktop_client, "snapshot", window=wid, max_tokens=0)
    assert s["kind"] == "unchanged", text

    # find works in the window too, and its refs are the snapshot's.
    _, s = await call(desktop_client, "find", window=wid, query="checkbutton checkbox", limit=20)
    assert ref in [h["ref"] for h in s["hits"]], s["hits"]

    # The window's refs are its own: without window, a call goes to the browser, which has
    # no page open here.
    r = await desktop_client.call_tool("check", {"ref": ref})
    assert r.is_error and error_code(r) == "no_page", text_of(r)


async def test_wait_for_in_a_window(desktop_client) -> None:
    window = await app_window(desktop_client)
    wid = window["id"]
    text, _ = await call(desktop_client, "snapshot", window=wid, max_tokens=0)
    ref, checked = enabled_checkbutton(text)

    # Text that is there: answered at once, with what was waited for, as the window's step.
    text, s = await call(desktop_client, "wait_for", window=wid, text="checkbutton")
    assert s["window"] == wid and s["kind"] == "unchanged", (s, text)
    assert 'for text "checkbutton"' in text, text

    # An element's state, after an action that set it.
    await call(desktop_client, "check", window=wid, ref=ref, checked=not checked)
    state = "unchecked" if checked else "checked"
    text, s = await call(desktop_client, "wait_for", window=wid, ref=ref, state=state)
    assert f"for {ref} to be {state}" in text, text
    await call(desktop_client, "check", window=wid, ref=ref, checked=checked)

    # Text that never comes: a timeout within the seconds given, saying what was waited for.
    started = time.monotonic()
    msg = await call_error(desktop_client, "wait_for", "timeout", window=wid, text="no such words here", seconds=1)
    assert time.monotonic() - started < 5, time.monotonic() - started
    assert "no such words here" in msg and "did not happen" in msg, msg

    # Nothing to wait for.
    with pytest.raises(MCPError, match="seconds"):
        await desktop_client.call_tool("wait_for", {"window": wid})


async def test_an_unknown_window_or_ref_says_what_to_do(desktop_client) -> None:
    window = await app_window(desktop_client)
    msg = await call_error(desktop_client, "snapshot", "no_window", window="w999")
    assert "w999" in msg and "desktop_windows" in msg, msg
    msg = await call_error(desktop_client, "click", "no_window", window="w999", ref="e1")
    assert "desktop_windows" in msg, msg
    # A ref no desktop snapshot gave out.
    await call(desktop_client, "snapshot", window=window["id"], max_tokens=0)
    msg = await call_error(desktop_client, "click", "unknown_ref", window=window["id"], ref="e99999")
    assert "snapshot" in msg and window["id"] in msg, msg


async def test_refusals_are_coded_alike_on_a_page_and_in_a_window(desktop_client, site) -> None:
    """One server, the same refusals on both surfaces: a button that takes no text, a key
    that is no key (in the same words: the core reads keys for both), a disabled element."""
    text, _ = await call(desktop_client, "navigate", url=site.url("/login"))
    m = re.search(r'button "Log in" \[(e\d+)\]', text)
    assert m, text
    msg = await call_error(desktop_client, "type", "not_a_text_field", ref=m.group(1), text="hello")
    assert '"Log in"' in msg and "not a text field" in msg, msg
    page_key = await call_error(desktop_client, "press", "bad_key", keys="Hyper+x")
    assert "Hyper" in page_key and "not a modifier" in page_key, page_key

    wid = (await app_window(desktop_client))["id"]
    text, _ = await call(desktop_client, "snapshot", window=wid, max_tokens=0)
    buttons = re.findall(r'^\s*button "([^"]+)" \[(e\d+)\]$', text, re.M)
    assert buttons, text
    name, ref = buttons[0]
    msg = await call_error(desktop_client, "type", "not_a_text_field", window=wid, ref=ref, text="hello")
    assert f'"{name}"' in msg and "not a text field" in msg, msg
    window_key = await call_error(desktop_client, "press", "bad_key", window=wid, keys="Hyper+x")
    assert window_key == page_key
    m = re.search(r'^\s*checkbox "checkbutton" \[(e\d+)\].*\[disabled\]', text, re.M)
    assert m, text
    msg = await call_error(desktop_client, "click", "disabled", window=wid, ref=m.group(1))
    assert "disabled" in msg, msg


LOGIN_APP = REPO / "crates" / "axsnap-atspi" / "tests" / "apps" / "login.py"


async def test_desktop_launch_answers_with_the_new_window(desktop_client, platform) -> None:
    """A command with arguments: its first window's snapshot, under a new window id that the
    windowed tools then take; an app that is no app, and one that exits, say so."""
    await app_window(desktop_client)
    text, s = await call(desktop_client, "desktop_launch", app="/usr/bin/python3", args=[str(LOGIN_APP)])
    try:
        wid = s["window"]
        assert re.fullmatch(r"w\d+", wid), s
        assert f"its window is {wid}" in text and "login.py" in text, text
        assert s["kind"] == "full" and 'window "Log in"' in text, text
        assert "[redacted]" in text and "hunter2" not in text, text
        _, w = await call(desktop_client, "desktop_windows")
        assert any(x["id"] == wid and x["app"] == "login.py" for x in w["windows"]), w
        m = re.search(r'button "Cancel" \[(e\d+)\]', text)
        assert m, text
        msg = await call_error(desktop_client, "type", "not_a_text_field", window=wid, ref=m.group(1), text="x")
        assert '"Cancel"' in msg, msg
    finally:
        kill(platform, s["pid"])
    msg = await call_error(desktop_client, "desktop_launch", "launch_failed", app="no-such-app-anywhere")
    if recorded(platform):
        assert "the recording launches only" in msg and "/usr/bin/python3" in msg, msg
    else:
        assert "desktop entry" in msg and "PATH" in msg, msg
        msg = await call_error(desktop_client, "desktop_launch", "launch_failed", app="false")
        assert "exited" in msg, msg
    with pytest.raises(MCPError, match="args"):
        await desktop_client.call_tool("desktop_launch", {"app": "true", "args": [1]})


LIMITED_APP = REPO / "crates" / "axsnap-atspi" / "tests" / "apps" / "limited.py"


async def test_a_fill_the_field_cannot_hold_is_no_effect(desktop_env: dict[str, str], axsnap_bin: Path) -> None:
    """On the real desktop: an entry that takes 5 characters, filled with 9, holds 5 (read back
    over the bus): the answer is no_effect saying what it holds, not a success."""
    async with connect(server_params(axsnap_bin, desktop_env, "--desktop", STRUCTURED)) as c:
        await app_window(c)  # the session's own app is up: the launch's new window is the form's
        r = await c.call_tool("desktop_launch", {"app": "/usr/bin/python3", "args": [str(LIMITED_APP)]})
        text = full_text(r)
        assert not r.is_error, text
        pid = int(re.search(r"\(pid (\d+)\)", text).group(1))
        try:
            wid = re.search(r"its window is (w\d+)", text).group(1)
            m = re.search(r'^\s*textbox "Code" \[(e\d+)\].*: ab$', text, re.M)
            assert m, text
            r = await c.call_tool("fill", {"window": wid, "ref": m.group(1), "text": "123456789"})
            assert r.is_error and error_code(r) == "no_effect", full_text(r)
            assert '"12345"' in full_text(r), full_text(r)
            # A fill it can hold takes.
            r = await c.call_tool("fill", {"window": wid, "ref": m.group(1), "text": "xyz"})
            took = '-> "xyz"' in full_text(r) or re.search(r'textbox "Code" .*: xyz$', full_text(r), re.M)
            assert not r.is_error and took, full_text(r)
        finally:
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, 15)


async def test_window_control_answers_with_what_changed(desktop_client, platform) -> None:
    """Under the session's window manager (openbox): move, resize, maximize (twice: the second
    does nothing and says so), restore, minimize, focus and close a launched app's window, each
    answered with the frame before and after; then the closed window is gone."""
    text, s = await call(desktop_client, "desktop_launch", app="/usr/bin/python3", args=[str(LOGIN_APP)])
    wid, pid = s["window"], s["pid"]
    try:

        async def act(action: str, **args) -> tuple[str, dict]:
            said, c = await call(desktop_client, "desktop_windows", window=wid, action=action, **args)
            assert c["window"] == wid and c["action"] == action, c
            assert c["window_manager"] and "openbox" in c["window_manager"].lower(), c
            return said, c

        said, c = await act("move", x=120, y=80)
        assert (c["after"]["x"], c["after"]["y"]) == (120, 80), c
        assert f'{wid} "Log in" moved from {c["before"]["x"]},{c["before"]["y"]} to 120,80' in said, said
        said, c = await act("resize", width=420, height=260)
        assert (c["after"]["width"], c["after"]["height"]) == (420, 260), c
        assert "resized from" in said and "to 420×260" in said, said
        said, c = await act("maximize")
        assert c["after"]["maximized"] and not c["already"], c
        assert c["after"]["width"] > 420 and c["after"]["height"] > 260, c
        said, c = await act("maximize")
        assert c["already"] and "is already maximized, so nothing was done" in said, said
        said, c = await act("restore")
        assert not c["after"]["maximized"], c
        assert (c["after"]["width"], c["after"]["height"]) == (420, 260), c
        said, c = await act("minimize")
        assert c["after"]["minimized"] and "minimized" in said, said
        said, c = await act("focus")
        assert c["after"]["active"] and not c["after"]["minimized"], c
        assert "is now the active window" in said, said
        # Below the app's minimum size: the window shrinks as far as it may, and says so; asked
        # again, nothing changes, and the error names the limit.
        said, c = await act("resize", width=50, height=40)
        assert c["after"]["width"] > 50 and c["after"]["height"] > 40, c
        assert "(asked 50×40; the app or window manager chose this)" in said, said
        msg = await call_error(desktop_client, "desktop_windows", "not_applied", window=wid, action="resize", width=50, height=40)
        assert "the app allows no size below" in msg, msg
        # The window is still what the windowed tools read.
        snap, _ = await call(desktop_client, "snapshot", window=wid, mode="full")
        assert 'button "Cancel"' in snap, snap
        said, c = await act("close")
        assert c["closed"] and c["after"] is None and said == f'{wid} "Log in" closed', (said, c)
        _, w = await call(desktop_client, "desktop_windows")
        assert wid not in {x["id"] for x in w["windows"]}, w
        await call_error(desktop_client, "snapshot", "window_gone", window=wid)
    finally:
        kill(platform, pid)


async def test_window_control_refuses_what_it_cannot_do(desktop_client) -> None:
    """An action needs a window and a window an action; coordinates go with move and sizes with
    resize; an unknown window is named."""
    w = await app_window(desktop_client)
    for args, field in [
        ({"action": "focus"}, "window"),
        ({"window": w["id"]}, "action"),
        ({"window": w["id"], "action": "focus", "x": 3}, "x"),
        ({"window": w["id"], "action": "move", "x": 3}, "y"),
        ({"window": w["id"], "action": "resize", "width": 0, "height": 10}, "width"),
        ({"window": w["id"], "action": "spin"}, "action"),
    ]:
        with pytest.raises(MCPError, match=f"`{field}`"):
            await desktop_client.call_tool("desktop_windows", args)
    await call_error(desktop_client, "desktop_windows", "no_window", window="w999", action="focus")


async def test_the_clipboard_round_trip_with_a_gtk_app(desktop_client, platform) -> None:
    """Text set through the tool is what a GTK entry pastes; text the entry copies is what the
    tool reads (on the real desktop: a recording has no clipboard of its own)."""
    if recorded(platform):
        pytest.skip("the clipboard is the session's, which a recording does not have")
    text, s = await call(desktop_client, "desktop_launch", app="/usr/bin/python3", args=[str(LOGIN_APP)])
    try:
        wid = s["window"]
        m = re.search(r"^\s*textbox \[(e\d+)\]( \[focused\])?: alice$", text, re.M)
        assert m, text
        user = m.group(1)
        said, c = await call(desktop_client, "clipboard", text="pasted by axsnap")
        assert c["chars"] == 16 and '"pasted by axsnap"' in said, said
        # The pointer goes over the entry first: on a display with no window manager
        # (AXSNAP_DESKTOP_WM=none) keys go to the window under the pointer.
        await call(desktop_client, "hover", window=wid, ref=user)
        await call(desktop_client, "click", window=wid, ref=user)
        diff, _ = await call(desktop_client, "press", window=wid, keys="Control+a Control+v")
        assert f'~ {user} textbox: value "alice" -> "pasted by axsnap"' in diff, diff
        await call(desktop_client, "fill", window=wid, ref=user, text="copied from GTK")
        await call(desktop_client, "press", window=wid, keys="Control+a Control+c")
        deadline = time.monotonic() + 10
        while True:
            said, c = await call(desktop_client, "clipboard")
            if c["text"] == "copied from GTK" or time.monotonic() > deadline:
                break
            await anyio.sleep(0.2)
        assert c["text"] == "copied from GTK" and said == "copied from GTK", (said, c)
    finally:
        kill(platform, s["pid"])


async def test_no_accessibility_bus_is_a_clear_error_and_the_next_call_tries_again(
    axsnap_bin: Path, tmp_path: Path
) -> None:
    env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "AT_SPI_BUS_ADDRESS", "WAYLAND_DISPLAY")}
    env["DBUS_SESSION_BUS_ADDRESS"] = f"unix:path={tmp_path}/no-such-bus"
    async with connect(server_params(axsnap_bin, env, "--desktop")) as client:
        for _ in range(2):
            msg = await call_error(client, "desktop_windows", "no_desktop")
            assert "scripts/desktop-session" in msg, msg
            # The first failing call points to the command that checks the machine.
            assert msg.endswith("run `axsnap doctor --desktop` to check this machine"), msg
        msg = await call_error(client, "snapshot", "no_desktop", window="w1")
        assert "scripts/desktop-session" in msg, msg


async def test_tool_list_grows_only_with_desktop(axsnap_bin: Path) -> None:
    env = dict(os.environ)
    async with connect(server_params(axsnap_bin, env)) as client:
        tools = (await client.list_tools()).tools
        assert "desktop_windows" not in {t.name for t in tools}
        for t in tools:
            assert "window" not in t.input_schema.get("properties", {}), t.name
        # And the argument is refused, naming itself.
        with pytest.raises(MCPError, match="unknown argument `window`"):
            await client.call_tool("snapshot", {"window": "w1"})
    async with connect(server_params(axsnap_bin, env, "--desktop")) as client:
        desktop_tools = (await client.list_tools()).tools
    added = ["desktop_windows", "desktop_launch", "clipboard"]
    assert [t.name for t in desktop_tools] == [t.name for t in tools] + added
    for t in desktop_tools:
        has_window = "window" in t.input_schema.get("properties", {})
        # desktop_windows takes the window it changes.
        assert has_window == (t.name in WINDOWED | {"desktop_windows"}), t.name



async def test_desktop_answers_are_text_only_by_default(axsnap_bin: Path, desktop_env: dict[str, str]) -> None:
    """Without --structured-content, the desktop tools send the text alone, on success and on
    error, and the text names the windows an agent passes on."""
    async with connect(server_params(axsnap_bin, desktop_env, "--desktop")) as c:
        assert all(t.output_schema is None for t in (await c.list_tools()).tools)
        deadline = time.monotonic() + APP_TIMEOUT
        while True:
            r = await c.call_tool("desktop_windows", {})
            assert not r.is_error and r.structured_content is None, full_text(r)
            m = re.search(rf'\b(w\d+) frame "[^"]*" app "{APP}"', full_text(r))
            if m:
                break
            assert time.monotonic() < deadline, full_text(r)
            await anyio.sleep(0.3)
        r = await c.call_tool("snapshot", {"window": m.group(1)})
        assert not r.is_error and r.structured_content is None, full_text(r)[:500]
        assert 'checkbox "checkbutton"' in full_text(r)
        r = await c.call_tool("snapshot", {"window": "w999"})
        assert r.is_error and r.structured_content is None
        assert error_code(r) == "no_window", full_text(r)


async def test_a_recording_replays_what_the_app_did(axsnap_bin: Path) -> None:
    """On the recording alone (no display, no bus): the widget factory's menu opens as a diff,
    its About item opens the About dialog as a new window shown below, the dialog's Close closes
    it; a text entry takes a fill; what the recording cannot do is said."""
    env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "AT_SPI_BUS_ADDRESS")}
    async with connect(server_params(axsnap_bin, env, "--desktop", "--recording", str(RECORDING))) as c:

        async def ok(tool: str, **args) -> str:
            r = await c.call_tool(tool, args)
            assert not r.is_error and r.structured_content is None, f"{tool} {args}: {full_text(r)}"
            return full_text(r)

        listed = await ok("desktop_windows")
        assert listed == f'w1 frame "" app "{APP}" (active)\n', listed
        full = await ok("snapshot", window="w1", max_tokens=0)
        assert full.startswith(f"# {APP}\nwindow [e1]\n"), full[:200]
        menu = re.search(r'button "Menu" \[(e\d+)\]', full)
        assert menu, full
        opened = await ok("click", window="w1", ref=menu.group(1))
        about = re.search(r'^\s+button "About Widget Factory" \[(e\d+)\]', opened, re.M)
        assert about and "generic [modal]" in opened, opened
        said = await ok("click", window="w1", ref=about.group(1))
        assert said.startswith("# opened window w2 (shown below); pass window w2 to work in it\n"), said
        assert 'dialog "About GTK Widget Factory"' in said, said
        close = re.search(r'button "Close" \[(e\d+)\]', said)
        assert close, said
        listed = await ok("desktop_windows")
        assert 'w2 dialog "About GTK Widget Factory" app "gtk3-widget-factory" (active)' in listed, listed
        # Its Close closes it: said as such (not as an error about a window gone), with the
        # windows left.
        said = await ok("click", window="w2", ref=close.group(1))
        assert said == f'click closed window w2; the windows now:\nw1 frame "" app "{APP}" (active)\n', said
        listed = await ok("desktop_windows")
        assert "w2" not in listed, listed
        r = await c.call_tool("snapshot", {"window": "w2"})
        assert r.is_error and error_code(r) == "window_gone", full_text(r)
        # A fill: the value read back in the answer's diff.
        full = await ok("snapshot", window="w1", mode="full")
        entry = re.search(r"^\s*textbox \[(e\d+)\]: entry$", full, re.M)
        assert entry, full
        diff = await ok("fill", window="w1", ref=entry.group(1), text="typed")
        assert f'~ {entry.group(1)} textbox: value "entry" -> "typed"' in diff, diff
        # What a recording cannot do.
        r = await c.call_tool("clipboard", {})
        assert r.is_error and error_code(r) == "clipboard_error", full_text(r)
        r = await c.call_tool("desktop_launch", {"app": "gedit"})
        assert r.is_error and error_code(r) == "launch_failed", full_text(r)
        assert "the recording launches only /usr/bin/python3" in full_text(r), full_text(r)


async def test_a_recording_that_cannot_be_read_says_why(axsnap_bin: Path, tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text('{"format": "axsnap-desktop-recording", "version": 1, "apps": [{"name": "x", "windows": '
                   '[{"id": "a", "tree": "missing.json"}]}]}')
    env = {k: v for k, v in os.environ.items() if k != "DISPLAY"}
    async with connect(server_params(axsnap_bin, env, "--desktop", "--recording", str(bad))) as c:
        r = await c.call_tool("desktop_windows", {})
        assert r.is_error and error_code(r) == "no_desktop", full_text(r)
        assert "missing.json" in full_text(r) and str(bad) in full_text(r), full_text(r)
