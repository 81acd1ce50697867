"""Performance measured side by side in one run, printed as ratios (never asserted in tests).

    python -m watercolor.bench render [--json] [--repeat 2] [--density 0.5] [--rich]
    python -m watercolor.bench score [--json]
    python -m watercolor.bench train [--steps 6] [--smoke] [--jobs 2] [--set K=V ...] [--json]
    python -m watercolor.bench remote [--servers 2] [--server-workers 1] [--repeat 2] [--json]
    python -m watercolor.bench webgl --modes swiftshader,egl,vulkan [--rich]   # bench_webgl.py
    python -m watercolor.bench gpu [--dense] [--json]   # on a CUDA machine: bench_gpu.py

`render` renders the same layered 600x600 sketches (the task's samples) four ways on this
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

`score` renders the samples once and times every reward set's scoring of each canvas (PNG
decode included) next to that canvas's render time: `score_to_render` (goal <= 0.05).

`train` runs the same few GRPO steps of the tiny default (`--smoke`: the smoke model) twice as
`python -m watercolor.train` in scratch directories: `sequential` (`overlap_rendering=false`,
the default: TRL generates the batch, then the rewards paint it) and `overlapped` (the opt-in
watercolor/rollout.py: each reply painted as soon as it is generated). Each step's wall time is
split into generation, the render + score time the trainer still waited for after generation
(`reward_wait_s`) and the rest (optimisation, logging); `render_score_fraction` is that wait
over the step (goal <= 0.25 on CPU; the anchor: 0.70-0.80) and `overlap_speedup` the sequential
step time over the overlapped one; every mode reports `steps_per_hour` and each phase's share of
a step. With `--jobs N` it also runs N overlapped jobs at once (`threads=1` each, as a sweep on
`hydra/launcher=local_parallel` does) and reports their combined steps per hour
(`jobsN_throughput_ratio`: over one job alone). With `--threads N` it also runs the sequential
steps with `threads=N` torch threads and reports `threadsN_*` and their ratios over the default
(`threadsN_step_s_ratio`, `threadsN_cpu_total_s_ratio`, ...). Sampling is seeded, but the runs'
replies differ once their weights do. Every mode also reports `cpu_*`: a step's CPU-seconds over
every process of the job (trainer, Chromium, Playwright's node driver) and its parts, from the
`step_cpu/*` metrics each step logs (`watercolor/step_cpu.py`): generation, update (advantages,
reference log-probs, loss, backward, optimiser, with TRL's bookkeeping between them),
after_update, logging (metrics, and each step's canvases, sketches and rollouts table, as a
default run logs them), render (Chromium + driver + the trainer driving them), scoring.

`remote` starts `--servers` local environment servers (`python -m watercolor.env.serve` on
loopback ports, `--server-workers` pages each, at `--server-density`, by default the training
pixel density) and paints the samples' replies through `RemotePainter` (renderer=remote) on the
first server, then on the first two, ... in one run: `remote_sN_per_s` (renders per second
over N servers; each server's gate, render and score included) and `scaling_1_to_N`. Local
servers share this machine's cores: on 2 cores, two servers cannot do more than one server with
two workers; the figure says what the client and the fleet add, not what separate machines
would give.

With `--json` the last line printed is one JSON object holding every figure.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import importlib
import json
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path

import httpx
from playwright.async_api import async_playwright

from watercolor import usage
from watercolor.canvas import Canvas
from watercolor.config import compose_config, reward_set, reward_set_names
from watercolor.render.browser import launch
from watercolor.render.page import WarmPage
from watercolor.render.pool import RenderConfig, RenderPool
from watercolor.render.watchdog import cpu_seconds, descendants, find_process
from watercolor.tasks.painting import SAMPLES_DIR
from watercolor.tasks.painting.gate import extract_sketch
from watercolor.tasks.painting.harness import harness

RICH_DIR = Path(__file__).parent / "render" / "bench_sketches" / "rich"


def sample_sketches(folder: Path) -> list[str]:
    return [extract_sketch(p.read_text()) or "" for p in sorted(folder.glob("*.js"))]


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
                page = await WarmPage.open(browser, config.size, harness())
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
    async with RenderPool(config, harness()) as pool:
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
            page = await WarmPage.open(browser, config.size, harness())
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


def process_cpu(root: int | None) -> dict[int, tuple[str, float]]:
    """{pid: (kind, CPU seconds so far)} for the browser `root` and every process below it."""
    found = {}
    for pid in [root, *descendants(root)] if root is not None else []:
        with contextlib.suppress(OSError, ValueError, IndexError):
            command = Path(f"/proc/{pid}/cmdline").read_bytes()
            kind = "gpu_s" if b"--type=gpu-process" in command else "browser_s"
            kind = "renderer_s" if b"--type=renderer" in command else kind
            found[pid] = (kind, cpu_seconds([pid]))
    return found


def failures(canvases: list[Canvas]) -> list[str]:
    return [f"{c.status}: {'; '.join(c.errors)[:200]}" for c in canvases if not c.ok]


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


def training_density() -> float:
    """The pixel density training renders at (conf/renderer/local.yaml, the default renderer)."""
    return compose_config("train").renderer.pixel_density


def score_drift(full: list[Canvas], low: list[Canvas]) -> dict[str, float]:
    """Largest |score(full density) - score(low density)| per reward set over the sketches."""
    drift = {}
    for name in reward_set_names(offline=True):
        rewards = reward_set(name)
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


def bench_score(args: argparse.Namespace) -> dict:
    sketches = sample_sketches(args.sketches) * args.repeat
    config = RenderConfig(size=600, workers=1, time_limit_s=args.time_limit)
    _, canvases = asyncio.run(pooled(sketches, config))
    canvases = [c for c in canvases if c.ok]
    render_ms = statistics.fmean(c.timings["draw_ms"] for c in canvases)  # own time, no queueing
    figures = {"canvases": len(canvases), "render_ms": round(render_ms, 1)}
    for name in reward_set_names(offline=True):
        rewards, times = reward_set(name), []
        for canvas in canvases:
            fresh = Canvas(canvas.status, png=canvas.png, sketch=canvas.sketch)  # decode again
            start = time.perf_counter()
            rewards.score(fresh, prompt="paint a coral hibiscus in watercolour")
            times.append((time.perf_counter() - start) * 1000)
        figures[f"{name}_score_ms"] = round(statistics.fmean(times), 2)
        figures[f"{name}_score_to_render"] = round(statistics.fmean(times) / render_ms, 4)
    figures["score_to_render"] = max(v for k, v in figures.items() if k.endswith("_to_render"))
    return figures


def bench_train(args: argparse.Namespace) -> dict:
    """The same few GRPO steps painting after generation, overlapped with it, and (with
    `--jobs 2`) as two overlapped jobs at once; steps per hour of each, side by side."""
    figures = {}
    modes = [("sequential", False, 1, []), ("overlapped", True, 1, [])]
    modes += [(f"jobs{args.jobs}", True, args.jobs, [])] if args.jobs > 1 else []
    if args.threads is not None:
        modes.append((f"threads{args.threads}", False, 1, [f"threads={args.threads}"]))
    for mode, overlap, jobs, overrides in modes:
        split = train_split(args, overlap, jobs, overrides)
        figures |= {f"{mode}_{name}": value for name, value in split.items()}
    figures["overlap_speedup"] = round(
        figures["sequential_step_s"] / figures["overlapped_step_s"], 3
    )
    if args.threads is not None:  # the same sequential steps on N torch threads, over default
        for name in ("step_s", "cpu_total_s", "cpu_generation_s", "cpu_update_s"):
            figures[f"threads{args.threads}_{name}_ratio"] = round(
                figures[f"threads{args.threads}_{name}"] / figures[f"sequential_{name}"], 3
            )
    if args.jobs > 1:
        figures[f"jobs{args.jobs}_throughput_ratio"] = round(
            figures[f"jobs{args.jobs}_steps_per_hour"] / figures["overlapped_steps_per_hour"], 3
        )
    return figures


def train_split(
    args: argparse.Namespace, overlap: bool, jobs: int = 1, overrides: Sequence[str] = ()
) -> dict:
    """Mean step split of `jobs` scratch `python -m watercolor.train` runs at once (step 1 left
    out), each with `overrides`; `steps_per_hour` counts the steps of all of them (each job:
    `threads=1` when jobs > 1)."""
    with tempfile.TemporaryDirectory(prefix="watercolor-bench-") as tmp:
        root = Path(__file__).resolve().parents[1]
        # Each run logs into its own scratch store (train_command's tracking.uri), which a
        # MLFLOW_TRACKING_URI in our environment (a user's, or MLflow's own export after an
        # in-process set_tracking_uri) would override: the runs do not inherit it.
        env = {k: v for k, v in os.environ.items() if k != "MLFLOW_TRACKING_URI"}
        runs = [
            subprocess.Popen(
                train_command(args, overlap, f"{tmp}/job{i}", jobs, overrides), cwd=root, env=env
            )
            for i in range(jobs)
        ]
        if any(run.wait() for run in runs):
            raise RuntimeError("a benchmark training run failed (its output is above)")
        means = [step_means(f"{tmp}/job{i}") for i in range(jobs)]
    mean = {name: statistics.fmean(m[name] for m in means) for name in means[0]}
    step, generation = mean["step_time"], mean["rollouts/generation_s"]
    wait = mean["rollouts/reward_wall_s"]
    optimisation = step - generation - wait
    return {
        "step_s": round(step, 2),
        "steps_per_hour": round(jobs * 3600 / step, 1),
        "generation_s": round(generation, 2),
        "reward_wait_s": round(wait, 2),  # render + score time the trainer still waited for
        "optimisation_s": round(optimisation, 2),
        "generation_share": round(generation / step, 3),
        "render_score_fraction": round(wait / step, 3),
        "optimisation_share": round(optimisation / step, 3),
        "prefetched": round(mean["rollouts/prefetched"], 3),  # share painted during generation
        "completion_tokens": round(mean["completions/mean_length"], 1),
        # CPU-seconds a step over every process of the job, by part (watercolor/step_cpu.py)
        **{f"cpu_{part}": round(mean[f"step_cpu/{part}"], 2) for part in CPU_PARTS},
    }


def train_command(
    args: argparse.Namespace, overlap: bool, folder: str, jobs: int, overrides: Sequence[str] = ()
) -> list[str]:
    """`python -m watercolor.train` for a benchmark run writing only into `folder`."""
    return [
        sys.executable, "-m", "watercolor.train", f"trainer.max_steps={args.steps}",
        f"overlap_rendering={str(overlap).lower()}",
        f"hydra.run.dir={folder}/run", f"tracking.uri=sqlite:///{folder}/mlflow.db",
        f"tracking.artifacts={folder}/artifacts",  # canvases and rollouts logged as by default
        *(["threads=1"] if jobs > 1 else []),
        *(["debug=smoke"] if args.smoke else []),
        *args.set,
        *overrides,  # the mode's own (e.g. threads=2): after --set, so the mode is what it says
    ]  # fmt: skip


def step_means(folder: str) -> dict[str, float]:
    """Mean over steps 2.. of the step metrics of the one run in `folder`'s MLflow store, by
    their names in TRL's logs (MLflow's: `watercolor.tracking.metric_name`)."""
    import mlflow

    from watercolor.tracking import metric_name

    client = mlflow.MlflowClient(f"sqlite:///{folder}/mlflow.db")
    (run,) = client.search_runs(client.get_experiment_by_name("watercolor").experiment_id)
    names = ("step_time", "rollouts/generation_s", "rollouts/reward_wall_s", "rollouts/render_s",
             "rollouts/prefetched", "completions/mean_length",
             *(f"step_cpu/{part}" for part in CPU_PARTS))  # fmt: skip
    return {
        name: statistics.fmean(later_steps(client, run.info.run_id, metric_name(name)))
        for name in names
    }


# watercolor.step_cpu's parts of a step's CPU-seconds over the job's processes, and the total.
CPU_PARTS = ("total_s", "generation_s", "update_s", "after_update_s", "logging_s", "render_s",
             "scoring_s", "other_s", "trainer_s", "chromium_s", "driver_s")  # fmt: skip


def later_steps(client, run_id: str, name: str) -> list[float]:
    """The metric's values from step 2 on (step 1 warms caches and launches the browser)."""
    history = sorted(client.get_metric_history(run_id, name), key=lambda m: m.step)
    return [m.value for m in history[1:]]


