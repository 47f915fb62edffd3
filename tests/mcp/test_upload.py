"""`upload`: files into a file input, or through the file chooser a button opens, from the
server's `--upload-root` only (issue 23). Real Chromium, the fixture site's /upload page, the
official Python SDK over stdio; the page shows each file it got with its size, so the answer's
diff says what the page received."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import axsnap_stdio_command, connect, stdio_params
from fixture_site import Site
from test_axsnap_agent import Agent

pytestmark = pytest.mark.anyio


@pytest.fixture
def files(tmp_path: Path) -> Path:
    root = tmp_path / "uploads"
    (root / "sub").mkdir(parents=True)
    (root / "note.txt").write_text("hello")
    (root / "sub" / "data.bin").write_bytes(bytes(1234))
    (tmp_path / "secret.txt").write_text("not for pages")
    (root / "escape").symlink_to(tmp_path / "secret.txt")
    return root


async def test_upload_into_inputs_and_choosers(axsnap_bin: Path, site: Site, files: Path) -> None:
    argv = axsnap_stdio_command(axsnap_bin, "--upload-root", str(files))
    async with connect(stdio_params(argv)) as c:
        agent = Agent(c)
        await agent.ok("navigate", url=site.url("/upload"))
        attachment = await agent.ref("Attachment", "button", "Attachment")
        # Two files into a multiple input: the page lists both, with their sizes.
        text, s = await agent.ok("upload", ref=attachment, paths=["note.txt", str(files / "sub" / "data.bin")])
        assert s["kind"] == "diff", text
        assert "attachment: note.txt (5 bytes)" in text and "attachment: data.bin (1234 bytes)" in text, text
        # A button that opens a hidden single-file input's chooser.
        pick = await agent.ref("Choose photo", "button", "Choose photo")
        msg = await agent.error("upload", "not_actionable", ref=pick, paths=["note.txt", "sub/data.bin"])
        assert "takes one file" in msg, msg
        text, s = await agent.ok("upload", ref=pick, paths=["sub/data.bin"])
        assert "photo: data.bin (1234 bytes)" in text, text
        # Nothing outside the root, through .., an absolute path or a link.
        for path in ["../secret.txt", str(files.parent / "secret.txt"), "escape"]:
            msg = await agent.error("upload", "outside_upload_root", ref=attachment, paths=[path])
            assert "outside the upload root" in msg and "not for pages" not in msg, msg
        msg = await agent.error("upload", "no_such_file", ref=attachment, paths=["missing.txt"])
        assert "missing.txt" in msg, msg
        await agent.error("upload", "no_such_file", ref=attachment, paths=["sub"])
        # Not a file input, nor a chooser's opener.
        title = await agent.ref("Title", "textbox", "Title")
        msg = await agent.error("upload", "not_actionable", ref=title, paths=["note.txt"])
        assert "file input" in msg, msg
        # A ref of a page that is gone.
        await agent.ok("navigate", url=site.url("/pages/one"))
        await agent.error("upload", "stale_ref", ref=attachment, paths=["note.txt"])


async def test_uploads_are_off_without_a_root(axsnap_bin: Path, site: Site) -> None:
    async with connect(stdio_params(axsnap_stdio_command(axsnap_bin))) as c:
        agent = Agent(c)
        await agent.ok("navigate", url=site.url("/upload"))
        attachment = await agent.ref("Attachment", "button", "Attachment")
        msg = await agent.error("upload", "uploads_off", ref=attachment, paths=["/etc/passwd"])
        assert "--upload-root" in msg, msg
