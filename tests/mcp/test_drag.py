"""`drag {from_ref, to_ref}` (issue 23): an HTML5 drag-and-drop board and a list sorted by
pointer drags, on the fixture site's /drag page, in real Chromium through the official Python
SDK; the page's status line says what moved, so the answer's diff shows it. Bad input: a
stale drop target, an unknown ref."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from conftest import axsnap_stdio_command, connect, stdio_params
from fixture_site import Site
from test_axsnap_agent import Agent

pytestmark = pytest.mark.anyio


async def test_drag_cards_and_sort_a_list(axsnap_bin: Path, site: Site) -> None:
    async with connect(stdio_params(axsnap_stdio_command(axsnap_bin))) as c:
        agent = Agent(c)
        text, _ = await agent.ok("navigate", url=site.url("/drag"))
        # The sortable list's items: refs of their own (a drag handle's move cursor).
        items = dict((name, r) for r, name in re.findall(r"listitem \[(e\d+)\] \[clickable\]: (\w+)", text))
        assert set(items) == {"One", "Two", "Three"}, text
        card_b = await agent.ref("Card B", "generic", "Card B")
        # The column's heading: the drop lands in its column, as a person's would.
        done = await agent.ref("Done", "heading", "Done")
        # HTML5: the page's drop handler moves the card.
        text, s = await agent.ok("drag", from_ref=card_b, to_ref=done)
        assert s["kind"] == "diff", text
        assert "board: To do A | Done B" in text, text
        card_a = await agent.ref("Card A", "group", "Card A")
        text, _ = await agent.ok("drag", from_ref=card_a, to_ref=done)
        assert "board: To do none | Done B A" in text, text
        # Pointer events: Three dropped on One goes before it.
        text, _ = await agent.ok("drag", from_ref=items["Three"], to_ref=items["One"])
        assert "list: Three One Two" in text, text
        # A drop target from a page that is gone, and a ref never given.
        await agent.ok("navigate", url=site.url("/pages/one"))
        elsewhere = (await agent.ok("find", query="Two", limit=1))[1]["hits"][0]["ref"]
        await agent.ok("navigate", url=site.url("/drag"))
        card_a2 = await agent.ref("Card A", "group", "Card A")
        msg = await agent.error("drag", "stale_ref", from_ref=card_a2, to_ref=elsewhere)
        assert elsewhere in msg, msg
        await agent.error("drag", "unknown_ref", from_ref=card_a2, to_ref="e99999")
        text, _ = await agent.ok("snapshot", mode="full")
        assert "board: To do A B | Done none" in text, "nothing moved on a refused drag"