def bench_remote(args: argparse.Namespace) -> dict:
    """Renders per second through `RemotePainter` over 1..N local servers, side by side."""
    replies = [f"```javascript\n{sketch}\n```" for sketch in sample_sketches(args.sketches)]
    replies *= args.repeat
    ports = [free_port() for _ in range(args.servers)]
    density = server_density(args)
    servers = [serve_locally(serve_command(port, args, density)) for port in ports]
    try:
        urls = [wait_healthy(port, server) for port, server in zip(ports, servers, strict=True)]
        figures = {"replies": len(replies), "server_workers": args.server_workers}
        figures |= {"server_density": density, "failures": []}
        for n in range(1, args.servers + 1):
            wall, canvases = asyncio.run(paint_on(urls[:n], replies, args.server_workers))
            figures[f"remote_s{n}_per_s"] = round(len(replies) / wall, 3)
            figures["failures"] += failures(canvases)
        for n in range(2, args.servers + 1):
            figures[f"scaling_1_to_{n}"] = round(
                figures[f"remote_s{n}_per_s"] / figures["remote_s1_per_s"], 3
            )
        return figures
    finally:
        for server in servers:
            server.terminate()  # the server closes its Chromium on SIGTERM
        for server in servers:
            server.wait(timeout=60)


async def paint_on(urls: list[str], replies: list[str], workers: int) -> tuple[float, list]:
    """Wall time of painting every reply on `urls` (one untimed warm-up reply per server)."""
    from watercolor.env.client import RemotePainter

    painter = RemotePainter(urls, sessions_per_server=2 * workers)  # a queued step per page
    await asyncio.gather(*(painter(replies[0]) for _ in urls))
    start = time.perf_counter()
    canvases = await asyncio.gather(*(painter(reply) for reply in replies))
    return time.perf_counter() - start, canvases


