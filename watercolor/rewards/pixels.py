"""The working view of a canvas that pixel reward components measure.

    >>> from watercolor.rewards.pixels import view
    >>> v = view(canvas)                       # computed once per Canvas, shared by components
    >>> v.lab.shape, round(v.coverage, 3)      # OKLab at the working size, paint fraction
    ((256, 256, 3), 0.214)

Every pixel component reads the same `View`: the canvas downsampled (area average) so its long side
is `WORK_SIZE` pixels, converted to OKLab (perceptual: Euclidean distance ~ visible difference;
0.02 is about one just-noticeable step), the paper colour estimated from the sheet's border, and
each pixel's *strength* (OKLab distance from the paper). Features are therefore in sketch
coordinates whatever the render's pixel density, and thresholds never depend on the canvas size.
Shared derived maps (smoothed OKLab, hard edges, wash interiors, blotchy `unevenness`) are computed
on first use. How the paper is found: the comment at `View.paper`.

This module is the one definition of "painted" that the task and every component share: a
canvas is blank when less than `BLANK_COVERAGE` of its sheet carries paint (the painting task's
`blank_canvas` check is `not View.painted`), and `View.extent` says how much of a painting's
worth of sheet is painted, so that components measuring *how* the paint was laid (ratios over
whatever paint there is) pay little for a few marks on an empty sheet.

A `View` is cached per `Canvas` (weakly), so scoring ten components decodes and converts once.
Most components open the same way, on `painted_view` and `score_without_paint`:

    v = painted_view(canvas)
    if v is None:
        return score_without_paint(canvas)  # None: our render failed; 0.0: nothing painted
"""

from __future__ import annotations

import weakref
from dataclasses import dataclass
from functools import cached_property

import numpy as np
from PIL import Image
from scipy import ndimage

from watercolor.canvas import Canvas

WORK_SIZE = 256  # long side of the working image, in pixels
PAINT_THRESHOLD = 0.02  # OKLab distance from the paper above which a pixel counts as painted
BORDER_FRACTION = 0.03  # width of the border ring used to estimate the paper
MIN_PAINT_PIXELS = 50  # fewer working pixels in a region (~0.08 % of the sheet): nothing to measure
BLANK_COVERAGE = 0.005  # painted share of the sheet below which a canvas is blank (the anchor's)
# Painted share from which a canvas counts as a whole painting (`View.extent` = 1). Below the
# sparest genuine painting in the reward tests (the hibiscus sample, one flower on bare paper,
# covers 16 % of its sheet) and far above a few marks (1-2 % of the sheet: extent 0.05-0.16).
FULL_COVERAGE = 0.10
HARD_SLOPE = 0.04  # OKLab change per working pixel (lightly smoothed) that marks a hard edge
BLOTCH_SIZE = 7  # working pixels (~16 sketch px): the scale of unevenness `View.unevenness` sees
MIN_STRENGTH = 0.05  # unevenness is relative to the paint's strength, never to less than this

_M1 = np.array(  # linear sRGB -> LMS (Ottosson's OKLab)
    [
        [0.4122214708, 0.5363325363, 0.0514459929],
        [0.2119034982, 0.6806995451, 0.1073969566],
        [0.0883024619, 0.2817188376, 0.6299787005],
    ],
    dtype=np.float32,
)
_M2 = np.array(  # cube-rooted LMS -> Lab
    [
        [0.2104542553, 0.7936177850, -0.0040720468],
        [1.9779984951, -2.4285922050, 0.4505937099],
        [0.0259040371, 0.7827717662, -0.8086757660],
    ],
    dtype=np.float32,
)


def _srgb_to_linear_exact(rgb: np.ndarray) -> np.ndarray:
    return np.where(rgb <= 0.04045, rgb / 12.92, ((rgb + 0.055) / 1.055) ** 2.4).astype(np.float32)


_LUT_SIZE = 4096  # a table is ~10x faster than the power law; 1/4096 is far below 1/255
_LINEAR_LUT = _srgb_to_linear_exact(np.linspace(0, 1, _LUT_SIZE, dtype=np.float32))


def srgb_to_linear(rgb: np.ndarray) -> np.ndarray:
    """sRGB in [0, 1] -> linear light (table lookup)."""
    return _LINEAR_LUT[np.rint(np.clip(rgb, 0, 1) * (_LUT_SIZE - 1)).astype(np.int32)]


