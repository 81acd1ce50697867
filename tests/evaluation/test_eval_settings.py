"""`evaluate` reads what the model was trained with from one source, not from copies of its own:
the reward set a revising model's feedback names (read back from its training run or its build)
and the torch threads it generates with (conf/machine, as training). Real MLflow (sqlite)."""

from __future__ import annotations

import json

import mlflow
import pytest
from omegaconf import OmegaConf

from watercolor.config import compose_config, compose_train, default_option
from watercolor.evaluation import held_out
from watercolor.training import study


@pytest.fixture
def trained_run(tmp_path, monkeypatch) -> str:
    """A training run with `reward=gated` and a reweighted component, logged as training logs
    its tag and resolved config (watercolor.train)."""
    monkeypatch.delenv("MLFLOW_TRACKING_URI", raising=False)
    mlflow.set_tracking_uri(f"sqlite:///{tmp_path}/mlflow.db")
    monkeypatch.delenv("MLFLOW_TRACKING_URI", raising=False)
    trained = compose_train(["reward=gated", "reward.components.coverage.weight=0"])
    logged = OmegaConf.create({"reward": OmegaConf.to_container(trained.reward, resolve=True)})
    experiment = mlflow.create_experiment("trained", (tmp_path / "artifacts").as_uri())
    with mlflow.start_run(experiment_id=experiment) as run:
        mlflow.set_tag("reward", "gated")
        mlflow.log_text(OmegaConf.to_yaml(logged), "config.yaml")
    return run.info.run_id


def test_revision_feedback_names_the_set_the_model_was_trained_with(trained_run, tmp_path):
    asked = compose_config("evaluate").feedback_reward  # conf/evaluate.yaml, as a user runs it
    name, rewards = held_out.feedback_rewards(asked, str(tmp_path / "final"), trained_run)
    assert name == "gated" and rewards.gate == ("clean_run", "gate_pass", "not_blank")
    assert rewards.weights["coverage"] == 0  # the run's own override, not conf/reward's 0.05
    # No training run: the set a built revising painter's records were scored with.
    built = tmp_path / "tiny-revise-0123"
    built.mkdir()
    (built / "build.json").write_text(json.dumps({"config": {"feedback_reward": "coarse"}}))
    assert held_out.feedback_rewards(asked, str(built), None)[0] == "coarse"
    # Neither: conf/train.yaml's default set, which a default run's feedback names.
    assert held_out.feedback_rewards(asked, "Qwen/Qwen3.5-4B", None)[0] == default_option("reward")
    # A set named on the command line wins.
    assert held_out.feedback_rewards("coarse", str(built), trained_run)[0] == "coarse"


class Stop(Exception):
    """Raised in place of sampling: the test only reads what it was asked with."""


def test_evaluation_generates_with_the_threads_training_takes(tmp_path, monkeypatch):
    assert compose_config("evaluate").threads == compose_train().threads  # one source
    given = {}

    def noted(model_path, prompts, reward_sets, spec, canvas_dir):
        given["spec"] = spec
        raise Stop

    monkeypatch.setattr(held_out, "evaluate_model", noted)
    monkeypatch.delenv("MLFLOW_TRACKING_URI", raising=False)
    cfg = compose_config("evaluate", [
        "threads=3", "checkpoint=Qwen/Qwen3.5-4B", "rewards=[coarse]", f"paths.outputs={tmp_path}",
    ])  # fmt: skip
    with pytest.raises(Stop):
        held_out.run(cfg, tmp_path / "evaluation")
    assert given["spec"].threads == 3


@pytest.mark.parametrize("threads", [2, None])
def test_a_studys_evaluations_take_their_training_jobs_threads(threads, tmp_path, monkeypatch):
    seen = []
    monkeypatch.setattr(held_out, "run", lambda cfg, out_dir: seen.append(cfg.threads))
    config = OmegaConf.create({
        "threads": threads, "study": {"records": None},
        "tracking": {"experiment": "e", "uri": f"sqlite:///{tmp_path}/m.db", "artifacts": "a"},
        "paths": {"cache": str(tmp_path)},
    })  # fmt: skip
    study.Study().evaluate(config, [], tmp_path / "evaluation", tmp_path, "evaluate-x")
    assert seen == [threads]