def server_density(args: argparse.Namespace) -> float:
    """`--server-density`, else the pixel density training renders at."""
    return training_density() if args.server_density is None else args.server_density


def serve_command(port: int, args: argparse.Namespace, density: float) -> list[str]:
    """`python -m watercolor.env.serve` on `port`, rendering at pixel density `density`."""
    command = [sys.executable, "-m", "watercolor.env.serve", "--port", str(port)]
    command += ["--workers", str(args.server_workers), "--log-level", "warning"]
    command += ["--max-sessions", str(2 * args.server_workers)]
    command += ["--time-limit", str(args.time_limit)]
    return command + ["--pixel-density", str(density)]


def serve_locally(command: list[str]) -> subprocess.Popen:
    return subprocess.Popen(command, cwd=Path(__file__).resolve().parents[1])


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def wait_healthy(port: int, server: subprocess.Popen, timeout_s: float = 180) -> str:
    """The server's URL once `/health` answers (its Chromium pool is up)."""
    url, deadline = f"http://127.0.0.1:{port}", time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        if server.poll() is not None:
            raise RuntimeError(f"the server on port {port} exited (its output is above)")
        with contextlib.suppress(httpx.TransportError):
            if httpx.get(f"{url}/health", timeout=2).status_code == 200:
                return url
        time.sleep(0.25)
    raise TimeoutError(f"the server on port {port} was not healthy after {timeout_s} s")


