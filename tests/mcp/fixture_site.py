"""The fixture site the scripted-agent tests drive: small pages served on 127.0.0.1.

(Not named site.py: that is the standard library's `site`, imported before any test.)

Stdlib only (http.server), one thread per request, a random port. Every page is plain HTML
with a little inline JavaScript and no outside resources, so a browser on a machine with no
network renders it fully. `Site.url(path)` makes a page's URL; `PAGES` says what each does.

Run it by hand to look at it: `python3 tests/mcp/fixture_site.py` prints its URL and serves until
interrupted.
"""

from __future__ import annotations

import contextlib
import html
import json
import secrets
import threading
import time
from http.cookies import SimpleCookie
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

# The one account the login page accepts.
USER = "alice"
PASSWORD = "wonderland"
SESSION_COOKIE = "session"
# The login form's hidden CSRF token (as Jupyter Server's login form has one, first).
_XSRF = "2|9f3a1c|c0ffee5eed|1796424351"

# A copy of a large docs page and what it loads (fixtures/pages/python-docs: Python's
# library/stdtypes.html as Debian ships it), served under this prefix.
DOCS_PREFIX = "/python-docs/"
DOCS_ROOT = Path(__file__).resolve().parents[2] / "fixtures" / "pages" / "python-docs"
DOCS_TYPES = {
    ".html": "text/html; charset=utf-8",
    ".css": "text/css",
    ".js": "text/javascript",
    ".png": "image/png",
    ".svg": "image/svg+xml",
}

# path -> what the page is for (the tests' map of the site; the index lists them too).
PAGES: dict[str, str] = {
    "/": "index: a link to every page",
    "/login": "form: a hidden _xsrf token, user name, password, 'Log in' (`?remember`: the cookie outlives the browser); POST sets the session cookie and "
    "redirects to /whoami; a wrong password shows an alert 'Wrong user name or password.'",
    "/whoami": "who the session cookie says you are ('Signed in as alice' or 'Not signed "
    "in') and the cookie itself; a 'Log out' button",
    "/logout": "POST clears the session cookie and redirects to /whoami",
    "/form": "a sign-up form: text fields, a select, checkboxes, radios, a textarea; "
    "'Submit' POSTs and the answer page lists what was sent",
    "/menu": "a 'File' button opening a menu (New, Open, Save, Delete); choosing an item "
    "closes the menu and shows 'Chose: <item>'",
    "/dialog": "buttons that open a JavaScript confirm ('Delete everything?'), prompt "
    "('New name?') and alert ('Hello!'), and show the answer",
    "/tabs": "a target=_blank link 'Open help in a new tab' to /help",
    "/help": "the page the new tab opens (`?slow=1`: answered after 2 s)",
    "/pages/one": "one of three pages (one, two, three) sharing a header, a nav with "
    "aria-current on the current page, and a footer",
    "/pages/two": "the second shared-chrome page",
    "/pages/three": "the third shared-chrome page (`?cacheable`: any of the three without "
    "`Cache-Control: no-store`, so the browser may keep it in its back-forward cache)",
    "/busy": "never settles: a timer rewrites a counter every 50 ms",
    "/crash": "a 'Crash' button whose script allocates until the renderer runs out of "
    "memory and dies (takes a few seconds)",
    "/alert-on-load": "opens a JavaScript alert ('hello') while it loads; a button 'After the "
    "alert' follows the script",
    "/busy-on-load": "a script that loops forever while the page loads",
    "/sync-xhr": "a synchronous request to /hang while the page loads: the page waits on the "
    "network",
    "/hang": "never answers (the connection is held, silent, for 60 s)",
    "/slow": "`?ms=N`: loads, then its script fetches /slow-data?ms=N, which the server answers after N ms "
    "(at most 60 s); the status says 'waiting for data', then 'data arrived'",
    "/counter": "`?who=NAME`: 'Counter NAME', an 'Increment' button, a status 'NAME count: N', "
    "a 'Note' text field and a list that grows by one 'NAME click N' item a click, over a "
    "few paragraphs of text (so a click's diff is smaller than the page)",
    "/drag": "a board (HTML5 drag and drop): cards 'Card A' and 'Card B' (draggable only once "
    "pressed, as SortableJS makes its items) in a 'To do' column, dropped into the 'Done' column; and a list sorted by pointer drags ('One', 'Two', 'Three': "
    "an item dropped on another goes before it); a status says the board's and the list's state",
    "/download": "a link 'Download report' to /report.csv (an attachment, 1,000 bytes) and a "
    "button 'Export' whose script saves a 12-byte report.csv made in the page",
    "/report.csv": "an attachment named report.csv: 1,000 bytes of CSV",
    "/canvas": "a 300x200 canvas at 50,100 of the viewport (no margins) that says where it was "
    "clicked ('clicked at X,Y', canvas pixels) and how far the wheel turned over it",
    "/upload": "a file input 'Attachment' (several files), a 'Choose photo' button that opens a "
    "hidden single-file input, a 'Title' field, and a 'Files' list naming each file chosen "
    "with its size",
    "/activity": "on load: fetches GET /api/items?q=cats&token=t0k3n-abc, POSTs JSON with a password to "
    "/api/login (answered 401 with a token), loads a missing image (404), logs at every console "
    "level (debug 'dbg detail', log 'loaded' with an object, warn 'low disk', error 'boom') and "
    "throws an uncaught TypeError; then says 'ready'. A 'Load more' button fetches page 2 and "
    "logs 'page 2'",
    "/noisy": "logs 300 console messages of 1,500 characters each ('noise N: xxx…'), then says 'done'",
    "/framed": "`?src=URL`: a heading 'Framed' and an iframe 'inner' showing URL (another site's page: "
    "an out-of-process frame)",
    "/recycled": "a virtualized file tree 'Files' (app.py, main.py, setup.cfg) whose rows are "
    "recycled elements: 'New file' adds lib.py and rewrites the rows in sorted order, so the row "
    "that showed main.py shows lib.py; clicking a row shows 'opened: NAME'",
    "/dead-link": "`?port=N`: a link 'Nowhere' to http://127.0.0.1:N/gone (nothing listens there)",
    "/prefs": "a 'Theme' status read from localStorage ('light' when unset) and a 'Use dark theme' "
    "button that stores 'dark'",
    "/inputs": "a labelled input of each type (INPUT_CASES), a textarea, a contenteditable 'Bio', and fields "
    "a fill cannot change: disabled 'Locked', read-only 'Frozen' and 'Frozen date', 'Stubborn' (a script puts its "
    "value back); every input and change event is logged in #log",
    "/elements": "every HTML element an author writes and an input of every type (INPUT_TYPES)",
    "/long-text": "an 'Article' textarea holding LONG_TEXT (5,000 characters of numbered sentences, in paragraphs)",
    "/keys": "a 'Terminal' that reads keys one by one (keydown only) onto #screen, a 'Line' field, buttons "
    "'One' and 'Two' that write #said",
    "/many-buttons": "240 small buttons (b0 … b239), all in the viewport",
    "/welcome-guide": "an editor (a toolbar of 5 buttons, 6 block tiles, a 'Title' field) under a modal "
    "'Welcome to the block editor' (a full-window overlay, a dialog with 'Close' and 'Next'), shown on load; "
    "an 'Open help' button opens it again",
    "/footer-bar": "an editor's blocks over a fixed status bar ('Document → Paragraph'); 'Shift' moves the "
    "'Publish' button under the bar and back on each click, so the bar covers it on every other answer",
    "/python-docs/library/stdtypes.html": "a copy of Python's docs page on built-in types (707 KB, "
    "~144k tokens as a JSON tree) with its styles and scripts",
}

