"""`axsnap mcp --desktop` driven by the official Python SDK over stdio, on LibreOffice Calc and
Writer (Debian's LibreOffice 7.4 with its GTK 3 plugin, which speaks AT-SPI) in a private desktop
session (scripts/desktop-session), as issue 21 asks. One LibreOffice instance serves the whole
file: Calc is started with a fresh profile, Writer is opened in that same instance through
`desktop_launch` (the second `soffice` hands its work to the first and exits).

Calc: the sheet is a table whose cells on screen are read, listed when they hold something (a
value, the focus, a selection), with a note saying which cells were read and how big the sheet
is. The Name Box (which Calc 7.4 leaves nameless: the text box in the Formula Tool Bar whose value
is the current cell's name) takes the agent to B3; a number typed there and a =SUM formula under
it are read back as values, and retyping the number changes the formula's result, each step
answered as a diff of what changed, while every toolbar, button and cell the steps left alone
keeps its ref. The cell the Name Box takes the focus from loses it in the answer, a look at a
sheet with nothing new says so, and `fill` on a cell that holds a number replaces it.

Writer: typing a paragraph, and Bold switched on with its toolbar button and off with Control+b,
are answered as diffs of exactly those changes (plus what the app itself updates afterwards: the
Undo button, the status bar's word count).

Xvfb, the AT-SPI bus launcher and LibreOffice Writer and Calc with the GTK 3 plugin must be
installed (scripts/test installs them): a missing one fails these tests, it does not skip them.
"""

from __future__ import annotations

import contextlib
import os
import re
import shutil
import signal
import subprocess
import time
from collections.abc import AsyncIterator, Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import anyio
import pytest
from conftest import STRUCTURED, connect, stop_group
from test_desktop import call, change_lines, desktop_session, server_params

pytestmark = pytest.mark.anyio

PACKAGES = "libreoffice-writer libreoffice-calc libreoffice-gtk3"
# How long LibreOffice may take to show a window on the accessibility bus (a cold start with a
# fresh profile on a busy machine).
START_TIMEOUT = 90.0
# A line of a snapshot or diff that shows a ref: `  button "Bold" [e90] [pressed]`.
REF_LINE = re.compile(r'^\s*(?P<role>[a-z]+)(?: "(?P<name>[^"]*)")? \[(?P<ref>e\d+)\](?P<rest>.*)$')
# The note under a sheet's listed cells.
GRID_NOTE = re.compile(
    r"^\s*… cells A1 to (?P<col>[A-Z]+)(?P<row>\d+) on screen \((?P<read>[\d,]+) read, (?P<empty>[\d,]+) empty "
    r"not listed\) of 1,048,576 rows × 16,384 columns; scroll, or go to a cell by its name \(a Name Box\), "
    r"to see others$",
    re.MULTILINE,
)


@dataclass
class Office:
    """LibreOffice Calc running in a private desktop session."""

    env: dict[str, str]
    # The `-env:UserInstallation=...` argument that names its instance: a second `soffice` with
    # it opens its document in this one.
    installation: str


def wait_for_calc(axsnap_bin: Path, env: dict[str, str], app: subprocess.Popen[bytes], log: Path) -> None:
    """Until Calc's window is on the accessibility bus (`axsnap desktop apps` lists it)."""
    deadline = time.monotonic() + START_TIMEOUT
    listed = ""
    while True:
        if app.poll() is not None:
            pytest.fail(f"soffice exited ({app.returncode}):\n{log.read_text(errors='replace')}")
        done = subprocess.run(
            [str(axsnap_bin), "desktop", "apps"], env=env, capture_output=True, text=True, timeout=60, check=False
        )
        listed = done.stdout + done.stderr
        if "LibreOffice Calc" in done.stdout:
            return
        if time.monotonic() > deadline:
            pytest.fail(
                f"no LibreOffice Calc window on the accessibility bus after {START_TIMEOUT} s (it speaks "
                f"AT-SPI through its GTK 3 plugin: Debian {PACKAGES}); axsnap desktop apps said:\n{listed}\n"
                f"soffice's log:\n{log.read_text(errors='replace')}"
            )
        time.sleep(0.5)


