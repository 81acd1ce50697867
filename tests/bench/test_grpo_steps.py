"""`bench grpo_steps`: its modes without training (which runs each mode starts, and the ratios it
prints from their figures), then `python -m watercolor.bench grpo_steps` running both modes side by
side for real and reporting the split (slow tier).

It measures; it asserts no speed (DESIGN: performance goals live in the bench, not in tests).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from watercolor.bench import cli, grpo_steps

REPO = Path(__file__).resolve().parents[2]


def test_threads_mode_runs_the_sequential_steps_on_n_threads_and_prints_ratios(monkeypatch):
    started = []

    def split(args, overlap, jobs=1, overrides=()):
        started.append((overlap, jobs, list(overrides)))
        threads = 2 if "threads=2" in overrides else 1
        return {"step_s": 10.0 / threads, "cpu_total_s": 30.0 * threads,
                "cpu_generation_s": 4.0 * threads, "cpu_update_s": 1.0}  # fmt: skip

    monkeypatch.setattr(grpo_steps, "train_split", split)
    figures = grpo_steps.bench_train(cli.parse_args(["grpo_steps", "--smoke", "--threads", "2"]))
    assert started == [(False, 1, []), (True, 1, []), (False, 1, ["threads=2"])]
    assert figures["threads2_step_s_ratio"] == 0.5
    assert figures["threads2_cpu_total_s_ratio"] == 2.0
    assert figures["threads2_cpu_update_s_ratio"] == 1.0
    assert "threads2_step_s_ratio" not in grpo_steps.bench_train(cli.parse_args(["grpo_steps"]))


def test_a_modes_overrides_come_after_the_users(tmp_path):
    args = cli.parse_args(["grpo_steps", "--set", "threads=1", "--set", "trainer.max_steps=9"])
    command = grpo_steps.train_command(args, False, str(tmp_path), 1, ["threads=2"])
    assert command[-1] == "threads=2" and "trainer.max_steps=9" in command
    assert command.index("trainer.max_steps=9") > command.index("trainer.max_steps=6")


def test_a_subcommand_is_its_modules_name_and_an_old_name_still_answers(capsys):
    assert set(cli.BENCHMARKS) <= {path.stem for path in Path(cli.__file__).parent.glob("*.py")}
    old, new = (cli.parse_args([name, "--steps", "3"]) for name in ("train", "grpo_steps"))
    assert old == new
    assert "bench train is now bench grpo_steps" in capsys.readouterr().err


@pytest.mark.slow
@pytest.mark.browser
def test_grpo_steps_splits_sequential_and_overlapped_steps_and_runs_jobs_side_by_side(tmp_path):
    command = [
        sys.executable, "-m", "watercolor.bench", "grpo_steps", "--smoke", "--steps", "2",
        "--jobs", "2", "--json",
    ]  # fmt: skip
    # A user's store (or MLflow's export of one, left by an earlier in-process run) must not
    # take the benchmark's runs away from the scratch stores the bench reads them from.
    env = os.environ | {"MLFLOW_TRACKING_URI": f"sqlite:///{tmp_path}/elsewhere.db"}
    done = subprocess.run(command, cwd=REPO, env=env, capture_output=True, text=True, timeout=900)
    assert done.returncode == 0, done.stderr[-3000:]
    figures = json.loads(done.stdout.strip().splitlines()[-1])
    for mode, jobs in (("sequential", 1), ("overlapped", 1), ("jobs2", 2)):
        split = {k.removeprefix(f"{mode}_"): v for k, v in figures.items() if k.startswith(mode)}
        assert split["step_s"] > 0 and split["generation_s"] > 0
        assert split["steps_per_hour"] == pytest.approx(jobs * 3600 / split["step_s"], rel=0.01)
        shares = ("generation_share", "render_score_fraction", "optimisation_share")
        assert sum(split[name] for name in shares) == pytest.approx(1.0, abs=0.01)
        assert 0 <= split["reward_wait_s"] < split["step_s"]
        assert split["render_score_fraction"] == pytest.approx(
            split["reward_wait_s"] / split["step_s"], abs=0.01
        )
        assert 0 <= split["prefetched"] <= 1
        # CPU-seconds a step over the job's processes, and its parts
        # (watercolor/training/step_cpu.py)
        parts = ("generation_s", "update_s", "after_update_s", "logging_s", "render_s",
                 "scoring_s", "other_s")  # fmt: skip
        assert split["cpu_total_s"] > split["cpu_generation_s"] > 0
        assert sum(split[f"cpu_{p}"] for p in parts) == pytest.approx(split["cpu_total_s"], abs=0.2)
    assert figures["sequential_prefetched"] == 0  # nothing is painted ahead in that mode
    assert figures["jobs2_throughput_ratio"] == pytest.approx(
        figures["jobs2_steps_per_hour"] / figures["overlapped_steps_per_hour"], abs=0.01
    )
    assert figures["overlap_speedup"] == pytest.approx(
        figures["sequential_step_s"] / figures["overlapped_step_s"], abs=0.01
    )
