"""The statistics `watercolor.compare` reports: EMA smoothing, paired bootstrap intervals and a
seed-level permutation test.

    prompts = sorted(table["prompt_index"].unique())
    groups = {name: cells(rows, "total/gated", prompts) for name, rows in table.groupby("set")}
    draws = bootstrap_means(groups, resamples=2000, seed=0)
    gap = point_mean(groups["gated"]) - point_mean(groups["coarse"])
    print(estimate(gap, draws["gated"] - draws["coarse"]))  # mean [low, high], 95 %

An evaluation table has one row per sample: the evaluation run it came from (one per trained
seed), its held-out prompt, and a value (a reward set's total, a behaviour measure). The
uncertainty of a reward set's mean comes from two places: which seeds were trained and which
prompts were held out. `bootstrap_means` resamples both (a two-way "pigeonhole" bootstrap,
Owen 2007, Ann. Appl. Stat.): in each resample the runs are drawn with replacement within
each group, and one draw of prompts, shared by every group, so that differences between
groups are paired by prompt (a hard prompt is hard for every set and cancels out). Samples
within a (run, prompt) cell are not resampled; the interval is the percentile interval.

Written with numpy rather than a bootstrap library: scipy.stats.bootstrap resamples one
level of independent observations, not runs and prompts crossed and shared across groups.
Each resample is a pair of multinomial count vectors, so a whole bootstrap is two einsums.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd

RESAMPLES = 2000  # bootstrap resamples (more: less Monte-Carlo jitter in the bounds)
LEVEL = 0.95  # two-sided confidence level of every interval
PERMUTATIONS = 100_000  # above this many splits the permutation test samples them
SMOOTHING = 0.6  # EMA weight of the past (TensorBoard's slider); 0 draws the raw curve


# --- smoothing ----------------------------------------------------------------------------------


def ema(values: pd.Series, smoothing: float = SMOOTHING) -> pd.Series:
    """Exponential moving average of a curve; `smoothing` in [0, 1) is the weight of the past.

    y[0] = x[0] and y[t] = smoothing * y[t-1] + (1 - smoothing) * x[t]; missing values are
    skipped (the average carries over them). 0 returns the curve unchanged.
    """
    if not 0 <= smoothing < 1:
        raise ValueError(f"smoothing must be in [0, 1), got {smoothing}")
    if smoothing == 0:
        return values.astype(float)
    return values.astype(float).ewm(alpha=1 - smoothing, adjust=False, ignore_na=True).mean()


def band(curves: Mapping[Hashable, pd.Series]) -> pd.DataFrame:
    """Per step (the union of the curves' steps): `mean`, `low`, `high` (min and max) across
    the curves that have a value there, and `curves` (how many)."""
    frame = pd.DataFrame(dict(curves)).sort_index()
    return pd.DataFrame({
        "mean": frame.mean(axis=1),
        "low": frame.min(axis=1),
        "high": frame.max(axis=1),
        "curves": frame.notna().sum(axis=1),
    })  # fmt: skip


# --- cells: one group's samples as (run x prompt) sums and counts -------------------------------


@dataclass(frozen=True)
class Cells:
    """One group's samples of one value: `sums` and `counts` (non-missing samples) per
    (run, prompt) cell, shape (runs, prompts); the prompt axis is shared by all groups."""

    sums: np.ndarray
    counts: np.ndarray


def cells(
    table: pd.DataFrame,
    value: str,
    prompts: Sequence[Hashable],
    *,
    run: str = "run",
    prompt: str = "prompt_index",
) -> Cells:
    """The `value` column of `table` (one group's rows) summed and counted per (run, prompt).

    `prompts` fixes the prompt axis (every group of a comparison must use the same one); a
    prompt a run did not answer, or whose values are all missing, is an empty cell.
    """
    values = pd.to_numeric(table[value], errors="coerce").astype(float)
    frame = pd.DataFrame({"run": table[run], "prompt": table[prompt], "value": values})
    grouped = frame.groupby(["run", "prompt"], sort=True)["value"]
    sums = grouped.sum().unstack("prompt").reindex(columns=list(prompts))
    counts = grouped.count().unstack("prompt").reindex(columns=list(prompts))
    return Cells(sums.fillna(0.0).to_numpy(), counts.fillna(0).to_numpy(dtype=float))


def point_mean(group: Cells) -> float:
    """The plain mean of every non-missing sample of the group (NaN when there is none)."""
    total = group.counts.sum()
    return float(group.sums.sum() / total) if total else float("nan")


# --- bootstrap ----------------------------------------------------------------------------------


def bootstrap_means(
    groups: Mapping[str, Cells], resamples: int = RESAMPLES, seed: int = 0
) -> dict[str, np.ndarray]:
    """Per group, `resamples` bootstrap means: runs drawn with replacement within the group,
    prompts drawn with replacement once per resample and shared by all groups (paired).

    A resample's mean is sum(run count * prompt count * cell sum) / the same over cell counts,
    so it is the plain mean of the resampled samples; NaN if it drew only empty cells.
    """
    rng = np.random.default_rng(seed)
    prompt_counts = _draw_counts(rng, _prompt_axis(groups), resamples)
    means = {}
    for name, group in groups.items():
        run_counts = _draw_counts(rng, group.sums.shape[0], resamples)
        total = np.einsum("br,rp,bp->b", run_counts, group.sums, prompt_counts)
        count = np.einsum("br,rp,bp->b", run_counts, group.counts, prompt_counts)
        with np.errstate(invalid="ignore", divide="ignore"):
            means[name] = np.where(count > 0, total / count, np.nan)
    return means


def _prompt_axis(groups: Mapping[str, Cells]) -> int:
    sizes = {group.sums.shape[1] for group in groups.values()}
    if len(sizes) != 1:
        raise ValueError(f"groups disagree on the number of prompts: {sorted(sizes)}")
    return sizes.pop()


def _draw_counts(rng: np.random.Generator, items: int, resamples: int) -> np.ndarray:
    """(resamples, items): how often each item is drawn in `items` draws with replacement."""
    return rng.multinomial(items, np.full(items, 1 / items), size=resamples).astype(float)


@dataclass(frozen=True)
class Estimate:
    """A point estimate and its percentile bootstrap interval."""

    mean: float
    low: float
    high: float

    def covers(self, value: float) -> bool:
        return self.low <= value <= self.high

    def __str__(self) -> str:
        return f"{self.mean:.3g} [{self.low:.3g}, {self.high:.3g}]"


def estimate(point: float, draws: np.ndarray, level: float = LEVEL) -> Estimate:
    """`point` with the central `level` percentile interval of its bootstrap `draws`."""
    finite = draws[np.isfinite(draws)]
    if not len(finite) or not np.isfinite(point):
        return Estimate(point, float("nan"), float("nan"))
    tail = (1 - level) / 2 * 100
    low, high = np.percentile(finite, [tail, 100 - tail])
    return Estimate(float(point), float(low), float(high))


def verdict(difference: Estimate) -> str:
    """The word for a (wanted minus other) difference: "yes" when its interval is above 0,
    "no" when below 0, "unclear" when it holds 0 (or could not be computed)."""
    if difference.low > 0:
        return "yes"
    if difference.high < 0:
        return "no"
    return "unclear"


# --- seed-level permutation test ----------------------------------------------------------------


def permutation_p(a: Sequence[float], b: Sequence[float]) -> tuple[float, float]:
    """A two-sided exact permutation test of mean(a) - mean(b) over unit-level values (one per
    trained seed: a job's mean of a measure): the difference and its p, the share of the ways to
    split the pooled values into groups of len(a) and len(b) whose difference is at least as far
    from 0 as the observed one. NaN values are left out; p is NaN when a side has fewer than 2.

    The seed is the unit a study replicates, so this asks whether the arms' seeds could be
    exchanged; it ignores the prompts, which the bootstrap resamples. scipy enumerates every
    split (252 for 5 against 5) when there are fewer than its `n_resamples`.
    """
    a = np.asarray([x for x in a if np.isfinite(x)], dtype=float)
    b = np.asarray([x for x in b if np.isfinite(x)], dtype=float)
    if not len(a) or not len(b):
        return float("nan"), float("nan")
    if len(a) < 2 or len(b) < 2:  # scipy refuses it: a single seed has nothing to exchange
        return float(a.mean() - b.mean()), float("nan")
    import scipy.stats  # ~1 s: loaded when a statistic needs it, not by compare's arguments

    result = scipy.stats.permutation_test(
        (a, b), _mean_difference, permutation_type="independent", vectorized=True,
        n_resamples=PERMUTATIONS, alternative="two-sided")  # fmt: skip
    return float(result.statistic), float(result.pvalue)


def _mean_difference(a: np.ndarray, b: np.ndarray, axis: int = -1) -> np.ndarray:
    return a.mean(axis=axis) - b.mean(axis=axis)


# --- tables -------------------------------------------------------------------------------------


def mean_and_std(table: pd.DataFrame, by: str, metrics: list[str], sort: bool = True):
    """Per value of `by`: columns `<metric> mean` and `<metric> std`, and `runs` (rows)."""
    grouped = table.groupby(by, sort=sort)[metrics]
    stats = grouped.agg(["mean", "std"])
    stats.columns = [f"{metric} {stat}" for metric, stat in stats.columns]
    stats.insert(0, "runs", grouped.size())
    return stats


def mean_pm_std(table: pd.DataFrame) -> pd.DataFrame:
    """The aggregate as `mean ± std` strings (metric rows, reward-set columns), for printing."""
    metrics = [c.removesuffix(" mean") for c in table.columns if c.endswith(" mean")]
    text = {
        metric: [
            _pm(m, s) for m, s in zip(table[f"{metric} mean"], table[f"{metric} std"], strict=True)
        ]
        for metric in metrics
    }
    frame = pd.DataFrame(text, index=table.index).T
    frame.loc["runs"] = table["runs"].astype(str)
    return frame


def _pm(mean: float, std: float) -> str:
    return "n/a" if pd.isna(mean) else f"{mean:.3f}" + ("" if pd.isna(std) else f" ± {std:.3f}")
