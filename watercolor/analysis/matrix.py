"""The evaluation matrix: trained with x scored by, on held-out prompts, with its statistics.

    >>> matrix = matrix_table(found)     # one row per evaluation (watercolor.analysis.records)
    >>> paths = write_matrix(found, canvases, matrix, out_dir, resamples=2000, seed=0)
    >>> pd.read_csv(paths["verdict"])    # does each set's model score highest under it?

`watercolor.compare` lays training runs side by side and calls this for their evaluations
(`watercolor.evaluate`, `kind=evaluate` runs): `matrix.csv` and `matrix_aggregate.csv` (their
summary metrics, mean ± std over seeds), `matrix_gallery.png` / `.html` and, from their
per-sample tables, the statistics (`watercolor.analysis.stats`: 95 % CIs by a bootstrap over seeds
and prompts, paired by prompt): `matrix_ci.csv` and `matrix_heatmap.png`, `verdict.csv` (per scorer:
does the set trained with it score highest under it, by how much) and `behaviour_ci.csv` (each
behaviour per set and per pair of sets), and `behaviour_seeds.csv` (the same pairs' differences
tested at the level of seeds, an exact permutation test). Rows are arms
(`watercolor.analysis.records.arm_of`: the reward set trained with, unless the study swept `arm`).
Evaluations of revision episodes (`task.turns` 2) show their drafts there, and add `revision_ci.csv`
(`watercolor.analysis.revision_stats.arm_revision_table`: every revision measure per arm and per
pair of arms).
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Mapping, Sequence
from pathlib import Path

import numpy as np
import pandas as pd
from matplotlib.figure import Figure
from PIL import Image

from watercolor.analysis import stats
from watercolor.analysis.behaviour import BEHAVIOURS
from watercolor.analysis.behaviour import behaviours as behaviours_of
from watercolor.analysis.gallery import gallery_html, relative, save_chart
from watercolor.analysis.records import Records
from watercolor.analysis.revision_stats import arm_revision_table

# --- evaluations: "trained with x scored by" ----------------------------------------------------

# Figures of an evaluation (`watercolor.evaluate`'s summary metrics) that the matrix shows.
MATRIX_METRICS = (
    r"total/.+",
    *(re.escape(name) for name in BEHAVIOURS),
    r"violations/.+",
)
UNTRAINED = "(untrained)"


def matrix_table(found: Records) -> pd.DataFrame:
    """One row per evaluation: what it evaluated (arm trained with: `records.arm_of`; seed) and
    its figures."""
    infos = {info["run_id"]: info for info in found.runs}
    rows = []
    for evaluation in found.evaluations:
        info = infos.get(evaluation.source_run_id, {})
        if evaluation.source_run_id and not info:
            continue  # an evaluation of a run that is not compared
        row = {
            "trained_with": info.get("arm", UNTRAINED),  # its reward set, or its study's arm
            "seed": info.get("seed", ""),
            "evaluation_id": evaluation.evaluation_id,
            "source_run_id": info.get("run_id", ""),
        }
        names = sorted(evaluation.metrics)
        row |= {
            n: evaluation.metrics[n] for p in MATRIX_METRICS for n in names if re.fullmatch(p, n)
        }
        rows.append(row)
    table = pd.DataFrame(rows)
    if "trained_with" in table:
        table = table.sort_values(["trained_with", "seed", "evaluation_id"],
                                  key=_untrained_first, kind="stable")  # fmt: skip
    return table.reset_index(drop=True)


def _untrained_first(column: pd.Series) -> pd.Series:
    return column.map(lambda v: ("" if v == UNTRAINED else "~") + str(v))


def matrix_aggregate(table: pd.DataFrame) -> pd.DataFrame:
    """Mean and std across seeds per reward set trained with (`<metric> mean|std`, `runs`)."""
    metrics = [c for c in table.columns if any(re.fullmatch(p, c) for p in MATRIX_METRICS)]
    return stats.mean_and_std(table, "trained_with", metrics, sort=False)


def print_matrix(aggregated: pd.DataFrame) -> None:
    """The trained-with x scored-by table (rows x `total/<set>`), then the behaviour figures."""
    shown = stats.mean_pm_std(aggregated).T.drop(columns="runs")
    shown.insert(0, "runs", aggregated["runs"].astype(str))
    scored = [c for c in shown.columns if c.startswith("total/")]
    with pd.option_context("display.width", 250, "display.max_columns", 50):
        print("\ntrained with (rows) x scored by (columns), held-out prompts, mean ± std:")
        print(shown[["runs", *scored]].rename(columns=lambda c: c.removeprefix("total/")))
        print("\nbehaviour on held-out prompts, mean ± std:")
        print(shown.drop(columns=scored).T.to_string())


def matrix_gallery(
    canvases, table: pd.DataFrame, found: Records, out_dir: Path, prompts: int = 6
) -> Path | None:
    """matrix_gallery.png: the first sample of the same held-out prompts (columns) painted by
    one evaluation per reward set trained with (rows: the lowest seed); matrix_gallery.html:
    the same canvases with each reply's first lines."""
    by_id = {e.evaluation_id: e for e in found.evaluations}
    keys = [f"p{index:02d}_s00" for index in range(prompts)]
    grid: list[tuple[str, list[Path | None]]] = []
    sections = []
    for row in table.drop_duplicates("trained_with").to_dict("records"):
        evaluation = by_id[row["evaluation_id"]]
        folder = out_dir / "matrix_canvases" / row["evaluation_id"][:8]
        pngs = canvases.evaluation(evaluation, keys, folder)
        label = row["trained_with"] + (f" seed {row['seed']}" if row["seed"] != "" else "")
        grid.append((label, [pngs.get(k) for k in keys]))  # None: refused, crashed, too few
        sections.append((label, _sample_cards(evaluation.samples, keys, pngs, out_dir)))
    if not grid:
        return None
    (out_dir / "matrix_gallery.html").write_text(
        gallery_html("held-out canvases per reward set trained with", sections)
    )
    return _canvas_figure(grid, prompts, out_dir / "matrix_gallery.png")


