"""What a reply and its canvas *did*: per-sample behaviour measures and the summary built on them.

    >>> from watercolor.behaviour import BEHAVIOURS, behaviour_row, summarise_behaviour
    >>> behaviour_row(canvas, reply)
    {'executed': 1.0, 'clean_run': 1.0, 'flat_block': 0.0, 'layering': 0.62, ...}
    >>> summarise_behaviour(table)["flat_block_rate"]  # the mean of table["flat_block"]
    0.25

Each measure is a column of the evaluation table (one row per sample) and `BEHAVIOURS` maps
every summary metric to the column it is the mean of: summary = nanmean of the column over the
rows where it is not NaN. A measure that only means something for a painted canvas (status ok:
flat-block, layering, the style of the code that painted) is NaN on the other rows, so its
rate is over painted canvases. Infrastructure failures say nothing about the reply: NaN too.

The flat-block detector is calibrated on p5.brush's own flat fills: the corpus's "flat" replies
(opaque fills, bleed and texture mostly off) against its "layered" ones (translucent washes),
rendered as in training (pixel density 0.5). Reproduce the calibration (80 renders, ~4 min on
2 busy cores; experiments/2026-11-30_flat_block_calibration/ has the figures):

    python -m watercolor.behaviour --per-kind 40 --seed 0

`executed` is "ran and left paint": a clean run, or a sketch that painted and then threw (the
renderer keeps what it painted, status `error`); `clean_run` (`watercolor.rewards.execution.
clean_run`) is the clean runs alone. The painted-only measures read clean runs (status ok).

The code-read style measures read the reply's `brush.fill(...)` calls and wash calls: a flat
fill is opacity 255, a wash well under it (the corpus's layered kind uses 60-150).

`wash_load` is how much pigment the washes lay, read from the canvas
(`watercolor.rewards.translucency.wash_load`: the contrast-weighted mean Kubelka-Munk step
across the paint's edges; lower is lighter, more translucent washes; NaN on a clean run that left
no paint or no edge). `translucent_washes` is the reward component of the same name (0-1: light
washes, layered). Both read clean runs, like `layering`; they are the canvas's counterpart of
the code-read `style/mean_alpha`.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import math
import random
import re
import statistics
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import replace

import numpy as np
import pandas as pd
from hydra.utils import instantiate

from watercolor.canvas import Canvas, Status
from watercolor.config import compose_train
from watercolor.policy.corpus import make_example
from watercolor.render.painters import LocalPainter
from watercolor.render.pool import RenderConfig
from watercolor.rewards.execution import clean_run
from watercolor.rewards.pixels import View, view
from watercolor.rewards.texture import translucent_layering
from watercolor.rewards.translucency import translucent_washes, wash_load
from watercolor.tasks.painting.episode import paint
from watercolor.tasks.painting.harness import harness
from watercolor.tasks.painting.prompts import SPLITS, prompts

NAN = float("nan")

# Summary metric -> the per-sample column it is the mean of (the one list evaluate's summary,
# compare's matrix and its statistics read).
BEHAVIOURS: Mapping[str, str] = {
    "execution_rate": "executed",
    "clean_run_rate": "clean_run",
    "truncated_rate": "truncated",
    "flat_block_rate": "flat_block",
    "layering": "layering",
    "diversity": "diversity",
    "completion_tokens": "completion_tokens",
    "style/mean_alpha": "style/mean_alpha",
    "style/opaque_share": "style/opaque_share",
    "style/flat_style": "style/flat_style",
    "style/washes": "style/washes",
    "wash_load": "wash_load",
    "translucent_washes": "translucent_washes",
}

# --- code-read style ----------------------------------------------------------------------------

FILL = re.compile(r"brush\.fill\(([^)]*)\)")
WASH = re.compile(r"brush\.(endShape|circle)\(")
OPAQUE_ALPHA = 250  # a fill at this opacity or more is opaque (flat fills use 255)
FLAT_STYLE_ALPHA = 200  # a reply whose mean fill opacity is this or more is written flat


def fill_alphas(reply: str) -> list[float]:
    """Opacity (0-255) of each `brush.fill(r, g, b, a)` or `brush.fill(colour, a)` call."""
    found = []
    for args in FILL.findall(reply):
        parts = [p.strip() for p in args.split(",")]
        if len(parts) in (2, 4):  # colour (+ alpha); fills without an alpha say nothing
            with contextlib.suppress(ValueError):  # a variable or an expression: unreadable
                found.append(float(parts[-1]))
    return found


def wash_count(reply: str) -> int:
    """Shapes the reply fills: `brush.endShape(` and `brush.circle(` calls."""
    return len(WASH.findall(reply))


def style_measures(reply: str) -> dict[str, float]:
    """`style/<name>` of one reply: mean fill opacity, opaque share, flat style (0/1), washes."""
    alphas = fill_alphas(reply)
    mean = statistics.fmean(alphas) if alphas else NAN
    return {
        "style/mean_alpha": mean,
        "style/opaque_share": sum(a >= OPAQUE_ALPHA for a in alphas) / len(alphas)
        if alphas
        else NAN,
        "style/flat_style": float(mean >= FLAT_STYLE_ALPHA) if alphas else NAN,
        "style/washes": float(wash_count(reply)),
    }


# --- flat blocks --------------------------------------------------------------------------------

# Calibrated on corpus renders (experiments/2026-11-30_flat_block_calibration/): p5.brush's flat
# fills with bleed and texture off read at most 0.06 on `paint_unevenness`, its washes 0.10 or more.
FLAT_BLOCK_UNEVENNESS = 0.08


def paint_unevenness(v: View) -> float | None:
    """Median relative unevenness (`View.unevenness`) of the wash interiors; None without any.

    p5.brush shades every fill smoothly, which `View.unevenness` ignores; with bleed and texture
    off a fill is otherwise even, while translucent washes are blotchy, granular and pooled.
    (`rewards.texture.pigment_variation` pays for the same statistic, ramped.)
    """
    if not v.wash_interior.any():
        return None
    return float(np.median(v.unevenness[v.wash_interior]))


def flat_block(canvas: Canvas) -> float:
    """1.0 when a painted canvas is flat blocks (paint unevenness under FLAT_BLOCK_UNEVENNESS),
    0.0 when it is not (or paints lines only, no interior); NaN when it did not paint."""
    v = view(canvas) if canvas.ok else None
    if v is None or not v.painted:
        return NAN
    unevenness = paint_unevenness(v)
    return float(unevenness is not None and unevenness < FLAT_BLOCK_UNEVENNESS)


# --- calibration ------------------------------------------------------------------------------


def roc_auc(positives: Sequence[float], negatives: Sequence[float]) -> float:
    """Area under the ROC curve of a score that should be higher for `positives` (ties: 1/2).

    The Mann-Whitney form: the chance that a random positive outscores a random negative.
    """
    pos, neg = np.asarray(positives, float)[:, None], np.asarray(negatives, float)[None, :]
    return float(((pos > neg).sum() + 0.5 * (pos == neg).sum()) / (pos.size * neg.size))


def best_threshold(positives: Sequence[float], negatives: Sequence[float]) -> tuple[float, float]:
    """(threshold, balanced accuracy) of the cut `score >= threshold` that classifies best.

    Candidate cuts lie halfway between neighbouring observed scores, so the chosen one sits in
    the middle of the gap it exploits rather than on a sample.
    """
    pos, neg = np.asarray(positives, float), np.asarray(negatives, float)
    values = np.unique(np.concatenate([pos, neg]))
    cuts = (values[1:] + values[:-1]) / 2 if len(values) > 1 else values
    accuracy = [balanced_accuracy(pos, neg, cut) for cut in cuts]
    best = int(np.argmax(accuracy))
    return float(cuts[best]), float(accuracy[best])


def balanced_accuracy(positives: np.ndarray, negatives: np.ndarray, threshold: float) -> float:
    """Mean of the hit rate on `positives` (>= threshold) and on `negatives` (< threshold)."""
    return float(((positives >= threshold).mean() + (negatives < threshold).mean()) / 2)


def corpus_replies(kind: str, count: int, seed: int, split: str = "train") -> list[str]:
    """`count` corpus replies of `kind` for the prompts of `split`, seeded by (`seed`, kind, i)."""
    texts = prompts(split)
    return [
        make_example(kind, texts[i % len(texts)], random.Random(f"{seed}:{kind}:{i}")).reply
        for i in range(count)
    ]


async def render_replies(replies: Sequence[str], render: RenderConfig) -> list[Canvas]:
    """Each reply gated and rendered once (seed 0) in a fresh pool, closed afterwards."""
    painter = LocalPainter(render, paint, harness())
    try:
        return list(await asyncio.gather(*(painter(reply, 0) for reply in replies)))
    finally:
        await painter.close()


def training_render_config() -> RenderConfig:
    """The renderer settings training uses (conf/train.yaml's `renderer`, a RenderConfig)."""
    return instantiate(compose_train().renderer)


def painted_unevenness(canvases: Sequence[Canvas]) -> list[float]:
    """`paint_unevenness` of the canvases that painted wash interiors (the others left out)."""
    views = [view(c) for c in canvases if c.ok]
    values = [paint_unevenness(v) for v in views if v is not None and v.painted]
    return [value for value in values if value is not None]


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
    parser = argparse.ArgumentParser(description=main.__doc__)
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


# --- one row, one summary -----------------------------------------------------------------------


def _number(value: float | None) -> float:
    return NAN if value is None else float(value)


def painted_wash_load(canvas: Canvas) -> float:
    """`wash_load` of a clean run's paint (lower: lighter washes); NaN when it did not paint or
    its paint has no edge to measure across."""
    v = view(canvas) if canvas.ok else None
    if v is None or not v.painted:
        return NAN
    return _number(wash_load(v))


def executed(canvas: Canvas) -> bool:
    """The sketch ran and left paint on its sheet: a clean run (status ok), or one that threw
    after painting (status error, its pixels kept by the renderer). `clean_run` tells them apart."""
    if canvas.ok:
        return True
    v = view(canvas) if canvas.status == Status.ERROR else None
    return v is not None and v.painted


def behaviour_row(canvas: Canvas, reply: str) -> dict[str, float]:
    """The per-sample measures read from one render and its reply (see `BEHAVIOURS`)."""
    painted = canvas.ok
    row = {
        "executed": NAN if canvas.infra_failure else float(executed(canvas)),
        "clean_run": _number(clean_run(canvas)),
        "flat_block": flat_block(canvas),
        "layering": _number(translucent_layering(canvas)) if painted else NAN,
        "wash_load": painted_wash_load(canvas),
        "translucent_washes": _number(translucent_washes(canvas)) if painted else NAN,
    }
    style = style_measures(reply)
    return row | (style if painted else dict.fromkeys(style, NAN))


def summarise_behaviour(table: pd.DataFrame) -> dict[str, float]:
    """Each `BEHAVIOURS` metric: the mean of its column over the rows where it is not NaN."""
    return {name: nanmean(table[column]) for name, column in BEHAVIOURS.items() if column in table}


def nanmean(column: pd.Series) -> float:
    """Mean of the numeric values of a column (NaN, None and non-numbers left out); NaN if none."""
    values = pd.to_numeric(column, errors="coerce").astype(float).dropna()
    return float(values.mean()) if len(values) else NAN


if __name__ == "__main__":
    main()
