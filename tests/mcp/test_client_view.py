"""What the model receives, in every family of MCP clients (client_view.py), from `axsnap mcp`
with default flags: the text alone, within the token budget, on the worst page we serve (a copy
of Python's 707 KB `stdtypes.html`), after a navigation, an action and an error, over stdio and
over streamable HTTP. Then every tool's answer, success and error: no `structuredContent`, no
`outputSchema`, no text that points into a JSON form no client is sent. And
`--structured-content`: the JSON form back on every answer, each tool declaring the
`outputSchema` it conforms to (the Python SDK validates each result against it).
"""

from __future__ import annotations

import contextlib
import re
from pathlib import Path

import pytest
from answers import error_code, full_text, hits_of, kind_of
from client_view import FAMILIES, stringify, tokens, view
from conftest import (
    STRUCTURED,
    axsnap_http_command,
    axsnap_stdio_command,
    connect,
    free_port,
    run_http_server,
    stdio_params,
)
from fixture_site import Site

pytestmark = pytest.mark.anyio

DOCS_PAGE = "/python-docs/library/stdtypes.html"
# The server's default budget (cl100k) for a snapshot, and what the lines around it may add:
# the session line of a first answer over HTTP, one line of what else an action caused.
BUDGET = 10_000
AROUND = 150
# What common clients refuse outright.
CLIENT_LIMIT = 25_000


@contextlib.asynccontextmanager
async def server(axsnap_bin: Path, tmp_path: Path, transport: str, *extra: str):
    """A client of `axsnap mcp` over `transport` with `extra` options."""
    if transport == "stdio":
        async with connect(stdio_params(axsnap_stdio_command(axsnap_bin, *extra))) as c:
            yield c
        return
    port = free_port()
    argv = axsnap_http_command(axsnap_bin, port, *extra)
    with run_http_server(argv, port, tmp_path / "axsnap.log") as s:
        async with connect(s.url) as c:
            yield c


def check_text_only(axsnap_bin: Path, what: str, r) -> dict:
    """Every family's view of `r` is its text, and it fits the budget; returns its tokens."""
    assert r.structured_content is None, (what, r.structured_content)
    text = full_text(r)
    assert text.strip(), what
    for family in FAMILIES:
        assert view(r, family) == text, (what, family)
    assert "structuredContent" not in text, (what, text[:500])
    size = tokens(axsnap_bin, text)
    assert size["cl100k"] <= BUDGET + AROUND and size["o200k"] < CLIENT_LIMIT, (what, size)
    return size


@pytest.mark.parametrize("transport", ["stdio", "http"])
async def test_every_client_sees_the_text_within_budget_on_a_large_page(
    axsnap_bin: Path, tmp_path: Path, site: Site, transport: str
) -> None:
    async with server(axsnap_bin, tmp_path, transport) as c:
        # A navigation to a page of ~144k tokens as a JSON tree: its outline.
        r = await c.call_tool("navigate", {"url": site.url(DOCS_PAGE)})
        assert not r.is_error, full_text(r)[:500]
        size = check_text_only(axsnap_bin, "navigate", r)
        text = full_text(r)
        assert kind_of(r) == "full" and "# outline: the page is" in text, text[:500]
        assert size["cl100k"] > 2_000, size  # an outline that says something, not a stub
        # An action: a search box of the page filled, answered with what it changed.
        r = await c.call_tool("find", {"query": "quick search box", "limit": 1})
        check_text_only(axsnap_bin, "find", r)
        hits = hits_of(r)
        assert hits and hits[0]["role"] in ("searchbox", "textbox", "combobox"), full_text(r)
        r = await c.call_tool("fill", {"ref": hits[0]["ref"], "text": "dict"})
        assert not r.is_error, full_text(r)[:500]
        check_text_only(axsnap_bin, "fill", r)
        assert kind_of(r) == "diff" and '"dict"' in full_text(r), full_text(r)[:1000]
        # A section opened by its outline line's ref: the scoped snapshot fits too.
        folded = re.search(r"\[(e\d+)\][^\n]*… folded", text)
        assert folded, text[:2000]
        r = await c.call_tool("snapshot", {"ref": folded.group(1)})
        assert not r.is_error, full_text(r)[:500]
        check_text_only(axsnap_bin, "snapshot ref", r)
        # An error: its code and what to do next, in the text.
        r = await c.call_tool("click", {"ref": "e999999"})
        assert r.is_error
        check_text_only(axsnap_bin, "error", r)
        assert error_code(r) == "unknown_ref", full_text(r)