def oklab(rgb: np.ndarray) -> np.ndarray:
    """sRGB in [0, 1], shape (..., 3) -> OKLab (L in [0, 1], a and b roughly in [-0.4, 0.4])."""
    lms = srgb_to_linear(np.asarray(rgb, dtype=np.float32)) @ _M1.T
    return np.cbrt(lms) @ _M2.T


def hex_to_oklab(colour: str) -> np.ndarray:
    """'#rrggbb' (or 'rrggbb') -> OKLab triple."""
    value = colour.lstrip("#")
    rgb = np.array([int(value[i : i + 2], 16) for i in (0, 2, 4)], dtype=np.float32) / 255
    return oklab(rgb)


def working_rgb(rgba: np.ndarray, size: int = WORK_SIZE) -> np.ndarray:
    """RGBA uint8 -> RGB float32 in [0, 1], alpha composited on white, long side <= `size`."""
    opaque = bool((rgba[..., 3] == 255).all())
    image = Image.fromarray(np.ascontiguousarray(rgba[..., :3]) if opaque else rgba)
    scale = size / max(image.size)
    if scale < 1:  # area averaging: keeps every pixel's contribution, adds no ringing
        shape = (max(1, round(image.width * scale)), max(1, round(image.height * scale)))
        image = image.resize(shape, Image.Resampling.BOX)
    array = np.asarray(image, dtype=np.float32) / 255
    if opaque:
        return array
    alpha = array[..., 3:]
    return array[..., :3] * alpha + (1 - alpha)


def border_ring(shape: tuple[int, int]) -> np.ndarray:
    """Boolean mask of the outer ring of an image (BORDER_FRACTION of the long side, >= 2 px)."""
    width = max(2, round(BORDER_FRACTION * max(shape)))
    ring = np.ones(shape, dtype=bool)
    ring[width:-width, width:-width] = False
    return ring


def colour_cells(lab: np.ndarray, step: float) -> np.ndarray:
    """One integer per OKLab pixel (N, 3) naming its cube of side `step` (for counting colours)."""
    cells = np.floor(lab / step).astype(np.int64) + 512  # a, b may be negative
    return (cells[:, 0] << 20) | (cells[:, 1] << 10) | cells[:, 2]


def modal_colour(lab: np.ndarray, step: float = PAINT_THRESHOLD) -> np.ndarray:
    """The most common colour of a set of OKLab pixels (N, 3): median of the modal `step` cell."""
    cells = colour_cells(lab, step)
    keys, counts = np.unique(cells, return_counts=True)
    return np.median(lab[cells == keys[counts.argmax()]], axis=0)


