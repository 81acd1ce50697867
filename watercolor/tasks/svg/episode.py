"""One SVG episode: a model's reply in, a judged Canvas out.

    >>> import asyncio
    >>> from watercolor.render import RenderConfig, RenderPool
    >>> from watercolor.tasks.svg.episode import draw
    >>> from watercolor.tasks.svg.harness import HARNESS
    >>> async def main(reply):
    ...     async with RenderPool(RenderConfig(), HARNESS) as pool:
    ...         return await draw(pool, reply)
    >>> canvas = asyncio.run(main("no code here"))  # doctest: +SKIP
    >>> canvas.status, canvas.violations  # doctest: +SKIP
    (<Status.VIOLATION: 'violation'>, ['no_svg'])

The static gate runs first, so a refused reply never reaches the browser; an SVG that rendered
but left the sheet (almost) white is refused after rendering (`blank_canvas`, PNG kept).
Either way the Canvas carries the reply and the extracted SVG (as `sketch`) for logging.

What this isolates: nothing itself; the SVG is rasterised as an image inside the pool's browser
pages (watercolor/tasks/svg/harness.py, and `watercolor.render.pool` for the time, memory and
network bounds).
"""

from __future__ import annotations

from functools import partial
from typing import TYPE_CHECKING

from watercolor.canvas import Canvas
from watercolor.tasks.episode import gated_render
from watercolor.tasks.svg.gate import DEFAULT_RULES, SvgRules, check_canvas, check_reply

if TYPE_CHECKING:
    from watercolor.render.pool import RenderPool


async def draw(
    pool: RenderPool, reply: str, *, seed: int = 0, rules: SvgRules = DEFAULT_RULES
) -> Canvas:
    """Gate `reply`, render its SVG if it passes, and refuse a blank canvas
    (`watercolor.tasks.episode.gated_render` with SVG's gate and blank check). `seed` is only
    recorded: an SVG draws the same picture for every seed."""
    gate = partial(check_reply, rules=rules)
    return await gated_render(pool, reply, seed, gate=gate, blank=check_canvas)
