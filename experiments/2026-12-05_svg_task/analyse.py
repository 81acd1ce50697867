"""The SVG study's pre-registered analysis (README.md, "Predictions"), from the committed records.

    .venv/bin/python experiments/2026-12-05_svg_task/analyse.py [records dir]

Per job: the mean over its held-out evaluation samples of a measure (NaN left out). Per
prediction: the difference of the two arms' means of their 5 job means, a Welch 95 % CI over the
jobs, and the seed-level exact permutation p (`watercolor.analysis.stats.permutation_p`).
Prediction 1
compares each arm's jobs with the untrained model's evaluation (one run: a one-sample t interval
of the jobs' gains over it). Writes `analysis.csv` beside this file and prints it.
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pandas as pd
from scipy import stats as scipy_stats

from watercolor.analysis.records import read
from watercolor.analysis.stats import permutation_p

HERE = Path(__file__).parent
ARMS = ("svg_coarse", "svg_fine")
LEVEL = 0.95


def job_means(records_dir: Path, column: str) -> tuple[dict[str, list[float]], float]:
    """Each arm's job means of `column` (seed order), and the untrained model's mean."""
    found = read(records_dir)
    arm_of_run = {run["run_id"]: (run["arm"], int(run["seed"])) for run in found.runs}
    by_arm: dict[str, list[tuple[int, float]]] = {arm: [] for arm in ARMS}
    untrained = float("nan")
    for evaluation in found.evaluations:
        mean = float(pd.to_numeric(evaluation.samples[column], errors="coerce").mean())
        if not evaluation.source_run_id:
            untrained = mean
        elif evaluation.source_run_id in arm_of_run:
            arm, seed = arm_of_run[evaluation.source_run_id]
            by_arm[arm].append((seed, mean))
    return {arm: [m for _, m in sorted(jobs)] for arm, jobs in by_arm.items()}, untrained


def welch(a: list[float], b: list[float]) -> tuple[float, float, float]:
    """mean(a) - mean(b) and its Welch 95 % CI."""
    a_, b_ = np.asarray(a), np.asarray(b)
    difference = a_.mean() - b_.mean()
    va, vb = a_.var(ddof=1) / len(a_), b_.var(ddof=1) / len(b_)
    dof = (va + vb) ** 2 / (va**2 / (len(a_) - 1) + vb**2 / (len(b_) - 1))
    half = scipy_stats.t.ppf((1 + LEVEL) / 2, dof) * np.sqrt(va + vb)
    return difference, difference - half, difference + half


def one_sample(gains: list[float]) -> tuple[float, float, float]:
    g = np.asarray(gains)
    half = scipy_stats.t.ppf((1 + LEVEL) / 2, len(g) - 1) * g.std(ddof=1) / np.sqrt(len(g))
    return g.mean(), g.mean() - half, g.mean() + half


def verdict(low: float, high: float, side: str) -> str:
    """holds: the CI on the predicted side of 0; fails: on the other side; else unclear."""
    if (side == ">" and low > 0) or (side == "<" and high < 0):
        return "holds"
    if (side == ">" and high < 0) or (side == "<" and low > 0):
        return "fails"
    return "unclear"


def analyse(records_dir: Path) -> pd.DataFrame:
    rows = []
    for arm in ARMS:  # 1. each arm's training raises its own reward over the untrained model
        jobs, untrained = job_means(records_dir, f"total/{arm}")
        point, low, high = one_sample([m - untrained for m in jobs[arm]])
        name = f"1: {arm} trained - untrained, total/{arm}"
        rows.append({"prediction": name, "difference": point,
                     "low": low, "high": high, "p_seed": np.nan, "jobs": len(jobs[arm]),
                     "verdict": verdict(low, high, ">")})  # fmt: skip
    predictions = [  # (name, column, arm a, arm b): a - b predicted > 0
        ("2a: own set wins, total/svg_fine", "total/svg_fine", "svg_fine", "svg_coarse"),
        ("2b: own set wins, total/svg_coarse", "total/svg_coarse", "svg_coarse", "svg_fine"),
        ("3a: see-through shapes", "svg_fine/translucent_shapes", "svg_fine", "svg_coarse"),
        ("3b: exact prompt colour", "svg_coarse/exact_colour", "svg_coarse", "svg_fine"),
    ]
    for name, column, a, b in predictions:
        jobs, _ = job_means(records_dir, column)
        difference, low, high = welch(jobs[a], jobs[b])
        _, p = permutation_p(jobs[a], jobs[b])
        rows.append({"prediction": f"{name} ({a} - {b})", "difference": difference, "low": low,
                     "high": high, "p_seed": p, "jobs": len(jobs[a]) + len(jobs[b]),
                     "verdict": verdict(low, high, ">")})  # fmt: skip
    return pd.DataFrame(rows)


if __name__ == "__main__":
    records = Path(sys.argv[1]) if len(sys.argv) > 1 else HERE / "records"
    table = analyse(records)
    table.round(4).to_csv(HERE / "analysis.csv", index=False)
    print(table.round(4).to_string(index=False))
