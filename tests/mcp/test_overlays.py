"""Overlays (issue 45, item 7): what a modal dialog covers is one line, not a line per covered
element; closing the dialog over a page the agent never saw answers the page; opening and
closing it over a page the agent saw answers the dialog and one line for what it covers.

On the fixture's /welcome-guide page (an editor under a modal welcome guide in a full-window
overlay), through `axsnap mcp` over stdio and the Python SDK.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from answers import full_text, hits_of, kind_of
from conftest import STRUCTURED, axsnap_stdio_command, connect, stdio_params
from fixture_site import Site

pytestmark = pytest.mark.anyio

BEHIND = re.compile(r'^… (\d+) elements behind the dialog "Welcome to the block editor"$', re.M)


async def ref_of(c, query: str) -> str:
    r = await c.call_tool("find", {"query": query, "limit": 1})
    hits = hits_of(r)
    assert hits, full_text(r)
    return hits[0]["ref"]


async def test_what_a_modal_covers_is_one_line_until_it_closes(axsnap_bin: Path, site: Site) -> None:
    async with connect(stdio_params(axsnap_stdio_command(axsnap_bin, STRUCTURED))) as c:
        r = await c.call_tool("navigate", {"url": site.url("/welcome-guide")})
        text = full_text(r)
        assert not r.is_error, text
        # Two links, five buttons, six tiles and the title field: 14 under the guide.
        m = BEHIND.search(text)
        assert m and int(m.group(1)) == 14, text
        assert "[obscured]" not in text and "Undo" not in text, text
        assert re.search(r'dialog "Welcome to the block editor" \[e\d+\] \[modal\]', text), text
        # Closed: the page the agent never saw, whole.
        r = await c.call_tool("click", {"ref": await ref_of(c, "close button")})
        text = full_text(r)
        assert not r.is_error, text
        assert kind_of(r) == "full", text
        assert r.structured_content.get("reason") == "uncovered", r.structured_content
        assert re.search(r'button "Undo" \[e\d+\]$', text, re.M) and "behind the dialog" not in text, text
        # Opened again over the page it now knows: the dialog and one line for what it covers
        # (a diff, or the page again when that is as small: the page is that one line).
        r = await c.call_tool("click", {"ref": await ref_of(c, "open help button")})
        text = full_text(r)
        covers = re.search(r"^~ \d+ elements now covered by e\d+", text, re.M) or BEHIND.search(text)
        assert covers and "Welcome to the block editor" in text and len(text.splitlines()) < 12, text
        assert "[obscured]" not in text, text
        # And closed again: a diff too.
        r = await c.call_tool("click", {"ref": await ref_of(c, "close button")})
        text = full_text(r)
        assert kind_of(r) == "diff", text
        assert re.search(r"^~ \d+ elements no longer covered by e\d+", text, re.M), text


async def test_a_bar_in_place_says_it_covers_only_when_two_captures_agree(axsnap_bin: Path, site: Site) -> None:
    """A fixed status bar that covers a button in one answer and not in the next (the content
    moved under it) says nothing of covering; left there, the next capture says it once."""
    async with connect(stdio_params(axsnap_stdio_command(axsnap_bin, STRUCTURED))) as c:
        r = await c.call_tool("navigate", {"url": site.url("/footer-bar")})
        text = full_text(r)
        assert not r.is_error and "covering" not in text, text
        shift = await ref_of(c, "shift button")
        for _ in range(2):
            # Under the bar, then out again: neither answer speaks of covering.
            r = await c.call_tool("click", {"ref": shift})
            text = full_text(r)
            assert not r.is_error, text
            assert "cover" not in text and "obscured" not in text, text
        # Under the bar and left there: the next look finds it still covered, and says so once.
        r = await c.call_tool("click", {"ref": shift})
        assert "cover" not in full_text(r), full_text(r)
        r = await c.call_tool("snapshot", {})
        text = full_text(r)
        assert re.search(r"^~ (e\d+ button \"Publish\": \+obscured|1 elements? now covered by e\d+)", text, re.M), text
        # A click on it is refused as covered, as it was all along.
        r = await c.call_tool("click", {"ref": await ref_of(c, "publish button")})
        assert r.is_error and "cover" in full_text(r), full_text(r)
