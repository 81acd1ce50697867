"""What an evaluation is refused for before anything heavy loads: a number out of range, a
checkpoint that is not there, a reward set conf/reward/ does not hold or one made for another
task than the composed one.

    >>> check_settings(compose_config("evaluate", ["samples=0"]))
    ValueError: samples must be a whole number >= 1, got 0 (replies per prompt)

Light on purpose, as `watercolor.training.settings` is: `python -m watercolor.evaluate` runs it on
every run of its command line, each job of a sweep too, before it imports the evaluation stack,
so a mistake is one line and exit code 2 at once (`watercolor.usage`), never a traceback once the
model has loaded or a sweep refused after its first jobs ran.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from omegaconf import DictConfig

from watercolor import usage
from watercolor.config import (
    SHARED_AMOUNTS,
    SHARED_COUNTS,
    check_numbers,
    check_reward_task,
    compose_train,
    reward_set_names,
    unknown,
)

MLFLOW_RUN_ID = re.compile(r"[0-9a-f]{32}")
# Whole numbers -> (the least that can work, why where it is not plain); null or absent: skipped.
COUNTS = {
    "num_prompts": (1, "the first held-out prompts"),
    "samples": (1, "replies per prompt"),
    "generation.max_new_tokens": (1, "by default trainer.max_completion_length"),
    "generation.top_k": (0, "0: no top-k"),
    **SHARED_COUNTS,
}
# Numbers that must be > 0 -> why, where it is not plain.
AMOUNTS = {
    "generation.temperature": "by default trainer.temperature; sampling divides the logits by it",
    "generation.top_p": "",
    **SHARED_AMOUNTS,
}


def reward_names(rewards: str | Sequence[str] | None) -> list[str]:
    """The reward set names of `rewards=`: a list, or one name (`rewards=gated`), or none."""
    return [rewards] if isinstance(rewards, str) else list(rewards or [])


def check_settings(cfg: DictConfig) -> None:
    """Raise ValueError, in one sentence, when conf/evaluate.yaml (composed) has a number out of
    range (`COUNTS`, `AMOUNTS`) or names a reward set (`rewards`, `feedback_reward`) that
    conf/reward/ does not hold or that was made for another task (its `task`, read from its
    YAML, not built); exit with one line (`watercolor.usage`) when `checkpoint` names a directory
    that is not there."""
    check_numbers(cfg, COUNTS, AMOUNTS)
    checkpoint = cfg.checkpoint
    if checkpoint is not None and not MLFLOW_RUN_ID.fullmatch(str(checkpoint)):
        usage.check_model_source(str(checkpoint), "checkpoint")
    names = reward_names(cfg.rewards)
    names += [cfg.feedback_reward] if cfg.feedback_reward else []
    if missing := sorted(set(names) - set(known := reward_set_names())):
        raise ValueError(unknown("reward sets", missing, known))
    for name in names:
        check_reward_task(name, compose_train([f"reward={name}"]).reward.get("task"), cfg.task.name)
