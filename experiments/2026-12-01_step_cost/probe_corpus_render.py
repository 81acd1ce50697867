"""Wall time of each corpus sketch (N per kind) on one warm page at pixel density 0.5.
python experiments/2026-12-01_step_cost/probe_corpus_render.py 10 > corpus_render_density05.jsonl
"""

import asyncio
import json
import random
import sys
import time

from playwright.async_api import async_playwright

from watercolor.render.browser import launch
from watercolor.render.page import WarmPage
from watercolor.render.pool import RenderConfig
from watercolor.tasks.painting.gate import extract_sketch
from watercolor.tasks.painting.painter.corpus import make_example
from watercolor.tasks.painting.prompts import prompts as task_prompts


async def main():
    cfg = RenderConfig(pixel_density=0.5)
    pool = task_prompts("train")
    rows = []
    async with async_playwright() as pw:
        b = await launch(pw, executable=cfg.chromium, js_heap_mb=cfg.js_heap_mb)
        page = await WarmPage.open(b, cfg.size)
        for kind in ["layered", "flat", "then_throw", "stroke_only"]:
            for i in range(int(sys.argv[1])):
                rng = random.Random(f"p:{kind}:{i}")
                ex = make_example(kind, rng.choice(pool), rng)
                code = extract_sketch(ex.reply)
                await page.load()
                t = time.perf_counter()
                c = await page.run(
                    code,
                    seed=0,
                    density=cfg.pixel_density,
                    max_frames=cfg.max_frames,
                    limit_s=cfg.time_limit_s,
                )
                dt = time.perf_counter() - t
                rows.append(
                    dict(
                        kind=kind,
                        q=ex.quality,
                        s=round(dt, 3),
                        fills=code.count("brush.fill("),
                        shapes=sum(
                            code.count(k)
                            for k in [
                                "brush.circle(",
                                "brush.rect(",
                                "brush.beginShape(",
                                "brush.polygon(",
                            ]
                        ),
                        bleed="fillBleed" in code and "fillBleed(0)" not in code,
                        tex="fillTexture" in code and "fillTexture(0, 0)" not in code,
                        lines=code.count("\n"),
                        status=c.status,
                        sheet=("320, 320" in code or "320, -3" in code),
                        prompt=ex.prompt,
                    )
                )
        await b.close()
    for r in rows:
        print(json.dumps(r))


asyncio.run(main())
