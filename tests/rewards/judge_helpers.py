"""Small PNGs and canvases for the judge and HPSv3 tests; a judge whose verdicts a test scripts."""

from __future__ import annotations

import io
import threading
from collections.abc import Callable

import numpy as np
from PIL import Image

from watercolor.canvas import Canvas, Status


def png_of(colour: tuple[int, int, int], size: int = 24) -> bytes:
    """A small opaque PNG of one colour (distinct colours give distinct bytes)."""
    buffer = io.BytesIO()
    Image.fromarray(np.full((size, size, 3), colour, np.uint8), "RGB").save(buffer, format="PNG")
    return buffer.getvalue()


def canvas_of(colour: tuple[int, int, int], reply: str = "") -> Canvas:
    return Canvas(status=Status.OK, png=png_of(colour), reply=reply or f"paint {colour}")


class ScriptedJudge:
    """A deterministic judge: `decide(a_png, b_png)` gives each verdict; every call is kept.

    It tests the aggregation (orders, ties, splits, failures), not any judging.
    """

    def __init__(self, decide: Callable[[bytes, bytes], str | None], concurrency: int = 1):
        self.decide, self.concurrency = decide, concurrency
        self.calls: list[tuple[bytes, bytes]] = []
        self._lock = threading.Lock()

    def compare(self, a_png: bytes, b_png: bytes) -> str | None:
        with self._lock:
            self.calls.append((a_png, b_png))
        return self.decide(a_png, b_png)