# Pages a plain HTTP client cannot fetch whole (they never answer).
SILENT_PAGES = ("/hang",)

_STYLE = """
body { font-family: sans-serif; margin: 0; }
header, footer { background: #eee; padding: 8px 16px; }
main { padding: 16px; }
nav a { margin-right: 12px; }
nav a[aria-current=page] { font-weight: bold; }
[role=menu] { border: 1px solid #888; padding: 4px; width: 10em; list-style: none; margin: 0; }
[role=menuitem] { padding: 2px 4px; cursor: pointer; }
[role=menuitem]:focus, [role=menuitem]:hover { background: #ddf; }
.error { color: #a00; }
"""


def _page(title: str, body: str, script: str = "") -> bytes:
    js = f"<script>{script}</script>" if script else ""
    doc = (
        "<!doctype html><html lang=en><head><meta charset=utf-8>"
        f"<title>{html.escape(title)}</title><style>{_STYLE}</style></head>"
        f"<body>{body}{js}</body></html>"
    )
    return doc.encode()


def _index() -> bytes:
    items = "".join(
        f'<li><a href="{path}">{html.escape(path)}</a>: {html.escape(what)}</li>'
        for path, what in PAGES.items()
        if path not in ("/", "/logout")
    )
    return _page("Fixture site", f"<main><h1>Fixture site</h1><ul>{items}</ul></main>")


def _login(error: str = "", user: str = "", remember: bool = False) -> bytes:
    alert = f'<p role=alert class=error>{html.escape(error)}</p>' if error else ""
    # `?remember`: the session cookie outlives the browser (Max-Age); the page looks the same.
    keep = "<input type=hidden name=remember value=1>" if remember else ""
    body = f"""<main><h1>Log in</h1>{alert}
<form method=post action=/login><input type=hidden name=_xsrf value="{_XSRF}">{keep}
<p><label>User name <input name=user autocomplete=username value="{html.escape(user)}"></label></p>
<p><label>Password <input name=password type=password autocomplete=current-password></label></p>
<p><button type=submit>Log in</button></p>
</form></main>"""
    return _page("Log in", body)


def _whoami(user: str | None, cookie: str | None) -> bytes:
    if user:
        state = f"<p id=who>Signed in as {html.escape(user)}</p>"
    else:
        state = "<p id=who>Not signed in</p>"
    shown = html.escape(cookie) if cookie else "(none)"
    body = f"""<main><h1>Who am I</h1>{state}
<p>Session cookie: <code id=cookie>{shown}</code></p>
<form method=post action=/logout><button type=submit>Log out</button></form>
<p><a href=/login>Log in</a></p></main>"""
    return _page("Who am I", body)


def _form() -> bytes:
    body = """<main><h1>Sign up</h1>
<form method=post action=/form>
<p><label>Full name <input name=name></label></p>
<p><label>Email <input name=email type=email></label></p>
<p><label>Language <select name=language>
<option value=en>English</option><option value=fr>French</option>
<option value=de>German</option></select></label></p>
<fieldset><legend>Plan</legend>
<label><input type=radio name=plan value=free checked> Free</label>
<label><input type=radio name=plan value=pro> Pro</label>
<label><input type=radio name=plan value=team> Team</label>
</fieldset>
<p><label><input type=checkbox name=newsletter value=yes> Send me the newsletter</label></p>
<p><label><input type=checkbox name=terms value=yes> I accept the terms</label></p>
<p><label>Comments <textarea name=comments rows=3></textarea></label></p>
<p><button type=submit>Submit</button></p>
</form></main>"""
    return _page("Sign up", body)


# The answer page lists every field, present or not, in this order.
FORM_FIELDS = ("name", "email", "language", "plan", "newsletter", "terms", "comments")


def _form_result(fields: dict[str, list[str]]) -> bytes:
    rows = "".join(
        f"<li>{name}: {html.escape(', '.join(fields.get(name, [])) or '(none)')}</li>"
        for name in FORM_FIELDS
    )
    body = f"""<main><h1>Submitted</h1><ul id=result>{rows}</ul>
<p><a href=/form>Back to the form</a></p></main>"""
    return _page("Submitted", body)


