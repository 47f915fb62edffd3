#!/usr/bin/env python3
"""Packs built axsnap binaries into what users install: Python wheels and npm packages.

  packaging/pack.py --linux-x64 BIN [--win32-x64 EXE] [--out dist] [--version V]

Each binary is packed as it is, so every wheel and tarball of one platform carries the same
bytes (built once, by scripts/package). Writes into --out:

  axsnap-V-py3-none-manylinux_2_N_x86_64.whl   `pip install`, `uvx axsnap`, `pipx install`
  axsnap-V-py3-none-win_amd64.whl
  axsnap-V.tgz                                 npm `axsnap`: a launcher, the binary comes from
  axsnap-linux-x64-V.tgz                       `@axsnap/linux-x64` or `@axsnap/win32-x64`, its
  axsnap-win32-x64-V.tgz                       optional dependencies (the npm layout of Rust tools)
  SHA256SUMS

A wheel is a zip of the binary under `axsnap-V.data/scripts/` (installers put it on PATH) and
its metadata: what maturin's `bindings = "bin"` makes, written here without rebuilding the
binary. Its manylinux tag is read off the binary: the newest glibc symbol version it needs.
npm tarballs are made by `npm pack`.
"""

from __future__ import annotations

import argparse
import base64
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import tomllib
import zipfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
HERE = REPO / "packaging"
# The MCP registry's name for the server; npm's `mcpName` and the PyPI README's marker must
# say the same (the registry checks both to prove the packages are ours).
MCP_NAME = "io.github.axsnap/axsnap"
SUMMARY = "Compact, diffable accessibility snapshots for LLM agents: an MCP server and CLI."
# Zip entries get a fixed time, so the same binary packs into the same wheel.
ZIP_TIME = (1980, 1, 1, 0, 0, 0)


class PackError(Exception):
    """Something in the inputs that makes a package wrong; the message says what to do."""


def workspace_version() -> str:
    with open(REPO / "Cargo.toml", "rb") as f:
        return tomllib.load(f)["workspace"]["package"]["version"]


def license_expression() -> str:
    with open(REPO / "Cargo.toml", "rb") as f:
        return tomllib.load(f)["workspace"]["package"]["license"]


# -- binaries ---------------------------------------------------------------------------------


def check_elf_x86_64(path: Path) -> None:
    head = path.read_bytes()[:20]
    # e_machine (offset 18, little-endian) 0x3e is x86-64.
    if head[:4] != b"\x7fELF" or head[18:20] != b"\x3e\x00":
        raise PackError(f"{path} is not an x86-64 ELF executable; pass the Linux build of axsnap")


def check_pe(path: Path) -> None:
    if path.read_bytes()[:2] != b"MZ":
        raise PackError(f"{path} is not a Windows executable; pass the x86_64-pc-windows-gnu build")


def glibc_needed(path: Path) -> tuple[int, int]:
    """The newest glibc symbol version the binary asks for (its version-needs strings)."""
    versions = {(int(a), int(b)) for a, b in re.findall(rb"GLIBC_(\d+)\.(\d+)", path.read_bytes())}
    if not versions:
        raise PackError(f"{path} names no glibc symbol version: is it a static or musl build?")
    return max(versions)


def manylinux_tag(path: Path) -> str:
    major, minor = glibc_needed(path)
    tag = f"manylinux_{major}_{minor}_x86_64"
    # Installers older than PEP 600 know glibc 2.17 only by its legacy name.
    if (major, minor) <= (2, 17):
        tag += ".manylinux2014_x86_64"
    return tag


# -- wheels -----------------------------------------------------------------------------------


def record_hash(data: bytes) -> str:
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
    return f"sha256={digest}"


