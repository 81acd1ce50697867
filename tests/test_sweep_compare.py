"""The path every user takes, end to end: a quick sweep over the three reward sets paints,
ends in its comparison and prints the MLflow link that shows its jobs side by side.

    python -m watercolor.train --multirun debug=quick reward=coarse,fine_grained,gated

debug=quick trains the embedded tiny painter (built by set-up; cached under outputs/cache) for
two steps of half a group: ~1-1.5 min a job on 2 cores.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys

import pandas as pd
import pytest
from train_helpers import REPO, mlflow_client, run_training

from watercolor.tracking import SAVED_VIEW_PREFIX, view_state

pytestmark = [pytest.mark.slow, pytest.mark.browser]

REWARD_SETS = ("coarse", "fine_grained", "gated")
# Started elsewhere, with no store of the user's: only the sweep dir says where the runs are.
ENV = {k: v for k, v in os.environ.items() if k != "MLFLOW_TRACKING_URI"}
ENV["PYTHONPATH"] = str(REPO)


@pytest.fixture(scope="module")
def sweep(tmp_path_factory):
    """(tmp dir, the command's stdout, its stderr) of the quick sweep over the three sets."""
    tmp = tmp_path_factory.mktemp("quick-sweep")
    result = run_training(tmp, f"reward={','.join(REWARD_SETS)}", multirun=True, debug="quick")
    return tmp, result.stdout, result.stderr


def test_a_step_prints_no_warning_a_user_cannot_act_on(sweep):
    # TRL reads transformers' deprecated is_gradient_checkpointing at every generation
    assert "is_gradient_checkpointing" not in sweep[2]
    # mlflow.log_table downloads the run's table at every logged step to append to it, a bar each
    assert "Downloading artifacts" not in sweep[2]


def test_a_quick_run_paints(sweep):
    # Fails when a quick run's replies stop painting: every job has canvases and rewards above 0.
    tmp = sweep[0]
    client = mlflow_client(tmp)
    runs = client.search_runs([client.get_experiment_by_name("watercolor").experiment_id])
    assert sorted(run.data.tags["reward"] for run in runs) == sorted(REWARD_SETS)
    for run in runs:
        rewards = [m.value for m in client.get_metric_history(run.info.run_id, "reward/total")]
        assert len(rewards) == 2 and max(rewards) > 0, (run.info.run_name, rewards)
        executed = client.get_metric_history(run.info.run_id, "rollouts/execution_rate")
        assert max(m.value for m in executed) > 0, f"{run.info.run_name}: no reply painted"
        canvases = [a.path for step in client.list_artifacts(run.info.run_id, "rollouts")
                    for a in client.list_artifacts(run.info.run_id, step.path)
                    if re.fullmatch(r".*/canvas_\d+\.png", a.path)]  # fmt: skip
        assert canvases, f"{run.info.run_name}: no canvas logged"
        for name in [f"crossreward/{other}" for other in REWARD_SETS] + ["behaviour/layering"]:
            # common rulers: every job's rollouts under every set, at every step
            assert len(client.get_metric_history(run.info.run_id, name)) == 2, name


def test_the_sweep_ends_in_its_comparison_with_the_side_by_side_link(sweep):
    tmp, printed = sweep[:2]
    compare_dir = tmp / "sweep" / "compare"
    table = pd.read_csv(compare_dir / "runs.csv")
    assert sorted(table["reward_set"]) == sorted(REWARD_SETS)
    assert (table["final/reward/total"] > 0).all() or (table["best/reward/total"] > 0).all()
    page = (compare_dir / "gallery.html").read_text()
    assert len(re.findall(r'<img src="[^"]+canvas', page)) > 0  # the canvases, side by side
    assert f"the comparison: {compare_dir}" in printed
    # (each job printed its own charts link too: a view of that job alone)
    (link,) = re.findall(r"side by side in MLflow, yardsticks first: .*\n  (\S+)", printed)
    # The link opens a view saved in the jobs' experiment, which shows them all (and only them),
    # the yardsticks' charts first, each job's own reward after.
    client = mlflow_client(tmp)
    jobs = client.get_experiment_by_name("watercolor")
    key = re.search(r"viewStateShareKey=([\w-]+)", link).group(1)
    view = view_state(jobs.tags[f"{SAVED_VIEW_PREFIX}{key}"])
    assert set(re.findall(r"'(\w+)'", view["searchFilter"])) == set(table["run_id"])
    sections = [section["name"] for section in view["compareRunSections"]]
    assert sections[0] == "crossreward" and sections.index("reward") > sections.index("behaviour")
    assert "yardsticks: each job's change" in printed  # which arm moved each, said plainly
    # The comparison's own run is in an experiment of its own, not among the jobs.
    assert len(client.search_runs([jobs.experiment_id])) == len(REWARD_SETS)
    assert client.get_experiment_by_name("watercolor-compare") is not None


def test_compare_of_the_sweep_dir_needs_no_store_flag(sweep, tmp_path):
    tmp = sweep[0]
    result = subprocess.run(
        [sys.executable, "-m", "watercolor.compare", "--sweep-dir", str(tmp / "sweep"),
         "--out", str(tmp_path / "again"), "--no-gallery", "--no-log"],
        cwd=tmp_path, capture_output=True, text=True, timeout=300, env=ENV,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr[-2000:]
    assert len(pd.read_csv(tmp_path / "again" / "runs.csv")) == len(REWARD_SETS)