def _menu() -> bytes:
    body = """<main><h1>Menu</h1>
<button id=menubutton aria-haspopup=menu aria-expanded=false aria-controls=menu>File</button>
<ul id=menu role=menu aria-label=File hidden>
<li role=menuitem tabindex=-1>New</li>
<li role=menuitem tabindex=-1>Open</li>
<li role=menuitem tabindex=-1>Save</li>
<li role=menuitem tabindex=-1>Delete</li>
</ul>
<p id=status role=status>Chose: nothing</p></main>"""
    script = """
const button = document.getElementById('menubutton');
const menu = document.getElementById('menu');
function setOpen(open) {
  menu.hidden = !open;
  button.setAttribute('aria-expanded', String(open));
  if (open) menu.querySelector('[role=menuitem]').focus();
}
button.addEventListener('click', () => setOpen(menu.hidden));
menu.addEventListener('click', (e) => {
  const item = e.target.closest('[role=menuitem]');
  if (!item) return;
  document.getElementById('status').textContent = 'Chose: ' + item.textContent;
  setOpen(false);
  button.focus();
});
document.addEventListener('keydown', (e) => {
  if (e.key === 'Escape' && !menu.hidden) { setOpen(false); button.focus(); }
});
"""
    return _page("Menu", body, script)


def _dialog() -> bytes:
    body = """<main><h1>Dialogs</h1>
<p><button id=confirm>Delete everything</button>
<button id=prompt>Rename</button>
<button id=alert>Say hello</button></p>
<p id=answer role=status>Answer: none</p></main>"""
    script = """
const answer = (text) => { document.getElementById('answer').textContent = 'Answer: ' + text; };
document.getElementById('confirm').addEventListener('click', () => {
  answer(confirm('Delete everything?') ? 'yes' : 'no');
});
document.getElementById('prompt').addEventListener('click', () => {
  const name = prompt('New name?', 'untitled');
  answer(name === null ? 'cancelled' : 'name ' + name);
});
document.getElementById('alert').addEventListener('click', () => {
  alert('Hello!');
  answer('alert closed');
});
"""
    return _page("Dialogs", body, script)


def _tabs() -> bytes:
    body = """<main><h1>Tabs</h1>
<p><a href=/help target=_blank>Open help in a new tab</a></p>
<p><a href="/help?slow=1" target=_blank>Open slow help in a new tab</a></p></main>"""
    return _page("Tabs", body)


def _help() -> bytes:
    body = "<main><h1>Help</h1><p>This page opened in a new tab.</p></main>"
    return _page("Help", body)


SHARED_PAGES = ("one", "two", "three")


def _shared(name: str) -> bytes:
    links = "".join(
        f'<a href="/pages/{p}"{" aria-current=page" if p == name else ""}>{p.title()}</a>'
        for p in SHARED_PAGES
    )
    body = f"""<header><p>Fixture Co.</p><nav aria-label=Main>{links}</nav></header>
<main><h1>Page {name}</h1><p>This is page {name} of three.</p></main>
<footer><p>Fixture Co. footer</p><a href=/>Home</a></footer>"""
    return _page(f"Page {name}", body)


def _busy() -> bytes:
    body = """<main><h1>Busy</h1><p>Ticks: <span id=ticks>0</span></p>
<button>Still here</button></main>"""
    script = """
let ticks = 0;
setInterval(() => { document.getElementById('ticks').textContent = String(++ticks); }, 50);
"""
    return _page("Busy", body, script)


def _crash() -> bytes:
    body = """<main><h1>Crash</h1><button id=crash>Crash</button>
<p id=state role=status>Alive</p></main>"""
    # Grows the JavaScript heap until V8 gives up, which kills the renderer process (a
    # fatal out-of-memory, not an exception the page could catch). Arrays of distinct
    # doubles, so nothing is shared or compressed. The timeout lets the click's answer
    # (and the status line) go out before the renderer stops answering.
    script = """
document.getElementById('crash').addEventListener('click', () => {
  document.getElementById('state').textContent = 'Crashing';
  setTimeout(() => {
    const hoard = [];
    for (let i = 0; ; i++) {
      const chunk = new Array(1 << 20);
      for (let j = 0; j < chunk.length; j++) chunk[j] = i + j + 0.5;
      hoard.push(chunk);
    }
  }, 100);
});
"""
    return _page("Crash", body, script)


def _alert_on_load() -> bytes:
    return _page("Alert on load", "<main><h1>Alert on load</h1></main>",
                 "alert('hello');").replace(b"</body>", b"<button>After the alert</button></body>")


def _busy_on_load() -> bytes:
    return _page("Busy on load", "<main><h1>Busy on load</h1></main>", "for (;;) {}")


def _sync_xhr() -> bytes:
    script = """
const x = new XMLHttpRequest();
x.open('GET', '/hang', false);
try { x.send(); } catch (e) {}
"""
    return _page("Waiting on the network", "<main><h1>Waiting</h1></main>", script)


def _slow(ms: int) -> bytes:
    return _page(
        "Slow",
        '<main><h1>Slow</h1><p role=status id=status>waiting for data</p></main>',
        f"fetch('/slow-data?ms={ms}').then(() => {{ document.getElementById('status').textContent = 'data arrived'; }});",
    )


def _recycled() -> bytes:
    # As VS Code's explorer: a fixed pool of row elements, rewritten with whatever items are
    # in view (here all of them, sorted), never keyed by item.
    script = """
const files = ['app.py', 'main.py', 'setup.cfg'];
const tree = document.getElementById('tree');
const rows = [];
function render() {
  files.sort();
  while (rows.length < files.length) {
    const row = document.createElement('div');
    row.setAttribute('role', 'treeitem');
    row.tabIndex = -1;
    row.onclick = () => { document.getElementById('opened').textContent = 'opened: ' + row.textContent; };
    rows.push(row);
    tree.append(row);
  }
  rows.forEach((row, i) => { row.textContent = files[i]; });
}
document.getElementById('new').onclick = () => { files.push('lib.py'); render(); };
render();
"""
    body = (
        '<h1>Explorer</h1><div role="tree" aria-label="Files" id="tree"></div>'
        '<button id="new">New file</button><p id="opened">opened: none</p>'
    )
    return _page("Explorer", body, script)


