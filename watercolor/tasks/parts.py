"""What the tasks' parts (prompts, feedback, gates) share: what each task would write again.

    >>> from watercolor.tasks.parts import chat, prompt_split
    >>> prompt_split("draw a coral tulip as an SVG illustration", subject_held_out=False, one_in=10)
    'train'
    >>> [m["role"] for m in chat("You draw.", "draw a coral tulip")]
    ['system', 'user']

A task keeps its own words (system prompt, subjects, how a render ended, the revision request,
advice on a blank sheet); what it does with them is here: the held-out split by a hash of the
prompt text, the chat messages, the opening lines of the feedback, the revision turn, and the
`blank_canvas` refusal by the reward components' own definition of blank
(`watercolor.rewards.pixels`).
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping

from watercolor.canvas import Canvas, Status
from watercolor.rewards.pixels import BLANK_COVERAGE, view
from watercolor.tasks.episode import Violation

SPLITS = ("train", "heldout")


def check_split(split: str) -> None:
    """Raise ValueError unless `split` is one of `SPLITS`."""
    if split not in SPLITS:
        raise ValueError(f"unknown split {split!r}; expected one of {SPLITS}")


def prompt_split(text: str, subject_held_out: bool, one_in: int) -> str:
    """The split of a prompt: "heldout" for a held-out subject's, and for one in `one_in` of the
    others, chosen by a hash of its text (the same on every machine, and it stays put when
    prompts are added); else "train"."""
    if subject_held_out:
        return "heldout"
    digest = int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "big")
    return "heldout" if digest % one_in == 0 else "train"


def chat(system_prompt: str, prompt: str) -> list[dict[str, str]]:
    """The chat messages for one prompt (TRL's conversational dataset format)."""
    return [{"role": "system", "content": system_prompt}, {"role": "user", "content": prompt}]


def how_it_went(canvas: Canvas, how_it_ended: Mapping[Status, str]) -> list[str]:
    """The feedback's first lines: how the render ended (in the task's words), then the gate's
    own sentences for a refusal, or the first error (none for a failure on our side)."""
    lines = [how_it_ended[canvas.status]]
    if canvas.status == Status.VIOLATION:
        lines += [f"- {message}" for message in canvas.errors or canvas.violations]
    elif canvas.errors and canvas.status != Status.INFRA_ERROR:
        lines.append(f"First error: {canvas.errors[0]}")
    return lines


def revision_turns(conversation: list[dict], draft: str, request: str) -> list[dict]:
    """The episode so far: the task's messages, the draft, and the user turn `request` (the
    feedback and the ask for a revision)."""
    return [
        *conversation,
        {"role": "assistant", "content": draft},
        {"role": "user", "content": request},
    ]


def blank_canvas(canvas: Canvas, advice: str = "") -> list[Violation]:
    """`blank_canvas` when the canvas is blank: `not View.painted`, as every component reads it;
    `advice` ends the message (what the task tells a model to do about it)."""
    v = view(canvas)
    if v is None or v.painted:
        return []
    painted, needed = f"{v.coverage:.2%}", f"{BLANK_COVERAGE:.1%}"
    message = f"only {painted} of the canvas is painted (at least {needed} needed)"
    return [Violation("blank_canvas", f"{message}; {advice}." if advice else f"{message}.")]
