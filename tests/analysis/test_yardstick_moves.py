"""A yardstick's change per job, and which jobs are identical, on constructed histories (compare's
tables over a store: tests/analysis/test_compare.py)."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest

from watercolor.analysis.yardstick_moves import identical_jobs, job_change, moves, moves_text


def test_a_jobs_change_is_its_last_five_values_mean_minus_its_first_fives():
    values = pd.Series(np.arange(20, dtype=float), index=np.arange(1, 21))
    assert job_change(values) == pytest.approx(17.0 - 2.0)  # 15..19 against 0..4
    assert job_change(values.iloc[:6]) == pytest.approx(4.0 - 1.0)  # 3 a side under 10 values
    assert job_change(pd.Series([0.2, np.nan, 0.5])) == pytest.approx(0.3)  # NaN left out
    assert math.isnan(job_change(pd.Series([0.2])))


def frame(reward, flat_blocks=None) -> pd.DataFrame:
    columns = {"reward/total": reward}
    if flat_blocks is not None:
        columns["behaviour/flat_block_rate"] = flat_blocks
    return pd.DataFrame(columns, index=range(1, len(reward) + 1), dtype=float)


def test_jobs_with_the_same_reward_and_yardsticks_at_every_step_are_identical():
    # (fine_grained and gated in a quick sweep: the same replies, 1e-4 apart at most)
    histories = {
        "a": frame([0.1, 0.2], [0.5, 0.4]),
        "b": frame([0.3, 0.4], [0.5, 0.4]),  # another reward
        "c": frame([0.1, 0.2], [0.5, 0.4]),  # a's twin
        "d": frame([0.1, 0.2], [0.5, 0.3]),  # a's reward, another yardstick
        "e": frame([0.1, 0.2, 0.3], [0.5, 0.4, 0.3]),  # a step more
        "f": frame([0.1, 0.2]),  # the yardstick not logged
        "g": frame([0.10009, 0.2], [0.5, 0.40004]),  # a's, but for the browser's noise
        "h": frame([0.102, 0.2], [0.5, 0.4]),  # a gap a chart could show
    }
    table = pd.DataFrame({"run_id": list(histories), "label": [f"job {k}" for k in histories]})
    assert identical_jobs(table, histories, ["behaviour/flat_block_rate"]) == [
        ["job a", "job c", "job g"]
    ]
    assert identical_jobs(table, histories, []) == [["job a", "job c", "job d", "job f", "job g"]]


def test_jobs_of_one_logged_step_give_a_table_that_reads_back(tmp_path):
    # a sweep of one-step jobs (the experiments' smoke runs) moves nothing: the table is empty,
    # and compare reads it back and says so (it failed: a file with no columns)
    empty = pd.DataFrame(columns=["metric", "arm", "seeds", "change", "low", "high"])
    moves(empty, {}).to_csv(tmp_path / "moves.csv", index=False)
    read = pd.read_csv(tmp_path / "moves.csv")
    assert read.empty and "(no yardsticks logged)" in moves_text(read)
