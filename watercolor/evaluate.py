"""Evaluate a painter: sample held-out prompts, render each reply once, score with the task's sets.

    python -m watercolor.evaluate                                   # the tiny default model
    python -m watercolor.evaluate debug=smoke num_prompts=2 samples=2
    python -m watercolor.evaluate checkpoint=outputs/runs/<date>/<time>_gated_painting  # its final/
    python -m watercolor.evaluate checkpoint=<mlflow run id> rewards=[coarse,gated]
    python -m watercolor.evaluate model=qwen3_5_4b num_prompts=16   # a base model
    python -m watercolor.evaluate task=svg                          # the SVG task's own sets

or without Hydra (the engine of a "trained with x, scored by y" matrix):

    >>> from watercolor.evaluation.held_out import evaluate_model, load_reward_sets, summarise
    >>> spec = EvaluationSpec.configured(samples=4)   # conf/evaluate.yaml's task and renderer
    >>> table = evaluate_model("outputs/runs/.../final", prompts("heldout")[:8],
    ...                        load_reward_sets("painting"), spec, canvas_dir="out/canvases")
    >>> summarise(table)["total/gated"]

The reward sets are those made for the composed task (`task:` in conf/reward/*.yaml against the
task's `name`) that score offline (no HPSv3, no judge server); `rewards=[...]` names others of
the task's, and naming a set made for another task is a usage error.

One row per sample: prompt, status, violations, completion length, the total under each reward
set (`total/<set>`), each set's components (`<set>/<component>`), the within-prompt
diversity of the canvas and what the reply did (`watercolor.analysis.behaviour`: executed, clean
run, flat blocks, layering, the style of its code). Sampling is seeded per prompt (the same prompt
gets the same replies whichever other prompts are asked); every canvas is rendered with one seed, as
in training. The entry point writes `samples.csv`, `samples.parquet`, `summary.json`, `gallery.html`
and the canvases and sketches to its output dir and logs them to a new MLflow run tagged
`kind=evaluate` (with `source_run_id` when the checkpoint came from a training run). A trained
checkpoint's summary ends with each set's total against the untrained model's, from the store's
evaluation of the weights its training started from, or with the command that makes one.

What this isolates: nothing itself; replies run in the render pool's sandboxed pages
(`watercolor.render.pool`).
"""

from __future__ import annotations

import shlex
import sys

from watercolor import usage
from watercolor.evaluation.eval_settings import check_settings

if __name__ == "__main__":  # first, before the evaluation stack's imports (seconds of CPU):
    usage.check_overrides("evaluate", sys.argv[1:], check_settings)  # a mistake: one line, exit 2

from collections.abc import Mapping, Sequence
from pathlib import Path

import hydra
from hydra.core.hydra_config import HydraConfig
from mlflow import MlflowClient
from omegaconf import DictConfig

from watercolor.evaluation.held_out import run
from watercolor.tracking import RUN_ID_FILE, output_in_job_log, runnable, tracking_uri


@hydra.main(version_base="1.3", config_path="../conf", config_name="evaluate")
def main(cfg: DictConfig) -> dict[str, float]:
    try:
        check_settings(cfg)
    except ValueError as error:  # checked before the imports too, but not under --config-dir
        usage.fail(error)
    out_dir = Path(HydraConfig.get().runtime.output_dir)
    with output_in_job_log():  # evaluate.log holds what the evaluation prints
        summary = run(cfg, out_dir)
        if cfg.checkpoint is not None:  # a trained model: beside the model it started from
            run_id = (out_dir / RUN_ID_FILE).read_text().strip()
            print(against_untrained(cfg, summary, run_id, HydraConfig.get().overrides.task))
        return summary


def against_untrained(
    cfg: DictConfig, summary: Mapping[str, float], run_id: str, overrides: Sequence[str]
) -> str:
    """Each reward set's mean total against the untrained model's: the store's latest evaluation
    of the weights the checkpoint's training run started from (its `weights` tag), on the same
    task, prompts, samples and seed; else the command that makes that evaluation."""
    client = MlflowClient(tracking_uri(cfg.tracking.uri))
    this = client.get_run(run_id)
    source = this.data.tags.get("source_run_id")
    trained = client.get_run(source).data.tags if source else {}
    if not (weights := trained.get("weights")):
        return (
            "against the untrained model: unknown (no training run that recorded its starting "
            "weights made this checkpoint)"
        )
    same = {"weights": weights, "checkpoint": "None", "task.name": cfg.task.name,
            "num_prompts": cfg.num_prompts, "samples": cfg.samples, "seed": cfg.seed}  # fmt: skip
    query = " and ".join(
        ["tags.kind = 'evaluate'", *(f"params.`{k}` = '{v}'" for k, v in same.items())]
    )
    found = client.search_runs(
        [this.info.experiment_id], query, max_results=1, order_by=["attributes.start_time DESC"]
    )
    if not found:
        kept = [o for o in overrides if not o.startswith(("checkpoint=", "model="))]
        model = [f"model={trained['model']}"] if "model" in trained else []
        python = runnable(Path(sys.executable))
        command = shlex.join(["-m", "watercolor.evaluate", *model, *kept])
        return (f"against the untrained model: no evaluation of its weights ({weights}) on these "
                f"prompts in this store; `{python} {command}` makes one, and evaluating this "
                "checkpoint again then prints the difference")  # fmt: skip
    untrained = found[0].data.metrics
    lines = [f"against the untrained model (weights {weights}, evaluation {found[0].info.run_id}):"]
    for key in sorted(k for k in summary if k.startswith("total/") and k in untrained):
        before, after = untrained[key], summary[key]
        lines.append(f"  {key}  {before:.3f} -> {after:.3f}  ({after - before:+.3f})")
    return "\n".join(lines)


if __name__ == "__main__":
    main()
