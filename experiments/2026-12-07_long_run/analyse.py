"""The long study's pre-registered analysis (README.md, "Questions"), from its records alone.

    .venv/bin/python experiments/2026-12-07_long_run/analyse.py            # a-d, into analysis/
    .venv/bin/python experiments/2026-12-07_long_run/analyse.py --records <dir> --out <dir> \
        --stand-in behaviour/paint_opacity=reward/raw/paint_opacity       # an older study's

Committed with the pre-registration, before the first record: the constants below (the step
grid, the blocks, the windows, the thresholds) are the registered method, and a change to one
after the first record is a deviation the write-up reports.

- a. Change points: per job and series (and per arm, on its seeds' per-step mean), three
  continuous straight segments by least squares, breakpoints tau1 < tau2 on every second step
  from 10 to the last but 10; its onset, the first breakpoint after which the slope is positive
  and at least twice every slope before; tested against one straight line by a moving-block
  bootstrap of the line's residuals (blocks of 10 steps: a policy's consecutive steps are not
  independent); the onset's 95 % interval from the same bootstrap of the segments' residuals.
  A delayed rise: p < 0.05 and an onset at step 20 or later.
- b. The over-optimisation signature: per job, OLS slopes of its own reward and of the audited
  set's score of the same rollouts over the second half of the steps, their 95 % intervals from a
  joint block bootstrap of both residual series (the same blocks for both).
- c. The seed's sequence: a delayed fall of the matted opacity (a's rule) with flat blocks the
  majority before it, falling after it, and falling faster after it than before.
- d. The 60-step predictions on held-out prompts: `compare`'s bootstrap (runs within arm, prompts
  shared; 2,000 resamples, seed 0), the seed-level Welch interval and exact permutation p beside
  it, and each verdict again with one seed left out.

Every rule is applied to each job and to each arm's mean over its seeds (the arm's verdict), and
again with each seed left out. Why by hand: ruptures and statsmodels fit discontinuous segments or
test with independent errors; continuous segments and a block bootstrap are a few lines of numpy,
and they are the method. Reads no MLflow store and renders nothing; the show-through study's
60-step records take ~1 min here, a 150-step study a few.
"""

from __future__ import annotations

import argparse
import math
from collections.abc import Sequence
from pathlib import Path
from typing import NamedTuple

import numpy as np
import pandas as pd

from watercolor.analysis import matrix, stats
from watercolor.analysis.records import Records, read

HERE = Path(__file__).parent
RESAMPLES, SEED, LEVEL, ALPHA = 2000, 0, 0.95, 0.05
BLOCK = 10  # steps per bootstrap block
EDGE = 10  # breakpoints at least this many steps from either end and from each other
GRID = 2  # breakpoints on every second step
DELAY = 20  # a change at or after this step is "delayed"
STEEPER = 2.0  # "flatter, then rising": the slope after an onset at least twice every one before
MOST_MISSING = 0.10  # a series missing on more of its steps has no verdict
MIN_CHANGE = 0.02  # b: the smallest fitted change over the window that counts
SLIDE, STRIDE, SMOOTH = 30, 5, 11  # b's secondary view: windows, their stride; a centred mean
FLAT_MAJORITY = 0.5  # c: flat colour "first" means flat blocks on most painted canvases
OWN, AUDITED = "reward/total", "crossreward/show_through"
OPACITY, FLAT, ALPHA_CODE = "behaviour/paint_opacity", "behaviour/flat_block_rate", (
    "behaviour/style/mean_alpha")  # fmt: skip
READ = [OWN, AUDITED, OPACITY, FLAT, ALPHA_CODE]
MEAN = "mean"
AUDITED_ARM = "show_through"
# d: (name, evaluation column, a, b, predicted sign of a - b), stated before the first step
PREDICTIONS = [
    ("three-reward P1: more flat blocks under coarse", "flat_block", "coarse", "fine_grained", 1),
    ("three-reward P2: more layering under fine_grained", "layering", "fine_grained", "coarse", 1),
    ("show-through P1: paint lets more paper through", "paint_opacity", "show_through",
     "fine_grained", -1),
    ("show-through P2: lighter fills in the code", "style/mean_alpha", "show_through",
     "fine_grained", -1),
    ("show-through P3: fewer flat blocks", "flat_block", "show_through", "fine_grained", -1),
]  # fmt: skip


