"""Reading a painting prompt for the corpus: which colour it names and which motif paints it.

    >>> from watercolor.tasks.painting.painter.subjects import read_prompt
    >>> read_prompt("paint a crimson hibiscus in watercolour")
    ('crimson', 'flower')
    >>> read_prompt("paint a teal night sky in watercolour")
    ('teal', 'moon')

Prompts and colour names are the painting task's (`watercolor.tasks.painting.prompts`), so
the tiny painter trains on the wording and pigments the task will ask for. The tiny painter
learns to follow a prompt only if its training sketches use the colour the prompt names; a
prompt naming no known colour gets a random one, a subject matching no keyword the generic
composition.
"""

from __future__ import annotations

import random
import re

from watercolor.tasks.painting.prompts import COLOURS, prompt_colours

# (keyword, motif) in priority order: the first keyword found in the prompt decides, so
# "night sky" paints a moon before "sky" would paint a sunset. Motifs:
# watercolor.tasks.painting.painter.motifs.
MOTIF_KEYWORDS: tuple[tuple[str, str], ...] = (
    ("night", "moon"),
    ("moon", "moon"),
    ("sunset", "sunset"),
    ("dawn", "sunset"),
    ("sky", "sunset"),
    ("koi", "fish"),
    ("fish", "fish"),
    ("songbird", "bird"),
    ("bird", "bird"),
    ("robin", "bird"),
    ("butterfly", "butterfly"),
    ("sailboat", "boat"),
    ("boat", "boat"),
    ("harbour", "boat"),
    ("lighthouse", "boat"),
    ("wave", "sea"),
    ("sea", "sea"),
    ("coastline", "sea"),
    ("teapot", "vessel"),
    ("vase", "vessel"),
    ("bowl", "vessel"),
    ("jug", "vessel"),
    ("tree", "tree"),
    ("forest", "tree"),
    ("mountain", "landscape"),
    ("hill", "landscape"),
    ("meadow", "landscape"),
    ("valley", "landscape"),
    ("lake", "landscape"),
    *(
        (flower, "flower")
        for flower in (
            "hibiscus",
            "tulip",
            "poppy",
            "poppies",
            "peony",
            "rose",
            "iris",
            "lotus",
            "camellia",
            "daisy",
            "orchid",
            "blossom",
            "flower",
        )
    ),
    *((fruit, "fruit") for fruit in ("pear", "apple", "fig", "pomegranate", "cherry", "quince")),
)


def read_prompt(prompt: str) -> tuple[str | None, str]:
    """(first colour name the prompt asks for or None, motif name) for any prompt text."""
    colours = prompt_colours(prompt)
    colour = colours[0][0] if colours else None
    text = prompt.lower()
    if colour:  # "rose" can be a colour as well as a flower elsewhere; read the subject after it
        text = text.replace(colour, " ", 1)
    for keyword, motif in MOTIF_KEYWORDS:
        if re.search(rf"\b{keyword}", text):
            return colour, motif
    return colour, "generic"


def other_colour(colour: str | None, rng: random.Random) -> str:
    """A colour name different from `colour` (for deliberately off-prompt sketches)."""
    return rng.choice([c for c in COLOURS if c != colour])
