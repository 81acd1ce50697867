"""The default score (gate x paint coverage), table-driven on small fixture images."""

import io

import numpy as np
import pytest
from PIL import Image

from watercolor.canvas import Canvas, Status
from watercolor.env.step_reward import gated_coverage

CREAM = (250, 243, 227, 255)


def sheet(painted_fraction: float, size: int = 20) -> np.ndarray:
    """A cream sheet whose first rows are painted blue, plus faint paper noise."""
    rgba = np.tile(np.array(CREAM, dtype=np.uint8), (size, size, 1))
    rgba[: int(size * painted_fraction)] = (40, 80, 160, 255)
    rgba[-1, -1, :3] -= 3  # below the tolerance: still paper
    return rgba


def png(rgba: np.ndarray) -> bytes:
    buffer = io.BytesIO()
    Image.fromarray(rgba, "RGBA").save(buffer, format="PNG")
    return buffer.getvalue()


@pytest.mark.parametrize(
    ("canvas", "expected"),
    [
        (Canvas(status=Status.OK, png=png(sheet(0.25))), 0.25),
        (Canvas(status=Status.OK, png=png(sheet(0.25)), violations=["x"]), 0.0),
        (Canvas(status=Status.VIOLATION, png=png(sheet(0.25)), violations=["blank_canvas"]), 0.0),
        (Canvas(status=Status.ERROR, errors=["ReferenceError"]), 0.0),
        (Canvas(status=Status.TIMEOUT), 0.0),
        (Canvas(status=Status.CRASHED), 0.0),
        (Canvas(status=Status.OK), 0.0),  # ok without pixels cannot be paint
        (Canvas(status=Status.INFRA_ERROR, errors=["browser gone"]), None),
    ],
)
def test_gate_times_coverage(canvas, expected):
    score = gated_coverage(canvas, "a peach hibiscus")
    assert score == (pytest.approx(expected) if expected is not None else None)
