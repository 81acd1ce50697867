"""An independent re-analysis of the long study (README.md, "Questions"), from its records alone.

    nice -n 19 .venv/bin/python experiments/2026-12-07_long_run/reanalysis.py \
        --records experiments/2026-12-05_show_through/records --out /tmp/re_st60 \
        --stand-in behaviour/paint_opacity=reward/raw/paint_opacity     # a dry run on 60 steps

Written from the README's text by someone who did not write `analyse.py` and did not read its
functions: a second derivation of every headline figure, not a port. Every per-step rule runs on
each job, on each arm's per-step mean over its seeds (the verdict) and on the means with one seed
left out; question d on the held-out evaluations. Tables go to stdout and to `--out/*.csv`.

Why by hand: the rules (continuous three-segment fits over a breakpoint grid, moving-block
bootstraps of fixed residuals, a paired two-level bootstrap) are the registered method, not what
ruptures or statsmodels fit. Every refit is one matrix product: a series' residual sum of squares
for every breakpoint pair is |y|^2 - |Q_p' y|^2 with Q_p each pair's orthonormal design basis, so
2,000 resamples x ~1,800 pairs is a few GEMMs, not a Python loop. The 150-step study
(6 of its 9 jobs) took 11 CPU-s, 6 min wall under `nice -n 19` beside training on 2 cores; a
60-step study ~2 CPU-s, under a minute.
"""

from __future__ import annotations

import argparse
import itertools
import json
import zlib
from pathlib import Path
from typing import NamedTuple

import numpy as np
import pandas as pd
from scipy import stats

HERE = Path(__file__).parent
# From the README's text: 2,000 resamples, blocks of 10 steps, breakpoints 10 steps from the ends
# and from each other on every second step, "delayed" from step 20, "at least twice", 10 %
# missing, a change of 0.02, 30-step windows every 5 steps with 500 resamples, an 11-step centred
# mean, flat blocks "at least 0.5", 95 % intervals, p < 0.05, compare's seed 0 for d.
RESAMPLES, SECONDARY_RESAMPLES, BLOCK, EDGE, GRID = 2000, 500, 10, 10, 2
DELAY, STEEPER, MOST_MISSING, MIN_CHANGE, ALPHA = 20, 2.0, 0.10, 0.02, 0.05
SLIDE, STRIDE, SMOOTH, FLAT_MAJORITY = 30, 5, 11, 0.5
# The README gives no seed for the per-step bootstraps; analyse.py's module constant SEED = 0 is
# taken (its streams differ from these anyway: each series here draws from its own generator).
SEED = 0
OWN, AUDITED, OPACITY = "reward/total", "crossreward/show_through", "behaviour/paint_opacity"
FLAT, CODE_ALPHA, AUDITED_ARM = "behaviour/flat_block_rate", "behaviour/style/mean_alpha", (
    "show_through")  # fmt: skip
# d: the README's table (prediction, evaluation column, a, b, predicted sign of a - b)
PREDICTIONS = [("d1", "flat_block", "coarse", "fine_grained", 1),
               ("d2", "layering", "fine_grained", "coarse", 1),
               ("d3", "paint_opacity", "show_through", "fine_grained", -1),
               ("d4", "style/mean_alpha", "show_through", "fine_grained", -1),
               ("d5", "flat_block", "show_through", "fine_grained", -1)]  # fmt: skip


# --- records ------------------------------------------------------------------------------------


def read_metrics(records: Path, stand_ins: dict[str, str]) -> dict[tuple[str, str], pd.DataFrame]:
    """Per (arm, seed), the job's per-step metrics, with each stand-in column read in place."""
    jobs = {}
    for folder in sorted(p for p in records.iterdir() if (p / "run.json").is_file()):
        info = json.loads((folder / "run.json").read_text())
        frame = pd.read_csv(folder / "metrics.csv", index_col="step")
        for new, old in stand_ins.items():
            frame[new] = frame.get(old, np.nan)
        jobs[(info.get("arm") or info["reward_set"], str(info["seed"]))] = frame
    return jobs


