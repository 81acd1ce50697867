"""Lay training runs side by side: key metrics, reward curves and the same step's canvases.

    python -m watercolor.compare --experiment three_rewards
    python -m watercolor.compare --sweep-dir outputs/multirun/2026-11-30/01-45-32
    python -m watercolor.compare --runs 9ba52e24... 1c3f0a77... --out outputs/compare/mine
    python -m watercolor.compare --experiment three_rewards --filter "tags.debug = 'None'"
    python -m watercolor.compare --study three_rewards_v2-1a2b3c4d     # one study's runs
    python -m watercolor.compare --records experiments/2026-12-01_three_rewards_v2/records

Runs are grouped by their arm (`watercolor.analysis.records.arm_of`), read from an MLflow store
or a study's records folder (`watercolor.analysis.records.Records`), and laid out in tables,
figures and a gallery under `--out`, logged to an MLflow run of their own (`kind=compare`). Every
file it writes, how runs are selected and what a usage error is: docs/studies.md, "What compare
reads and writes".
"""

from __future__ import annotations

import argparse
import contextlib
import dataclasses
import datetime
import math
import re
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path

import mlflow
import pandas as pd
from matplotlib.figure import Figure
from matplotlib.ticker import MaxNLocator
from mlflow.entities import Run

from watercolor import usage
from watercolor.analysis import compare_args, divergence, records, stats, yardstick_moves
from watercolor.analysis import matrix as matrices
from watercolor.analysis.canvas_sources import RenderedCanvases, StoreCanvases
from watercolor.analysis.gallery import gallery_html, relative, save_chart, score_text
from watercolor.analysis.records import (
    Records,
    StoreSelection,
    evaluations,
    provenance_table,
    provenance_warnings,
)
from watercolor.config import compose_train, tracking_defaults
from watercolor.tracking import (
    mlflow_run,
    quiet_artifact_transfers,
    save_side_by_side_view,
    serve_hint,
    side_by_side_link,
)

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


IDENTITY = ("run_id", "run_name", "experiment_id", "reward_set", "arm", "seed", "model", "status")


def runs_table(found: Records) -> tuple[pd.DataFrame, dict[str, pd.DataFrame]]:
    """(one row per run: who it is, then its key metrics; {run id: its per-step history of the
    key and curve metrics}). Provenance is `provenance_table`'s."""
    patterns = [*KEY_METRICS, *CURVE_METRICS, *COMPONENT_METRICS, *yardstick_moves.PATTERNS]
    histories = {r["run_id"]: history(found.histories[r["run_id"]], patterns) for r in found.runs}
    rows = [summary_row({k: info[k] for k in IDENTITY}, histories[info["run_id"]])
            for info in found.runs]  # fmt: skip
    table = pd.DataFrame(rows)
    table.insert(0, "label", run_labels(table))
    return table[metric_order(table.columns)], histories


def sort_key(info: dict) -> tuple:
    """Runs in one order whatever the source: arm, seed (as a number), run id."""
    seed = str(info.get("seed", ""))
    return (str(info.get("arm", "")), int(seed) if seed.isdigit() else math.inf, seed,
            info.get("run_id", ""))  # fmt: skip


def metric_order(columns: Sequence[str]) -> list[str]:
    """Identity columns first, then each key metric (in KEY_METRICS order) final, then best."""
    metrics = {c.split("/", 1)[1] for c in columns if c.startswith(("final/", "best/"))}
    ordered = [m for p in KEY_METRICS for m in sorted(metrics) if re.fullmatch(p, m)]
    found = [f"{k}/{m}" for m in ordered for k in ("final", "best") if f"{k}/{m}" in columns]
    return [c for c in columns if not c.startswith(("final/", "best/"))] + found