@pytest.fixture(scope="module")
def office(axsnap_bin: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Office]:
    """A private desktop session with LibreOffice Calc running in it (a fresh profile), for the
    whole file; stopped, with everything it started, at the end."""
    if shutil.which("soffice") is None:
        pytest.fail(
            f"soffice is not installed: these tests need LibreOffice Writer and Calc with the GTK 3 "
            f"plugin (Debian: apt-get install {PACKAGES}; scripts/test installs them)"
        )
    logs = tmp_path_factory.mktemp("office")
    with desktop_session() as env:
        installation = f"-env:UserInstallation={(logs / 'profile').as_uri()}"
        log = logs / "soffice.log"
        with open(log, "wb") as out:
            app = subprocess.Popen(
                ["soffice", "--calc", "--norestore", installation, "--nologo"],
                env=env, stdin=subprocess.DEVNULL, stdout=out, stderr=subprocess.STDOUT,
                start_new_session=True,
            )  # fmt: skip
        try:
            wait_for_calc(axsnap_bin, env, app, log)
            yield Office(env, installation)
        finally:
            stop_group(app)


@pytest.fixture
async def client(axsnap_bin: Path, office: Office) -> AsyncIterator:
    """A Python SDK session with `axsnap mcp --desktop` in LibreOffice's desktop session."""
    async with connect(server_params(axsnap_bin, office.env, "--desktop", STRUCTURED)) as c:
        yield c


async def office_window(client, app: str) -> dict:
    """LibreOffice's `app` ("Calc") window, once it is on the bus."""
    deadline = time.monotonic() + START_TIMEOUT
    while True:
        text, s = await call(client, "desktop_windows")
        windows = [w for w in s["windows"] if w["app"] == "soffice" and w["title"].endswith(f"LibreOffice {app}")]
        if windows:
            return windows[0]
        assert time.monotonic() < deadline, f"no LibreOffice {app} window after {START_TIMEOUT} s: {text}"
        await anyio.sleep(0.5)


async def baseline(client, wid: str, ready: Callable[[str], bool]) -> str:
    """A full snapshot of window `wid`, taken as the baseline of the diffs that follow, once it
    shows what `ready` looks for and the window has stopped changing: a window LibreOffice has
    just shown may still be half made (its parts under a container that is then taken away,
    its menu bar not yet complete)."""
    deadline = time.monotonic() + START_TIMEOUT
    while True:
        text, s = await call(client, "snapshot", window=wid, mode="reset", max_tokens=0)
        assert s["kind"] == "full", text
        await anyio.sleep(0.5)
        again, s = await call(client, "snapshot", window=wid, max_tokens=0)
        # Nothing shown changed: "no change", or a diff of nothing shown (whether a look at
        # nothing new says "no change" is test_calc_a_look_with_nothing_new_says_unchanged's).
        if ready(text) and s["kind"] in ("unchanged", "diff") and not change_lines(again):
            return text
        assert time.monotonic() < deadline, f"the window kept changing, or is not ready:\n{text}\nthen:\n{again}"


async def calc_in_front(client) -> tuple[str, str]:
    """Calc's window id and a baseline snapshot of it, with the window brought to the front
    first: behind Writer its Formula Tool Bar is disabled and its Name Box empty."""
    window = await office_window(client, "Calc")
    wid = window["id"]
    if not window["active"]:
        said, _ = await call(client, "desktop_windows", window=wid, action="focus")
        assert "is now the active window" in said, said
    text = await baseline(
        client, wid, lambda text: bool(re.search(r'toolbar "Formula Tool Bar" \[e\d+\]$', text, re.MULTILINE))
    )
    return wid, text


def refs_of(text: str) -> dict[str, tuple[str, str]]:
    """What each ref of a full snapshot names, as (role, name or description): every element
    but the sheet's cells (which are listed only while they hold something)."""
    refs: dict[str, tuple[str, str]] = {}
    for line in text.splitlines():
        m = REF_LINE.match(line)
        if m and m["role"] != "cell":
            desc = re.search(r'\[desc: "([^"]*)"\]', m["rest"])
            refs[m["ref"]] = (m["role"], m["name"] or (desc.group(1) if desc else ""))
    return refs


def assert_same_refs(before: dict[str, tuple[str, str]], text: str) -> None:
    """Every element of `before` is in the full snapshot `text` under the same ref."""
    after = refs_of(text)
    moved = {r: (was, after.get(r)) for r, was in before.items() if after.get(r) != was}
    assert not moved, f"refs that no longer name what they named: {moved}\n{text}"


def ref_of(text: str, pattern: str) -> str:
    """The ref of the one line of `text` that `pattern` (with a group for the ref) matches."""
    found = re.findall(pattern, text, re.MULTILINE)
    assert len(found) == 1, f"{pattern!r} matched {found} in:\n{text}"
    return found[0]


