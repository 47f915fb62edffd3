"""Progress and cancellation of long calls: a call given a progress token (`_meta.progressToken`)
that runs past about a second is told of with `notifications/progress` about every second until
it answers, each saying the stage it is in; a fast call is told of not at all; nothing follows a
call's answer or its cancellation, and a cancelled call leaves its session ready for the next.

The slow call is a navigation to the fixture site's /slow page, whose script fetches a resource
the server answers after a few seconds: the settle waits on that request, and says so.

The official Python SDK drives the server (over stdio and streamable HTTP); its callbacks run in
tasks of their own, so the exact order of notifications and answers on the wire is checked with
plain JSON-RPC lines over stdio as well. No test asserts speed: times are generous bounds, and
"a fast call sends none" is asserted only of a call that did take under a second.
"""

from __future__ import annotations

import contextlib
import json
import subprocess
import threading
import time
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from pathlib import Path

import anyio
import pytest
from conftest import (
    SessionClient,
    axsnap_http_command,
    axsnap_stdio_command,
    free_port,
    run_http_server,
    stdio_params,
    text_of,
)
from fixture_site import Site
from mcp import types

pytestmark = pytest.mark.anyio

# The slow page's resource answers after this long: past the first notification (1 s), within
# the settle's cap (3 s), so the navigation answers a settled page.
SLOW_MS = 2500
# For cancelling: longer than the settle's cap, so the call would run past 3 s if not cancelled.
SLOWER_MS = 20_000
# Generous bounds for a busy 2-core machine.
CALL_WITHIN = 90.0


@dataclass
class Heard:
    """Every progress notification the client received (through the SDK's message handler,
    which sees them whether or not a call still waits): (when, token, progress, message)."""

    notes: list[tuple[float, object, float, str | None]] = field(default_factory=list)

    async def handle(self, message) -> None:
        if isinstance(message, types.ProgressNotification):
            p = message.params
            self.notes.append((time.monotonic(), p.progress_token, p.progress, p.message))

    def tokens_after(self, t: float) -> set[object]:
        return {token for at, token, _, _ in self.notes if at > t}


@dataclass
class Told:
    """What one call's progress callback was told: (when, progress, total, message)."""

    notes: list[tuple[float, float, float | None, str | None]] = field(default_factory=list)
    first: anyio.Event = field(default_factory=anyio.Event)

    async def __call__(self, progress: float, total: float | None, message: str | None) -> None:
        self.notes.append((time.monotonic(), progress, total, message))
        self.first.set()


@contextlib.asynccontextmanager
async def client_on(transport: str, axsnap_bin: Path, tmp_path: Path) -> AsyncIterator[tuple[SessionClient, Heard]]:
    """A Python SDK client of a fresh `axsnap mcp` over `transport`, and what it hears."""
    heard = Heard()
    with contextlib.ExitStack() as stack:
        if transport == "stdio":
            server: object = stdio_params(axsnap_stdio_command(axsnap_bin))
        else:
            port = free_port()
            http = stack.enter_context(
                run_http_server(axsnap_http_command(axsnap_bin, port), port, tmp_path / "axsnap.log")
            )
            server = http.url
        client = SessionClient(server, mode="auto", read_timeout_seconds=CALL_WITHIN, message_handler=heard.handle)
        async with client:
            yield client, heard


async def warm(client: SessionClient, site: Site) -> None:
    """Starts the browser on a tiny page, so later calls time only themselves."""
    with anyio.fail_after(CALL_WITHIN):
        result = await client.call_tool("navigate", {"url": site.url("/")})
    assert not result.is_error, text_of(result)