def run_labels(table: pd.DataFrame) -> list[str]:
    """`<arm>/seed<seed>`, made unique with the run id's start where it repeats."""
    labels = [f"{a}/seed{s}" for a, s in zip(table["arm"], table["seed"], strict=True)]
    repeated = {label for label in labels if labels.count(label) > 1}
    return [
        f"{label}#{run_id[:6]}" if label in repeated else label
        for label, run_id in zip(labels, table["run_id"], strict=True)
    ]


def aggregate(table: pd.DataFrame) -> pd.DataFrame:
    """Mean and std across runs (seeds) of each arm: columns `<metric> mean|std`, `runs`."""
    metrics = [c for c in table.columns if c.startswith(("final/", "best/"))]
    return stats.mean_and_std(table, "arm", metrics)


# --- curves -------------------------------------------------------------------------------------


def set_curves(
    table: pd.DataFrame, histories: dict[str, pd.DataFrame], name: str, smoothing: float
) -> dict[str, pd.DataFrame]:
    """Per arm, metric `name` per step: each run's curve EMA-smoothed, then the mean, min and
    max across the arm's runs (seeds) and how many have the step (`stats.band`)."""
    bands = {}
    for arm, runs in table.groupby("arm", sort=True):
        curves = {
            run_id: stats.ema(histories[run_id][name].dropna(), smoothing)
            for run_id in runs["run_id"]
            if name in histories[run_id] and histories[run_id][name].notna().any()
        }
        if curves:
            bands[arm] = stats.band(curves)
    return bands


def curve_names(histories: dict[str, pd.DataFrame], patterns: Sequence[str]) -> list[str]:
    """The metrics matching `patterns` that any run logged, in pattern order."""
    return list(dict.fromkeys(
        c for p in patterns for h in histories.values() for c in sorted(h) if re.fullmatch(p, c)
    ))  # fmt: skip


def curves_table(
    table: pd.DataFrame, histories: dict[str, pd.DataFrame], names: Sequence[str], smoothing: float
) -> pd.DataFrame:
    """Long table of the plotted curves: metric, arm, step, mean, low, high, curves."""
    frames = [
        band.rename_axis("step").reset_index().assign(metric=name, arm=arm)
        for name in names
        for arm, band in set_curves(table, histories, name, smoothing).items()
    ]
    columns = ["metric", "arm", "step", "mean", "low", "high", "curves"]
    return pd.concat(frames)[columns] if frames else pd.DataFrame(columns=columns)


def plot_curves(
    curves: pd.DataFrame, path: Path, title: str, smoothing: float, note: str = ""
) -> Path | None:
    """One panel per metric of `curves_table`: per arm, the mean over its seeds (line) and the
    min-max across them (band), one colour per arm; `note` under the title."""
    names = list(dict.fromkeys(curves["metric"]))
    if not names:
        return None
    columns = min(4, len(names))
    rows = math.ceil(len(names) / columns)
    figure = Figure(figsize=(4 * columns, 2.8 * rows + 1.0), layout="constrained")
    axes = figure.subplots(rows, columns, squeeze=False).ravel()
    colours = {s: f"C{i % 10}" for i, s in enumerate(sorted(set(curves["arm"])))}
    for ax, name in zip(axes, names, strict=False):
        for arm, band in curves[curves["metric"] == name].groupby("arm"):
            seeds = int(band["curves"].max())
            ax.plot(band["step"], band["mean"], color=colours[arm], marker=".",
                    label=f"{arm} ({seeds} seed{'s' * (seeds > 1)})")  # fmt: skip
            ax.fill_between(band["step"], band["low"], band["high"], color=colours[arm],
                            alpha=0.2, linewidth=0)  # fmt: skip
        ax.set_title(name, fontsize=9)
        ax.set_xlabel("step", fontsize=8)
        ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    for ax in axes[len(names) :]:
        ax.set_visible(False)
    handles, labels = axes[0].get_legend_handles_labels()
    figure.legend(handles, labels, loc="outside lower center", ncols=min(6, len(labels)))
    figure.suptitle(f"{title}: line = mean over seeds, band = min-max across seeds, "
                    f"EMA smoothing {smoothing:g} (0 = raw)" + (f"\n{note}" if note else ""),
                    fontsize=10)  # fmt: skip
    return save_chart(figure, path, dpi=90)


