"""The one-line installs (issue 48): the wheel and the npm packages packaging/pack.py makes,
installed into a fresh venv, a fresh npm prefix and through `uvx` and `npx` as a user would,
each then serving MCP over stdio to the Python SDK: a handshake and one snapshot of a page.

The packages carry the axsnap binary under test ($AXSNAP_BIN); scripts/package packs the
distribution build the same way. The Windows packages are checked for their layout only, with
a stand-in executable (nothing here can run a Windows binary).
"""

from __future__ import annotations

import base64
import csv
import hashlib
import io
import json
import os
import re
import subprocess
import sys
import tarfile
import time
import tomllib
import zipfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from conftest import REPO, browser_path, connect, stdio_params, stop_group, text_of
from fixture_site import Site

PACK = REPO / "packaging" / "pack.py"
SERVER_JSON = REPO / "server.json"
VENV_BIN = Path(sys.executable).parent
# What the snapshot of /pages/one says (fixture_site._shared).
ONE = "This is page one of three."


def cargo_version() -> str:
    with open(REPO / "Cargo.toml", "rb") as f:
        return tomllib.load(f)["workspace"]["package"]["version"]


@dataclass
class Packages:
    dir: Path
    version: str

    def one(self, pattern: str) -> Path:
        found = sorted(self.dir.glob(pattern))
        assert len(found) == 1, (pattern, [p.name for p in self.dir.iterdir()])
        return found[0]


