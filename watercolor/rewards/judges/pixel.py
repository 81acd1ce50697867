"""An offline pairwise judge: the painting with the higher fine-grained pixel score wins.

    >>> from watercolor.config import reward_set
    >>> from watercolor.rewards.judges import PixelJudge
    >>> judge = PixelJudge(reward_set("fine_grained"), margin=0.02)
    >>> judge.compare(love.png, nope.png), judge.compare(nope.png, love.png)
    ('A', 'B')

It stands in for the anchor's vision-language judge where no model server is at hand (laptops,
CI): each image is scored with a reward set (by default `conf/reward/fine_grained.yaml`, passed in
by `conf/reward/pixel_judge.yaml`) as a bare canvas, and the higher total wins; totals within
`margin` are a tie. The set's components that read the sketch or the prompt rather than the
pixels see the same empty values on both sides, so they cancel. Scores are cached by image
digest: a group's references are scored once, not once per comparison. Deterministic, so its
verdicts never depend on the presentation order.
"""

from __future__ import annotations

import hashlib
import threading

from watercolor.canvas import Canvas, Status
from watercolor.rewards.judges.judge import Verdict
from watercolor.rewards.reward_set import RewardSet

CACHE_SIZE = 4096  # image scores kept (a float per digest)


class PixelJudge:
    """Prefers the image whose `features` total is higher by more than `margin`."""

    concurrency = 1  # numpy-bound: threads would only contend for the cores

    def __init__(self, features: RewardSet | None = None, margin: float = 0.02) -> None:
        self._features = features
        self.margin = margin
        self._scores: dict[bytes, float | None] = {}
        self._lock = threading.Lock()

    @property
    def features(self) -> RewardSet:
        if self._features is None:  # composing here only works outside a running Hydra app
            from watercolor.config import reward_set

            self._features = reward_set("fine_grained")
        return self._features

    def score(self, png: bytes) -> float | None:
        """The features' total for one image (cached)."""
        key = hashlib.sha256(png).digest()
        with self._lock:
            if key in self._scores:
                return self._scores[key]
        value = self.features.score(Canvas(status=Status.OK, png=png)).total
        with self._lock:
            if len(self._scores) >= CACHE_SIZE:
                self._scores.pop(next(iter(self._scores)))  # the oldest entry
            self._scores[key] = value
        return value

    def compare(self, a_png: bytes, b_png: bytes) -> Verdict | None:
        a, b = self.score(a_png), self.score(b_png)
        if a is None or b is None:
            return None
        if abs(a - b) <= self.margin:
            return "tie"
        return "A" if a > b else "B"
