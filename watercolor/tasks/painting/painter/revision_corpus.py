"""Revision records for the revising tiny painter: a draft, the environment's feedback, a revision.

    >>> from watercolor.tasks.painting.painter.revision_corpus import plan_revisions
    >>> from watercolor.tasks.painting.painter.revision_corpus import revision_records
    >>> plans = plan_revisions(per_kind=2, seed=0)            # pure: sketches, no rendering
    >>> sorted({plan.kind for plan in plans})
    ['crash', 'flat', 'good', 'off_colour', 'weak']
    >>> records = await revision_records(plans, renderer, rewards)  # doctest: +SKIP

Five kinds of record. Each draft is a sketch from the tiny painter's own repertoire
(`watercolor.tasks.painting.painter.sketches`), and its revision paints the same composition for
the same prompt: crash -> fixed, flat -> layered, weak -> better, off_colour -> on-colour and
good -> kept (each described at `KINDS`).

How the feedback turn is made, which records are kept and what painting them costs: the comments
at `record`, `teaches` and `revision_records`.
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass

from tqdm.auto import tqdm

from watercolor.canvas import Canvas
from watercolor.rewards.reward_set import RewardSet, Score
from watercolor.tasks.painting.feedback import feedback, revision_conversation
from watercolor.tasks.painting.painter.motifs import Part, compose
from watercolor.tasks.painting.painter.sketches import (
    corrupt,
    flat,
    layered,
    palette,
    plain_p5,
    stroke_only,
)
from watercolor.tasks.painting.painter.sketches import then_throw as paint_then_throw
from watercolor.tasks.painting.painter.subjects import other_colour, read_prompt
from watercolor.tasks.painting.prompts import COLOURS, conversation
from watercolor.tasks.painting.prompts import prompts as task_prompts

# The five kinds:
# - `crash` -> fixed: the draft throws when it runs (it paints and then calls an undefined function,
#   or calls one mid-way) or the task's gate refuses it (an invented brush method, an unclosed
#   brace, bare p5, stroke brushes). The revision is the clean sketch the draft was broken from
#   (bare p5 and strokes: a layered sketch of the same parts and colours).
# - `flat` -> layered: opaque fills, revised into translucent layered washes.
# - `weak` -> better: a poor layered sketch (quality <= 0.3), revised into a good one (>= 0.8).
# - `off_colour` -> on-colour: a layered sketch painted in another colour than the prompt names,
#   revised into the same sketch in the prompt's colour (see `prompts.prompt_colours`): the same
#   random draws, so only the colour numbers change.
# - `good` -> kept: a good layered sketch in the prompt's colour; the revision is the draft itself.
KINDS = ("crash", "flat", "weak", "off_colour", "good")
# How a crash draft fails: at run time (the first two) or at the task's gate (the others).
CRASHES = (
    "then_throw",
    "undefined_function",
    "unknown_brush_method",
    "missing_brace",
    "plain_p5",
    "stroke_only",
)
WEAK, BETTER, GOOD = (0.0, 0.3), (0.8, 1.0), (0.6, 1.0)  # layered quality ranges (0..1)

Renderer = Callable[[str, int], Awaitable[Canvas]]  # (reply, seed) -> Canvas, as LocalRenderer


@dataclass(frozen=True)
class RevisionPlan:
    """One record before rendering: the prompt, a draft and its intended revision."""

    kind: str  # one of KINDS
    variant: str  # what the draft is: a CRASHES entry, "flat", "layered q0.21", ...
    prompt: str
    draft: str  # a fenced ```js reply
    revision: str  # a fenced ```js reply; the draft itself for `good`
    seed: int  # the render seed of draft and revision


def fenced(code: str) -> str:
    return f"```js\n{code}\n```"


def layered_in(parts: list[Part], colour: str, seed: str, quality: float) -> str:
    """A layered sketch in `colour` whose random draws depend on `seed` alone (not the colour)."""
    rng = random.Random(seed)
    return layered(parts, palette(COLOURS[colour], rng), rng, quality)


def quality(span: tuple[float, float], rng: random.Random) -> float:
    return round(rng.uniform(*span), 2)


def draft_and_revision(
    kind: str, parts: list[Part], colour: str, asked: str | None, rng: random.Random
) -> tuple[str, str, str]:
    """(variant, draft code, revision code) of one record of `kind`."""
    seed = str(rng.random())
    if kind == "crash":
        return crash(parts, colour, seed, rng)
    if kind == "flat":
        revision = layered_in(parts, colour, seed, quality(BETTER, rng))
        draft_rng = random.Random(seed)
        return "flat", flat(parts, palette(COLOURS[colour], draft_rng), draft_rng), revision
    if kind == "weak":
        q = quality(WEAK, rng)
        better = layered_in(parts, colour, seed, quality(BETTER, rng))
        return f"layered q{q}", layered_in(parts, colour, seed, q), better
    q = quality(GOOD if kind == "off_colour" else BETTER, rng)
    draft_colour = other_colour(asked, rng) if kind == "off_colour" else colour
    draft = layered_in(parts, draft_colour, seed, q)
    if kind == "good":
        return f"layered q{q}", draft, draft
    return f"layered q{q} in {draft_colour}", draft, layered_in(parts, colour, seed, q)


def crash(parts: list[Part], colour: str, seed: str, rng: random.Random) -> tuple[str, str, str]:
    """A draft that throws or is refused, and the clean sketch it was broken from."""
    variant = rng.choice(CRASHES)
    clean = layered_in(parts, colour, seed, round(1 - rng.random() ** 2, 2))  # corpus's skew
    if variant == "then_throw":
        return variant, paint_then_throw(clean, rng), clean
    if variant in ("plain_p5", "stroke_only"):
        writer = plain_p5 if variant == "plain_p5" else stroke_only
        return variant, writer(parts, palette(COLOURS[colour], rng), rng), clean
    return variant, corrupt(clean, variant, rng), clean


def plan_revisions(
    per_kind: int, seed: int = 0, prompts: Sequence[str] | None = None
) -> list[RevisionPlan]:
    """`per_kind` plans of every kind, for prompts drawn from `prompts` (default: the task's
    training split; the off-colour kind draws from the prompts that name a colour)."""
    pool = list(prompts) if prompts is not None else task_prompts("train")
    named = [p for p in pool if read_prompt(p)[0]]
    plans = []
    for kind in KINDS:
        for i in range(per_kind):
            rng = random.Random(f"revise:{seed}:{kind}:{i}")
            prompt = rng.choice(named if kind == "off_colour" else pool)
            asked, motif = read_prompt(prompt)
            colour = asked or rng.choice(list(COLOURS))
            parts = compose(motif, rng)
            variant, draft, revision = draft_and_revision(kind, parts, colour, asked, rng)
            plans.append(
                RevisionPlan(kind, variant, prompt, fenced(draft), fenced(revision), len(plans))
            )
    return plans


# A record is kept only if it teaches what it says, measured on the same renders: a changed revision
# must paint cleanly and score at least `min_gain` more than its draft (a crash draft must really
# crash, the other drafts must paint); a kept draft must paint and score at least `good_total`. So
# "better" means better under the reward set, not just more glazes.
def teaches(
    plan: RevisionPlan,
    draft: tuple[Canvas, Score],
    revision: tuple[Canvas, Score],
    min_gain: float,
    good_total: float,
) -> bool:
    """Whether the rendered pair is what the plan claims (see the module docstring)."""
    (draft_canvas, draft_score), (revision_canvas, revision_score) = draft, revision
    if draft_score.total is None or revision_score.total is None:
        return False  # an infrastructure failure says nothing about either sketch
    if plan.kind == "good":
        return draft_canvas.ok and draft_score.total >= good_total
    if draft_canvas.ok == (plan.kind == "crash") or not revision_canvas.ok:
        return False
    return revision_score.total >= draft_score.total + min_gain


# The feedback turn is `feedback(canvas, score)` of the draft's real canvas, scored by the reward
# set given (the revising painter's build uses `fine_grained`, the default run's): gate refusals
# come from the task's gate without a browser (`episode.paint` refuses before rendering), runtime
# errors and scores from a real render. The record's prompt is
# `revision_conversation(conversation(prompt), draft, feedback)`, exactly what
# `watercolor.training.revision` sends the painter; its completion is the revision.
def record(plan: RevisionPlan, draft: tuple[Canvas, Score], revision: tuple[Canvas, Score]):
    """The SFT record (`prompt`: the revision conversation, `completion`: the revision) and
    what it was made from."""
    text = feedback(*draft)
    return {
        "prompt": revision_conversation(conversation(plan.prompt), plan.draft, text),
        "completion": [{"role": "assistant", "content": plan.revision}],
        "kind": plan.kind,
        "variant": plan.variant,
        "task_prompt": plan.prompt,
        "seed": plan.seed,
        "feedback": text,
        "draft_status": str(draft[0].status),
        "draft_total": draft[1].total,
        "revision_status": str(revision[0].status),
        "revision_total": revision[1].total,
    }


# Cost: every draft and every changed revision is rendered once (drafts the gate refuses are not
# rendered), so `5 * per_kind` plans take at most `9 * per_kind` renders of ~1-7 CPU-s each.
async def revision_records(
    plans: Sequence[RevisionPlan],
    renderer: Renderer,
    rewards: RewardSet,
    *,
    min_gain: float = 0.02,
    good_total: float = 0.6,
    progress: bool = False,
) -> list[dict]:
    """The records of the plans that teach what they claim, each reply painted once by
    `renderer` (concurrently, up to its pool's size) and scored by `rewards`."""
    replies = {(p.draft, p.seed, p.prompt) for p in plans} | {
        (p.revision, p.seed, p.prompt) for p in plans
    }
    keys = sorted(replies)
    with tqdm(total=len(keys), desc="revision records", disable=not progress) as bar:

        async def paint(reply: str, seed: int, prompt: str) -> tuple[Canvas, Score]:
            canvas = await renderer(reply, seed)
            score = await asyncio.to_thread(rewards.score, canvas, prompt=prompt)
            bar.update()
            return canvas, score

        scored = dict(zip(keys, await asyncio.gather(*(paint(*k) for k in keys)), strict=True))
    records = []
    for plan in plans:
        draft = scored[plan.draft, plan.seed, plan.prompt]
        revision = scored[plan.revision, plan.seed, plan.prompt]
        if teaches(plan, draft, revision, min_gain, good_total):
            records.append(record(plan, draft, revision))
    return records


def kind_counts(records: Sequence[dict]) -> dict[str, int]:
    """How many records of each kind (the build's report)."""
    return {kind: sum(r["kind"] == kind for r in records) for kind in KINDS}
