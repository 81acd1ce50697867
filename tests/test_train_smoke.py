"""End to end: GRPO training of the tiny painter through TRL, Chromium and MLflow, for real.

These run `python -m watercolor.train debug=smoke` as a user would (a few GRPO steps; the tiny
smoke model is built on first use and cached under outputs/cache).
"""

from __future__ import annotations

import os
import signal
import subprocess
import time
from pathlib import Path

import pytest
import torch
from hydra import compose, initialize_config_dir
from omegaconf import OmegaConf
from safetensors.torch import load_file
from train_helpers import CACHE, REPO, mlflow_client, run_training, train_command

from watercolor.config import CONF_DIR, model_source
from watercolor.tasks.painting.painter.tiny import SMOKE, cache_dir
from watercolor.tracking import RUN_ID_FILE

pytestmark = [pytest.mark.slow, pytest.mark.browser]


def weights(path: Path) -> dict[str, torch.Tensor]:
    return load_file(str(path / "model.safetensors"))


def artifact_paths(client, run_id: str, path: str = "") -> list[str]:
    found = []
    for item in client.list_artifacts(run_id, path):
        found += artifact_paths(client, run_id, item.path) if item.is_dir else [item.path]
    return found


def started_from(run_dir: Path) -> Path:
    """The model a run started from, by its own resolved config (Hydra's .hydra/config.yaml)."""
    return Path(model_source(OmegaConf.load(run_dir / ".hydra" / "config.yaml").model))


def test_smoke_run_trains_and_logs_everything(tmp_path):
    run_training(tmp_path, "reward=fine_grained")
    start = started_from(tmp_path / "run")
    assert start == cache_dir(SMOKE, CACHE)  # debug=smoke trains tiny.SMOKE itself
    before = weights(start)
    after = weights(tmp_path / "run" / "final")
    changed = [k for k in before if k in after and not torch.equal(before[k], after[k])]
    assert changed, "GRPO did not change a single weight"

    client = mlflow_client(tmp_path)
    (run,) = client.search_runs(client.get_experiment_by_name("watercolor").experiment_id)
    metrics = run.data.metrics
    # TRL's and the scorer's metrics under their MLflow names (watercolor.tracking.metric_name)
    expected = {"reward/total", "rollouts/execution_rate", "reward/coverage", "reward/raw/coverage"}
    assert expected <= set(metrics) and "train/loss" in metrics
    # Generation and reward wall time, and the share painted ahead (0 unless overlap_rendering).
    timing = {f"rollouts/{m}" for m in ("generation_s", "prefetched", "reward_wall_s")}
    assert timing <= set(metrics)
    # Each step's CPU over the job's processes, by part (watercolor/training/step_cpu.py): the parts
    # add up to the whole, the trainer generated, updated and scored, and Chromium painted
    # (the smoke model's replies may all fail the gate in a step: then nothing is painted).
    steps, run_id = [], run.info.run_id
    for step in range(1, 4):
        cpu = {k.removeprefix("step_cpu/"): m.value for k in metrics if k.startswith("step_cpu/")
               for m in client.get_metric_history(run_id, k) if m.step == step}  # fmt: skip
        parts = ("generation_s", "render_s", "scoring_s", "yardsticks_s", "update_s",
                 "after_update_s", "logging_s", "other_s")  # fmt: skip
        assert sum(cpu[p] for p in parts) == pytest.approx(cpu["total_s"], abs=0.1), cpu
        assert min(cpu["generation_s"], cpu["update_s"], cpu["scoring_s"]) > 0, cpu
        assert cpu["render_s"] + cpu["yardsticks_s"] >= cpu["chromium_s"], cpu
        steps.append(cpu)
    assert sum(cpu["chromium_s"] for cpu in steps) > 0, steps
    # The yardsticks at every step (watercolor/training/yardsticks.py): every run's common rulers.
    for name in ("behaviour/execution_rate", "crossreward/coarse", "crossreward/fine_grained",
                 "crossreward/gate/gated"):  # fmt: skip
        assert len(client.get_metric_history(run_id, name)) == 3, name
    own = client.get_metric_history(run_id, "crossreward/fine_grained")
    total = client.get_metric_history(run_id, "reward/total")
    assert [m.value for m in own] == pytest.approx([m.value for m in total])  # its own reward
    assert run.data.tags["reward"] == "fine_grained" and "debug=smoke" in run.data.tags["overrides"]
    assert run.data.params["trainer.num_generations"] == "4"
    assert len(client.get_metric_history(run.info.run_id, "reward/total")) == 3
    files = artifact_paths(client, run.info.run_id)
    assert any(f.endswith("grid.png") for f in files)
    assert any(f.endswith(".js") for f in files) and "rollouts.json" in files
    assert any(f.startswith("final_model/") for f in files)


def test_overlapped_rendering_trains_and_paints_replies_ahead(tmp_path):
    # The opt-in rollout_func (watercolor/training/rollout.py): TRL trains on the replies it
    # generates, and from the second step on (the reward loop is known after the first) finished
    # replies are painted while the rest of the batch is still being written. It also logs TRL's own
    # profile of its blocks (tracking.trl_profiling), once per step.
    run_training(tmp_path, "reward=gated", "overlap_rendering=true", "tracking.trl_profiling=true")
    client = mlflow_client(tmp_path)
    (run,) = client.search_runs(client.get_experiment_by_name("watercolor").experiment_id)
    ahead = [m.value for m in client.get_metric_history(run.info.run_id, "rollouts/prefetched")]
    assert len(ahead) == 3 and ahead[0] == 0 and max(ahead[1:]) > 0, ahead
    assert len(client.get_metric_history(run.info.run_id, "reward/total")) == 3
    profile = [k for k in run.data.metrics if k.startswith("profiling/Time taken: GRPOTrainer.")]
    assert {"_calculate_rewards", "compute_loss"} <= {k.rsplit(".", 1)[1] for k in profile}, profile
    # transformers' MLflowCallback is removed: the trainer's rows are logged once, by us
    assert "loss" not in run.data.metrics and "train/loss" in run.data.metrics
    assert (tmp_path / "run" / "final" / "model.safetensors").exists()


