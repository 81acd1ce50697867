"""Serve a task's environment over HTTP + WebSocket (OpenEnv), many sessions at once.

    python -m watercolor.env.serve --host 127.0.0.1 --port 8100 --max-sessions 16 --workers 2
    python -m watercolor.env.serve --pixel-density 1 --set task.episode.rules.max_chars=8000
    python -m watercolor.env.serve --set task.turns=2      # draft, feedback, one revision

It serves what training renders: the renderer, the task (episode with its gate rules, prompts,
system prompt) and the reward set come from conf/train.yaml composed with the rendering flags
and `--set` overrides, exactly as for `python -m watercolor.render` and `watercolor.score`
(`watercolor.render.options`). The renderer must be the local one (a `RenderConfig`):
`renderer=remote` is refused. A session's episode takes conf/task's `turns` steps (1 by
default); each step returns the canvas, its score and the environment's feedback.

Each WebSocket session (`CanvasEnv` client) gets its own `CanvasEnvironment`; all of them
share one `RenderPool` (one Chromium, `--workers` warm pages), so renders from different
sessions queue on the pages instead of waiting for whole sessions. The anchor's server took
one session at a time (OpenEnv's `max_concurrent_envs` defaults to 1).

The pool starts on the server's event loop at startup (OpenEnv awaits `step_async` on that
loop) and closes at shutdown (SIGINT/SIGTERM), so no Chromium outlives the server.
"""

from __future__ import annotations

import argparse
import dataclasses
import functools
from typing import TYPE_CHECKING

from hydra.errors import HydraException
from hydra.utils import instantiate
from omegaconf import DictConfig

from watercolor import usage
from watercolor.config import default_option, reward_set_names
from watercolor.env import PORT
from watercolor.render import options
from watercolor.render.pool import RenderConfig
from watercolor.tasks import build_task, episode_config

if TYPE_CHECKING:
    from fastapi import FastAPI

# OpenEnv's server stack (fastapi, gradio: ~5-10 s here) and uvicorn are imported where the app is
# built, after the arguments are read: a typo is answered before they load.


def build_app(cfg: DictConfig, *, workers: int | None = None, max_sessions: int = 16) -> FastAPI:
    """The OpenEnv app for a composed conf/train.yaml: `max_sessions` concurrent sessions of
    its task, scored with its reward set, over one pool of its renderer (`workers` pages,
    default the renderer's own) started with the app. ValueError unless the renderer is local,
    every reward component can score (`RewardSet.check_setup`: `ComponentSetupError`) and
    `task.turns` is a whole number of steps, at least 1.
    """
    renderer = local_renderer(cfg, workers)
    rewards = instantiate(cfg.reward)
    rewards.check_setup()  # a component that can score nothing: refused now, not at every step
    task = build_task(cfg.task).painting_for(rewards)  # a second paper where the set reads one
    # OpenEnv's server stack (seconds) after the checks above
    from openenv.core.env_server.http_server import create_app

    from watercolor.env.environment import CanvasEnvironment, checked_turns
    from watercolor.env.models import CanvasAction, CanvasObservation, CanvasState
    from watercolor.env.step_reward import RewardSetScore
    from watercolor.render.pool import RenderPool

    checked_turns(task.turns)  # a bad value is a usage error now, not per session
    pool = RenderPool(renderer, task.harness)
    score = RewardSetScore(rewards)
    factory = functools.partial(CanvasEnvironment, pool, task, score=score)
    app = create_app(
        factory,
        CanvasAction,
        CanvasObservation,
        env_name="watercolor",
        max_concurrent_envs=max_sessions,
        state_cls=CanvasState,
    )
    # The episode every session runs (gate rules, second paper), for RemoteRenderer to compare.
    episode = episode_config(cfg.task, [rewards])
    app.get("/task/episode", summary="the task episode's config (gate rules) this server runs")(
        lambda: episode
    )
    # The same start/stop hooks OpenEnv registers its session reaper on.
    app.router.on_startup.append(pool.start)
    app.router.on_shutdown.append(pool.close)
    return app


def local_renderer(cfg: DictConfig, workers: int | None) -> RenderConfig:
    """The composed renderer with `workers` pages (None: its own); ValueError unless local."""
    renderer = instantiate(cfg.renderer)
    if not isinstance(renderer, RenderConfig):
        raise ValueError(
            f"the server renders in its own browser: renderer must be a RenderConfig "
            f"(renderer=local), not {cfg.renderer._target_}"
        )
    return dataclasses.replace(renderer, workers=workers or renderer.workers)


def parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m watercolor.env.serve",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=PORT, help="default: %(default)s")
    parser.add_argument("--max-sessions", type=int, default=16, help="concurrent sessions")
    parser.add_argument("--workers", type=int, help="warm pages (default: renderer.workers)")
    parser.add_argument(
        "--reward",
        choices=reward_set_names(),
        help=f"the reward set that scores each canvas (default: conf/train.yaml's, "
        f"{default_option('reward')}; or --set reward=NAME)",
    )
    parser.add_argument("--log-level", default="info")
    options.add_render_arguments(parser, seed=False)
    return parser


def make_app(argv: list[str] | None = None) -> tuple[FastAPI, argparse.Namespace]:
    """The app `main` serves for these arguments, and the arguments; exit 2 on a usage error."""
    command = parser()
    args = command.parse_args(argv)
    try:
        cfg = options.compose_scoring(args, args.reward)
        return build_app(cfg, workers=args.workers, max_sessions=args.max_sessions), args
    except (HydraException, ValueError) as error:  # a bad override, or a renderer not ours
        usage.fail(error)


def main(argv: list[str] | None = None) -> None:
    app, args = make_app(argv)
    import uvicorn

    uvicorn.run(app, host=args.host, port=args.port, log_level=args.log_level)


if __name__ == "__main__":
    main()
