"""`watercolor.analysis.behaviour`: per-sample behaviour measures, their summary, the flat-block
detector."""

from __future__ import annotations

import math
import re
from dataclasses import replace

import numpy as np
import pandas as pd
import pytest
import synthetic_canvases as paint

from watercolor.analysis.behaviour import (
    BEHAVIOURS,
    FLAT_BLOCK_UNEVENNESS,
    balanced_accuracy,
    behaviour_row,
    behaviours,
    best_threshold,
    roc_auc,
    summarise_behaviour,
)
from watercolor.analysis.matrix import MATRIX_METRICS
from watercolor.canvas import Canvas, Status
from watercolor.tasks.painting.calibration import main, training_render_config, unevenness_by_kind
from watercolor.tasks.painting.style import fill_alphas, style_measures

WASHES = """```js
function setup() {
  createCanvas(600, 600, WEBGL);
  brush.fill(232, 102, 90, 80);
  brush.circle(0, 0, 120);
  brush.fill('#6a9a5b', 120);
  brush.beginShape(); brush.vertex(0, 0); brush.vertex(50, 0); brush.vertex(0, 50);
  brush.endShape(CLOSE);
  brush.fill(74, 120, 176, 255);
  brush.circle(40, 40, 60);
}
```"""


def painting_row(canvas: Canvas, reply: str) -> dict[str, float]:
    """A painting evaluation's row: the framework's measures and painting's `Task.style`."""
    return behaviour_row(canvas, reply, style_measures)


def test_style_measures_read_fill_opacity_and_washes_from_the_code():
    assert fill_alphas(WASHES) == [80.0, 120.0, 255.0]
    style = style_measures(WASHES)
    assert style["style/mean_alpha"] == pytest.approx(455 / 3)
    assert style["style/opaque_share"] == pytest.approx(1 / 3)
    assert style["style/flat_style"] == 0.0  # mean opacity 152 < 200
    assert style["style/washes"] == 3.0
    flat = style_measures("brush.fill(1, 2, 3, 255); brush.circle(0, 0, 9);")
    assert flat["style/flat_style"] == 1.0 and flat["style/opaque_share"] == 1.0


def test_fills_without_a_readable_opacity_leave_the_style_unknown():
    assert fill_alphas("brush.fill('#ff0000'); brush.fill(r, g, b, alpha);") == []
    style = style_measures("brush.fill('#ff0000'); brush.circle(0, 0, 9);")
    assert math.isnan(style["style/mean_alpha"]) and math.isnan(style["style/flat_style"])
    assert style["style/washes"] == 1.0


@pytest.mark.parametrize(("code", "bleed", "texture"), [
    ("brush.fill(1, 2, 3, 90); brush.circle(0, 0, 9);", 0.07, 0.8),  # never set: the defaults
    ("brush.fillBleed(0); brush.fillTexture(0, 0);", 0.0, 0.0),  # the flat kind's pair
    ("brush.fillBleed(0.2, 'out'); brush.fillBleed( 0.4 ); brush.fillTexture(0.5, 0.9);", 0.3, 0.5),
    ("brush.fillBleed(b); brush.fillTexture(t, 0.5);", 0.07, 0.8),  # variables only: unreadable
    ("brush.fillBleed(3); brush.fillBleed(-1); brush.fillTexture(25, 1);", 0.5, 1.0),  # clamped
])  # fmt: skip
def test_effective_bleed_and_texture_fall_back_on_the_librarys_defaults(code, bleed, texture):
    style = style_measures(code)
    assert style["style/bleed"] == pytest.approx(bleed)
    assert style["style/texture"] == pytest.approx(texture)


@pytest.mark.parametrize(("code", "luminance"), [
    ("brush.fill(255, 255, 255, 80); brush.fill('#000000');", 0.5),  # white and black
    ("brush.fill(\"#808080\", 200);", 0.2158605),  # mid grey is darker than half
    ("brush.fill(r, g, b, 120); brush.fill('red');", math.nan),  # nothing readable
    ("brush.fill(2550, 900, 300); brush.fill(-40, -1, 0);", 0.5),  # clamped, as p5 paints them
])  # fmt: skip
def test_fill_luminance_reads_number_and_hex_colours(code, luminance):
    assert style_measures(code)["style/fill_luminance"] == pytest.approx(luminance, nan_ok=True)


