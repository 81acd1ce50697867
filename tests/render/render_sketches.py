"""Sketch builders and pixel helpers shared by the render tests.

Sizes are 256 px where size does not matter (2-3x faster than 600 px). The time limit is short
so the hang tests stay quick, but long enough for a layered watercolour on a busy machine.
"""

import numpy as np

from watercolor.canvas import Status
from watercolor.render.pool import DETERMINISM_TOLERANCE, WALL_LIMIT_FACTOR

SIZE = 256
# Not 3 s (issue 35, measured 2026-12-05): the four hang cases spend their limit each (5 CPU-s,
# 20 of the fast tier's ~750 CPU-s; 3 s would save 8), while the 256 px layered watercolour the
# same pools render took 0.6-0.7 CPU-s here, and the wall-clock backstop is WALL_LIMIT_FACTOR
# times the limit: at 3 s it would stop that watercolour whenever the machine gives it less than
# ~8 % of a core for 9 s (CI has run at load ~14). 5 s keeps that margin for 1 % of the tier.
TIME_LIMIT_S = 5.0
PAPER = (244, 236, 216)
STOP_S = 1.5  # how long stopping a sketch may take beyond its limit


def sketch(setup_body: str, *, draw: str | None = None, before: str = "") -> str:
    """A global-mode sketch on a SIZE x SIZE WEBGL canvas with cream paper."""
    text = (
        f"{before}\nfunction setup() {{\n  createCanvas({SIZE}, {SIZE}, WEBGL);\n"
        f"  background({', '.join(map(str, PAPER))});\n{setup_body}\n}}\n"
    )
    if draw is not None:
        text += f"function draw() {{\n{draw}\n}}\n"
    return text


# Three translucent, bleeding, textured washes that overlap: a genuine p5.brush watercolour.
WATERCOLOUR = sketch("""
  brush.scaleBrushes(1.5);
  brush.noStroke();
  brush.fill("#e07a8f", 150); brush.fillBleed(0.25); brush.fillTexture(0.4, 0.3);
  brush.circle(-25, -10, 60);
  brush.fill("#5b8fd1", 140); brush.fillBleed(0.3); brush.fillTexture(0.5, 0.4);
  brush.beginShape();
  brush.vertex(-90, 60); brush.vertex(0, 25); brush.vertex(90, 65); brush.vertex(0, 100);
  brush.endShape(CLOSE);
  brush.fill("#f2c14e", 120); brush.fillBleed(0.2);
  brush.circle(40, -40, 40);
""")


def painted_fraction(rgba: np.ndarray, paper=PAPER, threshold: int = 12) -> float:
    """Share of pixels that differ from the paper colour by more than `threshold`."""
    difference = np.abs(rgba[..., :3].astype(int) - np.array(paper)).max(axis=2)
    return float((difference > threshold).mean())


def within_tolerance(a: np.ndarray, b: np.ndarray) -> bool:
    """Same code and seed: equal up to the renderer's stated `DETERMINISM_TOLERANCE`."""
    difference = np.abs(a.astype(int) - b.astype(int)).max(axis=2)
    share = (difference > 0).mean()
    return bool(
        share <= DETERMINISM_TOLERANCE["max_differing_fraction"]
        and difference.max() <= DETERMINISM_TOLERANCE["max_channel_difference"]
    )


def own_time_ms(canvas) -> float:
    """From the sketch's start to its verdict (not the wait for a page: after a time-out the
    pool starts a new browser, and the next sketch waits for it)."""
    return canvas.timings["total_ms"] - canvas.timings["load_ms"]


def assert_stopped_at_its_limit(canvas, limit_s: float = TIME_LIMIT_S) -> None:
    """A time-out once the sketch had had `limit_s` of CPU time, however long a busy machine
    took to give it that; or, where the machine gave it less in WALL_LIMIT_FACTOR times that
    of wall time (seen here at load ~12 on 2 cores), from the wall-clock backstop, and only
    then. Either way within STOP_S of the limit."""
    assert canvas.status == Status.TIMEOUT, canvas.errors
    cpu_ms, wall_limit_ms = canvas.timings["cpu_ms"], WALL_LIMIT_FACTOR * limit_s * 1000
    assert 0 < cpu_ms < (limit_s + STOP_S) * 1000, canvas.errors
    if any("wall-clock backstop" in error for error in canvas.errors):
        assert own_time_ms(canvas) >= wall_limit_ms, canvas.errors
    else:
        assert cpu_ms >= limit_s * 1000, canvas.errors
    assert own_time_ms(canvas) < wall_limit_ms + STOP_S * 1000, canvas.errors
