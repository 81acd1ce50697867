"""Every command answers bad input with a usage error: exit code 2 and the error on one line,
never a traceback (watercolor/usage.py), before it starts a browser or loads a model.

Run as a user runs them (`python -m watercolor.<command>`), one subprocess per case. Our own
errors are the only line on stderr; argparse's (an unknown flag or choice, a value of the wrong
type) follow its usage message.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import mlflow
import pytest

from watercolor import usage
from watercolor.config import runs
from watercolor.evaluation.eval_settings import check_settings as check_evaluation
from watercolor.training.settings import check_settings as check_training

REPO = Path(__file__).resolve().parents[1]
MISSING = "/nonexistent/watercolor-usage-test"
STORE = "--tracking-uri=sqlite:///{tmp}/mlflow.db"  # compare reads a store of its own
RUN_DIR = "hydra.run.dir={tmp}/run"  # where Hydra writes the run's config, a Hydra app's own
SWEEP_DIR = "hydra.sweep.dir={tmp}/sweep"
# A run refused too late would log here, not to the user's store.
OWN_STORE = ("tracking.uri=sqlite:///{tmp}/mlflow.db", "tracking.artifacts={tmp}/artifacts")
SVG = "watercolor/tasks/svg/audit_sketches/whale.svg"  # an SVG document: the svg task's reply
SKETCH = "watercolor/tasks/painting/samples/koi.js"  # a p5.brush sketch: painting's
POOL = "rewards.reference_pool"
CALIBRATION = "tasks.painting.calibration"  # the flat-block calibration (was `behaviour`)
PAINTER = "tasks.painting.painter."  # painting's tiny painter: tiny, kinds, tiny_revise

# id -> (module, arguments, what the error names, argparse's usage message comes first)
CASES = {
    "calibration-unknown-split": (CALIBRATION, ["--split", "nope"], "nope", True),
    "bench-missing-sketches": ("bench", ["render_modes", "--sketches", MISSING], MISSING, False),
    "render-missing-sketch": ("render", [MISSING], MISSING, False),
    "render-bad-override": ("render", [MISSING, "--set", "nope=1"], "nope", False),
    "score-missing-sketch": ("score", [MISSING], MISSING, False),
    "score-unknown-reward": ("score", [MISSING, "--reward", "nope"], "nope", False),
    "score-other-tasks-reward": ("score", [MISSING, "--reward", "svg_fine"], "svg_fine", False),
    "audit-unknown-reward": ("audit", ["reward=nope"], "nope", False),
    "compare-missing-records": ("compare", ["--records", MISSING], MISSING, False),
    "compare-missing-sweep-dir": ("compare", ["--sweep-dir", MISSING, STORE], MISSING, False),
    "compare-unknown-experiment": ("compare", ["--experiment", "nope", STORE], "nope", False),
    "compare-unknown-run": ("compare", ["--runs", "0" * 32, STORE], "0" * 32, False),
    "compare-no-selection": ("compare", [], "one of the arguments", True),
    "evaluate-missing-checkpoint": ("evaluate", [f"checkpoint={MISSING}", RUN_DIR], MISSING, False),
    "evaluate-unknown-reward": ("evaluate", ["rewards=[nope]", RUN_DIR], "nope", False),
    "evaluate-other-tasks-reward": ("evaluate", ["rewards=[svg_fine]", RUN_DIR], "svg_fine", False),
    "evaluate-bad-override": ("evaluate", ["nope=1"], "nope", False),
    "evaluate-unknown-option": ("evaluate", ["model=nope"], "model/nope", False),
    "train-bad-override": ("train", ["nope=1"], "nope", False),
    "train-other-tasks-reward": ("train", ["task=svg", "reward=coarse", RUN_DIR], "coarse", False),
    "train-settings-refused": (
        "train",
        ["sampler=vllm_colocate", "overlap_rendering=true", RUN_DIR],
        "sampler=hf",
        False,
    ),
    "train-full-epoch": (
        "train",
        ["trainer.max_steps=-1", RUN_DIR, *OWN_STORE],
        "trainer.max_steps must be a whole number >= 1, got -1",
        False,
    ),
    "train-group-of-one": (
        "train",
        ["trainer.num_generations=1", RUN_DIR, *OWN_STORE],
        "trainer.num_generations",
        False,
    ),
    "train-no-render-time": (
        "train",
        ["renderer.time_limit_s=0", RUN_DIR, *OWN_STORE],
        "renderer.time_limit_s",
        False,
    ),
    "train-multirun-unknown-option": (
        "train",
        ["--multirun", "reward=coarse,fine_graned", SWEEP_DIR, *OWN_STORE],
        "reward/fine_graned",
        False,
    ),
    "evaluate-no-samples": ("evaluate", ["samples=0", RUN_DIR, *OWN_STORE], "samples", False),
    "evaluate-no-prompts": (
        "evaluate",
        ["num_prompts=-1", RUN_DIR, *OWN_STORE],
        "num_prompts",
        False,
    ),
    "evaluate-multirun-unknown-option": (
        "evaluate",
        ["-m", "model=tiny,tyni", SWEEP_DIR, *OWN_STORE],
        "model/tyni",
        False,
    ),
    "render-svg-under-painting": ("render", [SVG], "add --set task=svg", False),
    "render-sketch-under-svg": ("render", [SKETCH, "--set", "task=svg"], "task=painting", False),
    "render-no-time": ("render", [SKETCH, "--time-limit", "0"], "renderer.time_limit_s", False),
    "score-svg-under-painting": ("score", [SVG], "add --set task=svg", False),
    "score-sketch-under-svg": ("score", [SKETCH, "--set", "task=svg"], "task=painting", False),
    "env.serve-bad-override": ("env.serve", ["--set", "nope=1"], "nope", False),
    "env.serve-unknown-reward": ("env.serve", ["--reward", "nope"], "nope", True),
    "env.serve-other-tasks-reward": ("env.serve", ["--reward", "svg_fine"], "svg_fine", False),
    "env.serve-component-unset": (
        "env.serve",
        ["--reward", "coarse", "--set", "reward.components.palette_match.fn.palette=[]"],
        "palette_match needs",
        False,
    ),
    "painter.kinds-missing-model": (PAINTER + "kinds", ["--model", MISSING], MISSING, False),
    "painter.kinds-unknown-reward": (
        PAINTER + "kinds",
        ["--rewards", "coarse,nope"],
        "nope",
        False,
    ),
    "painter.kinds-unknown-kind": (PAINTER + "kinds", ["--kinds", "nope"], "nope", False),
    "painter.kinds-bad-override": (PAINTER + "kinds", ["--set", "nope=1"], "nope", False),
    "painter.tiny-bad-value": (PAINTER + "tiny", ["--threads", "x"], "'x'", True),
    "painter.tiny_revise-bad-value": (PAINTER + "tiny_revise", ["--steps", "x"], "'x'", True),
    "painter.tiny_qwen35-unknown-size": (PAINTER + "tiny_qwen35", ["--size", "nope"], "nope", True),
    "reference_pool-missing-folder": (POOL, ["build", "--folder", MISSING], MISSING, False),
    "bench-unknown-command": ("bench", ["nope"], "nope", True),
    "bench.gpu-bad-value": ("bench.gpu", ["--batch", "x"], "'x'", True),
    "bench.webgl-unknown-mode": ("bench.webgl", ["--modes", "nope"], "nope", True),
    "calibration-bad-value": (CALIBRATION, ["--per-kind", "x"], "'x'", True),
}


def command(module: str, arguments: list[str], tmp: Path) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if k != "MLFLOW_TRACKING_URI"}
    argv = [a.format(tmp=tmp) for a in arguments]
    if STORE in arguments:  # a store that is there, as a user's is (a new one logs its tables)
        mlflow.MlflowClient(STORE.format(tmp=tmp).split("=", 1)[1]).search_experiments()
    return subprocess.run([sys.executable, "-m", f"watercolor.{module}", *argv], cwd=REPO,
                          env=env, capture_output=True, text=True, timeout=300)  # fmt: skip


# The slowest cases (3-8 s each, a command that loads its stack before refusing): the slow tier,
# each command keeping a fast case (experiments/2026-12-07_test_tiers).
SLOW_CASES = {
    "calibration-unknown-split", "score-other-tasks-reward", "score-svg-under-painting",
    "compare-missing-sweep-dir", "compare-unknown-experiment", "compare-unknown-run",
    "evaluate-other-tasks-reward", "train-other-tasks-reward", "env.serve-other-tasks-reward",
    "painter.kinds-missing-model", "painter.kinds-unknown-reward", "painter.kinds-bad-override",
}  # fmt: skip


def cases():
    for name, case in CASES.items():
        yield pytest.param(*case, id=name, marks=[pytest.mark.slow] if name in SLOW_CASES else [])


@pytest.mark.parametrize(("module", "arguments", "named", "argparse_usage"), list(cases()))
def test_bad_input_is_a_usage_error_on_one_line(module, arguments, named, argparse_usage,
                                                tmp_path):  # fmt: skip
    done = command(module, arguments, tmp_path)
    lines = [line for line in done.stderr.splitlines() if line.strip()]
    assert done.returncode == 2 and "Traceback" not in done.stderr, done.stderr[-3000:]
    *before, error = lines
    assert "error:" in error and named in error, done.stderr
    if argparse_usage:  # argparse's usage message, then its one error line
        assert before and before[0].startswith("usage:"), done.stderr
    else:
        assert before == [] and error.startswith("error: "), done.stderr


# A sweep's jobs are checked, each as Hydra will compose it, before the first starts: a mistake
# in the second job is not found after the first has trained.
SWEEPS = {
    "train-second-job": ("train", ["-m", "trainer.max_steps=60,0"], check_training, "max_steps"),
    "train-study-experiment": (  # a sweep by its config: hydra.mode MULTIRUN, no --multirun
        "train", ["experiment=three_rewards_v2", "seed=0,-1"], check_training, "seed",
    ),
    "evaluate-second-job": (
        "evaluate", ["--multirun", "rewards=[coarse],[nope]"], check_evaluation, "['nope']",
    ),
}  # fmt: skip


@pytest.mark.parametrize(("config_name", "argv", "check", "named"), SWEEPS.values(), ids=SWEEPS)
def test_each_job_of_a_sweep_is_checked_before_the_first_starts(config_name, argv, check, named,
                                                                  capsys):  # fmt: skip
    with pytest.raises(SystemExit) as exited:
        usage.check_overrides(config_name, argv, check)
    error = capsys.readouterr().err
    assert exited.value.code == 2 and error.count("\n") == 1 and named in error, error


def test_a_sweep_whose_jobs_all_pass_goes_on_to_hydra():
    usage.check_overrides("train", ["-m", "reward=coarse,gated", "seed=0,1"], check_training)


def test_a_sweep_expands_as_hydra_s_basic_sweeper_documents():
    # every combination, a later value of a key replacing an earlier one, `~key` kept as written
    jobs = runs("train", ["reward=coarse,gated", "seed=range(0,2)", "seed=3,4",
                          "~tracking.cpu_split", "+tags.x=1"], multirun=True)  # fmt: skip
    assert jobs == [[f"reward={r}", f"seed={s}", "~tracking.cpu_split", "+tags.x=1"]
                    for r in ("coarse", "gated") for s in (3, 4)]  # fmt: skip
    with pytest.raises(ValueError, match="interval"):
        runs("train", ["seed=interval(0,1)"], multirun=True)
