"""A job never logs into a run another live job is logging into (issue 11 item 8).

Two sweeps started in the same second used to share a sweep dir, and so each job's
`mlflow_run_id`: the second sweep's jobs silently resumed the first's MLflow runs. Now the
output dirs carry microseconds, and `tracking.mlflow_run` refuses to resume a RUNNING run unless
asked (`resume=true` in training: a killed job's run stays RUNNING). Real MLflow (sqlite store)
and the real conf/train.yaml.
"""

import datetime
import os
import re
import subprocess
import sys

import mlflow
import pytest
from hydra import compose, initialize_config_dir
from hydra.core.utils import setup_globals
from omegaconf import OmegaConf

from watercolor import config, tracking
from watercolor.config import CONF_DIR
from watercolor.tracking import (
    RUN_ID_FILE,
    SAVED_VIEW_PREFIX,
    mlflow_run,
    tracking_uri,
    ui_links,
    use_store,
    view_state,
)


@pytest.fixture
def client(tmp_path, monkeypatch) -> mlflow.MlflowClient:
    monkeypatch.delenv("MLFLOW_TRACKING_URI", raising=False)
    return mlflow.MlflowClient(f"sqlite:///{tmp_path}/mlflow.db")


def job(client, run_dir, **options):
    """What a training job opens around its training (watercolor.train)."""
    art = str(run_dir.parent / "art")
    params, tags = {"seed": 1}, {"reward": "gated"}
    return mlflow_run(client.tracking_uri, "jobs", params=params, tags=tags, run_dir=run_dir,
                      artifact_root=art, **options)  # fmt: skip


def other_jobs_run(client, run_dir, status: str) -> str:
    """A run another job (another process) started in `run_dir`, in `status`."""
    with job(client, run_dir) as run:
        run_id = run.info.run_id
    client.update_run(run_id, status=status)  # RUNNING: that job is still training
    return run_id


def test_a_live_run_in_the_same_dir_is_refused_not_resumed(client, tmp_path):
    run_dir = tmp_path / "multirun" / "0_gated"
    live = other_jobs_run(client, run_dir, "RUNNING")
    with pytest.raises(RuntimeError, match="still RUNNING"), job(client, run_dir):
        pytest.fail("logged into another job's live run")
    run = client.get_run(live)
    assert run.info.status == "RUNNING" and run.data.params == {"seed": "1"}
    assert (run_dir / RUN_ID_FILE).read_text() == live


def test_a_finished_run_says_how_to_open_it_in_the_ui(client, tmp_path, capsys):
    # (tests/test_mlflow_ui.py opens these links in Chromium on a served store)
    with job(client, tmp_path / "job") as run:
        pass
    said = capsys.readouterr().out
    links = ui_links(client.tracking_uri, run.info.experiment_id, run.info.run_id)
    assert f"mlflow ui --backend-store-uri {client.tracking_uri}" in said
    assert links["charts"] in said and links["runs"] in said
    assert links["charts"] == links["run"]  # not a training run: no view of its own, its page
    assert links["runs"].endswith("?workflowType=machine_learning")  # the training mode
    served = ui_links("http://tracking.example:8080/", "3", "abc")  # a tracking server: its own
    assert served["charts"] == "http://tracking.example:8080/#/experiments/3/runs/abc/model-metrics"


def test_the_printed_mlflow_command_runs_as_printed_without_the_venv_on_path(tmp_path):
    # Set-up makes .venv but activates nothing: a bare `mlflow ui ...` answered 127 (issue 55).
    said = tracking.serve_hint(f"sqlite:///{tmp_path}/mlflow.db")
    command = re.search(r"`(.+) ui --backend-store-uri ", said).group(1)
    bare = {**os.environ, "PATH": "/usr/bin:/bin"}
    done = subprocess.run(f"{command} --version", shell=True, env=bare, capture_output=True)
    assert done.returncode == 0, (command, done.stderr.decode()[-300:])
    assert b"version" in done.stdout


def training_job(client, run_dir, metrics: dict[str, float], **options):
    """A job that logs `metrics` at step 1 (a training run logs `reward/total`)."""
    with job(client, run_dir, **options) as run:
        mlflow.log_metrics(metrics, step=1)
    return run


