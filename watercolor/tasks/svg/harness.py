"""SVG's harness: one HTML document holding `harness/harness.js`, which rasterises an SVG.

    >>> from watercolor.tasks.svg.harness import harness
    >>> html = harness().document()
    >>> "__watercolor" in html and " src=" not in html
    True

What a reply's SVG gets: an opaque white sheet of `size * density` square pixels with the SVG
drawn over all of it. The document is written for a 600 x 600 viewBox; whatever box it
declares (its viewBox, else its width and height in pixels, else `size` x `size`) is scaled to
the whole canvas, and a box that is not square or not `size` is named in the canvas's `notes`.
The SVG is never put into the page: it is parsed inert (DOMParser), resized, and loaded as an
image from a blob: URL, so it runs no script and fetches nothing (no external images, fonts or
style sheets; the gate refuses all of those first, `watercolor.tasks.svg.gate`). A document
the browser cannot decode is an `error` saying so. `seed` and `max_frames` do not apply: an
SVG image is one still frame, drawn at time 0 (an animation's first values show; the gate
refuses animations). A `<foreignObject>` taints the canvas, so its pixels cannot be read: an
`error` naming it.

What this isolates: the pool's sandbox holds (network, files, time, memory:
`watercolor.render.pool`); the image route adds that no script of the SVG runs at all. It does
not isolate Chromium's SVG and image decoders themselves (a decoder bug is a renderer bug).

The document is built once per process and handed to the render pool as a `Harness`.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

from watercolor.render.page_harness import Harness, fill_template

HARNESS_DIR = Path(__file__).parent / "harness"


@cache
def document() -> str:
    """The complete harness document (built once per process)."""
    return fill_template(
        HARNESS_DIR / "harness.html",
        {"/*HARNESS*/": (HARNESS_DIR / "harness.js").read_text(encoding="utf-8")},
    )


def harness() -> Harness:
    """The SVG harness (its document is read on the first page load)."""
    return HARNESS


HARNESS = Harness("svg", document)
