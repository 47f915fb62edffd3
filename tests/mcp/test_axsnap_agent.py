"""A scripted agent drives `axsnap mcp` through the official Python SDK, over stdio and over
streamable HTTP, on the fixture site: it logs in, fills a form, opens a menu, answers a dialog,
opens a link in a new tab, navigates between pages and goes back. Every step asserts the exact
kind of answer (full / diff / unchanged), the diff's operations, refs and errors.

Refs are never guessed: each comes from `find`, as an agent's would.

The server runs with `--structured-content`, so each step's JSON form (for programs) is checked
too; and on every answer the `Agent` checks that the text alone says what the JSON says of its
kind, its error code, its hits and its session (`answers.py`): the text is what most clients'
models get, and by default the only thing sent.
"""

from __future__ import annotations

import json
from contextlib import asynccontextmanager

import pytest
from answers import error_code, hits_of, kind_of, session_handle, tabs_of
from conftest import (
    STRUCTURED,
    axsnap_http_command,
    axsnap_stdio_command,
    connect,
    free_port,
    run_http_server,
    stdio_params,
    text_of,
)
from fixture_site import PASSWORD, USER, Site

pytestmark = pytest.mark.anyio


def assert_auto(s: dict, text: str) -> None:
    """An auto answer after a change: a diff, or the full page when the diff would not be
    smaller (small pages)."""
    assert s["kind"] == "diff" or (s["kind"], s.get("reason")) == ("full", "diff_not_smaller"), text


class Agent:
    """Calls tools and checks what every answer must be."""

    def __init__(self, client) -> None:
        self.client = client

    async def call(self, tool: str, **args):
        r = await self.client.call_tool(tool, args)
        s = r.structured_content
        if s is None:
            # A server without --structured-content: what the text says is all there is.
            s = text_facts(r)
        else:
            check_text_says(r, s)
        # Whatever the answer, the password never leaves the server.
        assert PASSWORD not in text_of(r) and PASSWORD not in json.dumps(s), (tool, args)
        return r, s

    async def ok(self, tool: str, **args):
        r, s = await self.call(tool, **args)
        assert not r.is_error, f"{tool} {args}: {text_of(r)}"
        return text_of(r), s

    async def error(self, tool: str, code: str, **args) -> str:
        r, s = await self.call(tool, **args)
        assert r.is_error, f"{tool} {args} should have failed: {text_of(r)}"
        assert s["error"] == code, (s, text_of(r))
        return text_of(r)

    async def ref(self, query: str, role: str, name: str) -> str:
        _, s = await self.ok("find", query=query, limit=1)
        hits = s["hits"]
        assert hits, f"find {query!r} found nothing"
        assert (hits[0]["role"], hits[0]["name"]) == (role, name), (query, hits)
        return hits[0]["ref"]


STEP_KINDS = ("full", "diff", "unchanged")


def text_facts(r) -> dict:
    """What an answer's text says of its kind, error, hits and session, in the members the
    structured form names them by."""
    facts: dict = {"kind": kind_of(r)}
    if r.is_error:
        facts["error"] = error_code(r)
    hits = hits_of(r)
    if hits:
        facts["hits"] = hits
    tabs = tabs_of(r)
    if tabs:
        facts["tabs"] = tabs
    handle = session_handle(r)
    if handle:
        facts["session"] = handle
    return facts


def check_text_says(r, s: dict) -> None:
    """The text carries what the structured form says an agent acts on."""
    text = text_of(r)
    if r.is_error:
        assert error_code(r) == s["error"], (s, text)
        return
    if s.get("kind") in STEP_KINDS:
        assert kind_of(r) == s["kind"], (s.get("kind"), text[:500])
    if "hits" in s:
        said = [(h["ref"], h["role"], h["name"]) for h in hits_of(r)]
        assert said == [(h["ref"], h["role"], h["name"]) for h in s["hits"]], (s["hits"], text)
    if s.get("dialog"):
        assert "dialog: " in text, text[:500]
    for tab in s.get("new_tabs", []):
        assert f"opened tab {tab['index']}" in text, text[:500]
    if "tabs" in s:
        said = [(t["index"], t["url"], t["current"]) for t in tabs_of(r)]
        assert said == [(t["index"], t["url"], t["current"]) for t in s["tabs"]], (s["tabs"], text)
    if s.get("settled") is False:
        assert "did not settle" in text.splitlines()[0], text[:500]


