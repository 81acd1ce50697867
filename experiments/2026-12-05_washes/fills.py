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

HERE = Path(__file__).parent
# The translucency study's reading (its script imports the three-reward study's definitions).
_spec = importlib.util.spec_from_file_location(
    "translucency_fills", HERE.parent / "2026-12-04_translucency" / "effective_fill.py"
)
translucency = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(translucency)


def main(records: Path = HERE / "records") -> None:
    translucency.main(records, ours="washes", theirs="fine_grained")


if __name__ == "__main__":
    main()
