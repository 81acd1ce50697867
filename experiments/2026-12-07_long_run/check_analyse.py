"""Does analyse.py find what it should, and not what it should not? Constructed histories of 150
steps, each scenario `--jobs` times with fresh noise, through analyse.py's own functions.

    nice .venv/bin/python experiments/2026-12-07_long_run/check_analyse.py > \
        experiments/2026-12-07_long_run/check_analyse.txt      # ~20 min on a busy 2-core machine

Noise: white, sd 0.075 a step (the show-through study's per-step reward about its segmented fit:
sd 0.065-0.080, lag-1 autocorrelation -0.31 to +0.28), or AR(1) with phi 0.3; and sd 0.043, a
seed's over the root of 3: an arm's per-step mean over its 3 seeds, the series whose fit gives
the arm's verdict (seeds that differ in their onsets blur it, which this does not show). The
flat-block rate gets twice that (a share of ~6.5 canvases a step). The bootstrap runs with
`--resamples` (500 here, against the study's 2,000) to keep the check light; that changes the
p-values' grain, not the method.
Each row: how many of the jobs meet the question's job-level rule, and for a the onsets found.
"""

from __future__ import annotations

import argparse
import importlib.util
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pandas as pd

from watercolor.analysis.records import Records

SPEC = importlib.util.spec_from_file_location("analyse", Path(__file__).parent / "analyse.py")
analyse = importlib.util.module_from_spec(SPEC)
SPEC.loader.exec_module(analyse)

T = np.arange(1, 151, dtype=float)
SD, ARM_SD = 0.075, 0.043


def kink(t: np.ndarray, at: float) -> np.ndarray:
    return np.clip(t - at, 0, None)


# a: own reward shapes; the truth is the last element (an onset, or None)
REWARD = {
    "straight line (0.0012 a step)": (lambda t: 0.15 + 0.0012 * t, None),
    "flat": (lambda t: 0.2 + 0 * t, None),
    "concave, fine_grained-like (+0.15, time constant 40)":
        (lambda t: 0.48 + 0.15 * (1 - np.exp(-t / 40)), None),
    "flat to 35, +0.006 a step to 60, then +0.0005": (
        lambda t: 0.15 + 0.006 * (kink(t, 35) - kink(t, 60)) + 0.0005 * kink(t, 60), 35),
    "flat to 35, then +0.002 a step": (lambda t: 0.15 + 0.002 * kink(t, 35), 35),
    "flat to 80, then +0.003 a step": (lambda t: 0.15 + 0.003 * kink(t, 80), 80),
}  # fmt: skip
# b: (own, audited) shapes; the truth: a signature in the second half or not
DIVERGENCE = {
    "own rises, audited rises to 90 then falls 0.0015 a step": (
        lambda t: 0.3 + 0.002 * t, lambda t: 0.1 + 0.002 * t - 0.0035 * kink(t, 90), True),
    "own rises, audited rises": (lambda t: 0.3 + 0.002 * t, lambda t: 0.1 + 0.001 * t, False),
    "own rises, audited flat": (lambda t: 0.3 + 0.002 * t, lambda t: 0.2 + 0 * t, False),
}  # fmt: skip
# c: (matted opacity, flat-block rate) shapes; the truth: the seed's sequence or not
SEQUENCE = {
    "opacity flat to 40, -0.0035 a step to 70, then -0.0005; flat blocks 0.8 then fall": (
        lambda t: 0.45 - 0.0035 * (kink(t, 40) - kink(t, 70)) - 0.0005 * kink(t, 70),
        lambda t: 0.8 - 0.004 * kink(t, 40), True),
    "opacity flat to 40 then -0.0015 a step; flat blocks 0.8 then fall": (
        lambda t: 0.45 - 0.0015 * kink(t, 40), lambda t: 0.8 - 0.004 * kink(t, 40), True),
    "opacity and flat blocks fall from the start (one drift)": (
        lambda t: 0.45 - 0.001 * t, lambda t: 0.8 - 0.003 * t, False),
    "opacity flat to 40, -0.0035 a step to 70; flat blocks fall from the start": (
        lambda t: 0.45 - 0.0035 * (kink(t, 40) - kink(t, 70)) - 0.0005 * kink(t, 70),
        lambda t: 0.8 - 0.003 * t, False),
}  # fmt: skip


