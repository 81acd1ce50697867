"""`python -m watercolor.compare` over synthetic runs in a real (temporary) MLflow store."""

from __future__ import annotations

import contextlib
import io
import json
import os
import re
import subprocess
import sys

import mlflow
import numpy as np
import pandas as pd
import pytest
from analysis_helpers import (
    COMPONENTS,
    EXPERIMENT,
    PROMPTS,
    STEPS,
    evaluation_totals,
    log_training_run,
    reward_value,
)
from PIL import Image

from watercolor.analysis import compare_args, comparison, matrix, records
from watercolor.tracking import SAVED_VIEW_PREFIX, STORE_FILE, view_state


def run_compare(tmp_path, *selection: str, log: bool = False):
    out = tmp_path / "compare"
    paths = comparison.main([*selection, "--out", str(out), *([] if log else ["--no-log"])])
    return out, paths, pd.read_csv(out / "runs.csv")


@pytest.fixture(scope="module")
def compared(synthetic_store, tmp_path_factory):
    """One `compare --experiment` over the synthetic store, read by the tests of its tables,
    figures, gallery and printed output: (out dir, paths, runs table, printed output)."""
    printed = io.StringIO()
    with pytest.MonkeyPatch.context() as patch, contextlib.redirect_stdout(printed):
        patch.setenv("MLFLOW_TRACKING_URI", synthetic_store["uri"])
        out, paths, table = run_compare(tmp_path_factory.mktemp("compared"), "--experiment",
                                        EXPERIMENT)  # fmt: skip
    return out, paths, table, printed.getvalue()


def test_experiment_table_has_one_row_per_run_with_final_and_best_values(store, compared):
    _, paths, table, _ = compared
    assert len(table) == 4 and table["run_id"].is_unique
    assert set(zip(table["reward_set"], table["seed"], strict=True)) == set(store["run_ids"])
    expected = {"label", "run_name", "reward_set", "seed", "steps", "final/reward/total",
                "best/reward/total", "final/rollouts/execution_rate",
                "best/rollouts/execution_rate", "final/train/completions/mean_length",
                "final/rollouts/violations/truncated",
                "final/rollouts/violations/no_setup"}  # fmt: skip
    expected |= {f"{k}/reward/{c}" for k in ("final", "best") for c in COMPONENTS["gated"]}
    assert expected <= set(table.columns)
    for row in table.to_dict("records"):
        final = reward_value(row["reward_set"], row["seed"], 3)
        assert row["final/reward/total"] == pytest.approx(final)
        assert row["best/reward/total"] == pytest.approx(row["final/reward/total"])  # rising curves
        assert row["steps"] == 3 and row["final/rollouts/execution_rate"] == pytest.approx(0.75)
    # A code seen on step 1 only has rate 0 afterwards, not its stale step-1 value.
    assert (table["final/rollouts/violations/no_setup"] == 0).all()
    assert table["final/rollouts/violations/truncated"].to_numpy() == pytest.approx([0.5 / 3] * 4)
    coarse = table[table["reward_set"] == "coarse"]
    assert coarse["final/reward/granulation"].isna().all()  # not a coarse component
    assert {"runs", "aggregate", "curves", "components", "gallery"} <= set(paths)


def test_aggregate_is_mean_and_std_across_seeds(compared):
    out, _, _, printed = compared
    stats = pd.read_csv(out / "aggregate.csv", index_col="arm")
    assert set(stats.index) == {"coarse", "gated"} and (stats["runs"] == 2).all()
    assert stats.loc["coarse", "final/reward/total mean"] == pytest.approx(0.305)
    assert stats.loc["gated", "final/reward/total std"] == pytest.approx(0.01 / 2**0.5)
    assert "mean ± std" in printed and "0.505 ± 0.007" in printed
    assert "coarse/seed0" in printed and "gated/seed1" in printed


def test_curves_are_drawn(compared):
    out = compared[0]
    for name in ("curves.png", "components.png", "matrix_heatmap.png"):
        with Image.open(out / name) as image:
            assert image.format == "PNG" and min(image.size) > 300
            assert image.mode == "P"  # charts as 256-colour palettes: small enough to commit


def test_gallery_shows_every_run_at_the_last_step_they_all_logged(compared):
    out, _, table, _ = compared
    page = (out / "gallery.html").read_text()
    images = re.findall(r'<img src="([^"]+)"', page)
    assert len(images) == 4 * 4  # per run: the grid and three painted canvases
    assert all((out / src).is_file() for src in images)
    assert all("/step_00001/" in src for src in images)  # gated/seed1 stopped at step 1
    for run_id in table["run_id"]:
        assert sum(run_id in src for src in images) == 4
    assert all(prompt in page for prompt in PROMPTS)
    assert page.count("no_setup") == 4  # the refused completion of each run, with its code


