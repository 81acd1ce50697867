"""`score` renders the samples once and times every reward set's scoring of each canvas (PNG
decode included) next to that canvas's render time: `score_to_render` (goal <= 0.05).
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import time

from watercolor.bench.common import (
    sample_sketches,
)
from watercolor.bench.render_modes import pooled
from watercolor.canvas import Canvas
from watercolor.config import reward_sets
from watercolor.render.pool import RenderConfig


def bench_score(args: argparse.Namespace) -> dict:
    sketches = sample_sketches(args.sketches) * args.repeat
    config = RenderConfig(size=600, workers=1, time_limit_s=args.time_limit)
    _, canvases = asyncio.run(pooled(sketches, config))
    canvases = [c for c in canvases if c.ok]
    render_ms = statistics.fmean(c.timings["draw_ms"] for c in canvases)  # own time, no queueing
    figures = {"canvases": len(canvases), "render_ms": round(render_ms, 1)}
    for name, rewards in reward_sets(offline=True).items():
        times = []
        for canvas in canvases:
            fresh = Canvas(canvas.status, png=canvas.png, sketch=canvas.sketch)  # decode again
            start = time.perf_counter()
            rewards.score(fresh, prompt="paint a coral hibiscus in watercolour")
            times.append((time.perf_counter() - start) * 1000)
        figures[f"{name}_score_ms"] = round(statistics.fmean(times), 2)
        figures[f"{name}_score_to_render"] = round(statistics.fmean(times) / render_ms, 4)
    figures["score_to_render"] = max(v for k, v in figures.items() if k.endswith("_to_render"))
    return figures
