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
