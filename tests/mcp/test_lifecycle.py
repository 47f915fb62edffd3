"""A server that stops leaves nothing behind: every way `axsnap mcp` ends (SIGTERM, SIGINT,
SIGHUP, stdin closed on stdio, a panic) closes the Chromium it launched and all of Chromium's
own processes (zygotes, renderers, the GPU and network services) within a few seconds.

Each test starts a server, opens a page through it, records the server's process tree, ends
the server one way and then checks, by process id, that nothing of that tree is left: after
the server is gone its children would be re-parented to init, so they are looked for by id,
not as its descendants.
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from conftest import axsnap_http_command, axsnap_stdio_command, connect, free_port, text_of
from fixture_site import Site

pytestmark = pytest.mark.anyio

# How long a server may take to exit after it is told to, and its browser to be gone after.
EXIT_WITHIN = 20.0
GONE_WITHIN = 10.0


def parents() -> dict[int, int]:
    """pid -> parent pid of every process now."""
    out: dict[int, int] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            stat = Path(f"/proc/{entry}/stat").read_text()
        except OSError:
            continue
        # The command name (field 2) is in parentheses and may hold spaces.
        fields = stat[stat.rindex(")") + 2 :].split()
        out[int(entry)] = int(fields[1])
    return out


def descendants(pid: int) -> set[int]:
    """Every process below `pid` now."""
    tree = parents()
    found: set[int] = set()
    frontier = [pid]
    while frontier:
        p = frontier.pop()
        for child, parent in tree.items():
            if parent == p and child not in found:
                found.add(child)
                frontier.append(child)
    return found


def living(pids: set[int]) -> dict[int, str]:
    """Those of `pids` still running (zombies count as gone), with their command lines."""
    alive: dict[int, str] = {}
    for pid in pids:
        try:
            stat = Path(f"/proc/{pid}/stat").read_text()
            cmd = Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
        except OSError:
            continue
        if stat[stat.rindex(")") + 2 :].split()[0] != "Z":
            alive[pid] = cmd[:160]
    return alive


def browser_tree(server: subprocess.Popen) -> set[int]:
    """The server's process tree once its browser runs: Chromium and its helpers."""
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        tree = descendants(server.pid)
        SEEN.update(tree)
        if len(tree) >= 3:  # the browser, its zygote, a renderer
            return tree
        time.sleep(0.2)
    raise AssertionError(f"the server {server.pid} started no browser: {descendants(server.pid)}")


def assert_all_gone(server: subprocess.Popen, tree: set[int], how: str, log: Path) -> int:
    """Waits for the server to exit and its browser's processes to go; returns its exit code."""
    try:
        code = server.wait(EXIT_WITHIN)
    except subprocess.TimeoutExpired:
        server.kill()
        raise AssertionError(f"after {how} the server still ran {EXIT_WITHIN} s later:\n{log.read_text()}")
    deadline = time.monotonic() + GONE_WITHIN
    while living(tree) and time.monotonic() < deadline:
        time.sleep(0.1)
    left = living(tree)
    for pid in left:  # leave nothing for the next test, whatever this one says
        os.kill(pid, signal.SIGKILL)
    assert not left, f"after {how}, {len(left)} of the server's processes were left running: {left}"
    return code


# Every process a test saw in a server's tree, for the cleanup after a failed test.
SEEN: set[int] = set()


@pytest.fixture(autouse=True)
def leave_nothing() -> Iterator[None]:
    """Whatever a test asserts, nothing it started outlives it: the servers' process groups
    and every process seen in their trees get SIGKILL afterwards."""
    started: list[subprocess.Popen] = []
    STARTED.append(started)
    try:
        yield
    finally:
        STARTED.pop()
        for server in started:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(server.pid, signal.SIGKILL)
            with contextlib.suppress(Exception):
                server.wait(5)
        for pid in living(SEEN):
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
        SEEN.clear()


STARTED: list[list[subprocess.Popen]] = []


def start(argv: list[str], log: Path, **env: str) -> subprocess.Popen:
    server = subprocess.Popen(
        argv,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=open(log, "wb"),
        env={**os.environ, **env},
        start_new_session=True,
    )
    if STARTED:
        STARTED[-1].append(server)
    return server


# -- HTTP -------------------------------------------------------------------------------------


