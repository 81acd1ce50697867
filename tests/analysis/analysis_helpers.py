"""Synthetic training runs in a temporary MLflow store, logged the way training logs them.

Four runs (reward sets `coarse` and `gated`, seeds 0 and 1) laid out like a Hydra sweep
(`<sweep>/<n>_<reward>/mlflow_run_id`), with the metric names training logs and rollouts
written by `watercolor.tracking.log_rollouts` itself (grid, canvases, sketches, table).
Values are chosen so the tests can say what the table must hold: reward = 0.1 * step + 0.01 *
seed (+0.2 for gated), `rollouts/violations/no_setup` is logged on step 1 only, and `gated/seed1`
logs rollouts at steps 0 and 1 only (the others at 0, 1, 2).

Each also logs the yardsticks (`yardstick_values`): known changes from step 1 to step 3 per arm
and seed, its task naming `gated` the audited set (config.yaml and the `task.audited_reward`
param, as training logs them).

Each evaluation run also logs `samples.parquet`, per-sample rows whose means are known:
`evaluation_samples` (the model trained with a set scores higher under it by 0.1 + 0.01 *
seed; prompt effects shared by every set; execution rate 0.25 untrained, 0.5 coarse, 0.75 gated).
"""

from __future__ import annotations

import io
import tempfile
from pathlib import Path

import mlflow
import numpy as np
import pandas as pd
from PIL import Image

from watercolor.canvas import Canvas, Status
from watercolor.rewards.reward_set import Score
from watercolor.rewards.trl_adapter import Rollouts
from watercolor.tracking import log_rollouts, metric_name, mlflow_run

REPO = Path(__file__).resolve().parents[2]
EXPERIMENT = "synthetic"
STEPS = (1, 2, 3)
COMPONENTS = {
    "coarse": ["gate_pass", "coverage"],
    "gated": ["gate_pass", "coverage", "granulation"],
}
PROMPTS = ["paint a peach hibiscus in watercolour", "paint a cobalt wave in watercolour"]
STUDY = "synthetic-study"  # every synthetic run's `study` tag


def reward_value(reward_set: str, seed: int, step: int) -> float:
    return 0.1 * step + 0.01 * seed + (0.2 if reward_set == "gated" else 0.0)


AUDITED = "gated"  # the synthetic task's audited set


def yardstick_values(reward_set: str, seed: int, step: int) -> dict[str, float]:
    """The yardsticks at one step, as TRL hands them over: each grows linearly, so a job's change
    (its last value minus its first, over 3 steps) is twice its slope. Gated lowers flat blocks
    (-0.2 for both seeds), coarse barely (0 and +0.02); each set pays its own runs more."""
    flat_blocks = -0.1 if reward_set == "gated" else 0.01 * seed
    return {
        "behaviour/flat_block_rate": 0.5 + flat_blocks * step,
        "behaviour/style/mean_alpha": 0.9 - 0.05 * step,
        "crossreward/gated": 0.2 + (0.05 if reward_set == "gated" else 0.02) * step,
        "crossreward/coarse": 0.3 + (0.05 if reward_set == "coarse" else -0.03) * step,
        "crossreward/gate/gated": 0.75,
        "crossreward/gate/coarse": 1.0,
    }


def png(colour: tuple[int, int, int]) -> bytes:
    buffer = io.BytesIO()
    Image.new("RGBA", (64, 64), (*colour, 255)).save(buffer, "PNG")
    return buffer.getvalue()


