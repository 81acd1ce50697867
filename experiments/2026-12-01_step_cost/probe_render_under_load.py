"""8 corpus sketches (4 layered, 4 flat) as one batch through the training pool, with N
busy-loop processes beside it: CPU s per render by Chromium process, and wall s.

    python experiments/2026-12-01_step_cost/probe_render_under_load.py N
"""

import asyncio
import random
import subprocess
import sys
import time

sys.path.insert(0, "experiments/2026-12-01_step_cost")
from probe_idle_pool import cpu, diff  # noqa: E402 (a sibling script)

from watercolor.render.pool import RenderConfig, RenderPool  # noqa: E402
from watercolor.tasks.painting.gate import extract_sketch  # noqa: E402
from watercolor.tasks.painting.painter.corpus import make_example  # noqa: E402
from watercolor.tasks.painting.prompts import prompts as task_prompts  # noqa: E402

POOL = task_prompts("train")
SKETCHES = []
for kind in ["layered", "flat"]:
    for i in range(4):
        rng = random.Random(f"p:{kind}:{i}")
        SKETCHES.append(extract_sketch(make_example(kind, rng.choice(POOL), rng).reply))


async def main(load: int) -> None:
    burners = [subprocess.Popen([sys.executable, "-c", "while True: pass"]) for _ in range(load)]
    try:
        async with RenderPool(RenderConfig(size=600, pixel_density=0.5, workers=2)) as pool:
            await pool.render(SKETCHES[0])
            before, started = cpu(), time.perf_counter()
            canvases = await pool.render_batch(SKETCHES)
            per_render = {k: round(v / len(SKETCHES), 2) for k, v in diff(before, cpu()).items()}
            wall = round(time.perf_counter() - started, 2)
            print(f"load={load} per render", per_render, "wall", wall, {c.status for c in canvases})
    finally:
        for burner in burners:
            burner.kill()


asyncio.run(main(int(sys.argv[1])))
