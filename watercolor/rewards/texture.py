"""Fine-grained watercolour components: layering, soft edges, granulation, pigment variation.

    >>> from watercolor.rewards.texture import translucent_layering, edge_softness
    >>> translucent_layering(canvas), edge_softness(canvas)
    (0.83, 0.61)

What p5.brush really offers, and flat opaque shapes lack: translucent washes alpha-blended over
paper and over each other (many intermediate tones), edges that bleed (soft ramps and outlines
that wander, not clean steps), granulation (fine, spatially correlated texture), and blotchy,
uneven pigment inside a wash. Each component measures one of them on the shared working view
(`watercolor.rewards.pixels`), so every length below is in working pixels (256 on the long
side) whatever the render size. Each returns None for an infrastructure failure and 0.0 when
there are no pixels or the canvas is blank, and is scaled by `View.extent`: a fine small wash on
an empty sheet shows every quality here, but it is not a painting.

p5.brush itself shapes what counts: it shades *every* fill (a gradient across the shape, plus
faint streaks), even with bleed and texture off and opacity 255, and its "opaque" fills are
only ~80 % opaque. So a gradient is not pigment variation (`pigment_variation` measures
blotches, not slopes), a single wash is worth a few tones by itself (`translucent_layering`
counts those beyond it), and a bleeding edge is told from a clean one by its outline as much
as by its ramp (`edge_softness`). Calibrated on real renders:
watercolor/tasks/painting/audit_sketches.
"""

from __future__ import annotations

import numpy as np
from scipy import ndimage

from watercolor.canvas import Canvas
from watercolor.rewards.pixels import (
    MIN_PAINT_PIXELS,
    PAINT_THRESHOLD,
    View,
    interior,
    painted_view,
    ramp,
    score_without_paint,
    slope,
)


def tone_count(v: View, min_share: float = 0.002, strength_step: float = 0.02) -> int:
    """Paint tones (cells of strength x pigment hue) each covering `min_share` of the paint."""
    # Smoothing first: per-pixel noise must not pass for tones (that is speckle, not layering);
    # hard steps are skipped: the anti-aliased rim of a flat shape is not a wash.
    pigment = v.smooth_lab[v.paint & ~v.hard_edges] - v.paper
    if len(pigment) < MIN_PAINT_PIXELS:
        return 0
    strength = np.floor(np.linalg.norm(pigment, axis=-1) / strength_step).astype(np.int64)
    hue = np.arctan2(pigment[:, 2], pigment[:, 1])  # direction of the pigment from the paper
    sector = np.floor((hue + np.pi) / (2 * np.pi) * 24).astype(np.int64) % 24
    counts = np.bincount(strength * 24 + sector)
    return int((counts >= min_share * v.paint.sum()).sum())


def translucent_layering(
    canvas: Canvas,
    levels: int = 50,
    one_wash: int = 10,
    min_share: float = 0.002,
    strength_step: float = 0.02,
) -> float | None:
    """[0, 1]: distinct tones (paint strength x hue) beyond one wash's own; `levels` -> 1."""
    v = painted_view(canvas)
    if v is None:
        return score_without_paint(canvas)
    # A single wash shows about `one_wash` tones by itself (p5.brush shades every fill and its
    # texture blotches it); only tones beyond those come from washes laid over each other.
    return v.extent * ramp(tone_count(v, min_share, strength_step), one_wash, levels)


def edge_widths(v: View, radius: int = 6) -> tuple[np.ndarray, np.ndarray]:
    """At each pixel of the paint's rim: contrast across the edge and its width in pixels."""
    strength = ndimage.gaussian_filter(v.strength, 1.0, truncate=3.0)  # grain is not a step
    gradient = slope(strength[..., None])
    size = 2 * radius + 1
    contrast = ndimage.maximum_filter(strength, size) - ndimage.minimum_filter(strength, size)
    # The rim pixel sits at the foot of the edge; its steepest neighbour measures the edge.
    steepest = ndimage.maximum_filter(gradient, 5)
    rim = v.paint & ~ndimage.binary_erosion(v.paint) & (contrast > 2 * PAINT_THRESHOLD)
    width = contrast[rim] / np.maximum(steepest[rim], 1e-6)
    return contrast[rim], np.minimum(width, size)


def edge_width(v: View, radius: int = 6) -> float | None:
    """Contrast-weighted median width (pixels) of the paint's rim; None without a rim."""
    contrast, width = edge_widths(v, radius)
    if len(width) == 0:
        return None
    order = np.argsort(width)  # contrast-weighted: strong boundaries count most
    cumulative = np.cumsum(contrast[order])
    return float(width[order][np.searchsorted(cumulative, cumulative[-1] / 2)])