@asynccontextmanager
async def stdio_agent(axsnap_bin):
    async with connect(stdio_params(axsnap_stdio_command(axsnap_bin, STRUCTURED))) as client:
        yield Agent(client)


@asynccontextmanager
async def http_agent(url: str):
    async with connect(url) as client:
        yield Agent(client)


@pytest.fixture(params=["stdio", "http"])
async def agent(request, axsnap_bin, tmp_path):
    if request.param == "stdio":
        async with stdio_agent(axsnap_bin) as a:
            yield a
    else:
        port = free_port()
        argv = axsnap_http_command(axsnap_bin, port, STRUCTURED)
        with run_http_server(argv, port, tmp_path / "axsnap.log") as server:
            async with http_agent(server.url) as a:
                yield a


async def test_server_identity_and_tools(agent: Agent) -> None:
    info = agent.client.session.server_info if hasattr(agent.client.session, "server_info") else None
    tools = {t.name for t in (await agent.client.list_tools()).tools}
    assert {
        "navigate", "back", "forward", "reload", "snapshot", "find", "click", "hover", "type",
        "fill", "press", "select", "check", "scroll", "tabs", "wait_for", "dialog",
        "screenshot", "close",
    } <= tools  # fmt: skip
    assert "evaluate" not in tools, "evaluate needs --allow-eval"
    if info is not None:
        assert info.name == "axsnap"


async def test_login_form_and_stale_refs(agent: Agent, site: Site) -> None:
    text, s = await agent.ok("navigate", url=site.url("/login"))
    assert (s["kind"], s["reason"]) == ("full", "no_baseline")
    assert 'h1 "Log in"' in text
    assert s["settled"] is True and s["tokens"]["cl100k"] > 0

    user = await agent.ref("user name field", "textbox", "User name")
    text, s = await agent.ok("fill", ref=user, text=USER)
    assert s["kind"] == "diff", text
    assert f'~ {user} textbox "User name": value none -> "{USER}"' in text

    password = await agent.ref("password", "textbox", "Password")
    text, s = await agent.ok("type", ref=password, text=PASSWORD)
    assert s["kind"] == "diff", text
    assert "[redacted]" in text

    log_in = await agent.ref("log in button", "button", "Log in")
    text, s = await agent.ok("click", ref=log_in)
    assert s["navigated"] is True
    assert f"Signed in as {USER}" in text
    assert s["url"].endswith("/whoami")

    # The login page is gone: its refs are stale, and never moved to a look-alike.
    msg = await agent.error("click", "stale_ref", ref=log_in)
    assert log_in in msg and "snapshot" in msg
    await agent.error("click", "unknown_ref", ref="e99999")
    await agent.error("click", "bad_ref", ref="button")

    # Nothing changed since the last answer: one line.
    text, s = await agent.ok("snapshot")
    assert s["kind"] == "unchanged" and text.startswith("# no change since snapshot"), text


async def test_form_select_radio_checkbox(agent: Agent, site: Site) -> None:
    await agent.ok("navigate", url=site.url("/form"))
    await agent.ok("fill", ref=await agent.ref("full name", "textbox", "Full name"), text="Ada")
    text, s = await agent.ok("select", ref=await agent.ref("language select", "combobox", "Language"), values=["French"])
    assert s["kind"] == "diff" and '"French"' in text, text
    text, s = await agent.ok("check", ref=await agent.ref("plan pro", "radio", "Pro"))
    assert s["kind"] == "diff" and "+checked" in text, text
    await agent.ok("check", ref=await agent.ref("terms checkbox", "checkbox", "I accept the terms"))
    text, s = await agent.ok("click", ref=await agent.ref("submit button", "button", "Submit"))
    assert s["navigated"] is True
    for line in ("name: Ada", "language: fr", "plan: pro", "terms: yes", "newsletter: (none)"):
        assert line in text, text


async def test_menu_opens_and_closes_as_diffs(agent: Agent, site: Site) -> None:
    await agent.ok("navigate", url=site.url("/menu"))
    file_button = await agent.ref("file button", "button", "File")
    text, s = await agent.ok("click", ref=file_button)
    # On a page this small, the menu is most of the page: auto sends it whole.
    assert (s["kind"], s["reason"]) == ("full", "diff_not_smaller"), text
    assert 'menu "File"' in text and 'menuitem "Save"' in text, text
    save = await agent.ref("save menu item", "menuitem", "Save")
    text, s = await agent.ok("click", ref=save)
    assert_auto(s, text)
    assert "Chose: Save" in text and 'menuitem "New"' not in text, text
    if s["kind"] == "diff":
        assert '\n- e' in text and 'menu "File"' in text, "the closed menu is one removal"
    # Opened again, with the same button ref.
    text, s = await agent.ok("click", ref=file_button)
    assert 'menuitem "Save"' in text, text
    text, s = await agent.ok("press", keys="Escape")
    assert_auto(s, text)
    assert 'menuitem "Save"' not in text, text


