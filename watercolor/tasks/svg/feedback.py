"""What the environment tells an SVG illustrator about its document, and the revision turn.

    >>> from watercolor.canvas import Canvas, Status
    >>> print(feedback(Canvas(Status.VIOLATION, errors=["a <script> element: SVG only"])))
    The document was refused:
    - a <script> element: SVG only

Revision episodes (`task.turns` > 1) read this between a draft and its revision, in training,
evaluation and the env server alike: how the render ended, the gate's own sentences or the
first error, then the total and the components (largest weight first as the set lists them),
cut at a whole component to stay within `max_chars`.
"""

from __future__ import annotations

from watercolor.canvas import Canvas, Status
from watercolor.rewards.reward_set import Score
from watercolor.tasks.parts import how_it_went, revision_turns

MAX_CHARS = 600

HOW_IT_ENDED = {
    Status.OK: "The document was drawn.",
    Status.VIOLATION: "The document was refused:",
    Status.ERROR: "The document could not be drawn.",
    Status.TIMEOUT: "Drawing the document ran past its time limit.",
    Status.CRASHED: "The page crashed while drawing the document.",
    Status.INFRA_ERROR: "The environment failed to draw the document (its fault, not yours).",
}


def feedback(canvas: Canvas, score: Score | None = None, *, max_chars: int = MAX_CHARS) -> str:
    """The environment's account of `canvas` (and its `score`), at most `max_chars` long."""
    lines = how_it_went(canvas, HOW_IT_ENDED)
    text = "\n".join(lines)
    if score is not None and score.components:
        total = "no verdict" if score.total is None else f"{score.total:.2f}"
        line = f"Scores (0-1): total {total}"
        for name, value in score.components.items():
            part = f"; {name} {'n/a' if value is None else f'{value:.2f}'}"
            if len(text) + len(line) + len(part) + 5 > max_chars:
                line += "; ..."
                break
            line += part
        text = f"{text}\n{line}"
    return text if len(text) <= max_chars else text[: max_chars - 3] + "..."


def revision_conversation(conversation: list[dict], draft: str, feedback_text: str) -> list[dict]:
    """The episode so far: the task's messages, the draft, and the turn asking for a revision."""
    request = (
        f"Your document was drawn. What the environment saw:\n{feedback_text}\n\n"
        "Revise it: reply with the whole improved document in one ```svg block."
    )
    return revision_turns(conversation, draft, request)