def test_a_training_runs_charts_link_opens_its_view_reward_total_and_yardsticks_first(
    client, tmp_path, capsys
):
    # The run page orders its charts by name alone (tracking.save_run_view says why): a view.
    metrics = {"reward/total": 0.4, "reward/coverage": 0.5, "reward/gate_pass": 1.0,
               "crossreward/show_through": 0.2, "crossreward/coarse": 0.3,
               "behaviour/flat_block_rate": 0.1, "rollouts/execution_rate": 1.0}  # fmt: skip
    with job(client, tmp_path / "job") as run:
        mlflow.log_params({"task.audited_reward": "show_through"})
        mlflow.log_metrics(metrics, step=1)
    said = capsys.readouterr().out
    (key,) = re.findall(r"viewStateShareKey=(watercolor-run-\w+)", said)
    links = ui_links(client.tracking_uri, run.info.experiment_id, run.info.run_id, key)
    assert f"its charts, reward/total and the yardsticks first: {links['charts']}" in said
    assert f"its page: {links['run']}" in said and links["runs"] in said
    saved = client.get_experiment(run.info.experiment_id).tags[f"{SAVED_VIEW_PREFIX}{key}"]
    view = view_state(saved)
    assert run.info.run_id in view["searchFilter"] and view["isAccordionReordered"] is True
    assert [c["metricKey"] for c in view["compareRunCharts"]] == [
        "reward/total", "crossreward/show_through", "crossreward/coarse",
        "behaviour/flat_block_rate", "reward/coverage", "reward/gate_pass"]  # fmt: skip
    assert [s["name"] for s in view["compareRunSections"]][:4] == [
        "reward", "crossreward", "behaviour", "reward components"]  # fmt: skip


def test_an_experiment_keeps_only_its_newest_run_views(client, tmp_path, monkeypatch, capsys):
    monkeypatch.setattr(tracking, "RUN_VIEWS_KEPT", 2)
    runs = [training_job(client, tmp_path / f"job{n}", {"reward/total": 0.1}) for n in range(3)]
    tags = client.get_experiment(runs[0].info.experiment_id).tags
    views = [k for k in tags if k.startswith(f"{SAVED_VIEW_PREFIX}{tracking.RUN_VIEW_PREFIX}")]
    assert len(views) == 2  # the UI saves no more views in an experiment holding 40
    kept = " ".join(view_state(tags[k])["searchFilter"] for k in views)
    assert runs[0].info.run_id not in kept and runs[2].info.run_id in kept


def test_an_experiment_keeps_only_its_newest_side_by_side_views_and_every_other_view(
    client, tmp_path, monkeypatch, capsys
):
    monkeypatch.setattr(tracking, "SIDE_BY_SIDE_KEPT", 2)
    runs = [training_job(client, tmp_path / f"job{n}", {"reward/total": 0.1}) for n in range(4)]
    experiment = runs[0].info.experiment_id
    client.set_experiment_tag(experiment, f"{SAVED_VIEW_PREFIX}a-users-own", '{"updatedAt": 0}')
    keys = [tracking.save_side_by_side_view(client.tracking_uri, runs[:n]) for n in (2, 3, 4)]
    tags = client.get_experiment(experiment).tags
    views = {k.removeprefix(SAVED_VIEW_PREFIX) for k in tags if k.startswith(SAVED_VIEW_PREFIX)}
    assert keys[0] not in views and {keys[1], keys[2], "a-users-own"} <= views
    assert sum(k.startswith(tracking.RUN_VIEW_PREFIX) for k in views) == 4  # the runs' own kept


def test_a_live_run_is_resumed_when_asked_and_a_finished_one_as_before(client, tmp_path):
    killed = other_jobs_run(client, tmp_path / "killed", "RUNNING")  # killed before it ended
    with job(client, tmp_path / "killed", resume_running=True) as run:
        assert run.info.run_id == killed
    finished = other_jobs_run(client, tmp_path / "finished", "FINISHED")
    with job(client, tmp_path / "finished") as run:
        assert run.info.run_id == finished


def test_a_job_that_loses_the_race_for_a_dir_fails_its_own_run(client, tmp_path, monkeypatch):
    """Two jobs saw no run id in one dir at once: the one that writes second ends as FAILED."""
    run_dir, start_run = tmp_path / "0_gated", mlflow.start_run

    def other_job_wins(*args, **kwargs):
        (run_dir / RUN_ID_FILE).write_text("f" * 32)  # the other job claims the dir meanwhile
        return start_run(*args, **kwargs)

    run_dir.mkdir()
    monkeypatch.setattr(mlflow, "start_run", other_job_wins)
    with pytest.raises(RuntimeError, match="at the same time"), job(client, run_dir):
        pytest.fail("logged into a dir another job claimed")
    (ours,) = client.search_runs([client.get_experiment_by_name("jobs").experiment_id])
    assert ours.info.status == "FAILED" and (run_dir / RUN_ID_FILE).read_text() == "f" * 32


