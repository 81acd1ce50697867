"""Do the revision study's jobs finish sooner two at a time than one after another?

    .venv/bin/python experiments/2026-12-03_study_packing/probe_jobs_at_once.py --steps 6 \
        > experiments/2026-12-03_study_packing/jobs_at_once.json

Runs short scratch trainings with the study's settings (`model=tiny_revise`, `fine_grained`,
one torch thread, canvases every 10th step, sequential painting) through `watercolor.bench`'s
own run command and step reader, in four modes one after another: `single` alone, `revise`
alone, `single` and `revise` at once, two `revise` jobs at once, two `single` jobs at once.
Prints each job's mean step (steps 2..), its CPU-seconds a step, each mode's wall time, and from
the step times the training time of the study's four remaining jobs (60 steps each, evaluation
and start-up left out) one after another and two at a time in either order. Nothing is
recorded into the study: every run writes into a scratch directory.
"""

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from watercolor.bench import step_means, train_command

ROOT = Path(__file__).resolve().parents[2]
STUDY = ["model=tiny_revise", "reward=fine_grained", "threads=1", "tracking.log_canvases_every=10"]
MODES = {
    "single_alone": ["single"],
    "revise_alone": ["revise"],
    # `single` runs twice the steps, so that `revise` never runs alone
    "single_and_revise": ["single*2", "revise"],
    "two_revise": ["revise", "revise"],
    "two_single": ["single", "single"],
}
STEPS = 60  # a study job's


def run_mode(steps: int, arms: list[str]) -> dict:
    """`arms` run at once, `steps` each (an arm written `single*2` runs twice as many)."""
    env = {k: v for k, v in os.environ.items() if k != "MLFLOW_TRACKING_URI"}
    with tempfile.TemporaryDirectory(prefix="watercolor-packing-") as tmp:
        started, started_at = time.perf_counter(), time.time()
        runs, ends = [], {}
        for i, arm in enumerate(arms):
            arm, _, times = arm.partition("*")
            bench_args = argparse.Namespace(steps=steps * int(times or 1), smoke=False, set=STUDY)
            overrides = [f"arm={arm}", f"seed={i + 1}"]
            command = train_command(bench_args, False, f"{tmp}/job{i}", 1, overrides)
            runs.append(subprocess.Popen(command, cwd=ROOT, env=env, stdout=subprocess.DEVNULL))
        while len(ends) < len(runs):
            for i, run in enumerate(runs):
                if i not in ends and run.poll() is not None:
                    if run.returncode:
                        raise RuntimeError(f"job {i} ({arms[i]}) failed")
                    ends[i] = time.perf_counter() - started
            time.sleep(1)
        # Steps that ended while every job was still running (their mean is the step time
        # beside the other job; a job that outlasts the other runs its last steps alone).
        window = min(ends.values()) + started_at
        jobs = []
        for i, arm in enumerate(a.partition("*")[0] for a in arms):
            means = step_means(f"{tmp}/job{i}")
            steps = step_history(f"{tmp}/job{i}")
            jobs.append({
                "arm": arm,
                "wall_s": round(ends[i], 1),
                "step_s": round(means["step_time"], 2),
                "step_s_beside": round(statistics.fmean(
                    t for end, t in steps[1:] if end <= window or len(arms) == 1), 2),
                "steps": [[round(end - started_at, 1), round(t, 2)] for end, t in steps],
                "cpu_total_s": round(means["step_cpu/total_s"], 2),
                "cpu_generation_s": round(means["step_cpu/generation_s"], 2),
                "completion_tokens": round(means["completions/mean_length"], 1),
            })  # fmt: skip
    return {"wall_s": round(max(ends.values()), 1), "jobs": jobs}


def step_history(folder: str) -> list[tuple[float, float]]:
    """(when it was logged, epoch s; its step_time) for each step of the one run in `folder`."""
    import mlflow

    from watercolor.tracking import metric_name

    client = mlflow.MlflowClient(f"sqlite:///{folder}/mlflow.db")
    (run,) = client.search_runs(client.get_experiment_by_name("watercolor").experiment_id)
    history = client.get_metric_history(run.info.run_id, metric_name("step_time"))
    return [(m.timestamp / 1000, m.value) for m in sorted(history, key=lambda m: m.step)]


def two_at_a_time(order: list[str], step: dict) -> float:
    """Seconds until every job in `order` has run STEPS steps, two at a time (as joblib's
    launcher with n_jobs=2 runs a sweep: the next job starts when one ends), each step taking
    the time measured beside the job running with it (or alone)."""
    queue, running, clock = list(order), [], 0.0
    while queue or running:
        while queue and len(running) < 2:
            running.append([queue.pop(0), float(STEPS)])
        times = []
        for i, (arm, _) in enumerate(running):
            partner = running[1 - i][0] if len(running) == 2 else None
            times.append(step[(arm, partner)])
        dt = min(left * t for (_, left), t in zip(running, times, strict=True))
        for job, t in zip(running, times, strict=True):
            job[1] -= dt / t
        clock += dt
        running = [job for job in running if job[1] > 1e-9]
    return clock


def schedules(figures: dict) -> dict:
    """The four remaining jobs' training minutes, one after another and two at a time, from
    each arm's step alone and beside the other job (two jobs of one arm: their mean)."""
    step = {
        (arm, None): figures[f"{arm}_alone"]["jobs"][0]["step_s"] for arm in ("single", "revise")
    }
    for mode in ("single_and_revise", "two_revise", "two_single"):
        first, second = figures[mode]["jobs"]
        if first["arm"] == second["arm"]:
            step[(first["arm"],) * 2] = statistics.fmean(
                (first["step_s_beside"], second["step_s_beside"])
            )
        else:
            step[(first["arm"], second["arm"])] = first["step_s_beside"]
            step[(second["arm"], first["arm"])] = second["step_s_beside"]
    jobs = ["single", "revise", "single", "revise"]
    found = {"one_after_another_min": round(sum(STEPS * step[(arm, None)] for arm in jobs) / 60, 1)}
    for name, order in {"arm_by_arm": sorted(jobs, reverse=True), "seed_by_seed": jobs}.items():
        found[f"two_at_a_time_{name}_min"] = round(two_at_a_time(order, step) / 60, 1)
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=6)
    args = parser.parse_args()
    figures = {"steps": args.steps, "settings": STUDY}
    for mode, arms in MODES.items():
        figures[mode] = run_mode(args.steps, arms)
        print(mode, json.dumps(figures[mode]), file=sys.stderr, flush=True)
    figures |= schedules(figures)
    print(json.dumps(figures, indent=1))


if __name__ == "__main__":
    main()
