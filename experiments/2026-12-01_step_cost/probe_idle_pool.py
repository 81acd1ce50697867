"""CPU of an idle warm pool (20 s) and of 8 trivial renders, by Chromium process.

python experiments/2026-12-01_step_cost/probe_idle_pool.py
"""

import asyncio
import os
import time
from pathlib import Path

from watercolor.render.pool import RenderConfig, RenderPool

TRIVIAL = "function setup(){createCanvas(600,600,WEBGL);background(200);}"


def cpu() -> dict[str, tuple[str, float]]:
    """pid -> (gpu | renderer | other, CPU s) for every Chromium process."""
    out = {}
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            cmd = Path(f"/proc/{pid}/cmdline").read_text().replace("\0", " ")
            st = Path(f"/proc/{pid}/stat").read_text().rsplit(") ", 1)[1].split()
        except OSError:
            continue
        if "chrom" not in cmd:
            continue
        kind = "gpu" if "type=gpu" in cmd else "renderer" if "type=renderer" in cmd else "other"
        out[pid] = (kind, (int(st[11]) + int(st[12])) / os.sysconf("SC_CLK_TCK"))
    return out


def diff(before: dict, after: dict) -> dict[str, float]:
    """CPU s spent between two `cpu()` readings, by kind."""
    spent: dict[str, float] = {}
    for pid, (kind, seconds) in after.items():
        spent[kind] = round(spent.get(kind, 0) + seconds - before.get(pid, (kind, 0))[1], 2)
    return spent


async def main() -> None:
    async with RenderPool(RenderConfig(size=600, pixel_density=0.5, workers=2)) as pool:
        await pool.render(TRIVIAL)
        await asyncio.sleep(3)
        before = cpu()
        await asyncio.sleep(20)
        print("idle 20 s:", diff(before, cpu()))
        before, started = cpu(), time.perf_counter()
        for _ in range(8):
            await pool.render(TRIVIAL)
        print("8 trivial renders:", diff(before, cpu()), round(time.perf_counter() - started, 2))


if __name__ == "__main__":
    asyncio.run(main())
