"""The SVG task's own reward components: translucency and composition read from the document,
and the exact prompt colour read from the canvas.

    >>> from watercolor.tasks.svg.rewards import translucent_shapes, composition
    >>> translucent_shapes(canvas)   # share of shapes drawn see-through (0.15-0.85 opacity)
    0.8
    >>> composition(canvas)          # 0 for one or two shapes, 1 from ten
    1.0

The generic canvas components (coverage, prompt colours, translucent layering, flat regions)
judge the pixels; these two judge what only the document says: whether shapes are layered as
glazes (their effective fill opacity: `opacity` times `fill-opacity`, each inherited through
the groups around them, attribute or `style`) and whether the picture is built from several
shapes rather than one block. Both are scaled by `View.extent` like the pixel components, so
shapes that left the sheet (almost) empty earn little. They read only documents that rendered
(`ok`), which the gate parsed first (no DOCTYPE, so no entity expansion). `exact_colour` is the
coarse set's: it pays paint of exactly the prompt's colour, which a solid block satisfies best.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from collections.abc import Mapping, Sequence

import numpy as np

from watercolor.canvas import Canvas
from watercolor.rewards.adherence import named_colours, prompt_text
from watercolor.rewards.pixels import hex_to_oklab, ramp, view

SHAPES = frozenset({"path", "rect", "circle", "ellipse", "line", "polyline", "polygon"})
_STYLE = re.compile(r"(fill-opacity|opacity)\s*:\s*([0-9.eE+-]+)")


def shapes(document: str) -> list[float]:
    """The effective fill opacity of every shape in `document`, in document order; none when
    it is not XML (another task's sketch, scored by a set that lists every reward set)."""
    try:
        root = ET.fromstring(document)
    except ET.ParseError:
        return []
    found: list[float] = []
    # A stack, not recursion: a document may nest its groups thousands deep (issue 44).
    stack = [(root, 1.0, 1.0)]
    while stack:
        element, opacity, fill_opacity = stack.pop()
        own = _opacities(element)
        opacity *= own.get("opacity", 1.0)  # a group's opacity multiplies into its children
        fill_opacity = own.get("fill-opacity", fill_opacity)  # inherited, a child's own wins
        if element.tag.rsplit("}", 1)[-1] in SHAPES:
            found.append(opacity * fill_opacity)
        stack.extend((child, opacity, fill_opacity) for child in reversed(element))
    return found


def _opacities(element: ET.Element) -> dict[str, float]:
    values = {k: element.get(k) for k in ("opacity", "fill-opacity") if element.get(k)}
    values |= dict(_STYLE.findall(element.get("style", "")))
    out = {}
    for key, text in values.items():
        try:
            out[key] = min(1.0, max(0.0, float(text)))
        except ValueError:
            continue
    return out


def translucent_shapes(canvas: Canvas, low: float = 0.15, high: float = 0.85) -> float | None:
    """[0, 1]: share of the shapes drawn see-through (effective fill opacity in [low, high])."""
    if canvas.infra_failure:
        return None
    v = view(canvas)
    if not canvas.ok or v is None:
        return 0.0
    found = shapes(canvas.sketch)
    share = sum(low <= a <= high for a in found) / len(found) if found else 0.0
    return v.extent * share


def composition(canvas: Canvas, few: int = 2, many: int = 10) -> float | None:
    """[0, 1]: 0 for `few` shapes or fewer, 1 from `many`, linear between."""
    if canvas.infra_failure:
        return None
    v = view(canvas)
    if not canvas.ok or v is None:
        return 0.0
    return v.extent * ramp(len(shapes(canvas.sketch)), few, many)


def exact_colour(
    canvas: Canvas,
    prompt: str | Sequence[Mapping[str, str]] | None = None,
    tolerance: float = 0.06,
) -> float | None:
    """[0, 1]: share of the paint within `tolerance` (OKLab distance) of the prompt's colour
    itself: what a reward that reads only colour pays most, a solid fill of exactly that hex.
    A glaze of it over the paper, or shades of it, land further off. `svg_coarse` pays it."""
    if canvas.infra_failure:
        return None
    v = view(canvas)
    if v is None or not v.painted:
        return 0.0
    wanted = named_colours(prompt_text(prompt))
    if not wanted:
        return v.extent
    paint = v.lab[v.paint]
    near = [np.linalg.norm(paint - hex_to_oklab(c), axis=1) <= tolerance for c in wanted]
    return v.extent * float(np.mean([n.mean() for n in near]))
