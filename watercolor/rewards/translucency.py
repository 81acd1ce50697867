"""Translucent washes read from the canvas: how much pigment each wash lays, and layering.

    >>> from watercolor.rewards.pixels import view
    >>> from watercolor.rewards.translucency import translucent_washes, wash_load
    >>> translucent_washes(canvas), wash_load(view(canvas))
    (0.7, 0.61)

`wash_load` reads how much pigment each wash lays, from the step in absorbance across its edges
(why that and not the overlap's colour: the comment above it).

`translucent_washes` pays light loads (a log ramp from `heavy` to `light`, set on p5.brush's own
washes at opacity 60-150 against the same washes at 255, bleed and texture on), and only as far
as the washes are layered: more tones than one wash shows by itself (`texture.tone_count`), so a
single light wash flooding the sheet earns little here. Like every pixel component it is scaled
by `View.extent`; a sheet whose ground is dark reads its light marks as heavy (absorbance is
measured against the sheet as painted, never against a colour the sketch did not lay).
"""

from __future__ import annotations

import numpy as np
from scipy import ndimage

from watercolor.canvas import Canvas
from watercolor.rewards.pixels import (
    View,
    painted_view,
    ramp,
    score_without_paint,
    srgb_to_linear,
)
from watercolor.rewards.texture import tone_count

MIN_REFLECTANCE = 0.01  # K/S grows without bound as reflectance -> 0; 1 % is black enough


def absorbance(linear: np.ndarray) -> np.ndarray:
    """Kubelka-Munk K/S = (1 - R)^2 / 2R of each channel's reflectance R (linear light)."""
    reflectance = np.clip(linear, MIN_REFLECTANCE, 1.0)
    return (1 - reflectance) ** 2 / (2 * reflectance)


def edge_directions(lab: np.ndarray, floor: float) -> tuple[np.ndarray, np.ndarray]:
    """Edge pixels of an OKLab image and the unit normal (dy, dx) of each pixel's edge.

    The normal is the direction of steepest colour change (Di Zenzo's structure tensor); an edge
    pixel changes colour by more than `floor` per pixel and most steeply along that normal.
    """
    gy, gx = (ndimage.sobel(lab, axis=axis) / 8 for axis in (0, 1))
    gyy, gxx, gxy = (gy * gy).sum(-1), (gx * gx).sum(-1), (gx * gy).sum(-1)
    angle = 0.5 * np.arctan2(2 * gxy, gxx - gyy)
    steepness = np.sqrt(np.maximum(0.5 * (gxx + gyy + np.hypot(gxx - gyy, 2 * gxy)), 0))
    normal = np.stack([np.sin(angle), np.cos(angle)], axis=-1)
    ahead, behind = along(steepness, normal, 1), along(steepness, normal, -1)
    return (steepness > floor) & (steepness >= ahead) & (steepness >= behind), normal


def along(image: np.ndarray, normal: np.ndarray, distance: float) -> np.ndarray:
    """`image` read `distance` pixels along each pixel's `normal` (nearest pixel, edges clamped)."""
    height, width = image.shape[:2]
    rows, cols = np.mgrid[0:height, 0:width]
    rows = np.clip(np.rint(rows + distance * normal[..., 0]).astype(int), 0, height - 1)
    cols = np.clip(np.rint(cols + distance * normal[..., 1]).astype(int), 0, width - 1)
    return image[rows, cols]


# What a fill's opacity changes on a p5.brush 2.2.2 canvas is how much pigment the wash lays, not
# whether it hides what lies under it. p5.brush mixes every fill into the sheet by Kubelka-Munk (its
# blend shader averages absorbance K/S), and an overlap of two fills carries about the sum of their
# absorbances at any opacity: 0.87-1.19 of it at opacity 255, 0.94-1.12 at 100-150, measured on two
# overlapping washes rendered alone and together (experiments/2026-12-04_translucency_calibration/).
# So an "opaque" fill shows the wash beneath it too, only heavier, and a statistic of the overlap
# colour cannot tell opacity apart.
#
# The absorbance a wash adds is what can. Where layers add, the step in K/S across a wash's outline
# is that wash's own load whatever lies under it: the paper, or three glazes. `wash_load` is the
# contrast-weighted mean of those steps over the paint's edges (a light glaze steps little, a heavy
# fill much, a dark accent of a few pixels little in the mean). Bleed and grain move it little: a
# bled edge is measured across its ramp (`reach` pixels either side), and grain is smoothed away
# first. A pale colour at opacity 255 also reads as light: on the canvas it is one.
def wash_load(v: View, reach: int = 5, sigma: float = 1.5, floor: float = 0.006) -> float | None:
    """Contrast-weighted mean K/S step across the paint's edges; None without any edge.

    Steps are read `reach` working pixels either side of each edge pixel (across a bled edge's
    ramp), on the sheet smoothed by `sigma` pixels (grain is not an edge).
    """
    blur = (sigma, sigma, 0)
    lab = ndimage.gaussian_filter(v.lab, blur, truncate=3.0)
    edges, normal = edge_directions(lab, floor)
    edges &= ndimage.binary_dilation(v.paint, iterations=reach)  # the paint's, not the paper's
    k = absorbance(ndimage.gaussian_filter(srgb_to_linear(v.rgb), blur, truncate=3.0))
    steps = np.linalg.norm(along(k, normal, reach) - along(k, normal, -reach), axis=-1)[edges]
    total = float(steps.sum())
    return float((steps**2).sum()) / total if total > 0 else None


def translucent_washes(
    canvas: Canvas,
    light: float = 0.37,
    heavy: float = 2.04,
    one_wash: int = 10,
    layered: int = 20,
) -> float | None:
    """[0, 1]: layered washes each light enough to see through (not heavy, covering fills)."""
    v = painted_view(canvas)
    if v is None:
        return score_without_paint(canvas)
    load = wash_load(v)
    if load is None:
        return 0.0
    lightness = ramp(np.log(max(load, 1e-6)), np.log(heavy), np.log(light))
    return v.extent * lightness * ramp(tone_count(v), one_wash, layered)
