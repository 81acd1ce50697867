"""Did the sketch run, pass the gate, and say enough: `clean_run`, `gate_pass`, `length_ramp`.

    >>> from watercolor.rewards.execution import clean_run, length_ramp
    >>> clean_run(canvas), length_ramp(canvas, short=300, long=1500)
    (1.0, 0.42)

They read the Canvas record only (status, errors, violations, sketch), never its pixels.
`gate_pass` is the anchor's `gate` term; `length_ramp` its small push away from trivially
short sketches.
"""

from __future__ import annotations

from watercolor.canvas import Canvas, Status
from watercolor.rewards.pixels import ramp


def clean_run(canvas: Canvas) -> float | None:
    """{0, 1}: 1 when the sketch rendered (status ok) without any error message."""
    if canvas.infra_failure:
        return None
    return float(canvas.status == Status.OK and not canvas.errors)


def gate_pass(canvas: Canvas) -> float | None:
    """{0, 1}: 1 when the static gate and the blank check found no violation and it rendered."""
    if canvas.infra_failure:
        return None
    return float(canvas.status == Status.OK and not canvas.violations)


def length_ramp(canvas: Canvas, short: int = 300, long: int = 1500) -> float | None:
    """[0, 1]: 0 up to `short` sketch characters, rising to 1 at `long`; 0 if cut off."""
    if canvas.infra_failure:
        return None
    if "truncated" in canvas.violations:  # else a policy learns to ramble until cut off
        return 0.0
    return ramp(len(canvas.sketch), short, long)
