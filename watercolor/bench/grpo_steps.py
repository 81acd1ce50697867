"""`train` runs the same few GRPO steps of the tiny default (`--smoke`: the smoke model) twice as
`python -m watercolor.train` in scratch directories: `sequential` (`overlap_rendering=false`,
the default: TRL generates the batch, then the rewards paint it) and `overlapped` (the opt-in
watercolor/training/rollout.py: each reply painted as soon as it is generated). Each step's wall
time is
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
`step_cpu/*` metrics each step logs (`watercolor/training/step_cpu.py`): generation, update
(advantages,
reference log-probs, loss, backward, optimiser, with TRL's bookkeeping between them),
after_update, logging (metrics, and each step's canvases, sketches and rollouts table, as a
default run logs them), render (Chromium + driver + the trainer driving them), scoring, and
the yardsticks (every job's common measures and cross-scores, their second-paper renders
included), with `yardsticks_cpu_share`, their share of the step's CPU (goal <= 0.10).
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path


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
        root = Path(__file__).resolve().parents[2]
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
        # CPU-seconds a step over every process of the job, by part
        # (watercolor/training/step_cpu.py)
        **{f"cpu_{part}": round(mean[f"step_cpu/{part}"], 2) for part in CPU_PARTS},
        # the yardsticks' share of a step's CPU (watercolor/training/yardsticks.py; goal <= 0.10)
        "yardsticks_cpu_share": round(mean["step_cpu/yardsticks_s"] / mean["step_cpu/total_s"], 3),
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


# watercolor.training.step_cpu's parts of a step's CPU-seconds over the job's processes, and the
# total.
CPU_PARTS = ("total_s", "generation_s", "update_s", "after_update_s", "logging_s", "render_s",
             "scoring_s", "yardsticks_s", "other_s", "trainer_s", "chromium_s",
             "driver_s")  # fmt: skip


def later_steps(client, run_id: str, name: str) -> list[float]:
    """The metric's values from step 2 on (step 1 warms caches and launches the browser)."""
    history = sorted(client.get_metric_history(run_id, name), key=lambda m: m.step)
    return [m.value for m in history[1:]]
