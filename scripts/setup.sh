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

# Chromium from Debian's package, for the CDP backend and its tests.
ensure_chromium() {
  if [ -n "${AXSNAP_BROWSER:-}" ] && [ -x "$AXSNAP_BROWSER" ]; then return 0; fi
  if command -v chromium >/dev/null 2>&1; then return 0; fi
  echo "installing chromium (Debian package)..." >&2
  _apt_install chromium
}

ensure_cargo() {
  if ! command -v cargo >/dev/null 2>&1; then
    echo "cargo is missing: install Rust (rustup) first" >&2
    exit 1
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
