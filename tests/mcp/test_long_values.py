"""Long values (issue 45, item 2): a text area past the 2,000-character text cap is read to its
end with `snapshot ref=… from=…`, page by page, each page ending with where the next starts;
typing a sentence at its end answers the sentence, not the whole old and new value, in the text
and in `structuredContent`.

On the fixture's /long-text page (a 5,000-character 'Article' textarea), through `axsnap mcp`
over stdio and the Python SDK.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from answers import full_text, hits_of, kind_of
from conftest import axsnap_stdio_command, connect, stdio_params
from fixture_site import LONG_TEXT, Site

pytestmark = pytest.mark.anyio

SENTENCE = " One more sentence, typed at the end."
_NEXT = re.compile(r"…\+[\d,]+ chars: from=(\d+)$")


def value_on_line(text: str) -> str:
    """The value on the Article textarea's line (the text after `]: `)."""
    line = next(line for line in text.splitlines() if 'textbox "Article"' in line)
    return line.split("]: ", 1)[1]


async def article(c) -> str:
    r = await c.call_tool("find", {"query": "Article", "limit": 1})
    hits = hits_of(r)
    assert hits, full_text(r)
    return hits[0]["ref"]


async def test_a_cut_value_is_read_to_its_end(axsnap_bin: Path, site: Site) -> None:
    async with connect(stdio_params(axsnap_stdio_command(axsnap_bin))) as c:
        r = await c.call_tool("navigate", {"url": site.url("/long-text")})
        assert not r.is_error, full_text(r)
        ref = await article(c)
        r = await c.call_tool("snapshot", {"ref": ref})
        shown = value_on_line(full_text(r))
        assert len(shown) <= 2_000, "the value is capped in the default view"
        read, pages = "", 1
        while m := _NEXT.search(shown):
            body = shown[: m.start()]
            read += body if not read else body.removeprefix("…")
            assert len(read) == int(m.group(1)), "each page starts where the last stopped"
            r = await c.call_tool("snapshot", {"ref": ref, "from": int(m.group(1))})
            assert not r.is_error, full_text(r)
            shown = value_on_line(full_text(r))
            assert len(shown) <= 2_000
            pages += 1
            assert pages < 10, shown[-80:]
        read += shown.removeprefix("…")
        # The value as projection shows it: whitespace runs made one space.
        assert read == " ".join(LONG_TEXT.split())
        assert pages == 3


@pytest.mark.parametrize("structured", [False, True], ids=["text", "structured"])
async def test_typing_at_the_end_answers_the_sentence(axsnap_bin: Path, site: Site, structured: bool) -> None:
    extra = ("--structured-content",) if structured else ()
    async with connect(stdio_params(axsnap_stdio_command(axsnap_bin, *extra))) as c:
        r = await c.call_tool("navigate", {"url": site.url("/long-text")})
        assert not r.is_error, full_text(r)
        r = await c.call_tool("type", {"ref": await article(c), "text": SENTENCE})
        assert not r.is_error, full_text(r)
        text = full_text(r)
        assert kind_of(r) == "diff", text
        assert f'value appended "{SENTENCE}"' in text, text
        # The sentence and a line or two around it, never the value (twice).
        assert "Sentence 12 of" not in text and len(text) < 400, text
        if structured:
            data = json.dumps(r.structured_content)
            assert '"of": "value"' in data and SENTENCE in data, data[:800]
            assert "Sentence 12 of" not in data and len(data) < 1_500, data[:800]
