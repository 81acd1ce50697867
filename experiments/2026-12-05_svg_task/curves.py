"""Secondary figures of the SVG study (README "Reported beside them"), from the committed records:
per job, the training reward (`reward/total`, the arm's own set), the share of replies drawn
(`rollouts/execution_rate`) and the mean completion length, first 10 steps against last 10.

    .venv/bin/python experiments/2026-12-05_svg_task/curves.py   # writes curves_first_last.csv
"""

from pathlib import Path

import pandas as pd

HERE = Path(__file__).parent
COLUMNS = {
    "reward": "reward/total",
    "drawn": "rollouts/execution_rate",
    "length": "train/completions/mean_length",
}

rows = []
for folder in sorted((HERE / "records").glob("*-seed*")):
    metrics = pd.read_csv(folder / "metrics.csv", index_col="step")
    row = {"job": folder.name, "arm": folder.name.rsplit("-", 1)[0]}
    for name, column in COLUMNS.items():
        values = metrics[column].dropna()
        row[f"{name}_first10"], row[f"{name}_last10"] = (
            values.iloc[:10].mean(),
            values.iloc[-10:].mean(),
        )
    rows.append(row)
table = pd.DataFrame(rows)
table["reward_gain"] = table["reward_last10"] - table["reward_first10"]
table.round(4).to_csv(HERE / "curves_first_last.csv", index=False)
print(table.round(3).to_string(index=False))
print(table.drop(columns="job").groupby("arm").agg(["mean", "std"]).round(3).T.to_string())
