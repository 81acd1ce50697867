"""Serve the painting environment over HTTP + WebSocket (OpenEnv), many sessions at once.

    python -m watercolor.env.serve --host 127.0.0.1 --port 8000 --max-sessions 16 --workers 2

Each WebSocket session (`PaintEnv` client) gets its own `PaintEnvironment`; all of them
share one `RenderPool` (one Chromium, `--workers` warm pages), so renders from different
sessions queue on the pages instead of waiting for whole sessions. The anchor's server took
one session at a time (OpenEnv's `max_concurrent_envs` defaults to 1).

The pool starts on the server's event loop at startup (OpenEnv awaits `step_async` on that
loop) and closes at shutdown (SIGINT/SIGTERM), so no Chromium outlives the server.
"""

from __future__ import annotations

import argparse
import functools

import uvicorn
from fastapi import FastAPI
from openenv.core.env_server.http_server import create_app

from watercolor.config import reward_set, reward_set_names
from watercolor.env.environment import PaintEnvironment, Scorer
from watercolor.env.models import PaintAction, PaintObservation, PaintState
from watercolor.env.scoring import RewardSetScore
from watercolor.render.pool import RenderConfig, RenderPool
from watercolor.tasks.painting.gate import DEFAULT_RULES, GateRules


def build_app(
    *,
    max_sessions: int = 16,
    render: RenderConfig | None = None,
    rules: GateRules = DEFAULT_RULES,
    score: Scorer | None = None,
) -> FastAPI:
    """The OpenEnv app: `max_sessions` concurrent sessions over one pool started with the app.

    `score` defaults to the `gated` reward set (conf/reward/gated.yaml).
    """
    score = score or RewardSetScore(reward_set("gated"))
    pool = RenderPool(render or RenderConfig())
    factory = functools.partial(PaintEnvironment, pool, rules=rules, score=score)
    app = create_app(
        factory,
        PaintAction,
        PaintObservation,
        env_name="watercolor",
        max_concurrent_envs=max_sessions,
        state_cls=PaintState,
    )
    # The same start/stop hooks OpenEnv registers its session reaper on.
    app.router.on_startup.append(pool.start)
    app.router.on_shutdown.append(pool.close)
    return app


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m watercolor.env.serve", description=__doc__)
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=8000)
    parser.add_argument("--max-sessions", type=int, default=16, help="concurrent sessions")
    parser.add_argument("--workers", type=int, default=RenderConfig.workers, help="warm pages")
    parser.add_argument("--size", type=int, default=RenderConfig.size, help="canvas size (px)")
    parser.add_argument("--pixel-density", type=float, default=RenderConfig.pixel_density)
    parser.add_argument("--time-limit", type=float, default=RenderConfig.time_limit_s, help="s")
    parser.add_argument("--reward", default="gated", help=f"reward set: {reward_set_names()}")
    parser.add_argument("--log-level", default="info")
    args = parser.parse_args(argv)
    render = RenderConfig(
        size=args.size,
        pixel_density=args.pixel_density,
        workers=args.workers,
        time_limit_s=args.time_limit,
    )
    score = RewardSetScore(reward_set(args.reward))
    app = build_app(max_sessions=args.max_sessions, render=render, score=score)
    uvicorn.run(app, host=args.host, port=args.port, log_level=args.log_level)


if __name__ == "__main__":
    main()
