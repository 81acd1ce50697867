"""A study whose arms are episodes, not reward sets (conf/arm, conf/experiment/revise_study.yaml):
which jobs it has, how its runs are named, recorded and grouped, how each model is evaluated,
and the revision measures per arm that compare writes. No training: the real configs, a real
MLflow store and records folder, and evaluation tables whose effects are known."""

from __future__ import annotations

import mlflow
import numpy as np
import pandas as pd
import pytest
from hydra.core.utils import JobReturn, JobStatus
from hydra.utils import instantiate
from omegaconf import open_dict
from train_helpers import REPO, finished_study_job

from watercolor.analysis import matrix, records
from watercolor.analysis.records import Evaluation, Records
from watercolor.analysis.revision_stats import arm_revision_table
from watercolor.config import compose_config
from watercolor.tracking import mlflow_run, run_name
from watercolor.training import study


def revise_sweep(*overrides: str):
    """The revision study as `--multirun` with `overrides` composes it, hydra node included."""
    single = [o for o in overrides if "," not in o]
    cfg = compose_config("train", ["experiment=revise_study", *single], return_hydra_config=True)
    with open_dict(cfg):
        cfg.hydra.overrides.task = list(overrides)
    return cfg


def test_the_revision_study_has_both_arms_for_every_seed_lowest_seeds_first():
    assert study.sweep_jobs(revise_sweep()) == [
        f"{arm}-seed{seed}" for seed in (0, 1, 2) for arm in ("single", "revise")]  # fmt: skip
    assert study.sweep_jobs(revise_sweep("seed=2", "arm=revise")) == ["revise-seed2"]


def test_a_study_compares_arms_or_reward_sets_not_both():
    with pytest.raises(SystemExit, match="arms or reward sets, not both"):
        study.sweep_jobs(revise_sweep("reward=coarse,gated"))


def test_each_arm_sets_the_episode_and_nothing_else():
    single, revise = (compose_config("train", ["experiment=revise_study", f"arm={arm}"])
                      for arm in ("single", "revise"))  # fmt: skip
    assert (single.task.turns, revise.task.turns) == (1, 2)
    with open_dict(revise):
        revise.task.turns = 1
    assert revise == single
    plain = compose_config("train", [])  # no arm: today's single-turn default, unchanged
    assert plain.task.turns == 1 and "arm" not in plain


def test_a_run_is_named_recorded_and_compared_by_its_arm(tmp_path, monkeypatch):
    monkeypatch.delenv("MLFLOW_TRACKING_URI", raising=False)
    uri = f"sqlite:///{tmp_path}/mlflow.db"
    for tags in ({"arm": "revise", "reward": "fine_grained"}, {"arm": "None", "reward": "gated"}):
        name = run_name(records.arm_of(tags), 0)
        with mlflow_run(uri, "arms", params={}, tags=tags | {"seed": "0"},
                        run_dir=tmp_path / tags["reward"], run_name=name,
                        artifact_root=f"{tmp_path}/art"):  # fmt: skip
            pass
    client = mlflow.MlflowClient(uri)
    runs = client.search_runs([client.get_experiment_by_name("arms").experiment_id])
    infos = sorted((records.run_info(r) for r in runs), key=lambda i: i["arm"])
    assert [(i["arm"], i["reward_set"]) for i in infos] == [
        ("gated", "gated"), ("revise", "fine_grained")]  # fmt: skip
    assert sorted(r.info.run_name.split(" seed")[0] for r in runs) == ["gated", "revise"]
    written = records.export(records.from_store(client, runs), tmp_path / "records")
    assert sorted(p.name for p in written) == ["gated-seed0", "revise-seed0"]
    again = records.read(tmp_path / "records")
    assert sorted(i["arm"] for i in again.runs) == ["gated", "revise"]


def test_records_from_before_arms_are_grouped_by_their_reward_set():
    old = records.read(REPO / "experiments/2026-12-01_three_rewards_v2/records")
    assert {i["arm"] for i in old.runs} == {"coarse", "fine_grained", "gated"}
    assert all(i["arm"] == i["reward_set"] for i in old.runs)


def test_every_model_of_the_study_is_evaluated_with_the_studys_overrides(tmp_path, monkeypatch):
    # Both arms' models and the untrained one get drafts and revisions (task.turns=2), whatever
    # the arm trained with; the study's hooks run for real, the evaluation is noted, not run.
    from watercolor.evaluation import held_out

    monkeypatch.delenv("MLFLOW_TRACKING_URI", raising=False)
    cfg = finished_study_job(tmp_path, ["experiment=revise_study", "arm=single",
                                        "study.records=null"], "revise_study",
                             run_name("single", 0))  # fmt: skip
    given = []
    monkeypatch.setattr(held_out, "run", lambda config, out_dir: given.append(config))
    callback = instantiate(cfg.hydra.callbacks.study)
    done = JobReturn(cfg=cfg, hydra_cfg=cfg, status=JobStatus.COMPLETED, _return_value=0.0)
    callback.on_job_end(cfg, done)
    callback.untrained(cfg, tmp_path / "sweep", records_dir=None)
    assert [c.task.turns for c in given] == [2, 2]
    assert [c.samples for c in given] == [2, 2] and [list(c.rewards) for c in given] == [
        ["fine_grained"]] * 2  # fmt: skip


