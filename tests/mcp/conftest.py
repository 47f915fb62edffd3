"""Fixtures for the MCP tests: the fixture site, MCP servers (axsnap's and Playwright MCP) and
official clients connected to them (the Python SDK over stdio and streamable HTTP, the MCP
Inspector's CLI).

Run with the venv that scripts/setup.sh (ensure_mcp_clients) makes:
    target/mcp-venv/bin/python -m pytest tests/mcp
`-m "not playwright_mcp"` leaves out the tests that drive Playwright MCP.

Clients connect with the Python SDK's default negotiation (`mode="auto"`: a `server/discover`
probe at 2026-07-28, then the `initialize` handshake at 2025-11-25 when the server refuses
the probe), the way a real agent built on the SDK connects. axsnap answers the probe, so over
HTTP its sessions are named by the handle each first answer gives, which `SessionClient`
passes back; `connect(..., mode="legacy")` speaks 2025-11-25 (a session per `Mcp-Session-Id`).
Playwright MCP refuses the probe and gets the handshake.

Environment:
    AXSNAP_BIN      the axsnap binary (default: target/debug/axsnap)
    AXSNAP_BROWSER  the Chromium both servers launch (default: /usr/bin/chromium)
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import socket
import subprocess
import time
from collections.abc import AsyncIterator, Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from mcp.client import Client
from mcp.client.stdio import StdioServerParameters

from answers import SESSION_LINE, session_handle  # tests/mcp/answers.py
from fixture_site import Site  # tests/mcp/fixture_site.py (pytest puts this folder on sys.path)

REPO = Path(__file__).resolve().parents[2]
NODE_DIR = REPO / "tests" / "mcp" / "node"
# Where Playwright MCP writes its snapshot and console files (it links them from its answers).
PLAYWRIGHT_OUTPUT = REPO / "target" / "playwright-mcp-output"


def browser_path() -> str:
    return os.environ.get("AXSNAP_BROWSER") or "/usr/bin/chromium"


# -- the site -------------------------------------------------------------------------------


@pytest.fixture(scope="session")
def site() -> Iterator[Site]:
    """The fixture site on 127.0.0.1 (see site.PAGES); `site.url('/login')` etc."""
    with Site() as s:
        yield s


# -- servers --------------------------------------------------------------------------------


@pytest.fixture(scope="session")
def axsnap_bin() -> Path:
    """The axsnap binary under test: $AXSNAP_BIN, or target/debug/axsnap."""
    path = Path(os.environ.get("AXSNAP_BIN") or REPO / "target" / "debug" / "axsnap")
    if not path.is_file():
        pytest.fail(f"no axsnap binary at {path}: run `cargo build -p axsnap` or set AXSNAP_BIN")
    return path


# The option that adds the JSON form (`structuredContent`) to every answer; off by default, as
# most agent clients give the model that JSON instead of the text. Tests that read the JSON
# for programs pass it; the rest read the text, as a model does (answers.py).
STRUCTURED = "--structured-content"


def axsnap_stdio_command(axsnap_bin: Path, *extra: str) -> list[str]:
    """`axsnap mcp` over stdio, on the test browser."""
    return [str(axsnap_bin), "mcp", "--browser", browser_path(), *extra]


def axsnap_http_command(axsnap_bin: Path, port: int, *extra: str) -> list[str]:
    """`axsnap mcp --http 127.0.0.1:PORT`, on the test browser."""
    return [*axsnap_stdio_command(axsnap_bin, *extra), "--http", f"127.0.0.1:{port}"]


def playwright_stdio_command(*extra: str) -> list[str]:
    """Playwright MCP (tests/mcp/node, pinned by its package-lock.json) over stdio: headless,
    in-memory profile, no sandbox (we run as root), on the test browser, writing its files
    under target/. Run it with cwd=NODE_DIR."""
    return [
        "npx", "--no-install", "@playwright/mcp",
        "--headless", "--isolated", "--no-sandbox",
        "--executable-path", browser_path(),
        "--output-dir", str(PLAYWRIGHT_OUTPUT),
        *extra,
    ]  # fmt: skip


def playwright_http_command(port: int, *extra: str) -> list[str]:
    """Playwright MCP serving streamable HTTP at http://127.0.0.1:PORT/mcp. (Its Host check
    allows only `localhost:PORT` unless told otherwise.)"""
    authority = f"127.0.0.1:{port}"
    return playwright_stdio_command(
        "--host", "127.0.0.1", "--port", str(port), "--allowed-hosts", authority, *extra
    )  # fmt: skip


def free_port() -> int:
    """A port nothing listens on now (the OS's choice; a race with other binders is possible
    but rare on a test machine)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@dataclass
