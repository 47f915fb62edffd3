"""Serves the Monaco and CodeMirror pages on 127.0.0.1 and records what their Save posts.

    editors_server.py PORT [SAVED [NODE_MODULES]]

SAVED is the file each POST's body is written to (default: saved.txt here); NODE_MODULES the
folder served as /node_modules/ (default: node_modules here), where npm installed
`monaco-editor`, `codemirror` and `@codemirror/lang-python` (tests/mcp/node/node_modules).
The bench's `editors` app (bench/src/apps.rs) starts it so, one per run."""
import http.server, os, sys, pathlib
ROOT = pathlib.Path(__file__).parent
SAVED = pathlib.Path(sys.argv[2]) if len(sys.argv) > 2 else ROOT / "saved.txt"
MODULES = pathlib.Path(sys.argv[3]) if len(sys.argv) > 3 else ROOT / "node_modules"
class H(http.server.SimpleHTTPRequestHandler):
    def __init__(self, *a, **k):
        super().__init__(*a, directory=str(ROOT), **k)
    def translate_path(self, path):
        rest = path.split("?", 1)[0].split("#", 1)[0]
        if rest.startswith("/node_modules/"):
            return super().translate_path(path).replace(str(ROOT / "node_modules"), str(MODULES), 1)
        return super().translate_path(path)
    def do_POST(self):
        n = int(self.headers.get("content-length", 0))
        tmp = SAVED.with_name(SAVED.name + ".part")
        tmp.write_bytes(self.rfile.read(n))
        os.replace(tmp, SAVED)
        self.send_response(200); self.send_header("content-type", "text/plain"); self.end_headers()
        self.wfile.write(b"saved")
    def log_message(self, *a): pass
http.server.ThreadingHTTPServer(("127.0.0.1", int(sys.argv[1])), H).serve_forever()
