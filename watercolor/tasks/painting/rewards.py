"""Painting's own reward component: is the sketch drawn with p5.brush, or with bare p5?

    >>> from watercolor.tasks.painting.rewards import uses_brush_library
    >>> uses_brush_library(Canvas(Status.OK, sketch="brush.circle(0, 0, 9); ellipse(0, 0, 9, 9);"))
    0.5

An anti-cheat term of painting's reward sets (conf/reward/fine_grained.yaml and the sets built on
it): a sketch that draws with p5's own primitives instead of the brush library paints hard-edged
shapes, whatever the pixel components make of them. Read from the sketch, so it needs no pixels;
where there are pixels it is scaled by `View.extent`, like the other anti-cheat terms
(`watercolor.rewards.cheats`).
"""

from __future__ import annotations

import re

from watercolor.canvas import Canvas
from watercolor.rewards.pixels import view

_BRUSH_CALL = re.compile(r"\bbrush\s*\.\s*(\w+)\s*\(")
_BRUSH_DRAWS = frozenset(
    ["circle", "rect", "line", "arc", "polygon", "spline", "flowLine", "vertex", "move"]
)  # the calls that put marks down (beginShape/endShape only frame `vertex`)
# A bare p5 primitive is a call not preceded by `.` (so `brush.circle(` does not count).
_BARE_PRIMITIVE = re.compile(
    r"(?<![\w.$])(rect|ellipse|circle|line|triangle|quad|arc|point|square|bezier|curve"
    r"|vertex|plane|box|sphere|image|text)\s*\("
)


def uses_brush_library(canvas: Canvas) -> float | None:
    """[0, 1]: share of the sketch's drawing calls made through `brush.` (0 = bare p5 only)."""
    if canvas.infra_failure:
        return None
    brush = sum(m.group(1) in _BRUSH_DRAWS for m in _BRUSH_CALL.finditer(canvas.sketch))
    bare = len(_BARE_PRIMITIVE.findall(canvas.sketch))
    share = brush / (brush + bare) if brush + bare else 0.0
    # Read from the sketch, so it needs no pixels; but where there are pixels, brush calls
    # that left the sheet (almost) empty are paid like the other anti-cheat terms.
    v = view(canvas)
    return share if v is None else v.extent * share
