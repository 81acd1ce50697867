"""`python -m watercolor.compare` over synthetic runs in a real (temporary) MLflow store."""

from __future__ import annotations

import re

import mlflow
import pandas as pd
import pytest
from analysis_helpers import COMPONENTS, EXPERIMENT, PROMPTS, evaluation_totals, reward_value
from PIL import Image

from watercolor import compare


def run_compare(tmp_path, *selection: str, log: bool = False):
    out = tmp_path / "compare"
    paths = compare.main([*selection, "--out", str(out), *([] if log else ["--no-log"])])
    return out, paths, pd.read_csv(out / "runs.csv")


def test_experiment_table_has_one_row_per_run_with_final_and_best_values(store, tmp_path):
    out, paths, table = run_compare(tmp_path, "--experiment", EXPERIMENT)
    assert len(table) == 4 and table["run_id"].is_unique
    assert set(zip(table["reward_set"], table["seed"], strict=True)) == set(store["run_ids"])
    expected = {"label", "run_name", "reward_set", "seed", "steps", "final/reward", "best/reward",
                "final/execution_rate", "best/execution_rate", "final/completions/mean_length",
                "final/violations/truncated", "final/violations/no_setup"}  # fmt: skip
    expected |= {f"{k}/rewards/{c}/mean" for k in ("final", "best") for c in COMPONENTS["gated"]}
    assert expected <= set(table.columns)
    for row in table.to_dict("records"):
        assert row["final/reward"] == pytest.approx(reward_value(row["reward_set"], row["seed"], 3))
        assert row["best/reward"] == pytest.approx(row["final/reward"])  # rising curves
        assert row["steps"] == 3 and row["final/execution_rate"] == pytest.approx(0.75)
    # A code seen on step 1 only has rate 0 afterwards, not its stale step-1 value.
    assert (table["final/violations/no_setup"] == 0).all()
    assert table["final/violations/truncated"].to_numpy() == pytest.approx([0.5 / 3] * 4)
    coarse = table[table["reward_set"] == "coarse"]
    assert coarse["final/rewards/granulation/mean"].isna().all()  # not a coarse component
    assert {"runs", "aggregate", "curves", "components", "gallery"} <= set(paths)


def test_aggregate_is_mean_and_std_across_seeds(store, tmp_path, capsys):
    out, _, _ = run_compare(tmp_path, "--experiment", EXPERIMENT)
    stats = pd.read_csv(out / "aggregate.csv", index_col="reward_set")
    assert set(stats.index) == {"coarse", "gated"} and (stats["runs"] == 2).all()
    assert stats.loc["coarse", "final/reward mean"] == pytest.approx(0.305)
    assert stats.loc["gated", "final/reward std"] == pytest.approx(0.01 / 2**0.5)
    printed = capsys.readouterr().out
    assert "mean ± std" in printed and "0.505 ± 0.007" in printed
    assert "coarse/seed0" in printed and "gated/seed1" in printed


def test_curves_are_drawn(store, tmp_path):
    out, _, _ = run_compare(tmp_path, "--experiment", EXPERIMENT)
    for name in ("curves.png", "components.png"):
        with Image.open(out / name) as image:
            assert image.format == "PNG" and min(image.size) > 300


def test_gallery_shows_every_run_at_the_last_step_they_all_logged(store, tmp_path):
    out, _, table = run_compare(tmp_path, "--experiment", EXPERIMENT)
    page = (out / "gallery.html").read_text()
    images = re.findall(r'<img src="([^"]+)"', page)
    assert len(images) == 4 * 4  # per run: the grid and three painted canvases
    assert all((out / src).is_file() for src in images)
    assert all("/step_00001/" in src for src in images)  # gated/seed1 stopped at step 1
    for run_id in table["run_id"]:
        assert sum(run_id in src for src in images) == 4
    assert all(prompt in page for prompt in PROMPTS)
    assert page.count("no_setup") == 4  # the refused completion of each run, with its code


def test_sweep_dir_and_run_ids_select_the_same_runs(store, tmp_path):
    _, _, by_sweep = run_compare(tmp_path / "sweep", "--sweep-dir", str(store["sweep_dir"]))
    assert set(by_sweep["run_id"]) == set(store["run_ids"].values())
    chosen = [store["run_ids"]["gated", 0], store["run_ids"]["coarse", 1]]
    _, _, by_id = run_compare(tmp_path / "ids", "--runs", *chosen)
    assert list(by_id["run_id"]) == chosen
    assert list(by_id["label"]) == ["gated/seed0", "coarse/seed1"]


def test_compare_is_logged_as_its_own_run_and_never_compared(store, tmp_path):
    out, _, _ = run_compare(tmp_path, "--experiment", EXPERIMENT, log=True)
    client = mlflow.MlflowClient(store["uri"])
    experiment = client.get_experiment_by_name(EXPERIMENT)
    logged = client.search_runs([experiment.experiment_id], "tags.kind = 'compare'")
    assert logged, "no kind=compare run"
    run = logged[0]
    assert set(run.data.tags["runs"].split(",")) == set(store["run_ids"].values())
    artifacts = {a.path for a in client.list_artifacts(run.info.run_id)}
    assert {"runs.csv", "aggregate.csv", "curves.png", "gallery.html", "gallery"} <= artifacts
    again = compare.select_runs(client, experiment=EXPERIMENT)
    assert len(again) == 4  # the compare run itself is not a training run


def test_unknown_experiment_is_a_clear_error(store, tmp_path):
    with pytest.raises(SystemExit, match="no MLflow experiment named 'nope'"):
        run_compare(tmp_path, "--experiment", "nope")


def test_evaluations_of_the_runs_make_the_trained_with_by_scored_by_matrix(store, tmp_path, capsys):
    out, paths, _ = run_compare(tmp_path, "--experiment", EXPERIMENT)
    matrix = pd.read_csv(out / "matrix.csv")
    assert len(matrix) == 5  # an evaluation per training run, and the untrained model's
    assert list(matrix["trained_with"]) == ["(untrained)", "coarse", "coarse", "gated", "gated"]
    for row in matrix.to_dict("records"):
        key = None if row["trained_with"] == "(untrained)" else (row["trained_with"], row["seed"])
        assert row["evaluation_id"] == store["evaluations"][key]
        for name, value in evaluation_totals(*(key or (None, 0))).items():
            assert row[name] == pytest.approx(value)
    stats = pd.read_csv(out / "matrix_aggregate.csv", index_col="trained_with")
    assert stats.loc["gated", "total/gated mean"] == pytest.approx(0.305)
    assert stats.loc["gated", "total/coarse mean"] == pytest.approx(0.3)
    assert stats.loc["coarse", "runs"] == 2 and stats.loc["(untrained)", "runs"] == 1
    printed = capsys.readouterr().out
    assert "trained with (rows) x scored by (columns)" in printed and "0.305 ± 0.007" in printed
    assert "flat_block_rate" in printed and "violations/no_setup" in printed
    with Image.open(paths["matrix_gallery"]) as image:  # rows: untrained, coarse, gated
        assert image.format == "PNG" and image.size[1] > 3 * 100


def test_the_matrix_holds_only_the_selected_runs_evaluations(store, tmp_path):
    chosen = store["run_ids"]["gated", 1]
    out, _, _ = run_compare(tmp_path, "--runs", chosen)
    matrix = pd.read_csv(out / "matrix.csv")
    assert list(matrix["trained_with"]) == ["(untrained)", "gated"]
    assert list(matrix["source_run_id"].fillna("")) == ["", chosen]
