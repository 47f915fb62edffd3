"""Answers of one axsnap binary over MCP stdio on the real-app pages, one file per answer.

usage: run.py AXSNAP_BIN OUT_DIR
Pages: Monaco and CodeMirror 6 (npm monaco-editor 0.58.0, codemirror 6.0.2,
@codemirror/lang-python 6.2.1 installed in a folder with editors_server.py, monaco.html and
codemirror.html: see docs/figures.md, "Text an agent can trust") served by editors_server.py on
127.0.0.1:8820; the probe pages (this folder's wide, texts and inl, and the CDP tests'
blocks.html) by `python -m http.server 8899 --bind 127.0.0.1` run at the repository root."""
import asyncio, json, os, sys, pathlib
from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client

BIN, OUT = sys.argv[1], pathlib.Path(sys.argv[2])
OUT.mkdir(parents=True, exist_ok=True)
M = "http://127.0.0.1:8820"
P = "http://127.0.0.1:8899/bench/realapps"
BLOCKS = "http://127.0.0.1:8899/crates/axsnap-cdp/tests/pages/blocks.html"
FLOWS = {
    "monaco": [("navigate", {"url": M + "/monaco.html"}), ("snapshot", {"mode": "full"}),
               ("click", {"ref": "e3", "button": "right"}), ("press", {"keys": "Escape"}),
               ("click", {"ref": "e4"}), ("press", {"keys": "F1"})],
    "codemirror": [("navigate", {"url": M + "/codemirror.html"}), ("snapshot", {"mode": "full"})],
    "wide": [("navigate", {"url": P + "/wide.html?n=50000"})],
    "texts": [("navigate", {"url": P + "/texts.html"})],
    "blocks": [("navigate", {"url": BLOCKS})],
    "inline": [("navigate", {"url": P + "/inl.html"})],
}

async def flow(name, steps):
    params = StdioServerParameters(command=BIN, args=["mcp"])
    async with stdio_client(params) as (r, w):
        async with ClientSession(r, w) as s:
            await s.initialize()
            for i, (tool, args) in enumerate(steps):
                res = await s.call_tool(tool, args)
                text = "\n".join(c.text for c in res.content if getattr(c, "text", None))
                (OUT / f"{name}-{i}-{tool}.txt").write_text(text)
                if name in ("monaco", "codemirror") and tool == "navigate":
                    await asyncio.sleep(2)

async def main():
    for name, steps in FLOWS.items():
        await flow(name, steps)

asyncio.run(main())