# --- yardsticks ---------------------------------------------------------------------------------


def write_yardsticks(
    table: pd.DataFrame,
    histories: dict[str, pd.DataFrame],
    found: Records,
    out_dir: Path,
    names: Sequence[str],
    identical: Sequence[Sequence[str]],
    *,
    smoothing: float,
    resamples: int,
    seed: int,
) -> dict[str, Path]:
    """What the runs' shared yardsticks `names` say (`watercolor.analysis.yardstick_moves`):
    `yardsticks.png` and `yardstick_curves.csv` (per arm, the mean over seeds and the
    seeds' band), `yardsticks.csv` (per yardstick and arm: its change, with an interval over
    seeds), `yardstick_moves.csv` (which arm moved each most, by how much more than the next),
    `overoptimisation.png` / `.csv` (per job: its own reward against every set's score of its
    rollouts, and the alarm); `identical.csv` names the `identical` jobs (groups of labels)."""
    paths = {}
    if identical:
        paths["identical"] = out_dir / "identical.csv"
        pd.DataFrame([{"group": i, "label": label} for i, group in enumerate(identical)
                      for label in group]).to_csv(paths["identical"], index=False)  # fmt: skip
    if not names:
        return paths
    curves = curves_table(table, histories, names, smoothing)
    paths["yardstick_curves"] = out_dir / "yardstick_curves.csv"
    curves.to_csv(paths["yardstick_curves"], index=False)
    note = identical_note(identical)
    if path := plot_curves(curves, out_dir / "yardsticks.png", "yardsticks", smoothing, note):
        paths["yardsticks_chart"] = path
    changes = yardstick_moves.job_changes(table, histories, names)
    draws = yardstick_moves.seed_draws(table, changes, resamples, seed)
    per_arm = yardstick_moves.arm_changes(table, changes, draws)
    paths["yardsticks"] = out_dir / "yardsticks.csv"
    per_arm.to_csv(paths["yardsticks"], index=False)
    paths["yardstick_moves"] = out_dir / "yardstick_moves.csv"
    yardstick_moves.moves(per_arm, draws).to_csv(paths["yardstick_moves"], index=False)
    return paths | write_overoptimisation(table, histories, found, out_dir, smoothing)


def identical_note(identical: Sequence[Sequence[str]]) -> str:
    """What a figure says of identical jobs (groups of labels): one line drawn over another."""
    if not identical:
        return ""
    groups = "; ".join(" = ".join(group) for group in identical)
    return f"identical jobs, one line drawn over the other: {groups}"


def write_overoptimisation(
    table: pd.DataFrame, histories: dict[str, pd.DataFrame], found: Records, out_dir: Path,
    smoothing: float,
) -> dict[str, Path]:  # fmt: skip
    """`overoptimisation.png` (a panel per job that logged cross-scores) and its table."""
    jobs = {}
    for row in table.to_dict("records"):
        history = histories[row["run_id"]]
        if any(name.startswith(divergence.CROSS) for name in history):
            audited = divergence.audited_name(found.configs.get(row["run_id"], ""))
            jobs[row["label"]] = divergence.watch(history, row["reward_set"], audited)
    if not jobs:
        return {}
    paths = {"overoptimisation": out_dir / "overoptimisation.csv"}
    divergence.table(jobs).to_csv(paths["overoptimisation"], index=False)
    paths["overoptimisation_chart"] = divergence.plot_jobs(
        jobs, out_dir / "overoptimisation.png", smoothing
    )
    return paths