def _counter(who: str) -> bytes:
    name = html.escape(who)
    js_who = json.dumps(who).replace("<", "\\u003c")
    filler = "".join(
        f"<p>Paragraph {i} of the counter page: it is here so that the page is larger than "
        "what one click changes on it.</p>"
        for i in range(1, 13)
    )
    body = f"""<main><h1>Counter {name}</h1>
<p><button id=inc>Increment</button></p>
<p id=count role=status>{name} count: 0</p>
<p><label>Note <input id=note></label></p>
<ul id=clicks aria-label="Clicks"></ul>
{filler}</main>"""
    script = f"""
let n = 0;
document.getElementById('inc').addEventListener('click', () => {{
  n += 1;
  document.getElementById('count').textContent = {js_who} + ' count: ' + n;
  const li = document.createElement('li');
  li.textContent = {js_who} + ' click ' + n;
  document.getElementById('clicks').appendChild(li);
}});
"""
    return _page(f"Counter {who}", body, script)


def _drag() -> bytes:
    body = """<main><h1>Drag</h1>
<section aria-label="To do" id=todo class=col><h2>To do</h2>
<div draggable=true id=card-a aria-label="Card A">Card A</div>
<div id=card-b aria-label="Card B" class=late>Card B</div></section>
<section aria-label="Done" id=done class=col><h2>Done</h2></section>
<ol id=sort aria-label="Sortable"><li>One</li><li>Two</li><li>Three</li></ol>
<p id=status role=status>board: To do A B | Done none; list: One Two Three</p></main>
<style>.col { min-height: 80px; border: 1px solid #888; margin: 8px; padding: 8px }
.col div { padding: 6px; margin: 4px; background: #eee }
.late { cursor: grab }
#sort li { padding: 8px; margin: 2px; background: #ddf; user-select: none; cursor: move }</style>"""
    script = """
function status() {
  const names = (col) => [...document.getElementById(col).querySelectorAll('div')]
    .map((d) => d.id.slice(-1).toUpperCase()).join(' ') || 'none';
  const list = [...document.querySelectorAll('#sort li')].map((li) => li.textContent).join(' ');
  document.getElementById('status').textContent =
    'board: To do ' + names('todo') + ' | Done ' + names('done') + '; list: ' + list;
}
for (const card of document.querySelectorAll('.col div')) {
  card.addEventListener('dragstart', (e) => e.dataTransfer.setData('text/plain', card.id));
}
// Card B is made draggable only as it is pressed, as SortableJS does with its items.
const late = document.getElementById('card-b');
late.addEventListener('pointerdown', () => { late.draggable = true; });
late.addEventListener('dragend', () => { late.draggable = false; });
for (const col of document.querySelectorAll('.col')) {
  col.addEventListener('dragover', (e) => e.preventDefault());
  col.addEventListener('drop', (e) => {
    e.preventDefault();
    const card = document.getElementById(e.dataTransfer.getData('text/plain'));
    if (card) { col.appendChild(card); status(); }
  });
}
let held = null;
document.getElementById('sort').addEventListener('pointerdown', (e) => {
  if (e.target.tagName === 'LI') held = e.target;
});
document.addEventListener('pointerup', (e) => {
  const over = document.elementFromPoint(e.clientX, e.clientY);
  if (held && over && over.tagName === 'LI' && over !== held) {
    over.parentNode.insertBefore(held, over);
    status();
  }
  held = null;
});
"""
    return _page("Drag", body, script)


REPORT_CSV = ("id,value\n" + "".join(f"{i:04d},{i * 7 % 1000:04d}\n" for i in range(1, 200)))[:1000].encode()


def _download() -> bytes:
    body = """<main><h1>Download</h1>
<p><a href="/report.csv">Download report</a></p>
<p><button id=export>Export</button></p></main>"""
    script = """
document.getElementById('export').addEventListener('click', () => {
  const a = document.createElement('a');
  a.href = URL.createObjectURL(new Blob(['made in page'], {type: 'text/csv'}));
  a.download = 'report.csv';
  document.body.appendChild(a);
  a.click();
  a.remove();
});
"""
    return _page("Download", body, script)


def _canvas() -> bytes:
    body = """<canvas id=c width=300 height=200 style="position:absolute;left:50px;top:100px"></canvas>
<p id=status role=status style="position:absolute;left:50px;top:320px">nothing yet</p>"""
    script = """
const c = document.getElementById('c'), status = document.getElementById('status');
c.addEventListener('click', (e) => {
  const r = c.getBoundingClientRect();
  status.textContent = 'clicked at ' + Math.round(e.clientX - r.left) + ',' + Math.round(e.clientY - r.top);
});
c.addEventListener('wheel', (e) => { e.preventDefault(); status.textContent = 'wheel ' + e.deltaY; });
"""
    return _page("Canvas", body, script).replace(b"<body>", b"<body style=margin:0>")


def _upload() -> bytes:
    body = """<main><h1>Upload</h1>
<p><label for=attachment>Attachment</label> <input type=file id=attachment multiple></p>
<p><button type=button id=pick>Choose photo</button><input type=file id=photo hidden></p>
<p><label>Title <input id=title></label></p>
<ul id=files aria-label="Files"></ul></main>"""
    script = """
function show(input, what) {
  for (const f of input.files) {
    const li = document.createElement('li');
    li.textContent = what + ': ' + f.name + ' (' + f.size + ' bytes)';
    document.getElementById('files').appendChild(li);
  }
}
const attachment = document.getElementById('attachment'), photo = document.getElementById('photo');
attachment.addEventListener('change', () => show(attachment, 'attachment'));
photo.addEventListener('change', () => show(photo, 'photo'));
document.getElementById('pick').addEventListener('click', () => photo.click());
"""
    return _page("Upload", body, script)


def _activity() -> bytes:
    body = """<main><h1>Activity</h1><img src=/missing.png alt=logo>
<p id=state role=status>loading</p><button id=more>Load more</button><ul id=items></ul></main>"""
    script = """
console.debug('dbg detail');
console.log('loaded', {a: 1});
console.warn('low disk');
console.error('boom');
setTimeout(() => { null.nope(); }, 0);
(async () => {
  const items = await (await fetch('/api/items?q=cats&token=t0k3n-abc')).json();
  const denied = await (await fetch('/api/login', {method: 'POST', headers: {'Content-Type': 'application/json'},
    body: JSON.stringify({user: 'ann', password: 'hunter22'})})).json();
  document.getElementById('state').dataset.login = denied.error;
  document.getElementById('items').innerHTML = items.items.map(i => '<li>' + i + '</li>').join('');
  document.getElementById('state').textContent = 'ready';
})();
document.getElementById('more').addEventListener('click', async () => {
  const more = await (await fetch('/api/items?page=2')).json();
  console.log('page 2');
  document.getElementById('items').insertAdjacentHTML('beforeend', more.items.map(i => '<li>' + i + '</li>').join(''));
});
"""
    return _page("Activity", body, script)