class HttpServer:
    """A server process serving MCP over streamable HTTP."""

    url: str
    process: subprocess.Popen[bytes]
    log: Path

    def log_text(self) -> str:
        return self.log.read_text(errors="replace")


@contextlib.contextmanager
def run_http_server(
    argv: list[str], port: int, log: Path, cwd: Path | None = None, path: str = "/mcp"
) -> Iterator[HttpServer]:
    """Starts `argv` (which must listen on 127.0.0.1:`port`), waits until it accepts
    connections, yields it, then stops it and everything it started. Its stdout and stderr go
    to `log`."""
    with open(log, "wb") as out:
        # Its own process group, so that the teardown reaches the server itself when argv is a
        # launcher (npx runs the server as its child and does not pass signals on).
        process = subprocess.Popen(
            argv,
            cwd=cwd,
            stdin=subprocess.DEVNULL,
            stdout=out,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
    server = HttpServer(f"http://127.0.0.1:{port}{path}", process, log)
    try:
        deadline = time.monotonic() + 60
        while True:
            if process.poll() is not None:
                raise RuntimeError(
                    f"{argv[0]} exited ({process.returncode}) before listening:\n{server.log_text()}"
                )
            with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port), 0.5):
                break
            if time.monotonic() > deadline:
                raise RuntimeError(f"{argv[0]} did not listen on {port} in 60 s:\n{server.log_text()}")
            time.sleep(0.1)
        yield server
    finally:
        stop_group(process)


def stop_group(process: subprocess.Popen[bytes]) -> None:
    """SIGTERM to the process group `process` leads, SIGKILL to what is left after 10 s."""
    group = process.pid
    with contextlib.suppress(ProcessLookupError):
        os.killpg(group, signal.SIGTERM)
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        process.poll()  # reap the leader, or it stays in the group as a zombie
        try:
            os.killpg(group, 0)
        except ProcessLookupError:
            return
        time.sleep(0.1)
    with contextlib.suppress(ProcessLookupError):
        os.killpg(group, signal.SIGKILL)
    process.wait()


@pytest.fixture
def axsnap_http_server(axsnap_bin: Path, tmp_path: Path) -> Iterator[HttpServer]:
    """`axsnap mcp --http` on a free port, for one test."""
    port = free_port()
    with run_http_server(axsnap_http_command(axsnap_bin, port), port, tmp_path / "axsnap.log") as s:
        yield s


@pytest.fixture
def playwright_http_server(tmp_path: Path) -> Iterator[HttpServer]:
    """Playwright MCP over streamable HTTP on a free port, for one test."""
    port = free_port()
    with run_playwright_http_server(tmp_path) as s:
        yield s


@contextlib.contextmanager
def run_playwright_http_server(tmp_path: Path, *extra: str) -> Iterator[HttpServer]:
    """Playwright MCP over streamable HTTP on a free port, with `extra` options."""
    port = free_port()
    argv = playwright_http_command(port, *extra)
    with run_http_server(argv, port, tmp_path / "playwright-mcp.log", cwd=NODE_DIR) as s:
        yield s


# -- Python SDK clients ---------------------------------------------------------------------


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


def stdio_params(argv: list[str], cwd: Path | None = None) -> StdioServerParameters:
    return StdioServerParameters(
        command=argv[0], args=argv[1:], cwd=str(cwd) if cwd else None, env=dict(os.environ)
    )


