"""The study experiment in parts, for real at smoke scale: two parts of one study share a records
folder; the second runs only what the first left; compare rebuilds the answer from the records
alone, and gives the same tables as from the MLflow store. A failing hook fails the command."""

from __future__ import annotations

import json
import os
import subprocess

import pandas as pd
import pytest
from train_helpers import REPO, mlflow_client, train_command

from watercolor.analysis import comparison
from watercolor.analysis import records as records_module

pytestmark = [pytest.mark.slow, pytest.mark.browser]
SMOKE_STUDY = (
    "experiment=three_rewards_v2", "hydra.sweeper.params.seed=0", "trainer.max_steps=1",
    "+hydra.callbacks.study.num_prompts=2", "+hydra.callbacks.study.samples=2",
    "tracking.log_canvases_every=1",  # the study logs every 10th step; the gallery needs one
    # Cheaper than the smoke run, checking the same: a group of two replies and one browser per
    # renderer, not two (a part starts ~10 renderers: training, evaluations, compare's re-renders;
    # the browsers' start-up was a third of the test's CPU).
    "trainer.num_generations=2", "trainer.per_device_train_batch_size=2", "renderer.workers=1",
    # The default tiny painter (built once per machine, cached), not the smoke one: the smoke
    # painter's replies ramble past the length limit without a setup(), so every one was
    # refused and the gallery compared 0 canvases with 0. The default's mostly paint (9 of 12
    # passed the gate at temperature 1), in no more time (20 s against 27 s for 12 replies).
    "model=tiny",
)  # fmt: skip
# A part that runs one job (or none) runs it in Hydra's own process: joblib's workers would each
# import the trainer again (~20 CPU-s apiece) for a job that needs none of them.
ONE_AT_A_TIME = "hydra.launcher.n_jobs=1"


def run_part(tmp_path, sweep: str, *overrides: str) -> subprocess.CompletedProcess:
    """One part of the smoke study: its own sweep dir, the shared store and records folder."""
    command = train_command(tmp_path, *SMOKE_STUDY, f"study.records={tmp_path}/records",
                            *overrides, multirun=True)  # fmt: skip
    # ${now:...} as in the default sweep dir: a copy of a job's config resolves it again later
    sweep_dir = f"hydra.sweep.dir={tmp_path}/{sweep}/${{now:%H-%M-%S.%f}}"
    command = [c if not c.startswith("hydra.sweep.dir=") else sweep_dir for c in command]
    env = {k: v for k, v in os.environ.items() if k != "MLFLOW_TRACKING_URI"}
    return subprocess.run(command, cwd=REPO, env=env, capture_output=True, text=True,
                          timeout=1500)  # fmt: skip


