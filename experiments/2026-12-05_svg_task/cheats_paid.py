"""Post hoc (issue 44, 2026-12-05; not pre-registered): was a cheat of the kinds the SVG audit
table holds paid during training? Reads the logged training rollouts (8 replies a job every 10
steps) and their recorded components (svg_fine as the study trained it: a weighted sum, document
terms read as they were then), and sorts each clean rollout by what it drew:

- `flat`: the prompt's colour with (almost) nothing see-through (translucent_shapes < 0.05,
  prompt_colours > 0): the flat pictures the weighted sum's pixel terms paid 0.59-0.63 of the
  weakest genuine drawing;
- `off_colour`: mostly see-through shapes (translucent_shapes >= 0.5) without the prompt's
  colour (prompt_colours 0): 0.79-0.83 under the sum;
- `glazes`: see-through shapes in the prompt's colour (translucent_shapes >= 0.5, prompt_colours
  > 0); `neither`: neither the prompt's colour nor mostly see-through; `other`: the rest
  (the prompt's colour, some see-through shapes).

Only `svg_fine`'s 5 jobs (`svg_coarse`'s rollouts record its own components). For each phase
(steps 10-30, 40-60): each class's share of the clean rollouts, its mean recorded total, and
what today's svg_fine (the product, conf/reward/svg_fine.yaml) would have paid the same
components.

    .venv/bin/python experiments/2026-12-05_svg_task/cheats_paid.py   # cheats_paid.csv
"""

from pathlib import Path

import numpy as np
import pandas as pd

HERE = Path(__file__).parent


def kind(row) -> str:
    shapes, colours = row["c.translucent_shapes"], row["c.prompt_colours"]
    if shapes < 0.05 and colours > 0:
        return "flat"
    if shapes >= 0.5:
        return "glazes" if colours > 0 else "off_colour"
    return "other" if colours > 0 else "neither"


def product(row) -> float:
    """Today's svg_fine on the recorded components (its weights, conf/reward/svg_fine.yaml)."""
    glazes = (0.20 * row["c.translucent_layering"] + 0.20 * row["c.translucent_shapes"]
              + 0.15 * row["c.composition"]) / 0.55  # fmt: skip
    picture = row["c.prompt_colours"] * row["c.coverage"] * glazes
    return 0.05 * row["c.gate_pass"] + 0.05 * row["c.length_ramp"] + 0.90 * picture


frames = []
for path in sorted((HERE / "records").glob("svg_fine-seed*/rollouts.parquet")):
    frames.append(pd.read_parquet(path))
logged = pd.concat(frames)
clean = logged[logged["status"] == "ok"].copy()
clean["kind"] = clean.apply(kind, axis=1)
clean["phase"] = np.where(clean["step"] <= 30, "steps 10-30", "steps 40-60")
clean["product"] = clean.apply(product, axis=1)
table = (
    clean.groupby(["phase", "kind"])
    .agg(rollouts=("reward", "size"), recorded=("reward", "mean"), product=("product", "mean"))
    .reset_index()
)
table["share"] = table["rollouts"] / table.groupby("phase")["rollouts"].transform("sum")
table = table[["phase", "kind", "rollouts", "share", "recorded", "product"]]
table.round(4).to_csv(HERE / "cheats_paid.csv", index=False)
print(table.round(3).to_string(index=False))
