"""Issue 33, item 4: does psutil replace the hand-written /proc accounting? Measured side by side.

    .venv/bin/python experiments/2026-12-05_psutil/probe.py [--rounds 400]

One real Chromium (the pool's launch, painting's harness) with two warm pages, as a render
pool with two workers holds. Each round reads the same thing both ways, in alternating order:
  tree  the browser's process tree: watchdog.descendants (/proc/<pid>/task/*/children) against
        psutil.Process.children(recursive=True);
  tick  the watchdog's five-times-a-second read: the tree, which of them are renderers, and each
        renderer's resident memory (watchdog.is_renderer, resident_mb against psutil's cmdline()
        and memory_info());
  rss   the read between tree walks (four of five passes): each renderer's resident memory
        (watchdog.resident_mb, /proc/<pid>/status, against psutil's memory_info());
  cpu   the CPU seconds of the tree (watchdog.cpu_seconds, as step_cpu and bench read it,
        against psutil's cpu_times());
  find  the browser by the marker flag on its command line (watchdog.find_process against
        psutil.process_iter).
Prints each read's median microseconds both ways, their ratio, and whether both found the same
processes and figures.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import statistics
import time
from pathlib import Path

import psutil
from playwright.async_api import async_playwright

from watercolor.render.browser import launch
from watercolor.render.page import WarmPage
from watercolor.render.pool import RenderConfig
from watercolor.tasks.painting.harness import harness

# The hand-written /proc readers as watercolor/render/watchdog.py had them at 1afb96b (before
# psutil replaced them), kept here as the side they were measured against.
PROC = Path("/proc")
CLOCK_TICKS = os.sysconf("SC_CLK_TCK")


def descendants(pid: int) -> list[int]:
    found, stack = [], [pid]
    while stack:
        parent = stack.pop()
        try:
            threads = list((PROC / str(parent) / "task").glob("*/children"))
        except OSError:
            continue
        for children in threads:
            with contextlib.suppress(OSError):
                kids = [int(child) for child in children.read_text().split()]
                found.extend(kids)
                stack.extend(kids)
    return found


def cpu_seconds(pids) -> float:
    total = 0.0
    for pid in pids:
        with contextlib.suppress(OSError):
            stat = (PROC / str(pid) / "stat").read_text()
            fields = stat[stat.rindex(")") + 2 :].split()
            total += (int(fields[11]) + int(fields[12])) / CLOCK_TICKS
    return total


def find_process(marker: str) -> int | None:
    for entry in PROC.iterdir():
        if entry.name.isdigit():
            with contextlib.suppress(OSError):
                if marker.encode() in (entry / "cmdline").read_bytes():
                    return int(entry.name)
    return None


def resident_mb(pid: int) -> float:
    with contextlib.suppress(OSError, ValueError, IndexError):
        for line in (PROC / str(pid) / "status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return 0.0


def is_renderer(pid: int) -> bool:
    with contextlib.suppress(OSError):
        return b"--type=renderer" in (PROC / str(pid) / "cmdline").read_bytes()
    return False


def proc_tree(root: int) -> list[int]:
    return descendants(root)


def psutil_tree(root: int) -> list[int]:
    return [p.pid for p in psutil.Process(root).children(recursive=True)]


def proc_tick(root: int) -> dict[int, float]:
    return {pid: resident_mb(pid) for pid in descendants(root) if is_renderer(pid)}


def psutil_tick(root: int) -> dict[int, float]:
    found = {}
    for child in psutil.Process(root).children(recursive=True):
        try:
            if "--type=renderer" in child.cmdline():
                found[child.pid] = child.memory_info().rss / 2**20
        except psutil.Error:
            continue
    return found


def proc_rss(pids: list[int]) -> list[float]:
    return [resident_mb(pid) for pid in pids]


def psutil_rss(pids: list[int]) -> list[float]:
    return [psutil.Process(pid).memory_info().rss / 2**20 for pid in pids]


def proc_cpu(root: int) -> float:
    return cpu_seconds([root, *descendants(root)])


def psutil_cpu(root: int) -> float:
    total = 0.0
    for process in [psutil.Process(root), *psutil.Process(root).children(recursive=True)]:
        try:
            times = process.cpu_times()
            total += times.user + times.system
        except psutil.Error:
            continue
    return total


def psutil_find(marker: str) -> int | None:
    for process in psutil.process_iter():
        try:
            if marker in " ".join(process.cmdline()):
                return process.pid
        except psutil.Error:
            continue
    return None


def timed(fn, arg) -> tuple[float, object]:
    start = time.perf_counter()
    value = fn(arg)
    return (time.perf_counter() - start) * 1e6, value


async def main(rounds: int) -> None:
    config = RenderConfig(size=600)
    marker = f"--watercolor-psutil-probe-{os.getpid()}"
    async with async_playwright() as playwright:
        browser = await launch(
            playwright, executable=config.chromium, js_heap_mb=config.js_heap_mb, marker=marker
        )
        try:
            pages = [await WarmPage.open(browser, config.size, harness()) for _ in range(2)]
            root = find_process(marker)
            pairs = {
                "tree": (proc_tree, psutil_tree, root),
                "tick": (proc_tick, psutil_tick, root),
                "rss": (proc_rss, psutil_rss, list(proc_tick(root))),
                "cpu": (proc_cpu, psutil_cpu, root),
                "find": (find_process, psutil_find, marker),
            }
            times = {name: ([], []) for name in pairs}
            agree = {name: True for name in pairs}
            for i in range(rounds):
                for name, (ours, theirs, arg) in pairs.items():
                    order = [(0, ours), (1, theirs)] if i % 2 else [(1, theirs), (0, ours)]
                    values = {}
                    for slot, fn in order:
                        micro, values[slot] = timed(fn, arg)
                        times[name][slot].append(micro)
                    a, b = values[0], values[1]
                    if name == "tree":
                        agree[name] &= sorted(a) == sorted(b)
                    elif name == "tick":
                        agree[name] &= a.keys() == b.keys()  # memory moves between reads
                    elif name == "rss":
                        agree[name] &= all(abs(x - y) < 2.0 for x, y in zip(a, b, strict=True))
                    elif name == "cpu":
                        agree[name] &= abs(a - b) < 0.05  # read a few microseconds apart
                    else:
                        agree[name] &= a == b
            print(f"processes in the tree: {len(descendants(root)) + 1}; rounds: {rounds}")
            print(f"{'read':>6} {'/proc us':>10} {'psutil us':>10} {'psutil / proc':>14}  same")
            for name, (ours, theirs) in times.items():
                o, t = statistics.median(ours), statistics.median(theirs)
                print(f"{name:>6} {o:>10.0f} {t:>10.0f} {t / o:>14.2f}  {agree[name]}")
            for page in pages:
                await page.close()
        finally:
            await browser.close()


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rounds", type=int, default=400)
    asyncio.run(main(parser.parse_args().rounds))
