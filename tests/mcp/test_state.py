"""Several `axsnap mcp --http` servers sharing one state store (`--state redis://…`), behind a
load balancer, on one shared Chromium (`--cdp-endpoint`): at MCP 2026-07-28 a session (its refs,
baselines and tabs) lives in Redis, so any server answers any call with its handle, and a server
killed mid-session loses no session: the next call, on another server, carries on with the same
refs and answers with a diff against the last answer the client got; the page itself survives
in the shared browser, whose contexts outlive the server that made them.

- 8 sessions x 50 steps at once through the load balancer, each on its own counter page
  (fixture_site's /counter), clicking by the ref its first answer gave and filling a field;
  server `a` SIGKILLed mid-run: every session finishes, its ref works on every step, the
  counter matches the clicks answered, answers after the kill are diffs, no session sees
  another's page; once all are closed, the shared browser holds no context of theirs.
- A session served by `a`, `a` killed between calls: its next call (on `b`) has the same refs,
  the typed text, and a diff against the last answer.
- A handle Redis does not know is `unknown_session` on every server; `close` on one server
  ends the session on the others too.

The cluster of each test (function scope, all on 127.0.0.1, each process in its own process
group, stopped by group afterwards):
- redis-server on a free port, no persistence, its files in the test's tmp_path;
- one headless Chromium with --remote-debugging-port (a fresh profile), the browser every server
  attaches to with `--cdp-endpoint http://127.0.0.1:PORT`: each session gets a browser context
  there;
- two servers, `a` and `b`, with `--state redis://127.0.0.1:P` and `--allowed-host` naming
  HAProxy's address (the Host their requests carry);
- HAProxy in front (`mode http`, `balance roundrobin`: consecutive calls alternate between the
  servers; TCP health checks every 500 ms; a call sent to a dead server is retried on the
  other one, see HAPROXY_CFG). Its log (one line a request: server, status, retries, method)
  says which server served what.

Needs redis-server and haproxy (Debian packages; scripts/setup.sh's ensure_state_store installs
them, scripts/test calls it): without them these tests fail, saying so.
"""

from __future__ import annotations

import base64
import contextlib
import json
import os
import re
import shutil
import signal
import socket
import time
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlsplit

import anyio
import pytest
from conftest import (
    STRUCTURED,
    HttpServer,
    axsnap_http_command,
    browser_path,
    connect,
    free_port,
    run_http_server,
    text_of,
)
from fixture_site import Site
from test_axsnap_agent import Agent


def _find_tool(name: str) -> str | None:
    """`name` on PATH, or in /usr/sbin or /usr/bin (haproxy is in /usr/sbin, which a non-root
    PATH may leave out)."""
    found = shutil.which(name)
    if found:
        return found
    for folder in ("/usr/sbin", "/usr/bin"):
        path = os.path.join(folder, name)
        if os.access(path, os.X_OK):
            return path
    return None


REDIS_SERVER = _find_tool("redis-server")
HAPROXY = _find_tool("haproxy")
MISSING = [name for name, path in (("redis-server", REDIS_SERVER), ("haproxy", HAPROXY)) if not path]

pytestmark = pytest.mark.anyio

# The page each session works on: /counter?who=NAME (fixture_site.PAGES).
INCREMENT = re.compile(r'button "Increment" \[(e\d+)\]')
NOTE = re.compile(r'textbox "Note" \[(e\d+)\]')
# Any session's marks on its page: a session must only ever see its own.
MARKS = re.compile(r"\b(s\d+|t\d+) (?:count|click)\b|\bCounter (s\d+|t\d+)\b")


def count_in(text: str, who: str) -> list[int]:
    """Every `WHO count: N` in an answer, in order (a diff says the old value, then the new)."""
    return [int(n) for n in re.findall(rf"\b{re.escape(who)} count: (\d+)", text)]


def strangers(text: str, who: str) -> set[str]:
    """The other sessions' marks an answer shows."""
    return {m for groups in MARKS.findall(text) for m in groups if m and m != who}


# -- the cluster ------------------------------------------------------------------------------

