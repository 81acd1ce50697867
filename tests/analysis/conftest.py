"""Fixtures for the analysis tests (shared constants and helpers: analysis_helpers.py)."""

from __future__ import annotations

import pytest
from analysis_helpers import evaluation_samples, log_evaluation_run, log_training_run


@pytest.fixture(scope="session")
def synthetic_store(tmp_path_factory) -> dict:
    """{uri, sweep_dir, run_ids: {(reward set, seed): id}, evaluations} of the four synthetic
    training runs (study `STUDY`), plus an evaluation of each, one of the untrained model and
    one of another study's untrained model (key "other study")."""
    root = tmp_path_factory.mktemp("synthetic-store")
    uri = f"sqlite:///{root}/mlflow.db"
    run_ids = {}
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("MLFLOW_TRACKING_URI", uri)
        for n, (reward_set, seed) in enumerate((r, s) for r in ("coarse", "gated") for s in (0, 1)):
            run_dir = root / "sweep" / f"{n}_{reward_set}"
            run_ids[reward_set, seed] = log_training_run(
                uri, run_dir, reward_set, seed, root / "artifacts"
            )
        evaluations = {
            key: log_evaluation_run(
                uri, root / f"evaluate/{n}", run_id, evaluation_samples(*key), root / "artifacts"
            )  # fmt: skip
            for n, (key, run_id) in enumerate(run_ids.items())
        }
        untrained = root / "evaluate" / "untrained"
        evaluations[None] = log_evaluation_run(
            uri, untrained, None, evaluation_samples(None, 0), root / "artifacts"
        )
        # Another study's baseline in the same experiment: never this study's untrained row.
        evaluations["other study"] = log_evaluation_run(
            uri, root / "evaluate" / "other", None, evaluation_samples("gated", 5),
            root / "artifacts", study="another-study",
        )  # fmt: skip
    return {"uri": uri, "sweep_dir": root / "sweep", "run_ids": run_ids,
            "evaluations": evaluations}  # fmt: skip


@pytest.fixture
def store(synthetic_store, monkeypatch) -> dict:
    """The synthetic store, with MLFLOW_TRACKING_URI pointing at it for the test."""
    monkeypatch.setenv("MLFLOW_TRACKING_URI", synthetic_store["uri"])
    return synthetic_store