@pytest.fixture(scope="module")
def packages(axsnap_bin: Path, tmp_path_factory: pytest.TempPathFactory) -> Packages:
    out = tmp_path_factory.mktemp("dist")
    # A stand-in for the Windows build: the packer checks the PE signature, nothing runs it.
    stand_in = out.parent / "axsnap.exe"
    stand_in.write_bytes(b"MZ" + b"\0" * 62 + b"stand-in for layout tests")
    done = subprocess.run(
        [sys.executable, str(PACK), "--linux-x64", str(axsnap_bin), "--win32-x64", str(stand_in),
         "--out", str(out)],
        capture_output=True, text=True, timeout=600,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    return Packages(out, cargo_version())


async def handshake_and_snapshot(argv: list[str], site: Site, env: dict[str, str] | None = None) -> str:
    """Connects the Python SDK to `argv` (an installed command serving MCP over stdio), checks
    the server says who it is, opens a page and returns what the agent was shown of it."""
    params = stdio_params(argv)
    if env:
        params.env = {**(params.env or {}), **env}
    async with connect(params) as client:
        tools = {t.name for t in (await client.list_tools()).tools}
        assert {"navigate", "snapshot", "click"} <= tools, tools
        result = await client.call_tool("navigate", {"url": site.url("/pages/one")})
        assert not result.is_error, text_of(result)
        return text_of(result)


def mcp_args() -> list[str]:
    return ["mcp", "--browser", browser_path()]


# -- the wheel --------------------------------------------------------------------------------


def test_linux_wheel_is_a_valid_binary_wheel(packages: Packages, axsnap_bin: Path) -> None:
    wheel = packages.one("axsnap-*-manylinux_*_x86_64.whl")
    # The tag is the newest glibc the binary needs, read off the binary itself.
    needed = max(
        (int(a), int(b)) for a, b in re.findall(rb"GLIBC_(\d+)\.(\d+)", axsnap_bin.read_bytes())
    )
    assert wheel.name == f"axsnap-{packages.version}-py3-none-manylinux_{needed[0]}_{needed[1]}_x86_64.whl"
    with zipfile.ZipFile(wheel) as z:
        names = set(z.namelist())
        script = f"axsnap-{packages.version}.data/scripts/axsnap"
        assert z.read(script) == axsnap_bin.read_bytes()
        assert (z.getinfo(script).external_attr >> 16) & 0o111, "the binary is not executable"
        info = f"axsnap-{packages.version}.dist-info"
        wheel_meta = z.read(f"{info}/WHEEL").decode()
        assert "Root-Is-Purelib: false" in wheel_meta
        assert f"Tag: py3-none-manylinux_{needed[0]}_{needed[1]}_x86_64" in wheel_meta
        metadata = z.read(f"{info}/METADATA").decode()
        assert "Name: axsnap\n" in metadata and f"Version: {packages.version}\n" in metadata
        # The MCP registry proves a PyPI package is the server's by this marker in its README.
        assert f"mcp-name: {server_json()['name']}" in metadata
        # Every file but RECORD is listed with its real hash and size.
        rows = list(csv.reader(io.StringIO(z.read(f"{info}/RECORD").decode())))
        listed = {row[0] for row in rows}
        assert listed == names
        for name, digest, size in rows:
            if name.endswith("/RECORD"):
                assert (digest, size) == ("", "")
                continue
            data = z.read(name)
            want = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
            assert (digest, int(size)) == (f"sha256={want}", len(data)), name


def test_windows_wheel_and_npm_package_carry_the_exe(packages: Packages) -> None:
    wheel = packages.one("axsnap-*-py3-none-win_amd64.whl")
    with zipfile.ZipFile(wheel) as z:
        assert z.read(f"axsnap-{packages.version}.data/scripts/axsnap.exe").startswith(b"MZ")
    with tarfile.open(packages.one("axsnap-win32-x64-*.tgz")) as t:
        manifest = json.load(t.extractfile("package/package.json"))
        assert (manifest["name"], manifest["os"], manifest["cpu"]) == ("@axsnap/win32-x64", ["win32"], ["x64"])
        assert t.extractfile("package/bin/axsnap.exe").read().startswith(b"MZ")


def test_packer_refuses_a_binary_of_the_wrong_kind(tmp_path: Path, axsnap_bin: Path) -> None:
    done = subprocess.run(
        [sys.executable, str(PACK), "--win32-x64", str(axsnap_bin), "--out", str(tmp_path)],
        capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert done.returncode == 1
    assert "is not a Windows executable" in done.stderr
    assert not list(tmp_path.glob("*.whl"))


@pytest.mark.anyio
async def test_pip_install_into_a_fresh_venv_serves_mcp(packages: Packages, site: Site, tmp_path: Path) -> None:
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True, timeout=300)
    wheel = packages.one("axsnap-*-manylinux_*_x86_64.whl")
    subprocess.run(
        [str(venv / "bin" / "pip"), "install", "-q", "--no-index", "--disable-pip-version-check", str(wheel)],
        check=True, timeout=300,
    )  # fmt: skip
    installed = venv / "bin" / "axsnap"
    version = subprocess.run([str(installed), "--version"], capture_output=True, text=True, timeout=60)
    assert version.stdout.strip() == f"axsnap {packages.version}"
    text = await handshake_and_snapshot([str(installed), *mcp_args()], site)
    assert ONE in text, text


@pytest.mark.anyio
async def test_uvx_from_the_wheel_serves_mcp(packages: Packages, site: Site, tmp_path: Path) -> None:
    uvx = VENV_BIN / "uvx"
    assert uvx.is_file(), "uv is not in the test venv: run scripts/test (tests/mcp/requirements.txt)"
    wheel = packages.one("axsnap-*-manylinux_*_x86_64.whl")
    # Offline: the wheel needs nothing from an index.
    env = {"UV_CACHE_DIR": str(tmp_path / "uv-cache"), "UV_TOOL_DIR": str(tmp_path / "uv-tools"),
           "UV_OFFLINE": "1"}  # fmt: skip
    text = await handshake_and_snapshot([str(uvx), "--from", str(wheel), "axsnap", *mcp_args()], site, env)
    assert ONE in text, text


# -- npm --------------------------------------------------------------------------------------


def npm_env(tmp_path: Path) -> dict[str, str]:
    return {"npm_config_cache": str(tmp_path / "npm-cache"), "npm_config_update_notifier": "false",
            "npm_config_fund": "false", "npm_config_audit": "false"}  # fmt: skip


def test_npm_main_package_declares_the_platform_packages(packages: Packages) -> None:
    with tarfile.open(packages.one(f"axsnap-{packages.version}.tgz")) as t:
        manifest = json.load(t.extractfile("package/package.json"))
        launcher = t.getmember("package/bin/axsnap.js")
    assert manifest["name"] == "axsnap" and manifest["version"] == packages.version
    assert manifest["bin"] == {"axsnap": "bin/axsnap.js"}
    assert launcher.mode & 0o111
    # The MCP registry proves an npm package is the server's by this field.
    assert manifest["mcpName"] == server_json()["name"]
    assert manifest["optionalDependencies"] == {
        "@axsnap/linux-x64": packages.version,
        "@axsnap/win32-x64": packages.version,
    }


@pytest.mark.anyio
async def test_npm_install_into_a_fresh_prefix_serves_mcp(packages: Packages, site: Site, tmp_path: Path) -> None:
    prefix = tmp_path / "prefix"
    prefix.mkdir()
    tarballs = [packages.one("axsnap-linux-x64-*.tgz"), packages.one(f"axsnap-{packages.version}.tgz")]
    env = {**os.environ, **npm_env(tmp_path)}
    subprocess.run(
        ["npm", "install", "--prefix", str(prefix), "--no-save", "--loglevel=error", *map(str, tarballs)],
        check=True, timeout=600, env=env,
    )  # fmt: skip
    installed = prefix / "node_modules" / ".bin" / "axsnap"
    version = subprocess.run([str(installed), "--version"], capture_output=True, text=True, timeout=60)
    assert version.stdout.strip() == f"axsnap {packages.version}", version.stderr
    text = await handshake_and_snapshot([str(installed), *mcp_args()], site)
    assert ONE in text, text


@pytest.mark.anyio
async def test_npx_with_the_package_serves_mcp(packages: Packages, site: Site, tmp_path: Path) -> None:
    tarballs = [packages.one("axsnap-linux-x64-*.tgz"), packages.one(f"axsnap-{packages.version}.tgz")]
    argv = ["npx", "--yes", *(a for t in tarballs for a in ("--package", str(t))), "axsnap", *mcp_args()]
    text = await handshake_and_snapshot(argv, site, npm_env(tmp_path))
    assert ONE in text, text


def test_npm_launcher_without_its_platform_package_says_what_to_do(packages: Packages, tmp_path: Path) -> None:
    prefix = tmp_path / "prefix"
    prefix.mkdir()
    env = {**os.environ, **npm_env(tmp_path)}
    subprocess.run(
        ["npm", "install", "--prefix", str(prefix), "--no-save", "--omit=optional", "--loglevel=error",
         str(packages.one(f"axsnap-{packages.version}.tgz"))],
        check=True, timeout=600, env=env,
    )  # fmt: skip
    done = subprocess.run(
        [str(prefix / "node_modules" / ".bin" / "axsnap"), "--version"], capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 1
    assert "@axsnap/linux-x64" in done.stderr and "is not installed" in done.stderr, done.stderr


def test_npm_launcher_passes_a_signal_on_and_leaves_nothing(packages: Packages, tmp_path: Path) -> None:
    """An MCP client stops a stdio server with SIGTERM: the launcher passes it to the binary,
    which closes its browser, and nothing of the tree is left."""
    prefix = tmp_path / "prefix"
    prefix.mkdir()
    tarballs = [packages.one("axsnap-linux-x64-*.tgz"), packages.one(f"axsnap-{packages.version}.tgz")]
    subprocess.run(
        ["npm", "install", "--prefix", str(prefix), "--no-save", "--loglevel=error", *map(str, tarballs)],
        check=True, timeout=600, env={**os.environ, **npm_env(tmp_path)},
    )  # fmt: skip
    launcher = subprocess.Popen(
        [str(prefix / "node_modules" / ".bin" / "axsnap"), *mcp_args()],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, start_new_session=True,
    )  # fmt: skip
    try:
        hello = {"jsonrpc": "2.0", "id": 1, "method": "initialize",
                 "params": {"protocolVersion": "2025-11-25", "capabilities": {},
                            "clientInfo": {"name": "test", "version": "1"}}}  # fmt: skip
        assert launcher.stdin and launcher.stdout
        launcher.stdin.write((json.dumps(hello) + "\n").encode())
        launcher.stdin.flush()
        answer = json.loads(launcher.stdout.readline())
        assert answer["result"]["serverInfo"]["name"] == "axsnap"
        launcher.terminate()  # the launcher alone, as a client does
        launcher.wait(timeout=30)
        # The binary got the signal too: the launcher's process group empties.
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            try:
                os.killpg(launcher.pid, 0)
            except ProcessLookupError:
                break
            time.sleep(0.2)
        else:
            pytest.fail("the binary (or its browser) outlived the launcher")
    finally:
        stop_group(launcher)


# -- the MCP registry -------------------------------------------------------------------------


def server_json() -> dict:
    return json.loads(SERVER_JSON.read_text())


def test_server_json_names_the_packages_we_build() -> None:
    """server.json, for the MCP registry: the registry's own rules (name, description, exact
    versions) and the packages it names match what packaging/pack.py builds."""
    s = server_json()
    version = cargo_version()
    assert s["$schema"].startswith("https://static.modelcontextprotocol.io/schemas/")
    assert re.fullmatch(r"[a-zA-Z0-9.-]+/[a-zA-Z0-9._-]+", s["name"]), s["name"]
    assert 1 <= len(s["description"]) <= 100
    assert s["version"] == version
    kinds = {p["registryType"]: p for p in s["packages"]}
    assert set(kinds) == {"npm", "pypi"}
    assert kinds["npm"]["identifier"] == "axsnap" and kinds["pypi"]["identifier"] == "axsnap"
    for p in s["packages"]:
        assert p["version"] == version
        assert p["transport"] == {"type": "stdio"}
        assert [a.get("value") for a in p["packageArguments"]][:1] == ["mcp"]
    assert kinds["npm"]["runtimeHint"] == "npx" and kinds["pypi"]["runtimeHint"] == "uvx"


def test_readme_client_configs_use_the_one_line_installs() -> None:
    """Every stdio config the README gives a client runs an installed package (uvx or npx),
    and each JSON one parses."""
    readme = (REPO / "README.md").read_text()
    # The client configs: the JSON blocks that hold a server map (others show answers).
    blocks = [b for b in re.findall(r"```json\n(.*?)```", readme, re.S) if '"axsnap"' in b]
    commands = []
    for block in blocks:
        config = json.loads(block)
        for servers in (config.get("mcpServers"), config.get("servers"), config.get("mcp")):
            for server in (servers or {}).values():
                command = server.get("command")
                if command is not None:
                    commands.append(command if isinstance(command, str) else command[0])
    assert len(commands) >= 3, commands
    assert set(commands) <= {"uvx", "npx"}, commands
