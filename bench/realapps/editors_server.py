"""Serves the Monaco and CodeMirror pages on 127.0.0.1 and records what their Save posts."""
import http.server, sys, pathlib
ROOT = pathlib.Path(__file__).parent
SAVED = ROOT / "saved.txt"
class H(http.server.SimpleHTTPRequestHandler):
    def __init__(self, *a, **k):
        super().__init__(*a, directory=str(ROOT), **k)
    def do_POST(self):
        n = int(self.headers.get("content-length", 0))
        SAVED.write_bytes(self.rfile.read(n))
        self.send_response(200); self.send_header("content-type", "text/plain"); self.end_headers()
        self.wfile.write(b"saved")
    def log_message(self, *a): pass
http.server.ThreadingHTTPServer(("127.0.0.1", int(sys.argv[1])), H).serve_forever()