def _sample_cards(samples: pd.DataFrame, keys: Sequence[str], pngs: Mapping, out_dir: Path):
    """A card per sample of `keys` that the table holds: its canvas, prompt and first lines."""
    if "key" not in samples:
        return []
    rows = samples.set_index("key")
    texts = {key: _lines(row["reply"]) for key, row in rows.iterrows()}
    shared = _shared_prefix(list(texts.values()))  # a preamble every reply writes says nothing
    cards = []
    for key in (k for k in keys if k in rows.index):
        row = rows.loc[key]
        first = texts[key][shared:][:4]
        cards.append({"image": relative(pngs[key], out_dir) if key in pngs else None,
                      "placeholder": row["status"], "caption": f"{key}: {row['prompt']}",
                      "lines": [f"status {row['status']}", *first]})  # fmt: skip
    return cards


def _lines(reply: object) -> list[str]:
    return [line for line in str(reply).splitlines() if line.strip()]


def _shared_prefix(texts: Sequence[Sequence[str]]) -> int:
    """How many leading lines all `texts` share (0 for fewer than two texts)."""
    if len(texts) < 2:
        return 0
    rows = zip(*texts, strict=False)  # up to the shortest text
    return next((i for i, lines in enumerate(rows) if len(set(lines)) > 1), min(map(len, texts)))


def _canvas_figure(grid: list[tuple[str, list[Path | None]]], prompts: int, path: Path) -> Path:
    figure = Figure(figsize=(2 * prompts + 1.5, 2 * len(grid)), layout="constrained")
    axes = figure.subplots(len(grid), prompts, squeeze=False)
    for row_index, ((label, cells), row_axes) in enumerate(zip(grid, axes, strict=True)):
        for index, (ax, cell) in enumerate(zip(row_axes, cells, strict=True)):
            ax.set_xticks([])
            ax.set_yticks([])
            if cell is not None:
                with Image.open(cell) as image:
                    ax.imshow(image.convert("RGB"))
            else:
                ax.text(0.5, 0.5, "no canvas", ha="center", va="center", fontsize=8)
            if index == 0:
                ax.set_ylabel(label, fontsize=9)
            if row_index == 0:
                ax.set_title(f"prompt {index}", fontsize=9)
    figure.savefig(path, dpi=80)
    return path


# --- evaluations: statistics over their samples -------------------------------------------------


def evaluation_samples(found: Records, matrix: pd.DataFrame) -> pd.DataFrame:
    """Every evaluation's sample rows (one per sample), with `trained_with`, `seed` and `run`
    (the evaluation's id), in the matrix's order; evaluations that logged none are left out."""
    by_id = {e.evaluation_id: e for e in found.evaluations}
    frames = [
        by_id[row["evaluation_id"]].samples.assign(
            trained_with=row["trained_with"], seed=row["seed"], run=row["evaluation_id"])
        for row in matrix.to_dict("records") if len(by_id[row["evaluation_id"]].samples)
    ]  # fmt: skip
    return pd.concat(frames, ignore_index=True) if frames else pd.DataFrame()


