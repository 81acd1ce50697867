"""The SVG product study's pre-registered analysis (README.md, "Predictions"), from the records.

    .venv/bin/python experiments/2026-12-05_svg_product/analyse.py [records dir]

Every evaluation reply was scored by the shipped `svg_fine` (the product) as the study ran, its
components reported beside the total, so both arms are read by one scorer. Per job: the mean
over its 48 held-out replies. Per prediction: the difference of the two groups' means, a Welch
95 % CI and the seed-level exact permutation p (`watercolor.analysis.stats.permutation_p`).
Prediction 1 compares the product arm's 5 jobs with the untrained model's 12 prompt means (so
the untrained mean carries its own error). Writes `analysis.csv` and `curves_first_last.csv`
(reported: training curves, first 10 steps against last 10) beside this file and prints them.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import numpy as np
import pandas as pd

from watercolor.analysis.records import read
from watercolor.analysis.stats import permutation_p

HERE = Path(__file__).parent
FIRST_STUDY = HERE.parent / "2026-12-05_svg_task"
PRODUCT, SUM, UNTRAINED = "svg_product", "svg_sum", "untrained"
SEE_THROUGH, NO_COLOUR = 0.5, 0.0  # prediction 4's reading of the colourless see-through cheat


def first_study_analysis():
    """The first SVG study's analyse.py (its Welch interval and verdict rule, used unchanged)."""
    spec = importlib.util.spec_from_file_location("svg_task_analyse", FIRST_STUDY / "analyse.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


FIRST = first_study_analysis()
welch, verdict = FIRST.welch, FIRST.verdict


def replies(records_dir: Path) -> pd.DataFrame:
    """Every evaluation reply with its group (arm, or untrained), job and the measures read."""
    found = read(records_dir)
    arm_of = {run["run_id"]: (run["arm"], f"{run['arm']}-seed{run['seed']}") for run in found.runs}
    frames = []
    for evaluation in found.evaluations:
        group, job = arm_of.get(evaluation.source_run_id, (UNTRAINED, UNTRAINED))
        frames.append(evaluation.samples.assign(group=group, job=job))
    table = pd.concat(frames, ignore_index=True)
    number = lambda column: pd.to_numeric(table[column], errors="coerce")  # noqa: E731
    shapes, colours = number("svg_fine/translucent_shapes"), number("svg_fine/prompt_colours")
    return table.assign(
        total=number("total/svg_fine"),
        prompt_colours=colours,
        translucent_shapes=shapes,
        cheat=((shapes >= SEE_THROUGH) & (colours <= NO_COLOUR)).astype(float),
    )


MEASURES = ["total", "prompt_colours", "translucent_shapes", "cheat"]


def analyse(table: pd.DataFrame) -> pd.DataFrame:
    jobs = table.groupby(["group", "job"])[MEASURES].mean()
    untrained = table[table.group == UNTRAINED].groupby("prompt_index")[MEASURES].mean()
    predictions = [  # (name, measure, a, b, side): a - b predicted on `side` of 0
        ("1: product trained - untrained, total/svg_fine", "total", PRODUCT, UNTRAINED, ">"),
        ("2: product - sum, total/svg_fine", "total", PRODUCT, SUM, ">"),
        ("3: product - sum, prompt_colours", "prompt_colours", PRODUCT, SUM, ">"),
        ("4: product - sum, see-through without the prompt's colour", "cheat", PRODUCT, SUM, "<"),
        ("reported: product - sum, translucent_shapes", "translucent_shapes", PRODUCT, SUM, None),
    ]  # fmt: skip
    rows = []
    for name, measure, a, b, side in predictions:
        first = jobs.loc[a][measure].to_numpy()
        second = (untrained if b == UNTRAINED else jobs.loc[b])[measure].to_numpy()
        difference, low, high = welch(first, second)
        p = np.nan if b == UNTRAINED else permutation_p(first, second)[1]
        rows.append({"prediction": name, "difference": difference, "low": low, "high": high,
                     "p_seed": p, "n": f"{len(first)} + {len(second)}",
                     "verdict": verdict(low, high, side) if side else "-"})  # fmt: skip
    return pd.DataFrame(rows)


CURVES = {  # reported: first 10 training steps against last 10 (each arm's own training reward)
    "reward": "reward/total",
    "no_spread": "train/frac_reward_zero_std",
    "drawn": "rollouts/execution_rate",
    "length": "train/completions/mean_length",
}


def training_curves(records_dir: Path) -> pd.DataFrame:
    found = read(records_dir)
    rows = []
    for run in found.runs:
        metrics = found.histories[run["run_id"]]
        row = {"arm": run["arm"], "seed": run["seed"]}
        for name, column in CURVES.items():
            values = metrics[column].dropna()
            row[f"{name}_first10"] = values.iloc[:10].mean()
            row[f"{name}_last10"] = values.iloc[-10:].mean()
        rows.append(row)
    return pd.DataFrame(rows).sort_values(["arm", "seed"])


if __name__ == "__main__":
    records = Path(sys.argv[1]) if len(sys.argv) > 1 else HERE / "records"
    table = replies(records)
    print(table.groupby(["group", "job"])[MEASURES].mean().round(3).to_string())
    result = analyse(table)
    result.round(4).to_csv(HERE / "analysis.csv", index=False)
    print(result.round(4).to_string(index=False))
    curves = training_curves(records)
    curves.round(4).to_csv(HERE / "curves_first_last.csv", index=False)
    print(curves.round(3).to_string(index=False))
