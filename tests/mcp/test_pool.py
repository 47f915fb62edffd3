"""axsnap on a browser pool: browserless (npm @browserless.io/browserless, tests/pool), which
gives every WebSocket connection a Chromium of its own and lists its browsers at /sessions.

- `--cdp-pool`: each session connects on its own (so sessions spread over the pool's browsers)
  with the token as an `Authorization` header, works in a context of its own there, and gives
  its browser back when it ends. 8 sessions x 50 steps at once, no cross-talk (a cookie set in
  one is absent in the others), nothing left in the pool afterwards.
- `--cdp-endpoint http://…` with the header: one pool browser, a context per session.
- The pool killed mid-session: a clear error, no hang; once it is back the next call works and
  says the page state was lost. A wrong token fails at once, naming the refusal.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import secrets
import signal
import socket
import subprocess
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from answers import error_code, hits_of
from conftest import REPO, axsnap_http_command, connect, free_port, run_http_server, text_of
from fixture_site import PASSWORD, USER, Site
from test_axsnap_agent import Agent

pytestmark = pytest.mark.anyio

START = REPO / "tests" / "pool" / "start-browserless"


@dataclass
class Pool:
    port: int
    token: str
    process: subprocess.Popen
    log: Path

    @property
    def ws(self) -> str:
        return f"ws://127.0.0.1:{self.port}/chromium"

    def header(self) -> str:
        return f"Authorization: Bearer {self.token}"

    def browsers(self) -> list[dict]:
        """The pool's live browsers (its /sessions API). browserless answers 500 ("fetch
        failed") when a browser it lists ends while it asks it for its tabs: asked again."""
        url = f"http://127.0.0.1:{self.port}/sessions?token={self.token}"
        for attempt in range(20):
            try:
                with urllib.request.urlopen(url, timeout=30) as r:
                    return [s for s in json.loads(r.read()) if s.get("type") == "browser"]
            except urllib.error.HTTPError as e:
                if e.code < 500 or attempt == 19:
                    raise
                time.sleep(0.25)
        raise AssertionError("unreachable")

    def wait_browsers(self, count: int, within: float = 20) -> list[dict]:
        deadline = time.monotonic() + within
        while True:
            found = self.browsers()
            if len(found) == count or time.monotonic() > deadline:
                return found
            time.sleep(0.25)


@contextlib.contextmanager
def run_pool(tmp_path: Path, port: int | None = None, token: str | None = None) -> Iterator[Pool]:
    """browserless on 127.0.0.1 (a free port and a fresh token unless given: a pool that
    restarts keeps both), stopped (browsers and all) afterwards."""
    port = port or free_port()
    token = token or secrets.token_hex(8)
    log = tmp_path / f"browserless-{port}.log"
    with open(log, "ab") as out:
        process = subprocess.Popen(
            [str(START), str(port), token],
            stdin=subprocess.DEVNULL, stdout=out, stderr=subprocess.STDOUT,
            start_new_session=True, env={**os.environ, "CONCURRENT": "16", "QUEUED": "16"},
        )  # fmt: skip
    pool = Pool(port, token, process, log)
    try:
        deadline = time.monotonic() + 90
        while True:
            # browserless exits 0 when it cannot start: wait for the port, not the exit code.
            assert process.poll() is None, f"browserless exited:\n{log.read_text(errors='replace')}"
            with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port), 0.5):
                break
            assert time.monotonic() < deadline, f"browserless did not listen:\n{log.read_text()}"
            time.sleep(0.2)
        yield pool
    finally:
        stop_pool(pool)


def stop_pool(pool: Pool) -> None:
    """SIGTERM (browserless then closes every browser; SIGKILL would leave them running)."""
    if pool.process.poll() is None:
        pool.process.send_signal(signal.SIGTERM)
        try:
            pool.process.wait(20)
        except subprocess.TimeoutExpired:
            os.killpg(pool.process.pid, signal.SIGKILL)
            pool.process.wait()


@pytest.fixture
def pool(tmp_path: Path) -> Iterator[Pool]:
    with run_pool(tmp_path) as p:
        yield p