# Retries: a call whose server is dead goes to the other one. `conn-failure`: the server refused
# the connection (it is gone, and the health checks have not marked it down yet);
# `empty-response`: the server closed the connection without a byte of an answer (killed
# mid-call; axsnap sends its answer's headers with the answer, so a call that dies mid-way
# has sent nothing). Any retry other than conn-failure needs the request kept in a buffer
# (requests bigger than tune.bufsize, 16 KB, are never retried); `option http-buffer-request`
# waits for the whole body before choosing a server. `option redispatch 1`: every retry may
# go to another server (the default, -1, only the last one). A replayed call may run twice
# (the dead server may have acted before it died): the tests allow exactly that. Without
# `empty-response` the call in flight on the killed server answers 502 (the SDK raises
# MCPError -32603 "Server returned an error response") and the client must send it again.
# Either way the next call in that session waits for the dead server's lock on it in Redis to
# lapse (up to 10 s).
HAPROXY_CFG = """\
global
    maxconn 512
    log stderr format raw local0

defaults
    mode http
    log global
    # Not the connections that send nothing (the readiness probe of run_http_server).
    option dontlognull
    log-format "served-by=%s status=%ST retries=%rc method=%HM tool=%[capture.req.hdr(0)] time=%Tt"
    option http-buffer-request
    option redispatch 1
    retries 2
    retry-on conn-failure empty-response
    timeout connect 1s
    timeout client 120s
    timeout server 60s
    timeout http-request 30s
    timeout queue 30s
    timeout check 1s

frontend mcp
    bind 127.0.0.1:{port}
    http-request capture req.hdr(Mcp-Name) len 40
    default_backend axsnap

backend axsnap
    balance roundrobin
{servers}
"""


@dataclass
class Cluster:
    """Redis, the shared Chromium, the axsnap servers (`a`, `b`) and HAProxy before them."""

    url: str  # HAProxy's /mcp
    servers: dict[str, HttpServer]
    redis_port: int
    cdp_port: int
    haproxy_log: Path
    killed: set[str] = field(default_factory=set)

    def kill(self, name: str) -> None:
        """SIGKILL to server `name`'s process group (with --cdp-endpoint it has no browser of
        its own: nothing else is in the group)."""
        process = self.servers[name].process
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGKILL)
        process.wait(10)
        self.killed.add(name)

    def served(self) -> list[dict[str, str]]:
        """HAProxy's log so far: one dict a request (served-by, status, retries, method, tool)."""
        out = []
        for line in self.haproxy_log.read_text(errors="replace").splitlines():
            if line.startswith("served-by="):
                out.append(dict(part.split("=", 1) for part in line.split() if "=" in part))
        return out

    def contexts(self) -> list[str]:
        """The browser contexts the shared Chromium holds (the default one is not listed)."""
        return cdp_call(self.cdp_port, "Target.getBrowserContexts")["browserContextIds"]


def cdp_call(port: int, method: str, params: dict | None = None, timeout: float = 30) -> dict:
    """One CDP call on the browser's own target, over a WebSocket written with the standard
    library (the venv has no WebSocket client): the call's `result`."""
    with urllib.request.urlopen(f"http://127.0.0.1:{port}/json/version", timeout=timeout) as r:
        ws = urlsplit(json.loads(r.read())["webSocketDebuggerUrl"])
    with socket.create_connection((ws.hostname, ws.port), timeout) as sock:
        key = base64.b64encode(os.urandom(16)).decode()
        sock.sendall(
            f"GET {ws.path} HTTP/1.1\r\nHost: {ws.netloc}\r\nUpgrade: websocket\r\n"
            f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n".encode()
        )
        head = b""
        while b"\r\n\r\n" not in head:
            chunk = sock.recv(4096)
            assert chunk, f"the browser closed the WebSocket handshake: {head!r}"
            head += chunk
        assert head.split(b"\r\n", 1)[0].split()[1] == b"101", head
        rest = head.split(b"\r\n\r\n", 1)[1]

        def read(n: int) -> bytes:
            nonlocal rest
            while len(rest) < n:
                chunk = sock.recv(65536)
                assert chunk, "the browser closed the WebSocket"
                rest += chunk
            out, rest = rest[:n], rest[n:]
            return out

        payload = json.dumps({"id": 1, "method": method, "params": params or {}}).encode()
        mask = os.urandom(4)
        size = len(payload)
        header = bytes([0x81]) + (
            bytes([0x80 | size]) if size < 126 else bytes([0x80 | 126]) + size.to_bytes(2, "big")
        )
        sock.sendall(header + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(payload)))
        message = b""
        while True:
            b0, b1 = read(2)
            size = b1 & 0x7F
            if size == 126:
                size = int.from_bytes(read(2), "big")
            elif size == 127:
                size = int.from_bytes(read(8), "big")
            data = read(size)
            opcode = b0 & 0x0F
            if opcode == 0x8:
                raise AssertionError(f"the browser closed the WebSocket: {data!r}")
            if opcode in (0x9, 0xA):  # ping, pong
                continue
            message += data
            if not b0 & 0x80:  # more fragments follow
                continue
            answer = json.loads(message)
            message = b""
            if answer.get("id") == 1:
                assert "error" not in answer, answer
                return answer["result"]


