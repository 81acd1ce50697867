"""`matting` paints the samples as training paints them, once over their own paper and once more
over a reward set's second paper (`RewardSet.second_paper`), and times both side by side: the
browser's CPU-seconds a reply costs with the twin against without it (`twin_cpu_ratio`), and
the matting reading's scoring time (`matting_score_ms`).

    python -m watercolor.bench matting_cost [--repeat 2]

Only sets that read opacity (conf/reward/show_through.yaml) pay for the twin.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import time
from dataclasses import replace
from functools import partial

from watercolor.bench.common import failures, painting, sample_sketches, training_density
from watercolor.canvas import Canvas
from watercolor.config import reward_set
from watercolor.render.pool import RenderConfig, RenderPool
from watercolor.rewards.matting import paint_opacity

SET = "show_through"


async def painted(replies: list[str], config: RenderConfig, second_paper: str | None) -> list:
    task = painting()
    async with RenderPool(config, task.harness) as pool:
        episode = partial(task.episode, pool, second_paper=second_paper)
        return [await episode(reply, seed=0) for reply in replies]  # one at a time: own CPU


def cpu_s(canvas: Canvas) -> float:
    """The browser CPU a reply cost: its render, and its twin's if painted."""
    twin = canvas.twin.timings.get("cpu_ms", 0.0) if canvas.twin is not None else 0.0
    return (canvas.timings.get("cpu_ms", 0.0) + twin) / 1000


def bench_matting(args: argparse.Namespace) -> dict:
    replies = [f"```javascript\n{s}\n```" for s in sample_sketches(args.sketches)] * args.repeat
    config = RenderConfig(pixel_density=training_density(), workers=1, time_limit_s=args.time_limit)
    second = reward_set(SET).second_paper
    single = asyncio.run(painted(replies, config, None))
    twinned = asyncio.run(painted(replies, config, second))
    if failed := failures(single) + failures(twinned):
        raise RuntimeError(f"samples failed to paint: {failed}")
    figures = {
        "replies": len(replies),
        "single_cpu_s": round(statistics.fmean(map(cpu_s, single)), 2),
        "twin_cpu_s": round(statistics.fmean(map(cpu_s, twinned)), 2),
    }
    figures["twin_cpu_ratio"] = round(figures["twin_cpu_s"] / figures["single_cpu_s"], 3)
    times = []
    for canvas in twinned:
        fresh = replace(canvas, png=canvas.png)  # a new Canvas: its pixels decoded again
        start = time.perf_counter()
        paint_opacity(fresh)
        times.append((time.perf_counter() - start) * 1000)
    figures["matting_score_ms"] = round(statistics.fmean(times), 2)
    return figures
