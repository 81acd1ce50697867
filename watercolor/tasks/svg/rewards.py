"""The SVG task's own reward components: translucency and composition read from the document,
and the exact prompt colour read from the canvas.

    >>> from watercolor.tasks.svg.rewards import translucent_shapes, composition
    >>> translucent_shapes(canvas)   # share of shapes drawn see-through (0.15-0.85 opacity)
    0.8
    >>> composition(canvas)          # 0 for one or two shapes, 1 from ten
    1.0

The generic canvas components (coverage, prompt colours, translucent layering, flat regions)
judge the pixels; these two judge what only the document says: whether shapes are layered as
glazes and whether the picture is built from several shapes rather than one block. They read
what the browser draws (`watercolor.tasks.svg.document`: no shape in `<defs>` or hidden,
opacity after the style sheet, shapes stacked on one spot as one) and weigh each shape by its
area, so shapes never drawn and a few hundred dots earn nothing, and a gradient fill is no
glaze (issue 44). Both are scaled by `View.extent` like the pixel components, so shapes that
left the sheet (almost) empty earn little. They read only documents that rendered
(`ok`), which the gate parsed first (no DOCTYPE, so no entity expansion). `exact_colour` is the
coarse set's: it pays paint of exactly the prompt's colour, which a solid block satisfies best.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np

from watercolor.canvas import Canvas
from watercolor.rewards.adherence import named_colours, prompt_text
from watercolor.rewards.pixels import hex_to_oklab, painted_view, ramp, score_without_paint, view
from watercolor.tasks.svg.document import drawn_shapes, shapes

__all__ = ["composition", "exact_colour", "shapes", "translucent_shapes"]


def translucent_shapes(canvas: Canvas, low: float = 0.15, high: float = 0.85) -> float | None:
    """[0, 1]: area-weighted share of the drawn shapes that are flat see-through fills
    (effective opacity in [low, high]); a gradient fill is no glaze, a dot weighs nothing."""
    if canvas.infra_failure:
        return None
    v = view(canvas)
    if not canvas.ok or v is None:
        return 0.0
    found = drawn_shapes(canvas.sketch)
    total = sum(s.weight for s in found)
    glazes = sum(s.weight for s in found if s.flat and low <= s.opacity <= high)
    return v.extent * glazes / total if total else 0.0


def composition(canvas: Canvas, few: int = 2, many: int = 10) -> float | None:
    """[0, 1]: 0 for `few` drawn shapes or fewer, 1 from `many`, linear between (each counted
    by its weight: a dot is none of one)."""
    if canvas.infra_failure:
        return None
    v = view(canvas)
    if not canvas.ok or v is None:
        return 0.0
    return v.extent * ramp(sum(s.weight for s in drawn_shapes(canvas.sketch)), few, many)


def exact_colour(
    canvas: Canvas,
    prompt: str | Sequence[Mapping[str, str]] | None = None,
    tolerance: float = 0.06,
) -> float | None:
    """[0, 1]: share of the paint within `tolerance` (OKLab distance) of the prompt's colour
    itself: what a reward that reads only colour pays most, a solid fill of exactly that hex.
    A glaze of it over the paper, or shades of it, land further off. `svg_coarse` pays it."""
    v = painted_view(canvas)
    if v is None:
        return score_without_paint(canvas)
    wanted = named_colours(prompt_text(prompt))
    if not wanted:
        return v.extent
    paint = v.lab[v.paint]
    near = [np.linalg.norm(paint - hex_to_oklab(c), axis=1) <= tolerance for c in wanted]
    return v.extent * float(np.mean([n.mean() for n in near]))
