"""How much of the sheet is painted: `coverage` (optionally within a band) and `not_blank`.

    >>> from watercolor.rewards.coverage import coverage, not_blank
    >>> coverage(canvas), coverage(canvas, low=0.05, high=0.6), not_blank(canvas)
    (0.214, 1.0, 1.0)

Paint is any pixel visibly different from the estimated paper (`watercolor.rewards.pixels`),
so faint translucent washes count and a uniform coloured ground does not. Blank is the painting
task's own verdict (`View.painted`, the same test as its `blank_canvas` check): a blank canvas
has no coverage.
"""

from __future__ import annotations

from watercolor.canvas import Canvas
from watercolor.rewards.pixels import painted_view, ramp, score_without_paint


def coverage(canvas: Canvas, low: float | None = None, high: float | None = None) -> float | None:
    """[0, 1]: painted fraction; with a band, 1 inside [low, high], linear to 0 at 0 and at 1."""
    v = painted_view(canvas)
    if v is None:
        return score_without_paint(canvas)
    if low is None and high is None:
        return v.coverage
    under = ramp(v.coverage, 0.0, low) if low else 1.0
    over = 1 - ramp(v.coverage, high, 1.0) if high is not None and high < 1 else 1.0
    return min(under, over)


def not_blank(canvas: Canvas) -> float | None:
    """{0, 1}: 1 unless the canvas is blank (under `pixels.BLANK_COVERAGE` of the sheet painted)."""
    if painted_view(canvas) is None:
        return score_without_paint(canvas)
    return 1.0
