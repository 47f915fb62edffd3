"""What each family of MCP clients gives its model from a tool result.

A result may carry text content and `structuredContent`; clients differ in which they hand the
model, and that is what an answer costs:

- structured-first: Claude Code (anthropics/claude-code#79944), OpenAI Codex, OpenCode since
  anomalyco/opencode#32074 give the model `JSON.stringify(structuredContent)` whenever a result
  carries it, and the text only when it does not (Claude Code drops `structuredContent` on
  errors, #86032; the stricter reading, JSON whenever present, is taken here);
- text-first: Kimi Code (MoonshotAI/kimi-code#3234) gives the text, the JSON only when there is
  no text;
- both: the OpenAI Agents SDK with `use_structured_content`, oh-my-pi (can1357/oh-my-pi#10523)
  give the text, then the JSON.

Images are sent as images by all of them and are not part of these views.
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

from answers import full_text

FAMILIES = ("structured-first", "text-first", "both")


def stringify(value) -> str:
    """`JSON.stringify(value)`: compact, characters as they are."""
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


def view(result, family: str) -> str:
    """The text a client of `family` gives its model for `result`."""
    text = full_text(result)
    structured = result.structured_content
    if family == "structured-first":
        return stringify(structured) if structured is not None else text
    if family == "text-first":
        return text if text or structured is None else stringify(structured)
    if family == "both":
        return text if structured is None else f"{text}\n{stringify(structured)}"
    raise ValueError(f"unknown client family {family!r}; one of {FAMILIES}")


def tokens(axsnap_bin: Path, text: str) -> dict:
    """`{bytes, cl100k, o200k}` of `text`, counted by `axsnap tokens` (tiktoken's tables)."""
    done = subprocess.run(
        [str(axsnap_bin), "tokens", "--json"],
        input=text.encode(),
        capture_output=True,
        timeout=120,
        check=True,
    )
    return json.loads(done.stdout)
