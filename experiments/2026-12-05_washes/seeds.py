"""The washes study's per-seed table (Results): each job's evaluation means, as its evaluation
summarised them (`records/<job>/evaluation/evaluation.json`, `metrics`; the code and canvas
measures over clean runs, `watercolor.analysis.behaviour.summarise_behaviour`).

    .venv/bin/python experiments/2026-12-05_washes/seeds.py

Reads only the committed records; prints a Markdown table.
"""

from __future__ import annotations

import json
from pathlib import Path

HERE = Path(__file__).parent
COLUMNS = {  # header -> (metric, format)
    "alpha": ("style/mean_alpha", "{:.1f}"),
    "`wash_load`": ("wash_load", "{:.3f}"),
    "`translucent_washes`": ("translucent_washes", "{:.3f}"),
    "flat blocks": ("flat_block_rate", "{:.3f}"),
    "clean runs": ("clean_run_rate", "{:.3f}"),
    "`fine_grained`": ("total/fine_grained", "{:.3f}"),
    "`washes`": ("total/washes", "{:.3f}"),
}


def main(records: Path = HERE / "records") -> None:
    print("| job | " + " | ".join(COLUMNS) + " |")
    print("|---|" + "---:|" * len(COLUMNS))
    jobs = sorted(p for p in records.iterdir() if (p / "evaluation" / "evaluation.json").is_file())
    for job in sorted(jobs, key=lambda p: p.name == "untrained"):  # the untrained model last
        metrics = json.loads((job / "evaluation" / "evaluation.json").read_text())["metrics"]
        cells = [fmt.format(metrics[name]) for name, fmt in COLUMNS.values()]
        print(f"| {job.name.replace('-seed', ' seed ')} | " + " | ".join(cells) + " |")


if __name__ == "__main__":
    main()