def _noisy() -> bytes:
    script = """
for (let i = 1; i <= 300; i++) console.log('noise ' + i + ': ' + 'x'.repeat(1500));
document.getElementById('state').textContent = 'done';
"""
    return _page("Noisy", "<main><h1>Noisy</h1><p id=state>logging</p></main>", script)


def _framed(src: str) -> bytes:
    body = f'<main><h1>Framed</h1><iframe title=inner src="{html.escape(src)}" width=700 height=400></iframe></main>'
    return _page("Framed", body)


def _prefs() -> bytes:
    body = """<main><h1>Preferences</h1><p id=theme role=status></p>
<button id=dark>Use dark theme</button></main>"""
    script = """
const show = () => { document.getElementById('theme').textContent = 'Theme: ' + (localStorage.getItem('theme') || 'light'); };
document.getElementById('dark').addEventListener('click', () => { localStorage.setItem('theme', 'dark'); show(); });
show();
"""
    return _page("Preferences", body, script)


# The /inputs page's fields: (label, type, value a fill sets, the value the input then holds).
INPUT_CASES = (
    ("Start date", "date", "2011-10-11", "2011-10-11"),
    ("Start time", "time", "11:34", "11:34"),
    ("Colour", "color", "#FF0000", "#ff0000"),
    ("Volume", "range", "8", "8"),
    ("Month", "month", "2011-10", "2011-10"),
    ("Week", "week", "2011-W41", "2011-W41"),
    ("Meeting", "datetime-local", "2011-10-11T11:34", "2011-10-11T11:34"),
    ("Count", "number", "42", "42"),
    ("Nickname", "text", "Ada", "Ada"),
    ("Email", "email", "ada@example.org", "ada@example.org"),
    ("Website", "url", "https://example.org/", "https://example.org/"),
    ("Phone", "tel", "+44 20 7946 0000", "+44 20 7946 0000"),
    ("Search", "search", "engines", "engines"),
)


def _long_sentences(chars: int) -> str:
    """Numbered sentences, a paragraph every ten, `chars` characters long."""
    out, i = "", 0
    while len(out) < chars:
        out += f"Sentence {i} of the article says something about topic {i % 7}." + ("\n\n" if i % 10 == 9 else " ")
        i += 1
    return out[:chars]


# The /long-text page's textarea value: a wiki page's source, past axsnap's 2,000-character text cap.
LONG_TEXT = _long_sentences(5_000)


def _long_text() -> bytes:
    """A long text area, as a wiki's edit page has one."""
    body = f"""<main><h1>Edit article</h1>
<p><label>Article <textarea name=article rows=20 cols=80>{html.escape(LONG_TEXT)}</textarea></label></p>
<p><button>Save</button></p>
</main>"""
    return _page("Edit article", body)


def _welcome_guide() -> bytes:
    """An editor under a welcome guide: a modal dialog in a full-window overlay, as block
    editors show on first use, closed by 'Close' and opened again by 'Open help'."""
    tiles = "".join(f'<div class=tile onclick="this.dataset.hit=1">{t}</div>' for t in ("Paragraph", "Heading", "List", "Quote", "Image", "Gallery"))
    body = f"""<header><h1>Block editor</h1><nav><a href="#posts">Posts</a> <a href="#pages">Pages</a></nav></header>
<div role=toolbar aria-label=Document><button>Add block</button><button>Undo</button><button>Redo</button><button>Preview</button><button id=help>Open help</button></div>
<main>{tiles}<p><label>Title <input name=title value="My post"></label></p></main>
<div class=overlay id=guide><div class=modal role=dialog aria-modal=true aria-labelledby=guide-title>
<h2 id=guide-title>Welcome to the block editor</h2><p>Each paragraph, image, or video is a block.</p>
<button id=close>Close</button> <button>Next</button></div></div>"""
    script = """
const guide = document.getElementById('guide');
document.getElementById('close').onclick = () => { guide.hidden = true; };
document.getElementById('help').onclick = () => { guide.hidden = false; };
"""
    style = "<style>.overlay{position:fixed;inset:0;background:rgba(0,0,0,.35);display:flex;align-items:center;justify-content:center}.overlay[hidden]{display:none}.modal{background:#fff;padding:24px;width:420px}.tile{display:inline-block;cursor:pointer;border:1px solid #999;padding:6px;margin:4px}</style>"
    return _page("Editor", style + body, script)


def _footer_bar() -> bytes:
    """A fixed status bar at the window's foot, drawn over the content under it as block
    editors draw theirs; 'Shift' moves 'Publish' under the bar and back."""
    body = """<main><h1>Draft</h1><p><button id=shift>Shift</button></p>
<p id=spacer style="height:40px"></p><p><button id=publish>Publish</button></p></main>
<div class=bar><span>Document</span> → <span>Paragraph</span></div>"""
    script = """
const spacer = document.getElementById('spacer'), publish = document.getElementById('publish');
document.getElementById('shift').onclick = () => {
  if (spacer.dataset.down) { spacer.style.height = '40px'; delete spacer.dataset.down; return; }
  // Its centre 40 px above the window's foot: in the middle of the bar.
  const r = publish.getBoundingClientRect();
  spacer.style.height = (40 + innerHeight - 40 - (r.top + r.height / 2)) + 'px';
  spacer.dataset.down = '1';
};
"""
    style = "<style>body{margin:0}main{padding:8px}.bar{position:fixed;left:0;right:0;bottom:0;height:80px;background:#eee;border-top:1px solid #999}</style>"
    return _page("Footer bar", style + body, script)


