"""Nothing computes differently: the painting task samples the same replies and gives them the
same statuses and scores as it did at BASELINE, the last commit before the task seam (issue 33,
items 2-5: a `Task` object, SVG, the package's new layout).

Each side runs the same command in a fresh process, on this machine (the same model config
builds the same weights here whatever the commit; another CPU would build others, so a stored
golden file would not do): BASELINE from a git worktree of it, the current code from this
checkout, both with PYTHONSAFEPATH so that the checkout each imports is the one on PYTHONPATH,
not the directory the command starts in. Both read the smoke painter from this checkout's cache.

- `evaluate`: 2 held-out prompts x 2 samples, scored by two reward sets: the replies must be
  identical, statuses and violations too, every score within `SCORE_TOLERANCE`.
- `train`: one GRPO step (the sampled group is the initial model's): its rollouts table, the
  same comparison.
- `compare --records`: both committed studies' tables (every CSV compare writes, galleries
  left out) rebuilt from their records, byte for byte.

Why a tolerance on scores at all: SwiftShader renders one sketch with one seed to pixels that
differ by a few levels from run to run (tests/render/test_paint.py allows it), and the scores
read those pixels (on this machine they came out the same: `SCORE_TOLERANCE`). A change that
moves what is painted or how it is scored moves scores by far more; a change to prompts,
templates, extraction or sampling changes the replies themselves. Broken on purpose once: a word
added to the system prompt fails the evaluation test on its replies.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import mlflow
import pandas as pd
import pytest

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[1]
BASELINE = "638bb9e"  # before the task seam: the painting task as the studies ran it
# Per sample. BASELINE against itself (2026-12-04, a study beside it): every score of both tests
# the same to 4 decimals (largest gap 0.0000); the margin is for SwiftShader's few levels.
SCORE_TOLERANCE = 0.005
# BASELINE reads the libraries where they were then; this checkout, under its task.
NODE_MODULES = {"then": Path("watercolor/render/js/node_modules"),
                "now": Path("watercolor/tasks/painting/js/node_modules")}  # fmt: skip


@pytest.fixture(scope="module")
def baseline(tmp_path_factory) -> Path:
    """A worktree of BASELINE, with this checkout's node_modules (the same lockfile)."""
    shallow = subprocess.run(["git", "-C", str(ROOT), "rev-parse", "--is-shallow-repository"],
                             capture_output=True, text=True, check=True).stdout.strip()  # fmt: skip
    if shallow == "true":
        pytest.skip(f"a shallow clone may lack {BASELINE}: `git fetch --unshallow` to run this")
    tree = tmp_path_factory.mktemp("baseline") / "tree"
    subprocess.run(["git", "-C", str(ROOT), "worktree", "add", "--detach", str(tree), BASELINE],
                   check=True, capture_output=True)  # fmt: skip
    (tree / NODE_MODULES["then"]).symlink_to(ROOT / NODE_MODULES["now"])
    yield tree
    subprocess.run(["git", "-C", str(ROOT), "worktree", "remove", "--force", str(tree)],
                   check=False, capture_output=True)  # fmt: skip


def run(tree: Path, out: Path, module: str, *overrides: str, hydra: bool = True) -> Path:
    """`python -m <module> <overrides>` importing `tree`'s package, its outputs under `out`
    (a Hydra command at smoke scale with seed 1, or, `hydra=False`, a plain CLI)."""
    out.mkdir(parents=True)
    env = {k: v for k, v in os.environ.items() if k != "MLFLOW_TRACKING_URI"}
    env |= {"PYTHONSAFEPATH": "1", "PYTHONPATH": str(tree)}
    paths = [f"paths.outputs={out}", f"paths.cache={ROOT}/outputs/cache"]
    settings = ["debug=smoke", "seed=1", *paths] if hydra else []
    command = [sys.executable, "-m", module, *settings, *overrides]
    done = subprocess.run(command, cwd=out, env=env, capture_output=True, text=True, timeout=900)
    assert done.returncode == 0, f"{module} at {tree}:\n{done.stderr[-3000:]}"
    return out


def evaluation(tree: Path, out: Path) -> pd.DataFrame:
    run(tree, out, "watercolor.evaluate", "num_prompts=2", "samples=2",
        "rewards=[fine_grained,gated]", f"hydra.run.dir={out}/run")  # fmt: skip
    return pd.read_parquet(out / "run" / "samples.parquet")


def training(tree: Path, out: Path) -> pd.DataFrame:
    run(tree, out, "watercolor.train", "trainer.max_steps=1", f"hydra.run.dir={out}/run")
    client = mlflow.MlflowClient(f"sqlite:///{out}/mlflow.db")
    run_id = (out / "run" / "mlflow_run_id").read_text().strip()
    table = Path(client.download_artifacts(run_id, "rollouts.json", str(out)))
    table = json.loads(table.read_text())
    return pd.DataFrame(table["data"], columns=table["columns"]).drop(columns=["canvas"])


def assert_same(before: pd.DataFrame, after: pd.DataFrame, exact: list[str], scores: list[str]):
    assert len(before) == len(after) > 0
    for column in exact:
        assert before[column].tolist() == after[column].tolist(), column
    for column in scores:
        gap = (before[column].astype(float) - after[column].astype(float)).abs()
        print(f"{column}: largest gap {gap.max():.4f}")  # the render noise, with -s
        assert gap.max() <= SCORE_TOLERANCE, (column, gap.max())


def test_evaluation_samples_and_scores_as_before(baseline, tmp_path):
    before, after = evaluation(baseline, tmp_path / "before"), evaluation(ROOT, tmp_path / "after")
    scores = [c for c in before.columns if c.startswith("total/")]
    assert scores == ["total/fine_grained", "total/gated"]
    assert_same(before, after, ["prompt", "reply", "status", "violations"], scores)


def test_a_training_step_samples_and_scores_as_before(baseline, tmp_path):
    before, after = training(baseline, tmp_path / "before"), training(ROOT, tmp_path / "after")
    # BASELINE named a component's column `c.<name>`, which the MLflow UI showed empty; now `c/`
    before = before.rename(columns=lambda c: f"c/{c[2:]}" if c.startswith("c.") else c)
    components = [c for c in before.columns if c.startswith("c/")]
    assert components and set(components) <= set(after.columns)
    assert_same(before, after, ["step", "prompt", "reply", "status", "violations"],
                ["reward", *components])  # fmt: skip


STUDIES = ["2026-12-01_three_rewards_v2", "2026-12-02_revise_study"]


@pytest.mark.parametrize("study", STUDIES)
def test_a_studys_tables_rebuild_byte_for_byte(baseline, tmp_path, study):
    records = ROOT / "experiments" / study / "records"
    tables = {}
    for side, tree in (("before", baseline), ("after", ROOT)):
        out = tmp_path / side
        run(tree, out, "watercolor.compare", "--records", str(records), "--out", str(out / "t"),
            "--no-gallery", "--no-log", hydra=False)  # fmt: skip
        tables[side] = {p.name: p.read_bytes() for p in sorted((out / "t").glob("*.csv"))}
    assert len(tables["before"]) >= 8, sorted(tables["before"])
    assert sorted(tables["after"]) == sorted(tables["before"])
    for name, content in tables["before"].items():
        assert tables["after"][name] == content, name
