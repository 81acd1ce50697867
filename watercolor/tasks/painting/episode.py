"""One painting episode: a model's reply in, a judged Canvas out.

    >>> import asyncio
    >>> from watercolor.render.pool import RenderConfig, RenderPool
    >>> from watercolor.tasks.painting.harness import harness
    >>> from watercolor.tasks.painting.episode import paint
    >>> async def main(reply):
    ...     async with RenderPool(RenderConfig(), harness()) as pool:
    ...         return await paint(pool, reply, seed=7)
    >>> canvas = asyncio.run(main("no code here"))  # doctest: +SKIP
    >>> canvas.status, canvas.violations  # doctest: +SKIP
    (<Status.VIOLATION: 'violation'>, ['no_sketch'])

The static gate runs first, so a refused reply never reaches the browser; a sketch that ran
but left the paper (almost) untouched is refused after rendering (`blank_canvas`, PNG kept).
Either way the Canvas carries the reply and the extracted sketch for logging.

What this isolates: nothing itself; the sketch runs inside the pool's browser pages (see
`watercolor.render.pool` for the time, memory and network bounds).
"""

from __future__ import annotations

from functools import partial
from typing import TYPE_CHECKING

from watercolor.canvas import Canvas
from watercolor.tasks.episode import gated_render
from watercolor.tasks.painting.gate import DEFAULT_RULES, GateRules, check_canvas, check_reply

if TYPE_CHECKING:
    from watercolor.render.pool import RenderPool


async def paint(
    pool: RenderPool,
    reply: str,
    *,
    seed: int = 0,
    rules: GateRules = DEFAULT_RULES,
    second_paper: str | None = None,
) -> Canvas:
    """Gate `reply`, render its sketch with `seed` if it passes, and refuse a blank canvas
    (`watercolor.tasks.episode.gated_render` with painting's gate and blank check). With
    `second_paper` (a CSS colour) a canvas that passes is painted again with every
    `background()` of the sketch painting that colour instead (`Canvas.twin`)."""
    gate = partial(check_reply, rules=rules)
    return await gated_render(
        pool, reply, seed, gate=gate, blank=check_canvas, second_paper=second_paper
    )
