"""`python -m watercolor.bench grpo_steps` runs both modes side by side and reports the split.

It measures; it asserts no speed (DESIGN: performance goals live in the bench, not in tests).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]

pytestmark = [pytest.mark.slow, pytest.mark.browser]


def test_bench_train_splits_sequential_and_overlapped_steps_and_runs_jobs_side_by_side(tmp_path):
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
