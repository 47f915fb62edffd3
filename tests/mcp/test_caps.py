"""Opt-in tool groups (`--caps`, issue 23): `vision` adds `mouse` (a canvas clicked and
wheeled by viewport pixels), `pdf` adds `pdf` (the page printed under --output-dir, never
over a file); without them neither tool is listed or served. Real Chromium, the fixture site,
the Python SDK over stdio."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import axsnap_stdio_command, connect, stdio_params, text_of
from fixture_site import Site
from test_axsnap_agent import Agent

pytestmark = pytest.mark.anyio


async def test_mouse_and_pdf_with_their_groups(axsnap_bin: Path, site: Site, tmp_path: Path) -> None:
    out = tmp_path / "out"
    out.mkdir()
    argv = axsnap_stdio_command(axsnap_bin, "--caps", "vision,pdf", "--output-dir", str(out))
    async with connect(stdio_params(argv)) as c:
        names = [t.name for t in (await c.list_tools()).tools]
        assert names[-2:] == ["mouse", "pdf"], names
        agent = Agent(c)
        text, _ = await agent.ok("navigate", url=site.url("/canvas"))
        assert "nothing yet" in text, text
        # The canvas is at 50,100: its point 100,60 is the viewport's 150,160.
        text, s = await agent.ok("mouse", x=150, y=160, action="click")
        assert "clicked at 100,60" in text, text  # a tiny page: the full one, or a diff
        text, _ = await agent.ok("mouse", x=200, y=200, action="wheel", dy=120)
        assert "wheel 120" in text, text
        msg = await agent.error("mouse", "hidden", x=5000, y=10, action="click")
        assert "outside the viewport" in msg, msg
        await agent.ok("navigate", url=site.url("/pages/one"))
        text, _ = await agent.ok("pdf", path="one.pdf")
        first = out / "one.pdf"
        data = first.read_bytes()
        assert text == f"wrote one.pdf ({len(data)} bytes) to {first}", text
        assert data.startswith(b"%PDF-") and data.rstrip().endswith(b"%%EOF") and b"/Type /Page" in data, data[:40]
        text, _ = await agent.ok("pdf", path="one.pdf")
        assert text.endswith(f"to {out / 'one (1).pdf'}") and first.read_bytes() == data, text
        for bad in ["../escape.pdf", "/tmp/escape.pdf"]:
            await agent.error("pdf", "outside_output_dir", path=bad)
        assert not (tmp_path / "escape.pdf").exists()


async def test_groups_are_off_by_default(axsnap_bin: Path, site: Site) -> None:
    async with connect(stdio_params(axsnap_stdio_command(axsnap_bin))) as c:
        names = [t.name for t in (await c.list_tools()).tools]
        assert "mouse" not in names and "pdf" not in names, names
        await Agent(c).ok("navigate", url=site.url("/canvas"))
        with pytest.raises(Exception, match="unknown tool"):
            r = await c.call_tool("mouse", {"x": 1, "y": 1, "action": "click"})
            raise AssertionError(text_of(r)) if not r.is_error else Exception(text_of(r))