def _inputs() -> bytes:
    """One labelled field of each kind, and fields a fill cannot change; every input and
    change event is logged on the page (`#log`), as a framework's handlers would see them."""
    rows = "".join(
        f'<p><label>{label} <input type={kind} name={kind}{" min=0 max=10 value=5" if kind == "range" else ""}></label></p>'
        for label, kind, _, _ in INPUT_CASES
    )
    body = f"""<main><h1>Inputs</h1>
{rows}
<p><label>Notes <textarea name=notes></textarea></label></p>
<p><span id=bio-label>Bio</span> <span role=textbox aria-labelledby=bio-label contenteditable=true id=bio></span></p>
<p><label>Locked <input name=locked disabled value=fixed></label></p>
<p><label>Frozen <input name=frozen readonly value=kept></label></p>
<p><label>Stubborn <input name=stubborn value=same></label></p>
<p><label>Frozen date <input type=date name=frozen-date readonly value=2020-01-01></label></p>
<p>Log: <output id=log></output></p>
</main>"""
    script = """
const log = document.getElementById('log');
for (const el of document.querySelectorAll('input, textarea')) {
  for (const kind of ['input', 'change']) {
    el.addEventListener(kind, () => { log.textContent += ` ${kind}:${el.name}`; });
  }
}
// A field whose script puts its value back on every edit.
const stubborn = document.querySelector('[name=stubborn]');
stubborn.addEventListener('input', () => { stubborn.value = 'same'; });
"""
    return _page("Inputs", body, script)


# Every input type the HTML Standard defines.
INPUT_TYPES = (
    "text", "search", "tel", "url", "email", "password", "date", "month", "week", "time",
    "datetime-local", "number", "range", "color", "checkbox", "radio", "file", "submit", "image",
    "reset", "button", "hidden",
)  # fmt: skip


def _elements() -> bytes:
    """Every HTML element an author writes, and an input of every type (a role map's test)."""
    inputs = "".join(f'<label>{t} field <input type={t} name=t-{t}></label>' for t in INPUT_TYPES)
    body = f"""<header><h1>Every element</h1><nav aria-label=Site><a href=#a>Anchor</a></nav></header>
<main><article><h2>Article</h2><section aria-label=Part><h3>Section</h3><h4>Four</h4><h5>Five</h5><h6>Six</h6>
<hgroup><h2>Grouped</h2><p>subtitle</p></hgroup>
<p><abbr title=HyperText>HT</abbr> <b>b</b> <bdi>bdi</bdi> <bdo dir=rtl>bdo</bdo> <cite>cite</cite> <code>code</code>
<data value=7>seven</data> <del>del</del> <dfn>dfn</dfn> <em>em</em> <i>i</i> <ins>ins</ins> <kbd>kbd</kbd> <mark>mark</mark>
<q>q</q> <ruby>漢<rp>(</rp><rt>kan</rt><rp>)</rp></ruby> <s>s</s> <samp>samp</samp> <small>small</small> <span>span</span>
<strong>strong</strong> <sub>sub</sub> <sup>sup</sup> <time datetime=2011-10-11>today</time> <u>u</u> <var>var</var>
a<wbr>b<br>line</p>
<address>address</address><blockquote>quote</blockquote><pre>pre
  text</pre><hr>
<dl><dt>term</dt><dd>definition</dd></dl><ol><li>one</li></ol><ul><li>two</li></ul><menu><li>three</li></menu>
<details><summary>More</summary><p>hidden</p></details><details open><summary>Open</summary><p>shown</p></details>
<figure><img alt=Picture src="data:image/gif;base64,R0lGODlhAQABAAAAACw="><figcaption>caption</figcaption></figure>
<picture><img alt=Pictured src="data:image/gif;base64,R0lGODlhAQABAAAAACw="></picture>
<map name=m><area shape=rect coords=0,0,1,1 href=#a alt=Area></map><img usemap=#m alt=Mapped src="data:image/gif;base64,R0lGODlhAQABAAAAACw=">
<canvas aria-label=Drawing width=10 height=10></canvas><svg aria-label=Vector width=10 height=10><circle r=4 cx=5 cy=5 /></svg>
<math><mi>x</mi><mo>=</mo><mn>2</mn></math>
<audio controls aria-label=Sound></audio><video controls aria-label=Film width=40 height=30></video>
<iframe title=Inner srcdoc="<p>framed</p>" width=60 height=30></iframe>
<meter value=0.5 aria-label=Level>half</meter><progress value=3 max=10 aria-label=Progress></progress>
<output>output</output><search><label>Find <input type=search name=q2></label></search>
<table><caption>Table</caption><colgroup><col></colgroup><thead><tr><th>Head</th></tr></thead>
<tbody><tr><td>cell</td></tr></tbody><tfoot><tr><td>foot</td></tr></tfoot></table>
<form aria-label=Everything><fieldset><legend>Legend</legend>{inputs}
<label>Choice <select name=s1><optgroup label=Group><option>A</option><option>B</option></optgroup></select></label>
<label>Many <select name=s2 multiple><option>C</option><option>D</option></select></label>
<label>Listed <input list=dl name=listed></label><datalist id=dl><option value=X></datalist>
<label>Area <textarea name=ta></textarea></label><button type=button>Button</button></fieldset></form>
<dialog open aria-label=Box><p>dialog</p></dialog>
</section></article><aside aria-label=Aside>aside</aside></main><footer>footer</footer>
<template><p>never shown</p></template><noscript>no script</noscript>"""
    return _page("Every element", body)


def _keys() -> bytes:
    """A terminal that reads keys one by one (keydown only, as xterm.js does), a text field,
    and buttons Tab reaches."""
    body = """<main><h1>Keys</h1>
<div id=term role=textbox aria-label=Terminal tabindex=0 style="border:1px solid;min-height:2em">$ </div>
<p>Screen: <output id=screen></output></p>
<p><label>Line <input name=line></label></p>
<p><button id=one onclick="document.getElementById('said').textContent='one'">One</button>
<button id=two onclick="document.getElementById('said').textContent='two'">Two</button></p>
<p>Pressed: <output id=said></output></p></main>"""
    script = """
const term = document.getElementById('term'), screen = document.getElementById('screen');
term.addEventListener('keydown', (e) => {
  if (e.key.length === 1) screen.textContent += e.key;
  else if (e.key === 'Enter') screen.textContent += '|';
  e.preventDefault();
});
"""
    return _page("Keys", body, script)