def resp(port: int, *args: str) -> object:
    """One Redis command (RESP over a socket, no client library): its reply."""
    with socket.create_connection(("127.0.0.1", port), 10) as sock:
        out = f"*{len(args)}\r\n" + "".join(f"${len(a.encode())}\r\n{a}\r\n" for a in args)
        sock.sendall(out.encode())
        f = sock.makefile("rb")

        def reply() -> object:
            line = f.readline().rstrip(b"\r\n")
            kind, body = line[:1], line[1:]
            if kind == b"+":
                return body.decode()
            if kind == b"-":
                raise AssertionError(f"redis: {body.decode()}")
            if kind == b":":
                return int(body)
            if kind == b"$":
                n = int(body)
                return None if n < 0 else f.read(n + 2)[:-2]
            if kind == b"*":
                n = int(body)
                return None if n < 0 else [reply() for _ in range(n)]
            raise AssertionError(f"redis answered {line!r}")

        return reply()


def print_tail(name: str, log: Path, lines: int = 40) -> None:
    """The end of a process's log, on stdout: pytest shows it when the test fails."""
    with contextlib.suppress(OSError):
        tail = log.read_text(errors="replace").splitlines()[-lines:]
        print(f"\n--- {name} ({log}), last {len(tail)} lines:\n" + "\n".join(tail))


@contextlib.contextmanager
def run_redis(tmp_path: Path) -> Iterator[int]:
    """A redis-server of the test's own (nothing saved, nothing appended; its folder and its
    log, redis.log, in tmp_path); yields its port."""
    port = free_port()
    folder = tmp_path / "redis"
    folder.mkdir()
    argv = [
        REDIS_SERVER or "redis-server", "--port", str(port), "--bind", "127.0.0.1",
        "--save", "", "--appendonly", "no", "--dir", str(folder),
    ]  # fmt: skip
    with run_http_server(argv, port, tmp_path / "redis.log", path=""):
        assert resp(port, "PING") == "PONG"
        yield port


@pytest.fixture
def cluster(axsnap_bin: Path, tmp_path: Path) -> Iterator[Cluster]:
    with run_cluster(axsnap_bin, tmp_path) as c:
        yield c


