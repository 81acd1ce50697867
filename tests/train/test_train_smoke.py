"""End to end: GRPO training of the tiny painter through TRL, Chromium and MLflow, for real.

These run `python -m watercolor.train debug=smoke` as a user would (a few GRPO steps; the tiny
smoke model is built on first use and cached under outputs/cache).
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pandas as pd
import pytest
import torch
from safetensors.torch import load_file
from train_helpers import CACHE, REPO, mlflow_client, run_training, train_command

from watercolor.policy.tiny import SMOKE, ensure_tiny_model

pytestmark = [pytest.mark.slow, pytest.mark.browser]


def weights(path: Path) -> dict[str, torch.Tensor]:
    return load_file(str(path / "model.safetensors"))


def artifact_paths(client, run_id: str, path: str = "") -> list[str]:
    found = []
    for item in client.list_artifacts(run_id, path):
        found += artifact_paths(client, run_id, item.path) if item.is_dir else [item.path]
    return found


def test_smoke_run_trains_and_logs_everything(tmp_path):
    run_training(tmp_path, "reward=fine_grained")
    before = weights(ensure_tiny_model(SMOKE, CACHE, progress=False))
    after = weights(tmp_path / "run" / "final")
    changed = [k for k in before if k in after and not torch.equal(before[k], after[k])]
    assert changed, "GRPO did not change a single weight"

    client = mlflow_client(tmp_path)
    (run,) = client.search_runs(client.get_experiment_by_name("watercolor").experiment_id)
    metrics = run.data.metrics
    assert {"reward", "execution_rate", "rewards/coverage/mean", "components/coverage"} <= set(
        metrics
    )
    # Replies are painted while the rest of the batch generates (watercolor/rollout.py).
    assert {"generation_s", "prefetched", "reward_wall_s"} <= set(metrics)
    assert run.data.tags["reward"] == "fine_grained" and "debug=smoke" in run.data.tags["overrides"]
    assert run.data.params["trainer.num_generations"] == "4"
    assert len(client.get_metric_history(run.info.run_id, "reward")) == 3
    files = artifact_paths(client, run.info.run_id)
    assert any(f.endswith("grid.png") for f in files)
    assert any(f.endswith(".js") for f in files) and "rollouts.json" in files
    assert any(f.startswith("final_model/") for f in files)


def test_two_set_multirun(tmp_path):
    run_training(tmp_path, "reward=coarse,gated", "trainer.max_steps=1", multirun=True)
    jobs = sorted((tmp_path / "sweep").glob("*_*"))
    assert [j.name for j in jobs] == ["0_coarse", "1_gated"]
    client = mlflow_client(tmp_path)
    runs = client.search_runs(client.get_experiment_by_name("watercolor").experiment_id)
    assert sorted(r.data.tags["reward"] for r in runs) == ["coarse", "gated"]
    assert {(j / "mlflow_run_id").read_text() for j in jobs} == {r.info.run_id for r in runs}
    # ... and `compare` lays the sweep's runs side by side.
    out = tmp_path / "compare"
    result = subprocess.run(
        [sys.executable, "-m", "watercolor.compare", "--sweep-dir", str(tmp_path / "sweep"),
         "--tracking-uri", f"sqlite:///{tmp_path}/mlflow.db", "--out", str(out), "--no-log"],
        cwd=REPO, capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr[-3000:]
    assert len(pd.read_csv(out / "runs.csv")) == 2
    assert (out / "curves.png").is_file() and (out / "gallery.html").is_file()


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
    steps = [m.step for m in client.get_metric_history(run.info.run_id, "reward")]
    assert max(steps) == 4 and (tmp_path / "run" / "final").is_dir()