def wheel_metadata(version: str) -> str:
    readme = (HERE / "python" / "README.md").read_text()
    if MCP_NAME not in readme:
        raise PackError("packaging/python/README.md must carry the MCP registry marker")
    headers = [
        # 2.1: what every installer in use reads (2.4's License-Expression is newer than some).
        "Metadata-Version: 2.1",
        "Name: axsnap",
        f"Version: {version}",
        f"Summary: {SUMMARY}",
        f"License: {license_expression()}",
        "Keywords: accessibility,mcp,llm,agent,chromium",
        "Classifier: Programming Language :: Rust",
        "Classifier: Topic :: Software Development :: Testing",
        "Requires-Python: >=3.8",
        "Description-Content-Type: text/markdown",
    ]
    return "\n".join(headers) + "\n\n" + readme


def write_wheel(binary: Path, exe_name: str, platform_tag: str, version: str, out: Path) -> Path:
    dist_info = f"axsnap-{version}.dist-info"
    files: list[tuple[str, bytes, int]] = [
        (f"axsnap-{version}.data/scripts/{exe_name}", binary.read_bytes(), 0o755),
        (f"{dist_info}/METADATA", wheel_metadata(version).encode(), 0o644),
        (
            f"{dist_info}/WHEEL",
            (
                "Wheel-Version: 1.0\nGenerator: axsnap packaging/pack.py\n"
                f"Root-Is-Purelib: false\nTag: py3-none-{platform_tag}\n"
            ).encode(),
            0o644,
        ),
        (f"{dist_info}/LICENSE-MIT", (REPO / "LICENSE-MIT").read_bytes(), 0o644),
        (f"{dist_info}/LICENSE-APACHE", (REPO / "LICENSE-APACHE").read_bytes(), 0o644),
    ]
    record = "".join(f"{name},{record_hash(data)},{len(data)}\n" for name, data, _ in files)
    record += f"{dist_info}/RECORD,,\n"
    files.append((f"{dist_info}/RECORD", record.encode(), 0o644))

    path = out / f"axsnap-{version}-py3-none-{platform_tag}.whl"
    with zipfile.ZipFile(path, "w", compression=zipfile.ZIP_DEFLATED, compresslevel=9) as z:
        for name, data, mode in files:
            info = zipfile.ZipInfo(name, date_time=ZIP_TIME)
            info.external_attr = (0o100000 | mode) << 16
            info.compress_type = zipfile.ZIP_DEFLATED
            z.writestr(info, data)
    return path


# -- npm --------------------------------------------------------------------------------------

# npm's platform packages: the key is `process.platform`-`process.arch`, as the launcher asks.
NPM_PLATFORMS = {
    "linux-x64": {"os": "linux", "cpu": "x64", "exe": "axsnap"},
    "win32-x64": {"os": "win32", "cpu": "x64", "exe": "axsnap.exe"},
}


def npm_pack(stage: Path, out: Path) -> Path:
    result = subprocess.run(
        ["npm", "pack", "--json", "--pack-destination", str(out)],
        cwd=stage,
        capture_output=True,
        text=True,
    )
    if result.returncode != 0:
        raise PackError(f"npm pack failed in {stage}: {result.stderr.strip()}")
    return out / json.loads(result.stdout)[0]["filename"]


def common_npm_fields(version: str) -> dict:
    return {
        "version": version,
        "license": license_expression(),
        "homepage": "https://example.invalid/axsnap",
        "repository": {"type": "git", "url": "https://example.invalid/axsnap"},
        "keywords": ["mcp", "mcp-server", "accessibility", "llm", "agent", "browser"],
    }


