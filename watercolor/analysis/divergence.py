"""Over-optimisation: a run's own reward rising while the audited reward set's score of the same
rollouts falls (Gao, Schulman and Hilton, "Scaling Laws for Reward Model Overoptimization",
2022, measured it offline; here a run watches for it, and compare draws it).

    alarm = first_divergence(history["reward/total"], history["crossreward/show_through"])
    print(alarm)  # step 42: own reward +0.061 while the audited set's score -0.043 (...)

Both series are per-step values (index: step); either may skip steps (the audited set may be
scored every N steps). The rule, fixed before any real run was read:

- It is checked at each step t where the audited set has a score. The last `WINDOW` (20) steps,
  t-19 .. t, are split into halves; each half needs `MIN_POINTS` (2) values of each series.
- A series' change at t is its later half's mean minus its earlier half's: the smoothing is a
  mean over up to 10 steps, without the lag an EMA would add.
- The run diverges at t when its own reward's change is at least +`MIN_CHANGE` (0.03) and the
  audited score's at most -0.03, each in its own set's units (totals in [0, 1]).
- The alarm fires at the `PERSIST`-th (3) diverging check in a row: the reward *keeps* rising
  while the audited score falls. With the audited set scored every N steps, that is 2N steps
  after the first diverging check.

A pair that moves together (both rising, both falling) never fires, nor a flat own reward, nor a
run without audited scores. `relative_to_start` and `plot_jobs` draw the view: each set's score
of the rollouts minus its level at the start.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

import pandas as pd
import yaml

from watercolor.analysis import stats
from watercolor.analysis.gallery import save_chart

WINDOW = 20  # steps read at each check, in two halves
MIN_POINTS = 2  # values each half needs of each series
MIN_CHANGE = 0.03  # the rise of the own reward and the fall of the audited score, per half
PERSIST = 3  # diverging checks in a row before the alarm fires
OWN = "reward/total"  # the run's own reward, as MLflow names it
CROSS = "crossreward/"  # what each offline set pays the same rollouts: crossreward/<set>


@dataclass(frozen=True)
class Divergence:
    """Where the alarm fired: the check's step, both changes there and the window it read."""

    step: int
    own_change: float
    audited_change: float
    first: int  # the window's first step
    middle: int  # the later half's first step
    checks: int = PERSIST  # the diverging checks in a row it took

    def describe(self, audited: str = "the audited set") -> str:
        """The alarm in a line, naming the audited set."""
        return (f"step {self.step}: own reward {self.own_change:+.3f} while {audited}'s score "
                f"{self.audited_change:+.3f} (mean of steps {self.middle}-{self.step} minus "
                f"steps {self.first}-{self.middle - 1}), {self.checks} checks in a "
                "row")  # fmt: skip

    def __str__(self) -> str:
        return self.describe()


def first_divergence(
    own: pd.Series,
    audited: pd.Series,
    *,
    window: int = WINDOW,
    min_change: float = MIN_CHANGE,
    persist: int = PERSIST,
    min_points: int = MIN_POINTS,
) -> Divergence | None:
    """The first step at which the alarm fires (module docstring), None if it never does."""
    own, audited = _values(own), _values(audited)
    streak = 0
    for step in audited.index:
        first, middle = step - window + 1, step - window // 2 + 1
        own_change = _change(own, first, middle, step, min_points)
        audited_change = _change(audited, first, middle, step, min_points)
        diverging = own_change >= min_change and audited_change <= -min_change  # NaN: False
        streak = streak + 1 if diverging else 0
        if streak == persist:
            window_steps = int(first), int(middle)
            return Divergence(int(step), own_change, audited_change, *window_steps, persist)
    return None


def _values(series: pd.Series) -> pd.Series:
    series = series.dropna().astype(float)
    series.index = series.index.astype(int)
    return series.sort_index()


def _change(series: pd.Series, first: int, middle: int, last: int, min_points: int) -> float:
    """Mean over steps middle..last minus mean over first..middle-1 (NaN if a half is short)."""
    early = series[(series.index >= first) & (series.index < middle)]
    late = series[(series.index >= middle) & (series.index <= last)]
    if len(early) < min_points or len(late) < min_points:
        return float("nan")
    return float(late.mean() - early.mean())