async def test_no_tool_sends_structured_content_by_default(axsnap_bin: Path, tmp_path: Path, site: Site) -> None:
    """Every tool of every group, success and error: text only, no outputSchema listed."""
    out = tmp_path / "out"
    out.mkdir()
    extra = ("--allow-eval", "--caps", "all", "--output-dir", str(out))
    async with server(axsnap_bin, tmp_path, "stdio", *extra) as c:
        listed = (await c.list_tools()).tools
        assert all(t.output_schema is None for t in listed), [t.name for t in listed if t.output_schema]
        seen: set[str] = set()

        async def call(tool: str, **args):
            r = await c.call_tool(tool, args)
            assert r.structured_content is None, (tool, r.structured_content)
            text = full_text(r)
            assert text.strip() and "structuredContent" not in text, (tool, text[:500])
            for family in FAMILIES:
                assert view(r, family) == text
            seen.add(tool)
            return r

        r = await call("click", ref="e1")
        assert error_code(r) == "no_page", full_text(r)
        await call("navigate", url=site.url("/form"))
        ref = lambda result: hits_of(result)[0]["ref"]  # noqa: E731
        r = await call("find", query="full name textbox")
        name = ref(r)
        await call("fill", ref=name, text="Ada")
        await call("type", ref=name, text=" L")
        await call("press", keys="End")
        await call("hover", ref=name)
        r = await call("find", query="language combobox")
        await call("select", ref=ref(r), values=["French"])
        r = await call("find", query="newsletter checkbox")
        await call("check", ref=ref(r), checked=True)
        await call("scroll", direction="down", amount=200)
        await call("snapshot", mode="full")
        await call("wait_for", seconds=0.1)
        await call("screenshot")
        await call("screenshot", annotate=True)
        await call("evaluate", expression="1 + 1")
        await call("network_requests")
        await call("console")
        await call("cookies", action="list")
        await call("storage", action="save", path="state.json")
        await call("pdf", path="page.pdf")
        await call("mouse", x=5, y=5, action="move")
        r = await call("dialog", accept=True)
        assert error_code(r) == "no_dialog", full_text(r)
        await call("navigate", url=site.url("/pages/one"))
        await call("navigate", url=site.url("/pages/two"))
        await call("back")
        await call("forward")
        await call("reload")
        r = await call("find", query="Page one link")
        await call("drag", from_ref=ref(r), to_ref=ref(r))
        r = await call("upload", ref=ref(r), paths=["nothing.txt"])
        assert r.is_error and error_code(r) == "uploads_off", full_text(r)
        await call("tabs", action="new", url=site.url("/pages/three"))
        await call("tabs", action="list")
        await call("tabs", action="select", index=0)
        await call("tabs", action="close", index=1)
        await call("close")
        tools = {t.name for t in listed}
        assert tools - seen == set(), f"tools not called: {sorted(tools - seen)}"


async def test_annotate_lists_every_label_in_the_text(axsnap_bin: Path, tmp_path: Path, site: Site) -> None:
    """240 buttons in view: every one's label is in the text (ranges spelled out), where the
    text used to list 60 and send the rest to structuredContent."""
    async with server(axsnap_bin, tmp_path, "stdio") as c:
        r = await c.call_tool("navigate", {"url": site.url("/many-buttons")})
        page = full_text(r)
        buttons = set(re.findall(r'button "b\d+" \[(e\d+)\]', page))
        assert len(buttons) == 240, page[:1000]
        r = await c.call_tool("screenshot", {"annotate": True})
        assert not r.is_error and r.structured_content is None, full_text(r)[:500]
        listed = full_text(r).split("labelled: ", 1)[1]
        labels: set[str] = set()
        for a, b in re.findall(r"\be(\d+)(?:-e(\d+))?\b", listed):
            labels.update(f"e{n}" for n in range(int(a), int(b or a) + 1))
        assert buttons <= labels, sorted(buttons - labels)[:10]
        assert len(full_text(r)) < 2_000, full_text(r)  # ranges, not 240 words


@pytest.mark.parametrize("transport", ["stdio", "http"])
async def test_structured_content_on_request(axsnap_bin: Path, tmp_path: Path, site: Site, transport: str) -> None:
    """`--structured-content`: the JSON form on every answer and errors, each tool's outputSchema
    declared (and the SDK validates the results against it); the text is the same as without."""
    async with server(axsnap_bin, tmp_path, transport, STRUCTURED) as c:
        listed = (await c.list_tools()).tools
        for t in listed:
            schema = t.output_schema
            assert schema and schema["type"] == "object" and schema["required"] == ["kind"], t.name
        r = await c.call_tool("navigate", {"url": site.url(DOCS_PAGE)})
        assert not r.is_error, full_text(r)[:500]
        s = r.structured_content
        assert s["kind"] == "full" and s["tokens"]["cl100k"] > 2_000, {k: s[k] for k in s if k != "snapshot"}
        # What the structured-first clients' model gets now: the whole JSON, many times the text.
        structured_first = tokens(axsnap_bin, view(r, "structured-first"))
        text = tokens(axsnap_bin, view(r, "text-first"))
        assert structured_first["cl100k"] > 3 * text["cl100k"], (structured_first, text)
        assert view(r, "both").startswith(full_text(r)) and view(r, "both").endswith(stringify(s))
        if transport == "http":
            assert s["session"] and full_text(r).startswith(f"session: {s['session']} ")
        r = await c.call_tool("click", {"ref": "e999999"})
        assert r.is_error and r.structured_content["error"] == "unknown_ref" == error_code(r)
        assert full_text(r) == f"unknown_ref: {r.structured_content['message']}"
