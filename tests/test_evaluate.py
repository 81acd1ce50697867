"""`python -m watercolor.evaluate`: a trained checkpoint's summary beside the untrained model's
(issue 55). Real MLflow (a sqlite store); the runs are made as training and evaluation make them,
without a model."""

from __future__ import annotations

import mlflow
import pytest

from watercolor import evaluate
from watercolor.config import compose_config
from watercolor.tracking import flatten

WEIGHTS = "abcdef123456"


@pytest.fixture
def store(tmp_path, monkeypatch):
    monkeypatch.delenv("MLFLOW_TRACKING_URI", raising=False)
    uri = f"sqlite:///{tmp_path}/mlflow.db"
    client = mlflow.MlflowClient(uri)
    experiment = client.create_experiment("watercolor", artifact_location=str(tmp_path / "art"))
    return uri, client, experiment


def evaluation(client, experiment, cfg, totals, tags) -> str:
    """An evaluation run as `watercolor.evaluation.held_out.run` logs one."""
    weights = tags.pop("_weights", "")  # a param, not a tag: the fingerprint of what it loaded
    run = client.create_run(experiment, tags={"kind": "evaluate", **tags})
    plain = {"checkpoint": cfg.checkpoint, "task": {"name": cfg.task.name},
             "num_prompts": cfg.num_prompts, "samples": cfg.samples, "seed": cfg.seed}  # fmt: skip
    for key, value in (flatten(plain) | {"weights": weights}).items():
        client.log_param(run.info.run_id, key, value)
    for key, value in totals.items():
        client.log_metric(run.info.run_id, key, value)
    return run.info.run_id


def test_a_checkpoints_summary_says_what_it_gained_over_the_untrained_model(store):
    uri, client, experiment = store
    trained = client.create_run(experiment, tags={"weights": WEIGHTS, "model": "tiny"}).info.run_id
    cfg = compose_config("evaluate", [f"tracking.uri={uri}", "checkpoint=outputs/runs/x"])
    summary = {"total/coarse": 0.6, "total/gated": 0.5, "samples": 32.0}
    this = evaluation(client, experiment, cfg, summary, {"source_run_id": trained})
    overrides = ["checkpoint=outputs/runs/x", "num_prompts=8"]

    said = evaluate.against_untrained(cfg, summary, this, overrides)
    assert said.startswith(f"against the untrained model: no evaluation of its weights ({WEIGHTS})")
    assert "-m watercolor.evaluate model=tiny num_prompts=8` makes one" in said

    untrained = compose_config("evaluate", [f"tracking.uri={uri}"])
    found = evaluation(client, experiment, untrained, {"total/coarse": 0.45, "total/gated": 0.2},
                       {"_weights": WEIGHTS})  # fmt: skip
    said = evaluate.against_untrained(cfg, summary, this, overrides)
    assert said.splitlines() == [
        f"against the untrained model (weights {WEIGHTS}, evaluation {found}):",
        "  total/coarse  0.450 -> 0.600  (+0.150)",
        "  total/gated  0.200 -> 0.500  (+0.300)",
    ]
