"""A study's records: written from a real (temporary) MLflow store, read back without it, and
compared: the same tables, CIs and verdict from either source."""

from __future__ import annotations

import json
import shutil

import mlflow
import pandas as pd
import pyarrow.parquet as pq
import pytest
from analysis_helpers import EXPERIMENT, STUDY

from watercolor.analysis import comparison, records

TABLES = ("runs", "aggregate", "provenance", "curves", "matrix", "matrix_aggregate", "matrix_ci",
          "verdict", "behaviour_ci", "yardstick_curves", "yardsticks", "yardstick_moves",
          "overoptimisation")  # fmt: skip


def store_records(store) -> records.Records:
    client = mlflow.MlflowClient(store["uri"])
    runs = records.select_runs(client, study=STUDY)
    return records.from_store(client, runs, records.evaluations(client, runs))


@pytest.fixture
def exported(store, tmp_path):
    folder = tmp_path / "records"
    records.export(store_records(store), folder)
    return folder


def test_every_job_gets_its_folder_and_the_untrained_model_its_own(store, exported):
    names = sorted(p.name for p in exported.iterdir())
    assert names == ["coarse-seed0", "coarse-seed1", "gated-seed0", "gated-seed1", "untrained"]
    for key in names:
        assert records.done(exported, key)
    run = json.loads((exported / "gated-seed1" / "run.json").read_text())
    assert run["run_id"] == store["run_ids"]["gated", 1]
    assert run["commit"].startswith("c0ffee") and run["config_hash"] == "hash-gated"
    assert run["study"] == STUDY
    assert (exported / "gated-seed1" / "config.yaml").read_text().startswith("reward: gated")
    metrics = pd.read_csv(exported / "gated-seed1" / "metrics.csv", index_col="step")
    assert list(metrics.index) == [1, 2, 3] and "reward/total" in metrics
    rollouts = pd.read_parquet(exported / "gated-seed1" / "rollouts.parquet")
    assert sorted(set(rollouts["step"])) == [0, 1] and "canvas" not in rollouts
    assert rollouts["reply"].str.startswith("```js").all()
    about = json.loads((exported / "untrained" / "evaluation" / "evaluation.json").read_text())
    assert about["evaluation_id"] == store["evaluations"][None]  # not another study's
    total = sum(f.stat().st_size for f in exported.rglob("*") if f.is_file())
    assert total < 200_000, total  # no images, no weights


def test_a_table_is_written_compact_and_reads_back_the_same(tmp_path):
    table = pd.DataFrame({"reply": ["```js\n" + "wash();\n" * 40, "", None],
                          "clean": [True, False, True], "score": [0.25, float("nan"), 1.0],
                          "step": [0, 0, 3], "violations": ["", "bare_primitive", ""]})  # fmt: skip
    path = tmp_path / "samples.parquet"
    records.write_table(table, path)
    pd.testing.assert_frame_equal(pd.read_parquet(path), table, check_exact=True)
    written = pq.ParquetFile(path).metadata
    columns = [written.row_group(0).column(i) for i in range(written.num_columns)]
    assert {c.compression for c in columns} == {"ZSTD"}
    assert not any(c.is_stats_set for c in columns)
    assert b"ARROW:schema" not in (written.metadata or {})  # pandas' own metadata is enough


def test_a_job_without_its_evaluation_is_not_done(exported):
    shutil.rmtree(exported / "coarse-seed0" / "evaluation")
    assert not records.done(exported, "coarse-seed0") and records.done(exported, "coarse-seed1")