@contextlib.contextmanager
def run_cluster(axsnap_bin: Path, tmp_path: Path, *extra: str) -> Iterator[Cluster]:
    """The cluster; `extra` goes to both axsnap servers."""
    if MISSING:
        pytest.fail(
            f"{' and '.join(MISSING)} not installed: install the Debian packages redis-server and "
            "haproxy (scripts/test does, through scripts/setup.sh ensure_state_store)"
        )
    logs: dict[str, Path] = {}
    with contextlib.ExitStack() as stack:
        try:
            # Redis: nothing saved, nothing appended; its working folder in tmp_path.
            logs["redis"] = tmp_path / "redis.log"
            redis_port = stack.enter_context(run_redis(tmp_path))

            # The shared browser, on a fresh profile.
            cdp_port = free_port()
            logs["chromium"] = tmp_path / "chromium.log"
            chromium_argv = [
                browser_path(), "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
                "--no-first-run", "--disable-background-networking", "--disable-component-update",
                "--disable-sync", f"--user-data-dir={tmp_path / 'chromium-profile'}",
                "--remote-debugging-address=127.0.0.1", f"--remote-debugging-port={cdp_port}",
                "about:blank",
            ]  # fmt: skip
            stack.enter_context(run_http_server(chromium_argv, cdp_port, logs["chromium"], path=""))
            cdp_call(cdp_port, "Browser.getVersion")  # answers: the DevTools endpoint is up

            # The servers: attached to the shared browser, sharing Redis, taking HAProxy's Host.
            ha_port = free_port()
            servers: dict[str, HttpServer] = {}
            for name in ("a", "b"):
                port = free_port()
                argv = axsnap_http_command(
                    axsnap_bin, port, STRUCTURED,
                    "--cdp-endpoint", f"http://127.0.0.1:{cdp_port}",
                    "--state", f"redis://127.0.0.1:{redis_port}",
                    "--allowed-host", f"127.0.0.1:{ha_port}",
                    *extra,
                )  # fmt: skip
                # The shared browser, not a launched one: --browser goes.
                i = argv.index("--browser")
                del argv[i : i + 2]
                logs[f"axsnap {name}"] = tmp_path / f"axsnap-{name}.log"
                servers[name] = stack.enter_context(run_http_server(argv, port, logs[f"axsnap {name}"]))

            lines = "\n".join(
                f"    server {name} {urlsplit(s.url).netloc} check inter 500ms fall 2 rise 2"
                for name, s in servers.items()
            )
            cfg = tmp_path / "haproxy.cfg"
            cfg.write_text(HAPROXY_CFG.format(port=ha_port, servers=lines))
            logs["haproxy"] = tmp_path / "haproxy.log"
            # -db: in the foreground (its own process group, stopped by group).
            stack.enter_context(run_http_server([HAPROXY, "-f", str(cfg), "-db"], ha_port, logs["haproxy"]))
            yield Cluster(
                url=f"http://127.0.0.1:{ha_port}/mcp",
                servers=servers,
                redis_port=redis_port,
                cdp_port=cdp_port,
                haproxy_log=logs["haproxy"],
            )
        finally:
            for name, log in logs.items():
                print_tail(name, log, 10 if name == "chromium" else 40)


class Caller:
    """A session's calls through one SessionClient, as an agent makes them: a call that fails at
    the transport level (its server died under it and the load balancer could not send it
    elsewhere: the SDK raises instead of answering) is made once more. `clock["kill_at"]` is
    the test's: None until a server is killed, then the time of the kill."""

    def __init__(self, client, clock: dict[str, float | None], name: str) -> None:
        self.client = client
        self.clock = clock
        self.name = name
        self.transport_failures: list[str] = []
        self.after_kill = 0  # calls started after the kill
        self.in_flight: list[str] = []  # the calls in flight at the kill, and what they answered

    async def call(self, tool: str, **args) -> tuple[str, dict, bool]:
        """The answer's text and structuredContent, and whether the call was in flight when
        the server was killed (started before, answered after)."""
        before = self.clock["kill_at"] is None
        try:
            r = await self.client.call_tool(tool, args)
        except Exception as e:  # the transport's failure, not the tool's: tried once more
            self.transport_failures.append(f"{self.name} {tool}: {type(e).__name__}: {e}")
            await anyio.sleep(0.5)
            r = await self.client.call_tool(tool, args)
        in_flight = before and self.clock["kill_at"] is not None
        s = r.structured_content or {}
        if in_flight:
            self.in_flight.append(f"{self.name} {tool}: {s.get('kind')}")
        assert not r.is_error, f"{self.name} {tool} {args}: {text_of(r)}"
        return text_of(r), s, in_flight


