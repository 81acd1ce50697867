"""Post hoc (written after the results, not a prediction): what in the code made the washes
models' canvases lighter, when their fill opacity barely moved? The colours they fill with.

    .venv/bin/python experiments/2026-12-05_washes/posthoc.py

Per job, over its clean runs (status ok), from each reply's `brush.fill(...)` calls (painting's
FILL pattern, `watercolor/tasks/painting/style.py`): `luminance`, the mean relative luminance
(0 black .. 1 white, sRGB, WCAG's formula) of the fill colours it can read (`r, g, b[, a]` numbers
or a `"#rrggbb"` string, with or without an alpha); `pigment`, the mean over fills with a readable
colour and alpha of (1 - luminance) x alpha / 255 (how much a fill darkens white paper, roughly);
`fills`, the `brush.fill` calls a reply makes; `prompt_colours`, the canvas component of that
name as `fine_grained` scored it (does the prompt's colour show: what a paler palette may cost).
Then per set the mean of its jobs and `washes - fine_grained` with the seed-level Welch interval
and permutation p, as `fills.py` reads its measures (the translucency study's
`effective_fill.main`).
"""

from __future__ import annotations

import re
import statistics

import pandas as pd
from fills import translucency  # this folder's loader of the translucency study's reading

from watercolor.tasks.painting.style import FILL

HEX = re.compile(r"""^["']#([0-9a-fA-F]{6})["']$""")
MEASURES = ["luminance", "pigment", "fills", "prompt_colours"]


def linear(channel: float) -> float:
    c = channel / 255
    return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4


def fill_colours(reply: str) -> list[tuple[float, float | None]]:
    """(luminance, alpha or None) of each `brush.fill` call whose colour is readable."""
    found = []
    for args in FILL.findall(reply):
        parts = [p.strip() for p in args.split(",")]
        try:
            if len(parts) in (3, 4):
                rgb, alpha = [float(p) for p in parts[:3]], parts[3:]
            elif len(parts) in (1, 2) and (match := HEX.match(parts[0])):
                rgb = [int(match.group(1)[i : i + 2], 16) for i in (0, 2, 4)]
                alpha = parts[1:]
            else:
                continue
            a = float(alpha[0]) if alpha else None
        except ValueError:  # a variable or an expression
            continue
        r, g, b = (linear(c) for c in rgb)
        found.append((0.2126 * r + 0.7152 * g + 0.0722 * b, a))
    return found


def job_means(samples: pd.DataFrame) -> dict[str, float]:
    clean = samples[samples["status"] == "ok"]
    replies = clean["reply"]
    colours = [c for reply in replies for c in fill_colours(reply)]
    pigments = [(1 - lum) * a / 255 for lum, a in colours if a is not None]
    return {
        "replies": float(len(replies)),
        "luminance": statistics.fmean(lum for lum, _ in colours),
        "pigment": statistics.fmean(pigments),
        "fills": statistics.fmean(len(FILL.findall(reply)) for reply in replies),
        "prompt_colours": float(clean["fine_grained/prompt_colours"].mean()),
    }


if __name__ == "__main__":
    translucency.main(
        translucency.HERE.parent / "2026-12-05_washes" / "records",
        ours="washes", theirs="fine_grained", measure=job_means, measures=MEASURES,
    )  # fmt: skip
