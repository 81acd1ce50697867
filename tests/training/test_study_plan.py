"""A study in parts, without training: which jobs a sweep has, which a part runs, and a store
prepared before two jobs start at once (conf/train.yaml's callbacks on the real configs)."""

from __future__ import annotations

from pathlib import Path

import mlflow
import pytest
from hydra.core.hydra_config import HydraConfig
from hydra.core.utils import JobReturn, JobStatus
from hydra.utils import instantiate
from omegaconf import open_dict
from train_helpers import finished_study_job

from watercolor import config
from watercolor.config import compose_config
from watercolor.tasks.painting.painter.kinds import __main__ as kinds_command
from watercolor.tracking import PrepareStore, run_name
from watercolor.training import study


def sweep_config(*overrides: str):
    """The study experiment as `--multirun` with `overrides` composes it, hydra node included
    (sweep overrides are only on the command line: the sweeper expands them into jobs)."""
    single = [o for o in overrides if "," not in o]
    cfg = compose_config("train", ["experiment=three_rewards_v2", *single],
                         return_hydra_config=True)  # fmt: skip
    with open_dict(cfg):
        cfg.hydra.overrides.task = list(overrides)
    return cfg


def test_the_jobs_of_a_sweep_are_every_set_for_every_seed_lowest_seeds_first():
    jobs = study.sweep_jobs(sweep_config())
    assert jobs[:3] == ["coarse-seed0", "fine_grained-seed0", "gated-seed0"]
    assert len(jobs) == 15 and jobs[-1] == "gated-seed4"


def test_the_command_line_picks_a_part_of_the_sweep():
    assert study.sweep_jobs(sweep_config("seed=3,1")) == [
        f"{r}-seed{s}" for s in (1, 3) for r in ("coarse", "fine_grained", "gated")]  # fmt: skip
    assert study.sweep_jobs(sweep_config("seed=2", "reward=gated")) == ["gated-seed2"]


def test_a_study_refuses_a_sweep_over_anything_but_set_and_seed():
    with pytest.raises(SystemExit, match="also varies trainer.learning_rate"):
        study.sweep_jobs(sweep_config("trainer.learning_rate=1e-5,2e-5"))


def test_the_study_size_is_the_config_modules_own(monkeypatch):
    # One source, watercolor.config's STUDY_PROMPTS x STUDY_SAMPLES: the experiment does not copy
    # it (Study's defaults are what its callback gets), and kinds' --model defaults read it.
    node = sweep_config().hydra.callbacks.study
    assert not {"num_prompts", "samples"} & set(node), "a copy of Study's defaults"
    callback = instantiate(node)
    assert (callback.num_prompts, callback.samples) == (config.STUDY_PROMPTS, config.STUDY_SAMPLES)
    monkeypatch.setattr(config, "STUDY_PROMPTS", 5)
    monkeypatch.setattr(config, "STUDY_SAMPLES", 3)
    args = kinds_command.parse_args(["--model", "some/model"])
    assert (args.num_prompts, args.samples) == (5, 3)


def test_a_part_runs_jobs_not_done_up_to_its_limit(tmp_path):
    for key in ("coarse-seed0", "untrained"):
        (tmp_path / key / "evaluation").mkdir(parents=True)
        (tmp_path / key / "evaluation" / "evaluation.json").write_text("{}")
    (tmp_path / "coarse-seed0" / "run.json").write_text("{}")
    (tmp_path / "gated-seed0").mkdir()  # cut off: no run.json, no evaluation
    jobs = ["coarse-seed0", "gated-seed0", "coarse-seed1", "gated-seed1"]
    plan = study.make_plan(jobs, tmp_path, max_jobs=2)
    assert plan == {"done": ["coarse-seed0"], "run": ["gated-seed0", "coarse-seed1"],
                    "later": ["gated-seed1"], "untrained_done": True}  # fmt: skip
    assert study.make_plan(jobs, None, None)["run"] == jobs  # no records: a plain sweep
    said = study.describe(plan, tmp_path)
    assert "already done (1): coarse-seed0" in said
    assert "this part runs (2): gated-seed0, coarse-seed1" in said
    assert "later part (1): gated-seed1" in said


def test_a_records_folder_names_its_study_once(tmp_path):
    first = study.study_id(tmp_path / "records", None)
    assert (
        first.startswith(f"{tmp_path.name}-") and study.study_id(tmp_path / "records", "x") == first
    )
    assert study.study_id(None, tmp_path) == str(tmp_path) and study.study_id(None, None) == ""


