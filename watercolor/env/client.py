"""Client side of the painting environment: a typed OpenEnv client and a remote painter.

    async with PaintEnv(base_url="http://127.0.0.1:8000") as env:
        first = await env.reset(seed=7)                  # first.observation.prompt
        result = await env.step(PaintAction(reply=reply))
        result.reward, result.observation.status         # (0.41, 'ok')

    observations = await paint_remote(
        ["http://box-a:8000", "http://box-b:8000"], replies, seeds=[0, 1, 2, 3], prompts=prompts
    )
    canvases = [obs.to_canvas() for obs in observations]  # score locally with a reward set

`PaintEnv` is OpenEnv's `EnvClient` (one WebSocket, one server-side session) with our
types; `.sync()` gives the blocking variant. `paint_remote` spreads replies over several
servers, at most `sessions_per_server` sessions open on each (keep it at or under the
server's `--max-sessions`, which refuses the rest); a server that is down, refuses or times
out gives an `infra_error` observation with reward None, never a zero.
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from typing import Any

from openenv.core.client_types import StepResult
from openenv.core.env_client import EnvClient
from websockets.exceptions import ConnectionClosed

from watercolor.canvas import Canvas
from watercolor.env.models import PaintAction, PaintObservation, PaintState


class PaintEnv(EnvClient[PaintAction, PaintObservation, PaintState]):
    """Typed client of `python -m watercolor.env.serve`."""

    def _step_payload(self, action: PaintAction) -> dict[str, Any]:
        return action.model_dump()

    def _parse_result(self, payload: dict[str, Any]) -> StepResult[PaintObservation]:
        reward, done = payload.get("reward"), payload.get("done", False)
        fields = {**payload.get("observation", {}), "reward": reward, "done": done}
        observation = PaintObservation.model_validate(fields)
        metadata = payload.get("metadata")
        return StepResult(observation=observation, reward=reward, done=done, metadata=metadata)

    def _parse_state(self, payload: dict[str, Any]) -> PaintState:
        return PaintState.model_validate(payload)


async def paint_one(
    base_url: str, reply: str, *, seed: int, prompt: str | None = None, timeout_s: float = 600.0
) -> PaintObservation:
    """One episode on one server: reset (seed, prompt) then step with the reply.

    `timeout_s` bounds the wait for the step; it is long because the step queues behind
    every other session's render on the server's pages (OpenEnv's default is 60 s).
    """
    async with PaintEnv(base_url=base_url, message_timeout_s=timeout_s) as env:
        await env.reset(seed=seed, prompt=prompt)
        return (await env.step(PaintAction(reply=reply))).observation


async def paint_remote(
    base_urls: Sequence[str],
    replies: Sequence[str],
    *,
    seeds: Sequence[int],
    prompts: Sequence[str | None] | None = None,
    sessions_per_server: int = 8,
    timeout_s: float = 600.0,
) -> list[PaintObservation]:
    """Paint every reply on the servers (round-robin), concurrently; results in input order."""
    limits = [asyncio.Semaphore(sessions_per_server) for _ in base_urls]
    prompts = prompts or [None] * len(replies)

    async def one(i: int) -> PaintObservation:
        server = i % len(base_urls)
        url = base_urls[server]
        async with limits[server]:
            return await _observe(url, replies[i], seeds[i], timeout_s, prompts[i])

    return list(await asyncio.gather(*(one(i) for i in range(len(replies)))))


class RemotePainter:
    """`await painter(reply, seed) -> Canvas` on remote environment servers (training's renderer).

    Replies go round-robin over `urls`, at most `sessions_per_server` in flight on each. The
    servers apply their own gate rules (their defaults: the anchor's); the returned Canvas is
    scored locally with the run's reward set, like a local render.
    """

    def __init__(
        self, urls: Sequence[str], sessions_per_server: int = 8, timeout_s: float = 600.0
    ) -> None:
        if not urls:
            raise ValueError("RemotePainter needs at least one server URL")
        self.urls, self.sessions_per_server, self.timeout_s = (
            list(urls),
            sessions_per_server,
            timeout_s,
        )
        self._limits: list[asyncio.Semaphore] | None = None
        self._next = 0

    async def __call__(self, reply: str, seed: int = 0) -> Canvas:
        if self._limits is None:  # made on the loop that uses them
            self._limits = [asyncio.Semaphore(self.sessions_per_server) for _ in self.urls]
        server, self._next = self._next % len(self.urls), self._next + 1
        async with self._limits[server]:
            observation = await _observe(self.urls[server], reply, seed, self.timeout_s)
        return observation.to_canvas(reply=reply)

    async def close(self) -> None:
        """Nothing to close: each episode opens and closes its own session."""


async def _observe(
    url: str, reply: str, seed: int, timeout_s: float, prompt: str | None = None
) -> PaintObservation:
    try:
        return await paint_one(url, reply, seed=seed, prompt=prompt, timeout_s=timeout_s)
    except (OSError, RuntimeError, TimeoutError, ConnectionClosed) as error:
        errors = [f"{url}: {error!r}"]  # down, refused or too slow: no verdict (None)
        return PaintObservation(status="infra_error", errors=errors, done=True, seed=seed)
