"""What the painter is asked: the system prompt and the "paint a <colour> <subject>" prompt set.

    >>> from watercolor.tasks.painting.prompts import prompts, prompt_colours
    >>> train, held_out = prompts("train"), prompts("heldout")
    >>> train[0], len(set(train) & set(held_out))
    ('paint a peach hibiscus in watercolour', 0)
    >>> prompt_colours("paint an ochre pear in watercolour")
    [('ochre', '#c8892e')]

The system prompt follows the anchor: a fixed skeleton (600x600 WEBGL canvas, brushes scaled
by 3, cream paper), a short allow-list of string-free brush methods with one line each, bare
p5 primitives banned, one fenced ```js block as the reply. A long API reference made models
invent methods; a short allow-list did not.

Prompts are every named colour crossed with every subject. The held-out split holds whole
subjects (one per category) that train never sees, plus about a tenth of the remaining
colour-subject pairs, chosen by a hash of the prompt text so the split is the same on every
machine and stays put when colours or subjects are added.
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass

from watercolor.tasks.parts import SPLITS as SPLITS  # the splits calibration offers
from watercolor.tasks.parts import chat, check_split, prompt_split

SYSTEM_PROMPT = """\
You paint watercolours by writing code: one p5.js sketch that uses the p5.brush library.

Start from this skeleton and paint inside setup():

```js
function setup() {
  createCanvas(600, 600, WEBGL);
  background("#f3ead6"); // cream paper
  brush.scaleBrushes(3);
  brush.noStroke();
  // layered washes go here
}
```

The origin is the centre of the canvas: x and y run from -300 to 300, and y points down.

Brush methods you may use, and no others:
- brush.fill(colour, opacity): colour ("#rrggbb") and opacity (0-255) of the next washes; \
washes are translucent already, 120-200 reads well.
- brush.fillBleed(strength): how far a wash bleeds past its outline, 0-1.
- brush.fillTexture(texture, border): paper grain inside a wash and pigment pooling at its \
edge, 0-1 each.
- brush.noFill(): stop filling.
- brush.noStroke(): no outlines.
- brush.beginShape(curvature): start a wash outline; curvature 0-1 rounds its corners.
- brush.vertex(x, y): add a point to the outline.
- brush.endShape(CLOSE): close the outline and paint the wash.
- brush.circle(x, y, radius): paint a round wash.
- brush.scaleBrushes(3): once, at the top of setup().

Plain JavaScript and p5 maths are fine: loops, functions, random(), noise(), sin(), cos(), \
push(), translate(), rotate(), pop().
Never call p5 drawing functions yourself (rect, ellipse, circle, line, vertex, fill, \
stroke, ...): every mark is a brush wash, and background() only sets the paper.
No text, no images, no network, no DOM.
Paint like a watercolourist: light washes first, then smaller, darker, overlapping \
translucent layers of related colours.

Reply with exactly one ```js code block and nothing else."""

# Named colours a prompt may ask for (name -> a typical watercolour pigment of that name).
# No colour name is a word of a subject, so a prompt's colours can be read back from its text.
COLOURS: dict[str, str] = {
    "peach": "#f2a68a",
    "coral": "#ee7a62",
    "scarlet": "#d2362b",
    "crimson": "#a91f3c",
    "burgundy": "#6e1d33",
    "magenta": "#c1307e",
    "violet": "#7a4ca6",
    "lavender": "#b4a0d6",
    "indigo": "#37408c",
    "cobalt": "#1f4f9e",
    "cerulean": "#2e8ac4",
    "turquoise": "#2aa9a6",
    "teal": "#1d6f72",
    "emerald": "#2a8c58",
    "sage": "#8ea47f",
    "olive": "#75782f",
    "golden": "#e0aa2c",
    "ochre": "#c8892e",
    "rust": "#ad4f26",
    "sepia": "#704f35",
    "slate": "#566577",
}

# Subjects by category; singular so that "a <colour> <subject>" reads well.
SUBJECTS: dict[str, tuple[str, ...]] = {
    "flowers": ("hibiscus", "tulip", "poppy", "peony", "rose", "iris", "lotus", "camellia"),
    "fruit": ("pear", "apple", "fig", "pomegranate", "cherry", "quince"),
    "landscapes": ("hillside", "mountain range", "coastline", "meadow", "river valley"),
    "skies": ("sunset sky", "dawn sky", "night sky", "storm cloud"),
    "still life": ("teapot", "vase", "bowl", "jug"),
    "sea": ("wave", "sailboat", "harbour", "lighthouse"),
    "creatures": ("koi fish", "songbird", "butterfly", "jellyfish"),
}
# Whole subjects the policy never trains on: the held-out split tests generalisation to them.
HELD_OUT_SUBJECTS = frozenset(
    {"camellia", "quince", "river valley", "storm cloud", "jug", "lighthouse", "jellyfish"}
)
HELD_OUT_PAIR_FRACTION = 10  # 1 in 10 of the other colour-subject pairs is held out too

_COLOUR_WORD = re.compile(
    r"\b(" + "|".join(sorted(map(re.escape, COLOURS), key=len, reverse=True)) + r")\b", re.I
)


@dataclass(frozen=True)
class PaintingPrompt:
    text: str  # "paint a peach hibiscus in watercolour"
    colour: str  # "peach"
    subject: str  # "hibiscus"
    category: str  # "flowers"
    split: str  # "train" or "heldout"


def _text(colour: str, subject: str) -> str:
    article = "an" if colour[0] in "aeiou" else "a"
    return f"paint {article} {colour} {subject} in watercolour"


def _record(colour: str, subject: str, category: str) -> PaintingPrompt:
    text = _text(colour, subject)
    split = prompt_split(text, subject in HELD_OUT_SUBJECTS, HELD_OUT_PAIR_FRACTION)
    return PaintingPrompt(text, colour, subject, category, split)


def prompt_records(split: str = "train") -> list[PaintingPrompt]:
    """Every prompt of `split` with its colour, subject and category, in a fixed order."""
    check_split(split)
    records = (
        _record(colour, subject, category)
        for category, subjects in SUBJECTS.items()
        for subject in subjects
        for colour in COLOURS
    )
    return [r for r in records if r.split == split]


def prompts(split: str = "train") -> list[str]:
    """The prompt texts of `split` ("train" or "heldout"), in a fixed order."""
    return [r.text for r in prompt_records(split)]


def sample_prompt(rng: random.Random, split: str = "train") -> str:
    """One prompt of `split`, drawn with `rng` (reproducible for a seeded rng)."""
    return rng.choice(prompts(split))


def prompt_colours(prompt: str) -> list[tuple[str, str]]:
    """The named colours a prompt asks for, as (name, "#rrggbb"), in order of mention."""
    names = dict.fromkeys(m.group(1).lower() for m in _COLOUR_WORD.finditer(prompt))
    return [(name, COLOURS[name]) for name in names]


def conversation(prompt: str) -> list[dict[str, str]]:
    """The chat messages for one prompt (TRL's conversational dataset format)."""
    return chat(SYSTEM_PROMPT, prompt)