def relative_to_start(series: pd.Series, steps: int = WINDOW // 2) -> pd.Series:
    """The series minus its start's level: its mean over its first `steps` steps."""
    series = _values(series)
    if series.empty:
        return series
    return series - series[series.index < series.index[0] + steps].mean()


def audited_name(config_yaml: str) -> str | None:
    """The audited reward set a run's resolved config names (`task.audited_reward`), if any."""
    config = yaml.safe_load(config_yaml or "") or {}
    task = config.get("task") if isinstance(config, dict) else None
    return (task or {}).get("audited_reward") if isinstance(task, dict) else None


@dataclass(frozen=True)
class Job:
    """One job as the view draws it: its metric history (index: step; MLflow's names), the set
    it trained with, its audited set (None: its task names none) and the alarm's verdict."""

    history: pd.DataFrame
    own_set: str
    audited: str | None
    alarm: Divergence | None

    def says(self) -> str:
        """What the alarm says of the job, in a line."""
        if not self.audited:
            return "no audited set named: no alarm"
        if self.audited == self.own_set:
            return f"trained on the audited set ({self.audited}): nothing to diverge from"
        if f"{CROSS}{self.audited}" not in self.history:
            return f"{self.audited} did not score its rollouts: no alarm"
        if self.alarm is None:
            return f"no divergence from {self.audited}"
        return f"diverged: {self.alarm.describe(self.audited)}"


def watch(history: pd.DataFrame, own_set: str, audited: str | None) -> Job:
    """The job with its alarm: `first_divergence` of its own reward from its audited set's."""
    name = f"{CROSS}{audited}"
    found = audited and audited != own_set and OWN in history and name in history
    return Job(history, own_set, audited,
               first_divergence(history[OWN], history[name]) if found else None)  # fmt: skip


def job_lines(job: Job) -> dict[str, pd.Series]:
    """The job's own reward and every other set's score of its rollouts (`crossreward/<set>`),
    each relative to its start; the own set's cross-score (the same number) is left out."""
    history = job.history
    lines = {f"own ({job.own_set})": history[OWN]} if OWN in history else {}
    for name in sorted(c for c in history.columns if c.startswith(CROSS)):
        scored_by = name.removeprefix(CROSS)
        if "/" not in scored_by and scored_by != job.own_set:
            lines[scored_by] = history[name]
    return {label: relative_to_start(series) for label, series in lines.items()}


def plot_jobs(jobs: Mapping[str, Job], path: Path, smoothing: float = stats.SMOOTHING) -> Path:
    """One panel per job (label -> `Job`): its own reward (black), the audited set's score
    (red, thick) and every other set's (thin), each minus its start's level, EMA-smoothed; the
    alarm's step as a dashed line."""
    from matplotlib.figure import Figure  # loaded when a chart is drawn, not by training's import

    columns = min(3, len(jobs))
    rows = -(-len(jobs) // columns)
    figure = Figure(figsize=(4.6 * columns, 3.2 * rows + 0.8), layout="constrained")
    axes = figure.subplots(rows, columns, squeeze=False).ravel()
    for ax, (label, job) in zip(axes, jobs.items(), strict=False):
        panel(ax, job, smoothing)
        ax.set_title(label, fontsize=9)
    for ax in axes[len(jobs) :]:
        ax.set_visible(False)
    figure.suptitle("own reward against what the other sets pay the same rollouts, each minus "
                    f"its start (mean of its first {WINDOW // 2} steps); EMA {smoothing:g}",
                    fontsize=9)  # fmt: skip
    return save_chart(figure, path, dpi=80)


def panel(ax, job: Job, smoothing: float) -> None:
    """One job's lines (`plot_jobs`) on `ax`, with a legend and what the alarm says."""
    for i, (label, series) in enumerate(job_lines(job).items()):
        if label.startswith("own ("):
            style = {"color": "black", "linewidth": 2.2}
        elif label == job.audited:
            style, label = {"color": "red", "linewidth": 2.2}, f"{label} (audited)"
        else:
            style = {"color": f"C{i % 10}", "linewidth": 0.9}
        ax.plot(series.index, stats.ema(series, smoothing), label=label, **style)
    ax.axhline(0, color="grey", linewidth=0.5)
    if job.alarm is not None:
        ax.axvline(job.alarm.step, color="red", linestyle="--", linewidth=1)
    ax.set_xlabel(job.says(), fontsize=6, wrap=True)
    ax.tick_params(labelsize=7)
    if ax.lines[1:]:
        ax.legend(fontsize=6, loc="best")


def table(jobs: Mapping[str, Job]) -> pd.DataFrame:
    """Per job: its own and audited sets, what the alarm says, and where it fired."""
    rows = [{"job": label, "own_set": job.own_set, "audited": job.audited or "",
             "says": job.says(), "step": job.alarm.step if job.alarm else None,
             "own_change": job.alarm.own_change if job.alarm else None,
             "audited_change": job.alarm.audited_change if job.alarm else None}
            for label, job in jobs.items()]  # fmt: skip
    return pd.DataFrame(rows)
