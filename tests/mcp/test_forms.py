"""Forms that tell the truth (issue 51, first part): `fill` sets every input type the way a
user's value lands, with the `input` and `change` events a page's handlers listen to, and an
edit that does not take is an error, never a success whose diff says only that focus moved. A
value the type refuses (a date's `2011-13-45`, a number's `abc`) is refused before anything is
written: the field keeps its value and the page hears no event.

On the fixture's /inputs page (one labelled field of each type), through `axsnap mcp` over
stdio and the Python SDK; each value is read back in the page with `evaluate`. A picked input
(date, time, colour, ...) reads as one field, and on /elements (every HTML element and input
type) no node has a role outside the core's vocabulary or a name said twice.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from answers import error_code, full_text, hits_of
from conftest import REPO, axsnap_stdio_command, connect, stdio_params
from fixture_site import INPUT_CASES, Site

pytestmark = pytest.mark.anyio

# The types a value is picked for, not typed into.
NATIVE = {"date", "time", "color", "range", "month", "week", "datetime-local"}


class Page:
    def __init__(self, client) -> None:
        self.c = client

    async def ref(self, query: str) -> str:
        r = await self.c.call_tool("find", {"query": query, "limit": 1})
        hits = hits_of(r)
        assert hits, (query, full_text(r))
        return hits[0]["ref"]

    async def value(self, name: str) -> str:
        r = await self.c.call_tool("evaluate", {"expression": f"document.querySelector('[name={name}]').value"})
        assert not r.is_error, full_text(r)
        return json.loads(full_text(r))

    async def log(self) -> str:
        r = await self.c.call_tool("evaluate", {"expression": "document.getElementById('log').textContent"})
        return json.loads(full_text(r))


@pytest.fixture
async def page(axsnap_bin: Path, site: Site):
    async with connect(stdio_params(axsnap_stdio_command(axsnap_bin, "--allow-eval"))) as c:
        r = await c.call_tool("navigate", {"url": site.url("/inputs")})
        assert not r.is_error, full_text(r)
        yield Page(c)


@pytest.mark.parametrize(("label", "kind", "value", "holds"), INPUT_CASES, ids=[c[1] for c in INPUT_CASES])
async def test_fill_sets_each_input_type(page: Page, label: str, kind: str, value: str, holds: str) -> None:
    before = await page.value(kind)
    r = await page.c.call_tool("fill", {"ref": await page.ref(label), "text": value})
    assert not r.is_error, full_text(r)
    assert await page.value(kind) == holds, (kind, before)
    # The page saw the edit as a user's: its handlers ran (a picked value is committed at once,
    # `change` too; typed text fires `change` when the field loses focus, as a user's does).
    log = await page.log()
    assert f"input:{kind}" in log, log
    if kind in NATIVE:
        assert f"change:{kind}" in log, log
    # The answer says the new value (a diff of that field), not only that focus moved.
    assert holds in full_text(r) or holds.lower() in full_text(r).lower(), full_text(r)


async def test_textarea_and_contenteditable(page: Page) -> None:
    r = await page.c.call_tool("fill", {"ref": await page.ref("Notes"), "text": "first line"})
    assert not r.is_error and await page.value("notes") == "first line", full_text(r)
    r = await page.c.call_tool("fill", {"ref": await page.ref("Bio textbox"), "text": "hello"})
    assert not r.is_error and '"hello"' in full_text(r), full_text(r)


@pytest.mark.parametrize(
    ("query", "text", "code", "words"),
    [
        ("Locked", "x", "disabled", "disabled"),
        ("Frozen textbox", "x", "read_only", "read-only"),
        ("Stubborn", "new", "no_effect", 'holds "same"'),
        ("Frozen date", "2011-10-11", "read_only", "cannot fill"),
        ("Start date", "2011-13-45", "bad_value", "yyyy-mm-dd"),
        ("Start time", "noon", "bad_value", "hh:mm"),
        ("Colour", "not a colour", "bad_value", "#rrggbb"),
        ("Volume", "200", "bad_value", "from 0 to 10"),
    ],
)
async def test_a_fill_that_does_not_take_is_an_error(page: Page, query: str, text: str, code: str, words: str) -> None:
    r = await page.c.call_tool("fill", {"ref": await page.ref(query), "text": text})
    assert r.is_error and error_code(r) == code, full_text(r)
    assert words in full_text(r), full_text(r)


async def test_typing_into_a_field_that_takes_no_keys_is_an_error(page: Page) -> None:
    # A date input takes no typed text (its parts take digits one field at a time).
    r = await page.c.call_tool("type", {"ref": await page.ref("Stubborn"), "text": "abc"})
    assert r.is_error and error_code(r) == "no_effect", full_text(r)
    assert await page.value("stubborn") == "same"
    # The range is left as it was after a refused fill.
    r = await page.c.call_tool("fill", {"ref": await page.ref("Volume"), "text": "200"})
    assert r.is_error and await page.value("range") == "5", full_text(r)


# (label, name, a value the field takes, one its type refuses, what the refusal says it takes)
REFUSED = [
    ("Start date", "date", "2011-10-11", "2011-13-45", "yyyy-mm-dd"),
    ("Start time", "time", "11:34", "25:00", "hh:mm"),
    ("Month", "month", "2011-10", "2011-13", "yyyy-mm"),
    ("Week", "week", "2011-W41", "2011-W60", "yyyy-Www"),
    ("Meeting", "datetime-local", "2011-10-11T11:34", "2011-10-11T25:00", "yyyy-mm-ddThh:mm"),
    ("Count", "number", "42", "abc", "a number"),
    ("Colour", "color", "#00ff00", "transparent", "#rrggbb"),
    ("Volume", "range", "8", "eleven", "from 0 to 10"),
]


@pytest.mark.parametrize(("label", "name", "good", "bad", "format"), REFUSED, ids=[c[1] for c in REFUSED])
async def test_a_refused_value_leaves_the_field_as_it_was(
    page: Page, label: str, name: str, good: str, bad: str, format: str
) -> None:
    """A value the type refuses is refused before anything is written: the field keeps its
    value and the page hears no input or change event (a framework's model stays in step with
    the page: ipywidgets kept a date the page showed emptied, JupyterLab saved a number as null)."""
    ref = await page.ref(label)
    r = await page.c.call_tool("fill", {"ref": ref, "text": good})
    assert not r.is_error, full_text(r)
    log = await page.log()
    r = await page.c.call_tool("fill", {"ref": ref, "text": bad})
    assert r.is_error and error_code(r) == "bad_value", full_text(r)
    assert format in full_text(r) and "left as it was" in full_text(r), full_text(r)
    assert await page.value(name) == good
    assert await page.log() == log, "a refused fill sent events"


@pytest.mark.parametrize(
    ("text", "holds"),
    [("red", "#ff0000"), ("#ABC", "#aabbcc"), ("rgb(0 128 255)", "#0080ff"), ("hsl(120 100% 25%)", "#008000")],
)
async def test_a_colour_takes_css_colours(page: Page, text: str, holds: str) -> None:
    ref = await page.ref("Colour")
    r = await page.c.call_tool("fill", {"ref": ref, "text": text})
    assert not r.is_error, full_text(r)
    assert await page.value("color") == holds
    assert "input:color" in await page.log() and "change:color" in await page.log()
    # The same colour again is no error: the field holds what was asked, in its own form.
    r = await page.c.call_tool("fill", {"ref": ref, "text": text})
    assert not r.is_error, full_text(r)


async def test_a_datetime_local_takes_a_space_for_the_t(page: Page) -> None:
    ref = await page.ref("Meeting")
    for _ in range(2):
        r = await page.c.call_tool("fill", {"ref": ref, "text": "2011-10-11 11:34"})
        assert not r.is_error, full_text(r)
        assert await page.value("datetime-local") == "2011-10-11T11:34"


async def test_a_read_only_date_is_refused_as_read_only_and_says_so(page: Page) -> None:
    r = await page.c.call_tool("snapshot", {"mode": "full", "max_tokens": 0})
    assert re.search(r'date "Frozen date" \[e\d+\] \[readonly\]: 2020-01-01', full_text(r)), full_text(r)
    r = await page.c.call_tool("fill", {"ref": await page.ref("Frozen date"), "text": "2011-10-11"})
    # The same refusal as a read-only text field's.
    assert r.is_error and error_code(r) == "read_only", full_text(r)
    assert "cannot fill" in full_text(r) and "it is read-only" in full_text(r), full_text(r)
    assert await page.value("frozen-date") == "2020-01-01"
    assert "frozen-date" not in await page.log()
    r = await page.c.call_tool("fill", {"ref": await page.ref("Frozen textbox"), "text": "x"})
    assert r.is_error and error_code(r) == "read_only", full_text(r)


VOCABULARY = set(re.findall(r'=> "([a-z_-]+)"', (REPO / "crates/axsnap-core/src/role.rs").read_text()))


# The kind each picked input reads as, and the form an empty one says it takes.
PICKER_KINDS = {
    "date": ("date", "yyyy-mm-dd"),
    "time": ("time", "hh:mm"),
    "datetime-local": ("datetime", "yyyy-mm-ddThh:mm"),
    "month": ("month", "yyyy-mm"),
    "week": ("week", "yyyy-Www"),
    "color": ("color", "#rrggbb"),
}


async def test_native_pickers_are_one_field_each(page: Page) -> None:
    """Each picked input is one line of its own kind with its label and value, or `empty` and
    the form `fill` takes (`date "Due date": empty (yyyy-mm-dd)`), never the browser's spin
    fields and placeholders."""
    r = await page.c.call_tool("snapshot", {"mode": "full", "max_tokens": 0})
    text = full_text(r)
    for label, kind, _, _ in INPUT_CASES:
        if kind in PICKER_KINDS:
            word, form = PICKER_KINDS[kind]
            line = re.search(rf'^\s*{word} "{label}" \[e\d+\]: (.*)$', text, re.M)
            assert line, (label, text)
            value = await page.value(kind)
            assert line.group(1) == (value or f"empty ({form})"), (label, line.group(0), value)
    # What the browser draws inside them (a spin field per part with its placeholder) is not
    # read out: the only forms shown are the ones empty fields say they take.
    shown = re.sub(r"empty \([^)]*\)", "", text).replace('spinbutton "Count"', "")
    for leak in ("spinbutton", "Month Month", "Show date picker", "mm", "yyyy", "Date ", "InputTime", "ColorWell", "DateTime"):
        assert leak not in shown, (leak, text)
    assert 'date "Frozen date" [' in text and ": 2020-01-01" in text, text
    # A range says its bounds beside its value: what `fill` takes, before a fill is refused.
    assert re.search(r'^\s*slider "Volume" \[e\d+\]: 5 \(0 to 10\)$', text, re.M), text


async def test_an_empty_date_filled_with_an_iso_value_reads_it(page: Page) -> None:
    """The form an empty field shows is the one `fill` takes; the answer is the value."""
    ref = await page.ref("Start date")
    r = await page.c.call_tool("fill", {"ref": ref, "text": "2011-10-11"})
    assert not r.is_error, full_text(r)
    assert re.search(rf'{ref} date "Start date".*"2011-10-11"', full_text(r)), full_text(r)
    assert await page.value("date") == "2011-10-11"


@pytest.mark.parametrize("ax_tree", ["auto", "never"])
async def test_every_element_has_a_known_role_and_its_name_once(
    axsnap_bin: Path, site: Site, ax_tree: str
) -> None:
    """Every HTML element and input type: each node's role is one of the core vocabulary (no
    Chromium-internal role name), and no name is the same word twice ("Month Month")."""
    async with connect(stdio_params(axsnap_stdio_command(axsnap_bin, "--ax-tree", ax_tree))) as c:
        r = await c.call_tool("navigate", {"url": site.url("/elements")})
        assert not r.is_error, full_text(r)
        r = await c.call_tool("snapshot", {"mode": "full", "format": "json", "max_tokens": 0})
        text = full_text(r)
        snapshot = json.loads(text[text.index("{") :])
        nodes = snapshot["nodes"]
        nodes = nodes.values() if isinstance(nodes, dict) else nodes
        unknown = {n["role"]: n.get("name") for n in nodes if n["role"] not in VOCABULARY}
        assert not unknown, unknown
        doubled = [n["name"] for n in nodes if re.fullmatch(r"(\S+) \1", n.get("name") or "")]
        assert not doubled, doubled
        assert len(nodes) > 100


async def test_type_slowly_drives_a_page_that_reads_keys(axsnap_bin: Path, site: Site) -> None:
    async with connect(stdio_params(axsnap_stdio_command(axsnap_bin, "--allow-eval"))) as c:
        p = Page(c)
        await c.call_tool("navigate", {"url": site.url("/keys")})
        term = await p.ref("Terminal")
        # Inserted text sends no keydown: the terminal sees nothing, and it is no text field.
        r = await c.call_tool("type", {"ref": term, "text": "ls"})
        assert r.is_error, full_text(r)
        r = await c.call_tool("type", {"ref": term, "text": "Echo Hi", "slowly": True, "submit": True})
        assert not r.is_error, full_text(r)
        screen = await c.call_tool("evaluate", {"expression": "document.getElementById('screen').textContent"})
        assert json.loads(full_text(screen)) == "Echo Hi|", full_text(screen)


async def test_press_takes_sequences_and_keeps_case(axsnap_bin: Path, site: Site) -> None:
    async with connect(stdio_params(axsnap_stdio_command(axsnap_bin, "--allow-eval"))) as c:
        p = Page(c)
        await c.call_tool("navigate", {"url": site.url("/keys")})
        line = await p.ref("Line textbox")
        r = await c.call_tool("fill", {"ref": line, "text": "x"})
        assert not r.is_error, full_text(r)
        r = await c.call_tool("press", {"keys": "Control+a Delete A Shift+b c"})
        assert not r.is_error, full_text(r)
        assert await p.value("line") == "ABc"
        # Tab Tab Enter: from the field to the second button, which writes "two".
        r = await c.call_tool("press", {"keys": "Tab Tab Enter"})
        assert not r.is_error, full_text(r)
        said = await c.call_tool("evaluate", {"expression": "document.getElementById('said').textContent"})
        assert json.loads(full_text(said)) == "two"
