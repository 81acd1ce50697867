"""Compose the project's Hydra configs outside a Hydra app (CLIs, notebooks, tests).

    >>> from watercolor.config import default_option, reward_set, reward_set_names
    >>> "gated" in reward_set_names()
    True
    >>> reward_set_names(task="svg")  # the sets made for the task (`task:` in each YAML)
    ['svg_coarse', 'svg_fine']
    >>> rewards = reward_set("gated", ["reward.components.coverage.weight=0"])
    >>> default_option("reward")  # conf/train.yaml's defaults list
    'fine_grained'
    >>> runs("train", ["reward=coarse,gated"], multirun=True)  # the jobs of a sweep
    [['reward=coarse'], ['reward=gated']]

Entry points decorated with `@hydra.main` compose `conf/train.yaml` themselves; this is for
commands such as `python -m watercolor.score` that need one group without a training run.
"""

from __future__ import annotations

import contextlib
import difflib
import itertools
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from hydra import compose, initialize_config_dir
from hydra.core.global_hydra import GlobalHydra
from hydra.core.hydra_config import HydraConfig
from hydra.core.override_parser.overrides_parser import OverridesParser
from hydra.core.override_parser.types import Override
from hydra.errors import HydraException, MissingConfigException
from hydra.types import RunMode
from hydra.utils import instantiate
from omegaconf import DictConfig, OmegaConf
from omegaconf.errors import OmegaConfBaseException

if TYPE_CHECKING:  # the render CLI composes configs without loading the reward stack
    from watercolor.rewards.reward_set import RewardSet

CONF_DIR = Path(__file__).resolve().parents[1] / "conf"
# Hydra's default sweeper, by the name a config's `hydra.sweeper._target_` gives it
BASIC_SWEEPER = "hydra._internal.core_plugins.basic_sweeper.BasicSweeper"

# The numbers conf/train.yaml and conf/evaluate.yaml share (the seed, the machine, the renderer
# group, local or remote) that nothing works below, for `check_numbers`: whole numbers -> (the
# least that works, why where it is not plain), and numbers that must be > 0 -> why.
SHARED_COUNTS = {
    "seed": (0, "numpy seeds from 0 up"),
    "threads": (0, "0 or null: the cores idle when the job starts"),
    "renderer.size": (1, ""),
    "renderer.workers": (1, ""),
    "renderer.max_frames": (1, ""),
    "renderer.js_heap_mb": (1, ""),
    "renderer.sessions_per_server": (1, ""),
}
SHARED_AMOUNTS = {
    "renderer.time_limit_s": "the CPU-seconds a sketch may take",
    "renderer.pixel_density": "",
    "renderer.timeout_s": "",
    "renderer.connect_timeout_s": "",
}
# A study's evaluation of each model: the first STUDY_PROMPTS held-out prompts x STUDY_SAMPLES
# replies (`watercolor.training.study.Study`; `python -m watercolor.tasks.painting.painter.kinds
# --model` samples as many by default). Here, below both, so neither reads the other.
STUDY_PROMPTS, STUDY_SAMPLES = 12, 4


def run_label(*choices: str | None) -> str:
    """What a run dir is named after its start time: the group options it was given, the unset
    ones left out (conf/train.yaml's `hydra.run.dir`: reward set, task, experiment, debug)."""
    return "_".join(str(choice) for choice in choices if choice is not None)


# Registered where the configs are composed: every command that composes conf/train.yaml
# imports this module before Hydra resolves a run dir.
OmegaConf.register_new_resolver("run_label", run_label, replace=True)


def compose_train(overrides: Sequence[str] = ()) -> DictConfig:
    """conf/train.yaml composed with `overrides` (Hydra's own resolvers are not available)."""
    return compose_config("train", overrides)


def compose_config(
    name: str, overrides: Sequence[str] = (), *, return_hydra_config: bool = False
) -> DictConfig:
    """conf/<name>.yaml composed with `overrides`, inside a Hydra app or not (with
    `return_hydra_config`, its `hydra` node too: `hydra.runtime.choices` names each group's option).
    """
    with _on_conf_dir():
        try:
            return compose(name, list(overrides), return_hydra_config=return_hydra_config)
        except MissingConfigException as error:  # a misspelt option: say which one is closest
            raise MissingConfigException(
                with_closest(error), error.missing_cfg_file, error.options
            ) from error


