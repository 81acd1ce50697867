"""WebGL painted by SwiftShader (CPU) and by a GPU through ANGLE, side by side in one run.

    python -m watercolor.bench.webgl --modes swiftshader,egl,vulkan [--rich] [--replies FILE]
        [--chromium PATH] [--workers N] [--limit N] [--gpu-vendor NVIDIA] [--json]

Each mode (`RenderConfig.webgl`, flags in watercolor/render/browser.py) starts the render pool
and first asks what WebGL a fresh page really gets (`RenderPool.webgl_renderer`): Chromium
paints with SwiftShader when a GPU driver does not start, so a GPU mode whose renderer string
does not name NVIDIA (`--gpu-vendor`; `on_gpu` says), or whose browser does not start, is
reported with the reason (`skipped`) and not measured; the run goes on with the next mode. A
measured mode paints one untimed warm-up sketch per worker (shaders compiled, caches filled),
then each tier, timed:
  sketches  the task's samples (watercolor/tasks/painting/samples/: the tiny painter's kind of
            reply) and the replies of `--replies FILE` (a JSON list of reply strings), with the
            training renderer (conf/renderer/local.yaml: its pixel density, its 10 CPU-s limit);
  rich      with `--rich`, the rich tier (watercolor/render/bench_sketches/rich/: what frontier
            models write) with the real models' renderer (conf/renderer/rich.yaml: 60 CPU-s).

With `--json` the last line printed is one JSON object holding every figure, and `environment`:
the variables that tell the GPU's drivers where to be found (glvnd's EGL vendor files, the Vulkan
ICD, LD_LIBRARY_PATH), as this run saw. What each figure means, and why the per-process split is
read over the pool's own browsers: the comments at `paint` and `lanes_cpu`.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import sys
import time
from dataclasses import replace
from pathlib import Path

import numpy as np
from hydra.utils import instantiate

from watercolor.bench.common import (
    RICH_DIR,
    failures,
    painting,
    process_cpu,
    sample_sketches,
    show,
)
from watercolor.canvas import Canvas
from watercolor.config import compose_train, reward_set
from watercolor.render import RenderConfig, RenderPool
from watercolor.render.browser import WEBGL_FLAGS
from watercolor.rewards.reward_set import RewardSet
from watercolor.tasks.painting import SAMPLES_DIR
from watercolor.tasks.painting.gate import extract_sketch

BASELINE = "swiftshader"  # what every other mode is compared with
GPU_VENDOR = "NVIDIA"  # a GPU mode counts only when its WebGL renderer names this (--gpu-vendor)
REWARD_SET = "fine_grained"  # training's default set
# Set before measuring: a GPU's canvas "scores the same" when its fine_grained total (in [0, 1])
# is within this of SwiftShader's. It is below the 0.028 by which rendering at half the pixel
# density moved any set's score (experiments/2026-11-30_render_bench/), a change training took.
SCORE_TOLERANCE = 0.02
# Where glvnd and the Vulkan loader look for the GPU's drivers (reported, never set here).
DRIVER_ENVIRONMENT = ("LD_LIBRARY_PATH", "__EGL_VENDOR_LIBRARY_DIRS",
                      "__EGL_VENDOR_LIBRARY_FILENAMES", "VK_DRIVER_FILES", "VK_ICD_FILENAMES",
                      "NVIDIA_VISIBLE_DEVICES", "NVIDIA_DRIVER_CAPABILITIES")  # fmt: skip

Tiers = dict[str, tuple[RenderConfig, list[str]]]


def sketch_tiers(args: argparse.Namespace) -> Tiers:
    """tier -> (the renderer it paints with, its sketches), each cut to `--limit`."""
    sketches = sample_sketches(SAMPLES_DIR) + reply_sketches(args.replies)
    tiers = {"sketches": (renderer_config("local", args), sketches[: args.limit])}
    if args.rich:
        tiers["rich"] = (renderer_config("rich", args), sample_sketches(RICH_DIR)[: args.limit])
    return tiers


def reply_sketches(path: Path | None) -> list[str]:
    """The sketches of a JSON list of replies (a reply without one is left out)."""
    replies = json.loads(path.read_text("utf-8")) if path else []
    return [sketch for sketch in map(extract_sketch, replies) if sketch]


def renderer_config(option: str, args: argparse.Namespace) -> RenderConfig:
    """conf/renderer/<option>.yaml's RenderConfig, with `--workers` and `--chromium` if given."""
    config = instantiate(compose_train([f"renderer={option}"]).renderer)
    chromium, workers = args.chromium or config.chromium, args.workers or config.workers
    return replace(config, chromium=chromium, workers=workers)


