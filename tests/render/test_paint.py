"""A real p5.brush watercolour through real Chromium: pixels, determinism, frames, sizes."""

import numpy as np
import pytest
from render_sketches import SIZE, WATERCOLOUR, painted_fraction, sketch, within_tolerance

from watercolor.canvas import Status
from watercolor.render import RenderConfig, RenderPool
from watercolor.tasks.painting.harness import HARNESS

pytestmark = pytest.mark.browser


async def test_watercolour_paints_translucent_layers(pool):
    canvas = await pool.render(WATERCOLOUR, seed=3)
    assert canvas.status == Status.OK, canvas.errors
    assert canvas.errors == [] and canvas.sketch == WATERCOLOUR and canvas.seed == 3
    rgba = canvas.rgba
    assert rgba.shape == (SIZE, SIZE, 4)
    assert 0.05 < painted_fraction(rgba) < 0.9
    # Each wash shows its own hue: pinkish (red > blue) and bluish (blue > red) regions.
    red, blue = rgba[..., 0].astype(int), rgba[..., 2].astype(int)
    assert ((red - blue) > 60).mean() > 0.01 and ((blue - red) > 30).mean() > 0.01
    assert set(canvas.timings) >= {"load_ms", "draw_ms", "total_ms"}
    assert 0 < canvas.timings["draw_ms"] <= canvas.timings["total_ms"]


async def test_same_seed_same_picture_other_seed_differs(pool):
    first, again, other = await pool.render_batch([WATERCOLOUR] * 3, seeds=[7, 7, 8])
    assert [c.status for c in (first, again, other)] == [Status.OK] * 3
    assert within_tolerance(first.rgba, again.rgba)
    assert (np.abs(first.rgba.astype(int) - other.rgba.astype(int)).max(axis=2) > 0).mean() > 0.05


async def test_math_random_and_p5_random_are_seeded(pool):
    code = sketch("background(Math.random() * 255, random(255), noise(0.5) * 255);")
    a, b, c = await pool.render_batch([code] * 3, seeds=[1, 1, 2])
    assert a.rgba[0, 0].tolist() == b.rgba[0, 0].tolist() != c.rgba[0, 0].tolist()


async def test_animated_sketch_stops_after_max_frames(pool):
    # Each frame paints a grey that encodes frameCount; the default max_frames is 3.
    canvas = await pool.render(sketch("", draw="background(frameCount * 40);"))
    assert canvas.status == Status.OK, canvas.errors
    assert canvas.rgba[SIZE // 2, SIZE // 2, :3].tolist() == [120, 120, 120]


async def test_no_loop_in_setup_draws_once(pool):
    canvas = await pool.render(sketch("noLoop();", draw="background(0, 0, 255);"))
    assert canvas.status == Status.OK, canvas.errors
    assert canvas.rgba[5, 5, :3].tolist() == [0, 0, 255]


async def test_element_over_the_canvas_is_not_in_the_pixels(pool):
    cover = """
  const cover = document.createElement("div");
  cover.style.cssText = "position:fixed;inset:0;background:#ff0000;z-index:9999";
  document.body.appendChild(cover);"""
    canvas = await pool.render(sketch(cover))
    assert canvas.status == Status.OK, canvas.errors
    assert canvas.rgba[SIZE // 2, SIZE // 2, :3].tolist() == [244, 236, 216]


async def test_other_canvas_size_is_made_at_the_configured_size(pool):
    code = sketch("").replace(f"createCanvas({SIZE}, {SIZE}", "createCanvas(300, 200")
    canvas = await pool.render(code)
    assert canvas.status == Status.OK, canvas.errors
    assert canvas.rgba.shape == (SIZE, SIZE, 4)
    assert canvas.notes == [
        f"createCanvas(300, 200) made a {SIZE}x{SIZE} canvas: the renderer sets the canvas size "
        "(the drawing is centred, so it is cropped or padded)"
    ]
    assert canvas.to_json()["notes"] == canvas.notes
    assert (await pool.render(sketch(""))).notes == []  # the configured size: nothing to say


async def test_pixel_density_scales_pixels_not_coordinates():
    config = RenderConfig(size=SIZE, pixel_density=0.5, workers=1)
    async with RenderPool(config, HARNESS) as half:
        # The sketch's own pixelDensity(2) is ignored: the configuration decides.
        canvas = await half.render(
            sketch("pixelDensity(2); fill(0); noStroke(); rect(0, 0, 128, 128);")
        )
    assert canvas.status == Status.OK, canvas.errors
    assert canvas.rgba.shape == (SIZE // 2, SIZE // 2, 4)
    # WEBGL origin is the centre: the bottom-right quadrant is black, the top-left is paper.
    assert canvas.rgba[100, 100, :3].tolist() == [0, 0, 0]
    assert canvas.rgba[20, 20, :3].tolist() == [244, 236, 216]


async def test_a_megabyte_of_code_renders(pool):
    padding = ("// " + "x" * 1000 + "\n") * 1000
    canvas = await pool.render(padding + sketch("background(10, 200, 30);"))
    assert canvas.status == Status.OK, canvas.errors
    assert canvas.rgba[0, 0, :3].tolist() == [10, 200, 30]


async def test_a_sketch_that_throws_after_painting_keeps_its_paint(pool):
    # The error is the verdict (status error, with its message); the pixels stay for rewards
    # that pay for them (an ungated set) or not (a gate on clean execution).
    thrower = WATERCOLOUR.rstrip().removesuffix("}") + "  drawPetals(0, 0, 80);\n}\n"
    canvas = await pool.render(thrower, seed=3)
    assert canvas.status == Status.ERROR and "drawPetals is not defined" in canvas.errors[0]
    assert canvas.png is not None and 0.05 < painted_fraction(canvas.rgba) < 0.9
    before_canvas = await pool.render("throw new Error('before any canvas');", seed=3)
    assert before_canvas.status == Status.ERROR and before_canvas.png is None
