"""Reading axsnap's answers the way a model reads them: from the text alone.

By default axsnap sends no `structuredContent` (most agent clients would give the model that
JSON instead of the text), so everything a test needs is read from the text here, as an agent
reads it: the session handle on a first answer's first line, an error's code at the start of
its text, what kind of answer a step got, the hits `find` lists. A test that reads one of these
from the text checks, at the same time, that the text carries it.
"""

from __future__ import annotations

import json
import re

SESSION_LINE = "session: "


def full_text(result) -> str:
    """Every text block of a tool result, joined by newlines (nothing left out)."""
    return "\n".join(c.text for c in result.content if getattr(c, "type", None) == "text")


def session_handle(result) -> str | None:
    """The handle a stateless session's first answer opens with (`session: HANDLE (...)`)."""
    text = full_text(result)
    if not text.startswith(SESSION_LINE):
        return None
    return text[len(SESSION_LINE) :].split(" ", 1)[0].split("\n", 1)[0] or None


_CODE = re.compile(r"([a-z][a-z0-9_]*): ")


def error_code(result) -> str | None:
    """An error's code (`stale_ref`, `no_page`, ...): the first word of its text. None for a
    result that is not an error."""
    if not result.is_error:
        return None
    m = _CODE.match(full_text(result))
    return m.group(1) if m else None


def kind_of(result) -> str:
    """What a step answered, from its text: `error`, `diff` (`# diff N -> M: ...`),
    `unchanged` (`# no change since snapshot N`), or `full` (a page, whole or outlined)."""
    if result.is_error:
        return "error"
    for line in full_text(result).splitlines():
        if not line.startswith("#") and not line.startswith(SESSION_LINE):
            break
        if line.startswith("# diff "):
            return "diff"
        if line.startswith("# no change since snapshot"):
            return "unchanged"
    return "full"


# `e12 button "Save" in main > form [no match for: x]`: the name is a Rust debug string.
_HIT = re.compile(r'^(e\d+) (\S+) ("(?:[^"\\]|\\.)*")(?: in (.*?))?(?: \[no match for: .*\])?$')


def hits_of(result) -> list[dict]:
    """The hits a `find` answer lists, in its order: `{ref, role, name, path}` each."""
    hits = []
    for line in full_text(result).splitlines():
        m = _HIT.match(line)
        if not m:
            continue
        try:
            name = json.loads(m.group(3))
        except json.JSONDecodeError:
            name = m.group(3)[1:-1]
        hits.append({"ref": m.group(1), "role": m.group(2), "name": name, "path": m.group(4) or ""})
    return hits


# `tab 0: "Title" http://… (current)`: the title is a Rust debug string.
_TAB = re.compile(r'^tab (\d+): ("(?:[^"\\]|\\.)*") (\S+)( \(current\))?$')


def tabs_of(result) -> list[dict]:
    """The tabs a `tabs` answer lists: `{index, title, url, current}` each."""
    tabs = []
    for line in full_text(result).splitlines():
        m = _TAB.match(line)
        if m:
            try:
                title = json.loads(m.group(2))
            except json.JSONDecodeError:
                title = m.group(2)[1:-1]
            tabs.append({"index": int(m.group(1)), "title": title, "url": m.group(3), "current": bool(m.group(4))})
    return tabs