@pytest.mark.slow  # slow tier: experiments/2026-12-07_test_tiers
def test_sweep_dir_and_run_ids_select_the_same_runs(store, tmp_path):
    # Selection only: no gallery.
    _, _, by_sweep = run_compare(tmp_path / "sweep", "--sweep-dir", str(store["sweep_dir"]),
                                 "--no-gallery")  # fmt: skip
    assert set(by_sweep["run_id"]) == set(store["run_ids"].values())
    chosen = [store["run_ids"]["gated", 0], store["run_ids"]["coarse", 1]]
    _, _, by_id = run_compare(tmp_path / "ids", "--runs", *chosen, "--no-gallery")
    assert list(by_id["run_id"]) == chosen[::-1]  # sorted by reward set, then seed
    assert list(by_id["label"]) == ["coarse/seed1", "gated/seed0"]


@pytest.mark.slow  # slow tier: experiments/2026-12-07_test_tiers
def test_a_sweep_dir_finds_its_store_and_prints_the_side_by_side_link(
    synthetic_store, tmp_path, monkeypatch, capsys
):
    # No store flag, no MLFLOW_TRACKING_URI, started where the default store is empty: the
    # sweep's jobs say where they logged (mlflow_tracking_uri beside mlflow_run_id).
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("MLFLOW_TRACKING_URI", "")
    out, _, table = run_compare(tmp_path, "--sweep-dir", str(synthetic_store["sweep_dir"]),
                                "--no-gallery")  # fmt: skip
    assert set(table["run_id"]) == set(synthetic_store["run_ids"].values())
    printed = capsys.readouterr().out
    files = "runs.csv, curves.png, yardsticks.png, overoptimisation.png"
    assert f"the comparison: {out} ({files})" in printed
    assert f"mlflow ui --backend-store-uri {synthetic_store['uri']}" in printed
    (link,) = re.findall(r"http://127\.0\.0\.1:5000/#/experiments/\S+", printed)
    assert "/runs?workflowType=machine_learning&compareRunsMode=CHART&" in link
    # --no-log writes nothing to the store: no saved view, the link filters the runs itself
    assert "viewStateShareKey" not in link
    assert all(run_id in link for run_id in table["run_id"])


@pytest.mark.slow  # slow tier: experiments/2026-12-07_test_tiers
def test_the_side_by_side_link_opens_a_view_of_the_runs_saved_in_their_experiment(
    synthetic_store, tmp_path, monkeypatch, capsys
):
    # What the view does in the UI: tests/test_mlflow_ui.py, in Chromium.
    monkeypatch.setenv("MLFLOW_TRACKING_URI", synthetic_store["uri"])
    _, _, table = run_compare(tmp_path, "--sweep-dir", str(synthetic_store["sweep_dir"]),
                              "--no-gallery", log=True)  # fmt: skip
    printed = capsys.readouterr().out  # the compare run's own links too: not those
    (link,) = re.findall(r"http://127\.0\.0\.1:5000/#/experiments/\S+CHART\S*", printed)
    experiment, key = re.fullmatch(
        r".+/experiments/(\d+)/runs\?workflowType=machine_learning&compareRunsMode=CHART"
        r"&viewStateShareKey=(watercolor-\w+)", link
    ).groups()  # fmt: skip
    tags = mlflow.MlflowClient(synthetic_store["uri"]).get_experiment(experiment).tags
    saved = json.loads(tags[f"{SAVED_VIEW_PREFIX}{key}"])
    assert saved["name"].startswith("side by side ") and saved["createdAt"] > 0
    view = view_state(tags[f"{SAVED_VIEW_PREFIX}{key}"])  # the UI's own state, compressed
    assert set(re.findall(r"'(\w+)'", view["searchFilter"])) == set(table["run_id"])
    # Runs trained on different sets ranked by the audited set's score, not by their own reward
    assert view["orderByKey"] == "metrics.`crossreward/gated`" and view["orderByAsc"] is False
    assert view["selectedColumns"][:2] == ["metrics.`crossreward/gated`", "metrics.`reward/total`"]
    sections = [(s["name"], s["columns"]) for s in view["compareRunSections"]]  # each logged
    assert sections == [(name, 2) for name in (  # two charts to a row: three cut their titles
        "crossreward", "behaviour", "behaviour/style", "crossreward/gate",  # the yardsticks
        "reward", "reward components",  # each job's own reward after
        "reward/raw", "rollouts", "rollouts/violations", "train/completions")]  # fmt: skip
    assert view["isAccordionReordered"] is True  # else the UI sorts the sections by name
    assert [c["metricKey"] for c in view["compareRunCharts"]] == [
        "crossreward/gated", "crossreward/coarse", "behaviour/flat_block_rate",
        "behaviour/style/mean_alpha", "crossreward/gate/gated", "crossreward/gate/coarse",
        "reward/total", "reward/coverage", "reward/gate_pass", "reward/granulation"]  # fmt: skip


