"""Compose the project's Hydra configs outside a Hydra app (CLIs, notebooks, tests).

    >>> from watercolor.config import default_option, reward_set, reward_set_names
    >>> "gated" in reward_set_names()
    True
    >>> reward_set_names(task="svg")  # the sets made for the task (`task:` in each YAML)
    ['svg_coarse', 'svg_fine']
    >>> rewards = reward_set("gated", ["reward.components.coverage.weight=0"])
    >>> default_option("reward")  # conf/train.yaml's defaults list
    'fine_grained'

Entry points decorated with `@hydra.main` compose `conf/train.yaml` themselves; this is for
commands such as `python -m watercolor.score` that need one group without a training run.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from hydra import compose, initialize_config_dir
from hydra.core.global_hydra import GlobalHydra
from hydra.core.hydra_config import HydraConfig
from hydra.utils import instantiate
from omegaconf import DictConfig, OmegaConf

if TYPE_CHECKING:  # the render CLI composes configs without loading the reward stack
    from watercolor.rewards.reward_set import RewardSet

CONF_DIR = Path(__file__).resolve().parents[1] / "conf"


def compose_train(overrides: Sequence[str] = ()) -> DictConfig:
    """conf/train.yaml composed with `overrides` (Hydra's own resolvers are not available)."""
    return compose_config("train", overrides)


def compose_config(
    name: str, overrides: Sequence[str] = (), *, return_hydra_config: bool = False
) -> DictConfig:
    """conf/<name>.yaml composed with `overrides`, inside a Hydra app or not (with
    `return_hydra_config`, its `hydra` node too: `hydra.runtime.choices` names each group's option).
    """
    options = {"overrides": list(overrides), "return_hydra_config": return_hydra_config}
    if GlobalHydra.instance().is_initialized():  # inside a Hydra app, whose search path is conf/
        return compose(config_name=name, **options)
    with initialize_config_dir(config_dir=str(CONF_DIR), version_base="1.3"):
        return compose(config_name=name, **options)


def tracking_defaults(name: str = "train") -> tuple[str, str]:
    """conf/<name>.yaml's MLflow store and artifact root (`tracking.uri`, `tracking.artifacts`:
    the paths group's) as a command started in this directory resolves them, for a CLI without
    Hydra (`watercolor.compare`) to log where training does."""
    cfg = compose_config(name, return_hydra_config=True)
    hydra_config = HydraConfig.instance()
    previous = hydra_config.cfg
    hydra_config.set_config(cfg)  # `${hydra:runtime.cwd}` in the paths group reads it
    try:
        return str(cfg.tracking.uri), str(cfg.tracking.artifacts)
    finally:
        hydra_config.cfg = previous  # a Hydra app's own config, or none


def default_option(group: str, name: str = "train") -> str:
    """The option conf/<name>.yaml picks for `group` when nothing overrides it."""
    return compose_config(name, return_hydra_config=True).hydra.runtime.choices[group]


def reward_set_names(*, offline: bool = False, task: str | None = None) -> list[str]:
    """The options of the `reward` group (conf/reward/*.yaml); with `offline` or `task`, only
    those `reward_sets` keeps (building each set to read it)."""
    if offline or task is not None:
        return list(reward_sets(offline=offline, task=task))
    return sorted(p.stem for p in (CONF_DIR / "reward").glob("*.yaml"))


def reward_sets(*, offline: bool = False, task: str | None = None) -> dict[str, RewardSet]:
    """The reward sets of conf/reward/ by name, each built once; with `offline`, only those that
    need no model or server (their `needs` list is empty); with `task` (a `Task.name`), only
    those made for that task (their `task` field; a set that names none suits any)."""
    sets = {name: reward_set(name) for name in reward_set_names()}
    return {
        name: rewards for name, rewards in sets.items()
        if not (offline and rewards.needs) and (task is None or rewards.task in (None, task))
    }  # fmt: skip


def check_reward_task(name: str, made_for: str | None, task: str) -> None:
    """Raise ValueError when the reward set `name`, made for the task `made_for` (its `task`
    field; None: any task), would score the canvases of the task named `task` (`Task.name`):
    its components and weights were chosen for another task's canvases (training refuses it,
    and so does an evaluation that names it)."""
    if made_for not in (None, task):
        raise ValueError(
            f"reward set {name!r} scores the {made_for!r} task, not the composed task "
            f"{task!r}; the sets made for {task!r}: {reward_set_names(task=task)}"
        )


def reward_set(name: str, overrides: Sequence[str] = ()) -> RewardSet:
    """The reward set `conf/reward/<name>.yaml`, with command-line style `overrides`."""
    if name not in reward_set_names():
        raise ValueError(f"unknown reward set {name!r}; choose from {reward_set_names()}")
    cfg = compose_train([f"reward={name}", *overrides])
    return instantiate(cfg.reward)


def model_source(model: DictConfig) -> str:
    """A `model` group's hub id or directory: `name_or_path` as given, or built by its `_target_`.

    The tiny default builds its model on first use (a `_target_` node); a real recipe names a
    hub id, which a user overrides with a local snapshot (`model.name_or_path=<dir>`).
    """
    node = model.name_or_path
    return str(instantiate(node) if OmegaConf.is_dict(node) else node)
