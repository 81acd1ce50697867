"""Watercolour washes as a factor on a reward set's total, so that no one term can be cheated.

    >>> from watercolor.rewards.washes import wash_factor
    >>> wash_factor(layered_glazes), wash_factor(flat_opaque_blocks)
    (0.79, 0.0)

`conf/reward/washes.yaml` pays `scaled_total`: fine_grained's sum (without translucent_layering)
times `wash_factor`. A weighted sum lets a canvas that fails one quality outright still collect
the rest: p5.brush's flat fills with bleed and texture off kept 0.68-0.74 of the weakest genuine
painting under `translucent`, and a composition painted at opacity 255 with bleed and texture on
was paid more than the same composition in translucent glazes (issue 34;
experiments/2026-12-04_translucency_calibration/). A product cannot be collected piecemeal.
`wash_factor` multiplies four readings of the canvas, each in [0, 1] (listed, with why only the
lightness is scaled by `View.extent`, at `wash_factor`).
"""

from __future__ import annotations

import numpy as np

from watercolor.canvas import Canvas
from watercolor.rewards.cheats import speckle_sigma
from watercolor.rewards.pixels import View, painted_view, ramp, score_without_paint

# scaled_total lived here first: run configs recorded before it moved name it from this module
from watercolor.rewards.reward_set import scaled_total as scaled_total
from watercolor.rewards.texture import edge_width, outline_raggedness, tone_count
from watercolor.rewards.translucency import wash_load


def flat_share(v: View, tolerance: float = 0.02) -> float:
    """Share of the wash interiors that is even (no blotch or granule above `tolerance`)."""
    if not v.wash_interior.any():
        return 1.0
    return float((v.unevenness[v.wash_interior] < tolerance).mean())


def soft_edges(v: View) -> float:
    """[0, 1]: `texture.edge_softness` before its extent scaling (fine_grained's thresholds)."""
    width, ragged = edge_width(v), outline_raggedness(v)
    ramped = 0.0 if width is None else ramp(width, 3.15, 5.3)
    wandering = 0.0 if ragged is None else ramp(ragged, 0.15, 0.45)
    return (ramped + wandering) / 2


def even_fills(
    v: View,
    flat: tuple[float, float] = (0.25, 0.35),
    hard: tuple[float, float] = (0.1, 0.6),
    even: tuple[float, float] = (0.45, 0.65),
) -> float:
    """[0, 1]: 1 for even fills: most of the paint even, or much of it even with hard edges."""
    share = flat_share(v)
    hard_edged = ramp(share, *flat) * (1 - ramp(soft_edges(v), *hard))
    return 1 - (1 - hard_edged) * (1 - ramp(share, *even))


def wash_lightness(v: View, light: float = 0.37, heavy: float = 2.04) -> float:
    """[0, 1]: a log ramp of the washes' own pigment load, `heavy` -> 0, `light` -> 1."""
    load = wash_load(v)
    return 0.0 if load is None else ramp(np.log(max(load, 1e-6)), np.log(heavy), np.log(light))


# `wash_factor` multiplies four readings of the canvas, each in [0, 1]:
# - `layered`: more tones than one wash shows by itself (`texture.tone_count` from `one_wash` to
#   `layered`): one flat or one textured wash is not a watercolour of layered glazes;
# - `not even_fills`: 0 where the paint is an even fill, either almost all of it (`even`), or much
#   of it (`flat`) with hard edges (no bleed); bled, grainy washes read ~1;
# - `not speckled`: per-pixel noise passed off as grain (`cheats.speckle_sigma`) reads 0;
# - `floor + (1 - floor) * extent * lightness`: light washes, one glaze's own pigment load
#   (`translucency.wash_load`, log ramp from `heavy` to `light`, the calibration's class medians),
#   on a painting's worth of sheet. The only reading that tells translucent glazes from opaque fills
#   with bleed and texture on; `floor` keeps a heavy genuine painting paid.
#
# Only the lightness is scaled by `View.extent` (a light miniature on a bare sheet is not a light
# painting); the other readings are not, since the base set's terms already are.
def wash_factor(
    canvas: Canvas,
    floor: float = 0.3,
    light: float = 0.37,
    heavy: float = 2.04,
    **readings: object,
) -> float | None:
    """[0, 1]: layered, bled or grainy, unspeckled washes; light ones paid up to 1/`floor` more
    (`readings`: `wash_quality`'s thresholds)."""
    v = painted_view(canvas)
    if v is None:
        return score_without_paint(canvas)
    quality = wash_quality(v, **readings)
    if quality == 0:
        return 0.0  # the load is the costly reading; skip it when nothing is left to scale
    return quality * (floor + (1 - floor) * v.extent * wash_lightness(v, light, heavy))


def wash_quality(
    v: View,
    one_wash: int = 12,
    layered: int = 20,
    speckle: tuple[float, float] = (0.004, 0.015),
    flat: tuple[float, float] = (0.25, 0.35),
    hard: tuple[float, float] = (0.1, 0.6),
    even: tuple[float, float] = (0.45, 0.65),
) -> float:
    """[0, 1]: `layered` x `not even_fills` x `not speckled` (the module docstring's first 3)."""
    sigma = speckle_sigma(v.lab[..., 0], v.paint & ~v.hard_edges)
    layering = ramp(tone_count(v), one_wash, layered)
    return layering * (1 - even_fills(v, flat, hard, even)) * (1 - ramp(sigma, *speckle))