def test_a_sweep_whose_jobs_logged_to_two_stores_asks_for_one(synthetic_store, tmp_path, capsys):
    sweep = tmp_path / "sweep"
    for job, store in enumerate(("sqlite:///a.db", "sqlite:///b.db")):
        (sweep / str(job)).mkdir(parents=True)
        (sweep / str(job) / STORE_FILE).write_text(store)
    with pytest.raises(SystemExit) as exit_:
        run_compare(tmp_path, "--sweep-dir", str(sweep))
    assert exit_.value.code == 2
    assert "logged to 2 stores" in capsys.readouterr().err


@pytest.mark.slow  # slow tier: experiments/2026-12-07_test_tiers
def test_compare_is_logged_as_its_own_run_and_never_compared(store, tmp_path):
    out, _, _ = run_compare(tmp_path, "--experiment", EXPERIMENT, log=True)
    client = mlflow.MlflowClient(store["uri"])
    compared = client.get_experiment_by_name(EXPERIMENT)
    # In an experiment of its own: the UI lists the jobs' experiment with the jobs only.
    assert not client.search_runs([compared.experiment_id], "tags.kind = 'compare'")
    experiment = client.get_experiment_by_name(f"{EXPERIMENT}-compare")
    logged = client.search_runs([experiment.experiment_id], "tags.kind = 'compare'")
    assert logged, "no kind=compare run"
    run = logged[0]
    assert set(run.data.tags["runs"].split(",")) == set(store["run_ids"].values())
    artifacts = {a.path for a in client.list_artifacts(run.info.run_id)}
    assert {"runs.csv", "aggregate.csv", "curves.png", "gallery.html", "gallery"} <= artifacts
    again = records.select_runs(client, experiment=EXPERIMENT)
    assert len(again) == 4  # the compare run itself is not a training run


@pytest.mark.slow  # slow tier: experiments/2026-12-07_test_tiers
def test_by_default_compare_reads_and_logs_where_training_does(tmp_path, monkeypatch):
    # conf/paths, resolved in the directory compare is started in, as training resolves it.
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("MLFLOW_TRACKING_URI", "")  # no store of the user's
    outputs = tmp_path / "outputs"
    log_training_run(f"sqlite:///{outputs / 'mlflow.db'}", tmp_path / "sweep" / "0_coarse",
                     "coarse", 0, outputs / "mlartifacts")  # fmt: skip
    comparison.main(["--experiment", EXPERIMENT, "--no-gallery", "--out", str(tmp_path / "out")])
    client = mlflow.MlflowClient(f"sqlite:///{outputs / 'mlflow.db'}")
    (logged,) = client.search_runs(
        [client.get_experiment_by_name(f"{EXPERIMENT}-compare").experiment_id],
        "tags.kind = 'compare'",
    )
    assert logged.info.artifact_uri.startswith((outputs / "mlartifacts").as_uri())


@pytest.mark.slow  # slow tier: experiments/2026-12-07_test_tiers
def test_a_new_experiment_keeps_its_artifacts_where_training_would(store, tmp_path, monkeypatch):
    # The runs are in the user's store (MLFLOW_TRACKING_URI), elsewhere: a new experiment's
    # artifacts go where training would put them (conf/paths), not beside that store.
    monkeypatch.chdir(tmp_path)
    run_compare(tmp_path, "--experiment", EXPERIMENT, "--log-experiment", "compare-here",
                "--no-gallery", log=True)  # fmt: skip
    experiment = mlflow.MlflowClient(store["uri"]).get_experiment_by_name("compare-here")
    assert experiment.artifact_location == (tmp_path / "outputs/mlartifacts/compare-here").as_uri()


def test_unknown_experiment_is_a_clear_error(store, tmp_path, capsys):
    with pytest.raises(SystemExit) as exit_:
        run_compare(tmp_path, "--experiment", "nope")
    assert exit_.value.code == 2  # a usage error (watercolor.usage)
    assert "no MLflow experiment named 'nope'" in capsys.readouterr().err


