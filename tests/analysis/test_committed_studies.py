"""Each committed study's tables come back from its committed records: `python -m
watercolor.compare --records experiments/<study>/records` (galleries left out) writes every CSV
the study committed under `compare/`, byte for byte. So a change to the analysis that would
change a published figure fails here, and a study's write-up can be rebuilt from a fresh clone.
Fast tier: the two small studies take a few seconds (no training, no rendering); the four largest
rebuild in the slow tier. The SVG product study's own scripts (analyse.py, within_group.py) and
the long study's pre-registered analysis (analyse.py) rebuild their other committed CSVs too.

Not the three-reward study (`2026-12-01_three_rewards_v2`): its `compare/` predates the `arm`
and `weights` columns of runs.csv, provenance.csv and aggregate.csv (its curves.csv, which compare
rebuilds exactly but for `reward_set` now named `arm`, was dropped on 2026-12-05: nothing read
it; its matrix_ci.csv, behaviour_ci.csv and verdict.csv still rebuild byte for byte, and
`tests/test_same_computation.py` rebuilds its tables against the code before the task seam).
The revision study's `compare/` predates behaviour_seeds.csv; the CSVs it holds are compared.
"""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

from watercolor.analysis import comparison

EXPERIMENTS = Path(__file__).resolve().parents[2] / "experiments"
STUDIES = [
    "2026-12-02_revise_study",
    "2026-12-04_translucency",
    "2026-12-05_svg_product",
    "2026-12-05_svg_task",
    "2026-12-05_washes",
    "2026-12-07_long_run",
]


# The largest rebuild in the slow tier (10-52 s each here; experiments/2026-12-07_test_tiers).
SLOW_STUDIES = {
    "2026-12-04_translucency",
    "2026-12-05_svg_product",
    "2026-12-05_washes",
    "2026-12-07_long_run",  # 9 jobs of 150 steps with the yardsticks: ~30 s here
}


@pytest.mark.parametrize(
    "study",
    [pytest.param(s, marks=[pytest.mark.slow] if s in SLOW_STUDIES else []) for s in STUDIES],
)
def test_a_studys_committed_tables_rebuild_from_its_records(study, tmp_path):
    folder = EXPERIMENTS / study
    committed = sorted((folder / "compare").glob("*.csv"))
    assert len(committed) >= 8, committed
    comparison.main(["--records", str(folder / "records"), "--out", str(tmp_path),
                  "--no-gallery", "--no-log"])  # fmt: skip
    for table in committed:
        rebuilt = tmp_path / table.name
        assert rebuilt.is_file(), table.name
        assert rebuilt.read_bytes() == table.read_bytes(), f"{study}: {table.name}"


def script(study: str, name: str):
    """A study's own analysis script as a module (its __main__ block is not run)."""
    spec = importlib.util.spec_from_file_location(
        f"{name}_{study[:10]}", EXPERIMENTS / study / name
    )
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_svg_product_studys_own_analyses_rebuild_their_committed_csvs():
    # Its pre-registered analysis and the follow-up's, as the scripts' __main__ blocks write them.
    folder = EXPERIMENTS / "2026-12-05_svg_product"
    analyse, follow_up = script(folder.name, "analyse.py"), script(folder.name, "within_group.py")
    records = folder / "records"
    rebuilt = {
        "analysis.csv": analyse.analyse(analyse.replies(records)),
        "curves_first_last.csv": analyse.training_curves(records),
        "within_group.csv": follow_up.analyse(follow_up.groups(follow_up.rollouts(records))),
    }
    for name, table in rebuilt.items():
        assert table.round(4).to_csv(index=False) == (folder / name).read_text(), name


@pytest.mark.slow
def test_the_long_studys_pre_registered_analysis_rebuilds_its_committed_csvs(tmp_path):
    # analyse.py on the committed records (~40 s): every table of analysis/, byte for byte (its
    # bootstraps draw from one seeded generator, so the figures the write-up quotes come back).
    folder = EXPERIMENTS / "2026-12-07_long_run"
    script(folder.name, "analyse.py").main(["--out", str(tmp_path)])
    tables = folder / "analysis"
    committed = sorted(tables.glob("[a-d]_*.csv")) + [tables / "verdicts.csv"]
    assert len(committed) == 7, committed
    for table in committed:
        assert (tmp_path / table.name).read_bytes() == table.read_bytes(), table.name