def name_box(text: str) -> tuple[str, str]:
    """The Name Box's ref and value: the nameless text box in the Formula Tool Bar."""
    lines = text.splitlines()
    starts = [i for i, line in enumerate(lines) if re.fullmatch(r'\s*toolbar "Formula Tool Bar" \[e\d+\]', line)]
    assert len(starts) == 1, f"no enabled Formula Tool Bar:\n{text}"
    start = starts[0]
    indent = len(lines[start]) - len(lines[start].lstrip())
    for line in lines[start + 1 :]:
        if len(line) - len(line.lstrip()) <= indent:
            break
        m = re.fullmatch(r"\s*textbox \[(e\d+)\](?: \[focused\])?: ([A-Z]+\d+)", line)
        if m:
            return m.group(1), m.group(2)
    raise AssertionError(f"no text box in the Formula Tool Bar:\n{text}")


def listed_cells(text: str) -> dict[str, str]:
    """The sheet's listed cells in a full snapshot: name -> the rest of its line."""
    return {m.group(1): m.group(2) for m in re.finditer(r'^\s*cell "([A-Z]+\d+)" (\[e\d+\].*)$', text, re.MULTILINE)}


def assert_grid_note(text: str, listed: int) -> None:
    """The note under the sheet says which cells were read (every one in its range) and how
    many of them are empty and not listed (all but the `listed` ones)."""
    m = GRID_NOTE.search(text)
    assert m, f"no note on the sheet's cells:\n{text}"
    col = 0
    for ch in m["col"]:
        col = col * 26 + ord(ch) - ord("A") + 1
    read, empty = int(m["read"].replace(",", "")), int(m["empty"].replace(",", ""))
    assert col >= 5 and int(m["row"]) >= 10, m.group(0)
    assert read == col * int(m["row"]), m.group(0)
    assert empty == read - listed, (m.group(0), listed)


def assert_tidy(diff: str) -> list[str]:
    """A diff's change lines, checked to hand no element out again under a new ref: no `is now
    eN` line, and no element replaced by one of the same role and name under another ref."""
    lines = change_lines(diff)
    assert not [line for line in lines if " is now e" in line], diff
    for line, below in zip(lines, [*lines[1:], ""]):
        old = re.fullmatch(r'= (e\d+) ([a-z]+)(?: "([^"]*)")? replaced by:', line)
        new = REF_LINE.match(below)
        if old and new:
            same = (new["role"], new["name"]) == (old[2], old[3]) and new["ref"] != old[1]
            assert not same, f"{line} {below.strip()}: the same element under a new ref\n{diff}"
    return lines


def has_line(lines: list[str], start: str) -> bool:
    return any(line.startswith(start) for line in lines)


async def test_calc_sheet_name_box_and_a_formula(client) -> None:
    wid, first = await calc_in_front(client)
    # The grid on screen: a fresh sheet lists only its focused cell, A1.
    assert re.search(r'^\s*table "Sheet Sheet1" \[e\d+\] \[focused\] \[multiselectable\]$', first, re.MULTILINE), first
    a1 = ref_of(first, r'^\s*cell "A1" \[(e\d+)\] \[focused\]$')
    assert listed_cells(first) == {"A1": f"[{a1}] [focused]"}, first
    assert_grid_note(first, listed=1)
    before = refs_of(first)
    assert {("toolbar", "Standard"), ("toolbar", "Formatting"), ("button", "Bold"), ("button", "Undo")} <= set(
        before.values()
    ), first
    nb, where = name_box(first)
    assert where == "A1", first

    # The Name Box takes the agent to B3: its value first, then the cell, listed with a new ref
    # (in A1's place: A1, empty and no longer focused, is no longer listed).
    diff, s = await call(client, "fill", window=wid, ref=nb, text="B3")
    assert s["kind"] == "diff", diff
    assert has_line(assert_tidy(diff), f'~ {nb} textbox: value "A1" -> "B3"'), diff
    diff, s = await call(client, "press", window=wid, keys="Enter")
    assert s["kind"] == "diff", diff
    assert_tidy(diff)
    b3 = ref_of(diff, r'^\s+cell "B3" \[(e\d+)\] \[focused\]$')
    assert b3 not in before and f"~ {nb} textbox: value" not in diff, diff
    middle, _ = await call(client, "snapshot", window=wid, mode="full", max_tokens=0)
    assert name_box(middle) == (nb, "B3"), middle
    assert listed_cells(middle) == {"B3": f"[{b3}] [focused]"}, middle
    assert_grid_note(middle, listed=1)
    assert_same_refs(before, middle)

    # A number typed into B3: its value, and the cursor on B4 (the Name Box says so too).
    diff, _ = await call(client, "type", window=wid, ref=b3, text="12", submit=True)
    lines = assert_tidy(diff)
    assert f'~ {b3} cell "B3": value none -> "12"; -focused' in lines, diff
    assert f'~ {nb} textbox: value "B3" -> "B4"' in lines, diff
    b4 = ref_of(diff, r'^\s+cell "B4" \[(e\d+)\] \[focused\]$')

    # A formula that uses it: read back as its result, B3 left as it was.
    diff, _ = await call(client, "type", window=wid, ref=b4, text="=SUM(B3,30)", submit=True)
    lines = assert_tidy(diff)
    assert f'~ {b4} cell "B4": value none -> "42"; -focused' in lines, diff
    assert f'~ {nb} textbox: value "B4" -> "B5"' in lines, diff
    assert not [line for line in lines if re.search(rf'\b{b3}\b|"B3"', line)], diff
    b5 = ref_of(diff, r'^\s+cell "B5" \[(e\d+)\] \[focused\]$')

    # B3 filled again (typing over a cell replaces what it holds): the formula's result
    # changes with it, both under the refs they had.
    filled, _ = await call(client, "fill", window=wid, ref=b3, text="7")
    # The fill puts the cursor on B3: B5 (empty) is no longer listed.
    assert f'- {b5} cell "B5"' in assert_tidy(filled), filled
    diff, _ = await call(client, "press", window=wid, keys="Enter")
    lines = assert_tidy(diff)
    assert has_line(lines, f'~ {b3} cell "B3": value "12" -> "7"'), diff
    assert has_line(lines, f'~ {b4} cell "B4": value "42" -> "37"'), diff

    last, _ = await call(client, "snapshot", window=wid, mode="full", max_tokens=0)
    assert listed_cells(last) == {"B3": f"[{b3}]: 7", "B4": f"[{b4}] [focused]: 37"}, last
    assert name_box(last) == (nb, "B4"), last
    assert_grid_note(last, listed=2)
    assert_same_refs(before, last)


