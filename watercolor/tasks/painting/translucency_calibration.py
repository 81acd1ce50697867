"""Calibrating the translucency component on p5.brush's own washes: see-through vs opaque.

    python -m watercolor.tasks.painting.translucency_calibration --pairs 30 --seed 0 --split train
    python -m watercolor.tasks.painting.translucency_calibration --pairs 30 --seed 1 --split heldout

Each pair is one composition of the tiny painter's corpus (`watercolor.tasks.painting.painter`:
the prompt's motif and palette, `sketches.layered` at quality 1, so every fill is in the
translucent band 60-150 and glazed in passes) painted twice with the same bleed and texture, at
the library's defaults (bleed 0.07, texture 0.8, border 0.5: no setter called) or above them:

- `translucent`: the washes as the writer wrote them (fill opacity 60-150);
- `opaque`: the same code with every fill at opacity 255.

Opacity is the only difference (the pairs are made in `watercolor.tasks.painting.twins`), so a
statistic that tells the two apart reads translucency, not bleed, grain or composition. Both
are gated and rendered by the task's episode with the training renderer (pixel density 0.5) and
a 30 s limit (busy cores), seed 0.
"""

from __future__ import annotations

import argparse
import asyncio
from collections.abc import Sequence
from dataclasses import replace

import numpy as np
import pandas as pd

from watercolor.analysis.behaviour import roc_auc
from watercolor.analysis.stats import LEVEL, RESAMPLES
from watercolor.canvas import Canvas
from watercolor.config import reward_set
from watercolor.rewards.pixels import view
from watercolor.rewards.reward_set import RewardSet
from watercolor.rewards.translucency import translucent_washes, wash_load
from watercolor.tasks.painting.calibration import render_replies, training_render_config

# The pairs it measures (their module since the reward audit paints them too), importable from
# here as before (the washes study's scripts, the tests).
from watercolor.tasks.painting.twins import opaque as opaque
from watercolor.tasks.painting.twins import pale as pale
from watercolor.tasks.painting.twins import wash_pair as wash_pair
from watercolor.tasks.painting.twins import wash_pairs


def measures(canvas: Canvas, prompt: str, sets: dict[str, RewardSet]) -> dict[str, float]:
    """The load statistic, the component and each set's total for one rendered reply."""
    v = view(canvas)
    load = wash_load(v) if canvas.ok and v is not None and v.painted else None
    row = {"wash_load": np.nan if load is None else load,
           "translucent_washes": translucent_washes(canvas)}  # fmt: skip
    totals = {name: rewards.score(canvas, prompt=prompt).total for name, rewards in sets.items()}
    return row | totals


def bootstrap_auc(
    translucent: np.ndarray, opaque: np.ndarray, resamples: int = RESAMPLES, seed: int = 0
) -> tuple[float, float, float]:
    """ROC AUC of "translucent scores higher" and its 95 % percentile interval, pairs resampled
    (a composition is the unit: both of its renders are drawn together)."""
    rng = np.random.default_rng(seed)
    draws = rng.integers(0, len(translucent), size=(resamples, len(translucent)))
    aucs = [roc_auc(translucent[d], opaque[d]) for d in draws]
    low, high = np.quantile(aucs, [(1 - LEVEL) / 2, (1 + LEVEL) / 2])
    return roc_auc(translucent, opaque), float(low), float(high)


def paired_difference(translucent: np.ndarray, opaque: np.ndarray, seed: int = 0) -> str:
    """Mean of translucent - opaque over pairs, with its 95 % bootstrap interval."""
    gaps = translucent - opaque
    rng = np.random.default_rng(seed)
    means = gaps[rng.integers(0, len(gaps), size=(RESAMPLES, len(gaps)))].mean(axis=1)
    low, high = np.quantile(means, [(1 - LEVEL) / 2, (1 + LEVEL) / 2])
    return f"{gaps.mean():+.3f} [{low:+.3f}, {high:+.3f}]"


