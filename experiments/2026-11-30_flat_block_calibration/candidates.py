"""Which pixel statistic tells p5.brush's flat fills from its layered washes? (the exploration)

Renders `--per-kind` corpus replies of kind "flat" and of kind "layered" with the training
renderer settings (conf/renderer/local.yaml: pixel density 0.5; time limit 30 s), computes
candidate statistics on the shared working view and prints each one's ROC AUC for "flat scores
higher", then the paint unevenness of the flat fills that keep p5.brush's default bleed and
texture on. The statistic shipped is `watercolor.analysis.behaviour.paint_unevenness` (its cut:
`python -m watercolor.analysis.behaviour`). Run from the repository root:

    .venv/bin/python experiments/2026-11-30_flat_block_calibration/candidates.py --per-kind 40
"""

import argparse
import asyncio
from dataclasses import replace

import numpy as np

from watercolor.analysis.behaviour import (
    corpus_replies,
    paint_unevenness,
    render_replies,
    roc_auc,
    training_render_config,
)
from watercolor.rewards.cheats import no_flat_regions
from watercolor.rewards.pixels import view
from watercolor.rewards.texture import edge_softness, edge_width, granulation, tone_count


def strength(v) -> float:
    return float(np.median(v.strength[v.paint]))


CANDIDATES = {  # higher = flatter
    "-paint_unevenness (shipped)": lambda c, v: -paint_unevenness(v),
    "median paint strength": lambda c, v: strength(v),
    "median strength / paint_unevenness": lambda c, v: strength(v) / paint_unevenness(v),
    "even share of wash interiors": lambda c, v: float(
        (v.unevenness[v.wash_interior] < 0.02).mean()
    ),
    "-no_flat_regions": lambda c, v: -no_flat_regions(c),
    "-edge_width": lambda c, v: -(edge_width(v) or 0.0),
    "-edge_softness": lambda c, v: -edge_softness(c),
    "-granulation": lambda c, v: -granulation(c),
    "-tone_count": lambda c, v: -tone_count(v),
    "hard-edge share of paint": lambda c, v: float((v.hard_edges & v.paint).sum() / v.paint.sum()),
}


def measured(kind: str, per_kind: int, seed: int) -> list:
    """(canvas, view) of the replies of `kind` that painted something with a wash interior."""
    canvases = asyncio.run(render_replies(corpus_replies(kind, per_kind, seed), render))
    pairs = [(c, view(c)) for c in canvases if c.ok]
    kept = [(c, v) for c, v in pairs if v is not None and v.painted and v.wash_interior.any()]
    print(f"{kind}: {len(kept)} of {per_kind} painted washes")
    return kept


parser = argparse.ArgumentParser()
parser.add_argument("--per-kind", type=int, default=40)
parser.add_argument("--seed", type=int, default=0)
args = parser.parse_args()
render = replace(training_render_config(), time_limit_s=30.0)  # a busy machine needs more
pairs = {kind: measured(kind, args.per_kind, args.seed) for kind in ("flat", "layered")}
for name, statistic in CANDIDATES.items():
    flat, layered = ([statistic(c, v) for c, v in pairs[kind]] for kind in ("flat", "layered"))
    print(f"AUC {roc_auc(flat, layered):.3f}  median flat {np.median(flat):8.4f}  "
          f"layered {np.median(layered):8.4f}  {name}")  # fmt: skip
bleeding = [c for c, _ in pairs["flat"] if "fillBleed(0)" not in c.sketch]
for label, group in (("bleed off", False), ("bleed on", True)):
    values = [paint_unevenness(v) for c, v in pairs["flat"] if (c in bleeding) == group]
    if values:
        print(f"flat fills, {label}: {len(values)}, paint unevenness "
              f"{min(values):.3f}-{max(values):.3f}")  # fmt: skip
