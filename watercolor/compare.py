"""Lay training runs side by side: key metrics, reward curves and the same step's canvases.

    python -m watercolor.compare --experiment three_rewards
    python -m watercolor.compare --sweep-dir outputs/multirun/2026-11-30/01-45-32
    python -m watercolor.compare --runs 9ba52e24... 1c3f0a77... --out outputs/compare/mine
    python -m watercolor.compare --experiment three_rewards --filter "tags.debug = 'None'"
    python -m watercolor.compare --study three_rewards_v2-1a2b3c4d     # one study's runs
    python -m watercolor.compare --records experiments/2026-12-01_three_rewards_v2/records

Writes to `--out` (default outputs/compare/<timestamp>): `runs.csv` (one row per run: its
reward set and seed, then `final/<metric>` and `best/<metric>` for the reward (`reward/total`),
each component's gated mean (`reward/<component>`), the execution rate, each violation rate and
the completion length, named as training logs them: `watercolor.tracking.metric_name`),
`aggregate.csv` (mean and std across the seeds of each reward set), `curves.png` (those metrics
per step: per reward set the mean over its seeds, a min-max band across them, EMA-smoothed by
`--ema`), `components.png` (the raw component values, the same way), `curves.csv` (both
figures' lines and bands) and `gallery.html` (each run's grid and canvases at one rollout step,
with prompts and scores), then logs them to a new MLflow run tagged `kind=compare`. Runs tagged
with a `kind` (evaluations, comparisons) are left out of experiment and sweep selections.

With evaluations of the runs (`watercolor.evaluate`, `kind=evaluate`): `matrix.csv` and
`matrix_aggregate.csv` (their summary metrics, mean ± std over seeds), `matrix_gallery.png`
and, from their per-sample tables, the statistics (`watercolor.stats`: 95 % CIs by a bootstrap
over seeds and prompts, paired by prompt): `matrix_ci.csv` and `matrix_heatmap.png` (trained
with x scored by), `verdict.csv` (per scorer: does the set trained with it score highest under
it, by how much) and `behaviour_ci.csv` (each behaviour per set and per pair of sets).

Its input is `watercolor.records.Records`: read from an MLflow store through
`mlflow.MlflowClient` (search_runs, get_metric_history, download_artifacts), so it works against
any store the runs were logged to, or from a study's committed records folder (`--records`),
whose galleries re-render the replies. Both give the same tables (the runs sorted by reward set,
seed and id either way). A study's evaluations are its own: the untrained model's evaluation
counts only for the runs of its own study (their `study` tag), so studies sharing a store never
pool. `provenance.csv` lists each run's commit and config hash; runs of one reward set that
differ in anything but their seed are reported loudly.
"""

from __future__ import annotations

import argparse
import dataclasses
import datetime
import math
import os
import re
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path

import mlflow
import numpy as np
import pandas as pd
from matplotlib.figure import Figure
from matplotlib.ticker import MaxNLocator
from mlflow.entities import Run
from PIL import Image

from watercolor import records, stats
from watercolor.behaviour import BEHAVIOURS
from watercolor.canvas_sources import RenderedCanvases, StoreCanvases
from watercolor.gallery import gallery_html
from watercolor.records import PROVENANCE, Records
from watercolor.tracking import RUN_ID_FILE, mlflow_run, tracking_uri

DEFAULT_URI = f"sqlite:///{Path('outputs/mlflow.db').resolve()}"
# The table's metrics (regular expressions) and which way is better (None: no "best").
# Names as training logs them (`watercolor.tracking.metric_name`).
COMPONENT_MEANS = r"reward/(?!total)[^/]+"  # each component's gated mean, TRL's rewards/<c>/mean
KEY_METRICS: dict[str, str | None] = {
    r"reward/total": "max",
    COMPONENT_MEANS: "max",
    r"rollouts/execution_rate": "max",
    r"rollouts/violations/.+": "min",
    r"train/completions/mean_length": None,
}
CURVE_METRICS = (
    r"reward/total", r"rollouts/execution_rate", COMPONENT_MEANS, r"train/completions/mean_length",
)  # fmt: skip
COMPONENT_METRICS = (r"reward/raw/.+",)
ROLLOUT_STEP = re.compile(r"rollouts/step_(\d+)$")