def write_npm_platform(key: str, binary: Path, version: str, out: Path, work: Path) -> Path:
    spec = NPM_PLATFORMS[key]
    stage = work / f"npm-{key}"
    (stage / "bin").mkdir(parents=True)
    shutil.copyfile(binary, stage / "bin" / spec["exe"])
    os.chmod(stage / "bin" / spec["exe"], 0o755)
    for name in ("LICENSE-MIT", "LICENSE-APACHE"):
        shutil.copyfile(REPO / name, stage / name)
    (stage / "README.md").write_text(
        f"# @axsnap/{key}\n\nThe axsnap binary for {key}. Install `axsnap`, which runs it: "
        "`npx axsnap mcp`.\n"
    )
    manifest = {
        "name": f"@axsnap/{key}",
        "description": f"The axsnap binary for {key} (installed by the axsnap package).",
        **common_npm_fields(version),
        "os": [spec["os"]],
        "cpu": [spec["cpu"]],
        "files": ["bin/", "LICENSE-MIT", "LICENSE-APACHE", "README.md"],
        # Yarn's plug'n'play would otherwise keep the binary inside a zip it cannot run from.
        "preferUnplugged": True,
    }
    (stage / "package.json").write_text(json.dumps(manifest, indent=2) + "\n")
    return npm_pack(stage, out)


def write_npm_main(version: str, out: Path, work: Path) -> Path:
    stage = work / "npm-axsnap"
    shutil.copytree(HERE / "npm" / "axsnap", stage)
    os.chmod(stage / "bin" / "axsnap.js", 0o755)
    shutil.copyfile(HERE / "python" / "README.md", stage / "README.md")
    for name in ("LICENSE-MIT", "LICENSE-APACHE"):
        shutil.copyfile(REPO / name, stage / name)
    manifest = {
        "name": "axsnap",
        "description": SUMMARY,
        **common_npm_fields(version),
        "mcpName": MCP_NAME,
        "bin": {"axsnap": "bin/axsnap.js"},
        "files": ["bin/", "LICENSE-MIT", "LICENSE-APACHE", "README.md"],
        "engines": {"node": ">=18"},
        # Every platform's package is listed; npm installs the one whose os and cpu match.
        "optionalDependencies": {f"@axsnap/{key}": version for key in NPM_PLATFORMS},
    }
    (stage / "package.json").write_text(json.dumps(manifest, indent=2) + "\n")
    return npm_pack(stage, out)


# -- all --------------------------------------------------------------------------------------


def sha256sums(paths: list[Path], out: Path) -> Path:
    lines = [f"{hashlib.sha256(p.read_bytes()).hexdigest()}  {p.name}\n" for p in sorted(paths)]
    target = out / "SHA256SUMS"
    target.write_text("".join(lines))
    return target


def pack(linux: Path | None, windows: Path | None, version: str, out: Path) -> list[Path]:
    if linux is None and windows is None:
        raise PackError("nothing to pack: pass --linux-x64 BIN and/or --win32-x64 EXE")
    # npm pack runs in a staging directory: a relative --out would land there.
    out = out.resolve()
    out.mkdir(parents=True, exist_ok=True)
    made: list[Path] = []
    with tempfile.TemporaryDirectory(prefix="axsnap-pack-") as tmp:
        work = Path(tmp)
        if linux is not None:
            check_elf_x86_64(linux)
            made.append(write_wheel(linux, "axsnap", manylinux_tag(linux), version, out))
            made.append(write_npm_platform("linux-x64", linux, version, out, work))
        if windows is not None:
            check_pe(windows)
            made.append(write_wheel(windows, "axsnap.exe", "win_amd64", version, out))
            made.append(write_npm_platform("win32-x64", windows, version, out, work))
        made.append(write_npm_main(version, out, work))
    made.append(sha256sums(made, out))
    return made


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--linux-x64", type=Path, help="the Linux x86-64 binary")
    ap.add_argument("--win32-x64", type=Path, help="the Windows x86-64 binary (axsnap.exe)")
    ap.add_argument("--out", type=Path, default=REPO / "dist", help="where to write (default: dist/)")
    ap.add_argument("--version", default=None, help="the version (default: the workspace's)")
    args = ap.parse_args()
    try:
        made = pack(args.linux_x64, args.win32_x64, args.version or workspace_version(), args.out)
    except (PackError, OSError) as e:
        print(f"pack: {e}", file=sys.stderr)
        return 1
    for path in made:
        print(f"{path.stat().st_size:>12,}  {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
