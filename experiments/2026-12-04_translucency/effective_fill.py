"""What the translucency study's models' fills are, as their code sets them (a secondary measure
named before the first step in README.md): the three-reward study's definitions, imported from
its script so that both studies read code the same way (p5.brush 2.2.2's defaults, bleed 0.07
and texture 0.8, counted where a reply never calls the setter).

    .venv/bin/python experiments/2026-12-04_translucency/effective_fill.py

Reads only the committed evaluation records (records/<set>-seed<n>/evaluation/samples.parquet).
Per job, over its clean runs: mean bleed, texture, fill opacity (`style/mean_alpha`) and the
flat pair's share; per set the mean of its jobs; `translucent - fine_grained` with a seed-level
Welch t interval (95 %) and the exact permutation p (`watercolor.analysis.stats.permutation_p`).
"""

from __future__ import annotations

import sys
from pathlib import Path

import pandas as pd
from scipy import stats

from watercolor.analysis.stats import permutation_p

HERE = Path(__file__).parent
sys.path.insert(0, str(HERE.parent / "2026-12-01_three_rewards_v2"))
from effective_fill import job_means  # noqa: E402  (the three-reward study's definitions)

MEASURES = ["bleed", "texture", "fill_alpha", "flat_pair"]


def jobs(records: Path, measure=job_means) -> pd.DataFrame:
    rows = []
    for folder in sorted(p for p in records.iterdir() if (p / "evaluation").is_dir()):
        samples = pd.read_parquet(folder / "evaluation" / "samples.parquet")
        name, _, seed = folder.name.rpartition("-seed")
        rows.append({"set": name or folder.name, "seed": seed or "-"} | measure(samples))
    return pd.DataFrame(rows)


def main(
    records: Path = HERE / "records",
    ours: str = "translucent",
    theirs: str = "fine_grained",
    measure=job_means,
    measures=MEASURES,
) -> None:
    """Per set the mean of its jobs; `ours - theirs` per measure (the washes study calls it too,
    with its own arms, and with its post-hoc `measure`: samples -> {name: job mean})."""
    table = jobs(records, measure)
    print(table.groupby("set").mean(numeric_only=True).round(3).to_string())
    a_jobs, b_jobs = table[table["set"] == ours], table[table["set"] == theirs]
    for m in measures:
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