# --- the segmented fit and the block bootstrap -------------------------------------------------


def block_indices(n: int, resamples: int, rng: np.random.Generator) -> np.ndarray:
    """(resamples, n) positions: moving blocks of BLOCK consecutive positions, concatenated."""
    block = min(BLOCK, n)
    starts = rng.integers(0, n - block + 1, size=(resamples, math.ceil(n / block)))
    return (starts[:, :, None] + np.arange(block)).reshape(resamples, -1)[:, :n]


def breakpoints(t: np.ndarray) -> np.ndarray:
    """(P, 2): every pair tau1 < tau2 on the grid (every GRID-th step, EDGE from either end),
    at least EDGE apart."""
    grid = np.arange(t.min() + EDGE, t.max() - EDGE + 1, GRID)
    pairs = [(a, b) for a in grid for b in grid if b - a >= EDGE]
    return np.array(pairs, dtype=float).reshape(-1, 2)


def designs(t: np.ndarray, pairs: np.ndarray) -> np.ndarray:
    """(P, n, 4): [1, t, max(0, t - tau1), max(0, t - tau2)] for each pair: three straight
    segments joined at tau1 and tau2 (continuous: a policy changes gradually)."""
    ones = np.ones((len(pairs), len(t)))
    kinks = np.clip(t[None, :, None] - pairs[:, None, :], 0, None)
    return np.concatenate([ones[..., None], (ones * t)[..., None], kinks], axis=2)