class Counter:
    """What a session knows of its page's counter: the clicks whose answer came back, and the
    value the last answer that showed it said."""

    def __init__(self, who: str) -> None:
        self.who = who
        self.clicks = 0
        # A click whose answer was lost with the killed server may have clicked the page
        # anyway (the dead server clicked, then the load balancer or the client sent the call
        # again and another server clicked once more): the counter is then one ahead of the
        # clicks answered, for the rest of the session. Allowed once, on the call in flight at
        # the kill, and never otherwise.
        self.extra = 0
        self.seen = 0

    def saw(self, old: int, now: int, clicked: bool, in_flight: bool, where: str) -> None:
        """An answer showed the counter going from `old` to `now` (a diff), or at `now` (a full
        page: `old` is `now`)."""
        if clicked:
            self.clicks += 1
        if in_flight and self.extra == 0 and now == self.clicks + 1:
            self.extra = 1
        assert now == self.clicks + self.extra, (
            f"counter {now}, {self.clicks} clicks answered (+{self.extra} lost with the server): {where}"
        )
        if clicked:
            # A diff against the last answer the client got; on the call in flight at the
            # kill, possibly against the dead server's last stored answer, which never reached
            # the client (it clicked, stored, and died before answering).
            assert old == self.seen or (in_flight and old == self.seen + 1), (
                f"a diff from {old}, the last answer showed {self.seen}: {where}"
            )
        self.seen = now


# -- test 1: 8 sessions x 50 steps, a server killed mid-run -------------------------------------

SESSIONS = 8
STEPS = 50
KILL_AFTER = 20  # the kill comes once every session has made this many steps...
HOLD_AT = 30  # ...and a session that gets this far first waits for it


@pytest.mark.timeout(900)
async def test_8_sessions_50_steps_survive_a_server_killed_mid_run(cluster: Cluster, site: Site) -> None:
    clock: dict[str, float | None] = {"kill_at": None}
    killed = anyio.Event()
    steps_done = [0] * SESSIONS
    callers: list[Caller] = []
    handles: set[str] = set()
    counters: list[Counter] = []
    served_before_kill: list[dict[str, str]] = []

    async def killer() -> None:
        nonlocal served_before_kill
        while min(steps_done) < KILL_AFTER:
            await anyio.sleep(0.05)
        served_before_kill = cluster.served()
        # No await between the kill and the clock: a call is "in flight" exactly when it
        # started before this point and ended after it.
        cluster.kill("a")
        clock["kill_at"] = time.monotonic()
        killed.set()

    async def session(i: int) -> None:
        who = f"s{i}"
        async with connect(cluster.url) as c:
            caller = Caller(c, clock, who)
            callers.append(caller)
            text, s, _ = await caller.call("navigate", url=site.url(f"/counter?who={who}"))
            handle = s["session"]
            handles.add(handle)
            found_inc, found_note = INCREMENT.search(text), NOTE.search(text)
            assert found_inc and found_note, f"{who}: no Increment button or Note field in:\n{text}"
            inc, note = found_inc.group(1), found_note.group(1)
            steps_done[i] = 1
            counter = Counter(who)
            counters.append(counter)
            note_text = ""
            for step in range(1, STEPS):
                if step == HOLD_AT:
                    with anyio.fail_after(300):
                        await killed.wait()
                if step % 10 == 0:
                    tool, args = "snapshot", {"mode": "full"}
                elif step % 3 == 0:
                    note_text = f"{who} note {step}"
                    tool, args = "fill", {"ref": note, "text": note_text}
                else:
                    tool, args = "click", {"ref": inc}
                started_after_kill = clock["kill_at"] is not None
                text, s, in_flight = await caller.call(tool, **args)
                where = f"{who} step {step} {tool} (in flight at the kill: {in_flight}): {s}\n{text}"
                assert s.get("session") == handle, where
                assert not strangers(text, who), f"cross-talk: {where}"
                assert not s.get("browser_restarted"), f"the page was lost: {where}"
                assert f"who={who}" in s.get("url", ""), where
                if tool == "snapshot":
                    assert s["kind"] == "full", where
                    # The same refs as the first answer gave, not a fresh numbering.
                    assert f'button "Increment" [{inc}]' in text, where
                    assert f'textbox "Note" [{note}]' in text, where
                    if note_text:
                        assert f": {note_text}" in text, where
                    shown = count_in(text, who)
                    assert len(shown) == 1, where
                    counter.saw(shown[0], shown[0], clicked=False, in_flight=in_flight, where=where)
                elif tool == "click":
                    # After the kill too, a diff against the last answer: not a full page.
                    assert s["kind"] == "diff", where
                    shown = count_in(text, who)
                    assert len(shown) == 2, f"no counter change in a click's diff: {where}"
                    counter.saw(*shown, clicked=True, in_flight=in_flight, where=where)
                elif in_flight and s["kind"] == "unchanged":
                    # The dead server filled the field and stored its answer, which never
                    # reached the client; the call sent again changes nothing since. (Allowed
                    # on the call in flight at the kill only.)
                    pass
                else:
                    assert s["kind"] == "diff", where
                    assert f'"{note_text}"' in text, where
                if started_after_kill:
                    caller.after_kill += 1
                steps_done[i] = step + 1
            text, s, _ = await caller.call("close")
            assert s["kind"] == "closed" and s["session"] == handle, text

    with anyio.fail_after(840):
        async with anyio.create_task_group() as tg:
            tg.start_soon(killer)
            for i in range(SESSIONS):
                tg.start_soon(session, i)

    assert steps_done == [STEPS] * SESSIONS, steps_done
    assert len(handles) == SESSIONS, handles
    assert all(c.after_kill >= STEPS - HOLD_AT for c in callers), "every session carried on after the kill"
    # Both servers took calls before the kill (round robin): the sessions moved between them
    # on every call, not only after the kill.
    calls_before = [r for r in served_before_kill if r.get("tool", "-") != "-"]
    by_server = {name: sum(r["served-by"] == name for r in calls_before) for name in ("a", "b")}
    assert by_server["a"] >= SESSIONS * 5 and by_server["b"] >= SESSIONS * 5, f"calls before the kill: {by_server}"

    # Every session was closed: no context of theirs is left in the shared browser.
    with anyio.fail_after(30):
        while contexts := await anyio.to_thread.run_sync(cluster.contexts):
            await anyio.sleep(0.5)
    assert not contexts

    after = cluster.served()[len(served_before_kill) :]
    retried = [f"{r['tool']}: {r['retries']} -> {r['served-by']} {r['status']}" for r in after if r.get("retries", "0") != "0"]
    failures = [f for c in callers for f in c.transport_failures]
    in_flight = [f for c in callers for f in c.in_flight]
    ahead = [c.who for c in counters if c.extra]
    print(
        f"\nstate: {SESSIONS} sessions x {STEPS} steps, server a killed after step {KILL_AFTER} of each; "
        f"calls before the kill by server: {by_server}; in flight at the kill: {in_flight}; "
        f"HAProxy retried {len(retried)} calls after it: {retried}; "
        f"the client saw {len(failures)} transport failures: {failures}; counters one ahead: {ahead}"
    )


