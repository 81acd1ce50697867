"""What a reply and its canvas *did*: per-sample behaviour measures and the summary built on them.

    >>> from watercolor.analysis.behaviour import BEHAVIOURS, behaviour_row, summarise_behaviour
    >>> behaviour_row(canvas, reply, task.style)
    {'executed': 1.0, 'clean_run': 1.0, 'flat_block': 0.0, 'layering': 0.62, ...}
    >>> summarise_behaviour(table)["flat_block_rate"]  # the mean of table["flat_block"]
    0.25

Each measure is a column of the evaluation table (one row per sample) and `BEHAVIOURS` maps
every summary metric to the column it is the mean of: summary = nanmean of the column over the
rows where it is not NaN. A measure that only means something for a painted canvas (status ok:
flat-block, layering, the style of the code that painted) is NaN on the other rows, so its
rate is over painted canvases. Infrastructure failures say nothing about the reply: NaN too.

These measures read the canvas (and the run's status), so they are every task's. The code-read
`style/<name>` measures are the task's own (`Task.style`: painting's read its `brush.fill`
opacities, watercolor/tasks/painting/style.py; SVG's its shapes' opacity); `behaviours(columns)`
is `BEHAVIOURS` with a task's other style columns added, the list evaluate's summary and
compare's statistics read.

What each measure reads (flat blocks and their calibration, `executed`, coverage and lightness,
`wash_load`, `paint_opacity`): the comments at the functions that compute them.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence

import numpy as np
import pandas as pd

from watercolor.canvas import Canvas, Status
from watercolor.rewards.execution import clean_run
from watercolor.rewards.matting import paint_opacity
from watercolor.rewards.pixels import View, view
from watercolor.rewards.texture import translucent_layering
from watercolor.rewards.translucency import translucent_washes, wash_load

NAN = float("nan")

# Summary metric -> the per-sample column it is the mean of (the one list evaluate's summary,
# compare's matrix and its statistics read).
BEHAVIOURS: Mapping[str, str] = {
    "execution_rate": "executed",
    "clean_run_rate": "clean_run",
    "truncated_rate": "truncated",
    "flat_block_rate": "flat_block",
    "layering": "layering",
    "coverage": "coverage",
    "lightness": "lightness",
    "diversity": "diversity",
    "completion_tokens": "completion_tokens",
    "style/mean_alpha": "style/mean_alpha",
    "style/opaque_share": "style/opaque_share",
    "style/flat_style": "style/flat_style",
    "style/washes": "style/washes",
    "wash_load": "wash_load",
    "translucent_washes": "translucent_washes",
    "paint_opacity": "paint_opacity",
}

# --- flat blocks --------------------------------------------------------------------------------

# The flat-block detector is calibrated on p5.brush's own flat fills: painting's corpus "flat"
# replies (opaque fills, bleed and texture mostly off) against its "layered" ones (translucent
# washes), rendered as in training (pixel density 0.5); reproduce it with `python -m
# watercolor.tasks.painting.calibration --per-kind 40 --seed 0`
# (experiments/2026-11-30_flat_block_calibration/ has the figures). It was not calibrated on any
# other task's fills: an SVG fill is flat by construction, so it reads as a flat block there.
#
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


def painted_unevenness(canvases: Sequence[Canvas]) -> list[float]:
    """`paint_unevenness` of the canvases that painted wash interiors (the others left out)."""
    views = [view(c) for c in canvases if c.ok]
    values = [paint_unevenness(v) for v in views if v is not None and v.painted]
    return [value for value in values if value is not None]


# --- one row, one summary -----------------------------------------------------------------------


def _number(value: float | None) -> float:
    return NAN if value is None else float(value)


# `wash_load` is how much pigment the washes lay, read from the canvas
# (`watercolor.rewards.translucency.wash_load`: the contrast-weighted mean Kubelka-Munk step across
# the paint's edges; lower is lighter, more translucent washes; NaN on a clean run that left no
# paint or no edge). `translucent_washes` is the reward component of the same name (0-1: light
# washes, layered). Both read clean runs, like `layering`; they are the canvas's counterpart of
# painting's code-read `style/mean_alpha`.
def painted_wash_load(canvas: Canvas) -> float:
    """`wash_load` of a clean run's paint (lower: lighter washes); NaN when it did not paint or
    its paint has no edge to measure across."""
    v = view(canvas) if canvas.ok else None
    if v is None or not v.painted:
        return NAN
    return _number(wash_load(v))


# `coverage` is the share of the sheet a clean run painted, `lightness` its paint's mean OKLab
# lightness (0 black, 1 white): pale colour reads light, and only `paint_opacity` tells it from
# paint the paper shows through.
def painted_share(canvas: Canvas) -> float:
    """The share of the sheet a clean run painted (`View.coverage`); NaN when it did not run
    cleanly."""
    v = view(canvas) if canvas.ok else None
    return NAN if v is None else v.coverage


def paint_lightness(canvas: Canvas) -> float:
    """The mean OKLab lightness (0 black, 1 white) of a clean run's paint: pale washes read
    high, dark opaque blocks low; NaN when it did not run cleanly or left no paint."""
    v = view(canvas) if canvas.ok else None
    if v is None or not v.paint.any():
        return NAN
    return float(v.lab[..., 0][v.paint].mean())


# `executed` is "ran and left paint": a clean run, or a sketch that painted and then threw (the
# renderer keeps what it painted, status `error`); `clean_run` (`watercolor.rewards.execution.
# clean_run`) is the clean runs alone. The painted-only measures read clean runs (status ok).
def executed(canvas: Canvas) -> bool:
    """The sketch ran and left paint on its sheet: a clean run (status ok), or one that threw
    after painting (status error, its pixels kept by the renderer). `clean_run` tells them apart."""
    if canvas.ok:
        return True
    v = view(canvas) if canvas.status == Status.ERROR else None
    return v is not None and v.painted


# `paint_opacity` is the visible paint's mean opacity by matting (`watercolor.rewards.matting`),
# read only where the canvas was also painted over a second paper (an evaluation that scores a set
# naming `second_paper`); NaN elsewhere.
def behaviour_row(
    canvas: Canvas, reply: str, style: Callable[[str], dict[str, float]] | None = None
) -> dict[str, float]:
    """The per-sample measures read from one render and its reply (see `BEHAVIOURS`); `style`
    (the task's `Task.style`) adds its code-read `style/<name>` measures of a clean run."""
    painted = canvas.ok
    row = {
        "executed": NAN if canvas.infra_failure else float(executed(canvas)),
        "clean_run": _number(clean_run(canvas)),
        "flat_block": flat_block(canvas),
        "layering": _number(translucent_layering(canvas)) if painted else NAN,
        "coverage": painted_share(canvas),
        "lightness": paint_lightness(canvas),
        "wash_load": painted_wash_load(canvas),
        "translucent_washes": _number(translucent_washes(canvas)) if painted else NAN,
        # matted opacity: only where the canvas was painted over a second paper too
        "paint_opacity": _number(paint_opacity(canvas)) if painted and canvas.twin else NAN,
    }
    if style is None:
        return row
    measures = style(reply)
    return row | (measures if painted else dict.fromkeys(measures, NAN))


def behaviours(columns: Iterable[str]) -> dict[str, str]:
    """`BEHAVIOURS`, then every other code-read `style/<name>` column among `columns` (a task's
    own, `Task.style`), each the summary metric of its own name."""
    extra = [c for c in columns if c.startswith("style/") and c not in BEHAVIOURS.values()]
    return {**BEHAVIOURS, **{column: column for column in dict.fromkeys(extra)}}


def summarise_behaviour(table: pd.DataFrame) -> dict[str, float]:
    """Each metric of `behaviours(table)`: the mean of its column over the rows where it is not
    NaN."""
    found = behaviours(table.columns).items()
    return {name: nanmean(table[column]) for name, column in found if column in table}


def nanmean(column: pd.Series) -> float:
    """Mean of the numeric values of a column (NaN, None and non-numbers left out); NaN if none."""
    values = pd.to_numeric(column, errors="coerce").astype(float).dropna()
    return float(values.mean()) if len(values) else NAN
