"""The second paper (painting's harness): only `background()` changes, and no pixel reaches the
sketch, so it cannot tell which paper it is on (watercolor.rewards.matting reads the pair)."""

import numpy as np
import pytest
from render_sketches import PAPER, WATERCOLOUR, sketch

from watercolor.canvas import Status

pytestmark = pytest.mark.browser

SECOND = "#1e3a5f"
# Each is a way a sketch could read its paper back: all refused with one clear error.
READBACK = {
    "get()": "get(0, 0);",
    "loadPixels()": "loadPixels();",
    "WebGL readPixels": "drawingContext.readPixels(0, 0, 1, 1, 6408, 5121, new Uint8Array(4));",
    "the clear colour": "drawingContext.getParameter(drawingContext.COLOR_CLEAR_VALUE);",
    "toDataURL": "drawingContext.canvas.toDataURL();",
    "toBlob": "drawingContext.canvas.toBlob(() => {});",
    "drawImage of the canvas": (
        "const c = new OffscreenCanvas(4, 4);"
        "c.getContext('2d').drawImage(drawingContext.canvas, 0, 0);"
    ),
    "createImageBitmap": "createImageBitmap(drawingContext.canvas);",
}


async def test_the_sketch_reports_its_paper(pool):
    canvas = await pool.render(WATERCOLOUR, seed=0)
    assert canvas.ok, canvas.errors
    assert canvas.papers == [(*PAPER, 255)]


async def test_only_the_paper_changes(pool):
    first = await pool.render(WATERCOLOUR, seed=0)
    second = await pool.render(WATERCOLOUR, seed=0, paper=SECOND)
    assert second.ok, second.errors
    assert second.papers == first.papers  # what the sketch asked for, not what it got
    corner_1, corner_2 = first.rgba[2, 2, :3], second.rgba[2, 2, :3]
    assert tuple(corner_1) == PAPER and tuple(corner_2) == (0x1E, 0x3A, 0x5F)
    painted = np.abs(first.rgba.astype(int) - second.rgba.astype(int)).sum(axis=-1)
    assert painted.min() < painted.max()  # paint hides some of the paper's change


@pytest.mark.parametrize("route", list(READBACK))
async def test_no_pixel_reaches_the_sketch(pool, route):
    canvas = await pool.render(sketch(READBACK[route]), seed=0)
    assert canvas.status is Status.ERROR, route
    assert any("reading pixels back" in e or "createImageBitmap" in e for e in canvas.errors), (
        canvas.errors
    )


async def test_p5_still_draws_its_own_images(pool):
    """p5 reads its own 2D images back (an empty texture for fills): that route stays open."""
    canvas = await pool.render(
        sketch("noStroke(); fill(200, 50, 40, 128); rect(-20, -20, 40, 40);")
    )
    assert canvas.ok, canvas.errors
