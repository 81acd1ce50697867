"""What the washes study's models' fills are, as their code sets them (secondary measures and
prediction 4, named before the first step in README.md): the three-reward study's definitions,
read as the translucency study read them (p5.brush 2.2.2's defaults, bleed 0.07 and texture 0.8,
counted where a reply never calls the setter).

    .venv/bin/python experiments/2026-12-05_washes/fills.py

Reads only the committed evaluation records (records/<set>-seed<n>/evaluation/samples.parquet).
Per job, over its clean runs: mean bleed, texture, fill opacity and the flat pair's share; per
set the mean of its jobs; `washes - fine_grained` with a seed-level Welch t interval (95 %) and
the exact permutation p (`watercolor.analysis.stats.permutation_p`).
"""

from __future__ import annotations

import importlib.util
from pathlib import Path

from scipy import stats

from watercolor.analysis.stats import permutation_p

HERE = Path(__file__).parent
# The translucency study's reading (its script imports the three-reward study's definitions).
_spec = importlib.util.spec_from_file_location(
    "translucency_fills", HERE.parent / "2026-12-04_translucency" / "effective_fill.py"
)
translucency = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(translucency)
MEASURES, jobs = translucency.MEASURES, translucency.jobs


def main(records: Path = HERE / "records", ours: str = "washes", theirs: str = "fine_grained"):
    table = jobs(records)
    print(table.groupby("set").mean(numeric_only=True).round(3).to_string())
    a_jobs, b_jobs = table[table["set"] == ours], table[table["set"] == theirs]
    for m in MEASURES:
        a, b = a_jobs[m].to_numpy(), b_jobs[m].to_numpy()
        if len(a) < 2 or len(b) < 2:
            print(f"{ours} - {theirs} {m:>10}: too few jobs ({len(a)} vs {len(b)})")
            continue
        ci = stats.ttest_ind(a, b, equal_var=False).confidence_interval(0.95)
        difference, p = permutation_p(a, b)
        print(f"{ours} - {theirs} {m:>10}: {difference:+.3f} "
              f"[{ci.low:+.3f}, {ci.high:+.3f}] (Welch), permutation p {p:.3f}")  # fmt: skip


if __name__ == "__main__":
    main()
