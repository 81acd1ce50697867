"""Kill renderer processes that grow past a memory cap (Linux; a no-op elsewhere).

    watchdog = MemoryWatchdog(marker="--watercolor-pool=1f2e", limit_mb=1024)
    task = asyncio.ensure_future(watchdog.run())   # cancel it when the browser closes

V8's heap cap (`--max-old-space-size`) turns JS allocation bombs into quick crashes, but
canvases, images and typed arrays live outside that heap: a loop of `createGraphics(2000,
2000)` grows a renderer by ~0.3 GB/s until the time limit. This watchdog reads the resident
memory of the browser's renderer processes from /proc five times a second and SIGKILLs any
above the cap (the list of renderers is re-read once a second: walking every thread of the
browser's process tree on each pass cost a tenth of a core in training); Playwright
reports the page as crashed and the pool replaces it. Each page has its own renderer process
(one browser context per page), so only the offending sketch dies.
The GPU process (SwiftShader's WebGL, shared by all pages) is never killed: that would lose
every page's WebGL context; its memory is bounded only by the time limit.
"""

from __future__ import annotations

import asyncio
import contextlib
import ctypes
import os
import signal
from collections.abc import Iterable
from pathlib import Path

PROC = Path("/proc")
CLOCK_TICKS = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100  # /proc/*/stat


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
        if state == "Z":
            with contextlib.suppress(OSError):
                os.waitpid(pid, os.WNOHANG)
                reaped.append(pid)
    return reaped


def proc_stat(pid: int) -> tuple[str, list[str]]:
    """(name, the fields after it) of /proc/<pid>/stat: fields[0] state, [1] parent pid,
    [11] / [12] user / system CPU ticks. Raises OSError when the process is gone."""
    stat = (PROC / str(pid) / "stat").read_text()
    return stat[stat.index("(") + 1 : stat.rindex(")")], stat[stat.rindex(")") + 2 :].split()


def cpu_seconds(pids: Iterable[int]) -> float:
    """User + system CPU seconds of the live processes among `pids`."""
    total = 0.0
    for pid in pids:
        with contextlib.suppress(OSError):
            total += _start_and_cpu(pid)[1]
    return total


class CpuMeter:
    """CPU seconds the processes `pids` spent since the meter was made (call it to read).

    A process that exits keeps its last reading, so its time is not lost (a renderer that dies
    mid-sketch once made the figure drop); a pid taken by a new process (its start time
    differs) is not read again.
    """

    def __init__(self, pids: Iterable[int]) -> None:
        self.readings: dict[int, tuple[str, float]] = {}  # pid -> (start time, CPU seconds)
        for pid in pids:
            with contextlib.suppress(OSError, ValueError, IndexError):
                self.readings[pid] = _start_and_cpu(pid)
        self.start = sum(cpu for _, cpu in self.readings.values())

    def __call__(self) -> float:
        for pid, (started, _) in self.readings.items():
            with contextlib.suppress(OSError, ValueError, IndexError):
                now_started, cpu = _start_and_cpu(pid)
                if now_started == started:
                    self.readings[pid] = (started, cpu)
        return sum(cpu for _, cpu in self.readings.values()) - self.start


def _start_and_cpu(pid: int) -> tuple[str, float]:
    fields = proc_stat(pid)[1]
    return fields[19], (int(fields[11]) + int(fields[12])) / CLOCK_TICKS


def adopted_browser_processes() -> list[tuple[int, str]]:
    """(pid, state) of the Chromium processes whose parent is this process."""
    me, found = os.getpid(), []
    for entry in PROC.iterdir():
        if not entry.name.isdigit():
            continue
        with contextlib.suppress(OSError, ValueError, IndexError):
            name, fields = proc_stat(int(entry.name))
            if int(fields[1]) == me and name.startswith("chrom"):
                found.append((int(entry.name), fields[0]))
    return found


def find_process(marker: str) -> int | None:
    """The pid whose command line contains `marker` (a flag we gave the browser)."""
    for entry in PROC.iterdir():
        if entry.name.isdigit():
            with contextlib.suppress(OSError):
                if marker.encode() in (entry / "cmdline").read_bytes():
                    return int(entry.name)
    return None


def descendants(pid: int) -> list[int]:
    """All processes below `pid`, from /proc/<pid>/task/*/children."""
    found, stack = [], [pid]
    while stack:
        parent = stack.pop()
        try:
            threads = list((PROC / str(parent) / "task").glob("*/children"))
        except OSError:  # it ended while we looked (its /proc entry went mid-scan)
            continue
        for children in threads:
            with contextlib.suppress(OSError):
                kids = [int(child) for child in children.read_text().split()]
                found.extend(kids)
                stack.extend(kids)
    return found


def resident_mb(pid: int) -> float:
    """Resident memory of one process in MiB (0 if it is gone)."""
    with contextlib.suppress(OSError, ValueError, IndexError):
        for line in (PROC / str(pid) / "status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return 0.0


def is_renderer(pid: int) -> bool:
    with contextlib.suppress(OSError):
        return b"--type=renderer" in (PROC / str(pid) / "cmdline").read_bytes()
    return False


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
        """Watch until cancelled (returns at once where there is no /proc)."""
        if not PROC.is_dir():
            return
        browser_pid, renderers, passes = None, [], 0
        while True:
            if browser_pid is None or not (PROC / str(browser_pid)).exists():
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