async def test_dialog_blocks_until_answered(agent: Agent, site: Site) -> None:
    await agent.ok("navigate", url=site.url("/dialog"))
    delete = await agent.ref("delete everything button", "button", "Delete everything")
    text, s = await agent.ok("click", ref=delete)
    assert "Delete everything?" in s["dialog"], s
    assert "dialog tool" in text.splitlines()[0], text
    msg = await agent.error("click", "dialog_open", ref=delete)
    assert "Delete everything?" in msg and "dialog" in msg
    text, s = await agent.ok("dialog", accept=False)
    assert "Answer: no" in text, text
    await agent.error("dialog", "no_dialog", accept=True)
    rename = await agent.ref("rename button", "button", "Rename")
    await agent.ok("click", ref=rename)
    text, s = await agent.ok("dialog", accept=True, prompt_text="report")
    assert "Answer: name report" in text, text


async def test_new_tab_select_and_close(agent: Agent, site: Site) -> None:
    await agent.ok("navigate", url=site.url("/tabs"))
    link = await agent.ref("open help link", "link", "Open help in a new tab")
    text, s = await agent.ok("click", ref=link)
    assert s["new_tabs"][0]["url"].endswith("/help"), s
    assert "opened tab 1" in text.splitlines()[0], text
    # The answer is the new tab, where the click led.
    assert (s["kind"], s["url"].endswith("/help")) == ("full", True), text
    assert "This page opened in a new tab." in text
    _, s = await agent.ok("tabs", action="list")
    assert [t["current"] for t in s["tabs"]] == [False, True]
    # A ref of the first tab is foreign to the second.
    await agent.error("click", "foreign_ref", ref=link)
    text, s = await agent.ok("tabs", action="select", index=0)
    assert s["url"].endswith("/tabs")
    text, s = await agent.ok("tabs", action="close", index=1)
    assert len(s["tabs"]) == 1 and s["tabs"][0]["current"]
    await agent.error("tabs", "tab_gone", action="select", index=5)


async def test_a_new_tab_from_a_slow_server_is_answered_once_it_loaded(agent: Agent, site: Site) -> None:
    # The opener settles at once; the new tab is still at about:blank while its server takes
    # 2 s. The answer must be the page the click led to, not a blank one.
    await agent.ok("navigate", url=site.url("/tabs"))
    link = await agent.ref("open slow help link", "link", "Open slow help in a new tab")
    text, s = await agent.ok("click", ref=link)
    assert "opened tab 1" in text.splitlines()[0], text
    assert s["url"].endswith("/help?slow=1"), s
    assert "This page opened in a new tab." in text, text
    assert s["settled"] is True, text


async def test_navigation_between_pages_and_back(agent: Agent, site: Site) -> None:
    text, s = await agent.ok("navigate", url=site.url("/pages/one"))
    assert s["kind"] == "full"
    two = await agent.ref("two link", "link", "Two")
    text, s = await agent.ok("click", ref=two)
    assert s["navigated"] is True and s["url"].endswith("/pages/two")
    # The shared header, nav and footer are matched and not re-sent: the answer is a diff.
    assert s["kind"] == "diff", (s.get("reason"), s.get("tokens"), text)
    assert 'h1 "Page two"' in text
    text, s = await agent.ok("back")
    # `no-store`: the browser may load the page again (another document: the shared chrome
    # keeps its refs and the answer is a diff against page two) or restore it (a diff against
    # page one as it was shown: the link clicked is focused).
    assert s["url"].endswith("/pages/one") and s["kind"] == "diff", text
    text, s = await agent.ok("forward")
    assert s["url"].endswith("/pages/two")
    text, s = await agent.ok("reload")
    assert s["kind"] in ("unchanged", "diff"), text
    await agent.ok("wait_for", text="This is page two")
    msg = await agent.error("wait_for", "timeout", text="never on this page", seconds=0.5)
    assert "never on this page" in msg


