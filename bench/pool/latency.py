"""What a remote browser costs axsnap: per-step latency, p50 and p99, over MCP (the Python SDK,
streamable HTTP, 2026-07-28 sessions) with the browser

- local: launched by axsnap;
- pool: browserless on 127.0.0.1, a browser per session (--cdp-pool);
- pool +20 ms / +100 ms: the same through a delay proxy that adds that much round-trip time
  (half each way) to every byte between axsnap and the pool;

and how many sessions one pool browser carries (--cdp-endpoint: a context per session) before
the p99 step doubles. Each step is one tool call of a walk over three pages (find, click,
snapshot, scroll); a session's opening navigate is left out (it starts its browser).

The kernel here has no netem qdisc (`tc qdisc ... netem` answers "Specified qdisc kind is
unknown"), so the delay is a user-space TCP proxy on loopback (`Delay` below): the same added
round trip per exchange, without netem's jitter or loss options.

    scripts/bench-pool [--steps N] [--out FILE]
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import statistics
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO / "tests" / "mcp"))

from answers import hits_of  # noqa: E402
from conftest import axsnap_http_command, connect, free_port, run_http_server  # noqa: E402
from fixture_site import Site  # noqa: E402
from test_pool import run_pool  # noqa: E402


class Delay:
    """A TCP proxy on 127.0.0.1 that holds every chunk `one_way` seconds before passing it on,
    in order, in both directions: `2 * one_way` more per round trip."""

    def __init__(self, upstream_port: int, one_way: float) -> None:
        self.upstream_port, self.one_way = upstream_port, one_way
        self.port = free_port()

    async def __aenter__(self) -> Delay:
        self.server = await asyncio.start_server(self._serve, "127.0.0.1", self.port)
        return self

    async def __aexit__(self, *exc) -> None:
        self.server.close()
        # Connections still open end with the loop; their pipes' cancellation is no news.
        asyncio.get_running_loop().set_exception_handler(lambda _loop, _ctx: None)

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        up_reader, up_writer = await asyncio.open_connection("127.0.0.1", self.upstream_port)
        await asyncio.gather(self._pipe(reader, up_writer), self._pipe(up_reader, writer))

    async def _pipe(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        queue: asyncio.Queue[tuple[float, bytes]] = asyncio.Queue()

        async def send() -> None:
            while True:
                due, data = await queue.get()
                if not data:
                    break
                await asyncio.sleep(max(0.0, due - time.monotonic()))
                writer.write(data)
                await writer.drain()
            with contextlib.suppress(Exception):
                writer.close()

        sender = asyncio.create_task(send())
        try:
            while data := await reader.read(65536):
                queue.put_nowait((time.monotonic() + self.one_way, data))
        except ConnectionError:
            pass
        queue.put_nowait((time.monotonic() + self.one_way, b""))
        with contextlib.suppress(Exception):
            await sender


async def walk(url: str, site: Site, steps: int, tag: str) -> list[tuple[str, float]]:
    """One session: open a page, then `steps` timed calls; each call's tool and latency (s)."""
    times: list[tuple[str, float]] = []
    async with connect(url) as c:
        pages = ["one", "two", "three"]
        here = pages[sum(map(ord, tag)) % 3]
        r = await c.call_tool("navigate", {"url": site.url(f"/pages/{here}?s={tag}")})
        assert not r.is_error, r.content[0].text
        for n in range(steps):
            t0 = time.perf_counter()
            if n % 3 == 0:
                nxt = pages[(pages.index(here) + 1) % 3]
                r = await c.call_tool("find", {"query": f"{nxt} link", "limit": 1})
                hits = hits_of(r)
                tool = "find"
                if hits:
                    times.append((tool, time.perf_counter() - t0))
                    t0 = time.perf_counter()
                    tool = "click"
                    r = await c.call_tool(tool, {"ref": hits[0]["ref"]})
                    here = nxt
            elif n % 3 == 1:
                tool = "snapshot"
                r = await c.call_tool(tool, {"mode": "full"})
            else:
                tool = "scroll"
                r = await c.call_tool(tool, {"direction": "down", "amount": 100})
            assert not r.is_error, r.content[0].text
            times.append((tool, time.perf_counter() - t0))
        await c.call_tool("close", {})
    return times


