"""`--user-data-dir` (issue 23): a persistent profile. A login made in one server's browser
is still there after the server stops and another starts on the same directory; a second
server on a directory a running one holds is refused at start with a clear error. Real
Chromium, the fixture site's login (`?remember`: a cookie that outlives the browser), the
Python SDK over stdio and HTTP."""

from __future__ import annotations

import os
import signal
import subprocess
import time
from pathlib import Path

import pytest
from conftest import axsnap_http_command, axsnap_stdio_command, connect, free_port, run_http_server
from fixture_site import PASSWORD, USER, Site
from test_axsnap_agent import Agent

pytestmark = pytest.mark.anyio


def holder(profile: Path) -> int | None:
    """The live process Chromium's lock on `profile` names (HOST-PID), if any."""
    try:
        pid = int(os.readlink(profile / "SingletonLock").rsplit("-", 1)[1])
    except (OSError, ValueError, IndexError):
        return None
    return pid if Path(f"/proc/{pid}").exists() else None


async def test_a_login_survives_a_restart_and_a_second_server_is_refused(
    axsnap_bin: Path, site: Site, tmp_path: Path
) -> None:
    profile = tmp_path / "profile"
    port = free_port()
    argv = axsnap_http_command(axsnap_bin, port, "--user-data-dir", str(profile))
    # Stopped with SIGTERM to the server alone (as `docker stop` sends it, or systemd with
    # KillMode=mixed): it closes its browser, which writes the cookie to disk. (A SIGTERM to
    # the browser itself, as a process-group kill or the Python SDK's stdio client on exit
    # sends, ends Chromium before it writes its cookies.)
    with run_http_server(argv, port, tmp_path / "login.log") as server:
        async with connect(server.url) as c:
            agent = Agent(c)
            await agent.ok("navigate", url=site.url("/login?remember"))
            await agent.ok("fill", ref=await agent.ref("user name field", "textbox", "User name"), text=USER)
            await agent.ok("fill", ref=await agent.ref("password", "textbox", "Password"), text=PASSWORD)
            text, _ = await agent.ok("click", ref=await agent.ref("log in button", "button", "Log in"))
            assert f"Signed in as {USER}" in text, text
        server.process.send_signal(signal.SIGTERM)
        server.process.wait(30)
    # The server stopped and closed its browser: the profile is free again once
    # that browser has exited.
    deadline = time.monotonic() + 30
    while holder(profile) is not None:
        assert time.monotonic() < deadline, f"the first server's browser still holds {profile}"
        time.sleep(0.1)
    port = free_port()
    http_argv = axsnap_http_command(axsnap_bin, port, "--user-data-dir", str(profile))
    with run_http_server(http_argv, port, tmp_path / "first.log") as server:
        # A second server on the same profile is refused when it starts.
        second = subprocess.run(
            [*axsnap_stdio_command(axsnap_bin, "--user-data-dir", str(profile))],
            stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=120,
        )  # fmt: skip
        assert second.returncode != 0, second.stderr
        assert "is in use by process" in second.stderr and str(profile) in second.stderr, second.stderr
        # The login is still there, in the running server's sessions.
        async with connect(server.url) as c:
            text, _ = await Agent(c).ok("navigate", url=site.url("/whoami"))
            assert f"Signed in as {USER}" in text, text
