"""HPSv3's reward mapping, and the clear error when its optional extra is missing.

The hpsv3 package is not installed on our machines (7B weights, GPU); the tests that need it
absent are skipped where it is installed.
"""

import importlib.util
import math

import pytest
from judge_helpers import canvas_of

from watercolor.canvas import Canvas, Status
from watercolor.rewards.hps import hpsv3_score, preference, require_hpsv3

HPSV3_MISSING = importlib.util.find_spec("hpsv3") is None


@pytest.mark.parametrize(
    ("mu", "expected"),
    [(0.0, 0.5), (4.0, 1 / (1 + math.exp(-1))), (-4.0, 1 / (1 + math.exp(1))),
     (8.0, 1 / (1 + math.exp(-2))), (1e4, 1.0), (-1e4, 0.0)],
)  # fmt: skip
def test_preference_is_sigmoid_of_mu_over_four(mu, expected):
    assert preference(mu) == pytest.approx(expected, abs=1e-12)


def test_preference_is_increasing_and_symmetric():
    values = [preference(mu) for mu in range(-12, 13)]
    assert values == sorted(values) and all(0 < v < 1 for v in values)
    assert preference(3.0) + preference(-3.0) == pytest.approx(1.0)
    assert preference(2.0, scale=2.0) == pytest.approx(preference(4.0))


@pytest.mark.skipif(not HPSV3_MISSING, reason="hpsv3 is installed here")
def test_a_missing_extra_names_the_extra():
    with pytest.raises(ImportError, match="pip install --no-deps hpsv3==1.0.0"):
        require_hpsv3()
    with pytest.raises(ImportError, match="pip install --no-deps hpsv3"):
        hpsv3_score(canvas_of((200, 60, 60)), prompt="a red square", device="cpu")


def test_no_verdict_and_no_pixels_need_no_model():
    assert hpsv3_score(Canvas(status=Status.INFRA_ERROR)) is None
    assert hpsv3_score(Canvas(status=Status.ERROR, errors=["TypeError"])) == 0.0
