"""The environment's scores: a configured reward set (the default), or gate x paint coverage.

    >>> from watercolor.canvas import Canvas, Status
    >>> gated_coverage(Canvas(status=Status.VIOLATION, violations=["no_sketch"]))
    0.0
    >>> gated_coverage(Canvas(status=Status.INFRA_ERROR)) is None
    True

`CanvasEnvironment` takes any `score(canvas, prompt) -> Score | float | None` (sync or async).
The server scores with a reward set from conf/reward/ (`RewardSetScore`, `--reward NAME`,
default conf/train.yaml's), the same sets training uses: its `Score`'s total is the reward and
its components go into the feedback; the same set as an OpenEnv rubric tree
(`watercolor.env.rubric`) is what the environment exposes as its `rubric`. `gated_coverage` is
the simplest scorer there is (`CanvasEnvironment`'s default, a bare total), kept for quick checks.
Coverage is the share of the sheet that differs from the paper (`rewards.pixels.painted_fraction`).
"""

from __future__ import annotations

from watercolor.canvas import Canvas
from watercolor.env.rubric import RewardSetRubric
from watercolor.rewards.pixels import painted_fraction
from watercolor.rewards.reward_set import RewardSet, Score


def gated_coverage(canvas: Canvas, prompt: str = "") -> float | None:
    """In [0, 1]: paint coverage if the render is clean, else 0; None for infrastructure failures.

    `prompt` is unused here but part of the scorer contract (colour adherence reads it).
    """
    if canvas.infra_failure:
        return None
    if not canvas.ok or canvas.violations or canvas.rgba is None:
        return 0.0
    return painted_fraction(canvas.rgba)


class RewardSetScore:
    """A reward set as the environment's scorer: the set's `Score` (total None: no verdict), and
    the same set as an OpenEnv rubric tree (`rubric`, which the environment exposes)."""

    def __init__(self, rewards: RewardSet) -> None:
        self.rewards = rewards
        self.rubric = RewardSetRubric(rewards)

    def __call__(self, canvas: Canvas, prompt: str = "") -> Score:
        return self.rewards.score(canvas, prompt=prompt)