def test_resume_after_interruption(tmp_path):
    overrides = ["trainer.max_steps=4", "trainer.save_steps=1", "trainer.save_total_limit=4"]
    command = train_command(tmp_path, *overrides)
    env = {k: v for k, v in os.environ.items() if k != "MLFLOW_TRACKING_URI"}
    process = subprocess.Popen(
        command,
        cwd=REPO,
        env=env,
        start_new_session=True,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    checkpoint = tmp_path / "run" / "checkpoint-2" / "trainer_state.json"
    deadline = time.monotonic() + 900
    while not checkpoint.is_file() and process.poll() is None and time.monotonic() < deadline:
        time.sleep(0.5)
    os.killpg(process.pid, signal.SIGKILL)  # the job and its Chromium, as a crash would
    process.wait()
    assert checkpoint.is_file() and not (tmp_path / "run" / "final").exists()

    run_training(tmp_path, *overrides, "resume=true")
    client = mlflow_client(tmp_path)
    (run,) = client.search_runs(client.get_experiment_by_name("watercolor").experiment_id)
    steps = [m.step for m in client.get_metric_history(run.info.run_id, "reward/total")]
    assert max(steps) == 4 and (tmp_path / "run" / "final").is_dir()


def test_a_reward_component_that_can_score_nothing_stops_the_run_before_the_model_loads(tmp_path):
    # palette_match with no palette and no reference: once refused only at the first canvas,
    # after the model loaded and generated a group (minutes with a real model on a GPU). The
    # model path is not there either: a run that loaded the model first would fail on that.
    unset = "reward.components.palette_match.fn.palette=[]"
    missing = "model.name_or_path=/nonexistent/watercolor-model"
    command = train_command(tmp_path, "reward=coarse", unset, missing)
    env = {k: v for k, v in os.environ.items() if k != "MLFLOW_TRACKING_URI"}
    done = subprocess.run(command, cwd=REPO, env=env, capture_output=True, text=True, timeout=300)
    assert done.returncode == 2, done.stderr[-2000:]
    assert done.stderr.strip().splitlines()[-1].startswith("error: palette_match needs `palette`")
    assert not (tmp_path / "run" / RUN_ID_FILE).exists()  # no MLflow run began


# three_rewards_v2 is smoke-run as written, study callback included, by test_study_parts.py
# (one step of each of its sets, their evaluations and compare): not trained a second time here.
SMOKED_ELSEWHERE = {"three_rewards_v2"}
EXPERIMENTS = sorted(
    p.stem for p in (CONF_DIR / "experiment").glob("*.yaml") if p.stem not in SMOKED_ELSEWHERE
)


def composed(experiment: str):
    """The experiment's config as its sweep composes it, hydra node included."""
    with initialize_config_dir(config_dir=str(CONF_DIR), version_base="1.3"):
        return compose("train", [f"experiment={experiment}"], return_hydra_config=True)


def first_job(experiment: str) -> dict[str, str]:
    """Each swept parameter's first value: the one job the smoke run trains."""
    params = composed(experiment).hydra.sweeper.params or {}
    return {key: str(value).split(",")[0] for key, value in params.items()}


def smoke_overrides(experiment: str) -> list[str]:
    """One job of the experiment's sweep (each swept parameter's first value), one step, and
    no study callback (evaluations and compare; smoke-run by the test above)."""
    overrides = [f"hydra.sweeper.params.{k}={v}" for k, v in first_job(experiment).items()]
    if "study" in (composed(experiment).hydra.callbacks or {}):
        overrides.append("~hydra.callbacks.study")
    return [f"experiment={experiment}", "trainer.max_steps=1", *overrides]


@pytest.mark.parametrize("experiment", EXPERIMENTS)
def test_every_experiment_smoke_runs(tmp_path, experiment):
    # As lightning-hydra-template does: every conf/experiment/ config, as written, at smoke scale
    # (its launcher, sweeper and settings; ~1.5 min each here on 2 busy cores).
    run_training(tmp_path, *smoke_overrides(experiment), multirun=True)
    (final,) = (tmp_path / "sweep").glob("*/final/model.safetensors")
    job_dir, job = final.parents[1], first_job(experiment)
    # The job trained its step and logged it, as the sweep's first job, into the experiment's
    # own MLflow experiment (its settings reached the job, not only train.yaml's).
    client = mlflow_client(tmp_path)
    name = composed(experiment).tracking.experiment
    (run,) = client.search_runs([client.get_experiment_by_name(name).experiment_id])
    assert run.info.run_id == (job_dir / RUN_ID_FILE).read_text().strip()
    assert run.info.status == "FINISHED" and run.data.params["tracking.experiment"] == name
    assert {key: run.data.tags[key] for key in job} == job  # e.g. reward coarse, seed 0
    assert f"experiment={experiment}" in run.data.tags["overrides"]
    assert [m.step for m in client.get_metric_history(run.info.run_id, "reward/total")] == [1]
    assert "rollouts/execution_rate" in run.data.metrics
