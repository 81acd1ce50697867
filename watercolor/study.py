"""A sweep that is a whole study: each job's model evaluated when it finishes, then the
untrained model, then the runs side by side.

    python -m watercolor.train experiment=three_rewards_v2     # train, evaluate, compare

A Hydra callback (`hydra.callbacks`, Hydra's own hook for work around jobs) that an experiment
switches on:

    hydra:
      callbacks:
        study: {_target_: watercolor.study.Study, num_prompts: 12, samples: 4}

`on_job_end` runs `watercolor.evaluate` on the job's final model (in the job's process, so on
whatever launcher ran it) into `<job dir>/evaluation`, logged to the job's MLflow experiment as
a `kind=evaluate` run with the training run as `source_run_id`. `on_multirun_end` evaluates the
untrained model once (the matrix's baseline row; the sweep's own model, renderer and task
choices) and runs `watercolor.compare --sweep-dir` into `<sweep dir>/compare`. Evaluations
compose `conf/evaluate.yaml`, so a study's evaluation is exactly what `python -m
watercolor.evaluate checkpoint=<job dir>` would do.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from hydra.core.hydra_config import HydraConfig
from hydra.core.utils import JobReturn, JobStatus
from hydra.experimental.callback import Callback
from omegaconf import DictConfig

from watercolor import compare, evaluate
from watercolor.config import compose_config

log = logging.getLogger(__name__)
# Groups of the training config that the untrained model's evaluation takes over.
SHARED_GROUPS = ("model", "renderer", "task", "debug")


class Study(Callback):
    """Evaluate every job's final model, then the untrained model, then compare the sweep."""

    def __init__(
        self,
        num_prompts: int = 12,
        samples: int = 4,
        seed: int = 0,
        rewards: Sequence[str] | None = None,
        compare_runs: bool = True,
    ) -> None:
        self.num_prompts, self.samples, self.seed = num_prompts, samples, seed
        self.rewards = list(rewards) if rewards is not None else None
        self.compare_runs = compare_runs

    def on_job_end(self, config: DictConfig, job_return: JobReturn, **kwargs: Any) -> None:
        if job_return.status != JobStatus.COMPLETED:
            return  # nothing trained to evaluate; Hydra reports the failure itself
        job_dir = Path(job_return.hydra_cfg.hydra.runtime.output_dir)
        overrides = [f"checkpoint={job_dir}", *shared_overrides(job_return.hydra_cfg.hydra)]
        self.evaluate(config, overrides, job_dir / "evaluation")

    def on_multirun_end(self, config: DictConfig, **kwargs: Any) -> None:
        # No job is running now, so Hydra has no config set: `${hydra:runtime.cwd}` (the paths
        # group) would not resolve. The sweep's own config is the one to resolve against.
        HydraConfig.instance().set_config(config)
        sweep_dir = Path(config.hydra.sweep.dir)
        self.evaluate(config, shared_overrides(config.hydra), sweep_dir / "untrained_evaluation")
        if self.compare_runs:
            compare.main(["--sweep-dir", str(sweep_dir), "--out", str(sweep_dir / "compare"),
                          "--tracking-uri", config.tracking.uri])  # fmt: skip

    def evaluate(self, config: DictConfig, overrides: list[str], out_dir: Path) -> None:
        """`watercolor.evaluate` with this study's settings into `out_dir`."""
        overrides = [
            *overrides,
            f"num_prompts={self.num_prompts}", f"samples={self.samples}", f"seed={self.seed}",
            f"tracking.experiment={config.tracking.experiment}",
            f"tracking.uri={config.tracking.uri}",
            f"tracking.artifacts={config.tracking.artifacts}",
            f"paths.cache={config.paths.cache}",
            *([f"rewards=[{','.join(self.rewards)}]"] if self.rewards is not None else []),
        ]  # fmt: skip
        log.info("study: evaluating into %s", out_dir)
        evaluate.run(compose_config("evaluate", overrides), out_dir)


def shared_overrides(hydra_node: DictConfig) -> list[str]:
    """The training job's choices (and `key=value` overrides) of the groups evaluation shares."""
    choices = hydra_node.runtime.choices
    picked = [f"{group}={choices[group]}" for group in SHARED_GROUPS if choices.get(group)]
    prefixes = tuple(f"{group}." for group in SHARED_GROUPS)  # model.dtype=..., not model=...
    return picked + [o for o in hydra_node.overrides.task if o.startswith(prefixes)]
