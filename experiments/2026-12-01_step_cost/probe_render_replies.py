"""Render /tmp/replies.json (from probe_sample_replies.py) one by one with the training renderer:
status, CPU s by Chromium process, wall s, timings, characters and `brush.fill` calls.

    python experiments/2026-12-01_step_cost/probe_render_replies.py
"""

import asyncio
import json
import sys
import time
from pathlib import Path

sys.path.insert(0, "experiments/2026-12-01_step_cost")
from probe_idle_pool import cpu, diff  # noqa: E402 (a sibling script)

from watercolor.render.pool import RenderConfig, RenderPool  # noqa: E402
from watercolor.tasks.painting.gate import check_reply  # noqa: E402

REPLIES = json.loads(Path("/tmp/replies.json").read_text())


async def main() -> None:
    async with RenderPool(RenderConfig(size=600, pixel_density=0.5, workers=1)) as pool:
        await pool.render("function setup(){createCanvas(600,600,WEBGL);}")
        for reply in REPLIES:
            sketch, violations = check_reply(reply)
            if violations or sketch is None:
                print("refused", [v.code for v in violations])
                continue
            before, started = cpu(), time.perf_counter()
            canvas = await pool.render(sketch)
            wall = round(time.perf_counter() - started, 2)
            timings = {k: round(v) for k, v in canvas.timings.items()}
            spent = diff(before, cpu())
            fills = sketch.count("brush.fill")
            print(canvas.status.value, spent, wall, timings, len(sketch), fills)


asyncio.run(main())