def with_closest(error: MissingConfigException) -> str:
    """Hydra's message for a group option it could not find, with the closest of the group's
    options (`difflib`'s match) when one is close: "... 'reward/fine_graned'; did you mean
    reward=fine_grained? Available options in 'reward': ..."."""
    group, _, wanted = (error.missing_cfg_file or "").rpartition("/")
    close = difflib.get_close_matches(wanted, error.options or [], n=1)
    found = f"Could not find '{error.missing_cfg_file}'"
    if not close or found not in str(error):
        return str(error)
    return str(error).replace(found, f"{found}; did you mean {group}={close[0]}?", 1)


def unknown(what: str, names: str | Sequence[str], known: Sequence[str]) -> str:
    """The message for a name (or a list of names) not among `known`, with the closest known name
    to each where one is close (`difflib`): "unknown reward set 'fine_graned' (did you mean
    'fine_grained'?); choose from [...]"."""
    named = repr(names) if isinstance(names, str) else str(list(names))
    names = [names] if isinstance(names, str) else names
    close = [match for name in names for match in difflib.get_close_matches(name, known, n=1)]
    hint = f" (did you mean {' or '.join(map(repr, close))}?)" if close else ""
    return f"unknown {what} {named}{hint}; choose from {list(known)}"


def check_runs(
    name: str,
    overrides: Sequence[str],
    check: Callable[[DictConfig], None] | None = None,
    *,
    multirun: bool = False,
) -> None:
    """Compose each run of a command line of conf/<name>.yaml (`runs`) with its `hydra` node and
    pass it to `check`; a run that does not compose or that `check` refuses (ValueError) raises
    ValueError, naming the job in a sweep as Hydra numbers it (`hydra.job.num`, its dir's
    `<n>_`) with its overrides."""
    jobs = runs(name, overrides, multirun=multirun)
    for number, job in enumerate(jobs):
        try:
            cfg = compose_config(name, job, return_hydra_config=True)
            if check is not None:
                check(cfg)
        except (HydraException, OmegaConfBaseException, ValueError) as error:
            if not multirun and len(jobs) == 1:
                raise
            named = f"job {number} of {len(jobs)} ({' '.join(job)})"
            raise ValueError(f"{named}: {' '.join(str(error).split())}") from error


def _on_conf_dir() -> contextlib.AbstractContextManager:
    """Hydra initialised on conf/ (nothing to do inside a Hydra app: its search path is conf/)."""
    if GlobalHydra.instance().is_initialized():
        return contextlib.nullcontext()
    return initialize_config_dir(config_dir=str(CONF_DIR), version_base="1.3")


def runs(name: str, overrides: Sequence[str], *, multirun: bool = False) -> list[list[str]]:
    """The overrides of each run a command line of conf/<name>.yaml starts: its own, or in a
    sweep (`multirun`: `--multirun` was given, or the config says `hydra.mode: MULTIRUN`, as a
    study's experiment does) each job's, expanded by Hydra's basic sweeper itself from the
    config's `hydra.sweeper.params` and the command line (its `glob(...)` and `range(...)` too);
    none when the config names another sweeper, whose syntax is its own.
    """
    with _on_conf_dir():
        parser = OverridesParser.create(config_loader=GlobalHydra.instance().config_loader())
        parsed = parser.parse_overrides(list(overrides))
        fixed = [o.input_line for o in parsed if not o.is_sweep_override()]
        hydra_node = compose_config(name, fixed, return_hydra_config=True).hydra
        if not multirun and hydra_node.mode != RunMode.MULTIRUN:
            return [list(overrides)]  # a sweep value here is refused as Hydra refuses it
        if hydra_node.sweeper._target_ != BASIC_SWEEPER:
            return []
        params = [f"{key}={value}" for key, value in (hydra_node.sweeper.params or {}).items()]
        return sweep_jobs(parser.parse_overrides([*params, *overrides]))


