"""Real training, then compare and evaluate over it, as a user would run them.

`python -m watercolor.train debug=smoke trainer.max_steps=2` logs a real run to a temporary
MLflow store (the smoke model comes from the shared cache); `watercolor.compare` lays it out
from its Hydra dir, and `python -m watercolor.evaluate` samples its checkpoint by run id and
the untrained model; `compare` then adds the matrix with its intervals and the verdict.
"""

from __future__ import annotations

import math
import os
import subprocess
import sys

import mlflow
import pandas as pd
import pytest
from analysis_helpers import REPO

from watercolor.analysis import comparison, records
from watercolor.config import reward_set_names

pytestmark = [pytest.mark.slow, pytest.mark.browser]
REWARD_SETS = reward_set_names(offline=True, task="painting")  # what evaluate scores with


def run_module(module: str, *overrides: str, uri: str) -> None:
    env = os.environ | {"MLFLOW_TRACKING_URI": uri}
    command = [sys.executable, "-m", module, "debug=smoke", *overrides]
    result = subprocess.run(command, cwd=REPO, env=env, capture_output=True, text=True,
                            timeout=600)  # fmt: skip
    assert result.returncode == 0, result.stderr[-4000:]


def test_train_then_compare_and_evaluate_the_run(tmp_path, monkeypatch):
    uri = f"sqlite:///{tmp_path}/mlflow.db"
    shared = [f"tracking.uri={uri}", f"tracking.artifacts={tmp_path}/artifacts",
              f"paths.cache={REPO}/outputs/cache"]  # fmt: skip
    run_module("watercolor.train", "trainer.max_steps=2", f"hydra.run.dir={tmp_path}/run",
               *shared, uri=uri)  # fmt: skip
    run_id = (tmp_path / "run" / "mlflow_run_id").read_text().strip()

    monkeypatch.setenv("MLFLOW_TRACKING_URI", uri)
    comparison.main(["--sweep-dir", str(tmp_path / "run"), "--out", str(tmp_path / "compare")])
    table = pd.read_csv(tmp_path / "compare" / "runs.csv")
    assert list(table["run_id"]) == [run_id] and table["steps"].item() == 2
    assert table["reward_set"].item() == "fine_grained" and "final/reward/total" in table
    assert "final/reward/translucent_layering" in table
    assert (tmp_path / "compare" / "curves.png").is_file()
    assert "grid.png" in (tmp_path / "compare" / "gallery.html").read_text()

    run_module("watercolor.evaluate", f"checkpoint={run_id}", "num_prompts=2", "samples=2",
               f"hydra.run.dir={tmp_path}/evaluate", f"paths.downloads={tmp_path}/downloads",
               *shared, uri=uri)  # fmt: skip
    samples = pd.read_csv(tmp_path / "evaluate" / "samples.csv")
    assert len(samples) == 4 and {f"total/{n}" for n in REWARD_SETS} <= set(samples.columns)
    assert (tmp_path / "evaluate" / "gallery.html").is_file()
    client = mlflow.MlflowClient(uri)
    experiment = client.get_experiment_by_name("watercolor").experiment_id
    (evaluation,) = client.search_runs([experiment], "tags.kind = 'evaluate'")
    assert evaluation.data.tags["source_run_id"] == run_id
    assert {"total/gated", "execution_rate"} <= set(evaluation.data.metrics)
    logged = {a.path for a in client.list_artifacts(evaluation.info.run_id)}
    assert {"samples.csv", "samples.parquet", "summary.json", "gallery.html"} <= logged
    assert len(records.select_runs(client, experiment="watercolor")) == 1  # training only

    run_module("watercolor.evaluate", "num_prompts=2", "samples=2",
               f"hydra.run.dir={tmp_path}/untrained", *shared, uri=uri)  # fmt: skip
    check_statistics(comparison.main(["--sweep-dir", str(tmp_path / "run"), "--resamples", "500",
                                   "--out", str(tmp_path / "compare_evaluated")]))  # fmt: skip


def check_statistics(paths: dict) -> None:
    """The matrix with intervals, the verdict and the behaviours of one trained set and the
    untrained model, each scored by every reward set."""
    ci = pd.read_csv(paths["matrix_ci"])
    assert set(ci["trained_with"]) == {"(untrained)", "fine_grained"}
    assert set(ci["scored_by"]) == set(REWARD_SETS) and len(ci) == 2 * len(REWARD_SETS)
    assert ((ci["low"] <= ci["mean"]) & (ci["mean"] <= ci["high"])).all()
    assert ci["mean"].notna().all()
    (verdict,) = pd.read_csv(paths["verdict"]).to_dict("records")
    assert verdict["scored_by"] == "fine_grained" and verdict["verdict"].startswith("n/a")
    assert verdict["gain_low"] <= verdict["gain_vs_untrained"] <= verdict["gain_high"]
    assert not math.isnan(verdict["gain_vs_untrained"])
    behaviour = pd.read_csv(paths["behaviour_ci"])
    tokens = behaviour[behaviour["behaviour"] == "completion_tokens"]
    assert set(tokens["comparison"]) == {"(untrained)", "fine_grained",
                                         "fine_grained - (untrained)"}  # fmt: skip
    assert paths["matrix_heatmap"].is_file()
