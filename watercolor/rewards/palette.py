"""Coarse colour match: the painted colours' histogram against a reference palette or pool.

    >>> from watercolor.rewards.palette import palette_match, palette_histogram
    >>> palette_match(canvas, palette=["#e8665a", "#6a9a5b"])          # a palette, equal parts
    0.47
    >>> palette_match(canvas, reference=images_histogram(["love/01.png", "love/02.png"]))
    0.62

Deliberately blind to strokes: it compares *which colours* are painted and in what proportion,
not how. That is the seed's "coarse" reward, which flat blocks in the right colours satisfy as
well as (or better than) a real watercolour. The reference is a normalised histogram over a
fixed OKLab grid, so one made from a palette (`palette_histogram`) and one averaged over a pool
of reference paintings (`images_histogram`) are interchangeable: pass either as `reference`.
The match is scaled by `View.extent`: a few marks in the right colours are not a painting in them.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import numpy as np
from PIL import Image
from scipy import ndimage

from watercolor.canvas import Canvas
from watercolor.rewards.pixels import View, hex_to_oklab, view, working_rgb
from watercolor.rewards.reward_set import ComponentSetupError

STEP = 0.05  # histogram cell side in OKLab (~2.5 just-noticeable differences)
L_BINS, AB_BINS = 20, 16  # L in [0, 1], a and b in [-0.4, 0.4]


def colour_histogram(lab: np.ndarray, weights: np.ndarray | None = None) -> np.ndarray:
    """OKLab pixels (N, 3) -> normalised, softened (one cell) histogram over the fixed grid."""
    shape = (L_BINS, AB_BINS, AB_BINS)
    cells = np.floor((lab + [0, 0.4, 0.4]) / STEP).astype(np.int64)
    cells = np.clip(cells, 0, np.array(shape) - 1)
    index = np.ravel_multi_index(tuple(cells.T), shape)
    counts = np.bincount(index, weights=weights, minlength=np.prod(shape)).reshape(shape)
    # Softened so a colour one cell off still overlaps; a near-miss is not a total miss.
    counts = ndimage.gaussian_filter(counts.astype(np.float64), 0.7, mode="constant")
    total = counts.sum()
    return (counts / total).ravel() if total > 0 else counts.ravel()


def palette_histogram(
    colours: Sequence[str], weights: Sequence[float] | None = None
) -> list[float]:
    """Reference histogram of a palette ('#rrggbb' colours, in equal parts unless weighted)."""
    lab = np.stack([hex_to_oklab(c) for c in colours])
    return colour_histogram(lab, None if weights is None else np.asarray(weights)).tolist()


def painted_histogram(v: View) -> np.ndarray | None:
    """Histogram of a view's painted pixels (None when nothing is painted)."""
    return colour_histogram(v.lab[v.paint]) if v.paint.any() else None


def images_histogram(paths: Sequence[str | Path]) -> list[float]:
    """Reference histogram of a pool of paintings: the mean of their painted-colour histograms."""
    histograms = []
    for path in paths:
        with Image.open(path) as image:
            v = View(working_rgb(np.asarray(image.convert("RGBA"))))
        if (h := painted_histogram(v)) is not None:
            histograms.append(h)
    return np.mean(histograms, axis=0).tolist()


def palette_match(
    canvas: Canvas, palette: Sequence[str] = (), reference: Sequence[float] | None = None
) -> float | None:
    """[0, 1]: histogram intersection of the painted colours with the reference (1 = same mix)."""
    if reference is None and not palette:
        raise ComponentSetupError(
            "palette_match needs `palette` (a list of '#rrggbb' colours) or `reference` (a "
            "histogram, e.g. images_histogram(...)): set one under the component's `fn` in "
            "the reward config"
        )
    if canvas.infra_failure:
        return None
    target = np.asarray(reference if reference is not None else palette_histogram(palette))
    v = view(canvas)
    if v is None or not v.painted:
        return 0.0
    return v.extent * float(np.minimum(painted_histogram(v), target).sum())
