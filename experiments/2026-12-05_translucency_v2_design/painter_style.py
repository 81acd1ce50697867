"""What `washes` pays the study painter's own replies, by the fill style their code sets:

    E=experiments/2026-12-05_translucency_v2_design; export PYTHONPATH=.  # repo root
    python $E/painter_style.py          # reads $CANVAS_CACHE/painter.pkl (canvases.py painter)

Replies that painted (status ok) and read as `flat` or `layered` (`reply_kind`), grouped by
whether their fills bleed (the last `brush.fillBleed` value above 0, p5.brush's 0.07 when none
is set) and whether their mean `brush.fill` opacity is below 200; per group the mean
`fine_grained` and `washes` totals, `wash_factor`, and the factor's lightness and even-fill
readings.
"""

from __future__ import annotations

import os
import pickle
import re
from pathlib import Path

import numpy as np
import pandas as pd

from watercolor.config import reward_set
from watercolor.rewards.pixels import view
from watercolor.rewards.washes import even_fills, wash_lightness
from watercolor.tasks.painting.style import fill_alphas

CACHE = Path(os.environ.get("CANVAS_CACHE", "/tmp/h34cache"))
DEFAULT_BLEED = 0.07  # p5.brush 2.2.2, src/fill/fill.js
_BLEED = re.compile(r"fillBleed\(\s*([\d.]+)")


def row(canvas, prompt: str, sets: dict) -> dict:
    alphas, bleeds = fill_alphas(canvas.sketch), _BLEED.findall(canvas.sketch)
    v = view(canvas)
    washes = sets["washes"].score(canvas, prompt=prompt)
    return {
        "bled": (float(bleeds[-1]) if bleeds else DEFAULT_BLEED) > 0,
        "alpha < 200": bool(alphas) and float(np.mean(alphas)) < 200,
        "fine_grained": sets["fine_grained"].score(canvas, prompt=prompt).total,
        "washes": washes.total,
        "wash_factor": washes.components["wash_factor"],
        "lightness": wash_lightness(v),
        "even_fills": even_fills(v),
    }


def main() -> None:
    data = pickle.loads((CACHE / "painter.pkl").read_bytes())
    sets = {name: reward_set(name) for name in ("fine_grained", "washes")}
    rows = [
        row(canvas, r["prompt"], sets)
        for r, canvas in zip(data["rows"], data["canvases"], strict=True)
        if canvas.ok and r["label"] in ("flat", "layered")
    ]
    table = pd.DataFrame(rows).groupby(["bled", "alpha < 200"])
    summary = table.mean().round(3)
    summary.insert(0, "replies", table.size())
    pd.set_option("display.width", 200)
    print(summary.to_string())


if __name__ == "__main__":
    main()
