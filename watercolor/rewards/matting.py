"""Opacity by matting: how much of the paper shows through the paint, from two papers.

    >>> canvas = await paint(pool, reply, seed=0, second_paper="#1e3a5f")  # Canvas.twin set
    >>> share = paper_share(canvas)          # (H, W): 1 where the paper shows, 0 where covered
    >>> 1 - share[painted(canvas)].mean()    # the paint's mean opacity

Paint is translucent where the paper shows through it. The same sketch painted over two papers
B1 (the one it asked for) and B2 (the renderer's, nothing else changed) differs only where the
paper reaches the pixel, so per pixel the share of the paper's change that arrives,

    t = ((I1 - I2) . (B1 - B2)) / |B1 - B2|^2,

is 1 on bare paper, 0 under paint that hides it, and 1 - alpha under paint composited
alpha-over (Smith and Blinn, "Blue Screen Matting", SIGGRAPH 1996). A pale opaque fill has
t = 0 whatever its colour: colour cannot fake it. p5.brush does not composite alpha-over: it
mixes pigment into the paper by Kubelka-Munk (spectral.js, weighted by each colour's luminance;
`src/core/gl/shader.frag`), so t is not its opacity argument (measured:
experiments/2026-12-05_matting/). The part of I1 - I2 that t does not explain (across the
paper's change) is the residual: a genuine painting leaves little, a sketch that paints
differently on the two papers leaves a lot.

Plain functions of a `Canvas` with a `twin` (watercolor.tasks.episode.gated_render); each
returns None when a render failed on our side, 0 when the sketch laid down no single paper.
"""

from __future__ import annotations

import weakref

import numpy as np

from watercolor.canvas import Canvas
from watercolor.rewards.pixels import painted_view, ramp, score_without_paint
from watercolor.rewards.washes import wash_quality

# A pixel is paint where it is this far (RGB distance, 0-255 units) from the paper it asked for.
VISIBLE = 12.0
# Two papers closer than this (RGB distance) leave the matte ill-conditioned (8-bit noise).
MIN_CONTRAST = 60.0


def hex_rgb(colour: str) -> np.ndarray:
    """'#1e3a5f' -> array([30, 58, 95])."""
    text = colour.lstrip("#")
    if len(text) != 6:
        raise ValueError(f"a paper is a #rrggbb colour, not {colour!r}")
    return np.array([int(text[i : i + 2], 16) for i in (0, 2, 4)], dtype=np.float64)


def papers(canvas: Canvas) -> tuple[np.ndarray, np.ndarray] | None:
    """(B1, B2) as RGB floats: the one paper the sketch asked for and the twin's; None if the
    sketch asked for none or several, laid its paper translucent, or chose a paper within
    MIN_CONTRAST of the twin's (the pair cannot be matted: it reads opaque)."""
    if canvas.twin_paper is None or len(canvas.papers) != 1 or canvas.papers[0][3] != 255:
        return None
    first, second = np.asarray(canvas.papers[0][:3], dtype=np.float64), hex_rgb(canvas.twin_paper)
    return None if np.linalg.norm(first - second) < MIN_CONTRAST else (first, second)


def matte(canvas: Canvas) -> tuple[np.ndarray, np.ndarray] | None:
    """(t, residual) per pixel: the paper share and what it leaves unexplained (in /255 units,
    the length of I1 - I2 across the papers' change). None unless both renders and one paper.
    Computed once per canvas (several readings of one reply share it)."""
    if canvas not in _MATTES:
        _MATTES[canvas] = _matte(canvas)
    return _MATTES[canvas]


_MATTES: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def _matte(canvas: Canvas) -> tuple[np.ndarray, np.ndarray] | None:
    pair = papers(canvas)
    twin = canvas.twin
    if pair is None or twin is None or not twin.ok or canvas.rgba is None or twin.rgba is None:
        return None
    if canvas.rgba.shape != twin.rgba.shape:
        return None
    b1, b2 = pair
    change = b1 - b2
    difference = canvas.rgba[..., :3].astype(np.float64) - twin.rgba[..., :3].astype(np.float64)
    share = difference @ change / float(change @ change)
    residual = np.linalg.norm(difference - share[..., None] * change, axis=-1)
    return share, residual


def paper_share(canvas: Canvas) -> np.ndarray | None:
    """Per pixel, the share of the paper's change that reaches it, clipped to [0, 1]."""
    found = matte(canvas)
    return None if found is None else np.clip(found[0], 0.0, 1.0)


