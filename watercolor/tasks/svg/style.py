"""The SVG task's code-read style measures: what the document says of its shapes.

    >>> from watercolor.tasks.svg.style import style_measures
    >>> svg = "<svg xmlns='http://www.w3.org/2000/svg'><circle r='90' fill-opacity='0.5'/></svg>"
    >>> style_measures(svg)
    {'style/mean_opacity': 0.5, 'style/see_through_share': 1.0, 'style/shapes': 1.0}

`Task.style` (conf/task/svg.yaml): each clean run's row of an evaluation gets these columns,
and evaluate's summary and compare's statistics report them
(`watercolor.analysis.behaviour.behaviours`).
`style/mean_opacity` is the mean effective fill opacity of the shapes the browser draws
(`watercolor.tasks.svg.document`; the sheet's own rect counts), `style/see_through_share` the
share of them under 0.85 (what `translucent_shapes` pays between 0.15 and 0.85),
`style/shapes` how many there are.
"""

from __future__ import annotations

import statistics

from watercolor.tasks.svg.document import shapes
from watercolor.tasks.svg.gate import extract_svg

NAN = float("nan")
SEE_THROUGH = 0.85


def style_measures(reply: str) -> dict[str, float]:
    """`style/<name>` of one reply (NaN where it has no shape)."""
    found = shapes(extract_svg(reply) or reply)
    return {
        "style/mean_opacity": statistics.fmean(found) if found else NAN,
        "style/see_through_share": sum(a < SEE_THROUGH for a in found) / len(found)
        if found
        else NAN,
        "style/shapes": float(len(found)),
    }
