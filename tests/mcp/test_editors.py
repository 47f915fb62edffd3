"""A real code editor through `axsnap mcp`: Monaco (npm `monaco-editor`, the editor VS Code
uses), served on 127.0.0.1 from the test clients' npm folder, with a 300-line file and a Save
button that posts the editor's text. Its lines are drawn in an `aria-hidden` layer and its edit
surface is a 0-wide `EditContext` div: before this, the editor read as an empty textbox, `find`
found none of its text, a click on it was refused (no visible area) and so was `type` (not a
text field)."""

from __future__ import annotations

import threading
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer

import anyio
import pytest
from conftest import NODE_DIR

from test_axsnap_agent import Agent, agent  # noqa: F401  (the fixture, over stdio and HTTP)

pytestmark = pytest.mark.anyio

MONACO = NODE_DIR / "node_modules" / "monaco-editor" / "min"

PAGE = """<!doctype html><html><head><meta charset="utf-8"><title>Workbench</title></head><body>
<h1>main.py</h1>
<div id="c" style="width:900px;height:500px"></div>
<button id="save">Save</button> <span id="status" role="status"></span>
<script src="/vs/loader.js"></script>
<script>
const lines = [];
for (let i = 1; i <= 300; i++) lines.push(i === 12 ? 'def greet(name):' : `value_${i} = compute(${i})`);
require.config({ paths: { vs: '/vs' } });
require(['vs/editor/editor.main'], function () {
  window.ed = monaco.editor.create(document.getElementById('c'), { value: lines.join('\\n'), language: 'python' });
});
document.getElementById('save').onclick = async () => {
  const r = await fetch('/save', { method: 'POST', body: window.ed.getValue() });
  document.getElementById('status').textContent = 'Saved ' + (await r.text());
};
</script></body></html>"""


class Workbench:
    """The page and Monaco's files on 127.0.0.1; `saved` holds what Save posted."""

    def __init__(self) -> None:
        bench = self
        self.saved: str | None = None

        class Handler(SimpleHTTPRequestHandler):
            def __init__(self, *a, **k):
                super().__init__(*a, directory=str(MONACO), **k)

            def do_GET(self) -> None:
                if self.path == "/":
                    body = PAGE.encode()
                    self.send_response(200)
                    self.send_header("content-type", "text/html; charset=utf-8")
                    self.send_header("content-length", str(len(body)))
                    self.end_headers()
                    self.wfile.write(body)
                else:
                    super().do_GET()

            def do_POST(self) -> None:
                n = int(self.headers.get("content-length", 0))
                bench.saved = self.rfile.read(n).decode()
                self.send_response(200)
                self.send_header("content-length", "5")
                self.end_headers()
                self.wfile.write(b"saved")

            def log_message(self, *a) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        threading.Thread(target=self.server.serve_forever, daemon=True).start()
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/"

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


@pytest.fixture
def workbench():
    if not (MONACO / "vs" / "loader.js").exists():
        pytest.fail(f"monaco-editor is missing under {NODE_DIR}: run `npm ci` there (scripts/test does)")
    w = Workbench()
    yield w
    w.close()


async def editor_lines(agent: Agent) -> str:
    """The snapshot once Monaco has drawn its lines (it loads its code after the page)."""
    for _ in range(40):
        text, _ = await agent.ok("snapshot", mode="full")
        if "1│value_1 = compute(1)" in text:
            return text
        await anyio.sleep(0.5)
    raise AssertionError(f"Monaco drew no lines:\n{text}")


async def test_monaco_lines_are_read_found_typed_into_and_saved(agent: Agent, workbench: Workbench) -> None:
    await agent.ok("navigate", url=workbench.url)
    text = await editor_lines(agent)
    # The lines it draws, numbered as its gutter numbers them, under its textbox.
    assert 'textbox "Editor content"' in text, text
    assert "12│def greet(name):" in text, text
    editor = await agent.ref("editor", "textbox", "Editor content")
    r, s = await agent.call("find", query="greet")
    hits = "\n".join(c.text for c in r.content if getattr(c, "text", None))
    assert "12│def greet(name):" in hits, hits
    # A click on its 0-wide edit surface focuses the editor, as a click into it would.
    text, s = await agent.ok("click", ref=editor)
    assert "+focused" in text or "[focused]" in text, text
    # A refused `type` leaves the focus where it was.
    await agent.error("type", "not_a_text_field", ref=await agent.ref("Save", "button", "Save"), text="x")
    text, s = await agent.ok("snapshot")
    assert s["kind"] == "unchanged" or "-focused" not in text, text
    # Typing goes through the editor's EditContext at its caret (line 1, column 1); the answer
    # is the changed line.
    text, s = await agent.ok("type", ref=editor, text="# edited ")
    assert '"1│# edited value_1 = compute(1)"' in text, text
    assert s["kind"] == "diff", s
    save = await agent.ref("Save", "button", "Save")
    text, s = await agent.ok("click", ref=save)
    assert "Saved saved" in text, text
    assert workbench.saved is not None and workbench.saved.startswith("# edited value_1 = compute(1)\n"), workbench.saved
    assert workbench.saved.count("\n") == 299, "no line lost or added"