def output_dirs_at(moment: datetime.datetime, config: str = "train") -> tuple[str, str]:
    """conf/<config>.yaml's hydra.run.dir and hydra.sweep.dir as Hydra resolves them at `moment`."""
    with initialize_config_dir(config_dir=str(CONF_DIR), version_base="1.3"):
        hydra = compose(config, return_hydra_config=True).hydra
    patterns = {
        "run": OmegaConf.to_container(hydra.run, resolve=False)["dir"],
        "sweep": OmegaConf.to_container(hydra.sweep, resolve=False)["dir"],
    }
    # Hydra's `now` is datetime.now().strftime(pattern); this clock stands still at `moment`.
    OmegaConf.register_new_resolver("now", moment.strftime, replace=True)
    OmegaConf.register_new_resolver("hydra", lambda path: "gated", replace=True)
    try:
        resolved = OmegaConf.create(patterns)
        return resolved.run, resolved.sweep
    finally:
        setup_globals()  # Hydra's own resolvers again


def test_two_sweeps_started_in_the_same_second_get_their_own_dirs():
    first = datetime.datetime(2026, 12, 1, 6, 0, 0, 120_000)
    second = first + datetime.timedelta(milliseconds=300)
    (run_a, sweep_a), (run_b, sweep_b) = output_dirs_at(first), output_dirs_at(second)
    assert sweep_a.startswith("outputs/multirun/2026-12-01/06-00-00") and sweep_a != sweep_b
    assert run_a.startswith("outputs/runs/2026-12-01/06-00-00") and run_a != run_b
    assert run_a.endswith("_gated")


def test_two_evaluations_started_in_the_same_second_get_their_own_dirs():
    first = datetime.datetime(2026, 12, 1, 6, 0, 0, 120_000)
    second = first + datetime.timedelta(milliseconds=300)
    (run_a, sweep_a) = output_dirs_at(first, "evaluate")
    (run_b, sweep_b) = output_dirs_at(second, "evaluate")
    assert run_a.startswith("outputs/evaluate/2026-12-01/06-00-00") and run_a != run_b
    assert sweep_a != sweep_b


def test_two_stores_in_one_process_each_get_their_own_runs(tmp_path, monkeypatch):
    # mlflow.set_tracking_uri exports MLFLOW_TRACKING_URI; a second run with another store (a
    # notebook) once read that export as the user's choice and logged into the first store.
    monkeypatch.delenv("MLFLOW_TRACKING_URI", raising=False)
    stores = [f"sqlite:///{tmp_path}/{name}.db" for name in ("first", "second")]
    for n, uri in enumerate(stores):
        with mlflow_run(uri, "jobs", params={}, tags={}, run_dir=tmp_path / f"run{n}",
                        artifact_root=str(tmp_path / "art")):  # fmt: skip
            pass
    for n, uri in enumerate(stores):
        client = mlflow.MlflowClient(uri)
        (run,) = client.search_runs([client.get_experiment_by_name("jobs").experiment_id])
        assert run.info.run_id == (tmp_path / f"run{n}" / RUN_ID_FILE).read_text()


def inherited_store() -> str:
    """MLFLOW_TRACKING_URI as a child process started now sees it ("" when unset)."""
    code = "import os; print(os.environ.get('MLFLOW_TRACKING_URI', ''))"
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          check=True).stdout.strip()  # fmt: skip


def test_the_store_is_not_handed_down_to_child_processes(tmp_path, monkeypatch):
    # mlflow.set_tracking_uri exports MLFLOW_TRACKING_URI "so that subprocess can inherit it":
    # every command started after a job had opened its store (a training, `compare`, the MLflow
    # UI) logged into or read that store whatever its own tracking.uri said.
    monkeypatch.delenv("MLFLOW_TRACKING_URI", raising=False)
    ours = f"sqlite:///{tmp_path}/ours.db"
    assert use_store(ours) == ours and mlflow.get_tracking_uri() == ours  # this process's store
    assert "MLFLOW_TRACKING_URI" not in os.environ and inherited_store() == ""
    assert tracking_uri(f"sqlite:///{tmp_path}/next.db") == f"sqlite:///{tmp_path}/next.db"
    users = f"sqlite:///{tmp_path}/users.db"  # the user's own variable is theirs to hand down
    monkeypatch.setenv("MLFLOW_TRACKING_URI", users)
    assert use_store(ours) == users and inherited_store() == users


