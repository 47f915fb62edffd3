"""Real code editors through `axsnap mcp`: Monaco (npm `monaco-editor`, the editor VS Code
uses) and CodeMirror 6 (npm `codemirror`, `@codemirror/lang-python`), served on 127.0.0.1 from
the test clients' npm folder, each with a 300-line file and a Save button that posts the
editor's text.

Monaco draws its lines in an `aria-hidden` layer and its edit surface is a 0-wide `EditContext`
div: before this, the editor read as an empty textbox, `find` found none of its text, a click
on it was refused (no visible area), so was `type` (not a text field), and `scroll` moved
nothing. CodeMirror read as its textbox's value (every drawn line run together) and then each
line again as an editable element with a ref, no line numbers; `type` went to the end of the
file whatever the caret."""

from __future__ import annotations

import json
import re
import threading
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer

import anyio
import pytest
from conftest import NODE_DIR

from test_axsnap_agent import Agent, agent  # noqa: F401  (the fixture, over stdio and HTTP)

pytestmark = pytest.mark.anyio

MODULES = NODE_DIR / "node_modules"
MONACO = MODULES / "monaco-editor" / "min"

LINES = [("def greet(name):" if i == 12 else f"value_{i} = compute({i})") for i in range(1, 301)]

SAVE = """<button id="save">Save</button> <span id="status" role="status"></span>
<script>
document.getElementById('save').onclick = async () => {
  const r = await fetch('/save', { method: 'POST', body: window.text() });
  document.getElementById('status').textContent = 'Saved ' + (await r.text());
};
</script>"""



def import_map() -> str:
    """An import map of CodeMirror's ES modules as npm installed them (no bundler): the two
    packages the page imports and everything they depend on."""
    imports = {}
    todo = ["codemirror", "@codemirror/lang-python"]
    while todo:
        name = todo.pop()
        if name in imports:
            continue
        meta = json.loads((MODULES / name / "package.json").read_text())
        todo.extend(meta.get("dependencies", {}))
        entry = meta.get("module")
        exports = meta.get("exports")
        if entry is None and isinstance(exports, dict):
            dot = exports.get(".", exports)
            entry = dot if isinstance(dot, str) else dot.get("import") or dot.get("default")
            if isinstance(entry, dict):
                entry = entry.get("default")
        entry = entry or meta.get("main")
        if entry is None:
            pytest.fail(f"{name} has no module entry")
        imports[name] = "/node_modules/" + name + "/" + entry.removeprefix("./")
    return json.dumps({"imports": imports})


def codemirror_page() -> str:
    return f"""<!doctype html><html><head><meta charset="utf-8"><title>Workbench</title>
<script type="importmap">{import_map()}</script></head><body>
<h1>main.py</h1>
<div id="c" style="height:500px;width:900px;overflow:auto"></div>
{SAVE}
<script type="module">
import {{EditorView, basicSetup}} from "codemirror";
import {{python}} from "@codemirror/lang-python";
const view = new EditorView({{doc: {json.dumps(chr(10).join(LINES))}, extensions: [basicSetup, python()],
  parent: document.getElementById('c')}});
window.text = () => view.state.doc.toString();
</script></body></html>"""

def monaco_page() -> str:
    return f"""<!doctype html><html><head><meta charset="utf-8"><title>Workbench</title></head><body>
<h1>main.py</h1>
<div id="c" style="width:900px;height:500px"></div>
{SAVE}
<script src="/vs/loader.js"></script>
<script>
require.config({{ paths: {{ vs: '/vs' }} }});
require(['vs/editor/editor.main'], function () {{
  const ed = monaco.editor.create(document.getElementById('c'), {{ value: {json.dumps(chr(10).join(LINES))}, language: 'python' }});
  window.text = () => ed.getValue();
}});
</script></body></html>"""


class Workbench:
    """The page and Monaco's files on 127.0.0.1; `saved` holds what Save posted."""

    def __init__(self) -> None:
        bench = self
        self.saved: str | None = None
        pages = {"/monaco": monaco_page(), "/codemirror": codemirror_page()}

        class Handler(SimpleHTTPRequestHandler):
            def __init__(self, *a, **k):
                # Monaco's AMD modules load from /vs/…, CodeMirror's ES modules from
                # /node_modules/…
                super().__init__(*a, directory=str(NODE_DIR), **k)

            def translate_path(self, path: str) -> str:
                if path.startswith("/vs/"):
                    return str(MONACO) + path
                return super().translate_path(path)

            def do_GET(self) -> None:
                if self.path in pages:
                    body = pages[self.path].encode()
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
        self.base = f"http://127.0.0.1:{self.server.server_address[1]}"

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