def common_audited(found: Records) -> str | None:
    """The audited reward set every run's config names, if they name one and agree."""
    named = {divergence.audited_name(found.configs.get(i["run_id"], "")) for i in found.runs}
    return named.pop() if len(named) == 1 else None


def second_paper(found: Records, asked: str | None) -> str | None:
    """The paper `--second-paper` names: a colour as given, or (`compare_args.AUDITED_PAPER`)
    the `second_paper` of the audited set the runs' configs name; exit 2 if they name none that
    reads one."""
    if asked != compare_args.AUDITED_PAPER:
        return asked
    audited = common_audited(found)
    paper = compose_train([f"reward={audited}"]).reward.get("second_paper") if audited else None
    if paper is None:
        usage.fail(f"--second-paper: the runs' audited set ({audited or 'none named'}) reads no "
                   "second paper; name a colour, e.g. --second-paper '#1e3a5f'")  # fmt: skip
    return paper


def audited_first(names: list[str], audited: str | None) -> list[str]:
    """`names` by section (all but a name's last part, in order of first appearance), the
    audited set's (`<section>/<audited>`) first in each, the order kept otherwise."""
    sections = list(dict.fromkeys(n.rpartition("/")[0] for n in names))
    first = f"/{audited}" if audited else "\0"  # no name ends with a NUL
    return sorted(
        names, key=lambda n: (sections.index(n.rpartition("/")[0]), not n.endswith(first))
    )


# --- gallery ------------------------------------------------------------------------------------


def gallery_steps(
    rollouts: Mapping[str, pd.DataFrame], chosen: Sequence[int] | None = None
) -> dict[str, list[int]]:
    """Each run's gallery steps: `chosen` (all of them, logged or not: a step a run did not
    log shows as such), else the last rollout step every run logged, or a run's own last one
    if they share none."""
    if chosen:
        return {run_id: list(chosen) for run_id in rollouts}
    steps = {run_id: sorted({int(s) for s in table["step"]}) for run_id, table in rollouts.items()}
    shared = set.intersection(*(set(s) for s in steps.values())) if steps else set()
    if shared:
        return dict.fromkeys(steps, [max(shared)])
    return {run_id: s[-1:] for run_id, s in steps.items()}


def run_cards(
    canvases, run_id: str, step: int, rollouts: pd.DataFrame, out_dir: Path,
    paper: str | None = None,
) -> list:  # fmt: skip
    """Gallery cards of one run at one rollout step: its grid, then each canvas with its prompt;
    with `paper`, each reply's canvas over that paper beside it (the grid's too)."""
    rows = rollouts[rollouts["step"] == step].sort_values("index")
    if rows.empty:
        return [{"caption": f"rollout step {step}", "placeholder": "not logged"}]
    folder = out_dir / "gallery" / run_id
    found = canvases.rollouts(run_id, step, rows, folder)
    over = canvases.rollouts(run_id, step, rows, folder, paper) if paper else {}
    cards = [{"image": relative(found["grid"], out_dir), "caption": "grid",
              "lines": [f"rollout step {step}"]}]  # fmt: skip
    if paper:
        cards.append({"image": relative(over["grid"], out_dir), "caption": f"grid over {paper}",
                      "lines": [f"rollout step {step}: the clean runs painted again"]})  # fmt: skip
    for row in rows.to_dict("records"):
        index = int(row["index"])
        canvas = found.get(index)
        caption = f"#{index}: reward {score_text(row['reward'])} ({row['status']})"
        cards.append({
            "image": relative(canvas, out_dir) if canvas else None,
            "placeholder": row["status"],
            "caption": caption,
            "lines": [row["prompt"], row.get("violations") or "no violations"],
        })  # fmt: skip
        if paper:
            twin, clean = over.get(index), row["status"] == "ok"
            cards.append({"image": relative(twin, out_dir) if twin else None,
                          "placeholder": "no canvas" if clean else "not a clean run",
                          "caption": f"#{index} over {paper}"})  # fmt: skip
    return cards


