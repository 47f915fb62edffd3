"""The demo's steps through `axsnap mcp` over stdio (rmcp's client: `axsnap demo --mcp`) give
the same answers as through the agent directly (`axsnap demo`): the same kind and the same
tokens at every step."""

from __future__ import annotations

import re
import subprocess

from conftest import browser_path


def answers(axsnap_bin, *extra: str) -> list[tuple[str, int]]:
    done = subprocess.run(
        [str(axsnap_bin), "demo", "--show", "false", "--browser", browser_path(), *extra],
        capture_output=True, text=True, timeout=300, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stdout + done.stderr
    found = re.findall(r"answer: (\w+)[^;]*; (?:\d+ bytes, )?(\d+) tokens cl100k", done.stdout)
    assert len(found) == 7, done.stdout
    return [(kind, int(tokens)) for kind, tokens in found]


def test_demo_through_mcp_gives_the_same_answers(axsnap_bin) -> None:
    direct = answers(axsnap_bin)
    through_mcp = answers(axsnap_bin, "--mcp")
    assert through_mcp == direct
    assert [k for k, _ in direct] == ["full", "diff", "diff", "diff", "diff", "diff", "unchanged"]
