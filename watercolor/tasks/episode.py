"""What every task's episode shares: violations, the gate -> render -> blank-check shape, and
a reply's think blocks and fenced code blocks.

    >>> canvas = await gated_render(pool, reply, seed, gate=check_reply, blank=check_canvas)

A task's episode (`Task.episode`) is its own gate and checks around this: painting's
(`watercolor.tasks.painting.episode.paint`) and SVG's (`watercolor.tasks.svg.episode.draw`)
are each one call. The gate runs first, so a refused reply never reaches the browser; a code
that ran but left the sheet (almost) untouched is refused after rendering, its PNG kept. Either
way the Canvas carries the reply and the extracted code (`sketch`) for logging.

What this isolates: nothing itself; the code runs in the pool's sandboxed pages
(`watercolor.render.pool`). The gate runs here, in Python: its CPU time is measured against
`GATE_BUDGET_S` and an overrun is the reply's violation (`gate_time`), but it is not preempted
(a gate that ran long has run); what bounds it is that every gate scan is linear.
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from watercolor.canvas import Canvas, Status

if TYPE_CHECKING:
    from watercolor.render.pool import RenderPool

# The gate's budget in CPU seconds (of its own thread): ~100x the worst reply measured at the
# length limits (tests/tasks/test_hostile_input.py, ~0.02 s). A reply that takes longer to
# check is refused as `gate_time`, the reply's failure, instead of reaching the browser.
GATE_BUDGET_S = 2.0

_FENCE = re.compile(r"^[ \t]*```[ \t]*([\w+#.-]*)[^\n]*$", re.M)


@dataclass(frozen=True)
class Violation:
    """One rule a reply or its canvas breaks."""

    code: str  # stable identifier, e.g. "bare_primitive", "external_reference"
    message: str  # one readable sentence: what was found (and what to do instead)


def refused(violations: list[Violation], **fields) -> Canvas:
    """A VIOLATION canvas listing `violations` (codes and messages); `fields` fill the rest."""
    return Canvas(
        status=Status.VIOLATION,
        violations=[v.code for v in violations],
        errors=[v.message for v in violations],
        **fields,
    )


async def gated_render(
    pool: RenderPool,
    reply: str,
    seed: int,
    gate: Callable[[str], tuple[str | None, list[Violation]]],
    blank: Callable[[Canvas], list[Violation]],
    second_paper: str | None = None,
    gate_budget_s: float = GATE_BUDGET_S,
) -> Canvas:
    """`gate(reply)` -> (code, violations); render the code with `seed` if none, then refuse the
    canvas `blank` finds fault with (status violation, its PNG kept). With `second_paper`, a
    canvas that passes is painted again over that paper, same seed (`Canvas.twin`), for reward
    sets that read opacity from the pair (`watercolor.rewards.matting`). A gate that spends
    over `gate_budget_s` CPU seconds on the reply refuses it (`gate_time`)."""
    started = time.thread_time()
    code, violations = gate(reply)
    if (spent := time.thread_time() - started) > gate_budget_s:
        message = (
            f"checking the reply took {spent:.2f} CPU-s, over the budget of {gate_budget_s:g} "
            "CPU-s; write a shorter reply."
        )
        violations = [*violations, Violation("gate_time", message)]
    if violations:
        return refused(violations, sketch=code or "", reply=reply, seed=seed)
    canvas = await pool.render(code, seed=seed)
    if canvas.ok and (found := blank(canvas)):
        canvas = replace(
            canvas,
            status=Status.VIOLATION,
            violations=[v.code for v in found],
            errors=[*canvas.errors, *(v.message for v in found)],
        )
    canvas = replace(canvas, sketch=code, reply=reply)
    if canvas.ok and second_paper is not None:
        canvas = await with_twin(pool, canvas, second_paper, seed)
    return canvas


async def with_twin(pool: RenderPool, canvas: Canvas, paper: str, seed: int) -> Canvas:
    """`canvas` (a clean run of its `sketch`) with its twin: the same code painted again with
    `seed` over `paper` instead of the paper it asked for (`Canvas.twin`)."""
    twin = await pool.render(canvas.sketch, seed=seed, paper=paper)
    return replace(canvas, twin=twin, twin_paper=paper)


def without_thinking(text: str) -> str:
    """`text` without its closed <think>...</think> blocks (an unclosed one stays). A scan, not
    the regex `<think>.*?</think>`: that one is quadratic on thousands of unclosed tags, which a
    policy in a repetition loop writes (issue 44)."""
    kept, at = [], 0
    while (start := text.find("<think>", at)) >= 0:
        if (end := text.find("</think>", start + len("<think>"))) < 0:
            break
        kept.append(text[at:start])
        at = end + len("</think>")
    kept.append(text[at:])
    return "".join(kept)


def fenced_blocks(text: str) -> list[tuple[str, str, bool]]:
    """(language tag, body, closed) of every ``` block of `text`, in order."""
    blocks, opening = [], None
    for fence in _FENCE.finditer(text):
        if opening is None:
            opening = fence
        elif fence.group(1) == "":
            blocks.append((opening.group(1).lower(), text[opening.end() + 1 : fence.start()], True))
            opening = None
    if opening is not None:
        blocks.append((opening.group(1).lower(), text[opening.end() + 1 :], False))
    return blocks
