"""Downloads (issue 23): with `--output-dir` a download is saved there under the name the site
suggested, never over a file (a second report.csv becomes `report (1).csv`), and the answer of
the action that caused it says its name, size and path; without it downloads are refused and
the answer says so. Real Chromium, the fixture site's /download page, the Python SDK."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import axsnap_stdio_command, connect, stdio_params
from fixture_site import REPORT_CSV, Site
from test_axsnap_agent import Agent

pytestmark = pytest.mark.anyio


async def test_downloads_are_saved_and_reported(axsnap_bin: Path, site: Site, tmp_path: Path) -> None:
    out = tmp_path / "downloads"
    out.mkdir()
    (out / "report (1).csv").write_text("already here")
    argv = axsnap_stdio_command(axsnap_bin, "--output-dir", str(out))
    async with connect(stdio_params(argv)) as c:
        agent = Agent(c)
        await agent.ok("navigate", url=site.url("/download"))
        link = await agent.ref("Download report", "link", "Download report")
        text, _ = await agent.ok("click", ref=link)
        assert f"downloaded report.csv ({len(REPORT_CSV)} bytes) to {out / 'report.csv'}" in text, text
        assert (out / "report.csv").read_bytes() == REPORT_CSV
        # The same name again, made by a script: neither file is replaced.
        export = await agent.ref("Export", "button", "Export")
        text, _ = await agent.ok("click", ref=export)
        assert f"downloaded report (2).csv (12 bytes) to {out / 'report (2).csv'}" in text, text
        assert text.count("downloaded ") == 1, text
        assert (out / "report (2).csv").read_text() == "made in page"
        assert (out / "report.csv").read_bytes() == REPORT_CSV
        assert (out / "report (1).csv").read_text() == "already here"
    # Nothing half-made is left behind.
    assert sorted(p.name for p in out.iterdir()) == ["report (1).csv", "report (2).csv", "report.csv"]


async def test_downloads_are_refused_without_an_output_dir(axsnap_bin: Path, site: Site) -> None:
    async with connect(stdio_params(axsnap_stdio_command(axsnap_bin))) as c:
        agent = Agent(c)
        await agent.ok("navigate", url=site.url("/download"))
        link = await agent.ref("Download report", "link", "Download report")
        text, _ = await agent.ok("click", ref=link)
        first = text.splitlines()[0]
        assert "1 download refused: report.csv" in first and "downloaded" not in first, text