def _many_buttons() -> bytes:
    """240 small buttons, all in the viewport: more refs than a short list shows."""
    buttons = "".join(f'<button style="width:48px;height:22px;margin:1px">b{i}</button>' for i in range(240))
    return _page("Many buttons", f"<main><h1>Many buttons</h1><div>{buttons}</div></main>")


def _deep_code() -> bytes:
    # A paragraph holding a chain of nested code spans, each with a link and the next span
    # (rustdoc's signatures, nested past any sense), then a button to act on. Chromium lays out
    # and reads a few thousand levels; the engine must take any depth (issue 19).
    script = """
let at = document.getElementById('chain');
for (let i = 0; i < 1500; i++) {
  const code = document.createElement('code');
  const a = document.createElement('a');
  a.href = '#t' + i;
  a.textContent = 'T' + i;
  code.append(a, ' ');
  at.appendChild(code);
  at = code;
}
at.append('leaf');
document.getElementById('after').addEventListener('click', (e) => { e.target.textContent = 'Clicked'; });
"""
    body = "<main><h1>Deep code</h1><p id=chain>Signature: </p><button id=after>After</button></main>"
    return _page("Deep code", body, script)


# Each construct pages nest, as one level of a chain built by script: the statement returns
# the level's outer node and the node the next level goes in (`i` is the level).
DEEP_CONSTRUCTS = {
    "code-spans": "const e = el('code'); e.append('x' + i + ' '); return [e, e];",
    "links-in-code": "const e = el('code'); const a = el('a'); a.href = '#t' + i; a.textContent = 'T' + i; e.append(a, ' '); return [e, e];",
    "inline-runs": "const e = el('span'); e.append('x' + i + ' '); return [e, e];",
    "lists": "const ul = el('ul'); const li = el('li'); const a = el('a'); a.href = '#i' + i; a.textContent = 'item ' + i; li.append(a); ul.append(li); return [ul, li];",
    "tables": "const t = el('table'); const tr = el('tr'); const td = el('td'); td.append('c' + i); tr.append(td); t.append(tr); return [t, td];",
    "widgets": "const b = el('div'); b.setAttribute('role', 'button'); b.tabIndex = 0; b.append('b' + i); return [b, b];",
    "sections": "const s = el('section'); s.setAttribute('aria-label', 's' + i); const h = el('h' + (1 + i % 6)); const a = el('a'); a.href = '#h' + i; a.textContent = 'h' + i; h.append(a); s.append(h); return [s, s];",
    "preformatted": "const s = el('span'); s.append('line ' + i + '\\n'); return [s, s];",
    "shadow-roots": "const h = el('div'); const r = h.attachShadow({mode: 'open'}); const b = el('button'); b.textContent = 'part ' + i; r.append(b); return [h, r];",
}
# Levels of each: Chromium crashes laying out 1,500 nested lists or tables.
DEEP_LEVELS = 1000


def _deep_construct(kind: str) -> bytes:
    # One construct nested DEEP_LEVELS deep (past the HTML parser's limit: built by script),
    # then a button to act on.
    top = {"preformatted": "pre", "code-spans": "p", "links-in-code": "p", "inline-runs": "p"}.get(kind, "div")
    script = f"""
const el = (t) => document.createElement(t);
const level = (i) => {{ {DEEP_CONSTRUCTS[kind]} }};
let at = document.getElementById('chain');
for (let i = 0; i < {DEEP_LEVELS}; i++) {{ const [node, next] = level(i); at.appendChild(node); at = next; }}
at.append('leaf');
document.getElementById('after').addEventListener('click', (e) => {{ e.target.textContent = 'Clicked'; }});
"""
    body = f"<main><h1>Deep {kind}</h1><{top} id=chain></{top}><button id=after>After</button></main>"
    return _page(f"Deep {kind}", body, script)


class Site:
    """The fixture site, serving on 127.0.0.1 at a random port until `close()`."""

    def __init__(self) -> None:
        # session token -> user name: what the login POST creates and /whoami reads.
        self.sessions: dict[str, str] = {}
        self._lock = threading.Lock()
        handler = type("Handler", (_Handler,), {"site": self})
        self._server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
        self._server.daemon_threads = True
        self.port: int = self._server.server_address[1]
        self.base = f"http://127.0.0.1:{self.port}"
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)
        self._thread.start()

    def url(self, path: str = "/") -> str:
        """The absolute URL of `path` (which starts with '/')."""
        return self.base + path

    def login(self, user: str) -> str:
        """Creates a session for `user` and returns its token (the cookie value)."""
        token = secrets.token_hex(8)
        with self._lock:
            self.sessions[token] = user
        return token

    def user_of(self, token: str | None) -> str | None:
        with self._lock:
            return self.sessions.get(token) if token else None

    def logout(self, token: str | None) -> None:
        with self._lock:
            self.sessions.pop(token or "", None)

    def close(self) -> None:
        self._server.shutdown()
        self._server.server_close()
        self._thread.join()

    def __enter__(self) -> Site:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


