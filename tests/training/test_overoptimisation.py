"""The over-optimisation alarm in a training run: fed TRL's logs step by step, it says so once in
the log and as the run's MLflow tag the first time the own reward keeps rising while the audited
set's score falls, and logs the run's view when training ends. Real MLflow (sqlite store); the
rule itself is tested in tests/analysis/test_divergence.py."""

from __future__ import annotations

from types import SimpleNamespace

import mlflow
import numpy as np
import pytest

from watercolor.tracking import mlflow_run
from watercolor.training.overoptimisation import TAG, OverOptimisationAlarm


def train(alarm: OverOptimisationAlarm, own, audited, uri: str, run_dir) -> str:
    """Hand the callback 60 steps of TRL's logs (`audited`: None logs no cross-score), inside a
    run of a fresh store; end training; the run's id."""
    with mlflow_run(uri, "alarm", params={}, tags={}, run_dir=run_dir) as run:
        for step in range(1, 61):
            logs = {"reward": own(step), "loss": 0.1, "crossreward/coarse": 0.4}
            if audited is not None:
                logs["crossreward/show_through"] = audited(step)
            alarm.on_log(None, SimpleNamespace(global_step=step), None, logs=logs)
        alarm.on_train_end(None, SimpleNamespace(global_step=60), None)
    return run.info.run_id


def rising(step: int) -> float:
    return 0.2 if step < 31 else 0.32


def falling(step: int) -> float:
    return 0.5 if step < 31 else 0.38


@pytest.fixture
def store(tmp_path, monkeypatch) -> mlflow.MlflowClient:
    monkeypatch.delenv("MLFLOW_TRACKING_URI", raising=False)
    return mlflow.MlflowClient(f"sqlite:///{tmp_path}/mlflow.db")


def test_a_diverging_run_says_so_once_and_carries_a_tag(store, tmp_path, capsys):
    alarm = OverOptimisationAlarm("show_through", own_set="fine_grained")
    run_id = train(alarm, rising, falling, store.tracking_uri, tmp_path / "job")
    said = [line for line in capsys.readouterr().out.splitlines() if "over-optimisation" in line]
    assert said == [
        "over-optimisation: step 35: own reward +0.060 while show_through's score -0.060 "
        "(mean of steps 26-35 minus steps 16-25), 3 checks in a row"
    ]
    run = store.get_run(run_id)
    assert run.data.tags[TAG] == said[0].removeprefix("over-optimisation: ")
    assert "overoptimisation.png" in {a.path for a in store.list_artifacts(run_id)}


@pytest.mark.parametrize(
    ("audited_set", "own", "audited"),
    [
        ("show_through", rising, lambda step: 0.5 + rising(step)),  # both rise
        ("show_through", lambda step: 0.2, falling),  # own flat
        ("show_through", rising, None),  # the audited set scored nothing
        (None, rising, falling),  # the task names no audited set
    ],
    ids=["both-rise", "own-flat", "audited-missing", "no-audited-set"],
)
@pytest.mark.slow  # slow tier: experiments/2026-12-07_test_tiers
def test_a_run_that_does_not_diverge_says_nothing(store, tmp_path, capsys, audited_set, own,
                                                  audited):  # fmt: skip
    run_id = train(OverOptimisationAlarm(audited_set), own, audited, store.tracking_uri,
                   tmp_path / "job")  # fmt: skip
    assert "over-optimisation" not in capsys.readouterr().out
    assert TAG not in store.get_run(run_id).data.tags


def test_the_history_keeps_mlflows_names_and_skips_what_is_not_a_number():
    alarm = OverOptimisationAlarm("show_through")
    logs = {"reward": 0.3, "crossreward/show_through": np.nan, "crossreward/gate/coarse": 1.0,
            "completions/mean_length": 10.0, "crossreward/coarse": "n/a"}  # fmt: skip
    alarm.on_log(None, SimpleNamespace(global_step=4), None, logs=logs)
    assert alarm.history == {"reward/total": {4: 0.3}, "crossreward/gate/coarse": {4: 1.0}}
