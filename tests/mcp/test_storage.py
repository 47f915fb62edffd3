"""Saved state (issue 23): `storage save` writes a session's cookies and local storage
(Playwright's storageState JSON, owner-only) under --output-dir; a fresh server started with
`--storage-state` begins logged in with the page's stored preference; `storage load` does the
same for a running session; `cookies` lists (values never shown), sets, deletes and clears.
Real Chromium, the fixture site's login and /prefs, the Python SDK over stdio and HTTP."""

from __future__ import annotations

import json
import stat
import time
from pathlib import Path

import pytest
from conftest import STRUCTURED, axsnap_http_command, axsnap_stdio_command, connect, free_port, run_http_server, stdio_params
from fixture_site import PASSWORD, SESSION_COOKIE, USER, Site
from test_axsnap_agent import Agent

pytestmark = pytest.mark.anyio


async def log_in(agent: Agent, site: Site) -> None:
    await agent.ok("navigate", url=site.url("/login"))
    await agent.ok("fill", ref=await agent.ref("user name field", "textbox", "User name"), text=USER)
    await agent.ok("fill", ref=await agent.ref("password", "textbox", "Password"), text=PASSWORD)
    text, _ = await agent.ok("click", ref=await agent.ref("log in button", "button", "Log in"))
    assert f"Signed in as {USER}" in text, text


async def test_save_then_start_and_load_elsewhere(axsnap_bin: Path, site: Site, tmp_path: Path) -> None:
    out = tmp_path / "out"
    out.mkdir()
    # Server A (HTTP: a browser context of the session's own) logs in and picks a theme.
    port = free_port()
    argv = axsnap_http_command(axsnap_bin, port, STRUCTURED, "--caps", "storage", "--output-dir", str(out))
    with run_http_server(argv, port, tmp_path / "a.log") as server:
        async with connect(server.url) as c:
            agent = Agent(c)
            await log_in(agent, site)
            token = site.login(USER)  # any live token: the one in the page is the browser's
            await agent.ok("navigate", url=site.url("/prefs"))
            text, _ = await agent.ok("click", ref=await agent.ref("dark theme button", "button", "Use dark theme"))
            assert "Theme: dark" in text, text
            text, s = await agent.ok("storage", action="save", path="state.json")
            assert "saved 1 cookie and 1 local storage item of 1 origin" in text, text
            saved = Path(s["path"])
            assert saved == out / "state.json", s
            text, _ = await agent.ok("cookies", action="list")
            assert f"{SESSION_COOKIE} for 127.0.0.1/ (session, httpOnly; value " in text, text
    assert stat.S_IMODE(saved.stat().st_mode) == 0o600
    state = json.loads(saved.read_text())
    cookie = state["cookies"][0]
    assert (cookie["name"], cookie["domain"], cookie["httpOnly"]) == (SESSION_COOKIE, "127.0.0.1", True), state
    assert site.user_of(cookie["value"]) == USER and cookie["value"] != token
    origin = state["origins"][0]
    assert origin["origin"] == site.url("/").rstrip("/") and origin["localStorage"] == [{"name": "theme", "value": "dark"}]
    # No answer showed the cookie's value.
    assert cookie["value"] not in text

    # Server B starts with the file: logged in, dark theme, before any call.
    argv = axsnap_stdio_command(axsnap_bin, STRUCTURED, "--storage-state", str(saved))
    async with connect(stdio_params(argv)) as c:
        agent = Agent(c)
        text, _ = await agent.ok("navigate", url=site.url("/whoami"))
        assert f"Signed in as {USER}" in text, text
        text, _ = await agent.ok("navigate", url=site.url("/prefs"))
        assert "Theme: dark" in text, text

    # Server C loads it into a running session.
    argv = axsnap_stdio_command(axsnap_bin, STRUCTURED, "--caps", "storage", "--output-dir", str(out))
    async with connect(stdio_params(argv)) as c:
        agent = Agent(c)
        text, _ = await agent.ok("navigate", url=site.url("/whoami"))
        assert "Not signed in" in text, text
        text, s = await agent.ok("storage", action="load", path="state.json")
        assert "loaded 1 cookie and 1 local storage item of 1 origin" in text and "reload" in text, text
        text, _ = await agent.ok("reload")
        assert f"Signed in as {USER}" in text, text
        text, _ = await agent.ok("navigate", url=site.url("/prefs"))
        assert "Theme: dark" in text, text