def test_evaluations_of_the_runs_make_the_trained_with_by_scored_by_matrix(store, compared):
    out, paths, _, printed = compared
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
    assert "flat_block_rate mean" in stats and "violations/no_setup mean" in stats
    assert printed.startswith("verdict: does the model trained with a set score highest")
    assert "trained with (rows) x scored by (columns)" in printed
    with Image.open(paths["matrix_gallery"]) as image:  # rows: untrained, coarse, gated
        assert image.format == "PNG" and image.size[1] > 3 * 100


@pytest.mark.slow  # slow tier: experiments/2026-12-07_test_tiers
def test_the_matrix_holds_only_the_selected_runs_evaluations(store, tmp_path):
    chosen = store["run_ids"]["gated", 1]
    out, _, _ = run_compare(tmp_path, "--runs", chosen, "--no-gallery")
    matrix = pd.read_csv(out / "matrix.csv")
    assert list(matrix["trained_with"]) == ["(untrained)", "gated"]
    assert list(matrix["source_run_id"].fillna("")) == ["", chosen]


# --- yardsticks: what runs trained on different sets share --------------------------------------


def test_the_yardsticks_are_drawn_per_arm_with_seed_bands(compared):
    out, paths, _, _ = compared
    with Image.open(paths["yardsticks_chart"]) as image:
        assert image.format == "PNG" and image.mode == "P" and min(image.size) > 300
    curves = pd.read_csv(out / "yardstick_curves.csv")
    assert list(dict.fromkeys(curves["metric"])) == [
        "crossreward/gated", "crossreward/coarse",  # the audited set (gated) first
        "behaviour/flat_block_rate", "behaviour/style/mean_alpha",
        "crossreward/gate/gated", "crossreward/gate/coarse",
    ]  # fmt: skip
    blocks = curves[curves["metric"] == "behaviour/flat_block_rate"].set_index(["arm", "step"])
    # coarse: 0.5 + 0.01 * seed * step, EMA 0.6 at step 1 is the value itself
    assert blocks.loc[("coarse", 1), ["low", "high", "curves"]].tolist() == pytest.approx(
        [0.5, 0.51, 2]
    )


def test_the_table_says_which_arm_moved_each_yardstick_and_by_how_much(compared):
    out, _, _, printed = compared
    per_arm = pd.read_csv(out / "yardsticks.csv").set_index(["metric", "arm"])
    blocks = per_arm.loc["behaviour/flat_block_rate"]
    # gated: -0.2 for both seeds; coarse: 0 and +0.02 (its last value minus its first)
    assert blocks.loc["gated", ["change", "low", "high"]].tolist() == pytest.approx([-0.2] * 3)
    assert blocks.loc["coarse", ["change", "low", "high"]].tolist() == pytest.approx(
        [0.01, 0.0, 0.02]
    )
    assert (per_arm["seeds"] == 2).all()
    moves = pd.read_csv(out / "yardstick_moves.csv").set_index("metric")
    row = moves.loc["behaviour/flat_block_rate"]
    assert (row["moved_most"], row["versus"]) == ("gated", "coarse")
    assert [row["difference"], row["difference_low"], row["difference_high"]] == pytest.approx(
        [-0.21, -0.22, -0.2]
    )
    assert moves.loc["crossreward/gated", "moved_most"] == "gated"
    assert moves.loc["crossreward/gated", "difference"] == pytest.approx(0.1 - 0.04)
    assert ("behaviour/flat_block_rate: gated -0.200 [-0.200, -0.200] (2 seeds), "
            "-0.210 [-0.220, -0.200] more than coarse") in printed  # fmt: skip


@pytest.mark.slow  # slow tier: experiments/2026-12-07_test_tiers
def test_with_one_seed_an_arm_the_table_says_there_is_no_interval(store, tmp_path, capsys):
    chosen = [store["run_ids"]["coarse", 0], store["run_ids"]["gated", 0]]
    out, _, _ = run_compare(tmp_path, "--runs", *chosen, "--no-gallery")
    moves = pd.read_csv(out / "yardstick_moves.csv").set_index("metric")
    assert moves[["change_low", "difference_low"]].isna().all().all()
    printed = capsys.readouterr().out
    assert "behaviour/flat_block_rate: gated -0.200 (1 seed), -0.200 more than coarse" in printed
    assert "one seed an arm: no intervals" in printed
    assert "crossreward/gate/gated: no arm moved it" in printed  # 0.75 throughout