def outline_raggedness(v: View, radius: int = 3, sigma: float = 2.0) -> float | None:
    """Mean depth (pixels) of the bays and spurs along the paint's outline; None without one.

    The outline is that of the blurred paint (per-pixel dots merge or vanish: speckle is not
    a ragged edge). Closing fills bays narrower than a `radius` diamond, opening cuts spurs;
    the pixels either changes, per pixel of outline, say how far the outline wanders from a
    smooth curve. A lone circle or box reads under 0.05 (touching ones a little more: the gaps
    between them), p5.brush's bled washes 0.25 or more.
    """
    paint = ndimage.gaussian_filter(v.strength, sigma) > PAINT_THRESHOLD
    outline = (paint[1:] != paint[:-1]).sum() + (paint[:, 1:] != paint[:, :-1]).sum()
    if outline < MIN_PAINT_PIXELS:
        return None
    padded = np.pad(paint, radius + 1, mode="edge")  # paint running off the sheet is no bay
    closed = ndimage.binary_closing(padded, iterations=radius)
    opened = ndimage.binary_opening(padded, iterations=radius)
    return float((closed ^ opened).sum()) / float(outline)


def edge_softness(
    canvas: Canvas,
    hard_width: float = 3.15,
    soft_width: float = 5.3,
    smooth_outline: float = 0.15,
    ragged_outline: float = 0.45,
    radius: int = 6,
) -> float | None:
    """[0, 1]: bleeding edges: paint boundaries that ramp gradually and wander irregularly."""
    v = painted_view(canvas)
    if v is None:
        return score_without_paint(canvas)
    # p5.brush's bleed stacks many deformed copies of the outline: the edge ramps in small
    # steps *and* wanders; a flat fill (bare p5, or the brush with bleed 0) does neither.
    # Half credit each, so a smooth ramp alone (a blurred disc) or a wobbly hard outline
    # alone is only half a bleeding edge.
    width, ragged = edge_width(v, radius), outline_raggedness(v)
    ramped = 0.0 if width is None else ramp(width, hard_width, soft_width)
    wandering = 0.0 if ragged is None else ramp(ragged, smooth_outline, ragged_outline)
    return v.extent * (ramped + wandering) / 2


def robust_std(x: np.ndarray) -> float:
    """Standard deviation from the median absolute deviation (ignores a minority of outliers)."""
    return 1.4826 * float(np.median(np.abs(x - np.median(x))))


def neighbour_correlation(x: np.ndarray, mask: np.ndarray) -> float:
    """Robust lag-1 correlation of `x` inside `mask`: 1 - var(x_i - x_i+1) / (2 var(x))."""
    both_x, both_y = mask[:, :-1] & mask[:, 1:], mask[:-1] & mask[1:]
    steps = np.concatenate([(x[:, 1:] - x[:, :-1])[both_x], (x[1:] - x[:-1])[both_y]])
    spread = robust_std(x[mask])
    return 1 - (robust_std(steps) / spread) ** 2 / 2 if spread > 0 else 0.0


def granulation(
    canvas: Canvas, amplitude: float = 0.01, correlated: float = 0.6, margin: int = 3
) -> float | None:
    """[0, 1]: fine texture inside washes (band-pass energy) that is spatially correlated."""
    v = painted_view(canvas)
    if v is None:
        return score_without_paint(canvas)
    # Inside washes only: away from the sheet's paper and from hard steps between flat shapes.
    inside = interior(v.paint & ~v.hard_edges, margin)
    if inside.sum() < MIN_PAINT_PIXELS:
        return 0.0
    lightness = v.lab[..., 0]
    detail = lightness - ndimage.gaussian_filter(lightness, 3.0, truncate=3.0)  # fine scales
    # Robust statistics throughout: shape edges leak into a few interior pixels, not most.
    energy = robust_std(ndimage.gaussian_filter(detail, 0.7)[inside])
    # Granules span several pixels (rho >= 0.6); white noise reads <= 0.25 here, a little above
    # 0 because resampling to the working size blends neighbouring pixels.
    rho = neighbour_correlation(detail, inside)
    return v.extent * min(1.0, energy / amplitude) * ramp(rho, 0.2, correlated)


def pigment_variation(canvas: Canvas, even: float = 0.02, uneven: float = 0.06) -> float | None:
    """[0, 1]: blotchy unevenness inside washes (0 = an even fill, however it is graded)."""
    v = painted_view(canvas)
    if v is None:
        return score_without_paint(canvas)
    if v.wash_interior.sum() < MIN_PAINT_PIXELS:
        return 0.0
    # The median over the wash interiors of the paint's relative unevenness (`View.unevenness`:
    # blotches, not the smooth shading p5.brush gives every fill, nor the steps between shapes).
    return v.extent * ramp(float(np.median(v.unevenness[v.wash_interior])), even, uneven)
