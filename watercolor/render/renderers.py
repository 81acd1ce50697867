"""Renderers: `await renderer(reply, seed) -> Canvas`, the one call training needs from rendering.

    >>> renderer = LocalRenderer(RenderConfig(size=256), task.episode, task.harness)
    >>> canvas = await renderer("```js\\nfunction setup() { ... }\\n```", 0)
    >>> await renderer.close()

`LocalRenderer` owns a `RenderPool`, started lazily on the event loop of its first call: TRL runs
async reward functions on an event loop of its own (a daemon thread), and Playwright objects
belong to the loop that made them. `episode` is the task's gate-render-check function (for
painting: `watercolor.tasks.painting.episode.paint` with its gate rules bound), `harness` the
page its pool holds (`Task.harness`).

Its counterpart on environment servers, the same call: `RemoteRenderer` (`renderer=remote`,
watercolor/render/fleet.py).

What this isolates: nothing itself; sketches run in the pool's sandboxed pages
(`watercolor.render.pool`).
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable

from watercolor.canvas import Canvas
from watercolor.render.page_harness import Harness
from watercolor.render.pool import RenderConfig, RenderPool

Episode = Callable[..., Awaitable[Canvas]]  # episode(pool, reply, *, seed) -> Canvas


class LocalRenderer:
    """Gate, render and check replies in a local warm Chromium pool."""

    def __init__(self, config: RenderConfig, episode: Episode, harness: Harness) -> None:
        self.config, self.episode, self.harness = config, episode, harness
        self.pool: RenderPool | None = None
        self._starting: asyncio.Lock | None = None

    async def __call__(self, reply: str, seed: int = 0) -> Canvas:
        pool = await self.started()
        return await self.episode(pool, reply, seed=seed)

    async def started(self) -> RenderPool:
        """Its pool, started on the calling loop if it was not yet (what `__call__` paints in;
        `watercolor.training.yardsticks` paints a canvas's twin there)."""
        if self._starting is None:
            self._starting = asyncio.Lock()
        async with self._starting:
            if self.pool is None:
                pool = RenderPool(self.config, self.harness)
                await pool.start()
                self.pool = pool
        return self.pool

    async def close(self) -> None:
        """Close the pool (and its browser); safe to call when never started."""
        if self.pool is not None:
            await self.pool.close()
            self.pool = None
