"""How the painted replies are written: opacity of the washes, flat-style replies, wash count.

The pixel flat-block rate of this experiment (`no_flat_regions` < 0.5) did not see the corpus's
flat style -- p5.brush's own texture kept those canvases above its threshold -- so this reads
the sketches themselves, from each evaluation's samples.csv (replies that painted, status ok):
  mean_alpha      mean opacity of `brush.fill(...)` calls (0-255; flat fills use 255)
  opaque_share    share of fills at opacity >= 250
  flat_style      share of replies whose mean fill opacity is >= 200 (the corpus's flat kind)
  washes          `brush.endShape(` + `brush.circle(` calls per reply
The measures live in the package (`watercolor.analysis.behaviour`; evaluate now writes them per
sample as `style/<name>` columns); this keeps the experiment's pooled figures. Run from the
repository root after evaluate.sh:

    .venv/bin/python experiments/2026-11-30_three_rewards/styles.py outputs/evaluate/three_rewards
"""

import re
import statistics
import sys
from pathlib import Path

import pandas as pd

from watercolor.analysis.behaviour import FLAT_STYLE_ALPHA, OPAQUE_ALPHA, fill_alphas, wash_count

NAME = re.compile(r"^(?:style_)?seed(\d+)_.*?\d+_(coarse|fine_grained|gated)$")


def measures(samples: pd.DataFrame) -> dict[str, float]:
    """Pooled over one evaluation's painted replies (every fill counts once; evaluate's own
    `style/<name>` summary metrics average per reply instead)."""
    painted = samples[samples["status"] == "ok"]["reply"].astype(str)
    per_reply = [fill_alphas(reply) for reply in painted]
    every = [a for reply in per_reply for a in reply]
    means = [statistics.fmean(a) for a in per_reply if a]
    return {
        "painted": len(painted),
        "mean_alpha": statistics.fmean(every) if every else float("nan"),
        "opaque_share": sum(a >= OPAQUE_ALPHA for a in every) / len(every)
        if every
        else float("nan"),
        "flat_style": sum(m >= FLAT_STYLE_ALPHA for m in means) / len(means)
        if means
        else float("nan"),
        "washes": statistics.fmean(wash_count(r) for r in painted) if len(painted) else 0,
    }


rows = []
for folder in sorted(Path(sys.argv[1]).iterdir()):
    if not (folder / "samples.csv").is_file():
        continue
    match = NAME.match(folder.name)
    trained_with, seed = (match.group(2), match.group(1)) if match else ("(untrained)", "")
    rows.append({"trained_with": trained_with, "seed": seed, "evaluation": folder.name}
                | measures(pd.read_csv(folder / "samples.csv")))  # fmt: skip
table = pd.DataFrame(rows)
print(table.to_string(index=False, float_format=lambda v: f"{v:.3f}"))
grouped = table.groupby("trained_with", sort=False)[["mean_alpha", "opaque_share", "flat_style",
                                                      "washes"]]  # fmt: skip
means, stds = grouped.mean(), grouped.std()
summary = means.map(lambda v: f"{v:.3f}") + stds.map(lambda v: "" if v != v else f" ± {v:.3f}")
print("\nmean ± std across seeds:")
print(summary.to_string())
