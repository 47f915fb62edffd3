"""Both MCP revisions, over stdio and HTTP: 2025-11-25 (the `initialize` handshake; over HTTP
a session per `Mcp-Session-Id`) and 2026-07-28 (stateless: no handshake, per-request `_meta`;
over HTTP a session is a handle the first answer gives and later calls pass as `session`).

The scripted task (log in, fill, click, diff, a stale ref, an unchanged view) runs through the
Python SDK in each of the four; then what only the stateless revision has: handles that any
connection may use, sessions apart from each other, `close` and the idle timeout ending a
session, clear errors for a handle that is unknown or malformed.
"""

from __future__ import annotations

import asyncio
import json
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest
from answers import error_code, session_handle
from conftest import (
    SESSION_LINE,
    axsnap_http_command,
    axsnap_stdio_command,
    connect,
    free_port,
    run_http_server,
    stdio_params,
    text_of,
)
from fixture_site import PASSWORD, USER, Site
from test_axsnap_agent import Agent

pytestmark = pytest.mark.anyio

MODES = {"2026-07-28": "auto", "2025-11-25": "legacy"}


@pytest.mark.parametrize("transport", ["stdio", "http"])
@pytest.mark.parametrize("revision", list(MODES))
async def test_scripted_task_in_each_revision(
    axsnap_bin: Path, tmp_path: Path, site: Site, transport: str, revision: str
) -> None:
    if transport == "stdio":
        target = stdio_params(axsnap_stdio_command(axsnap_bin))
        async with connect(target, mode=MODES[revision]) as client:
            await scripted_task(client, site, revision, handles=False)
    else:
        port = free_port()
        with run_http_server(axsnap_http_command(axsnap_bin, port), port, tmp_path / "axsnap.log") as server:
            async with connect(server.url, mode=MODES[revision]) as client:
                await scripted_task(client, site, revision, handles=revision == "2026-07-28")


async def scripted_task(client, site: Site, revision: str, handles: bool) -> None:
    assert client.protocol_version == revision
    agent = Agent(client)
    first = await client.call_tool("navigate", {"url": site.url("/login")})
    assert not first.is_error
    text = "\n".join(c.text for c in first.content if c.type == "text")
    # The text is all a client is sent (no structuredContent by default): the handle is on its
    # first line, where the model reads it.
    assert first.structured_content is None
    handle = session_handle(first)
    if handles:
        assert text.startswith(f"{SESSION_LINE}{handle} "), text[:200]
        assert len(handle) == 12 and client.session_handle == handle
    else:
        assert handle is None and not text.startswith(SESSION_LINE), text[:200]

    user = await agent.ref("user name field", "textbox", "User name")
    text, s = await agent.ok("fill", ref=user, text=USER)
    assert s["kind"] == "diff" and f'~ {user} textbox "User name": value none -> "{USER}"' in text, text
    assert not text.startswith(SESSION_LINE), "only the opening answer names the session in its text"
    assert client.session_handle == handle
    await agent.ok("type", ref=await agent.ref("password", "textbox", "Password"), text=PASSWORD)
    log_in = await agent.ref("log in button", "button", "Log in")
    text, s = await agent.ok("click", ref=log_in)
    assert f"Signed in as {USER}" in text and "/whoami" in text, text
    msg = await agent.error("click", "stale_ref", ref=log_in)
    assert log_in in msg
    text, s = await agent.ok("snapshot")
    assert s["kind"] == "unchanged", text


META = {
    "io.modelcontextprotocol/protocolVersion": "2026-07-28",
    "io.modelcontextprotocol/clientInfo": {"name": "raw", "version": "0"},
    "io.modelcontextprotocol/clientCapabilities": {},
}


def post_2026(url: str, method: str, params: dict, headers: dict | None = None) -> dict:
    """A raw 2026-07-28 request (no client library), as the revision's HTTP transport says:
    its version and method in headers too. Answers the JSON-RPC response, error or not."""
    body = {"jsonrpc": "2.0", "id": 1, "method": method, "params": params}
    req = urllib.request.Request(
        url,
        data=json.dumps(body).encode(),
        method="POST",
        headers={
            "Accept": "application/json, text/event-stream",
            "Content-Type": "application/json",
            "MCP-Protocol-Version": "2026-07-28",
            "Mcp-Method": method,
            **(headers or {}),
        },
    )
    try:
        with urllib.request.urlopen(req, timeout=30) as r:
            raw = r.read().decode()
    except urllib.error.HTTPError as e:
        raw = e.read().decode()
    # An SSE answer: the JSON is on its `data:` line.
    data = [line[5:].strip() for line in raw.splitlines() if line.startswith("data:") and line[5:].strip()]
    return json.loads(data[-1] if data else raw)