def test_each_job_gets_its_overoptimisation_view(compared):
    out, paths, table, printed = compared
    with Image.open(paths["overoptimisation_chart"]) as image:
        assert image.format == "PNG" and min(image.size) > 300
    jobs = pd.read_csv(out / "overoptimisation.csv").set_index("job")
    assert set(jobs.index) == set(table["label"]) and (jobs["audited"] == "gated").all()
    # Three steps are too few for the alarm's window: it never fires, and says so per job.
    assert jobs["step"].isna().all()
    says = jobs["says"].to_dict()
    assert says["coarse/seed0"] == says["coarse/seed1"] == "no divergence from gated"
    assert says["gated/seed0"] == "trained on the audited set (gated): nothing to diverge from"
    assert "coarse/seed0: no divergence from gated" in printed


def test_runs_without_yardsticks_write_no_yardstick_files(tmp_path):
    info = {"run_id": "a", "run_name": "a", "experiment_id": "1", "reward_set": "coarse",
            "arm": "coarse", "seed": "0", "model": "tiny", "status": "FINISHED"}  # fmt: skip
    history = pd.DataFrame({"reward/total": [0.1, 0.2]}, index=pd.Index([1, 2], name="step"))
    found = records.Records(runs=[info], histories={"a": history}, configs={"a": ""})
    paths = comparison.compare(found, None, tmp_path, gallery=False)
    assert {"runs", "curves", "curves_table"} <= set(paths)
    assert not {p.name for p in tmp_path.iterdir()} & {  # old records compare as before
        "yardsticks.png", "yardsticks.csv", "yardstick_moves.csv", "yardstick_curves.csv",
        "overoptimisation.png", "overoptimisation.csv", "identical.csv"}  # fmt: skip


def test_identical_jobs_are_found_and_said(tmp_path, capsys):
    # fine_grained and gated in a quick sweep: the same replies, a gate that never bit
    history = pd.DataFrame({"reward/total": [0.6156, 0.6405], "behaviour/layering": [0.6, 0.7]},
                           index=pd.Index([1, 2], name="step"))  # fmt: skip
    infos = [{"run_id": s, "run_name": s, "experiment_id": "1", "reward_set": s, "arm": s,
              "seed": "0", "model": "tiny", "status": "FINISHED"}
             for s in ("coarse", "fine_grained", "gated")]  # fmt: skip
    histories = {"coarse": history * 0.8, "fine_grained": history, "gated": history + 0.0001}
    found = records.Records(runs=infos, histories=histories, configs=dict.fromkeys(histories, ""))
    paths = comparison.compare(found, None, tmp_path, gallery=False)
    assert comparison.print_yardsticks(paths) == [["fine_grained/seed0", "gated/seed0"]]
    assert ("identical: fine_grained/seed0 = gated/seed0 logged the same reward/total and "
            "yardsticks at every step") in capsys.readouterr().out  # fmt: skip


def test_identical_jobs_are_named_in_the_printed_link_and_the_saved_view(store, tmp_path):
    client = mlflow.MlflowClient(store["uri"])
    runs = [client.get_run(store["run_ids"][key]) for key in (("coarse", 0), ("gated", 0))]
    printed = comparison.side_by_side(store["uri"], runs, tmp_path, True,
                                      [["coarse/seed0", "gated/seed0"]])  # fmt: skip
    said = "one line there stands for several jobs: coarse/seed0 = gated/seed0 (identical)"
    assert said in printed
    key = re.search(r"viewStateShareKey=(\S+)", printed).group(1)
    tags = client.get_experiment(runs[0].info.experiment_id).tags
    name = json.loads(tags[f"{SAVED_VIEW_PREFIX}{key}"])["name"]
    assert name.endswith(": coarse/seed0 = gated/seed0 (identical)")


# --- statistics: synthetic runs whose answers are known ---------------------------------------


@pytest.fixture(scope="module")
def smoothed(synthetic_store, tmp_path_factory):
    """compare over the synthetic store with EMA smoothing 0.5: (out dir, printed output)."""
    out = tmp_path_factory.mktemp("smoothed")
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("MLFLOW_TRACKING_URI", synthetic_store["uri"])
        comparison.main(["--experiment", EXPERIMENT, "--out", str(out), "--no-log", "--ema", "0.5"])
    return out


