"""Each committed study's behaviour curves come back from its records: `python -m
watercolor.analysis.behaviour_curves --records experiments/<study>/records --out ...` writes the
study's committed `behaviour_curves.csv` byte for byte, so a measure read another way (a default,
a pattern, which replies count) fails here. Step 0 is held to the untrained model's figures the
three-reward study published from the same records by another script (README, effective_fill.py).
Fast tier: reads text, renders nothing (~2-4 s a study).
"""

from __future__ import annotations

import math
from pathlib import Path

import pandas as pd
import pytest
from PIL import Image

from watercolor.analysis import behaviour_curves, records

EXPERIMENTS = Path(__file__).resolve().parents[2] / "experiments"
STUDIES = [
    "2026-12-01_three_rewards_v2",  # configs without task.style: today's painting style
    "2026-12-04_translucency",
    "2026-12-05_washes",  # its configs name task.style
    "2026-12-05_svg_task",  # the SVG task's own measures
]


# The two largest rebuild in the slow tier (12-14 s each here; experiments/2026-12-07_test_tiers).
SLOW_STUDIES = {"2026-12-01_three_rewards_v2", "2026-12-04_translucency"}


@pytest.mark.parametrize(
    "study",
    [pytest.param(s, marks=[pytest.mark.slow] if s in SLOW_STUDIES else []) for s in STUDIES],
)
def test_a_studys_committed_curves_rebuild_from_its_records(study, tmp_path):
    folder = EXPERIMENTS / study
    figure, table = behaviour_curves.main(
        ["--records", str(folder / "records"), "--out", str(tmp_path / "curves.png")]
    )
    with Image.open(figure) as image:
        assert image.mode == "P"  # a chart as a 256-colour palette, small enough to commit
    assert table.read_bytes() == (folder / "behaviour_curves.csv").read_bytes(), study


def test_step_zero_is_the_untrained_model_as_the_three_reward_study_published_it():
    found = records.read(EXPERIMENTS / "2026-12-01_three_rewards_v2" / "records")
    style = behaviour_curves.task_style(found.configs[found.runs[0]["run_id"]])
    untrained = behaviour_curves.untrained_means(found, style)
    # README "Correction, 2026-12-04": bleed 0.110, texture 0.207 (p5.brush's defaults counted),
    # fill opacity 224.9; clean runs 0.667 (32 of 48)
    assert round(untrained["style/bleed"], 3) == 0.110
    assert round(untrained["style/texture"], 3) == 0.207
    assert round(untrained["style/mean_alpha"], 1) == 224.9
    assert untrained["clean_run"] == pytest.approx(32 / 48)


def test_style_is_read_on_clean_runs_only_and_infrastructure_failures_say_nothing():
    replies = pd.DataFrame({"status": ["ok", "error", "violation", "infra_error"],
                            "reply": ["a", "bb", "ccc", "dddd"]})  # fmt: skip
    found = behaviour_curves.reply_measures(replies, lambda r: {"style/chars": float(len(r))})
    assert found["style/chars"].iloc[0] == 1.0
    assert found["style/chars"].iloc[1:].isna().all()
    assert found["clean_run"].iloc[:3].tolist() == [1.0, 0.0, 0.0]
    assert math.isnan(found["clean_run"].iloc[3])


def test_a_step_is_the_mean_over_its_replies():
    rollouts = pd.DataFrame({"step": [10, 10, 20], "status": ["ok", "error", "ok"],
                             "reply": ["a", "b", "ccc"]})  # fmt: skip
    means = behaviour_curves.step_means(rollouts, lambda r: {"style/chars": float(len(r))})
    assert means.loc[10].tolist() == [0.5, 1.0] and means.loc[20].tolist() == [1.0, 3.0]
