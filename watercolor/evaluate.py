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
`kind=evaluate` (with `source_run_id` when the checkpoint came from a training run).

What this isolates: nothing itself; replies run in the render pool's sandboxed pages
(`watercolor.render.pool`).
"""

from __future__ import annotations

import sys

from watercolor import usage
from watercolor.evaluation.eval_settings import check_settings

if __name__ == "__main__":  # first, before the evaluation stack's imports (seconds of CPU):
    usage.check_overrides("evaluate", sys.argv[1:], check_settings)  # a mistake: one line, exit 2

from pathlib import Path

import hydra
from hydra.core.hydra_config import HydraConfig
from omegaconf import DictConfig

from watercolor.evaluation.held_out import run
from watercolor.tracking import output_in_job_log


@hydra.main(version_base="1.3", config_path="../conf", config_name="evaluate")
def main(cfg: DictConfig) -> dict[str, float]:
    try:
        check_settings(cfg)
    except ValueError as error:  # checked before the imports too, but not under --config-dir
        usage.fail(error)
    with output_in_job_log():  # evaluate.log holds what the evaluation prints
        return run(cfg, Path(HydraConfig.get().runtime.output_dir))


if __name__ == "__main__":
    main()