def bootstrap_column(
    samples: pd.DataFrame, column: str, resamples: int, seed: int
) -> tuple[dict[str, float], dict[str, np.ndarray]]:
    """({set: mean}, {set: bootstrap means}) of one column, per reward set trained with (runs
    resampled within each set, prompts shared: see `watercolor.analysis.stats`)."""
    prompts = sorted(samples["prompt_index"].unique())
    groups = {
        name: stats.cells(rows, column, prompts)
        for name, rows in samples.groupby("trained_with", sort=False)
    }
    points = {name: stats.point_mean(group) for name, group in groups.items()}
    return points, stats.bootstrap_means(groups, resamples, seed)


def scorers(samples: pd.DataFrame) -> list[str]:
    """The reward sets the samples were scored by (their `total/<set>` columns)."""
    return [c.removeprefix("total/") for c in samples.columns if c.startswith("total/")]


def matrix_ci(samples: pd.DataFrame, resamples: int, seed: int) -> pd.DataFrame:
    """Long table: per (trained_with, scored_by), the mean of `total/<scored_by>` over the
    set's samples with its 95 % CI (`low`, `high`), and the set's `evaluations`."""
    runs = samples.groupby("trained_with", sort=False)["run"].nunique()
    rows = []
    for scorer in scorers(samples):
        points, draws = bootstrap_column(samples, f"total/{scorer}", resamples, seed)
        for name, point in points.items():
            found = stats.estimate(point, draws[name])
            rows.append({"trained_with": name, "scored_by": scorer, "mean": found.mean,
                         "low": found.low, "high": found.high,
                         "evaluations": runs[name]})  # fmt: skip
    return pd.DataFrame(rows)


def verdict_table(samples: pd.DataFrame, resamples: int, seed: int) -> pd.DataFrame:
    """Per scorer S that a compared set was trained with: does the S-trained model score
    highest under S, and by how much over the best other trained set (with its CI)?

    The best other set is taken within each resample (the CI allows for not knowing which it
    is); `verdict` is yes / no / unclear as that CI lies above, below or around 0. Where the
    untrained model was evaluated, `gain_*` is S-trained minus untrained, under S.
    """
    trained = [n for n in dict.fromkeys(samples["trained_with"]) if n != UNTRAINED]
    rows = []
    for scorer in (s for s in scorers(samples) if s in trained):
        points, draws = bootstrap_column(samples, f"total/{scorer}", resamples, seed)
        others = [n for n in trained if n != scorer and np.isfinite(points[n])]
        row = {"scored_by": scorer, "own": points[scorer]}
        if others:
            best = max(others, key=points.get)
            gap = points[scorer] - points[best]
            rival = np.max([draws[n] for n in others], axis=0)
            found = stats.estimate(gap, draws[scorer] - rival)
            row |= {"highest": gap > 0, "best_other": best, "best_other_mean": points[best],
                    "difference": found.mean, "low": found.low, "high": found.high,
                    "verdict": stats.verdict(found)}  # fmt: skip
        else:
            row |= {"verdict": "n/a (no other trained set)"}
        if UNTRAINED in points:
            gain = stats.estimate(points[scorer] - points[UNTRAINED],
                                  draws[scorer] - draws[UNTRAINED])  # fmt: skip
            row |= {"gain_vs_untrained": gain.mean, "gain_low": gain.low, "gain_high": gain.high}
        rows.append(row)
    # No scorer is an arm's name (a study of episodes, not of reward sets): an empty table
    return pd.DataFrame(rows, columns=None if rows else ["scored_by", "own", "verdict"])


def behaviour_table(
    samples: pd.DataFrame, resamples: int, seed: int, behaviours: Mapping[str, str] | None = None
) -> pd.DataFrame:
    """Long table per behaviour (`watercolor.analysis.behaviour.behaviours`: summary metric ->
    sample column, the task's own style columns included): each set's mean with its CI, then each
    pair's difference (paired by prompt).

    `comparison` is a set's name or "a - b"; against the untrained model it is trained minus
    untrained. Behaviours whose column the samples lack are left out.
    """
    rows = []
    for metric, column in (behaviours or behaviours_of(samples.columns)).items():
        if column not in samples:
            continue
        points, draws = bootstrap_column(samples, column, resamples, seed)
        names = list(points)
        pairs = [(b, a) if a == UNTRAINED else (a, b)
                 for i, a in enumerate(names) for b in names[i + 1 :]]  # fmt: skip
        found = {name: stats.estimate(points[name], draws[name]) for name in names}
        found |= {f"{a} - {b}": stats.estimate(points[a] - points[b], draws[a] - draws[b])
                  for a, b in pairs}  # fmt: skip
        rows += [{"behaviour": metric, "column": column, "comparison": name, "mean": e.mean,
                  "low": e.low, "high": e.high} for name, e in found.items()]  # fmt: skip
    return pd.DataFrame(rows, columns=["behaviour", "column", "comparison", "mean", "low", "high"])


