"""The environment's default score: gate x paint coverage (a stand-in for a reward set).

    >>> from watercolor.canvas import Canvas, Status
    >>> gated_coverage(Canvas(status=Status.VIOLATION, violations=["no_sketch"]))
    0.0
    >>> gated_coverage(Canvas(status=Status.INFRA_ERROR)) is None
    True

`PaintEnvironment` takes any `score(canvas, prompt) -> float | None` (sync or async);
`gated_coverage` is what it uses until the reward-set issue replaces it with the configured
reward set (watercolor/rewards/), which scores the same `Canvas`. Coverage is the task's
own measure (`painted_fraction`, the one its blank-canvas check uses).
"""

from __future__ import annotations

from watercolor.canvas import Canvas
from watercolor.tasks.painting.gate import painted_fraction


def gated_coverage(canvas: Canvas, prompt: str = "") -> float | None:
    """In [0, 1]: paint coverage if the render is clean, else 0; None for infrastructure failures.

    The placeholder score; the reward-set issue replaces it with the configured reward set.
    `prompt` is unused here but part of the scorer contract (judges compare against it).
    """
    if canvas.infra_failure:
        return None
    if not canvas.ok or canvas.violations or canvas.rgba is None:
        return 0.0
    return painted_fraction(canvas.rgba)