async def test_cookies_by_hand(axsnap_bin: Path, site: Site, tmp_path: Path) -> None:
    argv = axsnap_stdio_command(axsnap_bin, STRUCTURED, "--caps", "storage")
    async with connect(stdio_params(argv)) as c:
        agent = Agent(c)
        text, s = await agent.ok("cookies", action="list")
        assert s["total"] == 0 and text == "0 cookies in this session.", text
        # A cookie set before the first page is sent with it.
        token = site.login(USER)
        text, s = await agent.ok("cookies", action="set", name=SESSION_COOKIE, value=token, url=site.url("/"), http_only=True)
        assert token not in text and f"value {len(token)} chars" in text, text
        await agent.ok("cookies", action="set", name="pref", value="compact", url=site.url("/"), expires=4102444800)
        text, _ = await agent.ok("navigate", url=site.url("/whoami"))
        assert f"Signed in as {USER}" in text, text
        text, s = await agent.ok("cookies", action="list", url=site.url("/whoami"))
        names = sorted(c["name"] for c in s["cookies"])
        assert names == ["pref", SESSION_COOKIE] and token not in text and "compact" not in text, text
        pref = next(c for c in s["cookies"] if c["name"] == "pref")
        # Chromium keeps a cookie at most 400 days.
        assert pref["expires"] > time.time() + 300 * 86400 and pref["value_chars"] == 7, pref
        _, s = await agent.ok("cookies", action="list", name="pref")
        assert [c["name"] for c in s["cookies"]] == ["pref"], s
        text, _ = await agent.ok("cookies", action="delete", name=SESSION_COOKIE)
        assert text == f'deleted 1 cookie named "{SESSION_COOKIE}"', text
        text, _ = await agent.ok("reload")
        assert "Not signed in" in text, text
        text, _ = await agent.ok("cookies", action="clear")
        assert text == "cleared 1 cookie of this session", text
        _, s = await agent.ok("cookies", action="list")
        assert s["total"] == 0, s
        await agent.error("cookies", "bad_argument", action="set", name="x", value="1")


async def test_bad_input(axsnap_bin: Path, site: Site, tmp_path: Path) -> None:
    out = tmp_path / "out"
    out.mkdir()
    (out / "notes.txt").write_text("not json")
    (tmp_path / "outside.json").write_text('{"cookies": []}')
    argv = axsnap_stdio_command(
        axsnap_bin, STRUCTURED, "--caps", "storage", "--output-dir", str(out), "--blocked-origins", "blocked.example"
    )
    async with connect(stdio_params(argv)) as c:
        agent = Agent(c)
        await agent.ok("navigate", url=site.url("/prefs"))
        await agent.error("storage", "outside_output_dir", action="load", path="../outside.json")
        await agent.error("storage", "outside_output_dir", action="save", path="/tmp/x.json")
        await agent.error("storage", "no_such_file", action="load", path="missing.json")
        await agent.error("storage", "bad_storage_file", action="load", path="notes.txt")
        await agent.error("cookies", "url_refused", action="set", name="a", value="1", url="https://blocked.example/")
        await agent.error("cookies", "url_refused", action="set", name="a", value="1", domain="blocked.example")
        # A file naming a refused site: that part is left out and the answer says so.
        (out / "mixed.json").write_text(json.dumps({
            "cookies": [{"name": "a", "value": "1", "domain": "blocked.example"},
                        {"name": "b", "value": "2", "domain": "127.0.0.1"}],
            "origins": [{"origin": "https://blocked.example", "localStorage": [{"name": "k", "value": "v"}]}],
        }))
        text, s = await agent.ok("storage", action="load", path="mixed.json")
        assert "loaded 1 cookie and 0 local storage items of 0 origins" in text, text
        assert s["skipped"] == ["blocked.example", "https://blocked.example"], s
    # Without --output-dir, storage has nowhere to keep files; without the group, no tools.
    async with connect(stdio_params(axsnap_stdio_command(axsnap_bin, STRUCTURED, "--caps", "storage"))) as c:
        await Agent(c).error("storage", "no_output_dir", action="save", path="s.json")
    async with connect(stdio_params(axsnap_stdio_command(axsnap_bin, STRUCTURED))) as c:
        names = [t.name for t in (await c.list_tools()).tools]
        assert "storage" not in names and "cookies" not in names, names


def test_a_bad_start_state_is_refused_at_start(axsnap_bin: Path, tmp_path: Path) -> None:
    import subprocess

    bad = tmp_path / "bad.json"
    bad.write_text("[]")
    for path, says in [(bad, "not a storage state"), (tmp_path / "missing.json", "--storage-state")]:
        r = subprocess.run(
            axsnap_stdio_command(axsnap_bin, STRUCTURED, "--storage-state", str(path)),
            stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=60,
        )
        assert r.returncode != 0 and says in r.stderr, r.stderr
