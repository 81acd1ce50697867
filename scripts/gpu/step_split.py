"""Each step of the one training run in an MLflow store, split into its parts (JSON on stdout).

    python scripts/gpu/step_split.py outputs/mlflow.db > split.json

Wall seconds: the step (TRL's `step_time`), generation (`rollouts/generation_s`), render and
score that the step waited for (`rollouts/reward_wall_s`), the update (the rest, as
`python -m watercolor.bench grpo_steps` counts it); CPU-seconds by part over the job's processes
(`step_cpu/*`, Chromium's renderers in `chromium_s`); GPU memory (`step_gpu/*`); and what the
step painted and earned.
"""

from __future__ import annotations

import json
import sys
from collections import defaultdict

import mlflow

from watercolor.tracking import metric_name

WALL = ("step_time", "rollouts/generation_s", "rollouts/reward_wall_s", "rollouts/render_s")
OUTCOME = ("reward", "rollouts/execution_rate", "rollouts/infra_failure_rate",
           "completions/mean_length", "completions/max_length", "loss")  # fmt: skip


def per_step(db: str) -> list[dict]:
    client = mlflow.MlflowClient(f"sqlite:///{db}")
    (run,) = client.search_runs(client.get_experiment_by_name("watercolor").experiment_id)
    names = [metric_name(n) for n in WALL + OUTCOME]
    names += [k for k in run.data.metrics if k.startswith(("step_cpu/", "step_gpu/"))]
    steps: dict[int, dict] = defaultdict(dict)
    for name in names:
        for m in client.get_metric_history(run.info.run_id, name):
            steps[m.step][name] = round(m.value, 4)
    for row in steps.values():
        waited = row.get("rollouts/generation_s", 0) + row.get("rollouts/reward_wall_s", 0)
        if "train/step_time" in row:
            row["update_wall_s"] = round(row["train/step_time"] - waited, 3)
    return [{"step": s} | steps[s] for s in sorted(steps)]


if __name__ == "__main__":
    print(json.dumps(per_step(sys.argv[1]), indent=1))
