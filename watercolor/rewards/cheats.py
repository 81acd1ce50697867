"""Anti-cheat components: each in [0, 1], 1 = no cheat detected.

    >>> from watercolor.rewards.cheats import no_flat_regions, no_speckle
    >>> no_flat_regions(flat_blocks_canvas), no_speckle(noisy_canvas)
    (0.0, 0.12)

Fine-grained rewards can be gamed: flat shapes, opaque or smoothly graded ("fake
watercolour"), per-pixel random noise passed off as granulation, one colour flooding the sheet,
or paint run edge to edge. Each component here detects one of these on the shared working view
(`watercolor.rewards.pixels`). A blank sheet earns no anti-cheat credit (they score it 0), and
a few marks on an empty sheet little: each is scaled by `View.extent`, since "no cheat detected"
in a small mark is no evidence of a painting. (A painting sketch that draws with bare p5
primitives instead of the brush library is painting's own cheat:
`watercolor.tasks.painting.rewards.uses_brush_library`.)
"""

from __future__ import annotations

import numpy as np
from scipy import ndimage

from watercolor.canvas import Canvas
from watercolor.rewards.pixels import colour_cells, painted_view, ramp, score_without_paint


def no_flat_regions(
    canvas: Canvas, tolerance: float = 0.02, allowed: float = 0.3, limit: float = 0.55
) -> float | None:
    """[0, 1]: 1 unless much of the paint is even (a flat fill, even if smoothly graded)."""
    v = painted_view(canvas)
    if v is None:
        return score_without_paint(canvas)
    if not v.wash_interior.any():
        return 0.0
    # Even = no blotch, granule or pooled edge above `tolerance` of the paint's strength
    # (`View.unevenness`), so p5.brush's own gradient across a flat fill does not count as
    # variation. A real wash is uneven almost everywhere; a flat one almost nowhere.
    flat_share = float((v.unevenness[v.wash_interior] < tolerance).mean())
    return v.extent * (1 - ramp(flat_share, allowed, limit))


# Immerkær's fast noise estimate: this mask cancels any locally linear structure, so what
# remains is pixel-scale, uncorrelated variation.
_NOISE_MASK = np.array([[1, -2, 1], [-2, 4, -2], [1, -2, 1]], dtype=np.float32)


def speckle_sigma(lightness: np.ndarray, region: np.ndarray) -> float:
    """Std of uncorrelated pixel noise over a region (Immerkær 1996); keep hard edges out of it."""
    response = np.abs(ndimage.convolve(lightness, _NOISE_MASK))[region]
    return float(np.sqrt(np.pi / 2) * response.mean() / 6) if response.size else 0.0


def no_speckle(canvas: Canvas, low: float = 0.004, high: float = 0.015) -> float | None:
    """[0, 1]: 1 unless the sheet carries uncorrelated per-pixel noise (fake granulation)."""
    v = painted_view(canvas)
    if v is None:
        return score_without_paint(canvas)
    return v.extent * (1 - ramp(speckle_sigma(v.lab[..., 0], v.paint & ~v.hard_edges), low, high))


def palette_balance(
    canvas: Canvas, cell: float = 0.05, allowed: float = 0.5, limit: float = 0.9
) -> float | None:
    """[0, 1]: 1 unless one colour (an OKLab cell) takes most of the painted area."""
    v = painted_view(canvas)
    if v is None:
        return score_without_paint(canvas)
    _, counts = np.unique(colour_cells(v.lab[v.paint], cell), return_counts=True)
    return v.extent * (1 - ramp(counts.max() / counts.sum(), allowed, limit))


def not_edge_to_edge(
    canvas: Canvas, max_coverage: float = 0.7, min_border_paper: float = 0.5
) -> float | None:
    """[0, 1]: 1 unless paint covers (nearly) the whole sheet or runs off most of its border."""
    v = painted_view(canvas)
    if v is None:
        return score_without_paint(canvas)
    flooded = ramp(v.coverage, max_coverage, 1.0)
    return v.extent * (1 - flooded) * min(1.0, v.border_paper_share / min_border_paper)
