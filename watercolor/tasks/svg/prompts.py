"""What the SVG illustrator is asked: the system prompt and the "draw a <colour> <subject>" set.

    >>> from watercolor.tasks.svg.prompts import prompts, conversation
    >>> prompts("train")[0]
    'draw a coral tulip as an SVG illustration'
    >>> [m["role"] for m in conversation(prompts("train")[0])]
    ['system', 'user']

The second task beside painting, added as files and config only (issue 33): the model writes
one SVG document, Chromium rasterises it in the same sandboxed pool (watercolor/tasks/svg/
harness.py), and reward sets score the canvas. Every colour is a name the generic
`prompt_colours` component reads back (`watercolor.rewards.adherence.COLOUR_NAMES`), and no
subject is a colour word. The held-out split holds whole subjects train never sees, plus one
in ten of the other pairs, chosen by a hash of the prompt text (stable across machines).
"""

from __future__ import annotations

from watercolor.tasks.parts import chat, check_split, prompt_split

SYSTEM_PROMPT = """\
You draw illustrations by writing SVG: one SVG document, drawn on a 600x600 sheet.

Start from this skeleton:

```svg
<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 600 600">
  <rect width="600" height="600" fill="#fbf8f1"/>
  <!-- layered shapes go here -->
</svg>
```

Use shapes (circle, ellipse, rect, polygon, path) with fill colours ("#rrggbb") and \
fill-opacity between 0 and 1; group them with <g> and transform them if you like.
No script, no event handlers, no links or images, no foreignObject, no animation.
Draw like an illustrator: large pale shapes first, then smaller, darker, overlapping \
translucent layers of related colours.

Reply with exactly one ```svg code block and nothing else."""

# Named colours (each a key of watercolor.rewards.adherence.COLOUR_NAMES, so the generic
# prompt_colours component reads it back) -> the hex the corpus draws it in.
COLOURS: dict[str, str] = {
    "coral": "#f07860",
    "scarlet": "#e0402a",
    "crimson": "#b0243a",
    "apricot": "#f4a862",
    "gold": "#e0b030",
    "ochre": "#c89a3c",
    "olive": "#7a8a3a",
    "emerald": "#2a9a6a",
    "teal": "#2a8a8a",
    "turquoise": "#40c0b8",
    "navy": "#243c78",
    "indigo": "#3c3a8a",
    "violet": "#8a5ac0",
    "lavender": "#b4a0d8",
    "magenta": "#c03a9a",
    "sienna": "#a0522d",
}

SUBJECTS = (
    "tulip", "daisy", "sunflower", "cactus", "mushroom", "pine tree", "maple leaf", "sun",
    "crescent moon", "cloud", "mountain", "island", "sailboat", "fish", "whale", "owl",
    "fox", "snail", "house", "teacup", "kite", "balloon", "planet", "comet",
)  # fmt: skip
HELD_OUT_SUBJECTS = frozenset({"cactus", "whale", "teacup", "comet"})
HELD_OUT_PAIR_FRACTION = 10


def _text(colour: str, subject: str) -> str:
    return f"draw {'an' if colour[0] in 'aeiou' else 'a'} {colour} {subject} as an SVG illustration"


def _split(text: str, subject: str) -> str:
    return prompt_split(text, subject in HELD_OUT_SUBJECTS, HELD_OUT_PAIR_FRACTION)


def prompts(split: str = "train") -> list[str]:
    """The prompt texts of `split` ("train" or "heldout"), in a fixed order."""
    check_split(split)
    pairs = ((_text(colour, subject), subject) for subject in SUBJECTS for colour in COLOURS)
    return [text for text, subject in pairs if _split(text, subject) == split]


def prompt_colour(prompt: str) -> tuple[str, str]:
    """The (name, "#rrggbb") a prompt asks for: its third word(s) up to the subject."""
    for name, hex_colour in COLOURS.items():
        if f" {name} " in f" {prompt} ":
            return name, hex_colour
    raise ValueError(f"no colour of this task in {prompt!r}")


def conversation(prompt: str) -> list[dict[str, str]]:
    """The chat messages for one prompt (TRL's conversational dataset format)."""
    return chat(SYSTEM_PROMPT, prompt)
