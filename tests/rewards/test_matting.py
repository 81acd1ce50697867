"""Opacity by matting (watercolor.rewards.matting): known alphas recovered in real Chromium, and
the pair's readings on pixels made here (no browser)."""

import asyncio
from dataclasses import replace

import numpy as np
import pytest
from synthetic_canvases import composite, paper, rgb, to_canvas

from watercolor.canvas import Canvas, Status
from watercolor.render import RenderConfig, RenderPool
from watercolor.rewards.matting import (
    behaves_alike,
    hex_rgb,
    matte,
    paint_opacity,
    paper_share,
    see_through,
    show_through_factor,
)
from watercolor.tasks.painting.harness import HARNESS

CREAM, SECOND = "#f6f0e3", "#1e3a5f"
P5_SQUARE = """function setup() {{
  createCanvas(256, 256, WEBGL);
  background("{paper}");
  noStroke();
  fill(192, 57, 43, {alpha});
  rect(-64, -64, 128, 128);
}}"""
SIZE = 64


def pair(first: np.ndarray, second: np.ndarray, paper_rgb=(246, 240, 227)) -> Canvas:
    """A Canvas of `first` (painted over `paper_rgb`) whose twin is `second` (over SECOND)."""
    twin = to_canvas(second)
    return replace(to_canvas(first), papers=[(*paper_rgb, 255)], twin=twin, twin_paper=SECOND)


def square(background: str, alpha: float, colour: str = "#c0392b") -> np.ndarray:
    mask = np.zeros((SIZE, SIZE))
    mask[16:48, 16:48] = alpha
    return composite(paper(SIZE, background), colour, mask)


@pytest.mark.browser
@pytest.mark.parametrize("alpha", [0, 64, 128, 192, 255])
def test_plain_p5_fills_recover_their_alpha(alpha):
    """p5's own fills composite alpha-over: the matte gives a/255 within 0.02, 0 outside."""

    async def render() -> Canvas:
        config = RenderConfig(size=256, workers=1, time_limit_s=30.0)
        async with RenderPool(config, HARNESS) as pool:
            code = P5_SQUARE.format(paper=CREAM, alpha=alpha)
            first = await pool.render(code, seed=0)
            twin = await pool.render(code, seed=0, paper=SECOND)
        return replace(first, twin=twin, twin_paper=SECOND)

    canvas = asyncio.run(render())
    share = paper_share(canvas)
    assert share is not None, canvas.errors
    inside = 1 - share[112:144, 112:144]
    assert np.abs(inside - alpha / 255).max() <= 0.02
    assert np.abs(share[:40, :40] - 1).max() == 0  # bare paper: all of its change arrives


@pytest.mark.parametrize("alpha", [0.0, 0.3, 0.6, 1.0])
def test_alpha_over_is_read_exactly(alpha):
    canvas = pair(square(CREAM, alpha), square(SECOND, alpha))
    share, residual = matte(canvas)
    assert share[32, 32] == pytest.approx(1 - alpha, abs=0.01)
    assert residual[32, 32] < 1.5


def test_a_pale_opaque_fill_reads_opaque_whatever_its_colour():
    pale = square(CREAM, 1.0, "#f3d9d2")
    canvas = pair(pale, square(SECOND, 1.0, "#f3d9d2"))
    assert paint_opacity(canvas) == pytest.approx(1.0, abs=0.01)
    assert see_through(canvas) == 0.0
    glaze = pair(square(CREAM, 0.25), square(SECOND, 0.25))
    assert paint_opacity(glaze) == pytest.approx(0.25, abs=0.02)
    assert see_through(glaze) > 0.0


def test_a_sketch_that_paints_another_picture_on_the_second_paper_scores_zero():
    """A shape moved on the twin (what a sketch that knew its paper could do) is caught."""
    moved = np.roll(square(SECOND, 0.3), 10, axis=1)
    canvas = pair(square(CREAM, 0.3), moved)
    assert not behaves_alike(canvas)
    assert show_through_factor(canvas) == 0.0
    assert behaves_alike(pair(square(CREAM, 0.3), square(SECOND, 0.3)))


def test_no_single_paper_reads_opaque_and_a_failed_twin_is_no_verdict():
    canvas = pair(square(CREAM, 0.3), square(SECOND, 0.3))
    assert paint_opacity(replace(canvas, papers=[])) == 1.0  # no background(): nothing to matte
    assert paint_opacity(replace(canvas, papers=[(1, 2, 3, 255), (4, 5, 6, 255)])) == 1.0
    assert paint_opacity(replace(canvas, papers=[(30, 58, 95, 255)])) == 1.0  # the twin's paper
    broken = replace(canvas, twin=Canvas(Status.INFRA_ERROR, errors=["browser gone"]))
    assert paint_opacity(broken) is None and show_through_factor(broken) is None
    threw = replace(canvas, twin=Canvas(Status.ERROR, errors=["TypeError"]))
    assert not behaves_alike(threw) and show_through_factor(threw) == 0.0


def test_a_painted_canvas_never_painted_over_a_second_paper_is_no_verdict_not_opaque():
    alone = to_canvas(square(CREAM, 0.3))
    assert alone.ok and paint_opacity(alone) is None and see_through(alone) is None
    assert paint_opacity(pair(square(CREAM, 0.3), square(SECOND, 0.3))) < 1.0


def test_hex_rgb():
    assert list(hex_rgb("#1e3a5f")) == [30, 58, 95]
    assert list(rgb("#1e3a5f") * 255) == pytest.approx([30, 58, 95])
    with pytest.raises(ValueError, match="#rrggbb"):
        hex_rgb("blue")