@pytest.mark.slow  # slow tier: experiments/2026-12-07_test_tiers
def test_curves_are_the_mean_over_seeds_of_the_smoothed_runs_with_a_min_max_band(smoothed):
    curves = pd.read_csv(smoothed / "curves.csv")
    reward = curves[curves["metric"] == "reward/total"].set_index(["arm", "step"])
    assert set(reward.index) == {(s, step) for s in ("coarse", "gated") for step in STEPS}
    # reward = 0.1 * step + 0.01 * seed (+ 0.2 gated); EMA 0.5 of 0.1, 0.2, 0.3 by hand:
    by_hand = {1: 0.1, 2: 0.5 * 0.1 + 0.5 * 0.2, 3: 0.5 * 0.15 + 0.5 * 0.3}
    for (reward_set, step), row in reward.iterrows():
        base = by_hand[step] + (0.2 if reward_set == "gated" else 0.0)
        assert row["low"] == pytest.approx(base) and row["high"] == pytest.approx(base + 0.01)
        assert row["mean"] == pytest.approx(base + 0.005) and row["curves"] == 2


@pytest.mark.slow  # slow tier: experiments/2026-12-07_test_tiers
def test_matrix_ci_holds_the_known_means_and_the_heatmap_is_drawn(smoothed):
    ci = pd.read_csv(smoothed / "matrix_ci.csv").set_index(["trained_with", "scored_by"])
    assert len(ci) == 3 * 2  # (untrained), coarse, gated x scored by coarse, gated
    for (trained_with, scorer), row in ci.iterrows():
        seeds = [0] if trained_with == "(untrained)" else [0, 1]
        key = None if trained_with == "(untrained)" else trained_with
        truth = np.mean([evaluation_totals(key, s)[f"total/{scorer}"] for s in seeds])
        assert row["mean"] == pytest.approx(truth)
        assert row["low"] < truth < row["high"]  # prompts differ in difficulty: a real width
        assert row["evaluations"] == len(seeds)
    with Image.open(smoothed / "matrix_heatmap.png") as image:
        assert image.format == "PNG" and min(image.size) > 200


@pytest.mark.slow  # slow tier: experiments/2026-12-07_test_tiers
def test_verdict_finds_the_known_diagonal_by_its_known_margin(smoothed, capsys):
    verdicts = pd.read_csv(smoothed / "verdict.csv").set_index("scored_by")
    assert set(verdicts.index) == {"coarse", "gated"}
    assert (verdicts["verdict"] == "yes").all() and verdicts["highest"].all()
    assert verdicts.loc["coarse", "best_other"] == "gated"
    # The margin is 0.1 + 0.01 * seed on every prompt: paired by prompt, the interval only
    # holds the seeds' spread (0.10 to 0.11), far narrower than each mean's own interval.
    assert verdicts["difference"].to_numpy() == pytest.approx([0.105, 0.105])
    assert (verdicts["low"] >= 0.1 - 1e-9).all() and (verdicts["high"] <= 0.11 + 1e-9).all()
    ci = pd.read_csv(smoothed / "matrix_ci.csv")
    assert (ci["high"] - ci["low"]).min() > (verdicts["high"] - verdicts["low"]).max()
    assert verdicts["gain_vs_untrained"].to_numpy() == pytest.approx([0.105, 0.105])


@pytest.mark.slow  # slow tier: experiments/2026-12-07_test_tiers
def test_behaviour_means_and_differences_recover_the_known_rates(smoothed):
    table = pd.read_csv(smoothed / "behaviour_ci.csv")
    rates = table[table["behaviour"] == "execution_rate"].set_index("comparison")
    truth = {"(untrained)": 0.25, "coarse": 0.5, "gated": 0.75, "coarse - (untrained)": 0.25,
             "gated - (untrained)": 0.5, "coarse - gated": -0.25}  # fmt: skip
    assert set(rates.index) == set(truth)
    for name, value in truth.items():
        row = rates.loc[name]
        assert row["mean"] == pytest.approx(value) and row["low"] <= value <= row["high"]
    assert rates.loc["coarse - gated", "high"] < 0  # a real difference is told apart from 0


@pytest.mark.slow  # slow tier: experiments/2026-12-07_test_tiers
def test_printed_output_opens_with_the_verdict(synthetic_store, smoothed, tmp_path, monkeypatch,
                                               capsys):  # fmt: skip
    monkeypatch.setenv("MLFLOW_TRACKING_URI", synthetic_store["uri"])
    comparison.main(["--runs", synthetic_store["run_ids"]["coarse", 0], "--out", str(tmp_path),
                  "--no-log", "--resamples", "200"])  # fmt: skip
    printed = capsys.readouterr().out
    assert printed.startswith("verdict:") and "n/a (no other trained set)" in printed
    assert printed.index("verdict") < printed.index("mean [95% CI") < printed.index("coarse/seed0")


