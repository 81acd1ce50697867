"""The SVG task through the study machinery, for real at smoke scale (issue 33's "a smoke
comparison of two SVG reward sets runs through the study machinery"): one seed of svg_coarse and
svg_fine trained from the task's smoke painter, each evaluated, the untrained model evaluated,
and compare's tables and galleries built from the records, with `.svg` sketches logged."""

from __future__ import annotations

import os
import subprocess

import pandas as pd
import pytest
from train_helpers import REPO, mlflow_client, train_command

pytestmark = [pytest.mark.slow, pytest.mark.browser]


@pytest.mark.timeout(1500)
def test_two_svg_reward_sets_compare_through_the_study_machinery(tmp_path, monkeypatch):
    monkeypatch.delenv("MLFLOW_TRACKING_URI", raising=False)
    command = train_command(
        tmp_path, "experiment=svg_rewards", "seed=0", f"study.records={tmp_path}/records",
        "+hydra.callbacks.study.num_prompts=2", "+hydra.callbacks.study.samples=2",
        "tracking.log_canvases_every=1", "renderer.workers=1", multirun=True,
    )  # fmt: skip
    env = {k: v for k, v in os.environ.items() if k != "MLFLOW_TRACKING_URI"}
    done = subprocess.run(command, cwd=REPO, env=env, capture_output=True, text=True, timeout=1400)
    assert done.returncode == 0, done.stderr[-4000:]
    assert "this part runs (2): svg_coarse-seed0, svg_fine-seed0" in done.stdout

    runs = mlflow_client(tmp_path).search_runs(
        [mlflow_client(tmp_path).get_experiment_by_name("svg_rewards").experiment_id]
    )
    trained = [r for r in runs if "kind" not in r.data.tags]
    assert sorted(r.data.tags["reward"] for r in trained) == ["svg_coarse", "svg_fine"]
    assert {r.data.tags["task"] for r in trained} == {"svg"}
    assert {r.data.tags["model"] for r in trained} == {"svg_smoke"}
    client = mlflow_client(tmp_path)
    steps = [a.path for a in client.list_artifacts(trained[0].info.run_id, "rollouts")]
    logged = [a.path for a in client.list_artifacts(trained[0].info.run_id, steps[0])]
    sketches = [path for path in logged if "/sketch_" in path]
    assert sketches and all(path.endswith(".svg") for path in sketches), logged

    records = tmp_path / "records"
    samples = pd.read_parquet(records / "svg_fine-seed0" / "evaluation" / "samples.parquet")
    assert {"total/svg_coarse", "total/svg_fine", "svg_fine/translucent_shapes"} <= set(samples)
    assert (samples["status"] == "ok").any(), list(samples["violations"])  # the painter draws
    out = _compare_dir(tmp_path)
    verdict = pd.read_csv(out / "verdict.csv")
    assert {"svg_coarse", "svg_fine"} <= set(verdict["scored_by"])
    assert list(pd.read_csv(out / "matrix.csv")["trained_with"]) == [
        "(untrained)", "svg_coarse", "svg_fine"]  # fmt: skip
    assert (out / "matrix_gallery.png").is_file()


def _compare_dir(tmp_path):
    found = list((tmp_path / "sweep").rglob("compare/verdict.csv"))
    assert len(found) == 1, found
    return found[0].parent
