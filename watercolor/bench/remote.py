"""`remote` starts `--servers` local environment servers (`python -m watercolor.env.serve` on
loopback ports, `--server-workers` pages each, at `--server-density`, by default the training
pixel density) and paints the samples' replies through `RemoteRenderer` (renderer=remote) on the
first server, then on the first two, ... in one run: `remote_sN_per_s` (renders per second
over N servers; each server's gate, render and score included) and `scaling_1_to_N`. Local
servers share this machine's cores: on 2 cores, two servers cannot do more than one server with
two workers; the figure says what the client and the fleet add, not what separate machines
would give.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx

from watercolor.bench.common import (
    failures,
    sample_sketches,
    training_density,
)


def bench_remote(args: argparse.Namespace) -> dict:
    """Renders per second through `RemoteRenderer` over 1..N local servers, side by side."""
    replies = [f"```javascript\n{sketch}\n```" for sketch in sample_sketches(args.sketches)]
    replies *= args.repeat
    ports = [free_port() for _ in range(args.servers)]
    density = server_density(args)
    servers = [serve_locally(serve_command(port, args, density)) for port in ports]
    try:
        urls = [wait_healthy(port, server) for port, server in zip(ports, servers, strict=True)]
        figures = {"replies": len(replies), "server_workers": args.server_workers}
        figures |= {"server_density": density, "failures": []}
        for n in range(1, args.servers + 1):
            wall, canvases = asyncio.run(paint_on(urls[:n], replies, args.server_workers))
            figures[f"remote_s{n}_per_s"] = round(len(replies) / wall, 3)
            figures["failures"] += failures(canvases)
        for n in range(2, args.servers + 1):
            figures[f"scaling_1_to_{n}"] = round(
                figures[f"remote_s{n}_per_s"] / figures["remote_s1_per_s"], 3
            )
        return figures
    finally:
        for server in servers:
            server.terminate()  # the server closes its Chromium on SIGTERM
        for server in servers:
            server.wait(timeout=60)


async def paint_on(urls: list[str], replies: list[str], workers: int) -> tuple[float, list]:
    """Wall time of painting every reply on `urls` (one untimed warm-up reply per server)."""
    from watercolor.render.fleet import RemoteRenderer

    renderer = RemoteRenderer(urls, sessions_per_server=2 * workers)  # a queued step per page
    await asyncio.gather(*(renderer(replies[0]) for _ in urls))
    start = time.perf_counter()
    canvases = await asyncio.gather(*(renderer(reply) for reply in replies))
    return time.perf_counter() - start, canvases


def server_density(args: argparse.Namespace) -> float:
    """`--server-density`, else the pixel density training renders at."""
    return training_density() if args.server_density is None else args.server_density


def serve_command(port: int, args: argparse.Namespace, density: float) -> list[str]:
    """`python -m watercolor.env.serve` on `port`, rendering at pixel density `density`."""
    command = [sys.executable, "-m", "watercolor.env.serve", "--port", str(port)]
    command += ["--workers", str(args.server_workers), "--log-level", "warning"]
    command += ["--max-sessions", str(2 * args.server_workers)]
    command += ["--time-limit", str(args.time_limit)]
    return command + ["--pixel-density", str(density)]


def serve_locally(command: list[str]) -> subprocess.Popen:
    return subprocess.Popen(command, cwd=Path(__file__).resolve().parents[2])


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def wait_healthy(port: int, server: subprocess.Popen, timeout_s: float = 180) -> str:
    """The server's URL once `/health` answers (its Chromium pool is up)."""
    url, deadline = f"http://127.0.0.1:{port}", time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        if server.poll() is not None:
            raise RuntimeError(f"the server on port {port} exited (its output is above)")
        with contextlib.suppress(httpx.TransportError):
            if httpx.get(f"{url}/health", timeout=2).status_code == 200:
                return url
        time.sleep(0.25)
    raise TimeoutError(f"the server on port {port} was not healthy after {timeout_s} s")
