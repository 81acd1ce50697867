"""Score the cached canvases of `canvases.py` under reward sets and print the design's figures:

    E=experiments/2026-12-05_translucency_v2_design; export PYTHONPATH=.  # repo root
    python $E/score.py sketches
    python $E/score.py pairs --bed pairs_heldout_1
    python $E/score.py kinds --bed kinds_24

- `sketches`: each cheat's total over the weakest genuine painting's, per set and gate setting,
  and the smallest margin of a genuine painting over a cheat;
- `pairs`: per set, the paired mean of translucent - opaque and its 95 % bootstrap interval
  (2,000 resamples of pairs), and ROC AUCs (`translucency_calibration`'s own functions);
- `kinds`: per set, mean total of each kind and `layered, quality >= 0.5` - `flat` with a 95 %
  bootstrap interval (replies resampled within each kind, 2,000 resamples, seed 0).
"""

from __future__ import annotations

import argparse
import os
import pickle
from pathlib import Path

import numpy as np
import pandas as pd

from watercolor.analysis.stats import LEVEL, RESAMPLES
from watercolor.config import reward_set
from watercolor.tasks.painting.translucency_calibration import bootstrap_auc, paired_difference

CACHE = Path(os.environ.get("CANVAS_CACHE", "/tmp/h34cache"))
SETS = ("fine_grained", "translucent", "washes")
GOOD, FLAT = "layered, quality >= 0.5", "flat"


def load(bed: str) -> dict:
    return pickle.loads((CACHE / f"{bed}.pkl").read_bytes())


def sketches(sets) -> None:
    data = load("sketches")
    for gate in ("anchor", "off"):
        rows = {}
        for name, (kind, prompt, _) in data["table"].items():
            canvas = data["canvases"][gate][name]
            rows[name] = {"kind": kind} | {
                s: r.score(canvas, prompt=prompt).total for s, r in sets.items()
            }
        table = pd.DataFrame(rows).T
        genuine, cheats = table[table.kind == "genuine"], table[table.kind == "cheat"]
        print(
            f"\n== gate {gate}: weakest genuine "
            + ", ".join(
                f"{s} {genuine[s].astype(float).idxmin()} {genuine[s].min():.3f}" for s in sets
            )
        )
        shares = pd.DataFrame({s: cheats[s].astype(float) / genuine[s].min() for s in sets})
        print(shares.sort_values(list(sets)[-1], ascending=False).round(2).to_string())
        for s in sets:
            margin = genuine[s].min() - cheats[s].max()
            print(
                f"{s}: max share {shares[s].max():.3f} ({shares[s].idxmax()}), "
                f"margin genuine - best cheat {margin:+.3f} ({cheats[s].astype(float).idxmax()})"
            )


def pairs(sets, bed: str) -> None:
    data = load(bed)
    prompts = [p for p, _, _ in data["pairs"]]
    scored = {**sets, "wash_factor": None} if "washes" in sets else sets
    factor = sets["washes"].components["wash_factor"].fn if "washes" in sets else None
    for s, rewards in scored.items():
        values = {}
        for cls in ("translucent", "opaque"):
            canvases = data[cls]
            values[cls] = np.array(
                [
                    factor(c) if rewards is None else rewards.score(c, prompt=p).total
                    for c, p in zip(canvases, prompts, strict=True)
                ],
                dtype=float,
            )
        t, o = values["translucent"], values["opaque"]
        auc, low, high = bootstrap_auc(t, o)
        print(
            f"{s:14s} translucent {t.mean():.3f} opaque {o.mean():.3f}  paired gap "
            f"{paired_difference(t, o)}  ({(t > o).mean():.0%} of pairs > 0)  "
            f"ROC AUC {auc:.3f} [{low:.3f}, {high:.3f}]"
        )


def kinds(sets, bed: str, good_label: str = GOOD) -> None:
    data = load(bed)
    labels = np.array([r["label"] for r in data["rows"]])
    rng = np.random.default_rng(0)
    print("replies: " + ", ".join(f"{k} {(labels == k).sum()}" for k in np.unique(labels)))
    for s, rewards in sets.items():
        totals = np.array(
            [
                rewards.score(c, prompt=r["prompt"]).total
                for c, r in zip(data["canvases"], data["rows"], strict=True)
            ],
            float,
        )
        good, flat = totals[labels == good_label], totals[labels == FLAT]
        draws = [
            rng.choice(good, len(good)).mean() - rng.choice(flat, len(flat)).mean()
            for _ in range(RESAMPLES)
        ]
        low, high = np.quantile(draws, [(1 - LEVEL) / 2, (1 + LEVEL) / 2])
        means = {k: totals[labels == k].mean() for k in np.unique(labels)}
        print(
            f"{s:14s} "
            + "  ".join(f"{k}: {m:.3f}" for k, m in means.items())
            + f"  | {good_label} - flat {good.mean() - flat.mean():+.3f} [{low:+.3f}, {high:+.3f}]"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("what", choices=["sketches", "pairs", "kinds"])
    parser.add_argument("--bed", default="")
    parser.add_argument("--sets", default=",".join(SETS))
    parser.add_argument("--good", default=GOOD, help="kinds: the label compared with flat")
    parser.add_argument("--set", action="append", default=[], help="override of the washes set")
    args = parser.parse_args()
    sets = {
        name: reward_set(name, args.set if name == "washes" else ())
        for name in args.sets.split(",")
    }
    pd.set_option("display.width", 200)
    if args.what == "sketches":
        sketches(sets)
    elif args.what == "pairs":
        pairs(sets, args.bed)
    else:
        kinds(sets, args.bed, args.good)


if __name__ == "__main__":
    main()