@dataclass(frozen=True, eq=False)
class View:
    """A canvas at the working size, in OKLab, with its paper and paint estimated."""

    rgb: np.ndarray  # (H, W, 3) float32 sRGB in [0, 1]

    @cached_property
    def lab(self) -> np.ndarray:
        return oklab(self.rgb)

    @cached_property
    def ring(self) -> np.ndarray:
        return border_ring(self.rgb.shape[:2])

    # The paper is estimated, not assumed: the modal colour of the border ring (paint rarely covers
    # the whole border; when a uniform ground does, that ground is the paper). So the sheet is
    # whatever the sketch laid down as its background, cream paper or a dark or tinted
    # `background(...)`: a background fill or tint is never a pigment layer.
    @cached_property
    def paper(self) -> np.ndarray:
        """OKLab colour of the paper (modal colour of the border ring)."""
        return modal_colour(self.lab[self.ring])

    @cached_property
    def strength(self) -> np.ndarray:
        """(H, W) OKLab distance of each pixel from the paper: how much paint it carries."""
        return np.linalg.norm(self.lab - self.paper, axis=-1)

    @cached_property
    def paint(self) -> np.ndarray:
        """(H, W) bool: pixels visibly different from the paper."""
        return self.strength > PAINT_THRESHOLD

    @cached_property
    def smooth_lab(self) -> np.ndarray:
        """OKLab blurred by one pixel: per-pixel noise damped, washes and edges kept."""
        return ndimage.gaussian_filter(self.lab, sigma=(1.0, 1.0, 0), truncate=3.0)

    @cached_property
    def unevenness(self) -> np.ndarray:
        """(H, W) blotchy variation of the paint's strength, relative to it (0 = even fill).

        The morphological range `closing - opening` of the (lightly smoothed) strength over
        BLOTCH_SIZE squares keeps bumps and dips narrower than that (blotches, granules,
        pigment pooled at an edge) and ignores steps and smooth gradients, which are monotone.
        So a flat fill reads ~0 however it is shaded (p5.brush grades every fill across the
        shape), and so does the step where one flat shape meets another.
        """
        strength = np.linalg.norm(self.smooth_lab - self.paper, axis=-1)
        size = BLOTCH_SIZE
        closing = ndimage.minimum_filter(ndimage.maximum_filter(strength, size), size)
        opening = ndimage.maximum_filter(ndimage.minimum_filter(strength, size), size)
        return (closing - opening) / np.maximum(strength, MIN_STRENGTH)

    @cached_property
    def wash_interior(self) -> np.ndarray:
        """(H, W) bool: painted pixels at least 3 pixels inside the paint (its rim left out)."""
        return interior(self.paint, 3)

    @cached_property
    def hard_edges(self) -> np.ndarray:
        """(H, W) bool: pixels on or next to a hard step (the outline of a flat, opaque shape)."""
        return ndimage.binary_dilation(slope(self.smooth_lab) > HARD_SLOPE, iterations=2)

    @cached_property
    def coverage(self) -> float:
        """Fraction of the sheet that carries visible paint."""
        return float(self.paint.mean())

    @cached_property
    def painted(self) -> bool:
        """Whether the canvas is painted at all (the task refuses it as blank otherwise)."""
        return self.coverage >= BLANK_COVERAGE

    @cached_property
    def extent(self) -> float:
        """[0, 1]: how much of a painting's worth of sheet is painted (0 blank, 1 from FULL).

        Components that judge how the paint was laid multiply by it: their ratios are taken
        over whatever paint there is, so one fine small wash would otherwise earn full credit.
        """
        return ramp(self.coverage, BLANK_COVERAGE, FULL_COVERAGE)

    @cached_property
    def border_paper_share(self) -> float:
        """Fraction of the border ring that shows the paper (low when paint runs off the sheet)."""
        return float(1 - self.paint[self.ring].mean())


_VIEWS: weakref.WeakKeyDictionary[Canvas, View] = weakref.WeakKeyDictionary()


def view(canvas: Canvas) -> View | None:
    """The working view of a canvas (cached per canvas); None when it has no pixels."""
    cached = _VIEWS.get(canvas)
    if cached is None:
        rgba = canvas.rgba
        if rgba is None:
            return None
        cached = _VIEWS[canvas] = View(working_rgb(rgba))
    return cached


def painted_view(canvas: Canvas) -> View | None:
    """The view of a painted canvas; None when there is nothing to measure: no pixels, a blank
    sheet, or a render that failed on our side (`score_without_paint` says which verdict)."""
    if canvas.infra_failure:
        return None
    v = view(canvas)
    return v if v is not None and v.painted else None


def score_without_paint(canvas: Canvas) -> float | None:
    """What a component scores a canvas with nothing to measure: None when the render failed on
    our side (no verdict), else 0.0 (the sketch painted nothing)."""
    return None if canvas.infra_failure else 0.0


def painted_fraction(rgba: np.ndarray) -> float:
    """Fraction of the sheet that carries visible paint (`View.coverage` of these RGBA pixels)."""
    return View(working_rgb(rgba)).coverage


def slope(image: np.ndarray) -> np.ndarray:
    """(H, W) gradient magnitude of an (H, W, C) image, units per pixel (central differences)."""
    dy, dx = np.zeros_like(image), np.zeros_like(image)
    dy[1:-1] = (image[2:] - image[:-2]) / 2
    dx[:, 1:-1] = (image[:, 2:] - image[:, :-2]) / 2
    return np.sqrt((dy**2 + dx**2).sum(axis=-1))


def ramp(x: float, lo: float, hi: float) -> float:
    """0 at or below `lo`, 1 at or above `hi`, linear between (decreasing if hi < lo)."""
    return float(np.clip((x - lo) / (hi - lo), 0.0, 1.0))


def interior(mask: np.ndarray, margin: int) -> np.ndarray:
    """Pixels of `mask` at least `margin` pixels from its boundary (edges excluded)."""
    return ndimage.binary_erosion(mask, iterations=margin) if margin > 0 else mask
