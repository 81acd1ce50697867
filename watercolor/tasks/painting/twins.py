"""Matched pairs of painting's washes: one composition, and twins that differ in opacity only.

    >>> from watercolor.tasks.painting.twins import opaque, pale, wash_pairs
    >>> prompt, translucent, _ = wash_pairs(1, seed=1, split="heldout")[0]
    >>> twins = opaque(translucent), pale(translucent)

A composition is one of the tiny painter's corpus (`watercolor.tasks.painting.painter`: the
prompt's motif and palette, `sketches.layered` at quality 1, so every fill is in the translucent
band 60-150 and glazed in passes), its bleed and texture at the library's defaults (bleed 0.07,
texture 0.8, border 0.5: no setter called) or above them. Its twins change the fills' opacity
and nothing else (`opaque`, `pale`), so a reading that tells a composition from its twin reads
translucency, not bleed, grain or composition. The translucency calibration
(`translucency_calibration`), the washes study's pale twins and the reward audit
(`watercolor.tasks.painting.audit`) paint them.
"""

from __future__ import annotations

import random
import re

from watercolor.tasks.painting.painter.motifs import compose
from watercolor.tasks.painting.painter.sketches import layered, palette
from watercolor.tasks.painting.painter.subjects import read_prompt
from watercolor.tasks.painting.prompts import COLOURS, prompts

_FILL_ALPHA = re.compile(r"(brush\.fill\(\s*\d+\s*,\s*\d+\s*,\s*\d+\s*,\s*)\d+(\s*\))")
_FILL = re.compile(r"brush\.fill\(\s*(\d+)\s*,\s*(\d+)\s*,\s*(\d+)\s*,\s*(\d+)\s*\)")
_BACKGROUND = re.compile(r"""background\(\s*["']#([0-9a-fA-F]{6})["']\s*\)""")
_WASH_SETTING = re.compile(r"^[ \t]*brush\.fill(?:Bleed|Texture)\(.*\);\n", re.MULTILINE)


def opaque(sketch: str) -> str:
    """`sketch` with every `brush.fill(r, g, b, alpha)` at alpha 255."""
    return _FILL_ALPHA.sub(r"\g<1>255\g<2>", sketch)


def pale(sketch: str) -> str:
    """`sketch` with every fill at opacity 255, in the colour it shows alone over the sheet.

    Each `brush.fill(r, g, b, a)` becomes `paper + (colour - paper) x a / 255` at 255 (the
    sheet: the sketch's `background`): its pigment as light as the translucent wash's, and an
    overlap hides what is under it as an opaque fill does."""
    found = _BACKGROUND.search(sketch)
    paper = [int(found.group(1)[i : i + 2], 16) for i in (0, 2, 4)] if found else [255] * 3

    def mixed(match: re.Match) -> str:
        *rgb, alpha = (int(g) for g in match.groups())
        shown = [round(p + (c - p) * alpha / 255) for c, p in zip(rgb, paper, strict=True)]
        return "brush.fill({}, {}, {}, 255)".format(*shown)

    return _FILL.sub(mixed, sketch)


def wash_settings(rng: random.Random) -> list[str]:
    """Bleed and texture at p5.brush's defaults (a third: no call) or above them."""
    if rng.random() < 1 / 3:
        return []
    bleed, texture, border = rng.uniform(0.07, 0.4), rng.uniform(0.8, 1.0), rng.uniform(0.5, 1.0)
    return [f"brush.fillBleed({bleed:.2f});", f"brush.fillTexture({texture:.2f}, {border:.2f});"]


def wash_pair(prompt: str, rng: random.Random) -> tuple[str, str]:
    """(translucent, opaque) replies painting one corpus composition for `prompt`."""
    asked, motif = read_prompt(prompt)
    colour = asked or rng.choice(list(COLOURS))
    washes = layered(compose(motif, rng), palette(COLOURS[colour], rng), rng, quality=1.0)
    sketch = _WASH_SETTING.sub("", washes)
    settings = "".join(f"\n  {line}" for line in wash_settings(rng))
    sketch = sketch.replace("brush.noStroke();", "brush.noStroke();" + settings, 1)
    return f"```js\n{sketch}\n```", f"```js\n{opaque(sketch)}\n```"


def wash_pairs(count: int, seed: int, split: str) -> list[tuple[str, str, str]]:
    """`count` (prompt, translucent, opaque) for prompts of `split`, one seeded stream a pair."""
    texts = prompts(split)
    pairs = []
    for i in range(count):
        rng = random.Random(f"translucency:{seed}:{i}")
        prompt = rng.choice(texts)
        pairs.append((prompt, *wash_pair(prompt, rng)))
    return pairs