def write_gallery(
    canvases,
    table: pd.DataFrame,
    found: Records,
    out_dir: Path,
    steps: Sequence[int] | None = None,
    paper: str | None = None,
) -> Path:
    """gallery.html: each run's grid and canvases at the same rollout steps (`steps`, default
    `gallery_steps`'), side by side; with `paper`, over that paper too."""
    chosen = gallery_steps({run_id: found.rollouts[run_id] for run_id in table["run_id"]}, steps)
    sections = []
    for run in table.to_dict("records"):
        heading = f"{run['label']} ({run['run_name']}, {run['run_id'][:8]})"
        if not chosen[run["run_id"]]:
            sections.append((heading, [{"caption": "no rollouts logged"}]))
            continue
        rollouts = found.rollouts[run["run_id"]]
        for step in chosen[run["run_id"]]:
            cards = run_cards(canvases, run["run_id"], step, rollouts, out_dir, paper)
            sections.append((f"{heading}, step {step}" if steps else heading, cards))
    title = "compare: canvases at the same step" + (f", and over {paper}" if paper else "")
    path = out_dir / "gallery.html"
    path.write_text(gallery_html(title, sections))
    return path


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
    gallery_steps: Sequence[int] | None = None,
    second_paper: str | None = None,
) -> dict[str, Path]:
    """Write the tables, curves, provenance, gallery and (with evaluations) the matrix and its
    statistics of the runs `found` holds into `out_dir`; their paths. `canvases` fetches the
    galleries' pictures (`watercolor.analysis.canvas_sources`); `gallery=False` leaves them out,
    `gallery_steps` and `second_paper` choose what the rollouts' gallery shows (`write_gallery`).
    `seed` seeds the bootstrap."""
    out_dir.mkdir(parents=True, exist_ok=True)
    found = in_order(found)
    table, histories = runs_table(found)
    paths = {name: out_dir / f"{name}.csv" for name in ("runs", "aggregate", "provenance")}
    table.to_csv(paths["runs"], index=False)
    aggregate(table).to_csv(paths["aggregate"])
    provenance_table(found, table["label"]).to_csv(paths["provenance"], index=False)
    names = audited_first(curve_names(histories, yardstick_moves.PATTERNS), common_audited(found))
    identical = yardstick_moves.identical_jobs(table, histories, names)
    paths |= write_curves(table, histories, out_dir, smoothing, identical_note(identical))
    paths |= write_yardsticks(table, histories, found, out_dir, names, identical,
                              smoothing=smoothing, resamples=resamples, seed=seed)  # fmt: skip
    if gallery:
        paths["gallery"] = write_gallery(canvases, table, found, out_dir, gallery_steps,
                                         second_paper)  # fmt: skip
    matrix = matrices.matrix_table(found)
    if len(matrix):
        shown = canvases if gallery else None
        paths |= matrices.write_matrix(found, shown, matrix, out_dir, resamples, seed)
    return paths


def in_order(found: Records) -> Records:
    """The runs sorted by arm, seed and id (`sort_key`), so every source gives the same
    tables and the same bootstrap draws."""
    return dataclasses.replace(found, runs=sorted(found.runs, key=sort_key))


def write_curves(
    table: pd.DataFrame,
    histories: dict[str, pd.DataFrame],
    out_dir: Path,
    smoothing: float,
    note: str = "",
) -> dict[str, Path]:
    """curves.png, components.png and curves.csv (both figures' smoothed means and bands);
    `note` under the figures' titles."""
    paths, frames = {}, []
    for name, patterns in (("curves", CURVE_METRICS), ("components", COMPONENT_METRICS)):
        curves = curves_table(table, histories, curve_names(histories, patterns), smoothing)
        frames.append(curves)
        if path := plot_curves(curves, out_dir / f"{name}.png", name, smoothing, note):
            paths[name] = path
    paths["curves_table"] = out_dir / "curves.csv"
    pd.concat(frames).to_csv(paths["curves_table"], index=False)
    return paths


