"""The over-optimisation alarm, live: a trainer callback that says once, in the log and as the
run's MLflow tag `overoptimisation`, when the run's own reward keeps rising while the audited
set's score of the same rollouts falls (the rule: `watercolor.analysis.divergence`).

    alarm = OverOptimisationAlarm(cfg.task.audited_reward, own_set="fine_grained")
    GRPOTrainer(..., callbacks=[..., alarm])
    # over-optimisation: step 42: own reward +0.061 while show_through's score -0.043 (...)

It reads TRL's logs: the own reward is `reward`, each set's score `crossreward/<set>` (the
yardsticks). When training ends it logs the view of the run into the active MLflow run,
`overoptimisation.png`: the own reward against every set's score, each from its start.
"""

from __future__ import annotations

import math
import tempfile
from pathlib import Path

import mlflow
import pandas as pd
from transformers import TrainerCallback

from watercolor.analysis.divergence import (
    CROSS,
    OWN,
    Divergence,
    first_divergence,
    plot_jobs,
    watch,
)
from watercolor.tracking import metric_name

TAG = "overoptimisation"  # the run's MLflow tag, set the first time the alarm fires
OWN_KEY = "reward"  # the own reward in TRL's logs


class OverOptimisationAlarm(TrainerCallback):
    """Watches `reward` against `crossreward/<audited>` at each log; fires at most once."""

    def __init__(self, audited: str | None, own_set: str = "") -> None:
        """`audited`: the task's audited reward set (None: nothing to watch); `own_set`: the
        run's own set, whose cross-score the chart leaves out (it is the own reward)."""
        self.audited, self.own_set = audited, own_set
        self.history: dict[str, dict[int, float]] = {}  # MLflow name -> {step: value}
        self.fired: Divergence | None = None

    def on_log(self, args, state, control, logs=None, **kwargs):
        if not self.audited:
            return
        for key, value in (logs or {}).items():
            if (key == OWN_KEY or key.startswith(CROSS)) and _finite(value):
                self.history.setdefault(metric_name(key), {})[state.global_step] = float(value)
        if self.fired is None:
            self.check()

    def check(self) -> None:
        """Run the rule over the history so far; the first time it fires, say so."""
        frame = self.frame()
        audited = f"{CROSS}{self.audited}"
        if OWN not in frame or audited not in frame:
            return
        self.fired = first_divergence(frame[OWN], frame[audited])
        if self.fired is not None:
            line = self.fired.describe(self.audited)
            print(f"over-optimisation: {line}", flush=True)
            if mlflow.active_run() is not None:
                mlflow.set_tag(TAG, line)

    def frame(self) -> pd.DataFrame:
        """The history as a frame (index: step, one column per metric)."""
        return pd.DataFrame({k: pd.Series(v, dtype=float) for k, v in self.history.items()})

    def on_train_end(self, args, state, control, **kwargs):
        if not self.audited or not self.history or mlflow.active_run() is None:
            return
        job = watch(self.frame().sort_index(), self.own_set, self.audited)
        with tempfile.TemporaryDirectory(prefix="watercolor-overoptimisation-") as folder:
            path = plot_jobs({self.own_set or "this run": job}, Path(folder, f"{TAG}.png"))
            mlflow.log_artifact(str(path))


def _finite(value: object) -> bool:
    return isinstance(value, int | float) and math.isfinite(value)