@pytest.fixture
def workbench():
    for need in [MONACO / "vs" / "loader.js", MODULES / "codemirror" / "package.json"]:
        if not need.exists():
            pytest.fail(f"{need} is missing: run `npm ci` in {NODE_DIR} (scripts/test does)")
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
    raise AssertionError(f"the editor drew no lines:\n{text}")


async def test_monaco_lines_are_read_found_typed_into_and_saved(agent: Agent, workbench: Workbench) -> None:
    await agent.ok("navigate", url=workbench.base + "/monaco")
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
    # Its context menu: each item once, with one ref; separators as separators.
    text, _ = await agent.ok("snapshot", mode="full")
    found = re.search(r"code \[(e\d+)\]", text)
    assert found, text
    text, s = await agent.ok("click", ref=found.group(1), button="right")
    assert 'menuitem "Cut" [' in text and "separator" in text, text
    assert 'generic "Cut"' not in text and "[disabled]" not in text and "text: F1" not in text, text
    await agent.ok("press", keys="Escape")
    # A right click on the editor's own textbox (its edit surface, 0 px wide, under its text)
    # opens the same menu where the caret is: it was refused (VS Code: "covered by" its line).
    text, s = await agent.ok("click", ref=editor, button="right")
    assert 'menuitem "Cut" [' in text, text
    await agent.ok("press", keys="Escape")
    # Its command palette: an option a line, its key binding said once in its name.
    await agent.ok("click", ref=editor)
    text, s = await agent.ok("press", keys="F1")
    assert 'option "Add Line Comment, Control+K Control+C" [' in text, text
    assert "text: Ctrl" not in text and "label [" not in text, text
    await agent.ok("press", keys="Escape")
    # Its view scrolls by the wheel (a script's scrollBy moves nothing there).
    text, s = await agent.ok("scroll", ref=editor, direction="down", amount=2000)
    assert "1│# edited" not in text and "60│value_60 = compute(60)" in text, text


async def test_codemirror_lines_are_numbered_once_and_typed_at_the_caret(agent: Agent, workbench: Workbench) -> None:
    await agent.ok("navigate", url=workbench.base + "/codemirror")
    text = await editor_lines(agent)
    # Each drawn line once, numbered; not the textbox's value run together, not a ref each.
    assert "12│def greet(name):" in text, text
    assert text.count("value_2 = compute(2)") == 1, text
    assert "[editable]" not in text, text
    editor = await agent.ref("textbox", "textbox", "")
    await agent.ok("click", ref=editor)
    # Typing goes on at the editor's caret (moved to the top with a key), not at the end.
    await agent.ok("press", keys="Control+Home")
    text, s = await agent.ok("type", ref=editor, text="# edited ")
    assert '"1│# edited value_1 = compute(1)"' in text, text
    save = await agent.ref("Save", "button", "Save")
    text, s = await agent.ok("click", ref=save)
    assert "Saved saved" in text, text
    assert workbench.saved is not None and workbench.saved.startswith("# edited value_1 = compute(1)\n"), workbench.saved
    assert workbench.saved.endswith("value_300 = compute(300)"), workbench.saved[-80:]


@pytest.mark.parametrize("slowly", [False, True], ids=["inserted", "key_by_key"])
async def test_codemirror_takes_lines_typed_at_the_caret_and_nothing_else_moves(
    agent: Agent, workbench: Workbench, slowly: bool
) -> None:
    """Typed text with line breaks goes in as a user types it (a line break is the Enter key,
    the editor indents), at the caret the agent moved with keys: given "\\nreturn name" in one
    insertion, CodeMirror put the line at the caret and joined two lines forty lines above it;
    typed key by key, it went to the end of the file."""
    await agent.ok("navigate", url=workbench.base + "/codemirror")
    await editor_lines(agent)
    editor = await agent.ref("textbox", "textbox", "")
    await agent.ok("click", ref=editor)
    # To line 12 with the editor's own go-to-line, then to its end.
    await agent.ok("press", keys="Control+Home")
    await agent.ok("press", keys=" ".join(["ArrowDown"] * 11 + ["End"]))
    await agent.ok("type", ref=editor, text="\nreturn name\nprint(name)", slowly=slowly)
    save = await agent.ref("Save", "button", "Save")
    await agent.ok("click", ref=save)
    saved = workbench.saved
    assert saved is not None
    want = LINES[:12] + ["  return name", "  print(name)"] + LINES[12:]
    assert saved.split("\n") == want, [(i, a, b) for i, (a, b) in enumerate(zip(saved.split("\n"), want)) if a != b][:3]
