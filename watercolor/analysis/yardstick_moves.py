"""The yardsticks of runs trained on different reward sets: which arm moved each one, by how much.

    changes = arm_changes(table, histories, names)         # per yardstick and arm
    print(moves_text(moves(changes, draws)))                # which arm moved it most

A run's own `reward/total` is a ruler only for its own set; every run of a task logs the same
yardsticks (`watercolor.training.yardsticks`): `behaviour/<measure>` of its rollouts and
`crossreward/<set>`, what each offline set pays them (`crossreward/gate/<set>`: the share its
gate passes). Per job, a yardstick's change is the mean of its last `WINDOW` logged values minus
the mean of its first `WINDOW` (fewer, half its values each, when it logged under 2 x WINDOW);
per arm, the mean over its seeds, with a bootstrap interval over seeds (`stats.bootstrap_means`,
seeds drawn with replacement) when it has two or more; a single seed has none, and says so.

`identical_jobs` finds jobs whose reward and yardsticks are the same at every step, render noise
aside (a set whose gate never bites trains exactly as its ungated twin): MLflow draws their lines
one on another.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence

import numpy as np
import pandas as pd

from watercolor.analysis import stats

# MLflow names of the yardsticks, in the order they are drawn and tabulated.
PATTERNS = (r"crossreward/[^/]+", r"behaviour/.+", r"crossreward/gate/.+")
WINDOW = 5  # logged values at each end of a job's history: its start and its end
COLUMNS = ["metric", "arm", "seeds", "change", "low", "high"]


def job_change(series: pd.Series, window: int = WINDOW) -> float:
    """The mean of the last `window` logged values minus the mean of the first `window` (half
    the values each when there are fewer than 2 x window); NaN under two values."""
    values = series.dropna()
    ends = min(window, len(values) // 2)
    if ends < 1:
        return math.nan
    return float(values.iloc[-ends:].mean() - values.iloc[:ends].mean())


def job_changes(
    table: pd.DataFrame, histories: Mapping[str, pd.DataFrame], names: Sequence[str]
) -> pd.DataFrame:
    """Per job (rows: run ids) and yardstick (columns): `job_change` (NaN where not logged)."""
    rows = {run_id: {n: job_change(histories[run_id][n]) if n in histories[run_id] else math.nan
                     for n in names} for run_id in table["run_id"]}  # fmt: skip
    return pd.DataFrame.from_dict(rows, orient="index", columns=list(names))


def seed_draws(
    table: pd.DataFrame, changes: pd.DataFrame, resamples: int, seed: int
) -> dict[str, dict[str, np.ndarray]]:
    """Per yardstick, per arm: `resamples` bootstrap means of its seeds' changes (seeds drawn
    with replacement: `stats.bootstrap_means` with one cell a seed)."""
    arms = dict(tuple(table.groupby("arm", sort=True)["run_id"]))
    draws = {}
    for name in changes.columns:
        groups = {}
        for arm, run_ids in arms.items():
            values = changes.loc[list(run_ids), name].dropna().to_numpy()
            if len(values):
                groups[arm] = stats.Cells(values[:, None], np.ones((len(values), 1)))
        draws[name] = stats.bootstrap_means(groups, resamples, seed) if groups else {}
    return draws


def arm_changes(table: pd.DataFrame, changes: pd.DataFrame, draws: Mapping) -> pd.DataFrame:
    """Long table, per yardstick and arm: seeds (jobs that logged it), the mean change and its
    interval over seeds (NaN with a single seed)."""
    rows = []
    for name in changes.columns:
        for arm, run_ids in table.groupby("arm", sort=True)["run_id"]:
            values = changes.loc[list(run_ids), name].dropna()
            if not len(values):
                continue
            found = estimate(values, draws[name].get(arm))
            rows.append({"metric": name, "arm": arm, "seeds": len(values),
                         "change": found.mean, "low": found.low, "high": found.high})  # fmt: skip
    return pd.DataFrame(rows, columns=COLUMNS)


def estimate(values: pd.Series, draws: np.ndarray | None) -> stats.Estimate:
    """The mean of the seeds' values, with an interval only when there are two or more."""
    if len(values) < 2 or draws is None:
        return stats.Estimate(float(values.mean()), math.nan, math.nan)
    return stats.estimate(float(values.mean()), draws)