def test_the_store_is_prepared_before_the_jobs_start(tmp_path, monkeypatch):
    # The paths group needs ${hydra:runtime.cwd}, which resolves only once Hydra has a config:
    # PrepareStore sets the sweep's own (else it raised, Hydra only warned, and two jobs raced
    # on a new store's schema).
    # The experiment, under its configured name, with its artifacts under the configured root
    # (`${paths.outputs}` is `<cwd>/outputs`; creating the experiment creates no folder there).
    uri = f"sqlite:///{tmp_path}/mlflow.db"
    cfg = compose_config("train", [f"tracking.uri={uri}", "tracking.experiment=prepared",
                                   "tracking.artifacts=${paths.outputs}/art"],
                         return_hydra_config=True)  # fmt: skip
    HydraConfig.instance().cfg = None
    monkeypatch.delenv("MLFLOW_TRACKING_URI", raising=False)  # a user's store would win
    PrepareStore().on_multirun_start(cfg)
    experiment = mlflow.MlflowClient(tracking_uri=uri).get_experiment_by_name("prepared")
    assert experiment is not None, "no experiment in the store"
    assert experiment.artifact_location == (Path.cwd() / "outputs" / "art" / "prepared").as_uri()


def test_planning_failure_stops_the_command(tmp_path):
    cfg = sweep_config("trainer.learning_rate=1e-5,2e-5", f"study.records={tmp_path}")
    with pytest.raises(SystemExit):
        study.Study().on_multirun_start(cfg)
    assert not list(tmp_path.rglob(study.PLAN_FILE))


def test_a_job_finds_its_sweep_dir_from_its_output_dir_not_from_now(tmp_path):
    # The default sweep dir holds ${now:...}: Hydra's JobReturn.hydra_cfg (a copy) resolved it
    # again minutes later, so the first part's skipped jobs missed the plan and were evaluated.
    cfg = compose_config("train", ["experiment=three_rewards_v2"], return_hydra_config=True)
    with open_dict(cfg):
        cfg.hydra.sweep.dir = str(tmp_path) + "/${now:%H-%M-%S.%f}"
        cfg.hydra.sweep.subdir = "2_coarse"
        cfg.hydra.runtime.output_dir = str(tmp_path / "12-00-00.000001" / "2_coarse")
    assert study.job_sweep_dir(cfg.hydra) == tmp_path / "12-00-00.000001"
    with open_dict(cfg):
        cfg.hydra.sweep.subdir = "seed_${seed}/${hydra:runtime.choices.reward}"
        cfg.hydra.runtime.output_dir = str(tmp_path / "sweep" / "seed_0" / "coarse")
    HydraConfig.instance().set_config(cfg)
    assert study.job_sweep_dir(cfg.hydra) == tmp_path / "sweep"


def test_each_evaluation_is_named_after_the_run_it_evaluates(tmp_path, monkeypatch):
    # MLflow's UI listed every evaluation a study started as "evaluate-evaluation" (its dir).
    # The study's hooks run for real on a real store; only the evaluation itself (a model
    # sampled, Chromium painting: tests/evaluation/test_held_out.py) is replaced by a note of
    # the config and folder it was given.
    from watercolor.evaluation import held_out

    monkeypatch.delenv("MLFLOW_TRACKING_URI", raising=False)  # a user's store would win
    trained = run_name("gated", 0)
    cfg = finished_study_job(tmp_path, ["reward=gated"], "watercolor", trained)
    given = []
    monkeypatch.setattr(held_out, "run", lambda config, out_dir: given.append((config, out_dir)))
    done = JobReturn(cfg=cfg, hydra_cfg=cfg, status=JobStatus.COMPLETED, _return_value=0.0)
    study.Study().on_job_end(cfg, done)
    study.Study().untrained(cfg, tmp_path / "sweep", records_dir=None)
    names = [held_out.evaluation_run_name(config, out_dir) for config, out_dir in given]
    assert names == [f"evaluate-{trained}", "evaluate-untrained"]
    assert [out_dir.name for _, out_dir in given] == ["evaluation", "untrained_evaluation"]


@pytest.mark.parametrize("compare", [True, False])
def test_study_compare_false_leaves_out_the_closing_compare(tmp_path, monkeypatch, compare):
    cfg = sweep_config(f"study.records={tmp_path}", f"study.compare={str(compare).lower()}")
    with open_dict(cfg):
        cfg.hydra.sweep.dir = str(tmp_path / "sweep")
    done = []
    monkeypatch.setattr(study.Study, "untrained", lambda self, *a: done.append("untrained"))
    monkeypatch.setattr(study.Study, "compare", lambda self, *a: done.append("compare"))
    study.Study().on_multirun_end(cfg)
    assert done == (["untrained", "compare"] if compare else ["untrained"])