def noise(rng: np.random.Generator, phi: float, sd: float = SD) -> np.ndarray:
    """AR(1) noise of stationary sd `sd` (white when phi is 0)."""
    e = rng.normal(0, sd * np.sqrt(1 - phi**2), len(T))
    out = np.empty_like(e)
    out[0] = rng.normal(0, sd)
    for i in range(1, len(e)):
        out[i] = phi * out[i - 1] + e[i]
    return out


def records(columns: dict[str, Callable], jobs: int, rng, phi: float, sd: float) -> Records:
    """`jobs` constructed runs: each column its shape plus fresh noise; the flat-block rate,
    a share of the ~6.5 painted canvases of a step (sd ~0.16 at 0.8), twice the noise and
    clipped to [0, 1]."""
    found = Records()
    for seed in range(jobs):
        history = pd.DataFrame(
            {name: shape(T) + noise(rng, phi, sd * (2 if name == analyse.FLAT else 1))
             for name, shape in columns.items()},
            index=pd.Index(T.astype(int), name="step"))  # fmt: skip
        if analyse.FLAT in history:
            history[analyse.FLAT] = history[analyse.FLAT].clip(0, 1)
        run_id = f"run{seed}"
        # each job its own arm: no arm means here (the arm's mean is the sd 0.043 rows)
        found.runs.append({"run_id": run_id, "arm": f"constructed{seed}", "seed": str(seed)})
        found.histories[run_id] = history
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--jobs", type=int, default=25)
    parser.add_argument("--resamples", type=int, default=500)
    parser.add_argument("--questions", default="abc", help="which of a, b, c to check")
    args = parser.parse_args()
    analyse.RESAMPLES = args.resamples
    rng = np.random.default_rng(0)
    print(f"{args.jobs} constructed jobs a scenario, {args.resamples} bootstrap resamples\n")
    print("a. delayed rise of the own reward (job-level rule), and the onsets found")
    for phi, sd in ((0.0, SD), (0.3, SD), (0.0, ARM_SD)) if "a" in args.questions else ():
        for name, (shape, truth) in REWARD.items():
            a = analyse.question_a(records({analyse.OWN: shape}, args.jobs, rng, phi, sd), rng)
            own = a[a["series"] == analyse.OWN]
            hits = own[own["delayed"].astype(bool)]
            onsets = hits["onset"].describe()[["25%", "50%", "75%"]].round(0).tolist()
            covered = ((own["onset_low"] <= truth) & (truth <= own["onset_high"])).mean() \
                if truth else float("nan")  # fmt: skip
            print(f"  sd {sd}, phi {phi}: {name}: delayed in {len(hits)}/{len(own)}; onsets "
                  f"(quartiles) {onsets}; interval covers the truth in {covered:.2f}")  # fmt: skip
    print("\nb. over-optimisation signature in the second half (job-level rule)")
    for sd in (SD, ARM_SD) if "b" in args.questions else ():
        for name, (own, audited, truth) in DIVERGENCE.items():
            columns = {analyse.OWN: own, analyse.AUDITED: audited}
            b, _ = analyse.question_b(records(columns, args.jobs, rng, 0.0, sd), rng)
            print(f"  sd {sd}: {name} (truth: {truth}): "
                  f"signature in {int(b['signature'].sum())}/{len(b)}")  # fmt: skip
    print("\nc. the seed's sequence (job-level rule)")
    for sd in (SD, ARM_SD) if "c" in args.questions else ():
        for name, (opacity, flat, truth) in SEQUENCE.items():
            columns = {analyse.OPACITY: opacity, analyse.FLAT: flat}
            found = records(columns, args.jobs, rng, 0.0, sd)
            c = analyse.question_c(found, analyse.question_a(found, rng), rng)
            hits = c["sequence"].astype(str).eq("True").sum()
            print(f"  sd {sd}: {name} (truth: {truth}): sequence in {hits}/{len(c)}")


if __name__ == "__main__":
    main()