@pytest.mark.slow  # slow tier: experiments/2026-12-07_test_tiers
def test_compare_gives_the_same_tables_from_the_records_as_from_the_store(store, exported,
                                                                          tmp_path):  # fmt: skip
    client = mlflow.MlflowClient(store["uri"])
    runs = records.select_runs(client, study=STUDY)
    options = {"resamples": 300, "seed": 3, "gallery": False}
    found = records.from_store(client, runs, records.evaluations(client, runs))
    from_store = comparison.compare(found, None, tmp_path / "store", **options)
    from_records = comparison.compare(records.read(exported), None, tmp_path / "records", **options)
    for name in TABLES:
        key = "curves_table" if name == "curves" else name
        one = pd.read_csv(from_store[key], dtype=str, keep_default_na=False)
        other = pd.read_csv(from_records[key], dtype=str, keep_default_na=False)
        pd.testing.assert_frame_equal(one, other, obj=name)
    verdict = pd.read_csv(from_records["verdict"]).set_index("scored_by")
    assert (verdict["verdict"] == "yes").all()  # the synthetic answer, from the records alone


@pytest.mark.slow  # slow tier: experiments/2026-12-07_test_tiers
def test_the_equality_test_would_see_a_source_read_differently(store, exported, tmp_path):
    # Guard of the test above: a records folder read with one metric lost gives other tables.
    found = records.read(exported)
    for run_id in found.histories:
        found.histories[run_id] = found.histories[run_id].drop(columns=["reward/total"])
    changed = comparison.compare(found, None, tmp_path / "changed", resamples=300, seed=3,
                              gallery=False)  # fmt: skip
    intact = comparison.compare(records.read(exported), None, tmp_path / "intact", resamples=300,
                             seed=3, gallery=False)  # fmt: skip
    one, other = pd.read_csv(changed["runs"]), pd.read_csv(intact["runs"])
    assert not one.equals(other)


@pytest.mark.slow  # slow tier: experiments/2026-12-07_test_tiers
def test_compare_main_reads_a_records_folder_and_logs_nothing(store, exported, tmp_path, capsys):
    client = mlflow.MlflowClient(store["uri"])
    experiment = client.get_experiment_by_name(EXPERIMENT).experiment_id
    before = len(client.search_runs([experiment], "tags.kind = 'compare'"))
    paths = comparison.main(["--records", str(exported), "--out", str(tmp_path / "out"),
                          "--no-gallery", "--resamples", "200"])  # fmt: skip
    assert pd.read_csv(paths["runs"])["reward_set"].tolist() == ["coarse"] * 2 + ["gated"] * 2
    assert list(pd.read_csv(paths["matrix"])["trained_with"]) == [
        "(untrained)", "coarse", "coarse", "gated", "gated"]  # fmt: skip
    printed = capsys.readouterr()
    assert "provenance" in printed.out and "c0ffeec0ff" in printed.out
    assert len(client.search_runs([experiment], "tags.kind = 'compare'")) == before


def test_a_study_reads_its_own_baseline_never_another_studys(store):
    client = mlflow.MlflowClient(store["uri"])
    runs = records.select_runs(client, experiment=EXPERIMENT)
    found = {e.info.run_id for e in records.evaluations(client, runs)}
    assert store["evaluations"][None] in found
    assert store["evaluations"]["other study"] not in found
    elsewhere = records.evaluations(client, runs, studies=["another-study"])
    assert store["evaluations"]["other study"] in {e.info.run_id for e in elsewhere}
    assert store["evaluations"][None] not in {e.info.run_id for e in elsewhere}


def test_runs_of_one_set_differing_in_more_than_their_seed_are_reported_loudly(
    exported, tmp_path, capsys
):
    file = exported / "gated-seed1" / "run.json"
    run = json.loads(file.read_text())
    file.write_text(json.dumps(run | {"config_hash": "another", "commit": "f" * 40,
                                      "dirty": "true"}))  # fmt: skip
    comparison.main(["--records", str(exported), "--out", str(tmp_path / "out"), "--no-gallery",
                  "--resamples", "100"])  # fmt: skip
    warned = capsys.readouterr().err
    assert "runs of gated differ in more than their seed" in warned
    assert "hash-gated" in warned and "another" in warned
    assert "several commits" in warned and "ffffffffff: gated/seed1" in warned
    assert "uncommitted changes to the training code: gated/seed1" in warned
    assert "coarse differ" not in warned