async def measure_mode(
    mode: str, tiers: Tiers, vendor: str = GPU_VENDOR
) -> tuple[dict, dict[str, list[Canvas]]]:
    """One mode's figures, and its canvases per tier; only `skipped` figures and no canvases
    when its browser does not start or (a GPU mode) its WebGL renderer does not name `vendor`."""
    figures: dict = {}
    canvases = {}
    try:
        for tier, (config, sketches) in tiers.items():
            async with RenderPool(replace(config, webgl=mode), painting().harness) as pool:
                figures |= await what_paints(pool, mode, vendor)
                if "skipped" in figures:
                    return figures, {}
                measured, canvases[tier] = await paint(pool, sketches)
            figures |= {f"{tier}_{name}": value for name, value in measured.items()}
    except Exception as error:  # anything that stops a mode is reported: the run goes on
        return figures | {"skipped": f"{type(error).__name__}: {error}"}, {}
    return figures, canvases


async def what_paints(pool: RenderPool, mode: str, vendor: str) -> dict:
    """The WebGL renderer a page of `pool` gets, whether it names `vendor` (`on_gpu`), and
    `skipped` when a GPU mode's does not."""
    info = await pool.webgl_renderer()
    on_gpu = vendor.lower() in f"{info['vendor']} {info['renderer']}".lower()
    found = {"webgl_context": info["context"], "vendor": info["vendor"]}
    found |= {"renderer": info["renderer"], "on_gpu": on_gpu}
    if mode != BASELINE and not on_gpu:
        got = info["renderer"] or f"no WebGL context ({info['context']})"
        found["skipped"] = f"WebGL is not on the {vendor} GPU: the page got {got}"
    return found


# Per tier (keys `<tier>_...`): `per_s`, renders per second of wall time; `per_core_s`, renders per
# CPU-second of the lanes' Chromium processes (read with common.process_cpu before and after;
# `cpu_s` splits a render's share by process: `gpu_s` is SwiftShader rasterising, or the GPU
# driver's CPU work and waits); `sketch_cpu_s`, a render's CPU as the pool meters it for the time
# limit (watchdog.CpuMeter); `relaunches` (a browser retired after a time-out: its CPU is missing
# from `per_core_s`). A GPU mode is also compared with SwiftShader's canvases of the same sketches:
# `per_s_ratio` and `per_core_s_ratio` (GPU / SwiftShader), `status_agreement` (share of sketches
# with the same status), the fine_grained reward set's totals (`score_max_diff`, `score_mean_diff`,
# `score_within_tolerance`: share of the sketches both scored whose totals part by at most
# SCORE_TOLERANCE), and the pixels of canvases both painted (`max_differing_pixel_share`: the
# largest share of pixels differing in any channel; `max_channel_difference`, out of 255).
async def paint(pool: RenderPool, sketches: list[str]) -> tuple[dict, list[Canvas]]:
    """Render `sketches` on the warm pool (after an untimed warm-up sketch per lane): throughput
    per second of wall time and per CPU-second of its browsers."""
    await pool.render_batch(sketches[:1] * len(pool.lanes))
    before = lanes_cpu(pool)
    start = time.perf_counter()
    canvases = await pool.render_batch(sketches)
    wall = time.perf_counter() - start
    spent = cpu_spent(before, lanes_cpu(pool))  # a relaunched browser's processes count whole
    n, cpu = len(sketches), sum(spent.values())
    metered_ms = statistics.fmean(c.timings.get("cpu_ms", 0.0) for c in canvases)
    return {
        "per_s": round(n / wall, 3),
        "per_core_s": round(n / cpu, 3) if cpu > 0 else None,  # None without /proc
        "cpu_s": {kind: round(seconds / n, 3) for kind, seconds in spent.items()},
        "sketch_cpu_s": round(metered_ms / 1000, 3),
        "relaunches": pool.launches - len(pool.lanes),
        "failures": failures(canvases),
    }, canvases


# render_modes.py's `where_the_time_goes` launches its own SwiftShader browser, so the per-process
# split here is read over the pool's own browsers instead.
def lanes_cpu(pool: RenderPool) -> dict[int, tuple[str, float]]:
    """common.process_cpu over every lane's browser: {pid: (kind, CPU seconds so far)}."""
    found = {}
    for lane in pool.lanes:
        found |= process_cpu(lane.browser_pid())
    return found


def cpu_spent(before: dict, after: dict) -> dict[str, float]:
    """CPU seconds each kind of Chromium process spent between two `lanes_cpu` readings."""
    spent = dict.fromkeys(("gpu_s", "renderer_s", "browser_s"), 0.0)
    for pid, (kind, seconds) in after.items():
        spent[kind] += seconds - before.get(pid, (kind, 0.0))[1]
    return spent


