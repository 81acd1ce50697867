"""`watercolor.analysis.stats` on numpy arrays and series whose answers are known."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from watercolor.analysis import stats


def test_ema_matches_hand_computed_values():
    curve = pd.Series([1.0, 0.0, 0.0, 1.0], index=[1, 2, 3, 5])
    smoothed = stats.ema(curve, 0.5)
    # y0 = x0; y = 0.5 * y_prev + 0.5 * x
    assert smoothed.to_numpy() == pytest.approx([1.0, 0.5, 0.25, 0.625])
    assert list(smoothed.index) == [1, 2, 3, 5]
    assert stats.ema(pd.Series([0.2, 0.9, 0.4]), 0.0).to_numpy() == pytest.approx([0.2, 0.9, 0.4])
    assert stats.ema(pd.Series([1.0, 0.0]), 0.9).to_numpy() == pytest.approx([1.0, 0.9])


def test_ema_carries_over_missing_values_and_rejects_bad_weights():
    smoothed = stats.ema(pd.Series([1.0, np.nan, 0.0]), 0.5)
    assert smoothed.iloc[0] == 1.0 and smoothed.iloc[2] == pytest.approx(0.5)
    for weight in (1.0, -0.1):
        with pytest.raises(ValueError, match="smoothing"):
            stats.ema(pd.Series([1.0]), weight)


def test_band_is_mean_min_max_over_the_curves_that_have_the_step():
    band = stats.band({"a": pd.Series([1.0, 2.0], index=[0, 1]),
                       "b": pd.Series([3.0, 4.0, 5.0], index=[0, 1, 2])})  # fmt: skip
    assert band["mean"].tolist() == [2.0, 3.0, 5.0]
    assert band["low"].tolist() == [1.0, 2.0, 5.0] and band["high"].tolist() == [3.0, 4.0, 5.0]
    assert band["curves"].tolist() == [2, 2, 1]


def table(values: np.ndarray) -> pd.DataFrame:
    """Rows of a (runs, prompts, samples) array: run, prompt_index, value."""
    index = np.indices(values.shape).reshape(3, -1)
    return pd.DataFrame({"run": index[0], "prompt_index": index[1], "value": values.ravel()})


def test_cells_sum_and_count_per_run_and_prompt_skipping_missing_values():
    rows = pd.DataFrame({"run": ["r1", "r1", "r1", "r2"], "prompt_index": [0, 0, 1, 0],
                         "value": [0.2, 0.4, np.nan, 1.0]})  # fmt: skip
    found = stats.cells(rows, "value", prompts=[0, 1, 2])
    assert np.allclose(found.sums, [[0.6, 0.0, 0.0], [1.0, 0.0, 0.0]])
    assert found.counts.tolist() == [[2, 0, 0], [1, 0, 0]]
    assert stats.point_mean(found) == pytest.approx(np.nanmean(rows["value"]))


def test_a_constant_paired_difference_has_a_zero_width_interval():
    """One run per group: only prompts are resampled, the same ones for both groups, so a gap
    that is the same on every prompt is the same in every resample, however hard the prompts."""
    rng = np.random.default_rng(1)
    base = rng.normal(0.5, 0.2, size=(1, 12, 3))
    prompts = range(12)
    groups = {"a": stats.cells(table(base), "value", prompts),
              "b": stats.cells(table(base + 0.1), "value", prompts)}  # fmt: skip
    draws = stats.bootstrap_means(groups, resamples=500, seed=0)
    assert np.allclose(draws["b"] - draws["a"], 0.1)
    alone = stats.estimate(stats.point_mean(groups["a"]), draws["a"])
    assert alone.high - alone.low > 0.05  # each mean alone is uncertain (prompt difficulty)


def test_groups_must_share_the_prompt_axis():
    one = stats.cells(table(np.ones((2, 3, 1))), "value", range(3))
    two = stats.cells(table(np.ones((2, 4, 1))), "value", range(4))
    with pytest.raises(ValueError, match="number of prompts"):
        stats.bootstrap_means({"a": one, "b": two}, resamples=10)


def crossed(rng: np.random.Generator, runs: int, prompts: int, mean: float = 0.5) -> np.ndarray:
    """(runs, prompts, 2) values: mean + a seed effect + a prompt effect + sample noise."""
    seed_effect = rng.normal(0, 0.05, size=(runs, 1, 1))
    prompt_effect = rng.normal(0, 0.1, size=(1, prompts, 1))
    return mean + seed_effect + prompt_effect + rng.normal(0, 0.05, size=(runs, prompts, 2))


def interval(values: np.ndarray, resamples: int = 400, seed: int = 0) -> stats.Estimate:
    """The mean of a (runs, prompts, samples) array with its bootstrap interval."""
    group = stats.Cells(values.sum(axis=2), np.full(values.shape[:2], float(values.shape[2])))
    draws = stats.bootstrap_means({"g": group}, resamples, seed)["g"]
    return stats.estimate(stats.point_mean(group), draws)


def test_the_95_percent_interval_covers_the_true_mean_about_95_percent_of_the_time():
    rng = np.random.default_rng(7)
    draws = 300
    covered = sum(interval(crossed(rng, 10, 20), seed=i).covers(0.5) for i in range(draws))
    # Measured over 1,000 draws: 0.93 with 10 seeds x 20 prompts, 0.945 with 40 x 80 (the
    # percentile bootstrap is a little liberal with few seeds); binomial s.d. here ~1.4 points.
    assert 0.88 <= covered / draws <= 0.98, covered / draws


def test_the_interval_shrinks_with_more_seeds_and_more_prompts():
    rng = np.random.default_rng(3)
    widths = {}
    for runs, prompts in ((3, 6), (12, 6), (3, 48), (12, 48)):
        found = [interval(crossed(rng, runs, prompts), seed=i) for i in range(20)]
        widths[runs, prompts] = np.mean([e.high - e.low for e in found])
    assert widths[12, 6] < widths[3, 6] and widths[3, 48] < widths[3, 6]
    assert widths[12, 48] < min(widths[12, 6], widths[3, 48])


def test_the_same_seed_gives_the_same_draws():
    group = stats.cells(table(crossed(np.random.default_rng(0), 4, 5)), "value", range(5))
    first = stats.bootstrap_means({"g": group}, resamples=50, seed=11)["g"]
    again = stats.bootstrap_means({"g": group}, resamples=50, seed=11)["g"]
    other = stats.bootstrap_means({"g": group}, resamples=50, seed=12)["g"]
    assert np.array_equal(first, again) and not np.array_equal(first, other)


@pytest.mark.parametrize(
    ("low", "high", "word"),
    [(0.01, 0.2, "yes"), (-0.2, -0.01, "no"), (-0.1, 0.1, "unclear"), (np.nan, np.nan, "unclear")],
)
def test_verdict_reads_the_side_of_zero_the_interval_lies_on(low, high, word):
    assert stats.verdict(stats.Estimate(0.0, low, high)) == word


def test_estimate_without_finite_draws_has_no_interval():
    found = stats.estimate(0.3, np.array([np.nan, np.nan]))
    assert found.mean == 0.3 and np.isnan(found.low) and np.isnan(found.high)
    assert str(stats.Estimate(0.30512, 0.1, 0.5)) == "0.305 [0.1, 0.5]"


def test_the_seed_permutation_test_counts_the_splits_by_hand():
    # 5 against 5 fully separated: only the observed split and its mirror are as extreme,
    # 2 of the C(10, 5) = 252 splits.
    difference, p = stats.permutation_p([1, 2, 3, 4, 5], [6, 7, 8, 9, 10])
    assert difference == -5 and p == pytest.approx(2 / 252)
    # 2 against 2, {0, 1} vs {2, 3}: of the 6 splits, |difference| >= 2 for 2 of them.
    assert stats.permutation_p([0, 1], [2, 3]) == (-2, pytest.approx(2 / 6))
    assert stats.permutation_p([1, 2, 3], [1, 2, 3])[1] == 1.0  # no difference at all
    # a seed that measured nothing (NaN) is left out, not counted as 0
    assert stats.permutation_p([1, 2, float("nan")], [2, 3]) == (-1, pytest.approx(4 / 6))
    one_seed = stats.permutation_p([1, float("nan")], [2, 3])  # nothing to exchange: no p
    assert one_seed[0] == -1.5 and np.isnan(one_seed[1])