def test_a_painted_layered_wash_is_executed_clean_layered_and_not_flat():
    row = painting_row(paint.layered_watercolour(), WASHES)
    assert row["executed"] == 1.0 and row["clean_run"] == 1.0
    assert row["flat_block"] == 0.0 and row["layering"] > 0.3
    assert row["style/washes"] == 3.0


def test_wash_load_is_measured_on_painted_canvases_and_nan_elsewhere():
    light = painting_row(paint.layered_watercolour(), WASHES)
    heavy = painting_row(paint.layered_watercolour(opacity=2.5), WASHES)
    assert 0 < light["wash_load"] < heavy["wash_load"] < math.inf  # heavier washes load more
    assert light["translucent_washes"] > heavy["translucent_washes"] == 0.0
    assert math.isnan(painting_row(paint.blank(), WASHES)["wash_load"])  # ran, left no paint
    assert math.isnan(painting_row(Canvas(Status.ERROR, errors=["boom"]), WASHES)["wash_load"])


def test_paint_opacity_is_read_only_where_a_twin_was_painted():
    layered = paint.layered_watercolour()
    assert math.isnan(behaviour_row(layered, WASHES)["paint_opacity"])  # one render: no matte
    twinned = replace(layered, papers=[(244, 236, 216, 255)], twin=layered, twin_paper="#f4ecd8")
    assert behaviour_row(twinned, WASHES)["paint_opacity"] == 1.0  # one paper twice: no matte
    dark = replace(
        layered,
        papers=[(244, 236, 216, 255)],
        twin=paint.to_canvas(paint.paper(colour="#1e3a5f")),
        twin_paper="#1e3a5f",
    )
    assert 0.0 <= behaviour_row(dark, WASHES)["paint_opacity"] <= 1.0


def test_flat_opaque_blocks_are_flat():
    assert painting_row(paint.flat_blocks(), WASHES)["flat_block"] == 1.0
    assert painting_row(paint.flat_mosaic(), WASHES)["flat_block"] == 1.0


@pytest.mark.parametrize(
    "canvas",
    [
        Canvas(Status.ERROR, errors=["ReferenceError: wobble is not defined"]),
        Canvas(Status.VIOLATION, violations=["no_setup"], errors=["no setup()"]),
        Canvas(Status.TIMEOUT, errors=["time limit"]),
    ],
    ids=["error", "violation", "timeout"],
)
def test_a_reply_that_did_not_paint_has_no_painted_measures(canvas):
    row = painting_row(canvas, WASHES)
    assert row["executed"] == 0.0 and row["clean_run"] == 0.0
    painted_only = [k for k in row if k not in ("executed", "clean_run")]
    assert painted_only and all(math.isnan(row[k]) for k in painted_only)


def test_a_sketch_that_threw_after_painting_executed_but_not_cleanly():
    # The renderer keeps what it painted; the painted-only measures read clean runs alone.
    threw = Canvas(Status.ERROR, png=paint.layered_watercolour().png, errors=["threw after"])
    row = painting_row(threw, WASHES)
    assert row["executed"] == 1.0 and row["clean_run"] == 0.0
    painted_only = [k for k in row if k not in ("executed", "clean_run")]
    assert all(math.isnan(row[k]) for k in painted_only)
    blank = Canvas(Status.ERROR, png=paint.blank().png, errors=["threw before painting"])
    assert painting_row(blank, WASHES)["executed"] == 0.0


def test_a_run_that_painted_but_reported_errors_is_executed_not_clean():
    ok = paint.layered_watercolour()
    noisy = Canvas(Status.OK, png=ok.png, errors=["TypeError: x is undefined"])
    row = painting_row(noisy, WASHES)
    assert row["executed"] == 1.0 and row["clean_run"] == 0.0


def test_an_infrastructure_failure_says_nothing_about_the_reply():
    row = painting_row(Canvas(Status.INFRA_ERROR, errors=["browser gone"]), WASHES)
    assert all(math.isnan(value) for value in row.values())