async def test_calc_the_cell_the_name_box_takes_the_focus_from_says_so(client) -> None:
    """When the Name Box takes the focus, the current cell loses it at once: the answer says so,
    and so does every look after; Enter then puts it on the cell named."""
    wid, first = await calc_in_front(client)
    nb, where = name_box(first)
    current = ref_of(first, rf'^\s*cell "{where}" \[(e\d+)\] \[focused\]')
    diff, _ = await call(client, "fill", window=wid, ref=nb, text="C7")
    lines = assert_tidy(diff)
    assert has_line(lines, f'~ {nb} textbox: value "{where}" -> "C7"'), diff
    # An empty cell is no longer listed; one with a value is, without the focus.
    assert f'- {current} cell "{where}"' in lines or has_line(lines, f'~ {current} cell "{where}": -focused'), diff
    look, _ = await call(client, "snapshot", window=wid, mode="full", max_tokens=0)
    assert not [line for line in listed_cells(look).values() if "[focused]" in line], look
    diff, _ = await call(client, "press", window=wid, keys="Enter")
    assert_tidy(diff)
    c7 = ref_of(diff, r'^\s+cell "C7" \[(e\d+)\] \[focused\]$')
    look, _ = await call(client, "snapshot", window=wid, mode="full", max_tokens=0)
    assert [rest for rest in listed_cells(look).values() if "[focused]" in rest] == [f"[{c7}] [focused]"], look


async def test_calc_a_look_with_nothing_new_says_unchanged(client) -> None:
    """After a formula is entered, looking again shows either what changed since, or that
    nothing did: never a diff of no change."""
    wid, first = await calc_in_front(client)
    nb, _ = name_box(first)
    await call(client, "fill", window=wid, ref=nb, text="D2")
    diff, _ = await call(client, "press", window=wid, keys="Enter")
    d2 = ref_of(diff, r'^\s+cell "D2" \[(e\d+)\] \[focused\]$')
    diff, _ = await call(client, "type", window=wid, ref=d2, text="5", submit=True)
    d3 = ref_of(diff, r'^\s+cell "D3" \[(e\d+)\] \[focused\]$')
    diff, _ = await call(client, "type", window=wid, ref=d3, text="=D2+1", submit=True)
    assert has_line(change_lines(diff), f'~ {d3} cell "D3": value none -> "6"'), diff
    for _ in range(3):
        text, s = await call(client, "snapshot", window=wid, max_tokens=0)
        if s["kind"] == "unchanged":
            break
        assert s["kind"] == "diff" and change_lines(text), f"a diff of no change:\n{text}"


