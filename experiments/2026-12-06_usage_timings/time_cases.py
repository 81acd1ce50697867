"""Wall seconds of every bad-input case of tests/test_cli_usage.py, run once each, in turn, as
the test runs them (`python -m watercolor.<module> ...`, MLFLOW_TRACKING_URI unset; a store the
case names is created before its clock starts). Prints the slowest first.

    .venv/bin/python experiments/2026-12-06_usage_timings/time_cases.py
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import mlflow

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO / "tests"))
import test_cli_usage as usage_cases  # noqa: E402

rows = []
for name, (module, arguments, _, _) in usage_cases.CASES.items():
    with tempfile.TemporaryDirectory() as folder:
        tmp = Path(folder)
        if usage_cases.STORE in arguments:
            mlflow.MlflowClient(
                usage_cases.STORE.format(tmp=tmp).split("=", 1)[1]
            ).search_experiments()
        env = {k: v for k, v in os.environ.items() if k != "MLFLOW_TRACKING_URI"}
        argv = [a.format(tmp=tmp) for a in arguments]
        start = time.perf_counter()
        done = subprocess.run([sys.executable, "-m", f"watercolor.{module}", *argv], cwd=REPO,
                              env=env, capture_output=True, text=True)  # fmt: skip
        rows.append((time.perf_counter() - start, name, done.returncode))
for seconds, name, code in sorted(rows, reverse=True):
    print(f"{seconds:6.2f}  exit {code}  {name}")