@pytest.mark.parametrize("transport", ["stdio", "http"])
async def test_a_long_call_says_what_it_waits_on(transport: str, axsnap_bin: Path, site: Site, tmp_path: Path):
    async with client_on(transport, axsnap_bin, tmp_path) as (client, heard):
        await warm(client, site)
        told = Told()
        with anyio.fail_after(CALL_WITHIN):
            result = await client.call_tool(
                "navigate", {"url": site.url(f"/slow?ms={SLOW_MS}")}, progress_callback=told
            )
        answered = time.monotonic()
        assert not result.is_error, text_of(result)
        assert "data arrived" in text_of(result), text_of(result)
        # Callbacks run in tasks of their own: give any still queued a moment.
        await anyio.sleep(0.5)
        assert told.notes, "a call of over 2 s sent no progress"
        values = [p for _, p, _, _ in told.notes]
        assert all(a < b for a, b in zip(values, values[1:])), values
        messages = [m for _, _, _, m in told.notes]
        assert all(m and m.strip() for m in messages), messages
        # The stage, as specific as it is: the settle names the request the page waits on.
        assert any("settle" in m or "loading" in m for m in messages), messages
        assert any("slow-data" in m for m in messages), messages
        # And nothing came after the answer (allowing for callbacks still queued at it).
        tokens = {token for at, token, _, _ in heard.notes if at <= answered + 0.5}
        await anyio.sleep(2.0)
        assert not (heard.tokens_after(answered + 0.5) & tokens), heard.notes


async def test_progress_names_a_url_without_its_secrets(axsnap_bin: Path, site: Site, tmp_path: Path):
    """The stage names the page it loads, with secret query values cut as answers cut them."""
    secret = "hunter2-progress-secret"
    async with client_on("stdio", axsnap_bin, tmp_path) as (client, _heard):
        await warm(client, site)
        told = Told()
        # /help?slow=1 answers after 2 s: the call is loading it when the first note goes out.
        with anyio.fail_after(CALL_WITHIN):
            result = await client.call_tool(
                "navigate", {"url": site.url(f"/help?slow=1&token={secret}")}, progress_callback=told
            )
        assert not result.is_error, text_of(result)
        await anyio.sleep(0.5)
        messages = [m or "" for _, _, _, m in told.notes]
        loading = [m for m in messages if m.startswith("loading ") and "/help?" in m]
        assert loading, messages
        assert not any(secret in m for m in messages), messages


@pytest.mark.parametrize("transport", ["stdio", "http"])
async def test_a_fast_call_gets_no_progress(transport: str, axsnap_bin: Path, site: Site, tmp_path: Path):
    async with client_on(transport, axsnap_bin, tmp_path) as (client, heard):
        await warm(client, site)
        told = Told()
        began = time.monotonic()
        with anyio.fail_after(CALL_WITHIN):
            result = await client.call_tool("snapshot", {}, progress_callback=told)
        took = time.monotonic() - began
        assert not result.is_error, text_of(result)
        await anyio.sleep(2.0)
        if took < 0.9:
            assert told.notes == [], told.notes
            assert heard.notes == [] or all(at < began for at, *_ in heard.notes), heard.notes


async def test_cancelling_a_call_stops_its_progress_and_frees_the_session(
    axsnap_bin: Path, site: Site, tmp_path: Path
):
    async with client_on("stdio", axsnap_bin, tmp_path) as (client, heard):
        await warm(client, site)
        told = Told()
        outcome: list[object] = []

        async def slow_call() -> None:
            outcome.append(
                await client.call_tool(
                    "navigate", {"url": site.url(f"/slow?ms={SLOWER_MS}")}, progress_callback=told
                )
            )

        async with anyio.create_task_group() as tg:
            tg.start_soon(slow_call)
            with anyio.fail_after(CALL_WITHIN):
                await told.first.wait()
            # The SDK sends notifications/cancelled for a call its caller abandons.
            tg.cancel_scope.cancel()
        assert outcome == [], "the slow call answered before it was cancelled"
        cancelled_at = time.monotonic()
        slow_tokens = {token for _, token, _, _ in heard.notes}
        assert slow_tokens, heard.notes

        # The session answers its next call, well before the slow one would have ended.
        with anyio.fail_after(CALL_WITHIN):
            result = await client.call_tool("navigate", {"url": site.url("/pages/one")})
        assert not result.is_error, text_of(result)
        assert "One" in text_of(result), text_of(result)
        next_answered = time.monotonic()

        # No progress of the cancelled call after the next call's answer, and at most the one
        # that may have been on its way as the cancellation travelled (uncancelled, the slow
        # call would go on to its settle's cap, 3 s, telling of it every second).
        await anyio.sleep(3.0)
        late = [n for n in heard.notes if n[1] in slow_tokens and n[0] > next_answered + 0.5]
        assert late == [], late
        after_cancel = [n for n in heard.notes if n[1] in slow_tokens and n[0] > cancelled_at]
        assert len(after_cancel) <= 1, after_cancel


