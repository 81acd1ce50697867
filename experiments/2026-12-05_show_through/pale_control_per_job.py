"""Prediction 4's per-job values, which `pale_control.py` computes but prints only as arm means:
the same computation (its `pale_gap`, unchanged), one row per job, written as a CSV.

    nice -n 15 .venv/bin/python experiments/2026-12-05_show_through/pale_control_per_job.py
    # -> pale_control_per_job.csv beside this file; as pale_control.py: 26 min here, ~1 h of CPU

It re-renders every clean held-out reply and its pale twin over both papers (the records keep no
canvases), which is why it was written on 2026-12-07 but not yet run: see README.md's corrections.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

HERE = Path(__file__).parent


def _script(name: str, path: Path):
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def main(records: Path = HERE / "records", out: Path = HERE / "pale_control_per_job.csv") -> None:
    control = _script("show_through_pale_control", HERE / "pale_control.py")
    table = control.translucency.jobs(records, measure=control.pale_gap)
    table.round(4).to_csv(out, index=False)
    print(table.round(3).to_string(index=False))


if __name__ == "__main__":
    main(*(Path(a) for a in sys.argv[1:3]))
