"""Per-tool latency medians of issue 23's tools (upload, drag, download, annotated
screenshot, mouse, pdf, network_requests, console, cookies, storage) over MCP (the Python SDK,
stdio, a launched browser) on the fixture site, each call repeated; beside them a plain click
and screenshot for scale. Then the cost of recording (`--caps network`): a click that
navigates on a server that records and on one that does not, alternated.

    target/mcp-venv/bin/python bench/features/latency.py [--axsnap BIN] [--runs N]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import re
import statistics
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO / "tests" / "mcp"))

from answers import hits_of  # noqa: E402
from conftest import axsnap_stdio_command, connect, stdio_params, text_of  # noqa: E402
from fixture_site import Site  # noqa: E402


async def measure(axsnap: Path, runs: int) -> dict:
    times: dict[str, list[float]] = {}
    with tempfile.TemporaryDirectory() as tmp, Site() as site:
        root, out = Path(tmp) / "up", Path(tmp) / "out"
        root.mkdir()
        out.mkdir()
        (root / "a.txt").write_text("hello")
        argv = axsnap_stdio_command(
            axsnap, "--upload-root", str(root), "--output-dir", str(out), "--caps", "all"
        )
        async with connect(stdio_params(argv)) as c:

            async def timed(tool: str, args: dict, as_: str | None = None):
                t0 = time.perf_counter()
                r = await c.call_tool(tool, args)
                times.setdefault(as_ or tool, []).append(time.perf_counter() - t0)
                assert not r.is_error, text_of(r)
                return r

            async def ref(query: str, role: str) -> str:
                r = await c.call_tool("find", {"query": query, "limit": 5})
                return next(h["ref"] for h in hits_of(r) if h["role"] == role)

            for _ in range(runs):
                await c.call_tool("navigate", {"url": site.url("/upload")})
                await timed("upload", {"ref": await ref("Attachment", "button"), "paths": ["a.txt"]})
                await timed("upload", {"ref": await ref("Choose photo", "button"), "paths": ["a.txt"]}, "upload (chooser)")
                r = await c.call_tool("navigate", {"url": site.url("/drag")})
                items = dict((n, e) for e, n in re.findall(r"listitem \[(e\d+)\] \[clickable\]: (\w+)", text_of(r)))
                await timed("drag", {"from_ref": await ref("Card B", "generic"), "to_ref": await ref("Done", "heading")}, "drag (HTML5)")
                await timed("drag", {"from_ref": items["Three"], "to_ref": items["One"]}, "drag (pointer)")
                await timed("screenshot", {}, "screenshot")
                await timed("screenshot", {"annotate": True}, "screenshot (annotate)")
                await c.call_tool("navigate", {"url": site.url("/download")})
                await timed("click", {"ref": await ref("Download report", "link")}, "click (downloads)")
                await c.call_tool("navigate", {"url": site.url("/canvas")})
                await timed("mouse", {"x": 150, "y": 160, "action": "click"})
                await c.call_tool("navigate", {"url": site.url("/pages/one")})
                await timed("pdf", {"path": "one.pdf"})
                await timed("click", {"ref": await ref("Two", "link")}, "click (navigates)")
                await c.call_tool("navigate", {"url": site.url("/activity")})
                await c.call_tool("wait_for", {"text": "ready"})
                await timed("network_requests", {})
                r = await timed("network_requests", {"filter": "/api/login"}, "network_requests (filter)")
                login = int(re.search(r"^#(\d+) ", text_of(r), re.M).group(1))
                await timed("network_requests", {"id": login}, "network_requests (id: bodies)")
                await timed("console", {})
                await timed("cookies", {"action": "set", "name": "pref", "value": "x", "url": site.url("/")}, "cookies set")
                await timed("cookies", {"action": "list"}, "cookies list")
                await c.call_tool("navigate", {"url": site.url("/prefs")})
                await c.call_tool("click", {"ref": await ref("Use dark theme", "button")})
                await timed("storage", {"action": "save", "path": "state.json"}, "storage save")
                await timed("storage", {"action": "load", "path": "state.json"}, "storage load")
    return {k: {"median_ms": round(statistics.median(v) * 1000, 1), "calls": len(v)} for k, v in times.items()}


async def recording_cost(axsnap: Path, runs: int) -> dict:
    """A click that navigates, on a server that records its tabs and one that does not, in
    turn (the same site, browser and pages)."""
    times: dict[str, list[float]] = {"recording": [], "not recording": []}
    with Site() as site:
        argv_on = axsnap_stdio_command(axsnap, "--caps", "network")
        async with connect(stdio_params(argv_on)) as on, connect(stdio_params(axsnap_stdio_command(axsnap))) as off:
            for c in (on, off):
                await c.call_tool("navigate", {"url": site.url("/pages/one")})
            for i in range(runs * 4):
                for name, c in (("recording", on), ("not recording", off)):
                    r = await c.call_tool("find", {"query": "Two link" if i % 2 == 0 else "One link", "limit": 1})
                    t0 = time.perf_counter()
                    r = await c.call_tool("click", {"ref": hits_of(r)[0]["ref"]})
                    times[name].append(time.perf_counter() - t0)
                    assert not r.is_error, text_of(r)
    return {k: {"median_ms": round(statistics.median(v) * 1000, 1), "calls": len(v)} for k, v in times.items()}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--axsnap", type=Path, default=REPO / "target" / "release" / "axsnap")
    ap.add_argument("--runs", type=int, default=10)
    a = ap.parse_args()
    tools = asyncio.run(measure(a.axsnap, a.runs))
    cost = asyncio.run(recording_cost(a.axsnap, a.runs))
    print(json.dumps({"tools": tools, "click that navigates": cost}, indent=2))


if __name__ == "__main__":
    main()
