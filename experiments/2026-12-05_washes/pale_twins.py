"""A check of the write-up's explanation (after the results; its prediction in README.md, written
before this ran): does `washes` pay a pale opaque fill as it pays a translucent one?

    .venv/bin/python experiments/2026-12-05_washes/pale_twins.py [--pairs 24] [--seed 1]

Each composition of the translucency calibration's held-out pairs
(`watercolor.tasks.painting.translucency_calibration.wash_pairs`: the corpus's layered washes,
fills at opacity 60-150, bleed and texture at or above p5.brush's defaults) painted three ways:

- `translucent`: as written;
- `opaque`: every fill at opacity 255 (the calibration's twin);
- `pale`: every fill at opacity 255 in the colour the translucent fill would show over the sheet
  by itself, `paper + (colour - paper) x alpha / 255` (the sheet: the sketch's `background`), so
  a wash's own pigment is as light as its translucent twin's, and an overlap hides what is under
  it as an opaque fill does.

Rendered as training renders (the calibration's `render_replies`, pixel density 0.5, 30 s
limit), then per canvas `wash_load`, `translucent_washes` and the totals of `washes` and
`fine_grained`; `pale - translucent` and `opaque - translucent` per pair with 95 % bootstrap
intervals (the calibration's `paired_difference`).
"""

from __future__ import annotations

import argparse
import asyncio
from dataclasses import replace

import pandas as pd

from watercolor.config import reward_set
from watercolor.tasks.painting.calibration import render_replies, training_render_config
from watercolor.tasks.painting.translucency_calibration import (
    measures,
    opaque,
    paired_difference,
    pale,
    wash_pairs,
)

SETS = ("washes", "fine_grained")
KINDS = ("translucent", "opaque", "pale")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--pairs", type=int, default=24)
    parser.add_argument("--seed", type=int, default=1)  # the calibration's held-out seed
    args = parser.parse_args()
    triples = [(prompt, t, opaque(t), pale(t))
               for prompt, t, _ in wash_pairs(args.pairs, args.seed, "heldout")]  # fmt: skip
    replies = [reply for triple in triples for reply in triple[1:]]
    render = replace(training_render_config(), time_limit_s=30.0)
    canvases = asyncio.run(render_replies(replies, render))
    sets = {name: reward_set(name) for name in SETS}
    rows = []
    for i, canvas in enumerate(canvases):
        pair, kind = divmod(i, len(KINDS))
        rows.append({"pair": pair, "kind": KINDS[kind], "ok": canvas.ok,
                     **measures(canvas, triples[pair][0], sets)})  # fmt: skip
    wide = pd.DataFrame(rows).pivot(index="pair", columns="kind")
    kept = wide[wide["ok"].all(axis=1) & wide["wash_load"].notna().all(axis=1)]
    print(f"compositions with all three canvases clean: {len(kept)} of {len(wide)}")
    for measure in ("wash_load", "translucent_washes", *SETS):
        values = kept[measure].astype(float)
        means = ", ".join(f"{k} {values[k].mean():.3f}" for k in KINDS)
        print(f"{measure:>18}: {means}")
        for other in ("pale", "opaque"):
            gap = paired_difference(values[other].to_numpy(), values["translucent"].to_numpy())
            print(f"{'':>18}  {other} - translucent {gap}")


if __name__ == "__main__":
    main()
