"""What sharing sessions through Redis (`--state redis://…`) costs per step: the same walks
over MCP (the Python SDK, streamable HTTP, 2026-07-28 sessions, one server, a launched
browser) with sessions kept in memory and in Redis, run by run side by side.

Arms:
- memory: no --state;
- redis: --state on a redis-server on 127.0.0.1 (two round trips per call: lock and read the
  version, then write the state and unlock);
- redis +1 ms: the same Redis behind a delay proxy that adds 1 ms per round trip, as a Redis
  on another host of the same network would.

Walks: `small` (the three shared-chrome pages: find, click, snapshot, scroll; as
bench/pool/latency.py) and `big` (a page of N rows, each with a link and a button; a click
on a row's button changes its text). Besides latency, the bytes of the stored state after the
walk (what each call writes).

    scripts/bench-state [--steps N] [--runs N] [--rows N] [--out FILE]
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import http.server
import json
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO / "tests" / "mcp"))
sys.path.insert(0, str(REPO / "bench" / "pool"))

from answers import hits_of  # noqa: E402
from conftest import axsnap_http_command, connect, free_port, run_http_server  # noqa: E402
from fixture_site import Site  # noqa: E402
from latency import Delay, walk  # noqa: E402


def big_page(rows: int) -> bytes:
    items = "".join(
        f'<tr><td><a href="#r{i}">Row {i}</a></td><td>item {i} of the list</td>'
        f'<td><button onclick="this.textContent=\'Done {i}\'">Mark {i}</button></td></tr>'
        for i in range(rows)
    )
    return f"<!doctype html><title>Big</title><h1>Big</h1><table>{items}</table>".encode()


@contextlib.contextmanager
def serve_big(rows: int):
    body = big_page(rows)

    class Handler(http.server.BaseHTTPRequestHandler):
        def do_GET(self) -> None:  # noqa: N802
            self.send_response(200)
            self.send_header("Content-Type", "text/html; charset=utf-8")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args) -> None:
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/big"
    finally:
        server.shutdown()


@contextlib.contextmanager
def run_redis(tmp: Path):
    port = free_port()
    process = subprocess.Popen(
        ["redis-server", "--port", str(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no", "--dir", str(tmp)],
        stdout=subprocess.DEVNULL,
    )
    try:
        deadline = time.monotonic() + 20
        while True:
            with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port), 0.5):
                break
            assert time.monotonic() < deadline, "redis-server did not listen"
            time.sleep(0.05)
        yield port
    finally:
        process.terminate()
        process.wait(10)


async def redis_rtt_ms(port: int, n: int = 200) -> float:
    """Median round trip of a PING to Redis at `port` (through the delay proxy when it is
    the proxy's, which runs on this event loop): what one round trip of the store costs."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    times = []
    for _ in range(n):
        t0 = time.perf_counter()
        writer.write(b"PING\r\n")
        await writer.drain()
        assert (await reader.readline()).startswith(b"+PONG")
        times.append(time.perf_counter() - t0)
    writer.close()
    return round(statistics.median(times) * 1000, 3)


def state_bytes(redis_port: int) -> int:
    """Bytes of the largest stored session state (the one walk that is open)."""
    cli = ["redis-cli", "-p", str(redis_port)]
    keys = subprocess.run([*cli, "--scan", "--pattern", "axsnap:s:*"], capture_output=True, text=True).stdout.split()
    sizes = [
        int(subprocess.run([*cli, "HSTRLEN", k, "state"], capture_output=True, text=True).stdout.strip() or 0)
        for k in keys
        if not k.endswith(":lock")
    ]
    return max(sizes, default=0)


async def walk_big(url: str, page: str, steps: int, sizes: list[int], redis_port: int | None) -> list[tuple[str, float]]:
    times: list[tuple[str, float]] = []
    async with connect(url) as c:
        r = await c.call_tool("navigate", {"url": page})
        assert not r.is_error, r.content[0].text
        for n in range(steps):
            t0 = time.perf_counter()
            if n % 2 == 0:
                r = await c.call_tool("find", {"query": f"Mark {n * 7 % 50}", "limit": 1})
                hits = hits_of(r)
                assert hits, r.content[0].text
                times.append(("find", time.perf_counter() - t0))
                t0 = time.perf_counter()
                tool = "click"
                r = await c.call_tool(tool, {"ref": hits[0]["ref"]})
            else:
                tool = "snapshot"
                r = await c.call_tool(tool, {})
            assert not r.is_error, r.content[0].text
            times.append((tool, time.perf_counter() - t0))
        if redis_port:
            sizes.append(state_bytes(redis_port))
        await c.call_tool("close", {})
    return times


def summary(calls: list[tuple[str, float]]) -> dict:
    by_tool: dict[str, list[float]] = {}
    for tool, t in calls:
        by_tool.setdefault(tool, []).append(t)
    times = sorted(t for _, t in calls)
    return {
        "calls": len(times),
        "p50_ms": round(statistics.median(times) * 1000, 2),
        "p99_ms": round(times[min(len(times) - 1, int(len(times) * 0.99))] * 1000, 1),
        "p50_ms_by_tool": {k: round(statistics.median(v) * 1000, 2) for k, v in sorted(by_tool.items())},
    }


async def measure(axsnap: Path, site: Site, tmp: Path, steps: int, runs: int, rows: int) -> dict:
    out: dict = {"steps_per_session": steps, "runs": runs, "big_rows": rows}
    with run_redis(tmp) as redis_port, serve_big(rows) as big:
        async with Delay(redis_port, 0.0005) as slow_redis:
            arms = {
                "memory": ([], None),
                "redis": (["--state", f"redis://127.0.0.1:{redis_port}"], redis_port),
                "redis +1 ms": (["--state", f"redis://127.0.0.1:{slow_redis.port}"], redis_port),
            }
            # asyncio sleeps overshoot below a millisecond: the proxy's real round trip is measured.
            out["redis_round_trip_ms"] = {
                "redis": await redis_rtt_ms(redis_port),
                "redis +1 ms": await redis_rtt_ms(slow_redis.port),
            }
            times = {(a, w): [] for a in arms for w in ("small", "big")}
            sizes: dict[str, list[int]] = {"small": [], "big": []}
            for run in range(runs):
                for arm, (extra, rport) in arms.items():
                    port = free_port()
                    argv = [*axsnap_http_command(axsnap, port), "--allow-local", *extra]
                    with run_http_server(argv, port, tmp / "axsnap.log") as server:
                        times[(arm, "small")] += await walk(server.url, site, steps, f"{arm}-{run}")
                        if rport:
                            # The small walk closed its session; measure one left open.
                            async with connect(server.url) as c:
                                await c.call_tool("navigate", {"url": site.url("/pages/one")})
                                await c.call_tool("snapshot", {})
                                sizes["small"].append(state_bytes(rport))
                                await c.call_tool("close", {})
                        times[(arm, "big")] += await walk_big(server.url, big, steps, sizes["big"], rport)
            out["arms"] = {f"{a} / {w}": summary(t) for (a, w), t in times.items()}
            for w in ("small", "big"):
                base = out["arms"][f"memory / {w}"]["p50_ms_by_tool"]
                for arm in ("redis", "redis +1 ms"):
                    got = out["arms"][f"{arm} / {w}"]["p50_ms_by_tool"]
                    out.setdefault("added_ms_per_call", {})[f"{arm} / {w}"] = {
                        t: round(ms - base[t], 2) for t, ms in got.items() if t in base
                    }
            added_rtt = out["redis_round_trip_ms"]["redis +1 ms"] - out["redis_round_trip_ms"]["redis"]
            out["round_trips_per_call"] = {
                w: {
                    t: round((ms - out["added_ms_per_call"][f"redis / {w}"][t]) / added_rtt, 1)
                    for t, ms in out["added_ms_per_call"][f"redis +1 ms / {w}"].items()
                }
                for w in ("small", "big")
            }
            out["state_bytes"] = {w: int(statistics.median(s)) if s else 0 for w, s in sizes.items()}
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--axsnap", type=Path, default=REPO / "target" / "release" / "axsnap")
    ap.add_argument("--steps", type=int, default=30)
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--rows", type=int, default=2000)
    ap.add_argument("--out", type=Path, default=REPO / "target" / "bench-state.json")
    a = ap.parse_args()
    tmp = Path(tempfile.mkdtemp(prefix="axsnap-bench-state-"))
    try:
        with Site() as site:
            result = asyncio.run(measure(a.axsnap, site, tmp, a.steps, a.runs, a.rows))
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    text = json.dumps(result, indent=2)
    a.out.write_text(text)
    print(text)


if __name__ == "__main__":
    main()
