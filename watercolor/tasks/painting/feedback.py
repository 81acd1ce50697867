"""What the environment tells a painter about its sketch, and the turn that asks for a revision.

    >>> from watercolor.canvas import Canvas, Status
    >>> error = "TypeError: brush.wash is not a function (sketch.js:7:9)"
    >>> canvas = Canvas(Status.ERROR, errors=[error])
    >>> print(feedback(canvas))
    The sketch threw an error.
    First error: TypeError: brush.wash is not a function (sketch.js:7:9)
    Nothing painted.
    >>> from watercolor.tasks.painting.prompts import conversation
    >>> task = conversation("paint a red fox in watercolour")
    >>> turns = revision_conversation(task, "```js ... ```", feedback(canvas))
    >>> [m["role"] for m in turns]
    ['system', 'user', 'assistant', 'user']

`feedback(canvas, score)` is the one place that turns what the environment knows into words:
how the render ended, the gate's violations in words (the gate's own sentences), the first
runtime error with its place in the sketch (`sketch.js:line:column`, from the harness), and
the reward set's components, named and rounded to two places, with the total. It is at most
`max_chars` characters (~600 by default): a component list that does not fit is cut at a
whole component and ends with "...". Training (`watercolor.training.revision`), evaluation and the
env server all call it, so the painter reads the same text in every place it revises.
"""

from __future__ import annotations

from collections.abc import Sequence

from watercolor.canvas import Canvas, Status
from watercolor.rewards.reward_set import Score
from watercolor.tasks.parts import how_it_went, revision_turns

MAX_CHARS = 600

HOW_IT_ENDED = {
    Status.OK: "The sketch ran and painted the canvas.",
    Status.VIOLATION: "The sketch was refused:",
    Status.ERROR: "The sketch threw an error.",
    Status.TIMEOUT: "The sketch ran past its time limit and was stopped.",
    Status.CRASHED: "The page crashed under the sketch (it used too much memory or time).",
    Status.INFRA_ERROR: "The environment failed to paint the sketch (its fault, not the sketch's).",
}

REVISION_REQUEST = (
    "Your sketch was painted. What the environment saw:\n{feedback}\n\n"
    "Revise the sketch: reply with the whole improved sketch in one ```js block."
)


# An infrastructure failure (the browser died) is not the sketch's fault and says so; a canvas
# without a score (no reward set) gives no component line.
def feedback(canvas: Canvas, score: Score | None = None, *, max_chars: int = MAX_CHARS) -> str:
    """The environment's account of `canvas` (and its `score`), at most `max_chars` long."""
    lines = how_it_went(canvas, HOW_IT_ENDED)
    if canvas.status in (Status.ERROR, Status.TIMEOUT):  # it may have painted before it stopped
        lines.append("What it painted before that is kept." if canvas.png else "Nothing painted.")
    text = fit("\n".join(lines), max_chars)
    if score is None or not score.components:
        return text
    room = max_chars - len(text) - 1
    return f"{text}\n{scores_line(score, room)}" if room > len("Scores: ...") else text


def scores_line(score: Score, max_chars: int) -> str:
    """ "Scores: total 0.61; coverage 0.42, edge_softness 0.83, ..." cut at a whole component."""
    total = "no verdict" if score.total is None else f"{score.total:.2f}"
    parts = [f"{name} {rounded(value)}" for name, value in score.components.items()]
    head = f"Scores (0-1 unless noted): total {total}; "
    return head + joined_within(parts, max_chars - len(head))


def joined_within(parts: Sequence[str], max_chars: int) -> str:
    """`parts` joined with ", ", as many whole parts as fit, then "..." if any were left out."""
    out = ""
    for i, part in enumerate(parts):
        candidate = part if not out else f"{out}, {part}"
        tail = ", ..." if i < len(parts) - 1 else ""
        if len(candidate) + len(tail) > max_chars:
            return f"{out}, ..." if out else "..."
        out = candidate
    return out


def rounded(value: float | None) -> str:
    return "n/a" if value is None else f"{value:.2f}"


def fit(text: str, max_chars: int) -> str:
    """`text` cut to `max_chars`, ending with "..." when cut."""
    return text if len(text) <= max_chars else text[: max_chars - 3].rstrip() + "..."


def revision_request(feedback_text: str) -> str:
    """The user turn that shows the feedback and asks for the whole revised sketch."""
    return REVISION_REQUEST.format(feedback=feedback_text)


def revision_conversation(conversation: list[dict], draft: str, feedback_text: str) -> list[dict]:
    """The episode so far: the task's messages, the draft, and the feedback turn."""
    return revision_turns(conversation, draft, revision_request(feedback_text))