def test_each_summary_metric_is_the_nanmean_of_its_column():
    table = pd.DataFrame([
        painting_row(paint.layered_watercolour(), WASHES),
        painting_row(paint.flat_blocks(), "brush.fill(1, 2, 3, 255); brush.circle(0, 0, 9);"),
        painting_row(Canvas(Status.ERROR, errors=["boom"]), WASHES),
        painting_row(Canvas(Status.INFRA_ERROR), WASHES),
    ])  # fmt: skip
    table["truncated"] = [False, False, True, False]
    summary = summarise_behaviour(table)
    assert summary["execution_rate"] == pytest.approx(2 / 3)  # the infra failure is left out
    assert summary["clean_run_rate"] == pytest.approx(2 / 3)
    assert summary["flat_block_rate"] == pytest.approx(1 / 2)  # over the painted canvases
    assert summary["truncated_rate"] == pytest.approx(1 / 4)
    assert summary["style/flat_style"] == pytest.approx(1 / 2)
    assert "diversity" not in summary  # no such column: no metric
    for name, column in BEHAVIOURS.items():
        if column in table:
            values = table[column].astype(float)
            expected = np.nanmean(values) if values.notna().any() else np.nan
            assert summary[name] == pytest.approx(expected, nan_ok=True)


def test_a_tasks_own_style_measures_join_the_row_and_the_summary():
    # No style function: no style columns. Another task's: its columns, NaN unless it ran clean.
    assert not any(k.startswith("style/") for k in behaviour_row(paint.flat_blocks(), WASHES))

    def shapes(reply: str) -> dict[str, float]:
        return {"style/shapes": float(reply.count("<circle"))}

    rows = [behaviour_row(paint.flat_blocks(), "<circle/><circle/>", shapes),
            behaviour_row(Canvas(Status.ERROR, errors=["x"]), "<circle/>", shapes)]  # fmt: skip
    assert rows[0]["style/shapes"] == 2.0 and math.isnan(rows[1]["style/shapes"])
    table = pd.DataFrame(rows)
    assert behaviours(table.columns) == {**BEHAVIOURS, "style/shapes": "style/shapes"}
    assert summarise_behaviour(table)["style/shapes"] == 2.0
    assert behaviours(BEHAVIOURS.values()) == BEHAVIOURS  # painting's: nothing added


def test_compare_tabulates_every_behaviour():
    for name in BEHAVIOURS:
        assert any(re.fullmatch(pattern, name) for pattern in MATRIX_METRICS), name


def test_roc_auc_and_the_best_threshold():
    assert roc_auc([3, 4], [1, 2]) == 1.0 and roc_auc([1, 2], [3, 4]) == 0.0
    assert roc_auc([1, 1], [1, 1]) == 0.5 and roc_auc([1, 3], [2]) == 0.5
    threshold, accuracy = best_threshold([0.6, 0.8, 0.9], [0.1, 0.2, 0.7])
    assert accuracy == pytest.approx(5 / 6) and 0.2 < threshold <= 0.6
    assert balanced_accuracy(np.array([0.6, 0.8]), np.array([0.1]), 0.5) == 1.0


@pytest.mark.slow  # forty fresh replies painted at the training density (~1 min)
@pytest.mark.browser
def test_flat_block_cut_separates_fresh_corpus_flat_fills_from_layered_washes():
    """Replies the calibration never saw (held-out prompts, another corpus seed), rendered as in
    training (conf/renderer/local.yaml)."""
    render = training_render_config()
    assert render.pixel_density == 0.5  # what the calibration used
    # A longer time limit than training's: on a busy machine 10 s cuts off the slower washes.
    render = replace(render, time_limit_s=30.0)
    found = unevenness_by_kind(20, seed=1, render=render, split="heldout")
    flat, layered = np.array(found["flat"]), np.array(found["layered"])
    assert len(flat) >= 15 and len(layered) >= 15  # most corpus replies paint
    assert roc_auc(layered, flat) >= 0.9
    assert balanced_accuracy(layered, flat, FLAT_BLOCK_UNEVENNESS) >= 0.8


@pytest.mark.slow  # a calibration command run whole (command 2's budget, issue 45)
@pytest.mark.browser  # four corpus replies painted, two browsers started (~15 s)
def test_the_calibration_command_measures_both_kinds_and_reports_the_cut(capsys):
    """`python -m watercolor.tasks.painting.calibration` at its smallest: the loop above, then
    the report."""
    main(["--per-kind", "2", "--seed", "0"])
    said = capsys.readouterr().out
    assert "flat: 2 measured of 2, status {'ok': 2}" in said
    assert "layered: 2 measured of 2, status {'ok': 2}" in said
    assert "pixel density 0.5, time limit 30.0 s" in said
    assert "ROC AUC 1.000" in said  # corpus flat fills read evener than its washes
    assert f"shipped {FLAT_BLOCK_UNEVENNESS} (balanced accuracy 1.000)" in said