def visible_paint(canvas: Canvas) -> np.ndarray | None:
    """(H, W) bool: pixels at least VISIBLE from the sketch's paper (on its own render)."""
    pair = papers(canvas)
    if pair is None or canvas.rgba is None:
        return None
    return np.linalg.norm(canvas.rgba[..., :3].astype(np.float64) - pair[0], axis=-1) >= VISIBLE


def paint_opacity(canvas: Canvas) -> float | None:
    """[0, 1]: the visible paint's mean opacity by matting (1 - paper share); 1 when the canvas
    cannot be matted (no single paper, or the twin failed: a sketch that does not paint the same
    picture on the two papers); None when a render failed on our side, or a painted canvas was
    never painted over a second paper (nothing to read: no verdict, not opaque)."""
    if canvas.infra_failure or (canvas.twin is not None and canvas.twin.infra_failure):
        return None
    if canvas.ok and canvas.twin_paper is None:
        return None
    share, paint = paper_share(canvas), visible_paint(canvas)
    if share is None or paint is None or not paint.any():
        return 1.0
    return float(1.0 - share[paint].mean())


def see_through(canvas: Canvas, opaque: float = 0.40, translucent: float = 0.20) -> float | None:
    """[0, 1]: paint the paper shows through, by its matted opacity: `opaque` -> 0, `translucent`
    -> 1 (a pale opaque fill reads opaque whatever its colour)."""
    opacity = paint_opacity(canvas)
    return None if opacity is None else ramp(opacity, opaque, translucent)


def paint_agreement(canvas: Canvas, trace: float = 2.0, explained: float = 20.0) -> float | None:
    """[0, 1]: of the pixels where paint shows on either paper (VISIBLE from it), the share that
    is the same paint on both: a trace of it (`trace` from the paper) on each, or, where it
    leaves no trace on one paper, a colour that mixing towards that paper explains (residual
    under `explained`: paint of the second paper's own colour vanishes on it). 1 for the same
    picture on both; low when a shape moved, vanished or changed colour with the paper. None
    without a matte."""
    found, pair, twin = matte(canvas), papers(canvas), canvas.twin
    if found is None or pair is None or twin is None:
        return None
    distances = [
        np.linalg.norm(image[..., :3].astype(np.float64) - paper, axis=-1)
        for image, paper in ((canvas.rgba, pair[0]), (twin.rgba, pair[1]))
    ]
    shown = (distances[0] >= VISIBLE) | (distances[1] >= VISIBLE)
    if not shown.any():
        return 1.0
    both = (distances[0] >= trace) & (distances[1] >= trace)
    same = both | (found[1] < explained)
    return float(same[shown].mean())


def behaves_alike(
    canvas: Canvas, agree: float = 0.6, spill: float = 0.1, most: float = 0.02
) -> bool:
    """True when the twin painted the same picture: it ran cleanly, its paint lies where the
    first's does (`paint_agreement` >= `agree`: a moved or missing shape does not), and at most
    `most` of the visible paint has a paper share beyond [-`spill`, 1 + `spill`], which no
    mixing of paint into paper gives (a colour changed with the paper)."""
    twin, found, paint = canvas.twin, matte(canvas), visible_paint(canvas)
    if twin is None or not twin.ok or found is None or paint is None:
        return False
    if paint_agreement(canvas) < agree:
        return False
    if not paint.any():
        return True
    outside = (found[0][paint] < -spill) | (found[0][paint] > 1 + spill)
    return float(outside.mean()) <= most


def show_through_factor(
    canvas: Canvas,
    floor: float = 0.2,
    opaque: float = 0.40,
    translucent: float = 0.20,
    **readings: object,
) -> float | None:
    """[0, 1]: `washes.wash_quality` x (`floor` + (1 - `floor`) x extent x `see_through`): layered,
    uneven washes the paper shows through; 0 for a sketch that paints differently on the two
    papers (`behaves_alike`), None when a render failed on our side."""
    if canvas.twin is not None and canvas.twin.infra_failure:
        return None
    v = painted_view(canvas)
    if v is None:
        return score_without_paint(canvas)
    if canvas.twin_paper is not None and not behaves_alike(canvas):
        return 0.0
    level = wash_quality(v, **readings)
    if level == 0:
        return 0.0
    seen = see_through(canvas, opaque, translucent)
    return None if seen is None else level * (floor + (1 - floor) * v.extent * seen)
