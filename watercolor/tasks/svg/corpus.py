"""The SVG painter's warm-start corpus: example replies of kinds the reward sets disagree on.

    >>> import random
    >>> from watercolor.tasks.svg.corpus import make_example
    >>> prompt = "draw a teal owl as an SVG illustration"
    >>> example = make_example("layered", prompt, random.Random(0))
    >>> example.reply.startswith("```svg\\n<svg")
    True

Kinds (`KINDS`), what each teaches and who pays for it:
- `layered`: 5-10 overlapping translucent shapes (fill-opacity 0.25-0.7) in shades of the
  prompt's colour, large pale ones first: paid by `svg_fine` (translucency, composition,
  layered pixels) and well by `svg_coarse` (colour, coverage);
- `flat_block`: one or two large opaque shapes in the prompt's colour: `svg_coarse` pays it as
  much as `layered` (coverage and colour are all it reads), `svg_fine` little (flat, opaque,
  one block);
- `flat_shapes`: three to six opaque shapes in shades of the colour: between the two;
- `off_colour`: a `layered` picture in another colour: loses the colour term in both sets;
- `sparse`: one or two small marks: both pay little (the sheet is nearly blank);
- `broken`: a document the gate refuses (`DEFECTS`: a script, an event handler, an external
  image, a foreignObject, a cut-off document), so the painter starts out writing some.

Every number is drawn from the example's own `random.Random`, so a seed gives the same corpus
on every machine.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass

from watercolor.tasks.svg.prompts import COLOURS, prompt_colour

KINDS = ("layered", "flat_block", "flat_shapes", "off_colour", "sparse", "broken")
DEFECTS = ("script", "event_handler", "external_image", "foreign_object", "truncated")
PAPER = "#fbf8f1"
SIZE = 600


@dataclass(frozen=True)
class Example:
    prompt: str
    reply: str  # a fenced ```svg block, like a model's reply
    kind: str  # one of KINDS
    defect: str | None = None  # broken examples: one of DEFECTS


def shade(hex_colour: str, amount: float) -> str:
    """`hex_colour` mixed towards white (amount > 0) or black (amount < 0) by |amount|."""
    rgb = [int(hex_colour[i : i + 2], 16) for i in (1, 3, 5)]
    target = 255 if amount > 0 else 0
    mixed = (round(c + (target - c) * abs(amount)) for c in rgb)
    return "#" + "".join(f"{c:02x}" for c in mixed)


def shape(rng: random.Random, colour: str, scale: float, opacity: float | None) -> str:
    """One shape of about `scale` x 600 px across, somewhere near the middle of the sheet."""
    cx, cy = (round(300 + rng.gauss(0, 90 * (1.2 - scale))) for _ in range(2))
    r = max(6, round(300 * scale * rng.uniform(0.7, 1.1)))
    fill = f'fill="{colour}"' + (f' fill-opacity="{opacity:.2f}"' if opacity is not None else "")
    form = rng.choice(("circle", "ellipse", "rect", "polygon"))
    if form == "circle":
        return f'<circle cx="{cx}" cy="{cy}" r="{r}" {fill}/>'
    if form == "ellipse":
        ry = max(4, round(r * rng.uniform(0.4, 0.9)))
        return f'<ellipse cx="{cx}" cy="{cy}" rx="{r}" ry="{ry}" {fill}/>'
    if form == "rect":
        w, h = round(r * rng.uniform(1.2, 2.0)), round(r * rng.uniform(0.8, 1.6))
        rx = round(min(w, h) * rng.uniform(0.05, 0.3))
        return (
            f'<rect x="{cx - w // 2}" y="{cy - h // 2}" width="{w}" height="{h}" rx="{rx}" {fill}/>'
        )
    corners = rng.randint(5, 9)
    points = []
    for i in range(corners):
        angle = 6.2832 * (i + rng.uniform(-0.2, 0.2)) / corners
        reach = r * rng.uniform(0.6, 1.0)
        points.append(
            f"{round(cx + reach * math.cos(angle))},{round(cy + reach * math.sin(angle))}"
        )
    return f'<polygon points="{" ".join(points)}" {fill}/>'


def document(shapes: list[str], extra: str = "") -> str:
    body = "\n".join(f"  {s}" for s in shapes)
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {SIZE} {SIZE}">\n'
        f'  <rect width="{SIZE}" height="{SIZE}" fill="{PAPER}"/>\n{body}\n{extra}</svg>'
    )


def layered(rng: random.Random, colour: str) -> list[str]:
    count = rng.randint(5, 10)
    return [
        shape(
            rng,
            shade(colour, 0.5 - 0.8 * i / count),
            0.45 - 0.3 * i / count,
            rng.uniform(0.25, 0.7),
        )
        for i in range(count)
    ]


def make_example(kind: str, prompt: str, rng: random.Random) -> Example:
    """One example reply of `kind` for `prompt`."""
    _, colour = prompt_colour(prompt)
    defect = None
    if kind == "layered":
        svg = document(layered(rng, colour))
    elif kind == "flat_block":
        svg = document(
            [shape(rng, colour, rng.uniform(0.35, 0.5), None) for _ in range(rng.randint(1, 2))]
        )
    elif kind == "flat_shapes":
        count = rng.randint(3, 6)
        svg = document(
            [
                shape(rng, shade(colour, rng.uniform(-0.3, 0.3)), rng.uniform(0.12, 0.3), None)
                for _ in range(count)
            ]
        )
    elif kind == "off_colour":
        other = rng.choice([c for c in COLOURS.values() if c != colour])
        svg = document(layered(rng, other))
    elif kind == "sparse":
        svg = document(
            [shape(rng, colour, rng.uniform(0.02, 0.05), None) for _ in range(rng.randint(1, 2))]
        )
    elif kind == "broken":
        defect = rng.choice(DEFECTS)
        svg = broken(rng, colour, defect)
    else:
        raise ValueError(f"unknown kind {kind!r}; expected one of {KINDS}")
    return Example(prompt, f"```svg\n{svg}\n```", kind, defect)


def broken(rng: random.Random, colour: str, defect: str) -> str:
    """A `layered` document with one `defect` the gate refuses."""
    shapes = layered(rng, colour)
    if defect == "script":
        return document(shapes, '  <script>document.title = "hi";</script>\n')
    if defect == "event_handler":
        shapes[0] = shapes[0].replace("/>", ' onclick="alert(1)"/>')
        return document(shapes)
    if defect == "external_image":
        return document(
            shapes, '  <image href="https://example.com/paper.png" width="600" height="600"/>\n'
        )
    if defect == "foreign_object":
        return document(
            shapes, '  <foreignObject width="600" height="80"><p>title</p></foreignObject>\n'
        )
    return document(shapes)[: -len("</svg>")]  # truncated: never closed


@dataclass(frozen=True)
class Mixture:
    """How often each kind appears in the corpus (normalised weights)."""

    layered: float = 0.2
    flat_block: float = 0.25
    flat_shapes: float = 0.2
    off_colour: float = 0.1
    sparse: float = 0.1
    broken: float = 0.15

    def draw(self, rng: random.Random) -> str:
        return rng.choices(KINDS, weights=[getattr(self, k) for k in KINDS])[0]


def generate_corpus(size: int, seed: int, mixture: Mixture, prompts: list[str]) -> list[Example]:
    """`size` examples, kinds drawn from `mixture`, prompts in turn, all seeded by `seed`."""
    examples = []
    for i in range(size):
        rng = random.Random(f"{seed}:{i}")
        examples.append(make_example(mixture.draw(rng), prompts[i % len(prompts)], rng))
    return examples
