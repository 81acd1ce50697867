"""Command-line options shared by the commands that render (`render`, `score`, `env.serve`).

They render with the settings training uses: the renderer and the task's episode (gate ->
render -> checks) come from the same Hydra config, conf/train.yaml composed with the command's
flags and `--set` overrides, so `score` scores what training sees and this module knows nothing
of any task's rules (a task's options are its config's fields, e.g. painting's
`--set +task.episode.rules.allowed_brush_methods=null`).

>>> parser = argparse.ArgumentParser(); add_render_arguments(parser)
>>> cfg = compose(parser.parse_args(["--size", "256"])); render_config(cfg).size
256
"""

from __future__ import annotations

import argparse
import contextlib
from collections.abc import AsyncIterator, Sequence
from pathlib import Path

from hydra.utils import instantiate
from omegaconf import DictConfig

from watercolor.canvas import Canvas, Status
from watercolor.config import (
    CONF_DIR,
    SHARED_AMOUNTS,
    SHARED_COUNTS,
    check_numbers,
    check_reward_task,
    compose_train,
)
from watercolor.render.harness import Harness
from watercolor.render.pool import RenderConfig, RenderPool
from watercolor.tasks import Task, build_task
from watercolor.tasks.episode import fenced_blocks

# flag -> the renderer field it sets (unset flags leave conf/renderer's value)
RENDER_FLAGS = {"size": "size", "pixel_density": "pixel_density", "time_limit": "time_limit_s"}


def add_render_arguments(parser: argparse.ArgumentParser, *, seed: bool = True) -> None:
    """The rendering flags (Hydra overrides, see `overrides`); `seed=False` leaves out `--seed`
    (a server takes each episode's seed from its client)."""
    group = parser.add_argument_group("rendering (defaults: conf/renderer and conf/task)")
    group.add_argument("--size", type=int, help="canvas size in px")
    group.add_argument(
        "--pixel-density", type=float, help="raster density (<1: fewer pixels, same coordinates)"
    )
    if seed:
        group.add_argument(
            "--seed", type=int, default=0, help="seeds Math.random, randomSeed, noiseSeed"
        )
    group.add_argument("--time-limit", type=float, help="seconds per sketch")
    group.add_argument("--chromium", help="browser executable (default: /usr/bin/chromium)")
    group.add_argument(
        "--set",
        action="append",
        default=[],
        metavar="OVERRIDE",
        help="Hydra override of conf/train.yaml, e.g. reward.components.coverage.weight=0 or "
        "+task.episode.rules.allowed_brush_methods=null",
    )


def overrides(args: argparse.Namespace) -> list[str]:
    """The flags that were given, as Hydra overrides, then `--set`'s own."""
    flags = [
        f"++renderer.{field}={getattr(args, flag)}"
        for flag, field in RENDER_FLAGS.items()
        if getattr(args, flag) is not None
    ]
    if args.chromium:
        flags.append(f"++renderer.chromium={args.chromium}")
    return [*flags, *args.set]


def compose(args: argparse.Namespace, extra: Sequence[str] = ()) -> DictConfig:
    """conf/train.yaml with `extra` (e.g. `reward=gated`), the flags and `--set` applied;
    ValueError for a number nothing renders with (`--time-limit 0`: `check_numbers`)."""
    cfg = compose_train([*extra, *overrides(args)])
    check_numbers(cfg, SHARED_COUNTS, SHARED_AMOUNTS)
    return cfg


def compose_scoring(args: argparse.Namespace, reward: str | None) -> DictConfig:
    """`compose` with the reward set `reward` (None: the one training composes for the task),
    for a command that scores the task's canvases with it (`watercolor.score`, the env server);
    ValueError when the set was made for another task (`watercolor.config.check_reward_task`)."""
    cfg = compose(args, [f"reward={reward}"] if reward else [])
    check_reward_task(reward or "(the task's default)", cfg.reward.get("task"), cfg.task.name)
    return cfg


def other_task(path: str | Path, reply: str, canvas: Canvas, cfg: DictConfig) -> str | None:
    """What to say when `reply` (read from `path`; "-": stdin) is clearly another task's than
    the composed one: the composed task found no code in it (its gate refused it, with none),
    and its file has another task's suffix (`suffix` in conf/task/*.yaml: `.svg`) or its code
    blocks that suffix's name as their language (```svg). None when it is not that clear."""
    if canvas.status != Status.VIOLATION or canvas.sketch:
        return None
    name = "stdin" if str(path) == "-" else Path(path).name
    for option in sorted(p.stem for p in (CONF_DIR / "task").glob("*.yaml")):
        if option == cfg.task.name:  # a task's option is its name (`watercolor.tasks.Task`)
            continue
        if clue := _clue(Path(path), reply, compose_train([f"task={option}"]).task.suffix):
            return (
                f"{name} looks like a reply to the {option} task ({clue}), and the "
                f"{cfg.task.name} task finds no code in it: add --set task={option}"
            )
    return None


def _clue(path: Path, reply: str, suffix: str) -> str | None:
    """How `reply`, read from `path`, shows it is code of the task whose files end in `suffix`."""
    if path.suffix == suffix:
        return f"a {suffix} file"
    if suffix[1:] in {language for language, _, _ in fenced_blocks(reply)}:
        return f"a ```{suffix[1:]} block"
    return None


def render_config(cfg: DictConfig, workers: int = 1) -> RenderConfig:
    """The composed renderer (a RenderConfig) with `workers` pages."""
    return instantiate(cfg.renderer, workers=workers)


def task(cfg: DictConfig) -> Task:
    """The composed task: its episode (`episode(pool, reply, seed=...) -> Canvas`), harness and
    sketch suffix (conf/task)."""
    return build_task(cfg.task)


@contextlib.asynccontextmanager
async def pool(config: RenderConfig, harness: Harness) -> AsyncIterator[RenderPool]:
    """A render pool of the task's `harness` for one command, closed on exit. Not started: each
    lane starts its browser on its first render, so replies the gate refuses start none."""
    unstarted = RenderPool(config, harness)
    try:
        yield unstarted
    finally:
        await unstarted.close()
