"""Prediction 4, the pale-twin control (named before the first step in README.md): does painting
a reply's fills opaque in the colour they show raise its matted opacity more for the
show_through arm's replies than for fine_grained's?

    .venv/bin/python experiments/2026-12-05_show_through/pale_control.py   # ~1 h on 2 cores

Reads the committed evaluation records (records/<set>-seed<n>/evaluation/samples.parquet). For
each job's clean runs (status ok): the reply and its pale twin (`twins.pale`: every
`brush.fill(r, g, b, a)` at opacity 255 in the colour it shows alone over the sketch's paper),
both painted as training paints them over their own paper and show_through's second paper
(`pairs.rendered`: `calibration.render_replies`, 30 s limit, seed 0), and the matted opacity of each
(`matting.paint_opacity`); per job the mean of (pale twin - reply) over the replies whose two
renders painted cleanly. Per set the mean of its jobs; `show_through - fine_grained` with the
seed-level Welch 95 % interval and the exact permutation p (the translucency study's
`effective_fill.main`). Canvases are cached in $CANVAS_CACHE (pairs.py's cache).
"""

from __future__ import annotations

import importlib.util
from pathlib import Path

import numpy as np
import pandas as pd

from watercolor.config import reward_set
from watercolor.rewards.matting import paint_opacity
from watercolor.tasks.painting.twins import pale

HERE = Path(__file__).parent


def _script(name: str, path: Path):
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


# The translucency study's seed-level comparison; this folder's cached two-paper renders.
translucency = _script(
    "translucency_fills", HERE.parent / "2026-12-04_translucency" / "effective_fill.py"
)
pairs = _script("show_through_pairs", HERE / "pairs.py")


def pale_gap(samples: pd.DataFrame) -> dict[str, float]:
    """{"pale_gap": the job's mean of pale twin's matted opacity - the reply's}."""
    replies = samples.loc[samples["status"] == "ok", "reply"].tolist()
    paper = reward_set("show_through").second_paper
    canvases = pairs.rendered(replies + [pale(r) for r in replies], paper)
    own, twins = canvases[: len(replies)], canvases[len(replies) :]
    gaps = [
        paint_opacity(t) - paint_opacity(o)
        for o, t in zip(own, twins, strict=True)
        if o.ok and t.ok and o.twin is not None and t.twin is not None
    ]
    return {"pale_gap": float(np.mean(gaps)) if gaps else float("nan"), "replies": len(gaps)}


def main(records: Path = HERE / "records") -> None:
    translucency.main(
        records, ours="show_through", theirs="fine_grained", measure=pale_gap,
        measures=["pale_gap"],
    )  # fmt: skip


if __name__ == "__main__":
    main()