def print_tables(runs_csv: Path) -> None:
    """The runs (metrics as rows, runs as columns) and, with repeated seeds, the aggregate."""
    table = pd.read_csv(runs_csv)
    shown = table.set_index("label").drop(columns=["experiment_id", "status"])
    shown["run_id"] = shown["run_id"].str[:8]
    with pd.option_context("display.width", 250, "display.max_rows", 500):
        print(shown.T.to_string(float_format=lambda v: f"{v:.3f}"))
        if table["arm"].duplicated().any():
            print("\nmean ± std across seeds, per arm:")
            print(stats.mean_pm_std(aggregate(table)).to_string())


def main(argv: Sequence[str] | None = None) -> dict[str, Path]:
    return run(compare_args.parse_args(argv))


def run(args: argparse.Namespace, selected: StoreSelection | None = None) -> dict[str, Path]:
    """The comparison of `compare_args.parse_args`' arguments (already checked): its paths.
    `selected`: their runs, already read from the store (`records.select_from_store`, which the
    command calls before this module loads)."""
    quiet_artifact_transfers()
    stamp = datetime.datetime.now().strftime("%Y-%m-%d/%H-%M-%S")
    out_dir = Path(args.out or f"outputs/compare/{stamp}")
    if args.records is not None:
        found = records.read(args.records)
        if not found.runs:
            usage.fail(f"no finished runs in {args.records}")
        canvases, runs = RenderedCanvases(found), None
    else:
        uri, runs = selected or records.select_from_store(args)
        client = mlflow.MlflowClient(uri)
        studies = [args.study] if args.study else None
        found = records.from_store(client, runs, evaluations(client, runs, studies))
        repaint = RenderedCanvases(found) if args.second_paper else None  # reads every seed
        canvases = StoreCanvases(client, repaint=repaint)
    paper = second_paper(found, args.second_paper)
    with contextlib.closing(canvases):  # a re-render's browsers end here
        paths = compare(found, canvases, out_dir, smoothing=args.ema, resamples=args.resamples,
                        seed=args.bootstrap_seed, gallery=not args.no_gallery,
                        gallery_steps=args.gallery_steps, second_paper=paper)  # fmt: skip
    if "verdict" in paths:
        matrices.print_statistics(paths)
        print()
    print_provenance(paths["provenance"])
    print_tables(paths["runs"])
    if "matrix_aggregate" in paths and "verdict" not in paths:  # evaluations without samples
        matrices.print_matrix(pd.read_csv(paths["matrix_aggregate"], index_col="trained_with"))
    identical = print_yardsticks(paths)
    print(f"\nwritten to {out_dir}")
    if runs is not None and not args.no_log:
        artifacts = args.artifacts or tracking_defaults()[1]
        log_compare_run(uri, args, runs, out_dir, artifacts)
    if runs is not None:
        print(side_by_side(uri, runs, out_dir, not args.no_log, identical), flush=True)
    return paths


def print_yardsticks(paths: dict[str, Path]) -> list[list[str]]:
    """Which arm moved each yardstick, what the over-optimisation alarm says of each job, and
    which jobs are identical (returned: groups of labels)."""
    if "yardstick_moves" in paths:
        print("\n" + yardstick_moves.moves_text(pd.read_csv(paths["yardstick_moves"])))
    if "overoptimisation" in paths:
        print("\nover-optimisation (own reward rising while the audited set's score falls):")
        for row in pd.read_csv(paths["overoptimisation"]).to_dict("records"):
            print(f"  {row['job']}: {row['says']}")
    if "identical" not in paths:
        return []
    table = pd.read_csv(paths["identical"])
    groups = [list(rows["label"]) for _, rows in table.groupby("group", sort=True)]
    for group in groups:
        print(f"\nidentical: {' = '.join(group)} logged the same reward/total and yardsticks at "
              "every step (in MLflow's charts their lines lie one on another)")  # fmt: skip
    return groups