# --- which runs ---------------------------------------------------------------------------------


def select_runs(
    client: mlflow.MlflowClient,
    *,
    experiment: str | None = None,
    sweep_dir: str | Path | None = None,
    run_ids: Sequence[str] = (),
    filter_string: str = "",
    study: str | None = None,
) -> list[Run]:
    """Runs of an experiment, of a Hydra sweep dir (its jobs' `mlflow_run_id`), of a study
    (its `study` tag, finished runs only: a part cut off and run again leaves a RUNNING run)
    or by id.

    Experiment, sweep and study selections skip runs tagged with a `kind` (evaluate, compare).
    """
    if experiment is not None:
        found = client.get_experiment_by_name(experiment)
        if found is None:
            raise SystemExit(f"no MLflow experiment named {experiment!r}")
        runs = client.search_runs(
            [found.experiment_id], filter_string, order_by=["attributes.start_time ASC"]
        )
        return [run for run in runs if "kind" not in run.data.tags]
    if sweep_dir is not None:
        files = sorted(Path(sweep_dir).rglob(RUN_ID_FILE))
        runs = [client.get_run(file.read_text().strip()) for file in files]
        return [run for run in runs if "kind" not in run.data.tags]
    if study is not None:
        ids = [e.experiment_id for e in client.search_experiments()]
        runs = client.search_runs(ids, f"tags.study = '{study}' and attributes.status = 'FINISHED'",
                                  order_by=["attributes.start_time ASC"])  # fmt: skip
        return [run for run in runs if "kind" not in run.data.tags]
    return [client.get_run(run_id) for run_id in run_ids]


def study_tags(runs: Sequence[Run]) -> list[str]:
    """The studies (`study` tags) the runs belong to, in order of first appearance."""
    return list(dict.fromkeys(t for r in runs if (t := r.data.tags.get("study"))))


# --- metrics ------------------------------------------------------------------------------------


def history(full: pd.DataFrame, patterns: Sequence[str]) -> pd.DataFrame:
    """Per-step values (index: step) of the metrics of a run's full history that match
    `patterns` (full matches, in pattern order).

    A violation code is only logged on steps where it occurred, so on the other steps that
    logged a reward its rate is 0, not missing.
    """
    names = sorted(full.columns)
    frame = full[list(dict.fromkeys(n for p in patterns for n in names if re.fullmatch(p, n)))]
    frame = frame.astype(float).copy()
    frame.index = frame.index.astype(int)
    frame.index.name = "step"
    if "reward/total" in frame:
        logged = frame["reward/total"].notna()
        for name in (c for c in frame.columns if c.startswith("rollouts/violations/")):
            frame.loc[logged, name] = frame.loc[logged, name].fillna(0.0)
    return frame


def summary_row(info: dict, frame: pd.DataFrame) -> dict:
    """`info` plus the number of steps and `final/<m>` (and `best/<m>`) of each key metric."""
    row = info | {"steps": int(frame.index.max()) if len(frame) else 0}
    for pattern, better in KEY_METRICS.items():
        for name in (c for c in frame.columns if re.fullmatch(pattern, c)):
            values = frame[name].dropna()
            row[f"final/{name}"] = values.iloc[-1] if len(values) else math.nan
            if better is not None:
                row[f"best/{name}"] = getattr(values, better)() if len(values) else math.nan
    return row


IDENTITY = ("run_id", "run_name", "experiment_id", "reward_set", "seed", "model", "status")


def runs_table(found: Records) -> tuple[pd.DataFrame, dict[str, pd.DataFrame]]:
    """(one row per run: who it is, then its key metrics; {run id: its per-step history of the
    key and curve metrics}). Provenance is `provenance_table`'s."""
    patterns = [*KEY_METRICS, *CURVE_METRICS, *COMPONENT_METRICS]
    histories = {r["run_id"]: history(found.histories[r["run_id"]], patterns) for r in found.runs}
    rows = [summary_row({k: info[k] for k in IDENTITY}, histories[info["run_id"]])
            for info in found.runs]  # fmt: skip
    table = pd.DataFrame(rows)
    table.insert(0, "label", run_labels(table))
    return table[metric_order(table.columns)], histories