# -- test 2: a server killed between calls ------------------------------------------------------


@pytest.mark.timeout(300)
async def test_a_session_carries_on_on_b_after_a_is_killed(cluster: Cluster, site: Site) -> None:
    who = "t2"
    typed = "typed on a"
    # Served by a: its own address, not the load balancer's.
    async with connect(cluster.servers["a"].url) as on_a:
        agent = Agent(on_a)
        text, s = await agent.ok("navigate", url=site.url(f"/counter?who={who}"))
        handle = s["session"]
        inc, note = INCREMENT.search(text).group(1), NOTE.search(text).group(1)
        text, s = await agent.ok("click", ref=inc)
        assert count_in(text, who) == [0, 1], text
        text, s = await agent.ok("type", ref=note, text=typed)
        assert s["kind"] == "diff" and f'"{typed}"' in text, text
        last_seq = s["seq"]
    cluster.kill("a")
    calls_before = len(cluster.served())

    # The next call, through the load balancer, can only be served by b (a call sent to a
    # before the health checks see it gone is refused and sent to b).
    async with connect(cluster.url) as c:
        c.session_handle = handle
        agent = Agent(c)
        text, s = await agent.ok("click", ref=inc)
        # The same ref, and a diff against the last answer the client got (on a): the counter
        # from 1, not a fresh page.
        assert s["kind"] == "diff" and s["session"] == handle, (s, text)
        assert s["from_seq"] == last_seq and s["seq"] > last_seq, s
        assert count_in(text, who) == [1, 2], text
        assert not s.get("browser_restarted"), s
        # What was typed on a is still in the page (the shared browser kept it) and in the
        # baseline (a diff from it, not to it).
        text, s = await agent.ok("type", ref=note, text=" then on b")
        assert s["kind"] == "diff", text
        assert f'"{typed}" -> "{typed} then on b"' in text, text
        text, s = await agent.ok("snapshot", mode="full")
        assert f'button "Increment" [{inc}]' in text and f'textbox "Note" [{note}]' in text, text
        assert f": {typed} then on b" in text and f"status: {who} count: 2" in text, text
        assert not strangers(text, who), text
        await agent.ok("close")
    served = [r for r in cluster.served()[calls_before:] if r.get("tool", "-") != "-"]
    assert served and all(r["served-by"] == "b" for r in served), served


