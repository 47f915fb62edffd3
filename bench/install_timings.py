#!/usr/bin/env python3
"""Times the one-line installs of the packages in dist/ (scripts/package), each into a fresh
venv, cache or npm prefix, and prints a Markdown table of medians.

  target/mcp-venv/bin/python bench/install_timings.py [--dist dist] [--runs 5]

Each run starts from nothing of its own (a new venv for pip, an empty cache for uvx and npx,
an empty prefix for npm) and ends when `axsnap --version` has answered through what it
installed; the venv's own creation is timed apart. The registries are not asked for anything
(the packages are local files; npm still looks up the optional dependencies of other
platforms, which are not published).
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

VENV_BIN = Path(sys.executable).parent


def one(pattern: str, dist: Path) -> Path:
    found = sorted(dist.glob(pattern))
    if len(found) != 1:
        sys.exit(f"install_timings: expected one {pattern} in {dist}, found {[p.name for p in found]}")
    # Absolute: npm reads `dist/x.tgz` as a GitHub repository (owner/name).
    return found[0].resolve()


def timed(argv: list[str], env: dict[str, str] | None = None) -> float:
    start = time.perf_counter()
    subprocess.run(argv, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env)
    return time.perf_counter() - start


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--dist", type=Path, default=Path("dist"))
    ap.add_argument("--runs", type=int, default=5)
    args = ap.parse_args()
    wheel = one("axsnap-*-manylinux_*_x86_64.whl", args.dist)
    platform_tgz = one("axsnap-linux-x64-*.tgz", args.dist)
    main_tgz = one("axsnap-[0-9]*.tgz", args.dist)

    times: dict[str, list[float]] = {}
    for _ in range(args.runs):
        with tempfile.TemporaryDirectory(prefix="axsnap-install-") as tmp:
            work = Path(tmp)
            venv = work / "venv"
            times.setdefault("python3 -m venv (not an install; for scale)", []).append(
                timed([sys.executable, "-m", "venv", str(venv)])
            )
            times.setdefault("pip install WHEEL (fresh venv), then axsnap --version", []).append(
                timed([str(venv / "bin" / "pip"), "install", "-q", "--no-index",
                       "--disable-pip-version-check", str(wheel)])  # fmt: skip
                + timed([str(venv / "bin" / "axsnap"), "--version"])
            )
            env = {**os.environ, "UV_CACHE_DIR": str(work / "uv"), "UV_TOOL_DIR": str(work / "uvt")}
            uvx = [str(VENV_BIN / "uvx"), "--from", str(wheel), "axsnap", "--version"]
            times.setdefault("uvx --from WHEEL axsnap --version (empty cache)", []).append(timed(uvx, env))
            times.setdefault("the same again (cached)", []).append(timed(uvx, env))
            npm_env = {**os.environ, "npm_config_cache": str(work / "npm"), "npm_config_audit": "false",
                       "npm_config_fund": "false", "npm_config_update_notifier": "false"}  # fmt: skip
            prefix = work / "prefix"
            prefix.mkdir()
            times.setdefault("npm install --prefix (fresh) both tarballs, then axsnap --version", []).append(
                timed(["npm", "install", "--prefix", str(prefix), "--no-save", "--loglevel=error",
                       str(platform_tgz), str(main_tgz)], npm_env)  # fmt: skip
                + timed([str(prefix / "node_modules" / ".bin" / "axsnap"), "--version"])
            )
            shutil.rmtree(work / "npm")
            npx = ["npx", "--yes", "--package", str(platform_tgz), "--package", str(main_tgz), "axsnap", "--version"]
            times.setdefault("npx --package … axsnap --version (empty cache)", []).append(timed(npx, npm_env))
            times.setdefault("the same again (cached) ", []).append(timed(npx, npm_env))
    print(f"| install ({args.runs} runs, fresh each) | median s | min s | max s |")
    print("|---|---|---|---|")
    for name, ts in times.items():
        print(f"| {name} | {statistics.median(ts):.2f} | {min(ts):.2f} | {max(ts):.2f} |")
    for p in (wheel, platform_tgz, main_tgz):
        print(f"\n{p.name}: {p.stat().st_size:,} bytes", end="")
    print()
    return 0


if __name__ == "__main__":
    sys.exit(main())
