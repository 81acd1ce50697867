"""The flat-block detector's calibration on painting's corpus: flat fills against layered washes.

    python -m watercolor.tasks.painting.calibration --per-kind 40 --seed 0

Renders `--per-kind` corpus replies of each kind ("flat": opaque fills, bleed and texture mostly
off; "layered": translucent washes) as training renders them (pixel density 0.5), and prints
each kind's paint unevenness (`watercolor.analysis.behaviour.paint_unevenness`), its ROC AUC, the
best cut and the shipped cut's (`FLAT_BLOCK_UNEVENNESS`) balanced accuracy (80 renders, ~4 min on 2
busy cores; experiments/2026-11-30_flat_block_calibration/ has the figures, made when this CLI was
`python -m watercolor.analysis.behaviour`). The measures themselves are the framework's
(`watercolor.analysis.behaviour`); the corpus and harness are painting's.
"""

from __future__ import annotations

import argparse
import asyncio
import math
import random
from collections import Counter
from collections.abc import Sequence
from dataclasses import replace
from functools import partial

import numpy as np
from hydra.utils import instantiate

from watercolor.analysis.behaviour import (
    FLAT_BLOCK_UNEVENNESS,
    balanced_accuracy,
    best_threshold,
    painted_unevenness,
    roc_auc,
)
from watercolor.canvas import Canvas
from watercolor.config import compose_train
from watercolor.render.pool import RenderConfig
from watercolor.render.renderers import LocalRenderer
from watercolor.tasks.painting.episode import paint
from watercolor.tasks.painting.harness import harness
from watercolor.tasks.painting.painter.corpus import make_example
from watercolor.tasks.painting.prompts import SPLITS, prompts


def corpus_replies(kind: str, count: int, seed: int, split: str = "train") -> list[str]:
    """`count` corpus replies of `kind` for the prompts of `split`, seeded by (`seed`, kind, i)."""
    texts = prompts(split)
    return [
        make_example(kind, texts[i % len(texts)], random.Random(f"{seed}:{kind}:{i}")).reply
        for i in range(count)
    ]


async def render_replies(
    replies: Sequence[str], render: RenderConfig, second_paper: str | None = None
) -> list[Canvas]:
    """Each reply gated and rendered once (seed 0) in a fresh pool, closed afterwards (and again
    over `second_paper` when given: `RewardSet.second_paper`)."""
    renderer = LocalRenderer(render, partial(paint, second_paper=second_paper), harness())
    try:
        return list(await asyncio.gather(*(renderer(reply, 0) for reply in replies)))
    finally:
        await renderer.close()


def training_render_config() -> RenderConfig:
    """The renderer settings training uses (conf/train.yaml's `renderer`, a RenderConfig)."""
    return instantiate(compose_train().renderer)


def renders_by_kind(
    per_kind: int, seed: int, render: RenderConfig, split: str = "train"
) -> dict[str, list[Canvas]]:
    """The canvases of `per_kind` corpus replies of each kind ("flat", "layered")."""
    return {
        kind: asyncio.run(render_replies(corpus_replies(kind, per_kind, seed, split), render))
        for kind in ("flat", "layered")
    }


def unevenness_by_kind(
    per_kind: int, seed: int, render: RenderConfig, split: str = "train"
) -> dict[str, list[float]]:
    """`painted_unevenness` of `per_kind` corpus replies of each kind ("flat", "layered")."""
    return {
        kind: painted_unevenness(canvases)
        for kind, canvases in renders_by_kind(per_kind, seed, render, split).items()
    }


def main(argv: Sequence[str] | None = None) -> None:
    """Calibrate the flat-block cut: render corpus flat fills and layered washes, print the
    paint unevenness of each kind, its ROC AUC, the best cut and the shipped cut's accuracy."""
    parser = argparse.ArgumentParser(
        prog="python -m watercolor.tasks.painting.calibration", description=main.__doc__
    )
    parser.add_argument("--per-kind", type=int, default=40, help="replies of each kind")
    parser.add_argument("--seed", type=int, default=0, help="corpus seed")
    parser.add_argument(
        "--split", default="train", choices=SPLITS, help="prompt split the replies answer"
    )
    parser.add_argument(
        "--time-limit",
        type=float,
        default=30.0,
        help="seconds per sketch (busy machines need more)",
    )
    args = parser.parse_args(argv)
    render = replace(training_render_config(), time_limit_s=args.time_limit)
    found = {}
    for kind, canvases in renders_by_kind(args.per_kind, args.seed, render, args.split).items():
        found[kind] = np.array(painted_unevenness(canvases))
        statuses = Counter(str(c.status) for c in canvases)
        print(f"{kind}: {len(found[kind])} measured of {args.per_kind}, status {dict(statuses)}")
    print(f"pixel density {render.pixel_density}, time limit {render.time_limit_s} s")
    report_calibration(found["flat"], found["layered"])


def report_calibration(flat: np.ndarray, layered: np.ndarray) -> None:
    """Print both kinds' unevenness, the ROC AUC, the best cut and the shipped cut's accuracy."""
    print(f"unevenness flat    {_spread(flat)}\nunevenness layered {_spread(layered)}")
    print(f"ROC AUC {roc_auc(layered, flat):.3f}")
    cut, accuracy = best_threshold(layered, flat)
    shipped = balanced_accuracy(layered, flat, FLAT_BLOCK_UNEVENNESS)
    print(f"best cut {cut:.4f} (balanced accuracy {accuracy:.3f}); "
          f"shipped {FLAT_BLOCK_UNEVENNESS} (balanced accuracy {shipped:.3f})")  # fmt: skip


def _spread(values: Sequence[float]) -> str:
    q = np.quantile(values, [0, 0.1, 0.5, 0.9, 1]) if len(values) else [math.nan] * 5
    return "min {:.3f}  p10 {:.3f}  median {:.3f}  p90 {:.3f}  max {:.3f}".format(*q)


if __name__ == "__main__":
    main()