def residual_ss(y: np.ndarray, basis: np.ndarray) -> np.ndarray:
    """Residual sums of squares of rows `y` (B, n) on each orthonormal `basis` (P, n, k) or on
    one (n, k): (B, P) or (B,). Chunked: B x P x k numbers at once would not fit."""
    flat = basis.reshape(-1, *basis.shape[-2:]).transpose(1, 0, 2).reshape(basis.shape[-2], -1)
    out = np.empty((len(y), flat.shape[1] // basis.shape[-1]))
    for rows in np.array_split(np.arange(len(y)), max(1, len(y) // 200)):
        projected = (y[rows] @ flat).reshape(len(rows), -1, basis.shape[-1])
        out[rows] = (y[rows] ** 2).sum(1, keepdims=True) - (projected**2).sum(-1)
    return out if basis.ndim == 3 else out[:, 0]


def segment_slopes(t: np.ndarray, y: np.ndarray, pair: np.ndarray) -> np.ndarray:
    """The three segments' slopes of the least-squares fit with breakpoints `pair`."""
    coef = np.linalg.lstsq(designs(t, pair[None])[0], y, rcond=None)[0]
    return np.cumsum(coef[1:])


def onset(slopes: np.ndarray, pair: np.ndarray) -> float:
    """Where a rise starts after a flatter stretch: the first breakpoint after which the slope
    is positive and at least STEEPER times every slope before it; NaN if neither is."""
    for k, tau in enumerate(pair):
        after = slopes[k + 1]
        if after > 0 and all(before * STEEPER <= after for before in slopes[: k + 1]):
            return float(tau)
    return math.nan


class ChangePoint(NamedTuple):
    onset: float  # NaN: no breakpoint starts a steeper rise
    onset_low: float
    onset_high: float
    onset_share: float  # of the bootstrap fits, the share with an onset
    tau1: float
    tau2: float
    slope1: float
    slope2: float
    slope3: float
    p_vs_line: float
    steps: int


def change_point(t: np.ndarray, y: np.ndarray, rng: np.random.Generator,
                 resamples: int | None = None) -> ChangePoint:  # fmt: skip
    """a's fit of one series: three continuous segments by least squares over every pair of
    breakpoints, its onset (`onset`), the block-bootstrap p of its gain over one straight line
    (the statistic: the line's residual sum of squares over the segments'), and the onset's 95 %
    interval from the same bootstrap of the segmented fit's residuals, refitted."""
    resamples = resamples or RESAMPLES
    pairs = breakpoints(t)
    bases = np.linalg.qr(designs(t, pairs))[0]
    line = np.linalg.qr(np.column_stack([np.ones_like(t), t]))[0]
    rss = residual_ss(y[None], bases)[0]
    best = int(np.argmin(rss))
    fitted = y - _residual(y, bases[best])
    idx = block_indices(len(t), resamples, rng)
    # Under the null (one line), with the line's residuals: conservative where there is a bend
    # (the residuals carry it). The segments' residuals, tried first, are shrunk by the search
    # over ~2,000 pairs: on constructed flat series they found a delayed rise in 7 of 30.
    null = _refits(y - _residual(y, line), _residual(y, line), idx)
    null_ratio = residual_ss(null, line) / residual_ss(null, bases).min(axis=1)
    p = (1 + np.sum(null_ratio >= residual_ss(y[None], line)[0] / rss[best])) / (1 + resamples)
    draws = _refits(fitted, y - fitted, idx)
    chosen = residual_ss(draws, bases).argmin(axis=1)
    onsets = np.array([onset(segment_slopes(t, d, pairs[c]), pairs[c])
                       for d, c in zip(draws, chosen, strict=True)])  # fmt: skip
    found = onsets[np.isfinite(onsets)]
    low, high = np.percentile(found, [2.5, 97.5]) if len(found) else (math.nan, math.nan)
    slopes = segment_slopes(t, y, pairs[best])
    return ChangePoint(onset(slopes, pairs[best]), float(low), float(high),
                       len(found) / resamples, *map(float, pairs[best]), *map(float, slopes),
                       float(p), len(t))  # fmt: skip


def _residual(y: np.ndarray, basis: np.ndarray) -> np.ndarray:
    return y - basis @ (basis.T @ y)


def _refits(fitted: np.ndarray, residuals: np.ndarray, idx: np.ndarray) -> np.ndarray:
    """Bootstrap series: the fit plus the (centred) residuals drawn in blocks."""
    centred = residuals - residuals.mean()
    return fitted[None] + centred[idx]


def delayed(found: ChangePoint | None) -> bool:
    """a's rule for a delayed rise (of the series as given): the segments beat one line
    (p < ALPHA) and their onset is at or after step DELAY."""
    return bool(found is not None and found.p_vs_line < ALPHA and found.onset >= DELAY)


def slopes(t: np.ndarray, ys: np.ndarray, rng: np.random.Generator,
           resamples: int | None = None) -> list[stats.Estimate]:  # fmt: skip
    """OLS slope of each column of `ys` (n, k) on `t`, its 95 % interval from one joint block
    bootstrap of the columns' residuals about their lines (the same blocks for every column)."""
    point, drawn = slope_draws(t, ys, rng, resamples)
    return [stats.estimate(point[k], drawn[:, k], LEVEL) for k in range(ys.shape[1])]


def slope_draws(t: np.ndarray, ys: np.ndarray, rng: np.random.Generator,
                resamples: int | None = None) -> tuple[np.ndarray, np.ndarray]:  # fmt: skip
    """`slopes`' points (k,) and bootstrap draws (B, k)."""
    resamples = resamples or RESAMPLES
    centred = t - t.mean()
    design = np.column_stack([np.ones_like(t), t])
    coef = np.linalg.lstsq(design, ys, rcond=None)[0]
    fitted, idx = design @ coef, block_indices(len(t), resamples, rng)
    residuals = ys - fitted
    draws = fitted[None] + (residuals - residuals.mean(0))[idx]  # (B, n, k)
    return coef[1], np.einsum("n,bnk->bk", centred, draws) / (centred**2).sum()


# --- the records, per job ----------------------------------------------------------------------


def jobs(found: Records) -> list[tuple[str, str, pd.DataFrame]]:
    """(arm, seed, per-step history) of every training run, by arm then seed, then each arm's
    pseudo-jobs (`arm_means`)."""
    runs = sorted(found.runs, key=lambda r: (r["arm"], str(r["seed"]).zfill(4)))
    real = [(r["arm"], str(r["seed"]), found.histories[r["run_id"]]) for r in runs]
    return real + arm_means(real)


def arm_means(real: list[tuple[str, str, pd.DataFrame]]) -> list[tuple[str, str, pd.DataFrame]]:
    """Per arm of 2+ seeds, its per-step mean over them (seed MEAN: the arm's verdict; its noise
    is a seed's over the root of their number) and, from 3 seeds, the same with each left out
    (seed "mean-<left out>")."""
    found = []
    for arm in dict.fromkeys(a for a, _, _ in real):
        mine = [(seed, history) for a, seed, history in real if a == arm]
        if len(mine) < 2:
            continue
        found.append((arm, MEAN, mean_history([h for _, h in mine])))
        if len(mine) > 2:
            found += [(arm, f"{MEAN}-{left}", mean_history([h for s, h in mine if s != left]))
                      for left, _ in mine]  # fmt: skip
    return found


def mean_history(histories: Sequence[pd.DataFrame]) -> pd.DataFrame:
    """The read columns' per-step mean over `histories`; NaN on a step any of them lacks (a
    mean of fewer seeds is another series)."""
    grouped = pd.concat([h.reindex(columns=READ) for h in histories]).groupby(level=0)
    return grouped.mean().where(grouped.count() == len(histories))


def series(history: pd.DataFrame, *columns: str) -> tuple[np.ndarray, np.ndarray] | None:
    """(steps, values (n, k)) on the steps where every column has a value; None when a column is
    absent or missing on more than MOST_MISSING of the steps."""
    if any(c not in history for c in columns):
        return None
    frame = history[list(columns)].astype(float)
    kept = frame.dropna()
    if len(kept) < (1 - MOST_MISSING) * len(frame) or len(kept) < 2 * EDGE + 3:
        return None
    return kept.index.to_numpy(dtype=float), kept.to_numpy()


def second_half(t: np.ndarray) -> np.ndarray:
    """b's window: the steps after the middle step (76-150 of 150)."""
    return t > t.max() / 2


# --- a: the delayed rise -----------------------------------------------------------------------


def question_a(found: Records, rng: np.random.Generator) -> pd.DataFrame:
    """Per job: a's fit of its own reward (rising) and of the matted opacity (falling: fitted on
    its negative), its onset with the onset's interval, and whether each is a delayed change."""
    rows = []
    for arm, seed, history in jobs(found):
        for column, sign in ((OWN, 1), (OPACITY, -1)):
            if (found_series := series(history, column)) is None:
                rows.append({"arm": arm, "seed": seed, "series": column, "verdict": "no data"})
                continue
            t, y = found_series
            fit = change_point(t, sign * y[:, 0], rng)
            rows.append({"arm": arm, "seed": seed, "series": column, "sign": sign, **fit._asdict(),
                         "delayed": delayed(fit)})  # fmt: skip
    return pd.DataFrame(rows)


# --- b: the over-optimisation signature --------------------------------------------------------


def signature(own: stats.Estimate, audited: stats.Estimate, steps: float) -> bool:
    """b's rule: own slope's interval above 0, the audited one's below 0, and each fitted change
    over the window at least MIN_CHANGE."""
    return bool(
        own.low > 0 and audited.high < 0
        and own.mean * steps >= MIN_CHANGE and -audited.mean * steps >= MIN_CHANGE
    )  # fmt: skip


def audited_reading(arm: str) -> tuple[str, int]:
    """What the arm's rollouts are audited by: the audited set's score (higher is better), or,
    for the audited set's own arm, the matted opacity it was meant to lower (sign -1)."""
    return (OPACITY, -1) if arm == AUDITED_ARM else (AUDITED, 1)


def question_b(found: Records, rng: np.random.Generator) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Per job: the second half's slopes of its own reward and its audited reading, the
    signature, the audited reading's peak (centred mean of SMOOTH steps) and its fall to the
    last SMOOTH steps; and the secondary view, every SLIDE-step window by STRIDE."""
    rows, sliding = [], []
    for arm, seed, history in jobs(found):
        column, sign = audited_reading(arm)
        row = {"arm": arm, "seed": seed, "audited_by": column if sign > 0 else f"-{column}"}
        if (found_series := series(history, OWN, column)) is None:
            rows.append(row | {"verdict": "no data"})
            continue
        t, ys = found_series
        ys = ys * [1, sign]
        window = second_half(t)
        own, audited = slopes(t[window], ys[window], rng)
        span = t[window].max() - t[window].min()
        smooth = pd.Series(ys[:, 1], index=t).rolling(SMOOTH, center=True, min_periods=6).mean()
        row |= {"window": f"{t[window].min():.0f}-{t[window].max():.0f}",
                "own_slope": own.mean, "own_low": own.low, "own_high": own.high,
                "audited_slope": audited.mean, "audited_low": audited.low,
                "audited_high": audited.high, "own_change": own.mean * span,
                "audited_change": audited.mean * span,
                "signature": signature(own, audited, span),
                "audited_peak_step": float(smooth.idxmax()),
                "audited_peak_to_end": float(smooth.max() - ys[-SMOOTH:, 1].mean())}  # fmt: skip
        rows.append(row | cross_slopes(history, t[window]))
        sliding += [{"arm": arm, "seed": seed, **w} for w in slide(t, ys, rng)]
    return pd.DataFrame(rows), pd.DataFrame(sliding)


def cross_slopes(history: pd.DataFrame, window: np.ndarray) -> dict[str, float]:
    """b's secondary view: every set's score (and gate share) of the same rollouts, its OLS
    slope over the window (points only: `slope <column>`)."""
    found = {}
    for column in (c for c in history if c.startswith("crossreward/")):
        values = history.loc[history.index.isin(window), column].dropna()
        if len(values) > 2:
            slope = np.polyfit(values.index.to_numpy(dtype=float), values.to_numpy(), 1)[0]
            found[f"slope {column}"] = float(slope)
    return found


def slide(t: np.ndarray, ys: np.ndarray, rng: np.random.Generator) -> list[dict]:
    """b's secondary view: the signature in every SLIDE-step window, one every STRIDE steps."""
    found = []
    for start in np.arange(t.min(), t.max() - SLIDE + 2, STRIDE):
        inside = (t >= start) & (t < start + SLIDE)
        if inside.sum() < SLIDE * (1 - MOST_MISSING):
            continue
        own, audited = slopes(t[inside], ys[inside], rng, resamples=RESAMPLES // 4 or None)
        span = t[inside].max() - t[inside].min()
        found.append({"start": float(start), "own_slope": own.mean,
                      "audited_slope": audited.mean,
                      "signature": signature(own, audited, span)})  # fmt: skip
    return found


# --- c: the seed's sequence ------------------------------------------------------------------


def question_c(found: Records, a: pd.DataFrame, rng: np.random.Generator) -> pd.DataFrame:
    """Per job: the matted opacity's onset of falling (question a's fit of its negative), then
    flat blocks before and after it: the majority before, falling after, and falling faster
    after than before (the slopes' draws come from separate stretches, so their difference's
    draws are the difference of theirs); the code's fill opacity beside (reported)."""
    rows = []
    fits = a[a["series"] == OPACITY].set_index(["arm", "seed"])
    for arm, seed, history in jobs(found):
        row = {"arm": arm, "seed": seed}
        found_series = series(history, OPACITY, FLAT)
        fit = fits.loc[(arm, seed)] if (arm, seed) in fits.index else None
        if found_series is None or fit is None or "onset" not in fit or pd.isna(fit["p_vs_line"]):
            rows.append(row | {"sequence": "no data"})
            continue
        row |= {"onset": fit["onset"], "p_vs_line": fit["p_vs_line"],
                "opacity_delayed_fall": bool(fit["delayed"])}  # fmt: skip
        if not row["opacity_delayed_fall"]:
            rows.append(row | {"sequence": False})
            continue
        t, flat = found_series[0], found_series[1][:, 1:]
        before, after = t <= fit["onset"], t >= fit["onset"]
        first, first_draws = slope_draws(t[before], flat[before], rng)
        then, then_draws = slope_draws(t[after], flat[after], rng)
        falls = stats.estimate(then[0], then_draws[:, 0], LEVEL)
        steeper = stats.estimate(then[0] - first[0], then_draws[:, 0] - first_draws[:, 0], LEVEL)
        row |= {"flat_level_before": float(flat[before].mean()), "flat_slope_before": first[0],
                "flat_slope_after": falls.mean, "flat_high_after": falls.high,
                "flat_steepening": steeper.mean,
                "flat_steepening_high": steeper.high}  # fmt: skip
        row["sequence"] = bool(
            row["flat_level_before"] >= FLAT_MAJORITY and falls.high < 0 and steeper.high < 0
        )
        rows.append(row | code_opacity(history, fit["onset"], rng))
    return pd.DataFrame(rows)


def code_opacity(history: pd.DataFrame, tau: float, rng: np.random.Generator) -> dict:
    """The code's mean fill opacity's slopes before and after tau (reported, not a condition)."""
    if (found_series := series(history, ALPHA_CODE)) is None:
        return {}
    t, y = found_series
    (before,) = slopes(t[t <= tau], y[t <= tau], rng)
    (after,) = slopes(t[t >= tau], y[t >= tau], rng)
    return {"alpha_slope_before": before.mean, "alpha_slope_after": after.mean,
            "alpha_high_after": after.high}  # fmt: skip


# --- d: the 60-step predictions on held-out prompts --------------------------------------------


def question_d(found: Records) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Each prediction's bootstrap difference and verdict, seed-level Welch interval and
    permutation p; then the verdict with each seed left out (every arm's job of that seed)."""
    samples = matrix.evaluation_samples(found, matrix.matrix_table(found))
    if not len(samples):
        return pd.DataFrame(), pd.DataFrame()
    rows = [prediction_row(samples, *p) | seed_level(samples, *p[1:4]) for p in PREDICTIONS]
    seeds = sorted(set(samples["seed"]) - {""})
    loso = [prediction_row(samples[samples["seed"] != s], *p) | {"left_out": s}
            for s in seeds for p in PREDICTIONS]  # fmt: skip
    return pd.DataFrame(rows), pd.DataFrame(loso)


def prediction_row(samples: pd.DataFrame, name: str, column: str, a: str, b: str,
                   sign: int) -> dict:  # fmt: skip
    """The bootstrap difference a - b of `column` and its verdict: holds when the interval lies
    on the predicted side of 0, fails on the other, unclear otherwise."""
    row = {"prediction": name, "column": column, "difference": f"{a} - {b}"}
    if column not in samples or not {a, b} <= set(samples["trained_with"]):
        return row | {"verdict": "no data"}
    points, draws = matrix.bootstrap_column(samples, column, RESAMPLES, SEED)
    found = stats.estimate(points[a] - points[b], draws[a] - draws[b], LEVEL)
    word = {"yes": "holds", "no": "fails"}.get(stats.verdict(found), "unclear")
    if sign < 0 and word != "unclear":
        word = "fails" if word == "holds" else "holds"
    return row | {"mean": found.mean, "low": found.low, "high": found.high, "verdict": word}


def seed_level(samples: pd.DataFrame, column: str, a: str, b: str) -> dict:
    """Per-job means of `column`; the Welch 95 % interval of a - b and the exact permutation p
    (3 against 3 seeds: 20 splits, so p is at least 0.1)."""
    import scipy.stats  # ~1 s: only where a seed-level statistic is asked for

    if column not in samples:
        return {}
    values = pd.to_numeric(samples[column], errors="coerce")
    per_job = values.groupby([samples["trained_with"], samples["run"]]).mean()
    if not {a, b} <= set(per_job.index.get_level_values(0)):
        return {}
    first, second = per_job[a].dropna().to_numpy(), per_job[b].dropna().to_numpy()
    welch = scipy.stats.ttest_ind(first, second, equal_var=False).confidence_interval(LEVEL)
    _, p = stats.permutation_p(first, second)
    return {"welch_low": welch.low, "welch_high": welch.high, "permutation_p": p,
            "seeds": f"{len(first)} vs {len(second)}"}  # fmt: skip


# --- the verdicts ------------------------------------------------------------------------------


def arm_verdicts(a: pd.DataFrame, b: pd.DataFrame, c: pd.DataFrame) -> pd.DataFrame:
    """Per arm and question: the rule on the arm's mean over its seeds (the verdict), how many
    of its seeds meet it alone, and how many of the means with one seed left out agree."""
    rows = []
    for arm in sorted(set(a["arm"])):
        for question, table, column, where in (
            ("a: own reward, delayed rise", a, "delayed", a["series"] == OWN),
            ("a: matted opacity, delayed fall", a, "delayed", a["series"] == OPACITY),
            ("b: over-optimisation signature", b, "signature", None),
            ("c: flat colour, then see-through", c, "sequence", None),
        ):  # fmt: skip
            chosen = table[(table["arm"] == arm) & (True if where is None else where)]
            met = dict(zip(chosen["seed"], chosen.get(column, [None] * len(chosen)), strict=True))
            met = {seed: bool(v) for seed, v in met.items() if isinstance(v, bool | np.bool_)}
            seeds = [s for s in met if not s.startswith(MEAN)]
            left_out = [s for s in met if s.startswith(f"{MEAN}-")]
            verdict = ("yes" if met[MEAN] else "no") if MEAN in met else "no data"
            rows.append({"arm": arm, "question": question, "verdict": verdict,
                         "seeds_yes": sum(met[s] for s in seeds), "seeds": len(seeds),
                         "left_out_agree": sum(met[s] == met.get(MEAN) for s in left_out),
                         "left_out": len(left_out)})  # fmt: skip
    return pd.DataFrame(rows)


def stand_in(found: Records, pairs: Sequence[str]) -> Records:
    """Each history given NEW from OLD where it has OLD and lacks NEW (`NEW=OLD`): a dry run on
    records older than the yardsticks."""
    for history in found.histories.values():
        for pair in pairs:
            new, old = pair.split("=", 1)
            if new not in history and old in history:
                history[new] = history[old]
    return found


def main(argv: Sequence[str] | None = None) -> dict[str, pd.DataFrame]:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--records", default=str(HERE / "records"))
    parser.add_argument("--out", default=str(HERE / "analysis"))
    parser.add_argument("--stand-in", action="append", default=[], metavar="NEW=OLD")
    args = parser.parse_args(argv)
    found = stand_in(read(args.records), args.stand_in)
    rng = np.random.default_rng(SEED)
    tables = {"a_change_points": question_a(found, rng)}
    tables["b_divergence"], tables["b_sliding"] = question_b(found, rng)
    tables["c_sequence"] = question_c(found, tables["a_change_points"], rng)
    tables["d_predictions"], tables["d_leave_one_seed_out"] = question_d(found)
    tables["verdicts"] = arm_verdicts(tables["a_change_points"], tables["b_divergence"],
                                      tables["c_sequence"])  # fmt: skip
    Path(args.out).mkdir(parents=True, exist_ok=True)
    with pd.option_context("display.width", 200, "display.max_columns", 30,
                           "display.float_format", "{:.4g}".format):  # fmt: skip
        for name, table in tables.items():
            table.to_csv(Path(args.out) / f"{name}.csv", index=False)
            if name != "b_sliding":
                print(f"\n== {name}\n{table.to_string(index=False) if len(table) else '(none)'}")
    return tables


if __name__ == "__main__":
    main()