async def open_page_over_http(url: str, site: Site) -> None:
    """Two sessions (a legacy one and a stateless one), each with a page open."""
    async with connect(url, mode="legacy") as legacy, connect(url) as stateless:
        for client in (legacy, stateless):
            r = await client.call_tool("navigate", {"url": site.url("/form")})
            assert not r.is_error, text_of(r)


def wait_listening(port: int, server: subprocess.Popen, log: Path) -> None:
    import socket

    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        assert server.poll() is None, f"the server exited:\n{log.read_text()}"
        try:
            with socket.create_connection(("127.0.0.1", port), 0.5):
                return
        except OSError:
            time.sleep(0.1)
    raise AssertionError(f"the server did not listen on {port}")


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGINT, signal.SIGHUP], ids=lambda s: s.name)
async def test_http_server_stopped_by_a_signal_closes_its_browser(
    axsnap_bin: Path, site: Site, tmp_path: Path, sig: signal.Signals
) -> None:
    port = free_port()
    log = tmp_path / "server.log"
    server = start(axsnap_http_command(axsnap_bin, port), log)
    wait_listening(port, server, log)
    await open_page_over_http(f"http://127.0.0.1:{port}/mcp", site)
    tree = browser_tree(server)
    server.send_signal(sig)
    code = assert_all_gone(server, tree, sig.name, log)
    assert code == 0, f"exit code {code} after {sig.name}:\n{log.read_text()}"
    assert f"{sig.name}: stopping" in log.read_text()


async def test_http_server_that_panics_closes_its_browser(axsnap_bin: Path, site: Site, tmp_path: Path) -> None:
    port = free_port()
    log = tmp_path / "server.log"
    trigger = tmp_path / "panic-now"
    server = start(
        axsnap_http_command(axsnap_bin, port), log, AXSNAP_TEST_PANIC_ON=str(trigger)
    )
    wait_listening(port, server, log)
    await open_page_over_http(f"http://127.0.0.1:{port}/mcp", site)
    tree = browser_tree(server)
    trigger.touch()
    code = assert_all_gone(server, tree, "a panic", log)
    assert code != 0
    assert "panicked" in log.read_text()


# -- stdio ------------------------------------------------------------------------------------


class RawStdio:
    """MCP over a server's stdin and stdout, by hand: so that the test decides when stdin closes
    (the SDK's client closes it and then, after a moment, sends SIGTERM itself)."""

    def __init__(self, server: subprocess.Popen) -> None:
        self.server = server
        self.next_id = 0

    def request(self, method: str, params: dict) -> dict:
        self.next_id += 1
        self.send({"jsonrpc": "2.0", "id": self.next_id, "method": method, "params": params})
        assert self.server.stdout is not None
        while True:
            line = self.server.stdout.readline()
            assert line, "the server closed stdout"
            message = json.loads(line)
            if message.get("id") == self.next_id:
                assert "error" not in message, message
                return message["result"]

    def send(self, message: dict) -> None:
        assert self.server.stdin is not None
        self.server.stdin.write(json.dumps(message).encode() + b"\n")
        self.server.stdin.flush()


def open_page_over_stdio(server: subprocess.Popen, site: Site) -> None:
    raw = RawStdio(server)
    raw.request(
        "initialize",
        {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "raw", "version": "0"}},
    )
    raw.send({"jsonrpc": "2.0", "method": "notifications/initialized"})
    result = raw.request("tools/call", {"name": "navigate", "arguments": {"url": site.url("/form")}})
    assert not result.get("isError"), result


@pytest.mark.parametrize("how", ["stdin closed", "SIGTERM", "SIGINT", "SIGHUP"])
def test_stdio_server_ending_closes_its_browser(axsnap_bin: Path, site: Site, tmp_path: Path, how: str) -> None:
    log = tmp_path / "server.log"
    server = start(axsnap_stdio_command(axsnap_bin), log)
    try:
        open_page_over_stdio(server, site)
        tree = browser_tree(server)
        if how == "stdin closed":
            assert server.stdin is not None
            server.stdin.close()
        else:
            server.send_signal(getattr(signal, how))
        code = assert_all_gone(server, tree, how, log)
        assert code == 0, f"exit code {code} after {how}:\n{log.read_text()}"
    finally:
        if server.poll() is None:
            server.kill()
