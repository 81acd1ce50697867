"""What the trained models' fills are, as their code sets them, with p5.brush's defaults where a
reply never calls a setter (the correction of 2026-12-04 in README.md, issue 34 item 1).

    .venv/bin/python experiments/2026-12-01_three_rewards_v2/effective_fill.py

Reads only the committed evaluation records (records/<set>-seed<n>/evaluation/samples.parquet:
12 held-out prompts x 4 replies a job, and records/untrained/). Over the replies that ran cleanly
(`clean_run`), per reply:
- bleed: the mean of its `brush.fillBleed(x)` arguments, else p5.brush 2.2.2's default 0.07;
- texture: the mean of the first arguments of its `brush.fillTexture(t, b)` calls, else 0.8
  (the defaults: `State.fill` in node_modules/p5.brush/src/fill/fill.js: bleed_strength 0.07,
  texture_strength 0.8; a call's argument that is not a number literal is left out);
- fill opacity: `style/mean_alpha` as recorded (behaviour.fill_alphas);
- the flat pair: both `brush.fillBleed(0)` and `brush.fillTexture(0, 0)` in the reply.
Then the mean per job, per set the mean of the jobs, and a seed-level Welch t interval (95 %)
of each trained set minus coarse. Nothing here was tuned to a result: these definitions are the
issue's, written down before this script first ran.
"""

from __future__ import annotations

import re
import statistics
from pathlib import Path

import pandas as pd
from scipy import stats

RECORDS = Path(__file__).parent / "records"
DEFAULTS = {"bleed": 0.07, "texture": 0.8}
CALLS = {"bleed": re.compile(r"brush\.fillBleed\(\s*([^,)]*)"),
         "texture": re.compile(r"brush\.fillTexture\(\s*([^,)]*)")}  # fmt: skip
PAIR = (re.compile(r"brush\.fillBleed\(\s*0(\.0*)?\s*\)"),
        re.compile(r"brush\.fillTexture\(\s*0(\.0*)?\s*,\s*0(\.0*)?\s*\)"))  # fmt: skip


def setting(reply: str, name: str) -> float:
    values = []
    for arg in CALLS[name].findall(reply):
        try:
            values.append(float(arg))
        except ValueError:
            continue
    return statistics.fmean(values) if values else DEFAULTS[name]


def job_means(samples: pd.DataFrame) -> dict[str, float]:
    clean = samples[samples["clean_run"].astype(bool)]
    pair = clean["reply"].map(lambda r: all(p.search(r) for p in PAIR))
    return {
        "replies": len(clean),
        "bleed": clean["reply"].map(lambda r: setting(r, "bleed")).mean(),
        "texture": clean["reply"].map(lambda r: setting(r, "texture")).mean(),
        "fill_alpha": clean["style/mean_alpha"].mean(),
        "flat_pair": pair.mean(),
        "flat_block_without_pair": clean.loc[~pair, "flat_block"].astype(float).mean(),
    }


def main() -> None:
    rows = []
    for folder in sorted(p for p in RECORDS.iterdir() if (p / "evaluation").is_dir()):
        samples = pd.read_parquet(folder / "evaluation" / "samples.parquet")
        name, _, seed = folder.name.rpartition("-seed")
        rows.append({"set": name or folder.name, "seed": seed or "-"} | job_means(samples))
    jobs = pd.DataFrame(rows)
    print(jobs.groupby("set").mean(numeric_only=True).round(3).to_string())
    measures = ["bleed", "texture", "fill_alpha", "flat_pair"]
    coarse = jobs[jobs["set"] == "coarse"]
    for other in ("fine_grained", "gated"):
        group = jobs[jobs["set"] == other]
        for m in measures:
            a, b = group[m].to_numpy(), coarse[m].to_numpy()
            ci = stats.ttest_ind(a, b, equal_var=False).confidence_interval(0.95)
            interval = f"[{ci.low:+.3f}, {ci.high:+.3f}]"
            print(f"{other} - coarse {m:>10}: {a.mean() - b.mean():+.3f} {interval} (Welch)")


if __name__ == "__main__":
    main()