def summary(calls: list[tuple[str, float]]) -> dict:
    times = sorted(t for _, t in calls)
    by_tool: dict[str, list[float]] = {}
    for tool, t in calls:
        by_tool.setdefault(tool, []).append(t)
    return {
        "calls": len(times),
        "p50_ms": round(statistics.median(times) * 1000, 1),
        "p99_ms": round(times[min(len(times) - 1, int(len(times) * 0.99))] * 1000, 1),
        "p50_ms_by_tool": {k: round(statistics.median(v) * 1000, 1) for k, v in sorted(by_tool.items())},
    }


async def measure(
    axsnap: Path, site: Site, tmp: Path, steps: int, runs: int, before: Path | None, shared: bool
) -> dict:
    out: dict = {"steps_per_session": steps, "runs": runs}
    with run_pool(tmp) as pool:
        header = pool.header()
        async with Delay(pool.port, 0.010) as d20, Delay(pool.port, 0.050) as d100:
            arms = {
                "local": (axsnap, "--browser", "/usr/bin/chromium"),
                "pool": (axsnap, "--cdp-pool", pool.ws, "--cdp-header", header),
                "pool +20 ms": (axsnap, "--cdp-pool", f"ws://127.0.0.1:{d20.port}/chromium", "--cdp-header", header),
                "pool +100 ms": (axsnap, "--cdp-pool", f"ws://127.0.0.1:{d100.port}/chromium", "--cdp-header", header),
            }
            if before:
                # The same arms with another build, run by run beside this one's.
                arms.update({f"{a}, before": (before, *v[1:]) for a, v in list(arms.items())})
            times: dict[str, list[tuple[str, float]]] = {a: [] for a in arms}
            # Arms interleaved run by run: the machine's load falls on all of them alike.
            for run in range(runs):
                for arm, (binary, *extra) in arms.items():
                    port = free_port()
                    argv = [a for a in axsnap_http_command(binary, port) if a not in ("--browser", "/usr/bin/chromium")]
                    argv += list(extra)
                    with run_http_server(argv, port, tmp / "axsnap.log") as server:
                        times[arm] += await walk(server.url, site, steps, f"{arm}-{run}")
            out["arms"] = {a: summary(t) for a, t in times.items()}
            base = out["arms"]["pool"]["p50_ms"]
            by_tool = out["arms"]["pool"]["p50_ms_by_tool"]
            # The added time of a median call over the added round trip: how many round trips
            # one call makes one after another.
            delayed = [(a, rtt) for a, rtt in (("pool +20 ms", 20), ("pool +100 ms", 100))]
            if before:
                delayed += [(f"{a}, before", rtt) for a, rtt in delayed]
            out["round_trips_per_call"] = {
                a: {
                    "all": round((out["arms"][a]["p50_ms"] - base) / rtt, 1),
                    **{t: round((ms - by_tool[t]) / rtt, 1) for t, ms in out["arms"][a]["p50_ms_by_tool"].items()},
                }
                for a, rtt in delayed
            }
        if not shared:
            return out
        # Sessions per pool browser: contexts in one browser (--cdp-endpoint), 1, 2, 4, ...
        port = free_port()
        argv = [a for a in axsnap_http_command(axsnap, port) if a not in ("--browser", "/usr/bin/chromium")]
        argv += ["--cdp-endpoint", f"http://127.0.0.1:{pool.port}", "--cdp-header", header]
        load: dict[int, dict] = {}
        with run_http_server(argv, port, tmp / "axsnap-shared.log") as server:
            for n in (1, 2, 4, 8, 16):
                per = await asyncio.gather(*(walk(server.url, site, steps, f"n{n}-{i}") for i in range(n)))
                load[n] = summary([t for s in per for t in s])
                if load[n]["p99_ms"] >= 2 * load[1]["p99_ms"]:
                    break
        out["one_browser_sessions"] = load
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--axsnap", type=Path, default=REPO / "target" / "release" / "axsnap")
    ap.add_argument("--steps", type=int, default=30)
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--out", type=Path, default=REPO / "target" / "bench-pool.json")
    ap.add_argument("--before", type=Path, help="another axsnap build, measured beside --axsnap")
    ap.add_argument("--no-shared", action="store_true", help="skip sessions per pool browser")
    a = ap.parse_args()
    tmp = REPO / "target" / "bench-pool"
    tmp.mkdir(parents=True, exist_ok=True)
    with Site() as site:
        result = asyncio.run(measure(a.axsnap, site, tmp, a.steps, a.runs, a.before, not a.no_shared))
    text = json.dumps(result, indent=2)
    a.out.write_text(text)
    print(text)


if __name__ == "__main__":
    main()