async def test_back_on_a_page_the_browser_kept(agent: Agent, site: Site) -> None:
    text, s = await agent.ok("navigate", url=site.url("/pages/one?cacheable"))
    two = await agent.ref("two link", "link", "Two")
    home = await agent.ref("home link", "link", "Home")
    text, s = await agent.ok("click", ref=two)
    assert s["url"].endswith("/pages/two"), text
    text, s = await agent.ok("back")
    # The browser kept page one (its back-forward cache): the same document the agent saw,
    # answered against what it was shown of it (at most the link clicked is focused now), and
    # its refs work again.
    assert s["url"].endswith("/pages/one?cacheable") and s["kind"] in ("unchanged", "diff"), text
    assert text.startswith("# back on Page one"), text
    assert len(text.splitlines()) <= 3 and "Page one" not in text.split("\n", 1)[-1], text
    _, s = await agent.ok("find", query="home link", limit=1)
    assert s["hits"][0]["ref"] == home, s
    # The ref found on the first visit.
    text, s = await agent.ok("click", ref=two)
    assert s["url"].endswith("/pages/two") and 'h1 "Page two"' in text, text
    assert not text.startswith("# back on"), text


async def test_a_link_the_network_fails_names_the_browsers_error_and_goes_back(agent: Agent, site: Site) -> None:
    # Nothing listens on the port (it was free a moment ago): the connection is refused.
    port = free_port()
    await agent.ok("navigate", url=site.url(f"/dead-link?port={port}"))
    nowhere = await agent.ref("nowhere link", "link", "Nowhere")
    msg = await agent.error("click", "navigation_failed", ref=nowhere)
    assert "net::ERR_CONNECTION_REFUSED" in msg and f"127.0.0.1:{port}/gone" in msg, msg
    assert "chrome-error" not in msg and "unknown URL scheme" not in msg, msg
    # Back on the page the link was on (loaded again: its link has a new ref).
    text, s = await agent.ok("snapshot")
    assert s["url"].endswith(f"/dead-link?port={port}") and s["kind"] in ("unchanged", "full", "diff"), text
    await agent.ref("nowhere link", "link", "Nowhere")


async def test_a_recycled_row_does_not_carry_the_ref_of_the_item_it_showed(agent: Agent, site: Site) -> None:
    await agent.ok("navigate", url=site.url("/recycled"))
    main = await agent.ref("main.py", "treeitem", "main.py")
    new_file = await agent.ref("new file button", "button", "New file")
    text, s = await agent.ok("click", ref=new_file)
    # The element that showed main.py shows lib.py now: a new item, with a new ref.
    assert "lib.py" in text and '"main.py" -> "lib.py"' not in text, text
    msg = await agent.error("click", "stale_ref", ref=main)
    assert "main.py" in msg, msg
    # The stale ref opened nothing: the page is as it was after "New file".
    text, s = await agent.ok("snapshot")
    assert s["kind"] == "unchanged" or "opened: none" in text, text
    # main.py, on the row below now, is found with a new ref that opens it.
    again = await agent.ref("main.py", "treeitem", "main.py")
    assert again != main
    text, s = await agent.ok("click", ref=again)
    assert "opened: main.py" in text, text


async def test_close_releases_the_context(agent: Agent, site: Site) -> None:
    await agent.ok("navigate", url=site.url("/pages/one"))
    text, s = await agent.ok("close")
    assert s["kind"] == "closed"
    await agent.error("snapshot", "no_page")
    text, s = await agent.ok("navigate", url=site.url("/pages/two"))
    assert s["kind"] == "full" and 'h1 "Page two"' in text


async def test_screenshot_is_a_png(agent: Agent, site: Site) -> None:
    await agent.ok("navigate", url=site.url("/menu"))
    r, s = await agent.call("screenshot")
    images = [c for c in r.content if getattr(c, "type", None) == "image"]
    assert len(images) == 1 and images[0].mime_type == "image/png"
    import base64

    assert base64.b64decode(images[0].data)[:8] == b"\x89PNG\r\n\x1a\n"
    button = await agent.ref("file button", "button", "File")
    r, s = await agent.call("screenshot", ref=button)
    assert not r.is_error and s["bytes"] > 100


async def test_local_and_odd_urls_are_refused(agent: Agent) -> None:
    for url, code in [
        ("file:///etc/passwd", "url_refused"),
        ("chrome://crash", "url_refused"),
        ("javascript:alert(1)", "url_refused"),
        ("foo://bar/baz", "url_refused"),
        ("data:text/html,hi", "url_refused"),
    ]:
        msg = await agent.error("navigate", code, url=url)
        assert "refused" in msg or "unknown URL scheme" in msg, msg
