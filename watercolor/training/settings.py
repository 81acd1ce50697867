"""The settings a training run is refused for before anything heavy loads: numbers below what can
work, and settings that cannot work together.

    >>> check_settings(compose_train(["trainer.max_steps=-1"]), "fine_grained")
    ValueError: trainer.max_steps must be a whole number >= 1, got -1 (-1 is TRL's 'one full ...

Light on purpose (omegaconf and `watercolor.config` only): `python -m watercolor.train` runs it
on every run of its command line, each job of a sweep too, before it imports the training stack
(torch, TRL: seconds), so a mistake is one line and exit code 2 at once (`watercolor.usage`),
never a traceback after the model has loaded or a sweep refused at its third job.
"""

from __future__ import annotations

from omegaconf import DictConfig

from watercolor.config import (
    SHARED_AMOUNTS,
    SHARED_COUNTS,
    check_numbers,
    check_reward_task,
    compose_train,
    reward_set_names,
)

# Whole numbers -> (the least that can work, why where it is not plain); null or absent: skipped.
COUNTS = {
    "trainer.max_steps": (
        1,
        "-1 is TRL's 'one full epoch of the prompts', which this project refuses: give a count",
    ),
    "trainer.num_generations": (2, "GRPO scores each reply against the rest of its group"),
    "trainer.per_device_train_batch_size": (1, ""),
    "trainer.gradient_accumulation_steps": (1, ""),
    "trainer.steps_per_generation": (1, ""),
    "trainer.generation_batch_size": (1, ""),
    "trainer.num_iterations": (1, ""),
    "trainer.max_completion_length": (1, "the longest reply, in tokens"),
    "tracking.log_canvases_every": (0, "0: never"),
    "study.max_jobs": (0, "0: no job, the untrained evaluation only; null: every job not yet done"),
    "yardsticks.second_paper_every": (0, "0: never"),
    **SHARED_COUNTS,
}
# Numbers that must be > 0 -> why, where it is not plain.
AMOUNTS = {
    "trainer.temperature": "TRL divides the logits by it",
    "trainer.logging_steps": "below 1: a fraction of max_steps",
    "trainer.save_steps": "below 1: a fraction of max_steps; none: trainer.save_strategy=no",
    **SHARED_AMOUNTS,
}


def check_settings(cfg: DictConfig, reward: str | None = None) -> None:
    """Refuse settings that cannot work, before any model is loaded (ValueError, one sentence).
    `reward`: the `reward` group's option, which an error names; None: the one `cfg`'s `hydra`
    node names (a config composed with it, as `watercolor.usage.check_overrides` composes).

    A number out of range (`COUNTS`, `AMOUNTS`) is refused: TRL validates a few of them itself,
    but only once the model has loaded, and takes others (max_steps=-1) for something else.

    A reward set made for another task than the composed one (`task` in conf/reward/*.yaml
    against the task's `name`) is refused: its components and weights were chosen for another
    task's canvases (`reward.task=null` on the command line, deliberately, lets it through).

    `overlap_rendering` paints each reply as `watercolor.training.rollout` generates it; with vLLM
    (`trainer.use_vllm`) TRL generates outside that code, so the switch would do nothing.
    Revision episodes (`task.turns` > 1) generate with transformers in
    `watercolor.training.revision` (which paints revisions as they finish itself), so they too
    need the hf sampler.
    """
    check_numbers(cfg, COUNTS, AMOUNTS)
    reward = reward if reward is not None else cfg.hydra.runtime.choices.reward
    check_reward_task(reward, cfg.reward.get("task"), cfg.task.name)
    if cfg.overlap_rendering and cfg.trainer.get("use_vllm"):
        raise ValueError(
            "overlap_rendering=true works only with sampler=hf: with vLLM (trainer.use_vllm) "
            "TRL generates the batch itself, so no reply could be painted as it finishes; "
            "drop overlap_rendering=true or use sampler=hf"
        )
    turns = cfg.task.get("turns", 1)
    if not isinstance(turns, int) or turns < 1:
        raise ValueError(f"task.turns must be a whole number of replies >= 1, got {turns!r}")
    if turns > 1 and (cfg.trainer.get("use_vllm") or cfg.overlap_rendering):
        raise ValueError(
            f"task.turns={turns} (revision episodes) generates with transformers and paints "
            "each revision as it finishes already: use sampler=hf and overlap_rendering=false"
        )
    if turns > 1 and cfg.model.get("takes_images", False):
        refuse_group_components(cfg.reward.get("group_components") or {})
    check_cross_rewards(cfg.get("yardsticks", {}).get("cross_rewards") or [], cfg.task.name)
    remote = cfg.renderer.get("_target_", "").endswith("RemoteRenderer")
    if cfg.reward.get("second_paper") and remote:
        raise ValueError(
            f"reward set {reward!r} reads opacity from a second render over another paper, and "
            "a remote renderer sends back the canvas without it (every painted reply would have "
            "no verdict): train it with renderer=local"
        )


def check_cross_rewards(names, task: str) -> None:
    """Raise unless every set `yardsticks.cross_rewards` names is one of conf/reward/, made for
    the task."""
    for name in names:
        if name not in (known := reward_set_names()):
            raise ValueError(
                f"yardsticks.cross_rewards names {name!r}, not a reward set; choose from {known}"
            )
        check_reward_task(name, compose_train([f"reward={name}"]).reward.get("task"), task)


def refuse_group_components(names) -> None:
    """Raise if the reward set has group components: revision through the submit tool
    (`watercolor.training.tool_env`) scores each rollout alone."""
    if names:
        raise ValueError(
            f"reward set with group components {sorted(names)}: revision through the submit "
            "tool scores each rollout alone (TRL calls get_reward per rollout), so a component "
            "that compares a GRPO group cannot be applied; use a set without them"
        )