class Wire:
    """`axsnap mcp` over stdio spoken to in plain JSON-RPC lines, to see the order of what it
    writes."""

    def __init__(self, argv: list[str]):
        self.process = subprocess.Popen(
            argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL
        )
        self.lines: list[dict] = []
        self.cond = threading.Condition()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        assert self.process.stdout is not None
        for line in self.process.stdout:
            with contextlib.suppress(ValueError), self.cond:
                self.lines.append(json.loads(line))
                self.cond.notify_all()

    def send(self, message: dict) -> None:
        assert self.process.stdin is not None
        self.process.stdin.write(json.dumps(message).encode() + b"\n")
        self.process.stdin.flush()

    def answer_to(self, id_: int, within: float = CALL_WITHIN) -> int:
        """The index in `lines` of the answer to request `id_`, waiting for it."""
        deadline = time.monotonic() + within
        with self.cond:
            while True:
                for i, m in enumerate(self.lines):
                    if m.get("id") == id_ and ("result" in m or "error" in m):
                        return i
                left = deadline - time.monotonic()
                if left <= 0:
                    raise AssertionError(f"no answer to {id_} in {within} s: {self.lines}")
                self.cond.wait(left)

    def call(self, id_: int, name: str, arguments: dict, token: str | None = None) -> int:
        params: dict = {"name": name, "arguments": arguments}
        if token is not None:
            params["_meta"] = {"progressToken": token}
        self.send({"jsonrpc": "2.0", "id": id_, "method": "tools/call", "params": params})
        return self.answer_to(id_)

    def close(self) -> None:
        with contextlib.suppress(OSError):
            assert self.process.stdin is not None
            self.process.stdin.close()
        try:
            self.process.wait(30)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()


def progress_of(lines: list[dict], token: str) -> list[dict]:
    return [
        m["params"]
        for m in lines
        if m.get("method") == "notifications/progress" and m["params"].get("progressToken") == token
    ]


def test_on_the_wire_progress_comes_before_the_answer_and_never_after(axsnap_bin: Path, site: Site):
    wire = Wire(axsnap_stdio_command(axsnap_bin))
    try:
        wire.send(
            {
                "jsonrpc": "2.0",
                "id": 1,
                "method": "initialize",
                "params": {
                    "protocolVersion": "2025-11-25",
                    "capabilities": {},
                    "clientInfo": {"name": "wire-test", "version": "0"},
                },
            }
        )
        wire.answer_to(1)
        wire.send({"jsonrpc": "2.0", "method": "notifications/initialized"})
        wire.call(2, "navigate", {"url": site.url("/")})
        done = wire.call(3, "navigate", {"url": site.url(f"/slow?ms={SLOW_MS}")}, token="slow")
        before = progress_of(wire.lines[:done], "slow")
        assert before, wire.lines
        assert [p["progress"] for p in before] == sorted({p["progress"] for p in before}), before
        assert all(p.get("message") for p in before), before
        assert all("total" not in p for p in before), before
        # A later call (given no token) and a pause: nothing more of the slow call.
        wire.call(4, "snapshot", {})
        time.sleep(2.0)
        with wire.cond:
            assert progress_of(wire.lines[done:], "slow") == [], wire.lines[done:]
            # A call without a token is told of by no notification.
            assert all(m.get("method") != "notifications/progress" or m["params"]["progressToken"] == "slow"
                       for m in wire.lines), wire.lines
    finally:
        wire.close()
