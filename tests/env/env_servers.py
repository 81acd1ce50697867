"""Helpers for tests that run `python -m watercolor.env.serve` as real subprocesses."""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import httpx

REPO = Path(__file__).parents[2]


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def start_server(port: int, *flags: str, new_session: bool = False) -> subprocess.Popen:
    """A server on loopback `port`; `new_session` puts it (and its Chromium) in its own group."""
    command = [sys.executable, "-m", "watercolor.env.serve", "--port", str(port)]
    command += ["--log-level", "warning", *flags]
    return subprocess.Popen(command, cwd=REPO, start_new_session=new_session)


def wait_until_healthy(url: str, server: subprocess.Popen, timeout_s: float = 120) -> None:
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        assert server.poll() is None, "server exited during startup"
        try:
            if httpx.get(f"{url}/health", timeout=2).status_code == 200:
                return
        except httpx.TransportError:
            pass
        time.sleep(0.25)
    raise TimeoutError(f"{url} not healthy after {timeout_s} s")


@contextlib.contextmanager
def running_server(*flags: str) -> Iterator[str]:
    """A server with `flags` on a free loopback port, healthy, its URL; stopped (SIGTERM, then
    SIGKILL after 60 s) on exit."""
    port = free_port()
    process = start_server(port, *flags)
    url = f"http://127.0.0.1:{port}"
    try:
        wait_until_healthy(url, process)
        yield url
    finally:
        process.send_signal(signal.SIGTERM)
        try:
            process.wait(timeout=60)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


def kill_group(server: subprocess.Popen) -> None:
    """SIGKILL the server's whole process group (it, Playwright's driver, Chromium): a crash."""
    with contextlib.suppress(ProcessLookupError):  # the group may be gone already
        os.killpg(server.pid, signal.SIGKILL)
    server.wait()
