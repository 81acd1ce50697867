"""What was learned when: each behaviour measure of the training rollouts over steps, per arm.

    python -m watercolor.analysis.behaviour_curves --records experiments/2026-12-05_washes/records \
        --out experiments/2026-12-05_washes/behaviour_curves.png   # and behaviour_curves.csv

A study's records (`watercolor.analysis.records`) keep a sample of each job's training rollouts
(8 replies every 10 steps: their text and status) and the untrained model's evaluation. From the
text alone this reads, per reply, whether it ran cleanly (status ok) and the task's code-read
style measures (`Task.style`: painting's fill opacity, effective bleed and texture, fill colour
luminance; SVG's shape opacity), those over clean runs only, as evaluate reads them. Per job and
logged step: the mean over its replies; per arm and step: the mean across seeds, and their min
and max (the band). Step 0 is the untrained model's evaluation (its replies to held-out prompts),
one point shared by every arm; the logged steps answer training prompts.

The task's measures come from each run's recorded config (`task.style`, instantiated as evaluate
does), so analysis imports no task package; a run recorded before tasks named their style gets
today's style of the task its episode belongs to, as `canvas_sources.task_harness` does.

Canvas measures (flat blocks, wash load) are not drawn: records keep no canvases, and re-rendering
a study's 480-720 logged replies costs 2-3 CPU-s each (experiments/2026-12-01_step_cost/), 15-40
CPU-minutes a study. Runs that logged the yardsticks (`watercolor.training.yardsticks`) hold every
step's measures of all their rollouts, canvas ones included, in `metrics.csv`: `python -m
watercolor.compare --records DIR` draws those (`yardsticks.png`); this reads the older records.
"""

from __future__ import annotations

import argparse
import math
from collections.abc import Callable, Sequence
from pathlib import Path

import pandas as pd
from hydra.utils import instantiate
from matplotlib.figure import Figure
from omegaconf import OmegaConf

from watercolor import usage
from watercolor.analysis import records, stats
from watercolor.analysis.gallery import save_chart
from watercolor.analysis.records import Records
from watercolor.config import compose_train

Style = Callable[[str], dict[str, float]]
CLEAN_RUN = "clean_run"
UNTRAINED = "untrained"
COLUMNS = ["measure", "arm", "step", "mean", "low", "high", "seeds"]
CAPTION = (
    "line: mean over seeds of each job's mean over its logged replies (8 a step; style measures "
    "over clean runs only); band: min-max across seeds; black diamond at step 0: the untrained "
    "model's evaluation (held-out prompts).\nRead from the reply text: canvas measures (flat "
    "blocks, wash load) are left out, the records keep no canvases."
)


def task_style(config_yaml: str) -> Style:
    """The `Task.style` of a run's recorded config; today's, by the task its episode comes from
    (watercolor.tasks.<name>.…), where the run was recorded before tasks named their style."""
    task = OmegaConf.create(config_yaml).task
    if "style" not in task:
        name = task.get("name") or str(task.episode._target_).split(".")[2]
        task = compose_train([f"task={name}"]).task
    return instantiate(task.style)


def reply_measures(replies: pd.DataFrame, style: Style) -> pd.DataFrame:
    """Per reply: `clean_run` (1/0; NaN on an infrastructure failure) and the style measures of
    a clean run (NaN on the others), index as `replies`."""
    clean = replies["status"] == "ok"
    names = list(style(""))
    rows = [style(r) if ok else dict.fromkeys(names, math.nan)
            for r, ok in zip(replies["reply"], clean, strict=True)]  # fmt: skip
    found = pd.DataFrame(rows, index=replies.index, columns=names, dtype=float)
    found.insert(0, CLEAN_RUN, clean.astype(float).where(replies["status"] != "infra_error"))
    return found


def step_means(rollouts: pd.DataFrame, style: Style) -> pd.DataFrame:
    """One job's measures per logged step (index `step`): the mean over that step's replies."""
    measures = reply_measures(rollouts, style)
    return measures.groupby(rollouts["step"].astype(int)).mean()


def untrained_means(found: Records, style: Style) -> pd.Series | None:
    """The untrained model's evaluation read the same way (mean over its samples); None without."""
    for evaluation in found.evaluations:
        if evaluation.source_run_id == "":
            return reply_measures(evaluation.samples, style).mean()
    return None


