"""The `network` group (issue 23): `network_requests` and `console` list what the current tab
loaded and logged, filtered and limited, with bodies on request; secrets never show (a
password posted by a login form or in JSON, a token in a URL or a response). Real Chromium,
the fixture site, the Python SDK over stdio."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from conftest import STRUCTURED, axsnap_http_command, axsnap_stdio_command, connect, free_port, run_http_server, stdio_params, text_of
from fixture_site import PASSWORD, USER, Site
from test_axsnap_agent import Agent

pytestmark = pytest.mark.anyio

SECRETS = ("hunter22", "t0k3n-abc", "srv-s3cret-token", PASSWORD)


class Inspector(Agent):
    """An agent that also checks no answer shows a secret of the page."""

    async def call(self, tool: str, **args):
        r, s = await super().call(tool, **args)
        everything = text_of(r) + json.dumps(s)
        for secret in SECRETS:
            assert secret not in everything, (tool, args, secret, everything[:2000])
        return r, s


async def test_requests_and_console_of_a_page(axsnap_bin: Path, site: Site) -> None:
    argv = axsnap_stdio_command(axsnap_bin, STRUCTURED, "--caps", "network")
    async with connect(stdio_params(argv)) as c:
        names = [t.name for t in (await c.list_tools()).tools]
        assert names[-2:] == ["network_requests", "console"], names
        agent = Inspector(c)
        await agent.ok("navigate", url=site.url("/activity"))
        await agent.ok("wait_for", text="ready")

        text, s = await agent.ok("network_requests")
        lines = text.splitlines()[1:-1]
        urls = [r["url"] for r in s["requests"]]
        # The page's own load is in the record, first.
        assert s["requests"][0]["url"] == site.url("/activity") and s["requests"][0]["type"] == "Document", s
        assert s["requests"][0]["status"] == 200 and s["requests"][0]["size"] > 0, s["requests"][0]
        items = next(r for r in s["requests"] if "/api/items" in r["url"])
        assert items["url"] == site.url("/api/items?q=cats&token=[redacted]"), items
        assert (items["method"], items["status"], items["type"]) == ("GET", 200, "Fetch"), items
        login = next(r for r in s["requests"] if r["url"].endswith("/api/login"))
        assert (login["method"], login["status"]) == ("POST", 401), login
        image = next(r for r in s["requests"] if r["url"].endswith("/missing.png"))
        assert (image["status"], image["type"]) == (404, "Image"), image
        assert len(lines) == len(urls) and all(line.startswith("#") for line in lines), text
        assert any(" POST 401 Fetch " in line and line.endswith("/api/login") for line in lines), text

        text, s = await agent.ok("network_requests", filter="/api/")
        assert [r["url"].split("?")[0].rsplit("/", 1)[1] for r in s["requests"]] == ["items", "login"], text
        assert s["matched"] == 2 and '(2 match "/api/")' in text, text
        _, s = await agent.ok("network_requests", filter="post")
        assert [r["method"] for r in s["requests"]] == ["POST"], s
        text, s = await agent.ok("network_requests", limit=1)
        assert len(s["requests"]) == 1 and "the last 1:" in text, text

        # One request with its bodies: the password and the answer's token redacted.
        text, s = await agent.ok("network_requests", id=login["id"])
        assert '"password":"[redacted]"' in s["request_body"] and '"user":"ann"' in s["request_body"], s
        assert s["response_body"] == '{"error":"bad password","token":"[redacted]"}', s
        assert "request body (application/json" in text and "response body (application/json" in text, text
        text, s = await agent.ok("network_requests", id=items["id"])
        assert "cat one" in s["response_body"] and s["request_body"] is None, s
        await agent.error("network_requests", "not_found", id=99999)

        # Console: info and above by default, each with where it came from.
        text, s = await agent.ok("console")
        by_text = {m["text"]: m for m in s["messages"]}
        assert "loaded {a: 1}" in by_text and "low disk" in by_text and "boom" in by_text, text
        assert "dbg detail" not in by_text, text
        assert by_text["low disk"]["level"] == "warning" and by_text["boom"]["level"] == "error", s
        assert by_text["boom"]["location"].startswith(site.url("/activity") + ":"), by_text["boom"]
        exception = next(m for m in s["messages"] if m["source"] == "exception")
        assert "TypeError" in exception["text"] and exception["level"] == "error", exception
        failed_load = [m for m in s["messages"] if m["source"] == "network" and "404" in m["text"]]
        assert failed_load, text  # the browser's own entry for the missing image
        _, s = await agent.ok("console", level="error")
        assert {m["level"] for m in s["messages"]} == {"error"} and len(s["messages"]) >= 3, s
        _, s = await agent.ok("console", level="debug", filter="DBG")
        assert [m["text"] for m in s["messages"]] == ["dbg detail"], s
        with pytest.raises(Exception, match="must be one of"):
            await c.call_tool("console", {"level": "loud"})

        # What a later action causes joins the record.
        await agent.ok("click", ref=await agent.ref("load more", "button", "Load more"))
        await agent.ok("wait_for", text="cat three")
        _, s = await agent.ok("network_requests", filter="page=2")
        assert len(s["requests"]) == 1 and s["requests"][0]["status"] == 200, s
        _, s = await agent.ok("console", limit=1)
        assert [m["text"] for m in s["messages"]] == ["page 2"], s


async def test_a_frame_of_another_site_is_recorded(axsnap_bin: Path, site: Site) -> None:
    """A page of 127.0.0.1 framing /activity from localhost (another site: its own renderer
    process and CDP session): the frame's requests and messages are the tab's too."""
    inner = site.url("/activity").replace("127.0.0.1", "localhost")
    argv = axsnap_stdio_command(axsnap_bin, STRUCTURED, "--caps", "network")
    async with connect(stdio_params(argv)) as c:
        agent = Inspector(c)
        await agent.ok("navigate", url=site.url("/framed?src=" + inner))
        await agent.ok("wait_for", text="ready")
        _, s = await agent.ok("network_requests", filter="localhost")
        urls = [r["url"] for r in s["requests"]]
        assert inner in urls and any("/api/items" in u for u in urls), urls
        login = next(r for r in s["requests"] if r["url"].endswith("/api/login"))
        _, s = await agent.ok("network_requests", id=login["id"])
        assert s["response_body"] == '{"error":"bad password","token":"[redacted]"}', s
        _, s = await agent.ok("console", filter="boom")
        assert [m["location"].split(":")[1] for m in s["messages"]] == ["//localhost"], s


async def test_listings_fit_one_answer(axsnap_bin: Path, site: Site) -> None:
    """300 long console messages: a listing shows the newest that fit (about 6k tokens of
    lines), says so, and never drops one silently."""
    argv = axsnap_stdio_command(axsnap_bin, STRUCTURED, "--caps", "network")
    async with connect(stdio_params(argv)) as c:
        agent = Inspector(c)
        await agent.ok("navigate", url=site.url("/noisy"))
        await agent.ok("wait_for", text="done")
        text, s = await agent.ok("console", limit=200, filter="noise")
        shown = [m["text"].split(":")[0] for m in s["messages"]]
        assert s["matched"] == 300 and 5 <= len(shown) < 200, (s["matched"], len(shown))
        assert shown[-1] == "noise 300" and shown == [f"noise {n}" for n in range(301 - len(shown), 301)], shown
        assert "as many as fit in one answer" in text and len(text) < 30_000, text[:300]
        _, s = await agent.ok("console", filter="noise 17:")
        assert [m["text"][:10] for m in s["messages"]] == ["noise 17: "], s


async def test_a_login_form_post_is_redacted(axsnap_bin: Path, site: Site) -> None:
    """A form posts a hidden CSRF token and its password (as Jupyter Server's login form does);
    both are redacted by name, and the password field's value is also a secret text the
    captures found, so no form of it shows anywhere."""
    argv = axsnap_stdio_command(axsnap_bin, STRUCTURED, "--caps", "network")
    async with connect(stdio_params(argv)) as c:
        agent = Inspector(c)
        await agent.ok("navigate", url=site.url("/login"))
        await agent.ok("fill", ref=await agent.ref("user name field", "textbox", "User name"), text=USER)
        await agent.ok("fill", ref=await agent.ref("password", "textbox", "Password"), text=PASSWORD)
        text, _ = await agent.ok("click", ref=await agent.ref("log in button", "button", "Log in"))
        assert f"Signed in as {USER}" in text, text
        text, s = await agent.ok("network_requests", filter="POST")
        post = s["requests"][0]
        assert post["url"] == site.url("/login") and post["status"] == 303, s
        text, s = await agent.ok("network_requests", id=post["id"])
        assert s["request_body"] == f"_xsrf=[redacted]&user={USER}&password=[redacted]", s
        # The browser keeps the last hop's body only: a redirect says so, not another's body.
        assert s["response_body"] is None and "a redirect: no body kept" in text, text
        # The redirect's next hop is its own entry.
        _, s = await agent.ok("network_requests", filter="whoami")
        assert s["requests"] and s["requests"][-1]["status"] == 200, s


async def test_sessions_see_only_their_own(axsnap_bin: Path, site: Site, tmp_path: Path) -> None:
    """Two HTTP sessions of one server, on one browser: each lists its own tab's requests and
    messages only."""
    port = free_port()
    argv = axsnap_http_command(axsnap_bin, port, STRUCTURED, "--caps", "network")
    with run_http_server(argv, port, tmp_path / "server.log") as server:
        async with connect(server.url) as a, connect(server.url) as b:
            one, two = Inspector(a), Inspector(b)
            await one.ok("navigate", url=site.url("/activity"))
            await one.ok("wait_for", text="ready")
            await two.ok("navigate", url=site.url("/pages/two"))
            _, s = await one.ok("network_requests")
            assert any("/api/items" in r["url"] for r in s["requests"]), s
            assert not any("/pages/two" in r["url"] for r in s["requests"]), s
            _, s = await two.ok("network_requests")
            assert [r["url"] for r in s["requests"] if r["type"] == "Document"] == [site.url("/pages/two")], s
            assert not any("/api/" in r["url"] for r in s["requests"]), s
            _, s = await two.ok("console", level="debug")
            assert not any("boom" in m["text"] for m in s["messages"]), s


async def test_the_group_is_off_by_default(axsnap_bin: Path, site: Site) -> None:
    async with connect(stdio_params(axsnap_stdio_command(axsnap_bin, STRUCTURED))) as c:
        names = [t.name for t in (await c.list_tools()).tools]
        assert "network_requests" not in names and "console" not in names, names
        await Agent(c).ok("navigate", url=site.url("/activity"))
        with pytest.raises(Exception, match="unknown tool"):
            await c.call_tool("console", {})
