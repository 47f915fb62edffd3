"""`screenshot {annotate: true}` (issue 23): every element with a ref in the viewport is boxed
and labelled with its ref on the image, and the answer lists the labels with their boxes. The
test decodes the PNG (a small decoder below: the venv has no imaging library) and checks the
box colour at each listed box's edges, and that the boxes are the snapshot's elements. The
boxes are read from the JSON form (`--structured-content`); the text lists every label, since
by default it is all a client is sent."""

from __future__ import annotations

import base64
import re
import struct
import zlib
from pathlib import Path

import pytest
from conftest import STRUCTURED, axsnap_stdio_command, connect, stdio_params, text_of
from fixture_site import Site
from test_axsnap_agent import Agent

pytestmark = pytest.mark.anyio

MARK = (255, 0, 170)  # axsnap_cdp::screenshot::MARK_COLOR


def decode_png(data: bytes) -> tuple[int, int, list[bytes], int]:
    """Width, height, unfiltered rows and bytes per pixel of an 8-bit RGB or RGBA PNG."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    pos, idat, width = 8, b"", 0
    while pos < len(data):
        (length,) = struct.unpack(">I", data[pos : pos + 4])
        kind, body = data[pos + 4 : pos + 8], data[pos + 8 : pos + 8 + length]
        pos += 12 + length
        if kind == b"IHDR":
            width, height, depth, color = struct.unpack(">IIBB", body[:10])
            assert depth == 8 and color in (2, 6), (depth, color)
            bpp = 3 if color == 2 else 4
        elif kind == b"IDAT":
            idat += body
    raw = zlib.decompress(idat)
    stride = width * bpp
    rows: list[bytes] = []
    prev = bytearray(stride)
    for y in range(height):
        f, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1 : (y + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - bpp] if i >= bpp else 0
            b, c = prev[i], prev[i - bpp] if i >= bpp else 0
            if f == 1:
                line[i] = (line[i] + a) & 255
            elif f == 2:
                line[i] = (line[i] + b) & 255
            elif f == 3:
                line[i] = (line[i] + (a + b) // 2) & 255
            elif f == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append(bytes(line))
        prev = line
    return width, height, rows, bpp


def listed_labels(text: str) -> set[str]:
    """The refs an annotated screenshot's text lists, ranges (`e4-e7`) spelled out."""
    listed = text.split("labelled: ", 1)[1]
    refs: set[str] = set()
    for a, b in re.findall(r"\be(\d+)(?:-e(\d+))?\b", listed):
        refs.update(f"e{n}" for n in range(int(a), int(b or a) + 1))
    return refs


async def test_annotated_screenshot_labels_the_refs_in_view(axsnap_bin: Path, site: Site) -> None:
    async with connect(stdio_params(axsnap_stdio_command(axsnap_bin, STRUCTURED))) as c:
        agent = Agent(c)
        page, _ = await agent.ok("navigate", url=site.url("/form"))
        r = await c.call_tool("screenshot", {"annotate": True})
        assert not r.is_error, text_of(r)
        s = r.structured_content
        labels = s["labels"]
        assert len(labels) >= 5, s
        # Every label is a ref of the snapshot, and the text lists them.
        refs_in_page = set(re.findall(r"\[(e\d+)\]", page))
        assert {l["ref"] for l in labels} <= refs_in_page, (labels, page)
        assert listed_labels(text_of(r)) == {l["ref"] for l in labels}, text_of(r)
        assert "structuredContent" not in text_of(r)
        image = next(b for b in r.content if b.type == "image")
        width, height, rows, bpp = decode_png(base64.b64decode(image.data))

        def px(x: float, y: float) -> tuple[int, int, int]:
            x, y = min(max(int(x), 0), width - 1), min(max(int(y), 0), height - 1)
            return tuple(rows[y][x * bpp : x * bpp + 3])

        checked = 0
        for l in labels:
            x, y, w, h = l["x"], l["y"], l["w"], l["h"]
            if w < 8 or h < 8 or x < 1 or y < 16 or x + w > width - 1 or y + h > height - 1:
                continue  # a box at the edge, or too small to check its border apart
            # Its left and right borders, halfway down, and its label's background above it.
            for point in [(x + 0.5, y + h / 2), (x + w - 1.5, y + h / 2), (x + 1, y - 4)]:
                got = px(*point)
                assert all(abs(a - b) <= 24 for a, b in zip(got, MARK)), (l, point, got)
            checked += 1
        assert checked >= 3, labels
        # The overlay is gone from the page: nothing changed since the snapshot.
        text, s = await agent.ok("snapshot")
        assert s["kind"] == "unchanged", text
        # One element, or the labelled viewport: not both.
        ref = labels[0]["ref"]
        msg = await agent.error("screenshot", "bad_argument", ref=ref, annotate=True)
        assert "annotate" in msg, msg
