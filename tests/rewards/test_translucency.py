"""The translucency component on synthetic paintings: light layered washes against heavy fills.

The synthetic washes alpha-blend like the browser (tests/rewards/synthetic_canvases.py); the
real calibration on p5.brush's own renders is experiments/2026-12-04_translucency_calibration/.
"""

import numpy as np
import pytest
import synthetic_canvases as paint

from watercolor.canvas import Canvas, Status
from watercolor.rewards.pixels import view
from watercolor.rewards.translucency import absorbance, translucent_washes, wash_load

# Canvas -> the range `translucent_washes` must fall in.
CASES = {
    "light layered washes": (paint.layered_watercolour, 0.6, 1.0),
    "the same washes, heavy": (lambda: paint.layered_watercolour(opacity=2.5), 0.0, 0.05),
    "flat opaque blocks": (paint.flat_blocks, 0.0, 0.0),
    "overlapping opaque discs": (paint.flat_mosaic, 0.0, 0.0),
    "one opaque blob": (paint.huge_blob, 0.0, 0.0),
    "one wash flooding the sheet": (paint.edge_to_edge, 0.0, 0.1),
    "one light wash, nothing over it": (lambda: paint.layered_watercolour(layers=1), 0.0, 0.4),
    "a few light marks on a dark sheet": (lambda: paint.few_marks("#1e2436"), 0.0, 0.0),
    "a blank sheet": (paint.blank, 0.0, 0.0),
}


@pytest.mark.parametrize("name", CASES)
def test_translucent_washes_on_the_table(name):
    maker, low, high = CASES[name]
    assert low <= translucent_washes(maker()) <= high


def test_no_pixels_no_verdict_or_zero():
    assert translucent_washes(Canvas(status=Status.INFRA_ERROR)) is None
    assert translucent_washes(Canvas(status=Status.ERROR, errors=["threw"])) == 0.0


def test_heavier_washes_load_more_and_earn_less():
    canvases = [paint.layered_watercolour(opacity=k) for k in (0.5, 1.0, 1.5, 2.0, 2.5)]
    loads = [wash_load(view(c)) for c in canvases]
    values = [translucent_washes(c) for c in canvases]
    assert loads == sorted(loads) and loads[-1] > 3 * loads[0]
    assert values == sorted(values, reverse=True) and values[0] > values[-1] + 0.5


def test_grain_and_bleed_move_the_load_far_less_than_opacity():
    base = wash_load(view(paint.layered_watercolour()))
    textured = [paint.layered_watercolour(grain=0.7), paint.layered_watercolour(edge_blur=20.0)]
    heavier = wash_load(view(paint.layered_watercolour(opacity=2.0)))
    for canvas in textured:
        assert abs(wash_load(view(canvas)) - base) < 0.25 * (heavier - base)


def test_absorbance_is_zero_for_white_and_grows_as_reflectance_falls():
    reflectance = np.array([1.0, 0.5, 0.1, 0.0])
    k = absorbance(reflectance)
    assert k[0] == 0.0 and np.all(np.diff(k) > 0) and np.isfinite(k[-1])