def sort_key(info: dict) -> tuple:
    """Runs in one order whatever the source: reward set, seed (as a number), run id."""
    seed = str(info.get("seed", ""))
    return (str(info.get("reward_set", "")), int(seed) if seed.isdigit() else math.inf, seed,
            info.get("run_id", ""))  # fmt: skip


def provenance_table(found: Records, labels: pd.Series) -> pd.DataFrame:
    """Per run: label, reward set, seed, commit, dirty, config hash and study."""
    rows = [{"label": label, "reward_set": info["reward_set"], "seed": info["seed"]}
            | {name: info.get(name, "") for name in PROVENANCE} | {"run_id": info["run_id"]}
            for label, info in zip(labels, found.runs, strict=True)]  # fmt: skip
    return pd.DataFrame(rows)


def provenance_warnings(table: pd.DataFrame) -> list[str]:
    """What makes the runs not one study with one training path: runs of one reward set with
    different config hashes, several commits, uncommitted training code, several studies."""
    warnings = []
    for reward_set, rows in table.groupby("reward_set", sort=True):
        hashes = sorted(set(rows["config_hash"]))
        if len(hashes) > 1:
            warnings.append(f"runs of {reward_set} differ in more than their seed: config "
                            f"hashes {', '.join(h or '(none)' for h in hashes)}")  # fmt: skip
    commits = sorted(set(table["commit"]))
    if len(commits) > 1:
        by_commit = {c: ", ".join(table.loc[table["commit"] == c, "label"]) for c in commits}
        warnings.append("runs come from several commits (check that nothing that changes what "
                        "training computes landed between them): "
                        + "; ".join(f"{c[:10] or '(none)'}: {labels}"
                                    for c, labels in by_commit.items()))  # fmt: skip
    if (table["dirty"] == "true").any():
        dirty = ", ".join(table.loc[table["dirty"] == "true", "label"])
        warnings.append(f"runs trained with uncommitted changes to the training code: {dirty}")
    if len(studies := sorted(set(table["study"]) - {""})) > 1:
        warnings.append(f"runs of {len(studies)} studies are pooled: {', '.join(studies)} "
                        "(select one with --study or --records)")  # fmt: skip
    return warnings


def metric_order(columns: Sequence[str]) -> list[str]:
    """Identity columns first, then each key metric (in KEY_METRICS order) final, then best."""
    metrics = {c.split("/", 1)[1] for c in columns if c.startswith(("final/", "best/"))}
    ordered = [m for p in KEY_METRICS for m in sorted(metrics) if re.fullmatch(p, m)]
    found = [f"{k}/{m}" for m in ordered for k in ("final", "best") if f"{k}/{m}" in columns]
    return [c for c in columns if not c.startswith(("final/", "best/"))] + found


def run_labels(table: pd.DataFrame) -> list[str]:
    """`<reward set>/seed<seed>`, made unique with the run id's start where it repeats."""
    labels = [f"{r}/seed{s}" for r, s in zip(table["reward_set"], table["seed"], strict=True)]
    repeated = {label for label in labels if labels.count(label) > 1}
    return [
        f"{label}#{run_id[:6]}" if label in repeated else label
        for label, run_id in zip(labels, table["run_id"], strict=True)
    ]


def aggregate(table: pd.DataFrame) -> pd.DataFrame:
    """Mean and std across runs (seeds) of each reward set: columns `<metric> mean|std`, `runs`."""
    metrics = [c for c in table.columns if c.startswith(("final/", "best/"))]
    return mean_and_std(table, "reward_set", metrics)


def mean_and_std(table: pd.DataFrame, by: str, metrics: list[str], sort: bool = True):
    """Per value of `by`: columns `<metric> mean` and `<metric> std`, and `runs` (rows)."""
    grouped = table.groupby(by, sort=sort)[metrics]
    stats = grouped.agg(["mean", "std"])
    stats.columns = [f"{metric} {stat}" for metric, stat in stats.columns]
    stats.insert(0, "runs", grouped.size())
    return stats


def mean_pm_std(stats: pd.DataFrame) -> pd.DataFrame:
    """The aggregate as `mean ± std` strings (metric rows, reward-set columns), for printing."""
    metrics = [c.removesuffix(" mean") for c in stats.columns if c.endswith(" mean")]
    text = {
        metric: [
            _pm(m, s) for m, s in zip(stats[f"{metric} mean"], stats[f"{metric} std"], strict=True)
        ]
        for metric in metrics
    }
    frame = pd.DataFrame(text, index=stats.index).T
    frame.loc["runs"] = stats["runs"].astype(str)
    return frame


