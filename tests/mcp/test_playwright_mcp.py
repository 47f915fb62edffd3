"""Smoke tests of the MCP test kit against Playwright MCP, the reference server: one per
client (the Python SDK over stdio, over streamable HTTP, the Inspector's CLI over both).

They prove the installed clients, the server fixtures and the fixture site work together in a
real browser; axsnap's own tests use the same fixtures. Leave them out with
`-m "not playwright_mcp"`.
"""

from __future__ import annotations

import re

import pytest
from conftest import (
    NODE_DIR,
    Inspector,
    connect,
    playwright_stdio_command,
    text_of,
)
from fixture_site import PASSWORD, USER, Site

pytestmark = [pytest.mark.anyio, pytest.mark.playwright_mcp]

# Tools a browser agent cannot do without; Playwright MCP names them so.
CORE_TOOLS = {"browser_navigate", "browser_snapshot", "browser_click", "browser_type"}


def ref_of(snapshot: str, role: str, name: str) -> str:
    """The ref of `role "name"` in a Playwright snapshot (`- textbox "User name" [ref=e9]`)."""
    m = re.search(rf'{role} "{re.escape(name)}"[^\n]*\[ref=(e\d+)\]', snapshot)
    assert m, f'no {role} "{name}" in:\n{snapshot}'
    return m.group(1)


async def test_python_sdk_over_stdio_logs_in(playwright_stdio, site: Site) -> None:
    client = playwright_stdio
    assert client.session.protocol_version == "2025-11-25"
    tools = {t.name for t in (await client.list_tools()).tools}
    assert CORE_TOOLS <= tools

    await client.call_tool("browser_navigate", {"url": site.url("/login")})
    snap = text_of(await client.call_tool("browser_snapshot", {}))
    assert 'heading "Log in"' in snap
    user, password = ref_of(snap, "textbox", "User name"), ref_of(snap, "textbox", "Password")
    await client.call_tool("browser_type", {"element": "User name", "target": user, "text": USER})
    r = await client.call_tool(
        "browser_type",
        {"element": "Password", "target": password, "text": PASSWORD, "submit": True},
    )
    assert not r.is_error, text_of(r)
    # The POST's cookie took the browser to /whoami, signed in; the password never shows.
    snap = text_of(await client.call_tool("browser_snapshot", {}))
    assert f"Signed in as {USER}" in snap
    assert PASSWORD not in snap


async def test_python_sdk_over_http_keeps_sessions_apart(playwright_http_server, site: Site) -> None:
    # Two MCP sessions on one server: each has its own browser context, so each keeps its own
    # page. This is what the HTTP fixtures must give the axsnap tests (an Mcp-Session-Id).
    async with connect(playwright_http_server.url) as a, connect(playwright_http_server.url) as b:
        assert a.session.protocol_version == b.session.protocol_version == "2025-11-25"
        assert CORE_TOOLS <= {t.name for t in (await a.list_tools()).tools}
        await a.call_tool("browser_navigate", {"url": site.url("/pages/one")})
        await b.call_tool("browser_navigate", {"url": site.url("/pages/two")})
        snap_a = text_of(await a.call_tool("browser_snapshot", {}))
        snap_b = text_of(await b.call_tool("browser_snapshot", {}))
    assert 'heading "Page one"' in snap_a and "Page two" not in snap_a
    assert 'heading "Page two"' in snap_b and "Page one" not in snap_b


async def test_python_sdk_fixture_over_http(playwright_http, site: Site) -> None:
    await playwright_http.call_tool("browser_navigate", {"url": site.url("/menu")})
    snap = text_of(await playwright_http.call_tool("browser_snapshot", {}))
    button = ref_of(snap, "button", "File")
    await playwright_http.call_tool("browser_click", {"element": "File", "target": button})
    snap = text_of(await playwright_http.call_tool("browser_snapshot", {}))
    assert 'menuitem "Save"' in snap
    await playwright_http.call_tool(
        "browser_click", {"element": "Save", "target": ref_of(snap, "menuitem", "Save")}
    )
    snap = text_of(await playwright_http.call_tool("browser_snapshot", {}))
    assert "Chose: Save" in snap and "menuitem" not in snap


def test_inspector_cli_over_stdio_lists_tools(inspector: Inspector) -> None:
    listed = inspector("--method", "tools/list", target=playwright_stdio_command())
    assert CORE_TOOLS <= {t["name"] for t in listed["result"]["tools"]}


def result_text(called: dict) -> str:
    result = called["result"]
    assert not result.get("isError"), result
    return "\n".join(c["text"] for c in result["content"] if c["type"] == "text")


def test_inspector_cli_over_http_navigates_and_snapshots(
    inspector: Inspector, playwright_http_server, site: Site
) -> None:
    # One CLI run is one MCP session (and Playwright MCP gives each session its own browser
    # context), so the snapshot must come from the navigation's own answer. Playwright MCP
    # 0.0.83 does not inline it: it writes it to a file (under --output-dir) and links it.
    navigated = result_text(
        inspector(
            "--method", "tools/call", "--tool-name", "browser_navigate",
            "--tool-arg", f"url={site.url('/pages/three')}",
            target=playwright_http_server.url,
        )  # fmt: skip
    )
    assert f"Page URL: {site.url('/pages/three')}" in navigated
    link = re.search(r"\[Snapshot\]\(([^)]+\.yml)\)", navigated)
    assert link, navigated
    snap = (NODE_DIR / link.group(1)).resolve().read_text()
    assert 'heading "Page three"' in snap
    assert 'link "Three"' in snap