# -- test 3: unknown handles, and close ends a session everywhere --------------------------------


@pytest.mark.timeout(300)
async def test_unknown_handles_and_close_on_every_server(cluster: Cluster, site: Site) -> None:
    urls = {name: s.url for name, s in cluster.servers.items()} | {"haproxy": cluster.url}
    # A handle no server ever gave: unknown to Redis, so unknown everywhere.
    for name, url in urls.items():
        async with connect(url) as c:
            msg = await Agent(c).error("snapshot", "unknown_session", session="nosuchhandle")
            assert "nosuchhandle" in msg, (name, msg)

    # A session opened on a and used on b; closed on a: then unknown on both (b's copy of it
    # must not answer).
    async with connect(urls["a"]) as on_a, connect(urls["b"]) as on_b:
        a, b = Agent(on_a), Agent(on_b)
        text, s = await a.ok("navigate", url=site.url("/counter?who=t3"))
        handle = s["session"]
        inc = INCREMENT.search(text).group(1)
        on_b.session_handle = handle
        text, s = await b.ok("click", ref=inc)
        assert s["kind"] == "diff" and count_in(text, "t3") == [0, 1], text
        text, s = await a.ok("close")
        assert s["kind"] == "closed" and s["session"] == handle, text
        for agent in (a, b):
            msg = await agent.error("click", "unknown_session", session=handle, ref=inc)
            assert handle in msg, msg
    async with connect(urls["haproxy"]) as c:
        for _ in range(2):  # round robin: once on each server
            await Agent(c).error("snapshot", "unknown_session", session=handle)

    # A session Redis forgot (flushed: a store that restarted without persistence) is unknown
    # even on the server that holds a copy of it.
    async with connect(urls["b"]) as on_b:
        b = Agent(on_b)
        await b.ok("navigate", url=site.url("/counter?who=t3b"))
        handle = on_b.session_handle
        await b.ok("snapshot")
        assert await anyio.to_thread.run_sync(resp, cluster.redis_port, "FLUSHALL") == "OK"
        msg = await b.error("snapshot", "unknown_session", session=handle)
        assert handle in msg, msg


# -- test 4: a pool browser that closes with its server -----------------------------------------


