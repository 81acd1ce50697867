"""The trainer callback that writes a GRPO run's metrics and rollouts to the active MLflow run.

    >>> with mlflow_run(uri, "watercolor", params=flat_config, tags=tags, run_dir=out):
    ...     logger = RolloutLogger(every=1)
    ...     scorer = RolloutScorer(reward_set, renderer, num_generations=8, on_batch=logger.record)
    ...     GRPOTrainer(..., callbacks=[logger]).train()

Only `watercolor.train` uses it: it is the one place the MLflow code of `watercolor.tracking`
meets transformers' `TrainerCallback`, so that tracking (and `watercolor.compare`, which reads
runs back) imports no torch.

Why not transformers' own `MLflowCallback` (`report_to="mlflow"`): it logs the trainer's
metrics and its `TrainingArguments` + model config as params, but no images or tables, and it
is configured only through process-wide environment variables (`MLFLOW_EXPERIMENT_NAME`,
`MLFLOW_RUN_ID` to resume a run by id, ...). We start the run ourselves (`tracking.mlflow_run`,
which logs the resolved Hydra config and resumes from the job's dir), and log into it here.
"""

from __future__ import annotations

import math

import mlflow
from transformers import TrainerCallback

from watercolor.rewards.trl_adapter import Rollouts
from watercolor.tracking import log_rollouts, metric_name


class RolloutLogger(TrainerCallback):
    """Logs the trainer's metrics and each step's rollouts to the active MLflow run.

    TRL scores rollouts on its own event-loop thread, where MLflow has no active run, so
    `record` only queues them; they are written from the trainer's thread at step end.
    """

    def __init__(self, every: int = 1, suffix: str = ".txt") -> None:
        """`every`: log a step's rollouts every this many steps (0: never); `suffix`: the
        file suffix of each sketch (the task's, `watercolor.tasks.Task.suffix`)."""
        self.every, self.suffix = every, suffix
        self.pending: list[Rollouts] = []

    def record(self, rollouts: Rollouts) -> None:
        """Queue a scored batch (the reward adapter's `on_batch`)."""
        if self.every and rollouts.step % self.every == 0:
            self.pending.append(rollouts)

    def flush(self) -> None:
        while self.pending:
            log_rollouts(self.pending.pop(0), self.suffix)

    def on_step_end(self, args, state, control, **kwargs):
        self.flush()

    def on_train_end(self, args, state, control, **kwargs):
        self.flush()

    def on_log(self, args, state, control, logs=None, **kwargs):
        metrics = {
            metric_name(k): float(v)
            for k, v in (logs or {}).items()
            if isinstance(v, int | float) and math.isfinite(v)
        }
        if metrics:
            mlflow.log_metrics(metrics, step=state.global_step)