def sweep_jobs(parsed: Sequence[Override]) -> list[list[str]]:
    """The jobs of a basic sweep: every combination of each key's values (its sweep's, or its
    one value), a later override of a key replacing an earlier one, as Hydra's basic sweeper
    documents it. Through `Override`'s public methods: Hydra has no public call for the
    expansion itself (its sweeper's is internal)."""
    per_key: dict[str, list[str]] = {}
    for override in parsed:
        key = override.get_key_element()
        if override.is_sweep_override():
            if not override.is_discrete_sweep():  # interval(...): only an optimiser samples it
                raise ValueError(f"{override.input_line}: the basic sweeper takes lists, "
                                 "choice(...), range(...) and glob(...) only")  # fmt: skip
            values = list(override.sweep_string_iterator())
        elif override.is_delete() and override.value() is None:
            values = [None]  # `~key`: delete whatever it holds
        else:
            values = [override.get_value_element_as_str()]
        per_key[key] = [key if value is None else f"{key}={value}" for value in values]
    return [list(job) for job in itertools.product(*per_key.values())]


def check_numbers(
    cfg: DictConfig, counts: Mapping[str, tuple[int, str]], amounts: Mapping[str, str]
) -> None:
    """Raise ValueError for the first setting of `cfg` out of range, in one sentence: a key of
    `counts` (dotted, `trainer.max_steps`) that is not a whole number >= its least, or of
    `amounts` that is not a number > 0 (each with why, where it is not plain). A key `cfg` does
    not hold (another renderer's field) or holds as null (its library's default) is passed over.
    """
    for key, (least, why) in counts.items():
        value = OmegaConf.select(cfg, key)
        if value is not None and not (_is_number(value, int) and value >= least):
            raise ValueError(_out_of_range(key, f"a whole number >= {least}", value, why))
    for key, why in amounts.items():
        value = OmegaConf.select(cfg, key)
        if value is not None and not (_is_number(value, (int, float)) and value > 0):
            raise ValueError(_out_of_range(key, "a number > 0", value, why))


def _is_number(value: object, kinds: type | tuple[type, ...]) -> bool:
    return isinstance(value, kinds) and not isinstance(value, bool)


def _out_of_range(key: str, wanted: str, value: object, why: str) -> str:
    return f"{key} must be {wanted}, got {value!r}" + (f" ({why})" if why else "")


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
    """The options of the `reward` group (conf/reward/*.yaml); with `offline`, only the sets that
    need no model or server (their `needs` list is empty); with `task` (a `Task.name`), only
    those made for that task (their `task` field; a set that names none suits any). Read from
    each set's composed config, nothing built: a typo's answer lists them without importing a
    judge's client."""
    names = sorted(p.stem for p in (CONF_DIR / "reward").glob("*.yaml"))
    if not offline and task is None:
        return names
    configs = {name: compose_train([f"reward={name}"]).reward for name in names}
    return [
        name for name, cfg in configs.items()
        if not (offline and cfg.get("needs")) and (task is None or cfg.get("task") in (None, task))
    ]  # fmt: skip


def reward_sets(*, offline: bool = False, task: str | None = None) -> dict[str, RewardSet]:
    """The reward sets of conf/reward/ by name, each built once, those `reward_set_names` keeps
    for `offline` and `task`."""
    return {name: reward_set(name) for name in reward_set_names(offline=offline, task=task)}


def check_reward_task(name: str, made_for: str | None, task: str, flag: str = "") -> None:
    """Raise ValueError when the reward set `name`, made for the task `made_for` (its `task`
    field; None: any task), would score the canvases of the task named `task` (`Task.name`):
    its components and weights were chosen for another task's canvases (training refuses it,
    and so does an evaluation that names it). The message names the override that composes the
    set's task, after `flag` where the command takes its overrides after one (`--set `)."""
    if made_for not in (None, task):
        raise ValueError(
            f"reward set {name!r} scores the {made_for!r} task, not the composed task "
            f"{task!r}: add {flag}task={made_for} for that task; "
            f"the sets made for {task!r}: {reward_set_names(task=task)}"
        )


def reward_set(name: str, overrides: Sequence[str] = ()) -> RewardSet:
    """The reward set `conf/reward/<name>.yaml`, with command-line style `overrides`."""
    if name not in reward_set_names():
        raise ValueError(unknown("reward set", name, reward_set_names()))
    cfg = compose_train([f"reward={name}", *overrides])
    return instantiate(cfg.reward)


def model_source(model: DictConfig) -> str:
    """A `model` group's hub id or directory: `name_or_path` as given, or built by its `_target_`.

    The tiny default builds its model on first use (a `_target_` node); a real recipe names a
    hub id, which a user overrides with a local snapshot (`model.name_or_path=<dir>`).
    """
    node = model.name_or_path
    return str(instantiate(node) if OmegaConf.is_dict(node) else node)
