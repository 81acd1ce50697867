"""Command-line options shared by the commands that render (`render`, `score`, `env.serve`).

They render with the settings training uses: the renderer and the task's episode (gate ->
render -> checks) come from the same Hydra config, conf/train.yaml composed with the command's
flags and `--set` overrides, so `score` scores what training sees. This module knows nothing of
any task (a command builds it: `watercolor.tasks.build_task(cfg.task)`) nor of its rules (a
task's options are its config's fields, e.g. painting's
`--set +task.episode.rules.allowed_brush_methods=null`).

>>> parser = argparse.ArgumentParser(); add_render_arguments(parser)
>>> cfg = compose(parser.parse_args(["--size", "256"])); render_config(cfg).size
256
"""

from __future__ import annotations

import argparse
import contextlib
from collections.abc import AsyncIterator, Sequence

from hydra.utils import instantiate
from omegaconf import DictConfig

from watercolor.config import (
    SHARED_AMOUNTS,
    SHARED_COUNTS,
    check_numbers,
    check_reward_task,
    compose_train,
)
from watercolor.render.page_harness import Harness
from watercolor.render.pool import RenderConfig, RenderPool

# The environment server's default port (`python -m watercolor.env.serve --port`) and where
# `RemoteRenderer` looks when given no server: the one place it is set. It lives here, not in
# render/wire.py, because this module imports no OpenEnv: the server answers a bad flag before
# OpenEnv's server stack loads (tests/env/test_serve_config.py). It is none of the other
# services' defaults, so they can share a machine: TRL's vLLM server takes 8000
# (conf/sampler/vllm_server.yaml), the VLM judge 8001 (conf/reward/blocks/judge/vlm.yaml), the
# HPSv3 service 8765 (services/hpsv3/serve.py).
PORT = 8100

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
    made_for, default = cfg.reward.get("task"), "(the task's default)"
    check_reward_task(reward or default, made_for, cfg.task.name, flag="--set ")
    return cfg


def render_config(cfg: DictConfig, workers: int = 1) -> RenderConfig:
    """The composed renderer (a RenderConfig) with `workers` pages."""
    return instantiate(cfg.renderer, workers=workers)


@contextlib.asynccontextmanager
async def pool(config: RenderConfig, harness: Harness) -> AsyncIterator[RenderPool]:
    """A render pool of the task's `harness` for one command, closed on exit. Not started: each
    lane starts its browser on its first render, so replies the gate refuses start none."""
    unstarted = RenderPool(config, harness)
    try:
        yield unstarted
    finally:
        await unstarted.close()
