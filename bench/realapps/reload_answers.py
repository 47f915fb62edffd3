"""Answers of issue 45's date fields, modal overlay and reloads for one axsnap binary, each
written to OUT/<name>.txt for `axsnap tokens`:

    reload_answers.py BIN OUT

Starts the bench's Django admin (bench/apps/django, in target/bench-django-venv: scripts/bench
installs it) on a fresh SQLite file and serves bench/realapps/ (dates.html, modal.html), both
on 127.0.0.1; logs in as admin, and on each admin page navigates, then reloads."""
import asyncio, os, pathlib, re, socket, subprocess, sys, tempfile, threading, time, http.server, urllib.request
from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client

ROOT = pathlib.Path(__file__).resolve().parents[2]
BIN, OUT = sys.argv[1], pathlib.Path(sys.argv[2])
PAGES = [("index", "/admin/"), ("notes", "/admin/notes/"), ("entries", "/admin/notes/entry/"),
         ("add", "/admin/notes/entry/add/"), ("users", "/admin/auth/user/"), ("home", "/admin/")]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_django(scratch: pathlib.Path) -> tuple[subprocess.Popen, str]:
    py = ROOT / "target/bench-django-venv/bin/python"
    env = dict(os.environ, AXSNAP_BENCH_DJANGO_DB=str(scratch / "db.sqlite3"))
    manage = str(ROOT / "bench/apps/django/manage.py")
    for cmd in (["migrate", "--noinput"], ["benchseed"]):
        subprocess.run([str(py), manage, *cmd], env=env, check=True, capture_output=True)
    port = free_port()
    proc = subprocess.Popen([str(py), manage, "runserver", f"127.0.0.1:{port}", "--noreload"], env=env,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    base = f"http://127.0.0.1:{port}"
    for _ in range(100):
        try:
            urllib.request.urlopen(base + "/admin/login/", timeout=1)
            return proc, base
        except OSError:
            time.sleep(0.2)
    raise SystemExit("Django did not start")


def serve_pages() -> str:
    folder = str(pathlib.Path(__file__).parent)
    handler = lambda *a, **k: http.server.SimpleHTTPRequestHandler(*a, directory=folder, **k)
    http.server.SimpleHTTPRequestHandler.log_message = lambda *a: None
    srv = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=srv.serve_forever, daemon=True).start()
    return f"http://127.0.0.1:{srv.server_address[1]}"


async def session(steps) -> None:
    params = StdioServerParameters(command=BIN, args=["mcp"])
    async with stdio_client(params) as (r, w):
        async with ClientSession(r, w) as s:
            await s.initialize()

            async def call(tool, **a):
                res = await s.call_tool(tool, a)
                return "".join(c.text for c in res.content if getattr(c, "type", "") == "text")

            await steps(call)


def save(name: str, text: str) -> None:
    (OUT / f"{name}.txt").write_text(text)


async def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    pages = serve_pages()
    with tempfile.TemporaryDirectory() as scratch:
        proc, base = start_django(pathlib.Path(scratch))
        try:
            async def static(call):
                save("dates", await call("navigate", url=pages + "/dates.html"))
                save("modal", await call("navigate", url=pages + "/modal.html"))

            async def admin(call):
                await call("navigate", url=base + "/admin/login/?next=/admin/")
                ref_of = lambda f: re.search(r"\b(e\d+)\b", f).group(1)
                await call("type", ref=ref_of(await call("find", query="username", limit=1)), text="admin")
                await call("type", ref=ref_of(await call("find", query="password", limit=1)), text="secret123")
                await call("click", ref=ref_of(await call("find", query="log in button", limit=1)))
                for name, path in PAGES:
                    save(f"page_{name}", await call("navigate", url=base + path))
                    save(f"reload_{name}", await call("reload"))

            await session(static)
            await session(admin)
        finally:
            proc.terminate()


asyncio.run(main())
