"""The opening most pixel components share: `painted_view`, and `score_without_paint` when it
finds nothing to measure. One table, from a render that failed on our side to a painting."""

from dataclasses import replace

import pytest
import synthetic_canvases as paint

from watercolor.canvas import Canvas, Status
from watercolor.rewards.pixels import painted_view, score_without_paint

VIEW = "its view"
OPENINGS = [  # a canvas -> what the opening gives: no verdict, 0.0, or the view to measure
    (lambda: Canvas(Status.INFRA_ERROR, errors=["browser gone"]), None),
    (lambda: replace(paint.layered_watercolour(), status=Status.INFRA_ERROR), None),
    (lambda: Canvas(Status.ERROR, errors=["TypeError: x is not a function"]), 0.0),
    (lambda: Canvas(Status.OK), 0.0),  # no pixels
    (paint.blank, 0.0),
    (lambda: replace(paint.blank(), status=Status.VIOLATION), 0.0),
    (paint.layered_watercolour, VIEW),
    (lambda: replace(paint.layered_watercolour(), status=Status.VIOLATION), VIEW),  # gate's call
]
IDS = ["ours failed", "ours failed, pixels", "threw", "ok, no pixels", "blank", "refused blank",
       "painting", "refused, painted"]  # fmt: skip


@pytest.mark.parametrize(("make", "expected"), OPENINGS, ids=IDS)
def test_the_shared_opening(make, expected):
    canvas = make()
    v = painted_view(canvas)
    assert (VIEW if v is not None else score_without_paint(canvas)) == expected
    assert v is None or v.painted
