"""A procedurally generated corpus of (prompt, reply) pairs for warm-starting the tiny painter.

    >>> from watercolor.tasks.painting.painter.corpus import Mixture, generate_corpus
    >>> corpus = generate_corpus(100, seed=0, mixture=Mixture(layered=0.6, flat=0.2, broken=0.2,
    ...                                                       then_throw=0, stroke_only=0))
    >>> sum(example.kind == "flat" for example in corpus)
    20
    >>> corpus[0].reply.startswith("```js\\nfunction setup() {")
    True

The mixture is deliberate: RL needs real choices to choose between, and the default's choices
are the ones on which reward sets disagree. Layered translucent washes of varying quality (what
the fine-grained rewards pay for), flat opaque fills in the prompt's colours (the "fake
watercolour" a coarse reward pays most), finished sketches that paint and then throw (which an
ungated reward pays for their pixels and a gated one zeroes), and outlines only (strokes: outside
the anchor's allow-list, so refused). Two kinds that fail the static gate outright, bare p5
primitives and broken code (missing brace, undefined function, invented brush method), are
off by default: a 3.45M-parameter model blends whatever it sees into its washes. Sketches are
painted in the prompt's colour except for a configurable fraction, so that following the prompt
is learnable too.
Everything is deterministic from `seed`: same arguments, same corpus.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import asdict, dataclass

from tqdm.auto import tqdm

from watercolor.policy.builder import sft_record
from watercolor.tasks.painting.painter.motifs import compose
from watercolor.tasks.painting.painter.sketches import (
    DEFECTS,
    corrupt,
    flat,
    layered,
    palette,
    plain_p5,
    stroke_only,
    then_throw,
)
from watercolor.tasks.painting.painter.subjects import other_colour, read_prompt
from watercolor.tasks.painting.prompts import COLOURS
from watercolor.tasks.painting.prompts import prompts as task_prompts

KINDS = ("layered", "flat", "then_throw", "stroke_only", "plain_p5", "broken")
# Well-formed p5.brush sketches (`then_throw` fails only when it runs).
VALID_KINDS = ("layered", "flat", "then_throw", "stroke_only")


@dataclass(frozen=True)
class Mixture:
    """Relative weights of the kinds of reply (normalised), and the off-prompt colour share.

    The defaults are the repertoire on which the reward sets disagree (layered, flat, paint then
    throw, strokes), with kinds that fail the static gate outright off: with 20 % bare-p5 and
    broken replies the 3M-parameter model blended their lines into its washes and only 31-47 %
    of its replies passed the gate (experiments/2026-11-30_three_rewards/). Sampling at the
    training temperature (0.7) favours the majority kind, so the minority kinds are weighted up
    (with layered .45 / flat .30 / throw .15 / strokes .10 the warm start wrote 10 % flat, no
    throws, and blended stroke calls into washes).
    """

    layered: float = 0.4
    flat: float = 0.35
    then_throw: float = 0.2
    stroke_only: float = 0.05
    plain_p5: float = 0.0
    broken: float = 0.0
    off_prompt_colour: float = (
        0.1  # share of sketches painted in a colour the prompt did not ask for
    )

    def counts(self, size: int) -> dict[str, int]:
        """Exact number of replies of each kind in a corpus of `size` (largest remainder)."""
        weights = {kind: getattr(self, kind) for kind in KINDS}
        total = sum(weights.values())
        if total <= 0 or min(weights.values()) < 0:
            raise ValueError(f"mixture weights must be >= 0 and not all 0: {weights}")
        exact = {kind: size * w / total for kind, w in weights.items()}
        counts = {kind: int(x) for kind, x in exact.items()}
        by_remainder = sorted(KINDS, key=lambda k: counts[k] - exact[k])
        for kind in by_remainder[: size - sum(counts.values())]:
            counts[kind] += 1
        return counts


@dataclass(frozen=True)
class Example:
    prompt: str
    reply: str  # a fenced ```js block, like a model's reply
    kind: str  # one of KINDS
    colour: str  # colour name the sketch is painted in
    on_prompt: bool  # painted in the colour the prompt names (or the prompt names none)
    quality: float | None = None  # layered sketches: 0 (thick, plain) .. 1 (thin, glazed, bled)
    defect: str | None = None  # broken sketches: one of sketches.DEFECTS

    def to_dict(self) -> dict:
        return asdict(self)


def _sketch(kind: str, parts, colours, rng: random.Random) -> tuple[str, float | None, str | None]:
    """(code, quality, defect) of one sketch of `kind`."""
    if kind == "layered":
        # Skewed towards good washes (mean 2/3): faint, small layered replies read as a few
        # marks to the pixel rewards, and a repertoire whose layered kind is mostly poor gives
        # `fine_grained` no layered optimum to find (python -m
        # watercolor.tasks.painting.painter.kinds).
        quality = round(1 - rng.random() ** 2, 2)
        return layered(parts, colours, rng, quality), quality, None
    if kind in ("broken", "then_throw"):
        base = layered(parts, colours, rng) if rng.random() < 0.7 else flat(parts, colours, rng)
        if kind == "then_throw":
            return then_throw(base, rng), None, None
        defect = rng.choice(DEFECTS)
        return corrupt(base, defect, rng), None, defect
    writer = {"flat": flat, "stroke_only": stroke_only, "plain_p5": plain_p5}[kind]
    return writer(parts, colours, rng), None, None


def make_example(
    kind: str, prompt: str, rng: random.Random, mixture: Mixture = Mixture()
) -> Example:
    """One (prompt, reply) pair of `kind` for `prompt`."""
    asked, motif = read_prompt(prompt)
    colour = asked or rng.choice(list(COLOURS))
    if rng.random() < mixture.off_prompt_colour:
        colour = other_colour(asked, rng)
    parts = compose(motif, rng)
    code, quality, defect = _sketch(kind, parts, palette(COLOURS[colour], rng), rng)
    reply = f"```js\n{code}\n```"
    on_prompt = asked is None or colour == asked
    return Example(prompt, reply, kind, colour, on_prompt, quality, defect)


def generate_corpus(
    size: int,
    *,
    seed: int = 0,
    mixture: Mixture = Mixture(),
    prompts: Sequence[str] | None = None,
    progress: bool = False,
) -> list[Example]:
    """`size` examples in the proportions of `mixture`, in a seeded random order.

    `prompts`: the prompt texts to draw from; None means the painting task's training split
    (its held-out prompts stay unseen).
    """
    pool = list(prompts) if prompts is not None else task_prompts("train")
    counts = mixture.counts(size)
    kinds = [kind for kind in KINDS for _ in range(counts[kind])]
    random.Random(seed).shuffle(kinds)
    examples = []
    for i, kind in enumerate(tqdm(kinds, desc="corpus", disable=not progress)):
        rng = random.Random(f"{seed}:{i}")  # one stream per example: examples do not shift
        examples.append(make_example(kind, rng.choice(pool), rng, mixture))
    return examples


def conversation(example: Example, system_prompt: str | None = None) -> dict[str, list[dict]]:
    """TRL's conversational prompt-completion record for `example` (`builder.sft_record`)."""
    return sft_record(example.prompt, example.reply, system_prompt)