def _pm(mean: float, std: float) -> str:
    return "n/a" if pd.isna(mean) else f"{mean:.3f}" + ("" if pd.isna(std) else f" ± {std:.3f}")


# --- curves -------------------------------------------------------------------------------------


def set_curves(
    table: pd.DataFrame, histories: dict[str, pd.DataFrame], name: str, smoothing: float
) -> dict[str, pd.DataFrame]:
    """Per reward set, metric `name` per step: each run's curve EMA-smoothed, then the mean,
    min and max across the set's runs (seeds) and how many have the step (`stats.band`)."""
    bands = {}
    for reward_set, runs in table.groupby("reward_set", sort=True):
        curves = {
            run_id: stats.ema(histories[run_id][name].dropna(), smoothing)
            for run_id in runs["run_id"]
            if name in histories[run_id] and histories[run_id][name].notna().any()
        }
        if curves:
            bands[reward_set] = stats.band(curves)
    return bands


def curve_names(histories: dict[str, pd.DataFrame], patterns: Sequence[str]) -> list[str]:
    """The metrics matching `patterns` that any run logged, in pattern order."""
    return list(dict.fromkeys(
        c for p in patterns for h in histories.values() for c in sorted(h) if re.fullmatch(p, c)
    ))  # fmt: skip


def curves_table(
    table: pd.DataFrame, histories: dict[str, pd.DataFrame], names: Sequence[str], smoothing: float
) -> pd.DataFrame:
    """Long table of the plotted curves: metric, reward_set, step, mean, low, high, curves."""
    frames = [
        band.rename_axis("step").reset_index().assign(metric=name, reward_set=reward_set)
        for name in names
        for reward_set, band in set_curves(table, histories, name, smoothing).items()
    ]
    columns = ["metric", "reward_set", "step", "mean", "low", "high", "curves"]
    return pd.concat(frames)[columns] if frames else pd.DataFrame(columns=columns)


def plot_curves(curves: pd.DataFrame, path: Path, title: str, smoothing: float) -> Path | None:
    """One panel per metric of `curves_table`: per reward set, the mean over its seeds (line)
    and the min-max across them (band), one colour per set."""
    names = list(dict.fromkeys(curves["metric"]))
    if not names:
        return None
    columns = min(4, len(names))
    rows = math.ceil(len(names) / columns)
    figure = Figure(figsize=(4 * columns, 2.8 * rows + 1.0), layout="constrained")
    axes = figure.subplots(rows, columns, squeeze=False).ravel()
    colours = {s: f"C{i % 10}" for i, s in enumerate(sorted(set(curves["reward_set"])))}
    for ax, name in zip(axes, names, strict=False):
        for reward_set, band in curves[curves["metric"] == name].groupby("reward_set"):
            seeds = int(band["curves"].max())
            ax.plot(band["step"], band["mean"], color=colours[reward_set], marker=".",
                    label=f"{reward_set} ({seeds} seed{'s' * (seeds > 1)})")  # fmt: skip
            ax.fill_between(band["step"], band["low"], band["high"], color=colours[reward_set],
                            alpha=0.2, linewidth=0)  # fmt: skip
        ax.set_title(name, fontsize=9)
        ax.set_xlabel("step", fontsize=8)
        ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    for ax in axes[len(names) :]:
        ax.set_visible(False)
    handles, labels = axes[0].get_legend_handles_labels()
    figure.legend(handles, labels, loc="outside lower center", ncols=min(6, len(labels)))
    figure.suptitle(f"{title}: line = mean over seeds, band = min-max across seeds, "
                    f"EMA smoothing {smoothing:g} (0 = raw)", fontsize=10)  # fmt: skip
    figure.savefig(path, dpi=90)
    return path


# --- gallery ------------------------------------------------------------------------------------


def gallery_step(rollouts: Mapping[str, pd.DataFrame]) -> dict[str, int | None]:
    """The last rollout step every run logged; a run's own last one if they share none."""
    steps = {run_id: sorted({int(s) for s in table["step"]}) for run_id, table in rollouts.items()}
    shared = set.intersection(*(set(s) for s in steps.values())) if steps else set()
    if shared:
        return dict.fromkeys(steps, max(shared))
    return {run_id: (s[-1] if s else None) for run_id, s in steps.items()}