def random_samples(rng: np.random.Generator, shifts: dict[str, float], seeds: int, prompts: int):
    """Evaluation rows of sets scored by `total/a` and `total/b`: a set's value is 0.5 + its
    shift (under both scorers) + a seed effect + a prompt effect (shared) + sample noise;
    `executed` is 1 with probability 0.5 + the shift."""
    prompt_effect = rng.normal(0, 0.1, size=prompts)
    rows = []
    for name, shift in shifts.items():
        for seed in range(seeds):
            seed_effect = rng.normal(0, 0.03)
            for p in range(prompts):
                for _ in range(2):  # samples
                    value = 0.5 + shift + seed_effect + prompt_effect[p] + rng.normal(0, 0.05)
                    rows.append({"trained_with": name, "run": f"{name}{seed}", "prompt_index": p,
                                 "total/a": value, "total/b": value,
                                 "executed": float(rng.random() < 0.5 + shift)})  # fmt: skip
    return pd.DataFrame(rows)


def test_identical_sets_give_an_unclear_verdict_whose_interval_holds_zero():
    samples = random_samples(np.random.default_rng(5), {"a": 0.0, "b": 0.0}, seeds=3, prompts=20)
    verdicts = matrix.verdict_table(samples, resamples=1000, seed=0).set_index("scored_by")
    assert list(verdicts["verdict"]) == ["unclear", "unclear"]
    assert ((verdicts["low"] < 0) & (verdicts["high"] > 0)).all()


def test_a_known_behaviour_difference_is_recovered_within_its_interval():
    samples = random_samples(np.random.default_rng(6), {"a": 0.0, "b": 0.2}, seeds=4, prompts=30)
    table = matrix.behaviour_table(samples, 1000, 0, {"execution_rate": "executed"})
    found = table.set_index("comparison").loc["a - b"]
    assert found["low"] <= -0.2 <= found["high"] and found["high"] < 0
    verdicts = matrix.verdict_table(samples, resamples=1000, seed=0).set_index("scored_by")
    assert verdicts.loc["b", "verdict"] == "yes" and verdicts.loc["a", "verdict"] == "no"
    assert verdicts.loc["b", "low"] <= 0.2 <= verdicts.loc["b", "high"]


def test_the_seed_level_test_uses_one_mean_per_seed_and_leaves_the_untrained_model_out():
    samples = random_samples(np.random.default_rng(8), {"a": 0.0, "b": 0.2}, seeds=4, prompts=6)
    untrained = samples[samples["trained_with"] == "a"].assign(trained_with=matrix.UNTRAINED)
    samples = pd.concat([samples, untrained.assign(run="u")], ignore_index=True)
    table = matrix.seed_permutation_table(samples, {"score": "total/a"})
    (row,) = table.to_dict("records")
    assert row["comparison"] == "a - b" and row["seeds"] == "4 vs 4"
    per_seed = samples[samples["trained_with"] != matrix.UNTRAINED].groupby(
        ["trained_with", "run"])["total/a"].mean()  # fmt: skip
    assert row["difference"] == pytest.approx(per_seed["a"].mean() - per_seed["b"].mean())
    # 4 seeds against 4 (70 splits): the separated arms give the smallest p there is, 2 / 70
    assert row["p"] == pytest.approx(2 / 70)


def test_wash_load_is_tabulated_only_where_the_samples_carry_it():
    """Records evaluated before `wash_load` existed lack its column: their table is unchanged."""
    samples = random_samples(np.random.default_rng(7), {"a": 0.0, "b": 0.2}, seeds=2, prompts=10)
    old = matrix.behaviour_table(samples, 200, 0)
    assert set(old["behaviour"]) == {"execution_rate"}
    new = matrix.behaviour_table(samples.assign(wash_load=samples["total/a"]), 200, 0)
    assert set(new["behaviour"]) == {"execution_rate", "wash_load"}
    assert set(new["comparison"]) == {"a", "b", "a - b"}
    pd.testing.assert_frame_equal(new[new["behaviour"] == "execution_rate"], old)


def test_ema_weight_outside_zero_to_one_is_refused():
    for weight in ("1", "-0.5", "1.5"):
        with pytest.raises(SystemExit):
            compare_args.parse_args(["--experiment", "x", "--ema", weight])
    assert compare_args.parse_args(["--experiment", "x", "--ema", "0"]).ema == 0.0


