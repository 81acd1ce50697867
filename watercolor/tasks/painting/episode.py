"""One painting episode: a model's reply in, a judged Canvas out.

    >>> import asyncio
    >>> from watercolor.render.pool import RenderPool
    >>> from watercolor.tasks.painting.episode import paint
    >>> async def main(reply):
    ...     async with RenderPool() as pool:
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

from dataclasses import replace
from typing import TYPE_CHECKING

from watercolor.canvas import Canvas, Status
from watercolor.tasks.painting.gate import (
    DEFAULT_RULES,
    GateRules,
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


async def paint(
    pool: RenderPool, reply: str, *, seed: int = 0, rules: GateRules = DEFAULT_RULES
) -> Canvas:
    """Gate `reply`, render its sketch with `seed` if it passes, and refuse a blank canvas."""
    sketch, violations = check_reply(reply, rules)
    if violations:
        return refused(violations, sketch=sketch or "", reply=reply, seed=seed)
    canvas = await pool.render(sketch, seed=seed)
    if canvas.ok and (blank := check_canvas(canvas)):
        canvas = replace(
            canvas,
            status=Status.VIOLATION,
            violations=[v.code for v in blank],
            errors=[*canvas.errors, *(v.message for v in blank)],
        )
    return replace(canvas, sketch=sketch, reply=reply)