def run_cards(canvases, run_id: str, step: int, rollouts: pd.DataFrame, out_dir: Path) -> list:
    """Gallery cards of one run at one rollout step: its grid, then each canvas with its prompt."""
    rows = rollouts[rollouts["step"] == step].sort_values("index")
    found = canvases.rollouts(run_id, step, rows, out_dir / "gallery" / run_id)
    cards = [{"image": _relative(found["grid"], out_dir), "caption": "grid",
              "lines": [f"rollout step {step}"]}]  # fmt: skip
    for row in rows.to_dict("records"):
        canvas = found.get(int(row["index"]))
        cards.append({
            "image": _relative(canvas, out_dir) if canvas else None,
            "placeholder": row["status"],
            "caption": f"#{int(row['index'])}: reward {_fmt(row['reward'])} ({row['status']})",
            "lines": [row["prompt"], row.get("violations") or "no violations"],
        })  # fmt: skip
    return cards


def _relative(path: Path, root: Path) -> str | None:
    return path.relative_to(root).as_posix() if path.is_file() else None


def _fmt(value) -> str:
    return "n/a" if value is None or pd.isna(value) else f"{value:.3f}"


def write_gallery(canvases, table: pd.DataFrame, found: Records, out_dir: Path) -> Path:
    """gallery.html: each run's grid and canvases at the same rollout step, side by side."""
    steps = gallery_step({run_id: found.rollouts[run_id] for run_id in table["run_id"]})
    sections = []
    for run in table.to_dict("records"):
        step = steps[run["run_id"]]
        heading = f"{run['label']} ({run['run_name']}, {run['run_id'][:8]})"
        if step is None:
            sections.append((heading, [{"caption": "no rollouts logged"}]))
            continue
        rollouts = found.rollouts[run["run_id"]]
        sections.append((heading, run_cards(canvases, run["run_id"], step, rollouts, out_dir)))
    path = out_dir / "gallery.html"
    path.write_text(gallery_html("compare: canvases at the same step", sections))
    return path


# --- evaluations: "trained with x scored by" ----------------------------------------------------

# Figures of an evaluation (`watercolor.evaluate`'s summary metrics) that the matrix shows.
MATRIX_METRICS = (
    r"total/.+",
    *(re.escape(name) for name in BEHAVIOURS),
    r"violations/.+",
)
UNTRAINED = "(untrained)"


def evaluations(
    client: mlflow.MlflowClient, runs: Sequence[Run], studies: Sequence[str] | None = None
) -> list[Run]:
    """The `kind=evaluate` runs that belong with `runs`, in the runs' experiments: the newest
    evaluation of each of `runs`, and the untrained model's evaluations of the runs' own
    studies (`studies`; default: the runs' `study` tags), the matrix's baseline row.

    An untrained evaluation of another study (an earlier one, a smoke one) never counts. Runs
    of no study (single runs) take the untrained evaluations of no study (`evaluate` by hand).
    """
    by_id = {run.info.run_id for run in runs}
    if studies is None:
        studies = {run.data.tags.get("study", "") for run in runs}
    experiment_ids = sorted({run.info.experiment_id for run in runs})
    found = client.search_runs(
        experiment_ids, "tags.kind = 'evaluate'", order_by=["attributes.start_time DESC"]
    )
    newest: dict[str, Run] = {}
    untrained = []
    for evaluation in found:
        source = evaluation.data.tags.get("source_run_id")
        if source is None and evaluation.data.tags.get("study", "") in set(studies):
            untrained.append(evaluation)
        elif source in by_id and source not in newest:
            newest[source] = evaluation
    return untrained + list(newest.values())


