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

from dataclasses import replace
from typing import TYPE_CHECKING

from watercolor.canvas import Canvas, Status
from watercolor.tasks.svg.gate import (
    DEFAULT_RULES,
    SvgRules,
    Violation,
    check_canvas,
    check_reply,
)

if TYPE_CHECKING:
    from watercolor.render.pool import RenderPool


def refused(violations: list[Violation], **fields) -> Canvas:
    """A VIOLATION canvas listing `violations` (codes and messages); `fields` fill the rest."""
    return Canvas(
        status=Status.VIOLATION,
        violations=[v.code for v in violations],
        errors=[v.message for v in violations],
        **fields,
    )


async def draw(
    pool: RenderPool, reply: str, *, seed: int = 0, rules: SvgRules = DEFAULT_RULES
) -> Canvas:
    """Gate `reply`, render its SVG if it passes, and refuse a blank canvas. `seed` is only
    recorded: an SVG draws the same picture for every seed."""
    svg, violations = check_reply(reply, rules)
    if violations:
        return refused(violations, sketch=svg or "", reply=reply, seed=seed)
    canvas = await pool.render(svg, seed=seed)
    if canvas.ok and (blank := check_canvas(canvas)):
        canvas = replace(
            canvas,
            status=Status.VIOLATION,
            violations=[v.code for v in blank],
            errors=[*canvas.errors, *(v.message for v in blank)],
        )
    return replace(canvas, sketch=svg, reply=reply)
