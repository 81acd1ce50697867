"""Where a render's CPU goes: the fixed cost of a sketch (page, WebGL, p5.brush set-up) vs what
each fill adds, small and large, and the default painter's replies (/tmp/replies.json from
probe_sample_replies.py), by Chromium process, median of REPS renders each.

    python experiments/2026-12-01_step_cost/probe_fixed_cost.py [REPS [PIXEL_DENSITY]]
"""

import asyncio
import json
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, "experiments/2026-12-01_step_cost")
from probe_idle_pool import cpu, diff  # noqa: E402 (a sibling script)

from watercolor.render.pool import RenderConfig, RenderPool  # noqa: E402
from watercolor.tasks.painting.gate import check_reply  # noqa: E402

HEAD = 'function setup(){createCanvas(600,600,WEBGL);background("#f4ecd8");'
FILL = (
    'brush.noStroke();brush.fillBleed(0.3);brush.fillTexture(0.4,0.4);brush.fill("#d9485a",120);'
    "brush.circle(%d,%d,%d);"
)
SKETCHES = {
    "webgl_only": HEAD + "}",
    "brush_1_small_fill": HEAD + FILL % (0, 0, 40) + "}",
    "brush_1_big_fill": HEAD + FILL % (0, 0, 250) + "}",
    "brush_5_small_fills": HEAD + "".join(FILL % (x, 0, 40) for x in range(-200, 201, 100)) + "}",
    "brush_5_big_fills": HEAD + "".join(FILL % (x, 0, 250) for x in range(-200, 201, 100)) + "}",
    "brush_1_line": HEAD + 'brush.set("HB","#333",1);brush.line(-200,0,200,0);}',
}


async def main() -> None:
    reps = int(sys.argv[1]) if len(sys.argv) > 1 else 3
    density = float(sys.argv[2]) if len(sys.argv) > 2 else 0.5
    sketches = dict(SKETCHES)
    for i, reply in enumerate(json.loads(Path("/tmp/replies.json").read_text())[:6]):
        sketch, violations = check_reply(reply)
        if not violations:
            sketches[f"reply_{i}"] = sketch
    config = RenderConfig(size=600, pixel_density=density, workers=1, time_limit_s=60)
    async with RenderPool(config) as pool:
        await pool.render(SKETCHES["brush_1_small_fill"])  # warm-up
        for name, sketch in sketches.items():
            rows = []
            for seed in range(reps):
                before, started = cpu(), time.perf_counter()
                canvas = await pool.render(sketch, seed=seed)
                rows.append((diff(before, cpu()), time.perf_counter() - started))
            spent = {k: round(statistics.median(r[0].get(k, 0) for r in rows), 2)
                     for k in ("gpu", "renderer", "other")}  # fmt: skip
            wall = round(statistics.median(r[1] for r in rows), 2)
            print(f"{name:20s} {canvas.status.value:9s} {spent} wall {wall}", flush=True)


asyncio.run(main())