async def test_discover_and_tools_list_in_both_revisions(axsnap_http_server, site: Site) -> None:
    url = axsnap_http_server.url
    found = await asyncio.to_thread(post_2026, url, "server/discover", {"_meta": META})
    result = found["result"]
    assert {"2026-07-28", "2025-11-25"} <= set(result["supportedVersions"]), result
    assert result["_meta"]["io.modelcontextprotocol/serverInfo"]["name"] == "axsnap"
    assert result["ttlMs"] > 0 and result["cacheScope"] == "public", "the same for every client, for an hour"
    assert "pass it as session" in result["instructions"]
    # A 2026-07-28 call must say who it is in its own _meta: without it, the spec's invalid
    # params error, naming what is missing.
    bare = {"name": "snapshot", "arguments": {}, "_meta": {"io.modelcontextprotocol/protocolVersion": "2026-07-28"}}
    refused = await asyncio.to_thread(post_2026, url, "tools/call", bare, {"Mcp-Name": "snapshot"})
    assert refused["error"]["code"] == -32602, refused
    assert "clientCapabilities" in refused["error"]["message"], refused
    lists = []
    for mode in MODES.values():
        async with connect(axsnap_http_server.url, mode=mode) as c:
            lists.append([t.model_dump(exclude_none=True, by_alias=True) for t in (await c.list_tools()).tools])
    assert lists[0] == lists[1], "tools/list is one list, whatever the revision: cacheable"
    assert all("session" in t["inputSchema"]["properties"] for t in lists[0])
    listed = await asyncio.to_thread(post_2026, url, "tools/list", {"_meta": META})
    assert listed["result"]["ttlMs"] > 0 and listed["result"]["cacheScope"] == "public", listed["result"].keys()


async def test_handles_outlive_connections_and_keep_sessions_apart(axsnap_http_server, site: Site) -> None:
    url = axsnap_http_server.url
    async with connect(url) as a, connect(url) as b:
        log_in = Agent(a)
        await log_in.ok("navigate", url=site.url("/login"))
        await log_in.ok("fill", ref=await log_in.ref("user name", "textbox", "User name"), text=USER)
        await log_in.ok("fill", ref=await log_in.ref("password", "textbox", "Password"), text=PASSWORD)
        handle_a = a.session_handle
        text, _ = await Agent(b).ok("navigate", url=site.url("/whoami"))
        assert "Not signed in" in text
        assert b.session_handle and b.session_handle != handle_a
    # A new connection (a new client, as after a restart of the agent's host) carries on in
    # session a with its refs: the handle is all there is.
    async with connect(url) as c:
        c.session_handle = handle_a
        again = Agent(c)
        text, s = await again.ok("click", ref=await again.ref("log in button", "button", "Log in"))
        assert f"Signed in as {USER}" in text and c.session_handle == handle_a
        # No handle: a new session of its own, which has no page yet.
        fresh = await c.call_tool("snapshot", {"session": None})
        assert fresh.is_error and error_code(fresh) == "no_page"
        assert "pass the session an earlier answer gave" in fresh.content[0].text


async def test_bad_handles_and_close(axsnap_http_server, site: Site) -> None:
    async with connect(axsnap_http_server.url) as c:
        agent = Agent(c)
        unknown = await agent.error("snapshot", "unknown_session", session="nosuchsession")
        assert "Call without session to open a new one" in unknown
        await agent.error("snapshot", "bad_argument", session=42)
        # A first call that fails in the session it opened (no page yet) leaves none behind.
        msg = await agent.error("snapshot", "no_page")
        assert c.session_handle is None, "a failed first call opens no session"
        assert "pass the session an earlier answer gave" in msg
        nothing = await c.call_tool("close", {})
        assert not nothing.is_error and "nothing was closed" in text_of(nothing), text_of(nothing)

        await agent.ok("navigate", url=site.url("/pages/one"))
        handle = c.session_handle
        text, s = await agent.ok("close")
        assert f"session {handle} ended" in text, text
        msg = await agent.error("snapshot", "unknown_session", session=handle)
        assert handle in msg


async def test_idle_handle_sessions_end(axsnap_bin: Path, tmp_path: Path, site: Site) -> None:
    port = free_port()
    # 0.02 min: 1.2 s.
    argv = axsnap_http_command(axsnap_bin, port, "--idle-timeout", "0.02")
    with run_http_server(argv, port, tmp_path / "axsnap.log") as server:
        async with connect(server.url) as c:
            agent = Agent(c)
            await agent.ok("navigate", url=site.url("/pages/one"))
            handle = c.session_handle
            deadline = time.monotonic() + 60
            while True:
                # Well past the timeout (a busy machine may run the reaper late); a call that
                # finds the session still there keeps it alive, so wait again after it.
                await asyncio.sleep(3)
                r = await c.call_tool("snapshot", {"session": handle})
                if r.is_error:
                    assert error_code(r) == "unknown_session", r.content[0].text
                    break
                assert time.monotonic() < deadline, "the idle session never ended"
