"""Kill renderer processes that grow past a memory cap (Linux; a no-op elsewhere).

    watchdog = MemoryWatchdog(marker="--watercolor-pool=1f2e", limit_mb=1024)
    task = asyncio.ensure_future(watchdog.run())   # cancel it when the browser closes

V8's heap cap (`--max-old-space-size`) turns JS allocation bombs into quick crashes, but
canvases, images and typed arrays live outside that heap: a loop of `createGraphics(2000,
2000)` grows a renderer by ~0.3 GB/s until the time limit. This watchdog reads the resident
memory of the browser's renderer processes (psutil) five times a second and SIGKILLs any
above the cap (the list of renderers is re-read once a second: walking every thread of the
browser's process tree on each pass cost a tenth of a core in training); Playwright
reports the page as crashed and the pool replaces it. Each page has its own renderer process
(one browser context per page), so only the offending sketch dies.
The GPU process (SwiftShader's WebGL, shared by all pages) is never killed: that would lose
every page's WebGL context; its memory is bounded only by the time limit.

Processes are read with psutil: measured side by side with the /proc readers it replaced, a tree
walk, a memory read and a CPU read cost the same within 12 % (finding the browser by its flag
costs ~4 ms more, once a launch: experiments/2026-12-05_psutil/).
"""

from __future__ import annotations

import asyncio
import contextlib
import ctypes
import os
import signal
import sys
from collections.abc import Iterable

import psutil

PR_SET_CHILD_SUBREAPER = 36  # linux/prctl.h


def adopt_orphans() -> bool:
    """Make this process the parent of its orphaned descendants (Linux's child subreaper).

    A browser that dies hard (killed, crashed) leaves its helpers (zygote, GPU process, crash
    handler) to be re-parented; in containers PID 1 often never reaps them, and they stay
    zombies. Adopted here, `reap_browser_zombies` collects them. False where unsupported.
    """
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        return libc.prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) == 0
    except (OSError, AttributeError):
        return False


def reap_browser_zombies() -> list[int]:
    """Reap every exited Chromium process whose parent is this process; returns their pids.

    Only Chromium's: another child's exit status belongs to whoever started it (a
    `subprocess.Popen` that lost it would report success), so nothing else is waited for.
    """
    reaped = []
    for pid, state in adopted_browser_processes():
        if state == psutil.STATUS_ZOMBIE:
            with contextlib.suppress(OSError):
                os.waitpid(pid, os.WNOHANG)
                reaped.append(pid)
    return reaped


def cpu_seconds(pids: Iterable[int]) -> float:
    """User + system CPU seconds of the live processes among `pids`."""
    total = 0.0
    for pid in pids:
        with contextlib.suppress(psutil.Error):
            total += _start_and_cpu(psutil.Process(pid))[1]
    return total


class CpuMeter:
    """CPU seconds the processes `pids` spent since the meter was made (call it to read).

    A process that exits keeps its last reading, so its time is not lost (a renderer that dies
    mid-sketch once made the figure drop); a pid taken by a new process (its start time
    differs) is not read again.
    """

    def __init__(self, pids: Iterable[int]) -> None:
        self.readings: dict[int, tuple[float, float]] = {}  # pid -> (start time, CPU seconds)
        for pid in pids:
            with contextlib.suppress(psutil.Error):
                self.readings[pid] = _start_and_cpu(psutil.Process(pid))
        self.start = sum(cpu for _, cpu in self.readings.values())

    def __call__(self) -> float:
        for pid, (started, _) in self.readings.items():
            with contextlib.suppress(psutil.Error):
                now_started, cpu = _start_and_cpu(psutil.Process(pid))
                if now_started == started:
                    self.readings[pid] = (started, cpu)
        return sum(cpu for _, cpu in self.readings.values()) - self.start


def _start_and_cpu(process: psutil.Process) -> tuple[float, float]:
    with process.oneshot():
        times = process.cpu_times()
        return process.create_time(), times.user + times.system


def adopted_browser_processes() -> list[tuple[int, str]]:
    """(pid, psutil status) of the Chromium processes whose parent is this process."""
    found = []
    for child in psutil.Process().children():
        with contextlib.suppress(psutil.Error):
            if child.name().startswith("chrom"):
                found.append((child.pid, child.status()))
    return found


def find_process(marker: str) -> int | None:
    """The pid whose command line contains `marker` (a flag we gave the browser)."""
    for process in psutil.process_iter():
        with contextlib.suppress(psutil.Error):
            if marker in command_line(process):
                return process.pid
    return None


def descendants(pid: int) -> list[int]:
    """All processes below `pid` (none when it has ended)."""
    try:
        return [child.pid for child in psutil.Process(pid).children(recursive=True)]
    except psutil.Error:
        return []


def resident_mb(pid: int) -> float:
    """Resident memory of one process in MiB (0 if it is gone)."""
    with contextlib.suppress(psutil.Error):
        return psutil.Process(pid).memory_info().rss / 2**20
    return 0.0


def is_renderer(pid: int) -> bool:
    with contextlib.suppress(psutil.Error):
        return "--type=renderer" in command_line(psutil.Process(pid))
    return False


def command_line(process: psutil.Process) -> str:
    """The process's command line as one string (Chromium rewrites its own, space-separated)."""
    return " ".join(process.cmdline())


class MemoryWatchdog:
    """Polls one browser's renderers and kills those above `limit_mb`."""

    def __init__(
        self, marker: str, limit_mb: float, interval_s: float = 0.2, rescan_s: float = 1.0
    ) -> None:
        self.marker, self.limit_mb, self.interval_s = marker, limit_mb, interval_s
        self.rescan_every = max(1, round(rescan_s / interval_s))  # passes between tree walks
        self.killed: list[int] = []

    def renderers(self, browser_pid: int) -> list[int]:
        """The renderer processes below `browser_pid` now."""
        return [pid for pid in descendants(browser_pid) if is_renderer(pid)]

    def check(self, browser_pid: int, renderers: list[int] | None = None) -> None:
        """One pass: kill every renderer of `browser_pid` (or of the list given) above the cap."""
        for pid in self.renderers(browser_pid) if renderers is None else renderers:
            if resident_mb(pid) > self.limit_mb:
                with contextlib.suppress(OSError):
                    os.kill(pid, signal.SIGKILL)
                    self.killed.append(pid)

    async def run(self) -> None:
        """Watch until cancelled (returns at once off Linux)."""
        if not sys.platform.startswith("linux"):
            return
        browser_pid, renderers, passes = None, [], 0
        while True:
            if browser_pid is None or not psutil.pid_exists(browser_pid):
                browser_pid = find_process(self.marker)
                renderers = self.renderers(browser_pid) if browser_pid is not None else []
            if passes % self.rescan_every == 0:
                reap_browser_zombies()  # a browser that died hard left its helpers to us
                if browser_pid is not None:
                    renderers = self.renderers(browser_pid)
            if browser_pid is not None:
                self.check(browser_pid, renderers)
            passes += 1
            await asyncio.sleep(self.interval_s)
