"""The show_through set on matched pairs: a translucent composition against its opaque and pale
opaque twins, painted over two papers.

    E=experiments/2026-12-05_show_through
    .venv/bin/python $E/pairs.py --split train --seed 0 --pairs 16
    .venv/bin/python $E/pairs.py --split heldout --seed 1 --pairs 24

Each composition of the translucency calibration's pairs (`watercolor.tasks.painting.twins`:
the corpus's layered washes, fills at opacity 60-150, bleed and texture at or above p5.brush's
defaults) painted three ways: `translucent` as written; `opaque`, every fill at opacity 255;
`pale`, every fill at opacity 255 in the colour the translucent fill shows over the sheet alone.
Each is rendered as training renders (pixel density 0.5, 30 s limit) over its own paper and again
over show_through's second paper, then per canvas: the matted paint opacity
(`matting.paint_opacity`), `show_through_factor`, and the totals of show_through, washes and
fine_grained; `twin - translucent` per pair with 95 % bootstrap intervals. The train split sets
the thresholds, the held-out split tests them.
"""

from __future__ import annotations

import argparse
import asyncio
import hashlib
import os
import pickle
from dataclasses import replace
from pathlib import Path

import pandas as pd

from watercolor.config import reward_set
from watercolor.rewards.matting import paint_agreement, paint_opacity
from watercolor.tasks.painting.calibration import render_replies, training_render_config
from watercolor.tasks.painting.translucency_calibration import paired_difference
from watercolor.tasks.painting.twins import opaque, pale, wash_pairs

SETS = ("show_through", "washes", "fine_grained")
CACHE = Path(os.environ.get("CANVAS_CACHE", "/tmp/show_through_cache"))
KINDS = ("translucent", "opaque", "pale")


def rendered(replies: list[str], second_paper: str) -> list:
    """The replies painted over both papers, kept in CANVAS_CACHE (pickled, keyed by the replies)
    so that the readings can be re-scored without rendering again."""
    key = hashlib.sha256("\0".join([second_paper, *replies]).encode()).hexdigest()[:16]
    path = CACHE / f"pairs-{key}.pkl"
    if path.exists():
        return pickle.loads(path.read_bytes())
    render = replace(training_render_config(), time_limit_s=30.0)
    canvases = asyncio.run(render_replies(replies, render, second_paper))
    CACHE.mkdir(parents=True, exist_ok=True)
    path.write_bytes(pickle.dumps(canvases))
    return canvases


def rows(pairs: int, seed: int, split: str) -> pd.DataFrame:
    triples = [(prompt, t, opaque(t), pale(t)) for prompt, t, _ in wash_pairs(pairs, seed, split)]
    replies = [reply for triple in triples for reply in triple[1:]]
    sets = {name: reward_set(name) for name in SETS}
    canvases = rendered(replies, sets["show_through"].second_paper)
    found = []
    for i, canvas in enumerate(canvases):
        pair, kind = divmod(i, len(KINDS))
        scores = {name: s.score(canvas, prompt=triples[pair][0]) for name, s in sets.items()}
        found.append({
            "pair": pair, "kind": KINDS[kind], "ok": canvas.ok,
            "twin_ok": canvas.twin is not None and canvas.twin.ok,
            "opacity": paint_opacity(canvas),
            "agreement": paint_agreement(canvas),
            "factor": scores["show_through"].components["show_through_factor"],
            **{name: score.total for name, score in scores.items()},
        })  # fmt: skip
    return pd.DataFrame(found)


def report(table: pd.DataFrame) -> None:
    wide = table.pivot(index="pair", columns="kind")
    kept = wide[wide["ok"].all(axis=1)]
    print(
        f"compositions with all three canvases clean: {len(kept)} of {len(wide)}; "
        f"twins clean: {int(table['twin_ok'].sum())} of {int(table['ok'].sum())}"
    )
    print(
        f"paint agreement of the two papers: min {table['agreement'].min():.3f}, "
        f"median {table['agreement'].median():.3f}"
    )
    for measure in ("opacity", "factor", *SETS):
        values = kept[measure].astype(float)
        means = ", ".join(f"{k} {values[k].mean():.3f}" for k in KINDS)
        print(f"{measure:>14}: {means}")
        for other in ("pale", "opaque"):
            gap = paired_difference(values["translucent"].to_numpy(), values[other].to_numpy())
            print(f"{'':>14}  translucent - {other} {gap}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--pairs", type=int, default=24)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--split", default="heldout")
    parser.add_argument("--csv", help="write the per-canvas table here")
    args = parser.parse_args()
    table = rows(args.pairs, args.seed, args.split)
    if args.csv:
        table.to_csv(args.csv, index=False, float_format="%.4f")
    report(table)


if __name__ == "__main__":
    main()
