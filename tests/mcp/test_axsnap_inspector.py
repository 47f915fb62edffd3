"""The MCP Inspector's CLI (npm @modelcontextprotocol/inspector, pinned in tests/mcp/node)
against `axsnap mcp`, over stdio and streamable HTTP: the server speaks to a client it was
not written with."""

from __future__ import annotations

import json
import subprocess

from conftest import NODE_DIR, Inspector, axsnap_stdio_command
from fixture_site import Site

TOOLS = {
    "navigate", "back", "forward", "reload", "snapshot", "find", "click", "hover", "type",
    "fill", "press", "select", "check", "scroll", "drag", "upload", "tabs", "wait_for", "dialog", "screenshot",
    "close",
}  # fmt: skip


def test_inspector_lists_tools_over_stdio(inspector: Inspector, axsnap_bin) -> None:
    listed = inspector("--method", "tools/list", target=axsnap_stdio_command(axsnap_bin))
    tools = listed["tools"] if "tools" in listed else listed["result"]["tools"]
    assert {t["name"] for t in tools} == TOOLS


def _result(called: dict) -> dict:
    return called.get("result", called)


def test_inspector_navigates_over_http(inspector: Inspector, axsnap_http_server, site: Site) -> None:
    called = _result(
        inspector(
            "--method", "tools/call", "--tool-name", "navigate",
            "--tool-arg", f"url={site.url('/pages/three')}",
            target=axsnap_http_server.url,
        )  # fmt: skip
    )
    assert not called.get("isError"), called
    text = "\n".join(c["text"] for c in called["content"] if c["type"] == "text")
    assert 'h1 "Page three"' in text
    # The text is the whole answer: the Inspector, like most clients, would show the JSON first.
    assert "structuredContent" not in called, called.keys()


def test_inspector_reports_a_tool_error_over_stdio(axsnap_bin) -> None:
    # The CLI exits 5 on a result with isError and prints the result: run it directly.
    argv = [
        "npx", "--no-install", "@modelcontextprotocol/inspector", "--cli",
        "--protocol-era", "legacy", "--format", "json", "-q",
        "--method", "tools/call", "--tool-name", "snapshot",
        "--", *axsnap_stdio_command(axsnap_bin),
    ]  # fmt: skip
    done = subprocess.run(argv, cwd=NODE_DIR, capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 5, (done.returncode, done.stdout, done.stderr)
    called = _result(json.loads(done.stdout))
    assert called.get("isError") is True
    assert "structuredContent" not in called, called.keys()
    text = "\n".join(c["text"] for c in called["content"] if c["type"] == "text")
    assert text.startswith("no_page: "), text
