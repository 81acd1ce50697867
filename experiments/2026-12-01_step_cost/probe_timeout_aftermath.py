"""A GPU-heavy sketch past its limit, then ordinary ones, on a one-worker pool: statuses and
where each one's time went.  python experiments/2026-12-01_step_cost/probe_timeout_aftermath.py 5
"""

import asyncio
import sys
import time

from watercolor.render.pool import RenderConfig, RenderPool

HEAVY = """function setup() {
  createCanvas(600, 600, WEBGL);
  background("#f4ecd8");
  brush.fillBleed(0.4); brush.fillTexture(0.8, 0.5);
  for (let i = 0; i < 400; i++) { brush.fill(120, 30, 50, 80); brush.rect(-300, -300, 600, 600); }
}"""
NORMAL = """function setup() {
  createCanvas(600, 600, WEBGL);
  background("#f4ecd8");
  brush.scaleBrushes(3);
  brush.noStroke();
  brush.fill(130, 95, 45, 255);
  brush.beginShape(0.5);
  brush.vertex(-320, -325);
  brush.vertex(0, -330);
  brush.vertex(320, -290);
  brush.vertex(320, 320);
  brush.vertex(-320, 320);
  brush.endShape(CLOSE);
}"""


async def main():
    async with RenderPool(
        RenderConfig(pixel_density=0.5, workers=1, time_limit_s=float(sys.argv[1]))
    ) as pool:
        for name, sk in [
            ("normal", NORMAL),
            ("heavy", HEAVY),
            ("normal", NORMAL),
            ("normal", NORMAL),
            ("heavy", HEAVY),
            ("heavy", HEAVY),
            ("normal", NORMAL),
        ]:
            t = time.perf_counter()
            c = await pool.render(sk)
            print(
                name,
                c.status,
                round(time.perf_counter() - t, 2),
                {k: round(v) for k, v in c.timings.items()},
                c.errors[:1],
                flush=True,
            )


asyncio.run(main())