def test_the_users_tracking_uri_still_wins(tmp_path, monkeypatch):
    users = f"sqlite:///{tmp_path}/users.db"
    monkeypatch.setenv("MLFLOW_TRACKING_URI", users)
    for n in range(2):
        ours = f"sqlite:///{tmp_path}/ours{n}.db"
        with mlflow_run(ours, "jobs", params={}, tags={}, run_dir=tmp_path / f"run{n}",
                        artifact_root=str(tmp_path / "art")):  # fmt: skip
            pass
    client = mlflow.MlflowClient(users)
    assert len(client.search_runs([client.get_experiment_by_name("jobs").experiment_id])) == 2
    assert not (tmp_path / "ours0.db").exists()


JOB = """
import logging, sys, warnings
import hydra
import watercolor.config  # registers run_label; train.py imports it (watercolor.training.settings)

library = logging.getLogger("a_library_of_its_own")  # as transformers': a handler, no propagation
library.propagate = False
library.addHandler(logging.StreamHandler())


class Current:  # as mlflow's handler: writes to whatever sys.stderr is at the time
    def write(self, text):
        sys.stderr.write(text)

    def flush(self):
        pass


dynamic = logging.getLogger("a_library_writing_to_the_current_stderr")
dynamic.propagate = False
dynamic.addHandler(logging.StreamHandler(Current()))

@hydra.main(version_base="1.3", config_path=sys.argv.pop(1), config_name="train")
def main(cfg):
    print("a printed line")
    print("\\r 50%|#####     |\\r100%|##########| 2/2", file=sys.stderr)  # a progress bar
    logging.getLogger("watercolor.somewhere").info("a record")
    library.warning("a library's own record")
    dynamic.warning("a line written to the current stderr")
    warnings.warn("a warning", UserWarning, stacklevel=1)
    print("no newline at the end", end="")

main()
"""


def test_a_jobs_log_holds_what_it_printed_and_every_loggers_records(tmp_path):
    # train.log was empty: a run prints its lines, TRL its metrics, and transformers' loggers
    # do not propagate to the root logger, the only one Hydra's file handler was on (issue 55).
    # A job of conf/train.yaml's (its callbacks, Hydra's job logging) that prints as a run does:
    script = tmp_path / "train.py"
    script.write_text(JOB)
    run_dir = tmp_path / "run"
    argv = [sys.executable, str(script), str(CONF_DIR), f"hydra.run.dir={run_dir}"]
    done = subprocess.run(argv, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]
    log = (run_dir / "train.log").read_text()
    for line in ("a printed line", "a record", "a library's own record", "a warning",
                 "100%|##########| 2/2", "no newline at the end"):  # fmt: skip
        assert line in log, (line, log)
    assert "50%" not in log and log.count("a record") == 1
    assert log.count("a line written to the current stderr") == 1  # once: no doubled lines
    assert "a printed line" in done.stdout  # still shown as well


def test_an_evaluations_log_holds_what_it_printed(tmp_path):
    # evaluate.log, the same (the evaluation itself stubbed: it prints its summary as run does)
    script = tmp_path / "evaluate.py"
    script.write_text(
        "import runpy, sys, types\n"  # the evaluation stack (torch...) stays unimported
        "run = lambda cfg, out: print('the summary') or {}\n"
        "sys.modules['watercolor.evaluation.held_out'] = types.SimpleNamespace(run=run)\n"
        "runpy.run_module('watercolor.evaluate', run_name='__main__')\n"
    )
    run_dir = tmp_path / "evaluation"
    argv = [sys.executable, str(script), f"hydra.run.dir={run_dir}"]
    done = subprocess.run(argv, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]
    assert "the summary" in (run_dir / "evaluate.log").read_text()


def test_a_runs_dir_names_its_reward_set_task_and_the_options_set(tmp_path):
    # Two runs of one set on one day differed only by their time (issue 55).
    script = tmp_path / "train.py"
    script.write_text(JOB)
    argv = [sys.executable, str(script), str(CONF_DIR), "reward=gated", "debug=quick"]
    done = subprocess.run(argv, cwd=tmp_path, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]
    (run_dir,) = (tmp_path / "outputs" / "runs").glob("*/*")
    assert re.fullmatch(r"\d\d-\d\d-\d\d\.\d{6}_gated_painting_quick", run_dir.name), run_dir
    assert "a printed line" in (run_dir / "train.log").read_text()
    assert config.run_label("coarse", "painting", None, None) == "coarse_painting"