# --- the revision measures per arm ----------------------------------------------------------------

ROLES = ("draft", "second", "revision", "revision_empty", "revision_other")
PROMPTS, SAMPLES, SEEDS = 6, 2, 3
# Each arm's revision adds this to its draft's total on every clean draft.
GAIN = {"single": 0.0, "revise": 0.1}


def revision_rows(arm: str, seed: int) -> pd.DataFrame:
    """One evaluation's rows of every role: drafts whose total varies by prompt; the first
    sample of prompt 0 crashed (the revision fixes it); the revision adds GAIN[arm]."""
    rows = []
    for p in range(PROMPTS):
        for s in range(SAMPLES):
            draft = 0.4 + 0.05 * p + 0.01 * seed
            crashed = (p, s) == (0, 0)
            for role in ROLES:
                total = draft + (GAIN[arm] if role == "revision" else 0.0)
                status = "error" if crashed and role == "draft" else "ok"
                rows.append({"role": role, "prompt_index": p, "sample": s, "status": status,
                             "key": f"p{p:02d}_s{s:02d}", "sketch": f"{role} {p} {s}",
                             "total/fine_grained": 0.0 if status == "error" else total,
                             "run": f"{arm}{seed}", "trained_with": arm})  # fmt: skip
    return pd.DataFrame(rows)


def test_revision_measures_are_reported_per_arm_and_per_pair_of_arms():
    samples = pd.concat([revision_rows(a, s) for a in GAIN for s in range(SEEDS)])
    table = arm_revision_table(samples, resamples=300).set_index(["measure", "comparison"])
    change = table.loc[("clean_draft_change", "revise")]
    assert change["mean"] == pytest.approx(0.1) and change["low"] == pytest.approx(0.1)
    assert table.loc[("clean_draft_change", "single"), "mean"] == pytest.approx(0.0)
    gap = table.loc[("revision_total", "single - revise")]
    assert gap["mean"] == pytest.approx(-0.1, abs=0.02) and gap["high"] < 0
    assert table.loc[("draft_total", "single - revise"), "mean"] == pytest.approx(0.0)
    assert table.loc[("crash_fix_rate", "revise"), "mean"] == 1.0
    assert table.loc[("vs_empty_feedback", "revise"), "mean"] == pytest.approx(0.1)
    assert table.loc[("copy_rate", "single"), "mean"] == 0.0
    assert set(table.reset_index()["scored_by"]) == {"fine_grained"}


def test_compare_shows_drafts_in_the_matrix_and_revisions_in_their_own_table(tmp_path, capsys):
    found = Records()
    for arm in GAIN:
        for seed in range(SEEDS):
            run_id = f"{arm}{seed}"
            found.runs.append({"run_id": run_id, "arm": arm, "reward_set": "fine_grained",
                               "seed": str(seed)})  # fmt: skip
            rows = revision_rows(arm, seed).drop(columns=["run", "trained_with"])
            metrics = {"total/fine_grained": float(rows[rows.role == "draft"]["total/fine_grained"]
                                                   .mean())}  # fmt: skip
            found.evaluations.append(Evaluation(f"e-{run_id}", run_id, metrics, rows))
    untrained = revision_rows("single", 0).drop(columns=["run", "trained_with"])  # no gain
    found.evaluations.append(Evaluation("e-untrained", "", {}, untrained))
    table = matrix.matrix_table(found)
    assert list(dict.fromkeys(table["trained_with"])) == [matrix.UNTRAINED, "revise", "single"]
    paths = matrix.write_matrix(found, None, table, tmp_path, resamples=200, seed=0)
    ci = pd.read_csv(paths["matrix_ci"]).set_index("trained_with")
    drafts = pd.concat([revision_rows("single", s) for s in range(SEEDS)])
    drafts = drafts[drafts.role == "draft"]["total/fine_grained"].mean()
    assert ci.loc["single", "mean"] == pytest.approx(drafts)  # drafts only, not every role
    revision = pd.read_csv(paths["revision_ci"]).set_index(["measure", "comparison"])
    assert revision.loc[("clean_draft_change", "revise"), "mean"] == pytest.approx(0.1)
    assert np.isfinite(revision.loc[("revision_total", "revise - single"), "low"])
    # every difference with the untrained model reads "arm - (untrained)"
    gain = revision.loc[("clean_draft_change", "revise - (untrained)"), "mean"]
    assert gain == pytest.approx(0.1)
    assert not revision.reset_index()["comparison"].str.startswith("(untrained) -").any()
    assert pd.read_csv(paths["verdict"]).empty  # no scorer is an arm: no verdict, no error
    matrix.print_statistics(paths)
    printed = capsys.readouterr().out
    assert "revision episodes scored by fine_grained" in printed and "revise - single" in printed