def seed_permutation_table(
    samples: pd.DataFrame, behaviours: Mapping[str, str] | None = None
) -> pd.DataFrame:
    """The second analysis of `behaviour_table`'s differences between trained sets, at the
    level of seeds: per behaviour and pair of trained sets, each evaluation's (trained seed's)
    mean of the column, the difference of the sets' means of those, and its exact two-sided
    permutation p (`watercolor.analysis.stats.permutation_p`; the untrained model, one run, is left
    out).
    """
    trained = samples[samples["trained_with"] != UNTRAINED]
    names = list(dict.fromkeys(trained["trained_with"]))
    rows = []
    for metric, column in (behaviours or behaviours_of(trained.columns)).items():
        if column not in trained:
            continue
        values = pd.to_numeric(trained[column], errors="coerce").astype(float)
        per_run = values.groupby([trained["trained_with"], trained["run"]], sort=False).mean()
        for i, a in enumerate(names):
            for b in names[i + 1 :]:
                difference, p = stats.permutation_p(per_run[a].to_numpy(), per_run[b].to_numpy())
                seeds = f"{per_run[a].notna().sum()} vs {per_run[b].notna().sum()}"
                rows.append({"behaviour": metric, "column": column, "comparison": f"{a} - {b}",
                             "difference": difference, "p": p, "seeds": seeds})  # fmt: skip
    columns = ["behaviour", "column", "comparison", "difference", "p", "seeds"]
    return pd.DataFrame(rows, columns=columns)


def matrix_heatmap(ci: pd.DataFrame, path: Path, level: float = stats.LEVEL) -> Path:
    """matrix_heatmap.png: rows trained with, columns scored by, each cell "mean [low, high]";
    colour is the mean scaled within its column (scorers differ in range)."""
    means = ci.pivot(index="trained_with", columns="scored_by", values="mean")
    means = means.reindex(index=list(dict.fromkeys(ci["trained_with"])),
                          columns=list(dict.fromkeys(ci["scored_by"])))  # fmt: skip
    span = (means.max() - means.min()).replace(0, 1)
    shade = ((means - means.min()) / span).fillna(0.5)
    figure = Figure(figsize=(2.2 * len(means.columns) + 2, 0.8 * len(means) + 1.5),
                    layout="constrained")  # fmt: skip
    ax = figure.subplots()
    ax.imshow(shade.to_numpy(), cmap="viridis", vmin=0, vmax=1, aspect="auto")
    for row in ci.itertuples():
        y, x = means.index.get_loc(row.trained_with), means.columns.get_loc(row.scored_by)
        text = str(stats.Estimate(row.mean, row.low, row.high)).replace(" [", "\n[")
        ax.text(x, y, text, ha="center", va="center", fontsize=8,
                color="black" if shade.iloc[y, x] > 0.5 else "white")  # fmt: skip
    ax.set_xticks(range(len(means.columns)), means.columns)
    ax.set_yticks(range(len(means.index)), means.index)
    ax.set_xlabel("scored by")
    ax.set_ylabel("trained with")
    ax.set_title(f"held-out mean [{level:.0%} CI, bootstrap over seeds and prompts];\n"
                 "colour scaled within each column", fontsize=9)  # fmt: skip
    return save_chart(figure, path, dpi=90)


def write_statistics(
    samples: pd.DataFrame, out_dir: Path, resamples: int, seed: int
) -> dict[str, Path]:
    """matrix_ci.csv, matrix_heatmap.png, verdict.csv, behaviour_ci.csv and behaviour_seeds.csv
    from the samples."""
    paths = {name: out_dir / f"{name}.csv" for name in ("matrix_ci", "verdict", "behaviour_ci")}
    ci = matrix_ci(samples, resamples, seed)
    ci.to_csv(paths["matrix_ci"], index=False)
    verdict_table(samples, resamples, seed).to_csv(paths["verdict"], index=False)
    behaviour_table(samples, resamples, seed).to_csv(paths["behaviour_ci"], index=False)
    paths["behaviour_seeds"] = out_dir / "behaviour_seeds.csv"
    seed_permutation_table(samples).to_csv(paths["behaviour_seeds"], index=False)
    if len(ci):
        paths["matrix_heatmap"] = matrix_heatmap(ci, out_dir / "matrix_heatmap.png")
    return paths