def read_samples(records: Path) -> dict[tuple[str, str], pd.DataFrame]:
    """Per (arm, seed), the held-out evaluation's per-sample table of the job's final model."""
    found = {}
    for folder in sorted(p for p in records.iterdir() if (p / "run.json").is_file()):
        info = json.loads((folder / "run.json").read_text())
        if (table := folder / "evaluation" / "samples.parquet").is_file():
            found[(info.get("arm") or info["reward_set"], str(info["seed"]))] = pd.read_parquet(
                table
            )
    return found


def series_families(jobs: dict, column: str, steps: np.ndarray) -> dict[tuple[str, str], pd.Series]:
    """Every series a per-step rule reads: each job, each arm's mean ("mean", a step missing in any
    seed missing in it) and its means with one seed left out ("mean-<seed>")."""
    name, sign = column.lstrip("-"), -1.0 if column.startswith("-") else 1.0

    def take(frame: pd.DataFrame) -> pd.Series:
        values = frame[name] if name in frame else pd.Series(np.nan, frame.index)
        return sign * values.reindex(steps)

    found = {key: take(frame) for key, frame in jobs.items()}
    for arm in sorted({arm for arm, _ in jobs}):
        seeds = sorted(seed for a, seed in jobs if a == arm)
        found[(arm, "mean")] = pd.concat([found[(arm, s)] for s in seeds], axis=1).mean(
            axis=1, skipna=False)  # fmt: skip
        for out in seeds if len(seeds) > 1 else []:
            kept = [found[(arm, s)] for s in seeds if s != out]
            found[(arm, f"mean-{out}")] = pd.concat(kept, axis=1).mean(axis=1, skipna=False)
    return found


def too_sparse(series: pd.Series) -> bool:
    """A series missing on more than 10 % of its steps has no verdict."""
    return bool(series.isna().mean() > MOST_MISSING)


def generator(*label: object) -> np.random.Generator:
    """One stream per series, so a result does not depend on which other series ran first."""
    return np.random.default_rng([SEED, zlib.crc32("|".join(map(str, label)).encode())])


# --- the block bootstrap and straight lines -------------------------------------------------------


