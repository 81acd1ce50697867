"""Prompt adherence: are the colours the prompt names actually on the sheet?

    >>> from watercolor.rewards.adherence import named_colours, prompt_colours
    >>> named_colours("draw a peach hibiscus with sky blue leaves in watercolour")
    ['#f5b08a', '#87b7d9']
    >>> prompt_colours(canvas, prompt="draw a peach hibiscus in watercolour")
    1.0

The anchor's model ignored prompt rules it was not paid for; this pays for the colours. A
named colour counts as present when enough of the paint has its *pigment hue*: the hue of the
pixel's departure from the paper (OKLab). That is what survives translucency: a thin coral wash
over cream paper is pale, but it leaves the paper in coral's direction. Dark neutrals (black,
grey, brown's value) are matched by lightness instead. The colours come from the `prompt`
(a dataset column, passed per sample by the reward set) through a name table, or are given
explicitly as `colours` (hex) by the caller. Scaled by `View.extent`, like every component
that judges the paint: a few marks in the right colours on an empty sheet are no painting.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

import numpy as np

from watercolor.canvas import Canvas
from watercolor.rewards.pixels import View, hex_to_oklab, painted_view, score_without_paint

COLOUR_NAMES: dict[str, str] = {
    "red": "#c8323c", "crimson": "#b0243a", "scarlet": "#e0402a", "coral": "#f07860",
    "peach": "#f5b08a", "orange": "#f08a30", "apricot": "#f4a862", "gold": "#e0b030",
    "golden": "#e0b030", "yellow": "#f2d040", "ochre": "#c89a3c", "lemon": "#f0e050",
    "green": "#4c9a4c", "olive": "#7a8a3a", "sage": "#9aae8a", "emerald": "#2a9a6a",
    "teal": "#2a8a8a", "turquoise": "#40c0b8", "blue": "#3a6ac0", "sky blue": "#87b7d9",
    "navy": "#243c78", "indigo": "#3c3a8a", "purple": "#7a4a9a", "violet": "#8a5ac0",
    "lavender": "#b4a0d8", "lilac": "#c0a0d0", "magenta": "#c03a9a", "pink": "#f0a0b8",
    "rose": "#d8607a", "brown": "#7a5030", "sienna": "#a0522d", "umber": "#6a4a30",
    "grey": "#808080", "gray": "#808080", "black": "#202020",
    # The rest of the painting task's colour words (watercolor.tasks.painting.prompts.COLOURS),
    # so every training prompt's colour is read back.
    "burgundy": "#6e1d33", "cobalt": "#1f4f9e", "cerulean": "#2e8ac4", "rust": "#ad4f26",
    "sepia": "#704f35", "slate": "#566577",
}  # fmt: skip
NEUTRAL_CHROMA = 0.04  # below this OKLab chroma a colour has no usable hue


def prompt_text(prompt: str | Sequence[Mapping[str, str]] | None) -> str:
    """The user's words from a plain or conversational (list of messages) prompt."""
    if prompt is None or isinstance(prompt, str):
        return prompt or ""
    return " ".join(m.get("content", "") for m in prompt if m.get("role", "user") == "user")


def named_colours(prompt: str, names: Mapping[str, str] = COLOUR_NAMES) -> list[str]:
    """Hex colours named in the text, longest names first ('sky blue' is not also 'blue')."""
    found, text = [], prompt.lower()
    for name in sorted(names, key=len, reverse=True):
        pattern = rf"\b{re.escape(name)}\b"
        if re.search(pattern, text):
            found.append(names[name])
            text = re.sub(pattern, " ", text)
    return found


def colour_share(v: View, colour: str, hue_tolerance: float = 25.0) -> float:
    """Fraction of the painted pixels that carry this colour (by pigment hue, or by value)."""
    pigment = v.lab[v.paint] - v.paper
    target = hex_to_oklab(colour)
    if np.hypot(target[1], target[2]) < NEUTRAL_CHROMA:  # neutral: match value, little hue
        chroma = np.hypot(pigment[:, 1], pigment[:, 2])
        value = v.lab[v.paint][:, 0]
        return float(((np.abs(value - target[0]) < 0.12) & (chroma < 2 * NEUTRAL_CHROMA)).mean())
    direction = target - v.paper
    angle = np.arctan2(pigment[:, 2], pigment[:, 1]) - np.arctan2(direction[2], direction[1])
    difference = np.degrees(np.abs((angle + np.pi) % (2 * np.pi) - np.pi))
    tinted = np.hypot(pigment[:, 1], pigment[:, 2]) > 0.02  # a visible hue, not just darker
    return float((tinted & (difference <= hue_tolerance)).mean())


def prompt_colours(
    canvas: Canvas,
    prompt: str | Sequence[Mapping[str, str]] | None = None,
    colours: Sequence[str] | None = None,
    min_share: float = 0.05,
    hue_tolerance: float = 25.0,
) -> float | None:
    """[0, 1]: mean presence of the requested colours (any paint when none are requested)."""
    v = painted_view(canvas)
    if v is None:  # nothing painted honours no request, named colours or not
        return score_without_paint(canvas)
    wanted = list(colours) if colours else named_colours(prompt_text(prompt))
    if not wanted:
        return v.extent
    shares = [colour_share(v, c, hue_tolerance) for c in wanted]
    return v.extent * float(np.mean([min(1.0, s / min_share) for s in shares]))
