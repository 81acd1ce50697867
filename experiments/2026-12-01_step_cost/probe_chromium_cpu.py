"""CPU seconds per corpus sketch by Chromium process (gpu = SwiftShader, renderer = p5 and
p5.brush JS, other = browser), 4 layered + 4 flat corpus sketches on one warm page.
  [DENSITY=0.25] python experiments/2026-12-01_step_cost/probe_chromium_cpu.py \
      "<extra flags>" ["<flags to drop>"]
"""

import asyncio
import os
import random
import sys
import time
from pathlib import Path

from playwright.async_api import async_playwright

import watercolor.render.browser as br

orig = br.chromium_flags
drop = set(sys.argv[2].split()) if len(sys.argv) > 2 else set()


def flags(*a, **k):
    return [x for x in orig(*a, **k) if x not in drop] + sys.argv[1].split()


br.chromium_flags = flags
from watercolor.render.browser import launch  # noqa: E402 (after the flags are patched)
from watercolor.render.page import WarmPage  # noqa: E402 (after the flags are patched)
from watercolor.tasks.painting.gate import extract_sketch  # noqa: E402 (after the flags are patched)
from watercolor.tasks.painting.painter.corpus import make_example  # noqa: E402 (after the flags are patched)
from watercolor.tasks.painting.prompts import prompts as task_prompts  # noqa: E402 (after the flags are patched)

pool = task_prompts("train")
DENSITY = float(os.environ.get("DENSITY", "0.5"))  # DENSITY=0.25 ... for the density rows
S = []
for kind in ["layered", "flat"]:
    for i in range(4):
        rng = random.Random(f"p:{kind}:{i}")
        S.append(extract_sketch(make_example(kind, rng.choice(pool), rng).reply))


def cpu():
    out = {}
    for pid in os.listdir("/proc"):
        if not pid.isdigit():
            continue
        try:
            cmd = Path(f"/proc/{pid}/cmdline").read_text().replace("\0", " ")
            st = Path(f"/proc/{pid}/stat").read_text().rsplit(") ", 1)[1].split()
        except Exception:
            continue
        if "chrom" not in cmd:
            continue
        t = "gpu" if "type=gpu" in cmd else "renderer" if "type=renderer" in cmd else "other"
        out[pid] = (t, (int(st[11]) + int(st[12])) / os.sysconf("SC_CLK_TCK"))
    return out


async def main():
    async with async_playwright() as pw:
        b = await launch(pw, executable=None, js_heap_mb=256)
        page = await WarmPage.open(b, 600)
        await page.load()
        await page.run(S[0], seed=0, density=DENSITY, max_frames=3, limit_s=10)
        before = cpu()
        t = time.perf_counter()
        st = []
        for s in S:
            await page.load()
            c = await page.run(s, seed=0, density=DENSITY, max_frames=3, limit_s=20)
            st.append(c.status)
        wall = time.perf_counter() - t
        after = cpu()
        agg = {}
        for pid, (ty, c) in after.items():
            agg[ty] = agg.get(ty, 0) + c - before.get(pid, (ty, 0))[1]
        print(
            "per sketch: wall",
            round(wall / len(S), 2),
            {k: round(v / len(S), 2) for k, v in agg.items()},
            set(st),
        )
        await b.close()


asyncio.run(main())