def show(figures: dict) -> None:
    for key, value in figures.items():
        print(f"{key:>34}: {value}", flush=True)


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="python -m watercolor.bench", description=__doc__.split("\n")[0]
    )
    parser.add_argument("what", choices=["render", "score", "train", "remote"])
    parser.add_argument("--json", action="store_true", help="end with one JSON object")
    parser.add_argument("--sketches", type=Path, default=SAMPLES_DIR, help="folder of .js sketches")
    parser.add_argument("--repeat", type=int, default=1, help="render the set this many times")
    parser.add_argument("--density", type=float, help="also measure this pixel density")
    parser.add_argument(
        "--rich", action="store_true", help="render: also the rich tier, at training density"
    )
    parser.add_argument("--time-limit", type=float, default=60.0, help="seconds per sketch")
    parser.add_argument("--steps", type=int, default=6, help="train: GRPO steps to run")
    parser.add_argument("--smoke", action="store_true", help="train: the smoke-scale model")
    parser.add_argument(
        "--jobs", type=int, default=1, help="train: also run this many overlapped jobs at once"
    )
    parser.add_argument(
        "--threads", type=int, metavar="N", help="train: also run the sequential steps with "
        "threads=N (torch intra-op threads; the default is conf/machine/default.yaml's)",
    )  # fmt: skip
    parser.add_argument(
        "--set", action="append", default=[], metavar="OVERRIDE",
        help="train: a Hydra override for every benchmark run, e.g. trainer.num_generations=8",
    )  # fmt: skip
    parser.add_argument("--servers", type=int, default=2, help="remote: local servers to start")
    parser.add_argument("--server-workers", type=int, default=1, help="remote: pages per server")
    parser.add_argument("--server-density", type=float, help="remote: the servers' pixel "
                        "density (default: training's, conf/renderer/local.yaml)")  # fmt: skip
    return parser.parse_args(argv)


# Benchmarks with flags of their own, a module each: `python -m watercolor.bench webgl --help`.
OWN_MODULES = {"webgl": "watercolor.bench_webgl", "gpu": "watercolor.bench_gpu"}


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv and argv[0] in OWN_MODULES:  # imported on use: bench_webgl imports this module
        importlib.import_module(OWN_MODULES[argv[0]]).main(argv[1:])
        return 0
    args = parse_args(argv)
    if not any(args.sketches.glob("*.js")):
        usage.fail(f"no .js sketches in {args.sketches}")
    bench = {
        "render": bench_render,
        "score": bench_score,
        "train": bench_train,
        "remote": bench_remote,
    }[args.what]
    figures = bench(args)
    show(figures)
    if args.json:
        print(json.dumps(figures))
    return 0


if __name__ == "__main__":
    sys.exit(main())