def side_by_side(
    uri: str,
    runs: Sequence[Run],
    out_dir: Path,
    save_view: bool = True,
    identical: Sequence[Sequence[str]] = (),
) -> str:
    """Where the comparison is: its files, and the MLflow UI page with the runs side by side
    (their saved view, `tracking.save_side_by_side_view`, unless not `save_view`), naming the
    `identical` jobs (groups of labels), whose lines MLflow draws one on another."""
    files = ", ".join(n for n in ("runs.csv", "curves.png", "yardsticks.png",
                                  "overoptimisation.png", "gallery.html")
                      if (out_dir / n).is_file())  # fmt: skip
    lines = [f"the comparison: {out_dir} ({files})"]
    experiments = sorted({run.info.experiment_id for run in runs})
    note = "; ".join(" = ".join(group) + " (identical)" for group in identical)
    if len(experiments) == 1:
        view = saved_view(uri, runs, note) if save_view else None
        link = side_by_side_link(uri, experiments[0], [run.info.run_id for run in runs], view)
        lines.append(f"the {len(runs)} runs side by side in MLflow, yardsticks first: "
                     f"{serve_hint(uri)}open\n  {link}")  # fmt: skip
        if note:
            lines.append(f"  one line there stands for several jobs: {note}")
    else:
        lines.append(f"the runs are in {len(experiments)} MLflow experiments: no one page "
                     "shows them side by side")  # fmt: skip
    return "\n".join(lines)


def saved_view(uri: str, runs: Sequence[Run], note: str = "") -> str | None:
    """The runs' side-by-side view saved in their experiment (named with `note`): its key;
    None, said on stderr, if the store refuses it (the link then filters the runs in its URL,
    in the UI's own charts)."""
    try:
        return save_side_by_side_view(uri, runs, note)
    except mlflow.MlflowException as error:
        print(f"the side-by-side view could not be saved: {error}", file=sys.stderr)
        return None


def print_provenance(path: Path) -> None:
    """Each run's commit and config hash; then, loudly, whatever makes them not one study."""
    table = pd.read_csv(path, dtype=str, keep_default_na=False)
    shown = table.assign(commit=table["commit"].str[:10]).drop(columns=["run_id"])
    print("provenance: the commit and config (less seed, paths, tracking) each run trained with")
    print(shown.to_string(index=False))
    for warning in provenance_warnings(table):
        print(f"\n!!! WARNING: {warning}", file=sys.stderr)
    print()


def log_compare_run(uri: str, args: argparse.Namespace, runs: Sequence[Run], out_dir: Path,
                    artifact_root: str) -> None:  # fmt: skip
    """A `kind=compare` run holding the outputs, by default in an experiment of its own beside
    the compared runs' (`<theirs>-compare`), so it never lists among the jobs it compares
    (`artifact_root`: where a new experiment keeps its artifacts)."""
    client = mlflow.MlflowClient(uri)
    compared = client.get_experiment(runs[0].info.experiment_id).name
    name = args.log_experiment or f"{compared}{compare_args.COMPARE_EXPERIMENT_SUFFIX}"
    selection = {k: v for k, v in vars(args).items()
                 if k in ("experiment", "sweep_dir", "filter", "study")}  # fmt: skip
    tags = {"kind": "compare", "runs": ",".join(r.info.run_id for r in runs)[:5000]}
    params = {k: str(v) for k, v in selection.items() if v} | {"num_runs": len(runs)}
    run_name = f"compare-{len(runs)}-runs"
    with mlflow_run(uri, name, params=params, tags=tags, run_dir=out_dir,
                    artifact_root=artifact_root, run_name=run_name):  # fmt: skip
        mlflow.log_artifacts(str(out_dir))


if __name__ == "__main__":
    main()