def moves(per_arm: pd.DataFrame, draws: Mapping) -> pd.DataFrame:
    """Per yardstick: the arm that moved it most (largest |change|), its change, and its
    difference from the arm that moved it next most, with an interval when both have seeds."""
    rows = []
    for name, arms in per_arm.groupby("metric", sort=False):
        arms = arms.assign(size=arms["change"].abs()).sort_values("size", ascending=False)
        top = arms.iloc[0]
        row = {"metric": name, "moved_most": top["arm"], "seeds": int(top["seeds"]),
               "change": top["change"], "change_low": top["low"],
               "change_high": top["high"]}  # fmt: skip
        if len(arms) > 1:
            other = arms.iloc[1]
            gap = estimate_gap(top, other, draws[name])
            row |= {"versus": other["arm"], "difference": gap.mean, "difference_low": gap.low,
                    "difference_high": gap.high}  # fmt: skip
        rows.append(row)
    return pd.DataFrame(rows, columns=MOVES_COLUMNS)


# `moves`' columns, so a table without a row (jobs of one logged step) still reads back.
MOVES_COLUMNS = ["metric", "moved_most", "seeds", "change", "change_low", "change_high",
                 "versus", "difference", "difference_low", "difference_high"]  # fmt: skip


def estimate_gap(top: pd.Series, other: pd.Series, draws: Mapping) -> stats.Estimate:
    """`top`'s change minus `other`'s; its interval from both arms' draws when each has seeds."""
    gap = float(top["change"] - other["change"])
    if min(top["seeds"], other["seeds"]) < 2:
        return stats.Estimate(gap, math.nan, math.nan)
    return stats.estimate(gap, draws[top["arm"]] - draws[other["arm"]])


def moves_text(found: pd.DataFrame) -> str:
    """The moves as a person reads them: one line a yardstick, saying when there is no interval."""
    lines = [f"yardsticks: each job's change (mean of its last {WINDOW} logged values minus its "
             f"first {WINDOW}, or of each half under {2 * WINDOW}), mean over the arm's seeds "
             f"[{stats.LEVEL:.0%} bootstrap interval over seeds]; the arm that moved it most, by "
             "how much more than the next"]  # fmt: skip
    if found.empty:
        return "\n".join([*lines, "  (no yardsticks logged)"])
    single = found["seeds"].max() < 2
    if single:
        lines.append("  one seed an arm: no intervals (nothing says how far a seed's own noise "
                     "moves a yardstick)")  # fmt: skip
    for row in found.to_dict("records"):
        lines.append(f"  {row['metric']}: " + move_text(row, marked=not single))
    return "\n".join(lines)


def move_text(row: Mapping, marked: bool) -> str:
    """One yardstick's move; `marked`: say "(no interval)" where one is missing."""
    if abs(row["change"]) < 1e-12:
        return "no arm moved it"
    seeds = f"{row['seeds']} seed{'s' * (row['seeds'] != 1)}"
    text = f"{row['moved_most']} {interval(row, 'change', marked)} ({seeds})"
    if isinstance(row.get("versus"), str):
        text += f", {interval(row, 'difference', marked)} more than {row['versus']}"
    return text


def interval(row: Mapping, key: str, marked: bool = True) -> str:
    """`row[key]` signed, with its interval `[low, high]`, or "(no interval)" without one."""
    low, high = row[f"{key}_low"], row[f"{key}_high"]
    if math.isnan(low) or math.isnan(high):
        return f"{row[key]:+.3f}" + (" (no interval)" if marked else "")
    return f"{row[key]:+.3f} [{low:+.3f}, {high:+.3f}]"


def identical_jobs(
    table: pd.DataFrame, histories: Mapping[str, pd.DataFrame], names: Sequence[str]
) -> list[list[str]]:
    """Groups (labels) of jobs whose `reward/total` and yardsticks `names` hold the same values
    at the same steps: each group's lines lie one on another in MLflow's charts."""
    shown = ["reward/total", *names]
    groups: list[list[tuple[str, pd.DataFrame]]] = []
    for label, run_id in zip(table["label"], table["run_id"], strict=True):
        frame = histories[run_id].reindex(columns=shown).astype(float)
        if frame["reward/total"].isna().all():
            continue
        for group in groups:
            if same(group[0][1], frame):
                group.append((label, frame))
                break
        else:
            groups.append([(label, frame)])
    return [[label for label, _ in group] for group in groups if len(group) > 1]


# Jobs that painted the same replies differ by the browser's noise alone (SwiftShader paints a
# sketch a few levels differently from run to run): fine_grained and gated in a quick sweep, by
# 1e-4 at most. A chart cannot show a gap this small.
SAME_WITHIN = 1e-3


def same(a: pd.DataFrame, b: pd.DataFrame) -> bool:
    """The same steps, and at each values within `SAME_WITHIN` (and 0.1 % of the value; NaN
    where the other has NaN)."""
    if not a.index.equals(b.index):
        return False
    return bool(np.allclose(a.to_numpy(), b.to_numpy(), rtol=SAME_WITHIN, atol=SAME_WITHIN,
                            equal_nan=True))  # fmt: skip