class _Handler(BaseHTTPRequestHandler):
    site: Site
    protocol_version = "HTTP/1.1"

    def log_message(self, format: str, *args: object) -> None:  # noqa: A002 (stdlib name)
        pass  # quiet: the tests' output is the agent's answers, not an access log

    def _cookie(self) -> str | None:
        jar = SimpleCookie(self.headers.get("Cookie", ""))
        morsel = jar.get(SESSION_COOKIE)
        return morsel.value if morsel else None

    def _send(self, status: int, body: bytes = b"", headers: dict[str, str] | None = None) -> None:
        self.send_response(status)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.send_header("Content-Length", str(len(body)))
        if "cacheable" not in parse_qs(urlsplit(self.path).query, keep_blank_values=True):
            self.send_header("Cache-Control", "no-store")
        for name, value in (headers or {}).items():
            self.send_header(name, value)
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)

    def _docs_file(self, rel: str) -> None:
        """A file of the copied docs site (fixtures/pages/python-docs), with its type."""
        root = DOCS_ROOT.resolve()
        path = (root / rel).resolve()
        if root not in path.parents or not path.is_file():
            self._send(404, _page("Not found", "<main><h1>Not found</h1></main>"))
            return
        body = path.read_bytes()
        kind = DOCS_TYPES.get(path.suffix, "application/octet-stream")
        self.send_response(200)
        self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)

    def _json(self, status: int, value: object) -> None:
        body = json.dumps(value).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Cache-Control", "no-store")
        self.end_headers()
        self.wfile.write(body)

    def _redirect(self, location: str, cookie: str | None = None) -> None:
        headers = {"Location": location}
        if cookie is not None:
            headers["Set-Cookie"] = cookie
        self._send(303, b"", headers)

    def _form_body(self) -> dict[str, list[str]]:
        length = int(self.headers.get("Content-Length") or 0)
        raw = self.rfile.read(min(length, 1 << 20)).decode("utf-8", "replace")
        return parse_qs(raw, keep_blank_values=True)

    def do_HEAD(self) -> None:
        self.do_GET()

    def do_GET(self) -> None:
        path = urlsplit(self.path).path
        if path == "/favicon.ico":
            self._send(404, b"")
            return
        if path.startswith(DOCS_PREFIX):
            self._docs_file(path[len(DOCS_PREFIX) :])
            return
        page = {
            "/": _index,
            "/login": _login,
            "/form": _form,
            "/menu": _menu,
            "/dialog": _dialog,
            "/tabs": _tabs,
            "/help": _help,
            "/busy": _busy,
            "/crash": _crash,
            "/alert-on-load": _alert_on_load,
            "/busy-on-load": _busy_on_load,
            "/sync-xhr": _sync_xhr,
            "/deep-code": _deep_code,
            "/activity": _activity,
            "/prefs": _prefs,
            "/noisy": _noisy,
            "/many-buttons": _many_buttons,
            "/inputs": _inputs,
            "/welcome-guide": _welcome_guide,
            "/footer-bar": _footer_bar,
            "/long-text": _long_text,
            "/elements": _elements,
            "/keys": _keys,
            "/recycled": _recycled,
        }.get(path)
        if path.startswith("/deep/") and path[len("/deep/"):] in DEEP_CONSTRUCTS:
            kind = path[len("/deep/"):]
            page = lambda: _deep_construct(kind)  # noqa: E731
        if path == "/login" and "remember" in parse_qs(urlsplit(self.path).query, keep_blank_values=True):
            page = lambda: _login(remember=True)  # noqa: E731
        if path == "/hang":
            # Holds the request unanswered; the client gives up or the site closes first.
            time.sleep(60)
            return
        if path in ("/slow", "/slow-data"):
            try:
                ms = min(max(int(parse_qs(urlsplit(self.path).query).get("ms", ["0"])[0]), 0), 60_000)
            except ValueError:
                ms = 0
            if path == "/slow":
                self._send(200, _slow(ms))
            else:
                time.sleep(ms / 1000)
                # The page may be gone by then (a navigation elsewhere dropped the fetch).
                with contextlib.suppress(BrokenPipeError, ConnectionResetError):
                    self._json(200, {"waited_ms": ms})
            return
        if path == "/help" and "slow" in parse_qs(urlsplit(self.path).query):
            # A new tab whose server is slow: the opener settles long before it loads.
            time.sleep(2)
        if page is not None:
            self._send(200, page())
        elif path == "/whoami":
            token = self._cookie()
            self._send(200, _whoami(self.site.user_of(token), token))
        elif path == "/drag":
            self._send(200, _drag())
        elif path == "/download":
            self._send(200, _download())
        elif path == "/report.csv":
            self._send(200, REPORT_CSV, {"Content-Disposition": 'attachment; filename="report.csv"'})
        elif path == "/canvas":
            self._send(200, _canvas())
        elif path == "/upload":
            self._send(200, _upload())
        elif path == "/framed":
            self._send(200, _framed(parse_qs(urlsplit(self.path).query).get("src", ["about:blank"])[0]))
        elif path == "/api/items":
            query = parse_qs(urlsplit(self.path).query)
            page_no = query.get("page", ["1"])[0]
            items = ["cat one", "cat two"] if page_no == "1" else ["cat three"]
            self._json(200, {"items": items, "q": query.get("q", [""])[0]})
        elif path == "/dead-link":
            # A link to a port nothing listens on: the browser's own error page, not a site's.
            port = int(parse_qs(urlsplit(self.path).query).get("port", ["9"])[0])
            self._send(
                200,
                _page("Dead link", f'<h1>Dead link</h1><a href="http://127.0.0.1:{port}/gone">Nowhere</a>'),
            )
        elif path == "/counter":
            who = parse_qs(urlsplit(self.path).query).get("who", ["anyone"])[0]
            self._send(200, _counter(who))
        elif path.startswith("/pages/") and path[len("/pages/") :] in SHARED_PAGES:
            self._send(200, _shared(path[len("/pages/") :]))
        else:
            self._send(404, _page("Not found", "<main><h1>Not found</h1></main>"))

    def do_POST(self) -> None:
        path = urlsplit(self.path).path
        if path == "/login":
            fields = self._form_body()
            user = fields.get("user", [""])[0]
            password = fields.get("password", [""])[0]
            if user == USER and password == PASSWORD:
                token = self.site.login(user)
                keep = "; Max-Age=86400" if fields.get("remember") else ""
                self._redirect("/whoami", f"{SESSION_COOKIE}={token}; Path=/; HttpOnly; SameSite=Lax{keep}")
            else:
                self._send(200, _login("Wrong user name or password.", user))
        elif path == "/logout":
            self.site.logout(self._cookie())
            self._redirect("/whoami", f"{SESSION_COOKIE}=; Path=/; Max-Age=0")
        elif path == "/form":
            self._send(200, _form_result(self._form_body()))
        elif path == "/api/login":
            length = int(self.headers.get("Content-Length") or 0)
            self.rfile.read(min(length, 1 << 20))
            self._json(401, {"error": "bad password", "token": "srv-s3cret-token"})
        else:
            self._send(404, _page("Not found", "<main><h1>Not found</h1></main>"))


if __name__ == "__main__":
    with Site() as site:
        print(site.url("/"), flush=True)
        try:
            threading.Event().wait()
        except KeyboardInterrupt:
            pass
