"""`render` renders the same layered 600x600 sketches (the task's samples) four ways on this
machine, in one run:
  fresh_page   a new page per sketch in one browser, one after another (the anchor's way);
  floor        each sketch alone on a page that already has p5 + p5.brush loaded: only the
               sketch's own JS, rasterisation and pixel read-back are timed;
  pool_wN      the warm pool with N workers rendering the whole batch;
and prints throughput, `speedup_vs_fresh_page` (pool_w1 / fresh_page throughput, and the same
for the best pool), `overhead_ratio` (pool_w1 wall time per sketch / floor per sketch: what the
pool adds beyond the unavoidable work), `scaling_1_to_2` (pool_w2 / pool_w1 throughput). With
`--density D` it also renders at pixel density D (same sketch coordinates, fewer pixels) and
reports that speed-up and how far every reward set's score moved. Each tier also reports
`where_the_time_goes`: the CPU seconds a sketch costs, alone on a warm page, in each Chromium
process (`gpu_s`: SwiftShader rasterising WebGL; `renderer_s`: p5 and p5.brush's JavaScript;
`browser_s`) and the GPU process's share. With `--rich` it also renders the rich tier
(`watercolor/render/bench_sketches/rich/`: 100-120-line sketches with dozens of washes,
`wash`, `set`, `flowLine`, `field`, of the size frontier models write for this task) at the
training pixel density (`conf/renderer/local.yaml`).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import time
from dataclasses import replace

from playwright.async_api import async_playwright

from watercolor.bench.common import (
    RICH_DIR,
    failures,
    painting,
    process_cpu,
    sample_sketches,
    show,
    training_density,
)
from watercolor.canvas import Canvas
from watercolor.config import reward_sets
from watercolor.render.browser import launch
from watercolor.render.page import WarmPage
from watercolor.render.pool import RenderConfig, RenderPool
from watercolor.render.watchdog import find_process


async def page_per_sketch(
    sketches: list[str], config: RenderConfig, *, time_page_setup: bool
) -> tuple[float, list[Canvas]]:
    """A new page (context + harness load) per sketch in one browser, one after another.

    With `time_page_setup` the whole loop is timed (the anchor's way, `fresh_page`); without,
    only each sketch's own run on its already loaded page (the `floor`).
    """
    async with async_playwright() as playwright:
        browser = await launch(playwright, executable=config.chromium, js_heap_mb=config.js_heap_mb)
        try:
            wall, canvases = 0.0, []
            for sketch in sketches:
                start = time.perf_counter()
                page = await WarmPage.open(browser, config.size, painting().harness)
                if not time_page_setup:
                    start = time.perf_counter()
                canvases.append(await run_on(page, sketch, config))
                wall += time.perf_counter() - start
                await page.close()
            return wall, canvases
        finally:
            await browser.close()


async def run_on(page: WarmPage, sketch: str, config: RenderConfig) -> Canvas:
    return await page.run(
        sketch,
        seed=0,
        density=config.pixel_density,
        max_frames=config.max_frames,
        limit_s=config.time_limit_s,
    )


async def pooled(sketches: list[str], config: RenderConfig) -> tuple[float, list[Canvas]]:
    """The warm pool rendering the whole batch (browser start and warm-up not timed)."""
    async with RenderPool(config, painting().harness) as pool:
        start = time.perf_counter()
        canvases = await pool.render_batch(sketches)
        return time.perf_counter() - start, canvases


async def where_the_time_goes(sketches: list[str], config: RenderConfig) -> dict[str, float]:
    """Mean CPU seconds per sketch in each Chromium process, each sketch alone on a warm page."""
    marker = f"--watercolor-bench-{os.getpid()}"
    totals = {"gpu_s": 0.0, "renderer_s": 0.0, "browser_s": 0.0}
    async with async_playwright() as playwright:
        browser = await launch(
            playwright, executable=config.chromium, js_heap_mb=config.js_heap_mb, marker=marker
        )
        try:
            page = await WarmPage.open(browser, config.size, painting().harness)
            root = find_process(marker)
            for sketch in sketches:
                await page.load()
                before = process_cpu(root)
                await run_on(page, sketch, config)
                after = process_cpu(root)
                for pid, (kind, seconds) in after.items():
                    totals[kind] += seconds - before.get(pid, (kind, 0.0))[1]
        finally:
            await browser.close()
    split = {kind: round(seconds / len(sketches), 3) for kind, seconds in totals.items()}
    split["gpu_share"] = round(totals["gpu_s"] / max(sum(totals.values()), 1e-9), 3)
    return split


async def render_figures(sketches: list[str], config: RenderConfig) -> dict:
    n = len(sketches)
    runs = {
        "fresh_page": await page_per_sketch(sketches, config, time_page_setup=True),
        "floor": await page_per_sketch(sketches, config, time_page_setup=False),
        "pool_w1": await pooled(sketches, replace(config, workers=1)),
        "pool_w2": await pooled(sketches, replace(config, workers=2)),
    }
    figures = {f"{name}_per_s": round(n / wall, 3) for name, (wall, _) in runs.items()}
    wall = {name: w for name, (w, _) in runs.items()}
    figures |= {
        "sketches": n,
        "size": config.size,
        "pixel_density": config.pixel_density,
        "speedup_vs_fresh_page": round(wall["fresh_page"] / wall["pool_w1"], 3),
        "best_speedup_vs_fresh_page": round(
            wall["fresh_page"] / min(wall["pool_w1"], wall["pool_w2"]), 3
        ),
        "overhead_ratio": round(wall["pool_w1"] / wall["floor"], 3),
        "overhead_ratio_w2": round(wall["pool_w2"] * 2 / wall["floor"], 3),
        "scaling_1_to_2": round(wall["pool_w1"] / wall["pool_w2"], 3),
        "failures": [f for _, canvases in runs.values() for f in failures(canvases)],
    }
    figures["where_the_time_goes"] = await where_the_time_goes(sketches, config)
    return figures | {"_canvases": runs["pool_w1"][1]}


def score_drift(full: list[Canvas], low: list[Canvas]) -> dict[str, float]:
    """Largest |score(full density) - score(low density)| per reward set over the sketches."""
    drift = {}
    for name, rewards in reward_sets(offline=True).items():
        pairs = zip(rewards.score_batch(full), rewards.score_batch(low), strict=True)
        diffs = [abs(a.total - b.total) for a, b in pairs if None not in (a.total, b.total)]
        drift[name] = round(max(diffs, default=float("nan")), 4)
    return drift


def bench_render(args: argparse.Namespace) -> dict:
    sketches = sample_sketches(args.sketches) * args.repeat
    config = RenderConfig(size=600, time_limit_s=args.time_limit)
    figures = asyncio.run(render_figures(sketches, config))
    full = figures.pop("_canvases")
    show(figures)  # as soon as measured: the density pass takes as long again
    if args.density:
        low = asyncio.run(render_figures(sketches, replace(config, pixel_density=args.density)))
        low_canvases = low.pop("_canvases")
        figures["density"] = {
            "pixel_density": args.density,
            "speedup_vs_full_density_pool_w1": round(
                low["pool_w1_per_s"] / figures["pool_w1_per_s"], 3
            ),
            "max_score_change": score_drift(full, low_canvases),
            "figures": low,
        }
    if args.rich:
        density = training_density()
        rich = asyncio.run(
            render_figures(sample_sketches(RICH_DIR), replace(config, pixel_density=density))
        )
        rich.pop("_canvases")
        figures["rich"] = rich
    return figures
