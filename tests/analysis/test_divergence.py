"""The over-optimisation alarm on constructed metric histories, both ways: it fires where the own
reward keeps rising while the audited score falls, at the step the rule gives, and never when
they move together, when the own reward is flat, or when the audited set scored nothing."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from watercolor.analysis.divergence import (
    audited_name,
    first_divergence,
    relative_to_start,
    watch,
)

STEPS = np.arange(1, 61)


def steps(values, every: int = 1) -> pd.Series:
    """A metric's history over STEPS, logged every `every` steps."""
    series = pd.Series(values, index=STEPS, dtype=float)
    return series[series.index % every == 0]


def jump(before: float, after: float, at: int = 31) -> np.ndarray:
    """A level that moves from `before` to `after` at step `at`."""
    return np.where(at > STEPS, before, after)


def test_it_fires_where_the_own_reward_keeps_rising_while_the_audited_score_falls():
    # From step 31 the own reward is 0.12 higher and the audited score 0.12 lower. At step t the
    # later half (t-9..t) holds t-30 steps after the jump: a change of 0.012 * (t - 30), past
    # 0.03 from step 33, so the third diverging check in a row is step 35.
    alarm = first_divergence(steps(jump(0.2, 0.32)), steps(jump(0.5, 0.38)))
    assert alarm is not None and alarm.step == 35
    assert alarm.own_change == pytest.approx(0.06) and alarm.audited_change == pytest.approx(-0.06)
    assert (alarm.first, alarm.middle) == (16, 26)
    assert str(alarm).startswith("step 35: own reward +0.060 while the audited set's score -0.060")


def test_an_audited_set_scored_every_five_steps_is_checked_where_it_has_scores():
    # Checks at 35, 40, 45 diverge (halves of two audited scores each): it fires at the third.
    alarm = first_divergence(steps(jump(0.2, 0.32)), steps(jump(0.5, 0.38), every=5))
    assert alarm is not None and alarm.step == 45


@pytest.mark.parametrize(
    ("own", "audited"),
    [
        (jump(0.2, 0.32), jump(0.5, 0.62)),  # both rise: the set is not gamed
        (jump(0.2, 0.08), jump(0.5, 0.38)),  # both fall
        (np.full(60, 0.2), jump(0.5, 0.38)),  # own flat while the audited score falls
        (jump(0.2, 0.32), np.full(60, 0.5)),  # own rises, the audited score holds
        (jump(0.2, 0.22), jump(0.5, 0.48)),  # diverging, but by less than MIN_CHANGE
    ],
    ids=["both-rise", "both-fall", "own-flat", "audited-flat", "too-small"],
)
def test_it_does_not_fire_unless_they_diverge(own, audited):
    assert first_divergence(steps(own), steps(audited)) is None


def test_it_does_not_fire_without_audited_scores():
    rising = steps(jump(0.2, 0.32))
    assert first_divergence(rising, pd.Series(dtype=float)) is None
    assert first_divergence(rising, steps(np.full(60, np.nan))) is None  # logged as NaN
    # Too few: one audited score a half (every 10 steps) never makes a check.
    assert first_divergence(rising, steps(jump(0.5, 0.38), every=10)) is None


def test_two_diverging_checks_then_a_break_do_not_fire():
    # The own reward rises by 0.12 at 31 and drops to 0 at 35: checks 33 and 34 diverge (+0.036,
    # +0.048), 35 does not (+0.028), and none after.
    own = np.select([STEPS < 31, STEPS < 35], [0.2, 0.32], 0.0)
    assert first_divergence(steps(own), steps(jump(0.5, 0.38))) is None
    assert first_divergence(steps(own), steps(jump(0.5, 0.38)), persist=2).step == 34


def test_noise_alone_does_not_fire():
    rng = np.random.default_rng(0)
    for _ in range(20):  # 20 flat runs, a step's noise 0.02 either side
        own, audited = rng.normal(0.3, 0.02, 60), rng.normal(0.5, 0.02, 60)
        assert first_divergence(steps(own), steps(audited)) is None


def test_relative_to_start_subtracts_the_mean_of_the_first_ten_steps():
    series = steps(np.arange(60, dtype=float))  # 0 at step 1
    shifted = relative_to_start(series)
    assert shifted.iloc[0] == pytest.approx(-4.5) and shifted.loc[60] == pytest.approx(54.5)


def test_the_audited_set_is_read_from_the_runs_config():
    assert audited_name("task:\n  audited_reward: show_through\n") == "show_through"
    assert audited_name("task:\n  name: painting\n") is None
    assert audited_name("") is None


def test_a_run_trained_on_the_audited_set_has_nothing_to_diverge_from():
    history = pd.DataFrame({"reward/total": steps(jump(0.2, 0.32)),
                            "crossreward/show_through": steps(jump(0.5, 0.38))})  # fmt: skip
    assert watch(history, "fine_grained", "show_through").alarm is not None
    trained_on_it = watch(history, "show_through", "show_through")
    assert trained_on_it.alarm is None and "nothing to diverge from" in trained_on_it.says()