def pool_server(axsnap_bin: Path, pool: Pool, tmp_path: Path, *extra: str):
    port = free_port()
    argv = axsnap_http_command(axsnap_bin, port, *extra)
    # The pool's browser, not a launched one: --browser goes.
    i = argv.index("--browser")
    del argv[i : i + 2]
    return run_http_server(argv, port, tmp_path / "axsnap.log")


async def test_pool_8_sessions_50_steps_apart_and_given_back(
    axsnap_bin: Path, pool: Pool, site: Site, tmp_path: Path
) -> None:
    extra = ("--cdp-pool", pool.ws, "--cdp-header", pool.header())
    with pool_server(axsnap_bin, pool, tmp_path, *extra) as server:
        errors: list[str] = []
        latencies: list[float] = []  # every call after a session's first
        opening: list[float] = []  # a session's first call: its pool browser starts
        peak = 0

        async def session(i: int) -> None:
            nonlocal peak
            async with connect(server.url) as c:
                agent = Agent(c)

                async def step(tool: str, **args):
                    first = c.session_handle is None
                    t0 = time.perf_counter()
                    r = await c.call_tool(tool, args)
                    (opening if first else latencies).append(time.perf_counter() - t0)
                    if r.is_error:
                        errors.append(f"session {i} {tool} {args}: {text_of(r)}")
                    return text_of(r), r

                if i == 0:  # one session logs in: its cookie must stay its own
                    await step("navigate", url=site.url("/login"))
                    await agent.ok("fill", ref=await agent.ref("user name", "textbox", "User name"), text=USER)
                    await agent.ok("fill", ref=await agent.ref("password", "textbox", "Password"), text=PASSWORD)
                    text, _ = await agent.ok("click", ref=await agent.ref("log in button", "button", "Log in"))
                    assert f"Signed in as {USER}" in text
                pages = ["one", "two", "three"]
                here = pages[i % 3]
                await step("navigate", url=site.url(f"/pages/{here}?s={i}"))
                for n in range(48):
                    if n % 3 == 0:
                        nxt = pages[(pages.index(here) + 1) % 3]
                        _, s = await step("find", query=f"{nxt} link", limit=1)
                        if hits_of(s):
                            _, s = await step("click", ref=hits_of(s)[0]["ref"])
                            here = nxt
                    elif n % 3 == 1:
                        text, _ = await step("snapshot", mode="full")
                        if f'h1 "Page {here}"' not in text:
                            errors.append(f"session {i} sees the wrong page: {text[:200]}")
                    else:
                        await step("scroll", direction="down", amount=100)
                    if n == 24:
                        peak = max(peak, len(await asyncio.to_thread(pool.browsers)))
                text, _ = await step("navigate", url=site.url("/whoami"))
                signed_in = f"Signed in as {USER}" in text
                if signed_in != (i == 0):
                    errors.append(f"session {i} cross-talk: {text[:200]}")
                await agent.ok("close")

        await asyncio.gather(*(session(i) for i in range(8)))
        assert not errors, "\n".join(errors[:10])
        assert len(latencies) >= 8 * 40
        # Each session had a browser of the pool's to itself.
        assert peak == 8, f"{peak} pool browsers in use mid-run, expected one per session"
        left = await asyncio.to_thread(pool.wait_browsers, 0)
        assert left == [], f"the pool still holds {len(left)} browsers after every session closed"
        latencies.sort()
        p50 = latencies[len(latencies) // 2]
        p99 = latencies[min(len(latencies) - 1, int(len(latencies) * 0.99))]
        figures = {
            "calls": len(latencies),
            "p50_ms": round(p50 * 1000),
            "p99_ms": round(p99 * 1000),
            "opening_ms": sorted(round(t * 1000) for t in opening),
        }
        print(f"\npool: 8 sessions x 50 steps on browserless: {figures}")
        (REPO / "target" / "mcp-pool-load.json").write_text(json.dumps(figures))


async def test_one_pool_browser_by_http_endpoint(
    axsnap_bin: Path, pool: Pool, site: Site, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # /json/version answers a WebSocket URL without the token: the header carries it, from
    # the environment here (where a token stays out of the process list).
    monkeypatch.setenv("AXSNAP_CDP_HEADER", pool.header())
    extra = ("--cdp-endpoint", f"http://127.0.0.1:{pool.port}")
    with pool_server(axsnap_bin, pool, tmp_path, *extra) as server:
        async with connect(server.url) as a, connect(server.url) as b:
            await Agent(a).ok("navigate", url=site.url("/pages/one"))
            await Agent(b).ok("navigate", url=site.url("/pages/two"))
            browsers = await asyncio.to_thread(pool.browsers)
            assert len(browsers) == 1, "--cdp-endpoint shares one browser, a context per session"
            _, tabs_a = await Agent(a).ok("tabs", action="list")
            assert [t["url"].rsplit("/", 1)[1] for t in tabs_a["tabs"]] == ["one"]


async def test_pool_killed_mid_session_then_back(axsnap_bin: Path, site: Site, tmp_path: Path) -> None:
    port = free_port()
    with run_pool(tmp_path, port) as first:
        token = first.token
        extra = ("--cdp-pool", first.ws, "--cdp-header", first.header())
        with pool_server(axsnap_bin, first, tmp_path, *extra) as server:
            async with connect(server.url) as c:
                agent = Agent(c)
                await agent.ok("navigate", url=site.url("/pages/one"))
                stop_pool(first)
                t0 = time.monotonic()
                r = await c.call_tool("snapshot", {"mode": "full"})
                waited = time.monotonic() - t0
                assert r.is_error, text_of(r)
                code = error_code(r)
                assert code in ("browser_unavailable", "browser_gone"), (code, text_of(r))
                assert waited < 60, f"the call hung for {waited:.0f} s"
                # The pool comes back on the same port (with the same token).
                with run_pool(tmp_path, port, token) as second:
                    text, _ = await agent.ok("snapshot", mode="full")
                    assert 'h1 "Page one"' in text, text
                    first = text.splitlines()[0]
                    assert "state" in first and "lost" in first, text[:500]
                    assert len(await asyncio.to_thread(second.browsers)) == 1


async def test_pool_refuses_a_wrong_token_at_once(
    axsnap_bin: Path, pool: Pool, site: Site, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The server logs each retry at debug level: a refusal must have none.
    monkeypatch.setenv("AXSNAP_LOG", "axsnap_cdp=debug")
    extra = ("--cdp-pool", pool.ws, "--cdp-header", "Authorization: Bearer wrong")
    with pool_server(axsnap_bin, pool, tmp_path, *extra) as server:
        async with connect(server.url) as c:
            r = await c.call_tool("navigate", {"url": site.url("/pages/one")})
            assert r.is_error and "401" in text_of(r), text_of(r)
            assert "wrong" not in text_of(r), "the header's value stays out of errors"
        log = server.log_text()
        assert "trying again" not in log, "a refusal is not retried"
        assert "wrong" not in log, "nor is the header's value logged"


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGKILL], ids=lambda s: s.name)
async def test_a_server_that_ends_gives_its_pool_browsers_back(
    axsnap_bin: Path, pool: Pool, site: Site, tmp_path: Path, sig: signal.Signals
) -> None:
    # SIGTERM: the server closes its sessions' connections; SIGKILL: the OS closes them. Either
    # way the pool sees the connections go and ends their browsers.
    extra = ("--cdp-pool", pool.ws, "--cdp-header", pool.header())
    with pool_server(axsnap_bin, pool, tmp_path, *extra) as server:
        async with connect(server.url) as a, connect(server.url, mode="legacy") as b:
            await Agent(a).ok("navigate", url=site.url("/pages/one"))
            await Agent(b).ok("navigate", url=site.url("/pages/two"))
            assert len(await asyncio.to_thread(pool.browsers)) == 2
            server.process.send_signal(sig)
            server.process.wait(20)
    left = await asyncio.to_thread(pool.wait_browsers, 0)
    assert left == [], f"{len(left)} pool browsers outlived the server ({sig.name})"