def measure_pairs(
    pairs: Sequence[tuple[str, str, str]], sets: Sequence[str], time_limit_s: float
) -> pd.DataFrame:
    """One row per pair and class: status and `measures` (rendered as training renders)."""
    render = replace(training_render_config(), time_limit_s=time_limit_s)
    replies = [t for _, t, _ in pairs] + [o for _, _, o in pairs]
    canvases = asyncio.run(render_replies(replies, render))
    rewards = {name: reward_set(name) for name in sets}
    rows = []
    for i, canvas in enumerate(canvases):
        prompt = pairs[i % len(pairs)][0]
        kind = "translucent" if i < len(pairs) else "opaque"
        rows.append({"pair": i % len(pairs), "class": kind, "status": str(canvas.status),
                     **measures(canvas, prompt, rewards)})  # fmt: skip
    return pd.DataFrame(rows)


def report(table: pd.DataFrame, sets: Sequence[str]) -> None:
    """Print both classes' loads, the AUCs with intervals, the class medians and set totals."""
    wide = table.pivot(index="pair", columns="class")
    kept = wide[(wide["status"] == "ok").all(axis=1) & wide["wash_load"].notna().all(axis=1)]
    print(f"pairs measured: {len(kept)} of {len(wide)}; statuses "
          f"{table['status'].value_counts().to_dict()}")  # fmt: skip
    for name in ("translucent", "opaque"):
        print(f"wash_load {name:11s} {_spread(kept['wash_load'][name].to_numpy())}")
    light, heavy = (float(kept["wash_load"][k].median()) for k in ("translucent", "opaque"))
    print(f"class medians (the component's ramp: light -> 1, heavy -> 0): "
          f"light {light:.3f}, heavy {heavy:.3f}")  # fmt: skip
    for column, sign in (("wash_load", -1), ("translucent_washes", 1), *((s, 1) for s in sets)):
        t, o = (sign * kept[column][k].to_numpy(dtype=float) for k in ("translucent", "opaque"))
        auc, low, high = bootstrap_auc(t, o)
        mean = "" if sign < 0 else (f"  mean translucent {t.mean():.3f}, opaque {o.mean():.3f}, "
                                    f"paired gap {paired_difference(t, o)}")  # fmt: skip
        print(f"ROC AUC {auc:.3f} [{low:.3f}, {high:.3f}]  {'-' if sign < 0 else ''}{column}{mean}")


def _spread(values: np.ndarray) -> str:
    names = ("min", "p10", "p25", "median", "p75", "p90", "max")
    values = np.quantile(values, [0, 0.1, 0.25, 0.5, 0.75, 0.9, 1])
    return "  ".join(f"{name} {value:.3f}" for name, value in zip(names, values, strict=True))


def main(argv: Sequence[str] | None = None) -> pd.DataFrame:
    """Render translucent/opaque pairs, print the load statistic's and the component's ROC AUC
    (bootstrap 95 % intervals over pairs), the class medians and what each set pays each class."""
    parser = argparse.ArgumentParser(
        prog="python -m watercolor.tasks.painting.translucency_calibration",
        description=main.__doc__,
    )
    parser.add_argument("--pairs", type=int, default=30, help="compositions, each painted twice")
    parser.add_argument("--seed", type=int, default=0, help="composition seed")
    parser.add_argument("--split", default="train", help="prompt split the pairs answer")
    parser.add_argument("--rewards", default="fine_grained,translucent", help="sets to score")
    parser.add_argument("--time-limit", type=float, default=30.0, help="seconds per sketch")
    args = parser.parse_args(argv)
    sets = args.rewards.split(",") if args.rewards else []
    table = measure_pairs(wash_pairs(args.pairs, args.seed, args.split), sets, args.time_limit)
    report(table, sets)
    return table


if __name__ == "__main__":
    main()