async def test_writer_typing_and_bold_are_exact_diffs(client, office: Office) -> None:
    text, s = await call(
        client, "desktop_launch", app="soffice", args=["--writer", "--norestore", office.installation, "--nologo"]
    )
    pid = s["pid"]
    try:
        wid = s["window"]
        assert f"its window is {wid}" in text and "LibreOffice Writer" in text, text
        # The new document's empty paragraph, and the Formatting toolbar.
        first = await baseline(
            client,
            wid,
            lambda text: (
                bool(re.search(r"^\s*paragraph \[e\d+\] \[focused\]$", text, re.MULTILINE))
                and 'button "Bold" [' in text
            ),
        )
        para = ref_of(first, r"^\s*paragraph \[(e\d+)\] \[focused\]$")
        bold = ref_of(first, r'^\s*button "Bold" \[(e\d+)\]$')
        before = refs_of(first)

        def exact(diff: str, *wanted: str) -> None:
            """The diff says each `wanted` (a regex for a whole line), and besides them only
            what Writer updates after an edit (the Undo button, the word count) and the focus of
            the paragraph and the Bold button (which Writer leaves on it after a click)."""
            lines = assert_tidy(diff)
            for want in wanted:
                assert [line for line in lines if re.fullmatch(want, line)], (want, diff)
            aftermath = [
                r'~ e\d+ button "(Undo|Redo)": [+-]disabled',
                r'~ text in e\d+: "\d+ words?, \d+ characters?" -> "\d+ words?, \d+ characters?"',
                rf"~ {para} paragraph: [+-]focused",
                rf'~ {bold} button "Bold": [+-]focused',
            ]
            other = [line for line in lines if not any(re.fullmatch(p, line) for p in [*wanted, *aftermath])]
            assert not other, f"unexpected lines {other} in:\n{diff}"

        diff, s = await call(client, "type", window=wid, ref=para, text="A quiet morning by the sea")
        assert s["kind"] == "diff", diff
        exact(diff, rf'~ {para} paragraph: value "" -> "A quiet morning by the sea"')
        await call(client, "wait_for", window=wid, text="6 words, 26 characters")

        diff, s = await call(client, "click", window=wid, ref=bold)
        assert s["kind"] == "diff", diff
        exact(diff, rf'~ {bold} button "Bold": ([+-]focused )?\+pressed')

        diff, _ = await call(client, "type", window=wid, ref=para, text=", and a bold wind")
        exact(
            diff,
            rf'~ {para} paragraph: value "A quiet morning by the sea" -> "A quiet morning by the sea, and a bold wind"',
        )
        await call(client, "wait_for", window=wid, text="10 words, 43 characters")

        diff, s = await call(client, "press", window=wid, keys="Control+b")
        assert s["kind"] == "diff", diff
        exact(diff, rf'~ {bold} button "Bold": ([+-]focused )?-pressed')

        last, _ = await call(client, "snapshot", window=wid, mode="full", max_tokens=0)
        assert re.search(
            rf"^\s*paragraph \[{para}\] \[focused\]: A quiet morning by the sea, and a bold wind$", last, re.MULTILINE
        ), last
        assert re.search(rf'^\s*button "Bold" \[{bold}\]( \[focused\])?$', last, re.MULTILINE), last
        assert "label: 10 words, 43 characters" in last, last
        assert_same_refs(before, last)
    finally:
        # The second soffice hands the document to the running instance and exits; should it
        # still run, it goes (its own process group, as desktop_launch starts it).
        with contextlib.suppress(ProcessLookupError):
            os.killpg(pid, signal.SIGTERM)


# Last: it leaves F2 edited.
async def test_calc_fill_replaces_a_cells_value(client) -> None:
    """`fill` on a cell that holds a number replaces it: Enter then enters the new one."""
    wid, first = await calc_in_front(client)
    nb, _ = name_box(first)
    await call(client, "fill", window=wid, ref=nb, text="F2")
    diff, _ = await call(client, "press", window=wid, keys="Enter")
    f2 = ref_of(diff, r'^\s+cell "F2" \[(e\d+)\] \[focused\]$')
    diff, _ = await call(client, "type", window=wid, ref=f2, text="12", submit=True)
    assert has_line(change_lines(diff), f'~ {f2} cell "F2": value none -> "12"'), diff

    text, s = await call(client, "fill", window=wid, ref=f2, text="5")
    assert s["kind"] == "diff" and "[selected]" not in text, text
    diff, _ = await call(client, "press", window=wid, keys="Enter")
    assert has_line(change_lines(diff), f'~ {f2} cell "F2": value "12" -> "5"'), diff
