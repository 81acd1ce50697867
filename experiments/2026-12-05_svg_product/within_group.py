"""The SVG product study's follow-up (README.md, "Follow-up"), from the logged training rollouts.

    .venv/bin/python experiments/2026-12-05_svg_product/within_group.py [records dir]

Every logged group of 8 replies is scored by both rewards from its recorded components; per
group, the correlation of each reward's GRPO advantage with `prompt_colours`, and their
difference on the same replies. Per job, the mean over its 6 groups; estimates are means over
the 10 jobs with a t 95 % interval. Writes `within_group.csv` beside this file and prints it.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import numpy as np
import pandas as pd

from watercolor.analysis.records import read

HERE = Path(__file__).parent
SPEC = importlib.util.spec_from_file_location("svg_product_analyse", HERE / "analyse.py")
ANALYSE = importlib.util.module_from_spec(SPEC)
SPEC.loader.exec_module(ANALYSE)
one_sample, verdict = ANALYSE.FIRST.one_sample, ANALYSE.FIRST.verdict

EXECUTION = {"gate_pass": 0.05, "length_ramp": 0.05}
REWARDS = {  # each reward as weights over the recorded components (README, "Follow-up")
    "product": EXECUTION | {"picture": 0.90},
    "sum": EXECUTION | {"coverage": 0.15, "prompt_colours": 0.20, "translucent_layering": 0.20,
                        "translucent_shapes": 0.20, "composition": 0.15},
}  # fmt: skip
OWN = {"svg_product": "product", "svg_sum": "sum"}
EPSILON, FLAT = 1e-4, 1e-9  # TRL's std guard; below FLAT a column has no spread
SHARE_AT_LEAST = 0.25  # prediction B


def rollouts(records_dir: Path) -> pd.DataFrame:
    """Every logged reply with its arm, job, group and both rewards; checks the arm's own."""
    found = read(records_dir)
    frames = []
    for run in found.runs:
        table = found.rollouts[run["run_id"]].assign(
            arm=run["arm"], job=f"{run['arm']}-seed{run['seed']}"
        )
        for name, weights in REWARDS.items():
            table[name] = sum(w * table[f"c.{c}"] for c, w in weights.items())
        gap = (table[OWN[run["arm"]]] - table["reward"]).abs().max()
        if gap > 1e-4:
            raise SystemExit(
                f"{table.job.iat[0]}: its own reward recomputes {gap:.2g} off; stopped"
            )
        frames.append(table)
    return pd.concat(frames, ignore_index=True)


def correlation(a: np.ndarray, b: np.ndarray) -> float:
    """Pearson r; 0 where either has no spread (such a group pushes nothing either way)."""
    if a.std() < FLAT or b.std() < FLAT:
        return 0.0
    return float(np.corrcoef(a, b)[0, 1])


def groups(table: pd.DataFrame) -> pd.DataFrame:
    rows = []
    for (arm, job, step), group in table.groupby(["arm", "job", "step"]):
        colours = group["c.prompt_colours"].to_numpy()
        row = {"arm": arm, "job": job, "step": step,
               "no_picture": float((group["c.picture"] <= 0).all())}  # fmt: skip
        for name in REWARDS:
            r = group[name].to_numpy()
            advantage = (r - r.mean()) / (r.std(ddof=1) + EPSILON)  # TRL's nanstd: unbiased
            row[f"s_{name}"] = correlation(advantage, colours)
            row[f"cov_{name}"] = float(
                np.mean((advantage - advantage.mean()) * (colours - colours.mean()))
            )
        row["d"] = row["s_product"] - row["s_sum"]
        rows.append(row)
    return pd.DataFrame(rows)


def analyse(per_group: pd.DataFrame) -> pd.DataFrame:
    jobs = per_group.groupby(["arm", "job"]).mean(numeric_only=True).reset_index()
    rows = []

    def estimate(name, values, side=None, threshold=0.0):
        mean, low, high = one_sample(values)
        judged = verdict(low - threshold, high - threshold, side) if side else "-"
        rows.append({"measure": name, "estimate": mean, "low": low, "high": high,
                     "n_jobs": len(values), "verdict": judged})  # fmt: skip

    estimate("A: d = s(product) - s(sum), all jobs", jobs["d"], "<")
    estimate("B: share of groups with no picture term", jobs["no_picture"], ">", SHARE_AT_LEAST)
    for arm in OWN:
        estimate(f"reported: d over {arm}'s jobs", jobs.loc[jobs.arm == arm, "d"])
    for name in REWARDS:
        estimate(f"reported: s({name})", jobs[f"s_{name}"])
        estimate(f"reported: cov(advantage, prompt_colours), {name}", jobs[f"cov_{name}"])
    return pd.DataFrame(rows)


if __name__ == "__main__":
    records = Path(sys.argv[1]) if len(sys.argv) > 1 else HERE / "records"
    per_group = groups(rollouts(records))
    print(per_group.groupby("arm").mean(numeric_only=True).round(3).to_string())
    result = analyse(per_group)
    result.round(4).to_csv(HERE / "within_group.csv", index=False)
    print(result.round(4).to_string(index=False))