@pytest.mark.timeout(2 * 1500)  # two parts, each allowed run_part's 1500 s
def test_a_study_runs_in_parts_and_compares_from_its_records(tmp_path, monkeypatch):
    # The parts run without MLFLOW_TRACKING_URI (run_part); so does compare, in this process.
    monkeypatch.delenv("MLFLOW_TRACKING_URI", raising=False)
    # Part 1 on a fresh store, two jobs at once (they once raced on the store's schema).
    first = run_part(tmp_path, "part1", "study.max_jobs=2")
    assert first.returncode == 0, first.stderr[-4000:]
    assert "this part runs (2): coarse-seed0, fine_grained-seed0" in first.stdout
    assert "left for a later part (1): gated-seed0" in first.stdout
    records = tmp_path / "records"
    assert sorted(p.name for p in records.iterdir() if p.is_dir() and p.name[0] != ".") == [
        "coarse-seed0", "fine_grained-seed0", "untrained"]  # fmt: skip

    # Part 2 runs only the job left, and not the untrained model again.
    second = run_part(tmp_path, "part2", ONE_AT_A_TIME)
    assert second.returncode == 0, second.stderr[-4000:]
    assert "already done (2): coarse-seed0, fine_grained-seed0" in second.stdout
    assert "this part runs (1): gated-seed0" in second.stdout
    assert "untrained model's evaluation: done" in second.stdout
    client = mlflow_client(tmp_path)
    experiment = client.get_experiment_by_name("three_rewards_v2").experiment_id
    runs = client.search_runs([experiment])
    trained = [r for r in runs if "kind" not in r.data.tags]
    assert sorted(r.data.tags["reward"] for r in trained) == ["coarse", "fine_grained", "gated"]
    evaluations = [r for r in runs if r.data.tags.get("kind") == "evaluate"]
    assert sorted(e.data.tags.get("source_run_id", "") for e in evaluations) == sorted(
        ["", *(r.info.run_id for r in trained)])  # fmt: skip
    study = json.loads((records / "study.json").read_text())["study"]
    assert {r.data.tags["study"] for r in [*trained, *evaluations]} == {study}
    for run in trained:
        assert len(run.data.tags["commit"]) == 40 and len(run.data.tags["config_hash"]) == 12
    # Every job and the untrained model's evaluation started from the one cached tiny painter.
    (weights,) = {r.data.tags["weights"] for r in trained}
    assert len(weights) == 12
    assert records_module.starting_weights(records) == dict.fromkeys(
        ["coarse-seed0", "fine_grained-seed0", "gated-seed0", "untrained"], weights)  # fmt: skip
    for key in ("coarse-seed0", "fine_grained-seed0", "gated-seed0"):
        samples = pd.read_parquet(records / key / "evaluation" / "samples.parquet")
        assert len(samples) == 4 and {"reply", "status", "total/gated"} <= set(samples.columns)
    size = sum(f.stat().st_size for f in records.rglob("*") if f.is_file())
    assert size < 2_000_000, size  # no weights, no images

    # The part's compare read every part's records; the gallery re-rendered their replies.
    (part2,) = (tmp_path / "part2").iterdir()
    out = part2 / "compare"
    assert len(pd.read_csv(out / "runs.csv")) == 3
    verdict = pd.read_csv(out / "verdict.csv")
    assert set(verdict["scored_by"]) == {"coarse", "fine_grained", "gated"}
    assert list(pd.read_csv(out / "matrix.csv")["trained_with"])[0] == "(untrained)"
    assert len(list((out / "gallery").rglob("grid.png"))) == 3
    shown = [pd.read_parquet(records / k / "rollouts.parquet") for k in ("coarse-seed0",
             "fine_grained-seed0", "gated-seed0")]  # fmt: skip
    painted = sum(int((t["status"] == "ok").sum()) for t in shown)  # one logged step each
    assert painted > 0, [list(t["status"]) for t in shown]  # else the count below is 0 == 0
    assert len(list((out / "gallery").rglob("canvas_*.png"))) == painted
    assert (out / "matrix_gallery.png").is_file() and (out / "matrix_gallery.html").is_file()

    # The same tables from the store as from the records.
    options = ["--no-gallery", "--resamples", "300"]
    from_store = comparison.main(["--study", study, "--tracking-uri", f"sqlite:///{tmp_path}/mlflow.db",
                               "--no-log", "--out", str(tmp_path / "store"), *options])  # fmt: skip
    from_records = comparison.main(["--records", str(records), "--out", str(tmp_path / "rec"),
                                 *options])  # fmt: skip
    for name in ("runs", "matrix_ci", "verdict", "behaviour_ci", "curves_table", "provenance"):
        pd.testing.assert_frame_equal(
            pd.read_csv(from_store[name], dtype=str, keep_default_na=False),
            pd.read_csv(from_records[name], dtype=str, keep_default_na=False),
            obj=name,
        )


def test_a_failing_study_hook_fails_the_command(tmp_path):
    # No job trains (max_jobs=0); the untrained evaluation then fails on an unknown reward set.
    # Hydra only warns about a callback's exception: the study must exit non-zero instead.
    done = run_part(tmp_path, "sweep", "study.max_jobs=0", "reward=gated", ONE_AT_A_TIME,
                    "+hydra.callbacks.study.rewards=[nope]")  # fmt: skip
    assert done.returncode != 0
    assert "unknown reward set 'nope'" in done.stderr
    assert "study: 1 part(s) of the study failed" in done.stderr  # the untrained evaluation