def block_draws(n: int, resamples: int, rng: np.random.Generator) -> np.ndarray:
    """(resamples, n) indices: moving blocks of BLOCK consecutive positions, joined, cut to n."""
    size = min(BLOCK, n)
    starts = rng.integers(0, n - size + 1, size=(resamples, -(-n // size)))
    return (starts[:, :, None] + np.arange(size)).reshape(resamples, -1)[:, :n]


def line_fit(t: np.ndarray, y: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """OLS slopes (per column of y, or of a vector) and fitted values of y on t."""
    centred = t - t.mean()
    slope = centred @ (y - y.mean(axis=0)) / (centred @ centred)
    fitted = y.mean(axis=0) + np.multiply.outer(centred, slope)
    return slope, fitted


def slope_draws(t: np.ndarray, y: np.ndarray, draws: np.ndarray) -> tuple[float, np.ndarray]:
    """The OLS slope of y on t and its slopes over line + block-resampled residuals."""
    slope, fitted = line_fit(t, y)
    return float(slope), line_fit(t, (fitted + (y - fitted)[draws]).T)[0]


def interval(draws: np.ndarray) -> tuple[float, float]:
    low, high = np.nanpercentile(draws, [100 * ALPHA / 2, 100 * (1 - ALPHA / 2)])
    return float(low), float(high)


# --- the change-point method (a, c) -------------------------------------------------------------


class Segments(NamedTuple):
    """Every breakpoint pair's continuous three-segment design, as orthonormal bases."""

    pairs: np.ndarray  # (P, 2) breakpoint steps
    q: np.ndarray  # (P * 4, n): each pair's basis, transposed and stacked
    r: np.ndarray  # (P, 4, 4): design = basis @ r


def segments(t: np.ndarray, first: int, last: int) -> Segments:
    """Breakpoints on every GRID-th step, >= EDGE steps from either end and from each other."""
    # README: "every second step from step 10 to step 140 (at least 10 steps from either end and
    # from each other)". Read by the parenthesis: 11, 13, ..., 139 on steps 1-150 (11-49 on 60
    # steps, as the dry runs' fits show); the literal 10, 12, ..., 140 moves onsets by one step.
    grid = np.arange(first + EDGE, last - EDGE + 1, GRID)
    tau1, tau2 = np.meshgrid(grid, grid, indexing="ij")
    keep = tau2 - tau1 >= EDGE
    pairs = np.stack([tau1[keep], tau2[keep]], axis=1)
    design = np.stack(np.broadcast_arrays(
        np.ones_like(t, float), t.astype(float),
        np.maximum(0, t - pairs[:, :1]), np.maximum(0, t - pairs[:, 1:])), axis=-1)  # fmt: skip
    q, r = np.linalg.qr(design)
    return Segments(pairs, q.transpose(0, 2, 1).reshape(-1, len(t)), r)


def best_segments(seg: Segments, y: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Per column of y (n, B): the least RSS over every pair, that pair, and its three slopes."""
    rss, best, slopes = [], [], []
    for chunk in np.array_split(y, max(1, y.shape[1] // 200), axis=1):
        proj = (seg.q @ chunk).reshape(len(seg.pairs), 4, -1)
        pair_rss = (chunk**2).sum(axis=0) - (proj**2).sum(axis=1)
        chosen = pair_rss.argmin(axis=0)
        coef = np.linalg.solve(seg.r[chosen], proj[chosen, :, np.arange(len(chosen))][..., None])
        rss.append(pair_rss[chosen, np.arange(len(chosen))])
        best.append(chosen)
        slopes.append(np.cumsum(coef[:, 1:, 0], axis=1))
    return np.concatenate(rss), seg.pairs[np.concatenate(best)], np.concatenate(slopes)


def onsets(taus: np.ndarray, slopes: np.ndarray) -> np.ndarray:
    """The first breakpoint after which the slope is positive and >= STEEPER x every slope before
    it (NaN: none)."""
    s1, s2, s3 = slopes.T
    at1 = (s2 > 0) & (s2 >= STEEPER * s1)
    at2 = (s3 > 0) & (s3 >= STEEPER * s1) & (s3 >= STEEPER * s2)
    return np.where(at1, taus[:, 0], np.where(at2, taus[:, 1], np.nan))


def line_rss(t: np.ndarray, y: np.ndarray) -> np.ndarray:
    return ((y - line_fit(t, y)[1]) ** 2).sum(axis=0)


def change_point(series: pd.Series, label: tuple, resamples: int) -> dict:
    """The three-segment fit, its onset, its test against a line and the onset's interval."""
    present = series.dropna()
    t, y = present.index.to_numpy(int), present.to_numpy(float)
    seg = segments(t, int(series.index[0]), int(series.index[-1]))
    rss, taus, slopes = best_segments(seg, y[:, None])
    onset = onsets(taus, slopes)[0]
    observed = line_rss(t, y) / rss[0]
    rng = generator(*label)
    line = line_fit(t, y)[1]
    null_y = (line + (y - line)[block_draws(len(y), resamples, rng)]).T
    null = line_rss(t, null_y) / best_segments(seg, null_y)[0]
    fitted = seg_fitted(taus[0], t, y)
    refit = (fitted + (y - fitted)[block_draws(len(y), resamples, rng)]).T
    found = onsets(*best_segments(seg, refit)[1:])
    found = found[~np.isnan(found)]
    low, high = np.percentile(found, [2.5, 97.5]) if len(found) else (np.nan, np.nan)
    p = (1 + np.sum(null >= observed)) / (resamples + 1)
    return {"onset": onset, "onset_low": low, "onset_high": high,
            "onset_share": len(found) / resamples, "tau1": taus[0, 0], "tau2": taus[0, 1],
            "slope1": slopes[0, 0], "slope2": slopes[0, 1], "slope3": slopes[0, 2], "p": p,
            "steps": len(y), "delayed": bool(p < ALPHA and onset >= DELAY)}  # fmt: skip


def seg_fitted(pair: np.ndarray, t: np.ndarray, y: np.ndarray) -> np.ndarray:
    """The fitted values of y's three-segment fit at one breakpoint pair."""
    design = np.stack([np.ones_like(t, float), t, np.maximum(0, t - pair[0]),
                       np.maximum(0, t - pair[1])], axis=1)  # fmt: skip
    return design @ np.linalg.lstsq(design, y, rcond=None)[0]


# --- a: delayed rises and falls -----------------------------------------------------------------


def question_a(jobs: dict, steps: np.ndarray, resamples: int) -> pd.DataFrame:
    """Per series: the change-point fit of the own reward (a rise) and of the matted opacity
    (a fall: the rule on its negative)."""
    rows = []
    for column, sign in ((OWN, 1), (OPACITY, -1)):
        for (arm, seed), series in series_families(jobs, column, steps).items():
            row = {"arm": arm, "seed": seed, "series": column, "sign": sign}
            if too_sparse(series):
                rows.append(row | {"verdict": "no data", "steps": int(series.notna().sum())})
                continue
            fit = change_point(sign * series, (arm, seed, column), resamples)
            rows.append(row | fit | {"verdict": "yes" if fit["delayed"] else "no"})
    return pd.DataFrame(rows)


# --- b: the own reward rising while the audited reading falls ------------------------------------


def audited_column(arm: str) -> str:
    """The audited reading: show_through's score of the rollouts; for show_through itself, the
    matted opacity with its sign turned (higher is better)."""
    return f"-{OPACITY}" if arm == AUDITED_ARM else AUDITED


def signature(own: pd.Series, audited: pd.Series, label: tuple, resamples: int) -> dict:
    """The two OLS slopes over the window, their intervals from one joint block bootstrap, and
    whether the signature holds (own up, audited down, each change >= MIN_CHANGE)."""
    both = pd.concat([own, audited], axis=1).dropna()
    t = both.index.to_numpy(float)
    draws = block_draws(len(t), resamples, generator(*label))
    own_slope, own_draws = slope_draws(t, both.iloc[:, 0].to_numpy(), draws)
    aud_slope, aud_draws = slope_draws(t, both.iloc[:, 1].to_numpy(), draws)
    span = own.index[-1] - own.index[0]
    (own_low, own_high), (aud_low, aud_high) = interval(own_draws), interval(aud_draws)
    yes = own_low > 0 and aud_high < 0 and own_slope * span >= MIN_CHANGE and (
        -aud_slope * span >= MIN_CHANGE)  # fmt: skip
    return {"window": f"{own.index[0]}-{own.index[-1]}", "own_slope": own_slope,
            "own_low": own_low, "own_high": own_high, "audited_slope": aud_slope,
            "audited_low": aud_low, "audited_high": aud_high, "own_change": own_slope * span,
            "audited_change": aud_slope * span, "signature": bool(yes)}  # fmt: skip


def peak(audited: pd.Series) -> dict:
    """The audited reading's peak step (a centred SMOOTH-step mean, full windows only) and its
    fall from the peak to the mean of the last SMOOTH steps."""
    # Full windows: a "centred 11-step mean" has none within 5 steps of either end. analyse.py's dry
    # run reads partial windows there (its show_through seed 0 peaks at step 60 of 60).
    smooth = audited.rolling(SMOOTH, center=True, min_periods=SMOOTH).mean()
    if smooth.isna().all():
        return {"audited_peak_step": np.nan, "audited_peak_to_end": np.nan}
    top = smooth.idxmax()
    return {"audited_peak_step": top,
            "audited_peak_to_end": smooth[top] - audited.iloc[-SMOOTH:].mean()}  # fmt: skip


def first_window(own: pd.Series, audited: pd.Series, label: tuple, resamples: int) -> str:
    """The first SLIDE-step window (one every STRIDE steps) that shows the signature."""
    # "The same rule": each fitted change is slope x the window's own span (29 steps), not x 74.
    for start in range(int(own.index[0]), int(own.index[-1]) - SLIDE + 2, STRIDE):
        window = slice(start, start + SLIDE - 1)
        if signature(own.loc[window], audited.loc[window], (*label, start), resamples)["signature"]:
            return f"{start}-{start + SLIDE - 1}"
    return "none"


def question_b(jobs: dict, steps: np.ndarray, resamples: int, secondary: int) -> pd.DataFrame:
    """Per series: the signature over the second half, and the secondary views beside it."""
    half = steps[steps > steps[-1] // 2]
    owns = series_families(jobs, OWN, steps)
    rows = []
    for arm in sorted({arm for arm, _ in jobs}):
        audits = series_families({k: v for k, v in jobs.items() if k[0] == arm},
                                 audited_column(arm), steps)  # fmt: skip
        for (_, seed), audited in audits.items():
            own, row = owns[(arm, seed)], {"arm": arm, "seed": seed,
                                           "audited_by": audited_column(arm)}  # fmt: skip
            if too_sparse(own) or too_sparse(audited):
                rows.append(row | {"verdict": "no data"})
                continue
            found = signature(own.loc[half], audited.loc[half], (arm, seed, "b"), resamples)
            rows.append(
                row
                | found
                | peak(audited)
                | {
                    "verdict": "yes" if found["signature"] else "no",
                    "first_window": first_window(own, audited, (arm, seed, "bw"), secondary),
                }
            )
    return pd.DataFrame(rows)


def crossreward_slopes(jobs: dict, steps: np.ndarray) -> pd.DataFrame:
    """Secondary: each crossreward/* column's OLS slope and change over the second half, per job."""
    half = steps[steps > steps[-1] // 2]
    rows = []
    for (arm, seed), frame in sorted(jobs.items()):
        for column in sorted(c for c in frame if c.startswith("crossreward/")):
            series = frame[column].reindex(half).dropna()
            if len(series) > 2:
                slope = float(line_fit(series.index.to_numpy(float), series.to_numpy())[0])
                rows.append({"arm": arm, "seed": seed, "column": column, "slope": slope,
                             "change": slope * (half[-1] - half[0])})  # fmt: skip
    return pd.DataFrame(rows, columns=["arm", "seed", "column", "slope", "change"])


# --- c: flat colour first, then see-through paint -------------------------------------------------


def stretch_slope(series: pd.Series, label: tuple, resamples: int) -> tuple[float, np.ndarray]:
    present = series.dropna()
    t = present.index.to_numpy(float)
    return slope_draws(t, present.to_numpy(), block_draws(len(t), resamples, generator(*label)))


def sequence(flat: pd.Series, code_alpha: pd.Series, tau: float, label: tuple,
             resamples: int) -> dict:  # fmt: skip
    """Conditions 2 and 3 at the opacity's onset tau (both stretches include tau), and the
    code's fill opacity's slopes beside them."""
    before, after = flat.loc[:tau], flat.loc[tau:]
    slope_before, draws_before = stretch_slope(before, (*label, "before"), resamples)
    slope_after, draws_after = stretch_slope(after, (*label, "after"), resamples)
    after_high = interval(draws_after)[1]
    faster_high = interval(draws_after - draws_before)[1]
    row = {"tau": tau, "flat_before_mean": before.mean(), "flat_slope_before": slope_before,
           "flat_slope_after": slope_after, "flat_after_high": after_high,
           "after_minus_before_high": faster_high,
           "flat_first": bool(before.mean() >= FLAT_MAJORITY),
           "given_up": bool(after_high < 0 and faster_high < 0)}  # fmt: skip
    if code_alpha.notna().sum() > 2:
        for name, part in (("before", code_alpha.loc[:tau]), ("after", code_alpha.loc[tau:])):
            part = part.dropna()
            row[f"code_alpha_slope_{name}"] = float(
                line_fit(part.index.to_numpy(float), part.to_numpy())[0]
            )
    return row


def question_c(jobs: dict, steps: np.ndarray, a: pd.DataFrame, resamples: int) -> pd.DataFrame:
    """Per series: the sequence's three conditions, on the opacity's change point from a."""
    flats = series_families(jobs, FLAT, steps)
    alphas = series_families(jobs, CODE_ALPHA, steps)
    fall = a[a["series"] == OPACITY].set_index(["arm", "seed"])
    rows = []
    for key, flat in flats.items():
        row, opacity = {"arm": key[0], "seed": key[1]}, fall.loc[key]
        if opacity["verdict"] == "no data" or too_sparse(flat):
            rows.append(row | {"verdict": "no data"})
            continue
        if not opacity["delayed"]:
            rows.append(row | {"delayed_fall": False, "verdict": "no"})
            continue
        found = sequence(flat, alphas[key], int(opacity["onset"]), (*key, "c"), resamples)
        # The README's label is for a job that fails condition 2; one with flat colour first that
        # fails only condition 3 (not given up faster after tau) is labelled as such.
        verdict = "yes" if found["flat_first"] and found["given_up"] else (
            "delayed see-through without the flat-colour phase" if not found["flat_first"]
            else "delayed see-through after flat colour, not given up faster")  # fmt: skip
        rows.append(row | {"delayed_fall": True} | found | {"verdict": verdict})
    return pd.DataFrame(rows)


# --- d: held-out predictions ----------------------------------------------------------------------


def arm_table(samples: dict, arm: str, column: str, prompts: list, drop: str | None):
    """(sums, counts): per run of the arm and prompt, the column's sum and non-missing count."""
    runs = [frame for (a, seed), frame in sorted(samples.items()) if a == arm and seed != drop]
    sums = np.zeros((len(runs), len(prompts)))
    counts = np.zeros_like(sums)
    for i, frame in enumerate(runs):
        values = frame[["prompt", column]].dropna()
        grouped = values.groupby("prompt")[column]
        sums[i] = grouped.sum().reindex(prompts, fill_value=0).to_numpy()
        counts[i] = grouped.count().reindex(prompts, fill_value=0).to_numpy()
    return sums, counts


def multiplicities(draws: np.ndarray, n: int) -> np.ndarray:
    """(resamples, n): how often each of n items was drawn in each resample."""
    return (draws[:, :, None] == np.arange(n)).sum(axis=1)


def paired_bootstrap(tables: list, resamples: int) -> tuple[float, float, float]:
    """The pooled mean of arm a minus arm b, and its 95 % interval: runs resampled within arm,
    prompts resampled once per draw and shared by both arms."""
    rng = np.random.default_rng(0)  # compare's seed, README d
    n_prompts = tables[0][0].shape[1]
    prompt_w = multiplicities(rng.integers(0, n_prompts, (resamples, n_prompts)), n_prompts)
    means, observed = [], []
    for sums, counts in tables:
        runs = len(sums)
        run_w = multiplicities(rng.integers(0, runs, (resamples, runs)), runs)
        with np.errstate(invalid="ignore", divide="ignore"):
            means.append(np.einsum("br,rp,bp->b", run_w, sums, prompt_w)
                         / np.einsum("br,rp,bp->b", run_w, counts, prompt_w))  # fmt: skip
        observed.append(sums.sum() / counts.sum())
    low, high = interval(means[0] - means[1])
    return observed[0] - observed[1], low, high


def judged(low: float, high: float, sign: int) -> str:
    if np.isnan(low):
        return "no data"
    if (sign > 0 and low > 0) or (sign < 0 and high < 0):
        return "holds"
    return "fails" if (sign > 0 and high < 0) or (sign < 0 and low > 0) else "unclear"


def seed_level(a: np.ndarray, b: np.ndarray) -> dict:
    """Welch's 95 % interval of the difference of per-job means, and the exact permutation p
    (two-sided, every split of the jobs into groups of their sizes)."""
    diff = a.mean() - b.mean()
    va, vb = a.var(ddof=1) / len(a), b.var(ddof=1) / len(b)
    df = (va + vb) ** 2 / (va**2 / (len(a) - 1) + vb**2 / (len(b) - 1))
    half = stats.t.ppf(1 - ALPHA / 2, df) * np.sqrt(va + vb)
    pooled = np.concatenate([a, b])
    splits = [np.isin(np.arange(len(pooled)), chosen)
              for chosen in itertools.combinations(range(len(pooled)), len(a))]  # fmt: skip
    perm = np.array([pooled[s].mean() - pooled[~s].mean() for s in splits])
    p = np.mean(np.abs(perm) >= abs(diff) - 1e-12)
    return {"welch_low": diff - half, "welch_high": diff + half, "permutation_p": p,
            "seeds": f"{len(a)} vs {len(b)}"}  # fmt: skip


def job_means(samples: dict, arm: str, column: str, drop: str | None) -> np.ndarray:
    return np.array([frame[column].mean() for (a, seed), frame in sorted(samples.items())
                     if a == arm and seed != drop])  # fmt: skip


def prediction(samples: dict, name: str, column: str, a: str, b: str, sign: int,
               resamples: int, drop: str | None = None) -> dict:  # fmt: skip
    """One d prediction's bootstrap verdict (and, with no seed left out, the seed level)."""
    row = {"prediction": name, "column": column, "difference": f"{a} - {b}", "left_out": drop}
    arms = {arm for arm, _ in samples}
    if a not in arms or b not in arms or not all(column in f for f in samples.values()):
        return row | {"verdict": "no data"}
    prompts = sorted(set().union(*(set(f["prompt"]) for f in samples.values())))
    tables = [arm_table(samples, arm, column, prompts, drop) for arm in (a, b)]
    mean, low, high = paired_bootstrap(tables, resamples)
    row |= {"mean": mean, "low": low, "high": high, "verdict": judged(low, high, sign)}
    if drop is None:
        row |= seed_level(job_means(samples, a, column, None), job_means(samples, b, column, None))
    return row


def question_d(samples: dict, resamples: int) -> tuple[pd.DataFrame, pd.DataFrame]:
    main = [prediction(samples, *p, resamples) for p in PREDICTIONS]
    seeds = sorted({seed for _, seed in samples})
    left = [prediction(samples, *p, resamples, drop=s) for s in seeds for p in PREDICTIONS]
    return pd.DataFrame(main), pd.DataFrame(left)


# --- verdicts -------------------------------------------------------------------------------------


def arm_verdicts(table: pd.DataFrame, question: str) -> list[dict]:
    """Per arm: the verdict on its mean series, its seeds meeting the rule alone, and how many of
    its leave-one-seed-out means agree with the verdict."""
    rows = []
    for arm, part in table.groupby("arm"):
        verdict = part.loc[part["seed"] == "mean", "verdict"].iloc[0]
        seeds = part[~part["seed"].str.startswith("mean")]
        outs = part[part["seed"].str.startswith("mean-")]
        agree = int((outs["verdict"] == verdict).sum()) if verdict != "no data" else 0
        rows.append({"arm": arm, "question": question, "verdict": verdict,
                     "seeds_yes": int((seeds["verdict"] == "yes").sum()),
                     "seeds": int((seeds["verdict"] != "no data").sum()),
                     "left_out_agree": agree,
                     "left_out": int((outs["verdict"] != "no data").sum()),
                     "rests_on_one_seed": verdict != "no data" and agree < len(outs),
                     "seeds_no_data": int((seeds["verdict"] == "no data").sum())})  # fmt: skip
    return rows


def a_predictions(a: pd.DataFrame) -> pd.DataFrame:
    """a1-a3 from the arm means' fits: a1 show_through's delayed rise with its onset in 20-60;
    a2 its opacity's delayed fall within 15 steps of the reward's onset; a3 no delayed rise in
    coarse and fine_grained."""
    means = a[a["seed"] == "mean"].set_index(["arm", "series"])
    rows = []
    if (AUDITED_ARM, OWN) in means.index:
        rise = means.loc[(AUDITED_ARM, OWN)]
        where = "20-60" if 20 <= rise.get("onset", np.nan) <= 60 else "elsewhere"
        rows.append({"prediction": "a1", "result": "holds" if rise["verdict"] == "yes" else
                     "fails", "onset": rise.get("onset"), "onset_where": where})  # fmt: skip
        fall = means.loc[(AUDITED_ARM, OPACITY)]
        gap = abs(fall.get("onset", np.nan) - rise.get("onset", np.nan))
        ok = fall["verdict"] == "yes" and gap <= 15
        rows.append({"prediction": "a2", "result": "no data" if fall["verdict"] == "no data"
                     else "holds" if ok else "fails", "onset": fall.get("onset"),
                     "onset_gap": gap})  # fmt: skip
    for arm in ("coarse", "fine_grained"):
        if (arm, OWN) in means.index:
            verdict = means.loc[(arm, OWN), "verdict"]
            rows.append({"prediction": f"a3 ({arm})",
                         "result": "fails" if verdict == "yes" else "holds"})  # fmt: skip
    return pd.DataFrame(rows)


# --- the command ----------------------------------------------------------------------------------


def show(name: str, table: pd.DataFrame, out: Path) -> None:
    table.to_csv(out / f"{name}.csv", index=False)
    print(f"\n== {name}")
    print(table.to_string(index=False, float_format=lambda v: f"{v:.4g}"))


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--records", type=Path, default=HERE / "records")
    parser.add_argument("--out", type=Path, default=HERE / "reanalysis")
    parser.add_argument("--stand-in", action="append", default=[], metavar="NEW=OLD",
                        help="read metrics column OLD in place of NEW")  # fmt: skip
    parser.add_argument("--resamples", type=int, default=RESAMPLES)
    parser.add_argument("--secondary-resamples", type=int, default=SECONDARY_RESAMPLES)
    args = parser.parse_args(argv)
    args.out.mkdir(parents=True, exist_ok=True)
    jobs = read_metrics(args.records, dict(s.split("=", 1) for s in args.stand_in))
    steps = np.arange(1, max(int(f.index.max()) for f in jobs.values()) + 1)
    a = question_a(jobs, steps, args.resamples)
    b = question_b(jobs, steps, args.resamples, args.secondary_resamples)
    c = question_c(jobs, steps, a, args.resamples)
    d, d_left = question_d(read_samples(args.records), RESAMPLES)
    verdicts = (arm_verdicts(a[a["series"] == OWN], "a: own reward, delayed rise")
                + arm_verdicts(a[a["series"] == OPACITY], "a: matted opacity, delayed fall")
                + arm_verdicts(b, "b: over-optimisation signature")
                + arm_verdicts(c, "c: flat colour, then see-through"))  # fmt: skip
    tables = {"a_change_points": a, "a_predictions": a_predictions(a), "b_divergence": b,
              "b_crossreward_slopes": crossreward_slopes(jobs, steps), "c_sequence": c,
              "d_predictions": d, "d_leave_one_seed_out": d_left,
              "verdicts": pd.DataFrame(verdicts).sort_values(["arm", "question"])}  # fmt: skip
    for name, table in tables.items():
        show(name, table, args.out)


if __name__ == "__main__":
    main()