@pytest.mark.timeout(400)
async def test_a_pool_session_is_reopened_on_b_when_its_browser_went_with_a(
    axsnap_bin: Path, tmp_path: Path, site: Site
) -> None:
    """With --cdp-pool (browserless: a browser per connection, closed when the connection
    closes) a killed server's browser goes with it. The session carries on on b all the same:
    its tab reopened at its last URL in a browser of b's, the loss said (an action is refused
    with browser_restarted, not replayed), the refs the same, the next answer a diff against
    the last answer the client got."""
    from test_pool import run_pool

    who = "t4"
    with contextlib.ExitStack() as stack:
        redis_port = stack.enter_context(run_redis(tmp_path))
        pool = stack.enter_context(run_pool(tmp_path))
        servers: dict[str, HttpServer] = {}
        for name in ("a", "b"):
            port = free_port()
            argv = axsnap_http_command(
                axsnap_bin, port, STRUCTURED,
                "--cdp-pool", pool.ws, "--cdp-header", pool.header(),
                "--state", f"redis://127.0.0.1:{redis_port}",
            )  # fmt: skip
            i = argv.index("--browser")
            del argv[i : i + 2]
            servers[name] = stack.enter_context(run_http_server(argv, port, tmp_path / f"axsnap-{name}.log"))

        async with connect(servers["a"].url) as on_a:
            agent = Agent(on_a)
            text, s = await agent.ok("navigate", url=site.url(f"/counter?who={who}"))
            handle = s["session"]
            inc, note = INCREMENT.search(text).group(1), NOTE.search(text).group(1)
            text, s = await agent.ok("click", ref=inc)
            assert count_in(text, who) == [0, 1], text
            text, s = await agent.ok("type", ref=note, text="lost with a")
            assert s["kind"] == "diff", text
        assert len(pool.wait_browsers(1)) == 1
        os.killpg(servers["a"].process.pid, signal.SIGKILL)
        servers["a"].process.wait(10)
        # browserless closes the browser whose connection went.
        assert pool.wait_browsers(0) == [], "a's pool browser outlived a"

        async with connect(servers["b"].url) as on_b:
            on_b.session_handle = handle
            agent = Agent(on_b)
            # An element action on a page whose state was lost is refused, not replayed.
            msg = await agent.error("click", "browser_restarted", ref=inc)
            assert "reopened" in msg and "lost" in msg, msg
            text, s = await agent.ok("snapshot")
            # The same refs; the page as a fresh load shows it, said as a diff against the
            # last answer the client got (count 1 and the typed note, on a).
            assert s["kind"] == "diff" and s["session"] == handle, (s, text)
            assert count_in(text, who) == [1, 0], text
            assert '"lost with a"' in text, text
            text, s = await agent.ok("click", ref=inc)
            assert s["kind"] == "diff" and count_in(text, who) == [0, 1], text
            text, s = await agent.ok("snapshot", mode="full")
            assert f'button "Increment" [{inc}]' in text and f'textbox "Note" [{note}]' in text, text
            await agent.ok("close")
        assert pool.wait_browsers(0) == [], "b's pool browser outlived the session"


# -- test 5: idle sessions end once, whichever server served them last ----------------------------


@pytest.mark.timeout(300)
async def test_idle_sessions_end_in_the_store_and_their_contexts_go(
    axsnap_bin: Path, tmp_path: Path, site: Site
) -> None:
    """With a 3 s idle timeout: a session opened on a and last used on b ends once (one of the
    servers' reapers claims it), its context in the shared browser is disposed, and its handle
    is unknown on both; a session kept busy meanwhile lives on."""
    with run_cluster(axsnap_bin, tmp_path, "--idle-timeout", "0.05") as cluster:
        async with connect(cluster.servers["a"].url) as on_a, connect(cluster.servers["b"].url) as on_b:
            a, b = Agent(on_a), Agent(on_b)
            text, s = await a.ok("navigate", url=site.url("/counter?who=t5"))
            idle = s["session"]
            inc = INCREMENT.search(text).group(1)
            on_b.session_handle = idle
            text, s = await b.ok("click", ref=inc)
            assert count_in(text, "t5") == [0, 1], text
            async with connect(cluster.servers["b"].url) as on_b2:
                busy = Agent(on_b2)
                await busy.ok("navigate", url=site.url("/counter?who=t6"))
                assert len(cluster.contexts()) == 2
                # The busy session calls every second; the other one idles past 3 s.
                deadline = time.monotonic() + 60
                while len(cluster.contexts()) != 1:
                    assert time.monotonic() < deadline, cluster.contexts()
                    await busy.ok("snapshot")
                    await anyio.sleep(1)
                # Still idle-free: the busy one answers with its page.
                text, _ = await busy.ok("snapshot", mode="full")
                assert "t6 count: 0" in text, text
                for agent in (a, b):
                    msg = await agent.error("snapshot", "unknown_session", session=idle)
                    assert idle in msg, msg
                await busy.ok("close")
        deadline = time.monotonic() + 30
        while cluster.contexts():
            assert time.monotonic() < deadline, cluster.contexts()
            await anyio.sleep(0.25)