def versus_baseline(
    canvases: list[Canvas], baseline: list[Canvas], rewards: RewardSet
) -> dict[str, float | int | None]:
    """How far one mode's canvases are from SwiftShader's, sketch by sketch: status, fine_grained
    total, pixels."""
    pairs = list(zip(canvases, baseline, strict=True))
    scores = zip(rewards.score_batch(canvases), rewards.score_batch(baseline), strict=True)
    diffs = [abs(a.total - b.total) for a, b in scores if None not in (a.total, b.total)]
    pixels = [pixel_difference(a, b) for a, b in pairs if a.ok and b.ok]
    return {
        "status_agreement": round(statistics.fmean(a.status == b.status for a, b in pairs), 3),
        "scored_by_both": len(diffs),
        "score_max_diff": round(max(diffs), 4) if diffs else None,
        "score_mean_diff": round(statistics.fmean(diffs), 4) if diffs else None,
        "score_within_tolerance": (
            round(statistics.fmean(d <= SCORE_TOLERANCE for d in diffs), 3) if diffs else None
        ),
        "max_differing_pixel_share": round(max(s for s, _ in pixels), 5) if pixels else None,
        "max_channel_difference": max(d for _, d in pixels) if pixels else None,
    }


def pixel_difference(a: Canvas, b: Canvas) -> tuple[float, int]:
    """(share of pixels that differ in any channel, largest channel difference) of two canvases;
    canvases of different sizes differ everywhere."""
    if a.rgba.shape != b.rgba.shape:
        return 1.0, 255
    delta = np.abs(a.rgba.astype(np.int16) - b.rgba.astype(np.int16))
    return float(delta.max(axis=-1).astype(bool).mean()), int(delta.max())


def compare(figures: dict, canvases: dict, tiers: Tiers) -> None:
    """Add each measured GPU mode's ratios and agreement with the measured baseline."""
    if not canvases.get(BASELINE):
        return
    rewards, base = reward_set(REWARD_SET), figures[BASELINE]
    for mode, painted in canvases.items():
        if mode == BASELINE or not painted:
            continue
        for tier in tiers:
            found = figures[mode]
            for name in ("per_s", "per_core_s"):
                ours, theirs = found[f"{tier}_{name}"], base[f"{tier}_{name}"]
                ratio = round(ours / theirs, 3) if ours and theirs else None
                found[f"{tier}_{name}_ratio"] = ratio
            agreement = versus_baseline(painted[tier], canvases[BASELINE][tier], rewards)
            found |= {f"{tier}_{name}": value for name, value in agreement.items()}


def bench(args: argparse.Namespace) -> dict:
    tiers = sketch_tiers(args)
    figures: dict = {
        "sketches": {tier: len(sketches) for tier, (_, sketches) in tiers.items()},
        "workers": {tier: config.workers for tier, (config, _) in tiers.items()},
        "chromium": args.chromium,
        "gpu_vendor": args.gpu_vendor,
        "reward_set": REWARD_SET,
        "score_tolerance": SCORE_TOLERANCE,
        "environment": {k: os.environ[k] for k in DRIVER_ENVIRONMENT if k in os.environ},
    }
    canvases = {}
    for mode in args.modes:
        figures[mode], canvases[mode] = asyncio.run(measure_mode(mode, tiers, args.gpu_vendor))
        print(f"--- {mode}", flush=True)
        show(figures[mode])  # as soon as measured
    compare(figures, canvases, tiers)
    return figures


def webgl_modes(text: str) -> list[str]:
    """`--modes`: a comma-separated list of RenderConfig.webgl values."""
    modes = [mode.strip() for mode in text.split(",") if mode.strip()]
    unknown = [mode for mode in modes if mode not in WEBGL_FLAGS]
    if unknown or not modes:
        raise argparse.ArgumentTypeError(f"unknown {unknown}; choose from {sorted(WEBGL_FLAGS)}")
    return modes


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="python -m watercolor.bench.webgl", description=__doc__.split("\n")[0]
    )
    parser.add_argument(
        "--modes", type=webgl_modes, default=[BASELINE, "egl", "vulkan"],
        help=f"comma-separated, of {sorted(WEBGL_FLAGS)} (default: all)",
    )  # fmt: skip
    parser.add_argument("--rich", action="store_true", help="also the rich tier (rich.yaml)")
    parser.add_argument("--replies", type=Path, help="a JSON list of reply strings to paint too")
    parser.add_argument("--chromium", help="browser executable (default: /usr/bin/chromium)")
    parser.add_argument(
        "--workers", type=int, help="the pool's lanes, a browser each (default: the renderer's)"
    )
    parser.add_argument("--limit", type=int, help="only the first N sketches of each tier")
    parser.add_argument(
        "--gpu-vendor", default=GPU_VENDOR,
        help=f"measure a GPU mode only if its WebGL renderer names this (default: {GPU_VENDOR})",
    )  # fmt: skip
    parser.add_argument("--json", action="store_true", help="end with one JSON object")
    args = parser.parse_args(argv)
    if args.limit is not None and args.limit < 1:
        parser.error("--limit must be at least 1")
    return args


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    figures = bench(args)
    for mode in args.modes:
        print(f"=== {mode}")
        show(figures[mode])
    if args.json:
        print(json.dumps(figures))
    return 0


if __name__ == "__main__":
    sys.exit(main())