def write_matrix(
    found: Records, canvases, matrix: pd.DataFrame, out_dir: Path, resamples: int, seed: int
) -> dict[str, Path]:
    """matrix.csv and matrix_aggregate.csv (summary metrics), matrix_gallery.png (unless
    `canvases` is None) and, from the evaluations' samples, the statistics (`write_statistics`)."""
    paths = {"matrix": out_dir / "matrix.csv", "matrix_aggregate": out_dir / "matrix_aggregate.csv"}
    matrix.to_csv(paths["matrix"], index=False)
    matrix_aggregate(matrix).to_csv(paths["matrix_aggregate"])
    every_role = evaluation_samples(found, matrix)
    found = drafts(found)
    if canvases is not None and (gallery := matrix_gallery(canvases, matrix, found, out_dir)):
        paths["matrix_gallery"] = gallery
    samples = evaluation_samples(found, matrix)
    if len(samples):
        paths |= write_statistics(samples, out_dir, resamples, seed)
    if "role" in every_role:
        paths["revision_ci"] = out_dir / "revision_ci.csv"
        table = arm_revision_table(every_role, baseline=UNTRAINED, resamples=resamples,
                                   seed=seed)  # fmt: skip
        table.to_csv(paths["revision_ci"], index=False)
    return paths


def drafts(found: Records) -> Records:
    """`found` with each revision evaluation's samples (`task.turns` 2: a row per role) cut to
    its drafts: the matrix, its gallery and statistics show what a model writes first, as the
    evaluation's summary metrics do; `revision_ci.csv` compares the revisions."""
    return dataclasses.replace(found, evaluations=[
        dataclasses.replace(e, samples=e.samples[e.samples["role"] == "draft"])
        if "role" in e.samples else e for e in found.evaluations
    ])  # fmt: skip


def print_statistics(paths: dict[str, Path]) -> None:
    """The verdict per scorer, the matrix with CIs, then each behaviour per set and per pair."""
    verdicts = pd.read_csv(paths["verdict"])
    ci = pd.read_csv(paths["matrix_ci"])
    behaviour = pd.read_csv(paths["behaviour_ci"])
    with pd.option_context("display.width", 250, "display.max_columns", 50):
        if len(verdicts):
            print(f"verdict: does the model trained with a set score highest under it? "
                  f"(difference to the best other trained set, {stats.LEVEL:.0%} CI)")  # fmt: skip
            print(verdicts.to_string(index=False, float_format=lambda v: f"{v:.3g}"))
        print(f"\ntrained with (rows) x scored by (columns), held-out prompts, mean "
              f"[{stats.LEVEL:.0%} CI over seeds and prompts]:")  # fmt: skip
        print(_ci_grid(ci, "trained_with", "scored_by").to_string())
        if len(behaviour):
            sets = set(ci["trained_with"])
            print("\nbehaviour per set, mean [CI]:")
            print(_ci_grid(behaviour[behaviour["comparison"].isin(sets)]).to_string())
            print("\nbehaviour differences between sets, paired by prompt, mean [CI]:")
            print(_ci_grid(behaviour[~behaviour["comparison"].isin(sets)]).to_string())
        if "revision_ci" in paths:
            revision = pd.read_csv(paths["revision_ci"])
            for scorer, rows in revision.groupby("scored_by", sort=False):
                print(f"\nrevision episodes scored by {scorer}: per arm and per pair of arms "
                      "(paired by prompt), mean [CI]:")  # fmt: skip
                print(_ci_grid(rows, "measure", "comparison").to_string())


def _ci_grid(
    table: pd.DataFrame, rows: str = "behaviour", columns: str = "comparison"
) -> pd.DataFrame:
    """`rows` x `columns` of "mean [low, high]" strings, in the order the table lists them."""
    cells = [str(stats.Estimate(r.mean, r.low, r.high)) for r in table.itertuples()]
    text = table.assign(cell=cells)
    grid = text.pivot(index=rows, columns=columns, values="cell")
    return grid.reindex(index=list(dict.fromkeys(table[rows])),
                        columns=list(dict.fromkeys(table[columns]))).fillna("")  # fmt: skip