def curves_table(found: Records) -> pd.DataFrame:
    """Long table of the plotted numbers: measure, arm, step, mean, low, high, seeds (jobs with
    a value there); per measure the untrained model first (arm `untrained`, step 0), then each
    arm's steps."""
    styles = {info["run_id"]: task_style(found.configs[info["run_id"]]) for info in found.runs}
    jobs = {run_id: step_means(found.rollouts[run_id], style) for run_id, style in styles.items()}
    untrained = untrained_means(found, next(iter(styles.values())))
    arms = {arm: [i["run_id"] for i in found.runs if i["arm"] == arm]
            for arm in sorted({i["arm"] for i in found.runs})}  # fmt: skip
    frames = []
    for measure in next(iter(jobs.values())).columns:
        if untrained is not None:
            value = untrained[measure]
            frames.append(pd.DataFrame([{"measure": measure, "arm": UNTRAINED, "step": 0,
                                         "mean": value, "low": value, "high": value,
                                         "seeds": 1}]))  # fmt: skip
        for arm, run_ids in arms.items():
            band = stats.band({run_id: jobs[run_id][measure] for run_id in run_ids})
            band = band.rename(columns={"curves": "seeds"}).rename_axis("step").reset_index()
            frames.append(band.assign(measure=measure, arm=arm))
    return pd.concat(frames, ignore_index=True)[COLUMNS]


def plot(table: pd.DataFrame, path: Path, title: str) -> Path:
    """One panel per measure: per arm its mean line and seed band, the untrained point at 0."""
    names = list(dict.fromkeys(table["measure"]))
    columns = min(4, len(names))
    rows = math.ceil(len(names) / columns)
    figure = Figure(figsize=(3.6 * columns, 2.5 * rows + 1.1), layout="constrained")
    axes = figure.subplots(rows, columns, squeeze=False).ravel()
    arms = sorted(set(table["arm"]) - {UNTRAINED})
    for ax, name in zip(axes, names, strict=False):
        panel(ax, table[table["measure"] == name], arms)
        ax.set_title(name, fontsize=9)
    for ax in axes[len(names) :]:
        ax.set_visible(False)
    handles, labels = axes[0].get_legend_handles_labels()
    figure.legend(handles, labels, loc="outside lower center", ncols=len(labels), fontsize=8)
    figure.suptitle(f"{title}: behaviour over training steps\n{CAPTION}", fontsize=8)
    return save_chart(figure, path, dpi=72)


def panel(ax, shown: pd.DataFrame, arms: Sequence[str]) -> None:
    """One measure: each arm's mean over seeds (line, C0, C1, ... in `arms` order) and its
    min-max band; the untrained model as a black diamond."""
    for i, arm in enumerate(arms):
        band = shown[shown["arm"] == arm]
        label = f"{arm} ({int(band['seeds'].max())} seeds)"
        ax.plot(band["step"], band["mean"], color=f"C{i}", marker=".", label=label)
        ax.fill_between(band["step"], band["low"], band["high"], color=f"C{i}", alpha=0.2,
                        linewidth=0)  # fmt: skip
    start = shown[shown["arm"] == UNTRAINED]
    ax.plot(start["step"], start["mean"], "kD", markersize=4, label="untrained (step 0)")
    ax.tick_params(labelsize=7)


def write(found: Records, out: Path, title: str) -> tuple[Path, Path]:
    """`out` (the figure) and the table of its numbers beside it (`out` with a .csv suffix)."""
    out.parent.mkdir(parents=True, exist_ok=True)
    table = curves_table(found)
    csv = out.with_suffix(".csv")
    table.to_csv(csv, index=False, float_format="%.6g")
    return plot(table, out, title), csv


def main(argv: Sequence[str] | None = None) -> tuple[Path, Path]:
    parser = argparse.ArgumentParser(
        prog="python -m watercolor.analysis.behaviour_curves", description=__doc__.split("\n")[0]
    )
    parser.add_argument("--records", required=True, metavar="DIR", help="a study's records folder")
    parser.add_argument("--out", required=True, metavar="PNG",
                        help="the figure; its numbers go beside it as .csv")  # fmt: skip
    args = parser.parse_args(argv)
    if not Path(args.records).is_dir():
        usage.fail(f"no records folder {args.records}")
    found = records.read(args.records)
    if not found.runs:
        usage.fail(f"no finished runs in {args.records}")
    paths = write(found, Path(args.out), Path(args.records).resolve().parent.name)
    print("written:", *paths)
    return paths


if __name__ == "__main__":
    main()