def matrix_table(found: Records) -> pd.DataFrame:
    """One row per evaluation: what it evaluated (reward set trained with, seed) and its figures."""
    infos = {info["run_id"]: info for info in found.runs}
    rows = []
    for evaluation in found.evaluations:
        info = infos.get(evaluation.source_run_id, {})
        if evaluation.source_run_id and not info:
            continue  # an evaluation of a run that is not compared
        row = {
            "trained_with": info.get("reward_set", UNTRAINED),
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
    return mean_and_std(table, "trained_with", metrics, sort=False)


def print_matrix(aggregated: pd.DataFrame) -> None:
    """The trained-with x scored-by table (rows x `total/<set>`), then the behaviour figures."""
    shown = mean_pm_std(aggregated).T.drop(columns="runs")
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
    cards = []
    for key in (k for k in keys if k in rows.index):
        row = rows.loc[key]
        first = [line for line in str(row["reply"]).splitlines() if line.strip()][:4]
        cards.append({"image": _relative(pngs[key], out_dir) if key in pngs else None,
                      "placeholder": row["status"], "caption": f"{key}: {row['prompt']}",
                      "lines": [f"status {row['status']}", *first]})  # fmt: skip
    return cards


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
    resampled within each set, prompts shared: see `watercolor.stats`)."""
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
    return pd.DataFrame(rows)


def behaviour_table(
    samples: pd.DataFrame, resamples: int, seed: int, behaviours: Mapping[str, str] | None = None
) -> pd.DataFrame:
    """Long table per behaviour (`watercolor.behaviour.BEHAVIOURS`: summary metric -> sample
    column): each set's mean with its CI, then each pair's difference (paired by prompt).

    `comparison` is a set's name or "a - b"; against the untrained model it is trained minus
    untrained. Behaviours whose column the samples lack are left out.
    """
    rows = []
    for metric, column in (behaviours or _behaviours()).items():
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


def _behaviours() -> Mapping[str, str]:
    # Imported on use: the behaviour measures pull in the reward code, the rest of compare not.
    from watercolor.behaviour import BEHAVIOURS

    return BEHAVIOURS


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
    figure.savefig(path, dpi=90)
    return path


def write_statistics(
    samples: pd.DataFrame, out_dir: Path, resamples: int, seed: int
) -> dict[str, Path]:
    """matrix_ci.csv, matrix_heatmap.png, verdict.csv and behaviour_ci.csv from the samples."""
    paths = {name: out_dir / f"{name}.csv" for name in ("matrix_ci", "verdict", "behaviour_ci")}
    ci = matrix_ci(samples, resamples, seed)
    ci.to_csv(paths["matrix_ci"], index=False)
    verdict_table(samples, resamples, seed).to_csv(paths["verdict"], index=False)
    behaviour_table(samples, resamples, seed).to_csv(paths["behaviour_ci"], index=False)
    if len(ci):
        paths["matrix_heatmap"] = matrix_heatmap(ci, out_dir / "matrix_heatmap.png")
    return paths


# --- entry point --------------------------------------------------------------------------------


def compare(
    found: Records,
    canvases,
    out_dir: Path,
    *,
    smoothing: float = stats.SMOOTHING,
    resamples: int = stats.RESAMPLES,
    seed: int = 0,
    gallery: bool = True,
) -> dict[str, Path]:
    """Write the tables, curves, provenance, gallery and (with evaluations) the matrix and its
    statistics of the runs `found` holds into `out_dir`; their paths. `canvases` fetches the
    galleries' pictures (`watercolor.canvas_sources`); `gallery=False` leaves them out.
    `seed` seeds the bootstrap."""
    out_dir.mkdir(parents=True, exist_ok=True)
    found = in_order(found)
    table, histories = runs_table(found)
    paths = {name: out_dir / f"{name}.csv" for name in ("runs", "aggregate", "provenance")}
    table.to_csv(paths["runs"], index=False)
    aggregate(table).to_csv(paths["aggregate"])
    provenance_table(found, table["label"]).to_csv(paths["provenance"], index=False)
    paths |= write_curves(table, histories, out_dir, smoothing)
    if gallery:
        paths["gallery"] = write_gallery(canvases, table, found, out_dir)
    matrix = matrix_table(found)
    if len(matrix):
        paths |= write_matrix(found, canvases if gallery else None, matrix, out_dir, resamples,
                              seed)  # fmt: skip
    return paths


def in_order(found: Records) -> Records:
    """The runs sorted by reward set, seed and id (`sort_key`), so every source gives the same
    tables and the same bootstrap draws."""
    return dataclasses.replace(found, runs=sorted(found.runs, key=sort_key))


def write_curves(
    table: pd.DataFrame, histories: dict[str, pd.DataFrame], out_dir: Path, smoothing: float
) -> dict[str, Path]:
    """curves.png, components.png and curves.csv (both figures' smoothed means and bands)."""
    paths, frames = {}, []
    for name, patterns in (("curves", CURVE_METRICS), ("components", COMPONENT_METRICS)):
        curves = curves_table(table, histories, curve_names(histories, patterns), smoothing)
        frames.append(curves)
        if path := plot_curves(curves, out_dir / f"{name}.png", name, smoothing):
            paths[name] = path
    paths["curves_table"] = out_dir / "curves.csv"
    pd.concat(frames).to_csv(paths["curves_table"], index=False)
    return paths


def write_matrix(
    found: Records, canvases, matrix: pd.DataFrame, out_dir: Path, resamples: int, seed: int
) -> dict[str, Path]:
    """matrix.csv and matrix_aggregate.csv (summary metrics), matrix_gallery.png (unless
    `canvases` is None) and, from the evaluations' samples, the statistics (`write_statistics`)."""
    paths = {"matrix": out_dir / "matrix.csv", "matrix_aggregate": out_dir / "matrix_aggregate.csv"}
    matrix.to_csv(paths["matrix"], index=False)
    matrix_aggregate(matrix).to_csv(paths["matrix_aggregate"])
    if canvases is not None and (gallery := matrix_gallery(canvases, matrix, found, out_dir)):
        paths["matrix_gallery"] = gallery
    samples = evaluation_samples(found, matrix)
    if len(samples):
        paths |= write_statistics(samples, out_dir, resamples, seed)
    return paths


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


def _ci_grid(
    table: pd.DataFrame, rows: str = "behaviour", columns: str = "comparison"
) -> pd.DataFrame:
    """`rows` x `columns` of "mean [low, high]" strings, in the order the table lists them."""
    cells = [str(stats.Estimate(r.mean, r.low, r.high)) for r in table.itertuples()]
    text = table.assign(cell=cells)
    grid = text.pivot(index=rows, columns=columns, values="cell")
    return grid.reindex(index=list(dict.fromkeys(table[rows])),
                        columns=list(dict.fromkeys(table[columns]))).fillna("")  # fmt: skip


def print_tables(runs_csv: Path) -> None:
    """The runs (metrics as rows, runs as columns) and, with repeated seeds, the aggregate."""
    table = pd.read_csv(runs_csv)
    shown = table.set_index("label").drop(columns=["experiment_id", "status"])
    shown["run_id"] = shown["run_id"].str[:8]
    with pd.option_context("display.width", 250, "display.max_rows", 500):
        print(shown.T.to_string(float_format=lambda v: f"{v:.3f}"))
        if table["reward_set"].duplicated().any():
            print("\nmean ± std across seeds, per reward set:")
            print(mean_pm_std(aggregate(table)).to_string())


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    which = parser.add_mutually_exclusive_group(required=True)
    which.add_argument("--experiment", help="every training run of this MLflow experiment")
    which.add_argument("--sweep-dir", help="a Hydra multirun dir (its jobs' mlflow_run_id files)")
    which.add_argument("--runs", nargs="+", metavar="ID", help="MLflow run ids")
    which.add_argument("--study", help="the finished training runs of one study (its `study` tag)")
    which.add_argument("--records", metavar="DIR",
                       help="a study's records folder (watercolor.records): no MLflow store; "
                       "galleries re-render the replies")  # fmt: skip
    parser.add_argument("--filter", default="", help="MLflow search filter (with --experiment)")
    parser.add_argument("--out", help="output dir (default outputs/compare/<timestamp>)")
    parser.add_argument("--tracking-uri", default=DEFAULT_URI,
                        help="MLflow store (MLFLOW_TRACKING_URI wins when set)")  # fmt: skip
    parser.add_argument("--log-experiment", help="experiment of the compare run "
                        "(default: the compared runs' experiment)")  # fmt: skip
    parser.add_argument("--no-log", action="store_true", help="do not log a compare run "
                        "(a --records comparison never logs one)")  # fmt: skip
    parser.add_argument("--no-gallery", action="store_true",
                        help="no galleries (no canvases fetched or rendered)")  # fmt: skip
    parser.add_argument("--ema", type=_smoothing, default=stats.SMOOTHING, metavar="WEIGHT",
                        help="curve smoothing: EMA weight of the past in [0, 1), 0 = raw "
                        "(default %(default)s)")  # fmt: skip
    parser.add_argument("--resamples", type=int, default=stats.RESAMPLES,
                        help="bootstrap resamples of the CIs (default %(default)s)")  # fmt: skip
    parser.add_argument("--bootstrap-seed", type=int, default=0,
                        help="seed of the bootstrap (default %(default)s)")  # fmt: skip
    return parser.parse_args(argv)


def _smoothing(text: str) -> float:
    value = float(text)
    if not 0 <= value < 1:
        raise argparse.ArgumentTypeError(f"must be in [0, 1), got {text}")
    return value


def main(argv: Sequence[str] | None = None) -> dict[str, Path]:
    args = parse_args(argv)
    os.environ.setdefault("MLFLOW_ENABLE_ARTIFACTS_PROGRESS_BAR", "false")  # a bar per file
    stamp = datetime.datetime.now().strftime("%Y-%m-%d/%H-%M-%S")
    out_dir = Path(args.out or f"outputs/compare/{stamp}")
    if args.records is not None:
        found = records.read(args.records)
        if not found.runs:
            raise SystemExit(f"no finished runs in {args.records}")
        canvases, runs = RenderedCanvases(found), None
    else:
        uri = tracking_uri(args.tracking_uri)
        client = mlflow.MlflowClient(uri)
        runs = select_runs(client, experiment=args.experiment, sweep_dir=args.sweep_dir,
                           run_ids=args.runs or (), filter_string=args.filter,
                           study=args.study)  # fmt: skip
        if not runs:
            raise SystemExit("no runs to compare")
        studies = [args.study] if args.study else None
        found = records.from_store(client, runs, evaluations(client, runs, studies))
        canvases = StoreCanvases(client)
    paths = compare(found, canvases, out_dir, smoothing=args.ema, resamples=args.resamples,
                    seed=args.bootstrap_seed, gallery=not args.no_gallery)  # fmt: skip
    if "verdict" in paths:
        print_statistics(paths)
        print()
    print_provenance(paths["provenance"])
    print_tables(paths["runs"])
    if "matrix_aggregate" in paths and "verdict" not in paths:  # evaluations without samples
        print_matrix(pd.read_csv(paths["matrix_aggregate"], index_col="trained_with"))
    print(f"\nwritten to {out_dir}")
    if runs is not None and not args.no_log:
        log_compare_run(uri, args, runs, out_dir)
    return paths


def print_provenance(path: Path) -> None:
    """Each run's commit and config hash; then, loudly, whatever makes them not one study."""
    table = pd.read_csv(path, dtype=str, keep_default_na=False)
    shown = table.assign(commit=table["commit"].str[:10]).drop(columns=["run_id"])
    print("provenance: the commit and config (less seed, paths, tracking) each run trained with")
    print(shown.to_string(index=False))
    for warning in provenance_warnings(table):
        print(f"\n!!! WARNING: {warning}", file=sys.stderr)
    print()


def log_compare_run(uri: str, args: argparse.Namespace, runs: Sequence[Run], out_dir: Path):
    """A `kind=compare` run holding the outputs, in the compared runs' experiment by default."""
    client = mlflow.MlflowClient(uri)
    name = args.log_experiment or client.get_experiment(runs[0].info.experiment_id).name
    selection = {k: v for k, v in vars(args).items()
                 if k in ("experiment", "sweep_dir", "filter", "study")}  # fmt: skip
    tags = {"kind": "compare", "runs": ",".join(r.info.run_id for r in runs)[:5000]}
    params = {k: str(v) for k, v in selection.items() if v} | {"num_runs": len(runs)}
    run_name = f"compare-{len(runs)}-runs"
    with mlflow_run(uri, name, params=params, tags=tags, run_dir=out_dir,
                    artifact_root=_artifact_root(uri), run_name=run_name):  # fmt: skip
        mlflow.log_artifacts(str(out_dir))


def _artifact_root(uri: str) -> str | None:
    """`mlartifacts` beside a sqlite store (as training uses), for a new experiment."""
    if uri.startswith("sqlite:///"):
        return str(Path(uri.removeprefix("sqlite:///")).parent / "mlartifacts")
    return None


if __name__ == "__main__":
    main()
