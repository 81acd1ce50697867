"""The pre-registered predictions, read off compare's revision_ci.csv by the README's rules.

    cd experiments/2026-12-02_revise_study && python verdicts.py compare

A prediction about a difference holds when its 95 % CI lies wholly on the predicted side of 0,
fails when it lies wholly on the other side, and is unclear when it contains 0. Prediction 5
predicts "unclear" itself (a CI above 0 fails it); prediction 3's expected outcome is unclear,
its direction below 0, and a gap below -0.05 is read as drafts left to the revision.
"""

import sys
from pathlib import Path

import pandas as pd

# (prediction, measure, comparison, predicted side: +1 above 0, -1 below 0, 0 "contains 0")
PREDICTIONS = [
    ("1 revise-training makes better revisions", "revision_total", "revise - single", +1),
    ("2 ...and improves drafts that ran", "clean_draft_change", "revise - single", +1),
    ("3 single drafts at least as well", "draft_total", "revise - single", -1),
    ("4a single learns (drafts)", "draft_total", "single - (untrained)", +1),
    ("4b revise learns (revisions)", "revision_total", "revise - (untrained)", +1),
    ("5 the reviser ignores the feedback's words", "vs_other_feedback", "revise", 0),
]


def verdict(low: float, high: float, side: int) -> str:
    observed = 0 if low <= 0 <= high else 1 if low > 0 else -1
    if side == 0:
        return (
            "held (contains 0)"
            if observed == 0
            else f"failed ({'above' if observed > 0 else 'below'} 0)"
        )
    if observed == 0:
        return "unclear"
    return "held" if observed == side else "failed"


def main(compare_dir: str) -> None:
    table = pd.read_csv(Path(compare_dir) / "revision_ci.csv")
    table = table[table["scored_by"] == "fine_grained"].set_index(["measure", "comparison"])
    print("| prediction | measure | comparison | mean | 95 % CI | verdict |")
    print("|---|---|---|---:|---|---|")
    for name, measure, comparison, side in PREDICTIONS:
        row = table.loc[(measure, comparison)]
        ci = f"[{row['low']:+.3f}, {row['high']:+.3f}]"
        print(f"| {name} | `{measure}` | {comparison} | {row['mean']:+.3f} | {ci} | "
              f"{verdict(row['low'], row['high'], side)} |")  # fmt: skip


if __name__ == "__main__":
    main(sys.argv[1])
