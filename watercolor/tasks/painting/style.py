"""Painting's code-read style measures: what the sketch's own `brush.fill` calls say of its washes.

    >>> from watercolor.tasks.painting.style import style_measures
    >>> style_measures("brush.fill('#ff0000', 120); brush.circle(0, 0, 9);")["style/mean_alpha"]
    120.0

`Task.style` (conf/task/painting.yaml): `watercolor.analysis.behaviour.behaviour_row` adds these
columns to each clean run's row of an evaluation. A flat fill is opacity 255, a wash well under it
(the corpus's layered kind uses 60-150); a fill without an alpha (or with a variable for one) says
nothing. `style/washes` counts the shapes the sketch fills.
"""

from __future__ import annotations

import contextlib
import re
import statistics

NAN = float("nan")

FILL = re.compile(r"brush\.fill\(([^)]*)\)")
WASH = re.compile(r"brush\.(endShape|circle)\(")
OPAQUE_ALPHA = 250  # a fill at this opacity or more is opaque (flat fills use 255)
FLAT_STYLE_ALPHA = 200  # a reply whose mean fill opacity is this or more is written flat


def fill_alphas(reply: str) -> list[float]:
    """Opacity (0-255) of each `brush.fill(r, g, b, a)` or `brush.fill(colour, a)` call."""
    found = []
    for args in FILL.findall(reply):
        parts = [p.strip() for p in args.split(",")]
        if len(parts) in (2, 4):  # colour (+ alpha); fills without an alpha say nothing
            with contextlib.suppress(ValueError):  # a variable or an expression: unreadable
                found.append(float(parts[-1]))
    return found


def wash_count(reply: str) -> int:
    """Shapes the reply fills: `brush.endShape(` and `brush.circle(` calls."""
    return len(WASH.findall(reply))


def style_measures(reply: str) -> dict[str, float]:
    """`style/<name>` of one reply: mean fill opacity, opaque share, flat style (0/1), washes."""
    alphas = fill_alphas(reply)
    mean = statistics.fmean(alphas) if alphas else NAN
    return {
        "style/mean_alpha": mean,
        "style/opaque_share": sum(a >= OPAQUE_ALPHA for a in alphas) / len(alphas)
        if alphas
        else NAN,
        "style/flat_style": float(mean >= FLAT_STYLE_ALPHA) if alphas else NAN,
        "style/washes": float(wash_count(reply)),
    }
