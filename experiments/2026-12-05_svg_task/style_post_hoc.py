"""Post hoc (not pre-registered; written after the results): what the SVG study's models write,
read from their held-out replies with the task's code-read style measures
(`watercolor.tasks.svg.style`, added after the study's code was fixed, so its evaluations lack
those columns), per job, and each measure's svg_fine - svg_coarse difference with a Welch 95 %
CI over jobs, the same statistic `analyse.py` uses.

    .venv/bin/python experiments/2026-12-05_svg_task/style_post_hoc.py   # style_post_hoc.csv
"""

from pathlib import Path

import pandas as pd
from analyse import welch

from watercolor.tasks.svg.style import style_measures

HERE = Path(__file__).parent
rows = []
for folder in sorted((HERE / "records").glob("*/evaluation")):
    samples = pd.read_parquet(folder / "samples.parquet")
    drawn = samples[samples["status"] == "ok"]
    style = pd.DataFrame([style_measures(reply) for reply in drawn["reply"]])
    job = folder.parent.name
    rows.append({
        "job": job, "arm": job.rsplit("-", 1)[0] if "-seed" in job else job,
        "drawn": (samples["status"] == "ok").mean(),
        "mean_opacity": style["style/mean_opacity"].mean(),
        "see_through_share": style["style/see_through_share"].mean(),
        "shapes": style["style/shapes"].mean(),
        "tokens": samples["completion_tokens"].mean(),
        "prompt_colours": samples["svg_fine/prompt_colours"].mean(),
        "exact_colour": samples["svg_coarse/exact_colour"].mean(),
    })  # fmt: skip
table = pd.DataFrame(rows)
table.round(4).to_csv(HERE / "style_post_hoc.csv", index=False)
print(table.round(3).to_string(index=False))
for column in table.columns.drop(["job", "arm"]):
    fine, coarse = (table.loc[table["arm"] == arm, column] for arm in ("svg_fine", "svg_coarse"))
    difference, low, high = welch(list(fine), list(coarse))
    print(f"{column:18s} svg_fine - svg_coarse {difference:+.3f} [{low:+.3f}, {high:+.3f}]")
