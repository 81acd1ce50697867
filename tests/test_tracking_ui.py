"""What a person sees of a training run in MLflow (issue 11 item 7): the run is named by reward
set, seed and time, and each logged step's rollouts are an MLflow table whose canvas column holds
images, beside the reply, reward, status and each component (issue 52 item 7). Real MLflow
(sqlite store); tests/test_mlflow_ui.py opens the UI in Chromium."""

import datetime
import io
import json
from dataclasses import replace
from pathlib import Path

import mlflow
import pytest
from analysis_helpers import rollouts  # synthetic scored steps, shared
from PIL import Image

from watercolor.tracking import log_rollouts, mlflow_run, run_name


@pytest.fixture
def client(tmp_path, monkeypatch) -> mlflow.MlflowClient:
    monkeypatch.delenv("MLFLOW_TRACKING_URI", raising=False)
    return mlflow.MlflowClient(f"sqlite:///{tmp_path}/mlflow.db")


def logged_run(client, tmp_path, steps=(1, 2)) -> str:
    with mlflow_run(client.tracking_uri, "ui", params={"seed": 3}, tags={"reward": "gated"},
                    run_dir=tmp_path / "job", artifact_root=str(tmp_path / "art"),
                    run_name=run_name("gated", 3)) as run:  # fmt: skip
        for step in steps:
            log_rollouts(rollouts(step, ["gate_pass", "coverage"]))
    return run.info.run_id


def test_runs_are_named_by_set_seed_and_start_time(client, tmp_path):
    run = client.get_run(logged_run(client, tmp_path, steps=()))
    assert run.info.run_name.startswith("gated seed 3 ")
    started = datetime.datetime.strptime(run.info.run_name[-19:], "%Y-%m-%d %H:%M:%S")
    assert abs(datetime.datetime.now() - started) < datetime.timedelta(minutes=5)


@pytest.mark.slow  # slow tier: experiments/2026-12-07_test_tiers
def test_each_steps_rollouts_are_a_table_with_canvas_images(client, tmp_path):
    run_id = logged_run(client, tmp_path)
    local = client.download_artifacts(run_id, "rollouts.json", str(tmp_path))
    table = json.loads(Path(local).read_text())
    columns = table["columns"]
    rows = [dict(zip(columns, row, strict=True)) for row in table["data"]]
    # As a person reads it (issue 52 item 7): canvas, reply, reward, status, then every component
    # as a number, then the rest; no column name with a dot (the UI's table shows those empty).
    assert columns == ["canvas", "reply", "reward", "status", "c/gate_pass", "c/coverage", "step",
                       "index", "violations", "errors", "prompt", "completion_chars"]  # fmt: skip
    assert not any("." in column for column in columns)
    assert [(r["step"], r["index"]) for r in rows] == [(s, i) for s in (1, 2) for i in range(4)]
    painted, refused = rows[4], rows[7]
    assert painted["reply"] == "```js\n// reply 0 at step 2\n```" and painted["c/coverage"] == 0.5
    assert refused["status"] == "violation" and refused["violations"] == "no_setup"
    for row, colour in ((painted, (60, 120, 200)), (refused, (128, 128, 128))):
        assert row["canvas"]["type"] == "image"  # what the UI draws as a picture
        local = client.download_artifacts(run_id, row["canvas"]["filepath"], str(tmp_path))
        with Image.open(local) as image:
            assert image.convert("RGB").getpixel((5, 5)) == colour


@pytest.mark.slow  # slow tier: experiments/2026-12-07_test_tiers
def test_each_steps_canvases_are_the_browsers_pngs_beside_their_sketches(client, tmp_path):
    logged = rollouts(2, ["gate_pass", "coverage"])
    stored = io.BytesIO()  # as a browser may encode it: another compression than PIL's default
    Image.new("RGB", (30, 30), (200, 90, 40)).save(stored, "PNG", compress_level=0)
    logged.canvases[0] = replace(logged.canvases[0], png=stored.getvalue())
    with mlflow_run(client.tracking_uri, "ui", params={}, tags={}, run_dir=tmp_path / "job",
                    artifact_root=str(tmp_path / "art")) as run:  # fmt: skip
        log_rollouts(logged, ".js")  # the painting task's suffix
    local = Path(client.download_artifacts(run.info.run_id, "rollouts/step_00002", str(tmp_path)))
    expected = ["grid.png", *(f"canvas_{i:02d}.png" for i in range(3))]  # the refused: no canvas
    expected += [f"sketch_{i:02d}.js" for i in range(4)]
    assert sorted(p.name for p in local.iterdir()) == sorted(expected)
    for i in range(3):  # byte for byte: not decoded and encoded again
        assert (local / f"canvas_{i:02d}.png").read_bytes() == logged.canvases[i].png
    assert (local / "sketch_03.js").read_text() == logged.replies[3]
