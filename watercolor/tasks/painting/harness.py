"""Painting's harness: one HTML document with p5.js, p5.brush and `harness/harness.js` inlined.

    >>> from watercolor.tasks.painting.harness import harness
    >>> html = harness().document()
    >>> "p5.brush" in html and "__watercolor" in html
    True

`harness/harness.js` is the in-page half of the renderer for a p5 sketch (the pool's half, with
the sandbox, time and memory bounds: `watercolor.render.pool`).

What a sketch gets: p5 global mode, a `size` x `size` WEBGL canvas (`createCanvas` with any size
up to twice the configured one is made at the configured size, centred as WEBGL is, so a
sketch for another size is cropped or padded; a larger request, a 2D canvas or no canvas at
all is an error), `pixelDensity(config.pixel_density)` (the sketch's own calls are ignored),
`max_frames` calls of `draw()` (then `noLoop()`), and `Math.random`, `random()`, `noise()` and
p5.brush's generators seeded from `seed` (the clock is not frozen: a sketch that seeds from
`Date.now()` is not reproducible). The pixels are read from the p5 canvas with `toDataURL()`
in the task that drew the last frame (never a screenshot), so elements laid over the canvas do
not count.

The document is built once per process; conf/task/painting.yaml hands it to the render pool
through the `Task` (`Task.harness`).
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

from watercolor.render.page_harness import Harness, fill_template
from watercolor.tasks.painting.assets import BRUSH_JS, P5_JS, library_source

HARNESS_DIR = Path(__file__).parent / "harness"


@cache
def document() -> str:
    """The complete harness document (built once per process)."""
    return fill_template(
        HARNESS_DIR / "harness.html",
        {
            "/*P5*/": library_source(P5_JS),
            "/*BRUSH*/": library_source(BRUSH_JS),
            "/*HARNESS*/": (HARNESS_DIR / "harness.js").read_text(encoding="utf-8"),
        },
    )


def harness() -> Harness:
    """The p5.js + p5.brush harness (its document is read on the first page load)."""
    return HARNESS


HARNESS = Harness("p5.brush", document)
