"""`axsnap mcp --desktop --recording FILE` serving real Windows trees saved by Accessibility
Insights (fixtures/desktop/uia: the Windows 10 taskbar, Visual Studio's editor and combo box,
the WPF Wildlife Manager), driven by the official Python SDK over stdio with no desktop at all
(served by the Windows platform over a scripted UI Automation):
each file is one app with one window, its snapshot shows the controls with refs, and an action
on one answers as the other desktops' do.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest
from conftest import REPO, browser_path, connect, text_of
from mcp.client.stdio import StdioServerParameters

pytestmark = pytest.mark.anyio

FIXTURES = REPO / "fixtures" / "desktop" / "uia"
# Each file, the app it is served as, and a line its window's snapshot must show.
FILES = [
    ("Taskbar.snapshot", "Taskbar", 'button "Show desktop"'),
    ("A11yElementTest.hier", "A11yElementTest", 'button "5 references"'),
    ("A11yPatternTest.hier", "A11yPatternTest", 'combobox "Solution Configurations"'),
    ("WildlifeManagerTest.a11ytest", "WildlifeManagerTest", 'option "Beetle"'),
]


def server(axsnap_bin: Path, recording: Path) -> StdioServerParameters:
    env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "AT_SPI_BUS_ADDRESS", "WAYLAND_DISPLAY")}
    argv = [str(axsnap_bin), "mcp", "--browser", browser_path(), "--desktop", "--recording", str(recording)]
    return StdioServerParameters(command=argv[0], args=argv[1:], env=env)


async def call(client, tool: str, **args) -> str:
    r = await client.call_tool(tool, args)
    assert not r.is_error, f"{tool} {args}: {text_of(r)}"
    return text_of(r)


@pytest.mark.parametrize(("file", "app", "line"), FILES)
async def test_a_windows_recording_is_served_as_a_desktop(axsnap_bin: Path, file: str, app: str, line: str) -> None:
    async with connect(server(axsnap_bin, FIXTURES / file)) as client:
        windows = await call(client, "desktop_windows")
        m = re.search(rf'^(w\d+) window "[^"]*" app "{re.escape(app)}"', windows, re.M)
        assert m, windows
        text = await call(client, "snapshot", window=m.group(1), max_tokens=0)
        shown = [s for s in text.splitlines() if s.strip().startswith(line)]
        assert shown and "[e" in shown[0], text


async def test_an_action_on_a_recorded_windows_tree_answers_what_changed(axsnap_bin: Path) -> None:
    async with connect(server(axsnap_bin, FIXTURES / "WildlifeManagerTest.a11ytest")) as client:
        windows = await call(client, "desktop_windows")
        wid = re.search(r"^(w\d+) ", windows, re.M).group(1)
        text = await call(client, "snapshot", window=wid, max_tokens=0)
        field = re.search(r"^\s*textbox \[(e\d+)\]", text, re.M).group(1)
        answer = await call(client, "fill", window=wid, ref=field, text="Otter")
        assert "Otter" in answer, answer
        assert len(answer.splitlines()) < len(text.splitlines()), answer