def rollouts(step: int, components: list[str]) -> Rollouts:
    """Four completions: three painted canvases and one refused by the gate (no PNG)."""
    canvases = [Canvas(Status.OK, png=png((40 * i + 60, 120, 200 - 40 * i))) for i in range(3)]
    canvases.append(Canvas(Status.VIOLATION, violations=["no_setup"], errors=["no setup()"]))
    scores = [Score(0.5 + 0.1 * i, dict.fromkeys(components, 0.5), True) for i in range(3)]
    scores.append(Score(0.0, dict.fromkeys(components, 0.0), False))
    prompts = [PROMPTS[i // 2] for i in range(4)]
    replies = [f"```js\n// reply {i} at step {step}\n```" for i in range(4)]
    return Rollouts(step, prompts, replies, canvases, scores)


def log_training_run(uri: str, run_dir: Path, reward_set: str, seed: int, artifacts: Path) -> str:
    tags = {"reward": reward_set, "model": "tiny", "debug": "smoke", "overrides": "(none)",
            "seed": str(seed), "study": STUDY, "commit": "c0ffee" * 6 + "ab", "dirty": "false",
            "config_hash": f"hash-{reward_set}"}  # fmt: skip
    params = {"seed": seed, "trainer.max_steps": len(STEPS), "task.audited_reward": AUDITED}
    with mlflow_run(uri, EXPERIMENT, params=params, tags=tags, run_dir=run_dir,
                    artifact_root=str(artifacts), run_name=run_dir.name) as run:  # fmt: skip
        for step in STEPS:
            logs = {  # as TRL and the scorer name them; logged under MLflow's names
                "reward": reward_value(reward_set, seed, step),
                "rollouts/execution_rate": 0.25 * step,
                "completions/mean_length": 100.0 + step,
                "rollouts/violations/truncated": 0.5 / step,
            }
            if step == 1:
                logs["rollouts/violations/no_setup"] = 0.5
            logs |= yardstick_values(reward_set, seed, step)
            for name in COMPONENTS[reward_set]:
                logs[f"rewards/{name}/mean"] = 0.1 * step
                logs[f"rollouts/components/{name}"] = 0.2 * step
            mlflow.log_metrics({metric_name(k): v for k, v in logs.items()}, step=step)
        last = 2 if (reward_set, seed) == ("gated", 1) else 3
        for step in range(last):
            log_rollouts(rollouts(step, COMPONENTS[reward_set]))
        config = f"reward: {reward_set}\nseed: {seed}\ntask:\n  audited_reward: {AUDITED}\n"
        mlflow.log_text(config, "config.yaml")
        return run.info.run_id


def evaluation_totals(trained_with: str, seed: int) -> dict[str, float]:
    """`total/<set>` of the synthetic evaluation of one training run (or of the untrained model:
    trained_with None): each set scores the model trained with it higher, by 0.1 + 0.01 * seed."""
    base = {"coarse": 0.3, "gated": 0.2}
    return {
        f"total/{name}": value + (0.1 + 0.01 * seed if name == trained_with else 0.0)
        for name, value in base.items()
    }


EVALUATION_PROMPTS = 8
EXECUTION_RATES = {None: 0.25, "coarse": 0.5, "gated": 0.75}


def evaluation_samples(trained_with: str | None, seed: int, samples: int = 2) -> pd.DataFrame:
    """Per-sample rows of one synthetic evaluation, whose means are exactly `evaluation_totals`
    and `EXECUTION_RATES[trained_with]`: each total moves by a prompt effect (zero-sum, the same
    for every model: a hard prompt is hard for all) and a zero-sum within-prompt spread."""
    totals = evaluation_totals(trained_with, seed)
    prompts = np.arange(EVALUATION_PROMPTS)
    effect = 0.04 * (prompts - prompts.mean()) / (len(prompts) - 1)
    rate = EXECUTION_RATES[trained_with]
    rows = []
    for p in prompts:
        for s in range(samples):
            spread = 0.005 * (1 if s % 2 == 0 else -1)
            order = (p * samples + s) % 4  # executed on the first rate * 4 of every 4 samples
            row = {"prompt_index": int(p), "prompt": f"prompt {p}", "sample": s, "status": "ok",
                   "executed": float(order < 4 * rate)}  # fmt: skip
            rows.append(row | {name: v + effect[p] + spread for name, v in totals.items()})
    return pd.DataFrame(rows)


def log_evaluation_run(
    uri: str,
    run_dir: Path,
    source_run_id: str | None,
    samples: pd.DataFrame,
    artifacts: Path,
    study: str = STUDY,
) -> str:
    """A `kind=evaluate` run as `watercolor.evaluate` logs it (tagged with its study): summary
    metrics (the means of `samples`), `samples.parquet`, two canvases."""
    tags = {"kind": "evaluate", "study": study}
    tags |= {"source_run_id": source_run_id} if source_run_id else {}
    totals = {c: float(samples[c].mean()) for c in samples.columns if c.startswith("total/")}
    rates = {"execution_rate": float(samples["executed"].mean()), "flat_block_rate": 0.25,
             "violations/no_setup": 0.5}  # fmt: skip
    with mlflow_run(uri, EXPERIMENT, params={"num_prompts": 2}, tags=tags, run_dir=run_dir,
                    artifact_root=str(artifacts), run_name=run_dir.name) as run:  # fmt: skip
        mlflow.log_metrics(totals | rates)
        with tempfile.TemporaryDirectory() as folder:
            samples.to_parquet(Path(folder) / "samples.parquet", index=False)
            mlflow.log_artifact(str(Path(folder) / "samples.parquet"))
        for index in range(2):
            mlflow.log_image(Image.open(io.BytesIO(png((90 * index, 80, 80)))),
                             f"canvases/p{index:02d}_s00.png")  # fmt: skip
        return run.info.run_id