def test_gallery_steps_and_a_second_paper_are_checked_before_anything_loads(capsys):
    for argv in (
        ["--gallery-steps", "0"],
        ["--gallery-steps", "x"],
        ["--gallery-steps", "5", "--no-gallery"],
        ["--second-paper", "--no-gallery"],
    ):
        with pytest.raises(SystemExit) as exit_:
            compare_args.parse_args(["--experiment", "x", *argv])
        assert exit_.value.code == 2, argv
    assert "drop --no-gallery" in capsys.readouterr().err
    args = compare_args.parse_args(["--experiment", "x", "--gallery-steps", "5", "150",
                                    "--second-paper"])  # fmt: skip
    assert args.gallery_steps == [5, 150] and args.second_paper == compare_args.AUDITED_PAPER
    named = compare_args.parse_args(["--experiment", "x", "--second-paper", "#102030"])
    assert named.second_paper == "#102030" and named.gallery_steps is None


@pytest.mark.slow  # slow tier: a comparison of the four synthetic runs (~10 s)
def test_the_gallery_shows_each_run_at_each_chosen_step(store, tmp_path):
    out, _, table = run_compare(tmp_path, "--experiment", EXPERIMENT, "--gallery-steps", "1", "2")
    page = (out / "gallery.html").read_text()
    images = re.findall(r'<img src="([^"]+)"', page)
    at = {step: [src for src in images if f"/step_0000{step}/" in src] for step in (1, 2)}
    assert len(at[1]) == 4 * 4 and len(at[2]) == 3 * 4 == len(images) - len(at[1])
    assert all((out / src).is_file() for src in images)
    assert page.count("not logged") == 1  # gated/seed1 stopped at step 1
    for run_id in table["run_id"]:
        assert f"{run_id[:8]}), step 1" in page and f"{run_id[:8]}), step 2" in page


@pytest.mark.slow  # slow tier: reads the synthetic store (~3-8 s)
def test_a_second_paper_the_audited_set_does_not_read_is_a_clear_error(store, tmp_path, capsys):
    # The synthetic runs' audited set is `gated`, which reads no second paper.
    with pytest.raises(SystemExit) as exit_:
        run_compare(tmp_path, "--runs", store["run_ids"]["gated", 0], "--second-paper")
    assert exit_.value.code == 2
    error = capsys.readouterr().err
    assert "audited set (gated) reads no second paper" in error and "--second-paper '#" in error
    assert not (tmp_path / "compare").exists()  # refused before anything was written


def loaded_after(call: str, modules: tuple[str, ...]) -> str:
    """Which of `modules` a fresh interpreter has loaded once `call` (on `compare`) exits."""
    code = (f"import sys; from watercolor import compare\ntry: {call}\nexcept SystemExit: pass\n"
            f"print(sorted(m for m in {modules!r} if m in sys.modules))")  # fmt: skip
    env = {k: v for k, v in os.environ.items() if k != "MLFLOW_TRACKING_URI"}
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env)
    assert done.returncode == 0, done.stderr[-2000:]
    return done.stdout.strip()


@pytest.mark.slow  # slow tier: experiments/2026-12-07_test_tiers
def test_the_command_answers_a_typo_before_the_comparison_loads(tmp_path):
    # A typo, a missing path or a run the store lacks answers at once (tests/test_usage.py
    # has the cases): 3.0-5 s on the Intel machine when mlflow, matplotlib and scipy loaded first.
    heavy = ("mlflow", "matplotlib", "scipy")
    assert loaded_after("compare.compare_args.parse_args(['--experiment', 'x'])", heavy) == "[]"
    uri = f"sqlite:///{tmp_path}/mlflow.db"
    mlflow.MlflowClient(uri).search_experiments()  # a store that is there
    unknown = f"compare.main(['--runs', '{'0' * 32}', '--tracking-uri', '{uri}'])"
    assert loaded_after(unknown, ("mlflow", "matplotlib")) == "['mlflow']"  # mlflow loads scipy


def test_gallery_cards_skip_the_preamble_every_reply_shares(tmp_path):
    from watercolor.analysis.matrix import _sample_cards

    preamble = "```js\nfunction setup() {\n  createCanvas(600, 600, WEBGL);\n"
    samples = pd.DataFrame({
        "key": ["p00_s00", "p01_s00"], "status": ["ok", "error"],
        "prompt": ["a poppy", "a tulip"],
        "reply": [preamble + "  brush.fill(200, 40, 40, 90);\n}", preamble + "  oops();\n}"],
    })  # fmt: skip
    cards = _sample_cards(samples, ["p00_s00", "p01_s00"], {}, tmp_path)
    assert [card["lines"] for card in cards] == [
        ["status ok", "  brush.fill(200, 40, 40, 90);", "}"],
        ["status error", "  oops();", "}"],
    ]
    alone = _sample_cards(samples.iloc[:1], ["p00_s00"], {}, tmp_path)  # nothing to compare with
    assert alone[0]["lines"][1:3] == ["```js", "function setup() {"]