class SessionClient(Client):
    """The Python SDK's client, passing back the session handle a stateless server gives
    (MCP 2026-07-28 over HTTP: the first line of the first answer's text, `session: HANDLE
    (...)`, as a model reads it) on every later call, as an agent does. `session_handle` is
    the handle in use (None: none yet, or the transport needs none); a call that names its own
    `session` keeps it."""

    session_handle: str | None = None

    async def call_tool(self, name: str, arguments: dict | None = None, *args, **kwargs):
        arguments = dict(arguments or {})
        if self.session_handle and "session" not in arguments:
            arguments["session"] = self.session_handle
        result = await super().call_tool(name, arguments, *args, **kwargs)
        handle = session_handle(result) or (result.structured_content or {}).get("session")
        if name == "close" and not result.is_error:
            self.session_handle = None
        elif handle:
            self.session_handle = handle
        return result


def connect(server: str | StdioServerParameters, mode: str = "auto") -> SessionClient:
    """A Python SDK client for a URL (streamable HTTP) or a command (stdio); use it as
    `async with connect(...) as client:`. `mode` as the SDK's Client takes it: "auto" (the
    SDK's default) speaks 2026-07-28 to axsnap, "legacy" 2025-11-25."""
    return SessionClient(server, mode=mode, read_timeout_seconds=60)


@pytest.fixture
async def axsnap_stdio(axsnap_bin: Path) -> AsyncIterator[Client]:
    """A Python SDK session with `axsnap mcp` over stdio (one server process per test)."""
    async with connect(stdio_params(axsnap_stdio_command(axsnap_bin))) as client:
        yield client


@pytest.fixture
async def axsnap_http(axsnap_http_server: HttpServer) -> AsyncIterator[Client]:
    """A Python SDK session with `axsnap mcp --http` (open more with
    `connect(axsnap_http_server.url)`)."""
    async with connect(axsnap_http_server.url) as client:
        yield client


@pytest.fixture
async def playwright_stdio() -> AsyncIterator[Client]:
    """A Python SDK session with Playwright MCP over stdio."""
    async with connect(stdio_params(playwright_stdio_command(), cwd=NODE_DIR)) as client:
        yield client


@pytest.fixture
async def playwright_http(playwright_http_server: HttpServer) -> AsyncIterator[Client]:
    """A Python SDK session with Playwright MCP over streamable HTTP."""
    async with connect(playwright_http_server.url) as client:
        yield client


def text_of(result) -> str:
    """The text content of a tool result, joined; without the line a stateless session's first
    answer opens with (`session: HANDLE (...)`), which tests of the session read themselves."""
    text = "\n".join(c.text for c in result.content if getattr(c, "type", None) == "text")
    if text.startswith(SESSION_LINE):
        text = text.partition("\n")[2]
    return text


# -- the MCP Inspector's CLI ----------------------------------------------------------------


@dataclass
class Inspector:
    """Runs the MCP Inspector in CLI mode (one connection per call) from tests/mcp/node, with
    the Node 22 that package pins (npx puts node_modules/.bin first on PATH)."""

    protocol_era: str = "legacy"

    def __call__(self, *args: str, target: list[str] | str, timeout: float = 120) -> dict:
        """`inspector --cli --format json -q ARGS TARGET`: the parsed JSON it prints. TARGET is
        a URL (streamable HTTP when it ends in /mcp) or a command line (stdio)."""
        # After `--`, so that a variadic option before it (--tool-arg) does not take it.
        target_args = ["--", target] if isinstance(target, str) else ["--", *target]
        argv = [
            "npx", "--no-install", "@modelcontextprotocol/inspector", "--cli",
            "--protocol-era", self.protocol_era, "--format", "json", "-q",
            *args, *target_args,
        ]  # fmt: skip
        done = subprocess.run(
            argv, cwd=NODE_DIR, capture_output=True, text=True, timeout=timeout, check=False
        )
        if done.returncode != 0:
            raise AssertionError(
                f"inspector exited {done.returncode}: {' '.join(argv)}\n"
                f"stdout: {done.stdout}\nstderr: {done.stderr}"
            )
        return json.loads(done.stdout)


@pytest.fixture(scope="session")
def inspector() -> Inspector:
    """The MCP Inspector CLI, negotiating the legacy era (initialize at 2025-11-25)."""
    return Inspector()
