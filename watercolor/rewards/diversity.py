"""Group diversity: near-identical paintings within one GRPO group are penalised.

    >>> from watercolor.rewards.diversity import group_diversity
    >>> group_diversity([canvas_a, canvas_a_again, canvas_b])
    [0.0, 0.0, 1.0]

The anchor's runs collapsed to "takes of the same flower". This component sees the whole
group, so its signature differs from the per-canvas components:
`fn(canvases: list[Canvas], **params) -> list[float | None]`, one score per canvas, in order.
A `RewardSet` lists such functions under `group_components` and applies them in `score_batch`.
Each painting is reduced to a 16 x 16 OKLab thumbnail; its score is its RMS distance to the
nearest other painting of the group, relative to `distinct` (1 = clearly different).
"""

from __future__ import annotations

import numpy as np
from PIL import Image

from watercolor.canvas import Canvas
from watercolor.rewards.pixels import oklab, score_without_paint, view

THUMBNAIL = 16


def thumbnail(canvas: Canvas) -> np.ndarray | None:
    """A small OKLab image of the canvas (THUMBNAIL x THUMBNAIL x 3); None without pixels."""
    v = view(canvas)
    if v is None:
        return None
    image = Image.fromarray(np.round(v.rgb * 255).astype(np.uint8), "RGB")
    small = image.resize((THUMBNAIL, THUMBNAIL), Image.Resampling.BOX)
    return oklab(np.asarray(small, dtype=np.float32) / 255)


def group_diversity(canvases: list[Canvas], distinct: float = 0.03) -> list[float | None]:
    """[0, 1] each: distance to the nearest other painting in the group (0 = a near-copy)."""
    thumbs = [None if c.infra_failure else thumbnail(c) for c in canvases]
    present = [i for i, t in enumerate(thumbs) if t is not None]
    scores = [score_without_paint(c) for c in canvases]
    for i in present:
        others = [thumbs[j] for j in present if j != i]
        if not others:
            scores[i] = 1.0  # alone in its group: nothing to be a copy of
            continue
        nearest = min(float(np.sqrt(((thumbs[i] - t) ** 2).sum(-1).mean())) for t in others)
        scores[i] = min(1.0, nearest / distinct)
    return scores
