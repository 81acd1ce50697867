"""Painting's code-read style measures: what the sketch's own `brush.fill` calls say of its washes.

    >>> from watercolor.tasks.painting.style import style_measures
    >>> style_measures("brush.fill('#ff0000', 120); brush.circle(0, 0, 9);")["style/mean_alpha"]
    120.0

`Task.style` (conf/task/painting.yaml): `watercolor.analysis.behaviour.behaviour_row` adds these
columns to each clean run's row of an evaluation. A flat fill is opacity 255, a wash well under it
(the corpus's layered kind uses 60-150); a fill without an alpha (or with a variable for one) says
nothing. `style/washes` counts the shapes the sketch fills.

`style/bleed` and `style/texture` are the fills' effective settings: the mean of the sketch's
`brush.fillBleed(x)` (`brush.fillTexture(t, b)`: t) number arguments, else p5.brush 2.2.2's
defaults, bleed 0.07 and texture 0.8 (`State.fill` in src/fill/fill.js): a sketch that never calls
a setter paints with the default, so counting it as 0 would be wrong (DESIGN.md section 9).
`style/fill_luminance` is how pale the fill colours are: the mean relative luminance (sRGB, WCAG's
formula; 0 black .. 1 white) of the `brush.fill` colours it can read (`r, g, b[, a]` numbers or a
`"#rrggbb"` string), the washes study's post-hoc reading (experiments/2026-12-05_washes/posthoc.py).
"""

from __future__ import annotations

import contextlib
import re
import statistics

NAN = float("nan")

# Arguments without parentheses (`[^()]`, not `[^)]`): a call never closed is read up to the
# next call, not to the end of the reply once per call (quadratic; issue 44). A nested call in
# the arguments made them unreadable before as well.
FILL = re.compile(r"brush\.fill\(([^()]*)\)")
WASH = re.compile(r"brush\.(endShape|circle)\(")
SETTERS = {  # measure -> (the setter's first argument, p5.brush 2.2.2's default when never set)
    "style/bleed": (re.compile(r"brush\.fillBleed\(\s*([^,)]*)"), 0.07),
    "style/texture": (re.compile(r"brush\.fillTexture\(\s*([^,)]*)"), 0.8),
}
HEX = re.compile(r"""^["']#([0-9a-fA-F]{6})["']$""")
OPAQUE_ALPHA = 250  # a fill at this opacity or more is opaque (flat fills use 255)
FLAT_STYLE_ALPHA = 200  # a reply whose mean fill opacity is this or more is written flat


def fill_alphas(reply: str) -> list[float]:
    """Opacity (0-255) of each `brush.fill(r, g, b, a)` or `brush.fill(colour, a)` call."""
    found = []
    for args in FILL.findall(reply):
        parts = [p.strip() for p in args.split(",")]
        if len(parts) in (2, 4):  # colour (+ alpha); fills without an alpha say nothing
            with contextlib.suppress(ValueError):  # a variable or an expression: unreadable
                found.append(float(parts[-1]))
    return found


def wash_count(reply: str) -> int:
    """Shapes the reply fills: `brush.endShape(` and `brush.circle(` calls."""
    return len(WASH.findall(reply))


def setting(reply: str, name: str) -> float:
    """The effective fill setting `name` (a key of SETTERS): the mean of the setter's number
    arguments, each clamped to 0-1 as p5.brush 2.2.2 clamps it (`fillBleed`, `fillTexture`),
    else the library's default (never called, or only with variables)."""
    pattern, default = SETTERS[name]
    found = []
    for argument in pattern.findall(reply):
        with contextlib.suppress(ValueError):
            found.append(min(max(float(argument), 0.0), 1.0))
    return statistics.fmean(found) if found else default


def fill_luminances(reply: str) -> list[float]:
    """Relative luminance (0-1) of each `brush.fill` colour given as numbers or a "#rrggbb"."""
    found = []
    for args in FILL.findall(reply):
        parts = [p.strip() for p in args.split(",")]
        with contextlib.suppress(ValueError):  # a variable or an expression: unreadable
            if len(parts) in (3, 4):
                found.append(luminance([float(p) for p in parts[:3]]))
            elif len(parts) in (1, 2) and (match := HEX.match(parts[0])):
                found.append(luminance([int(match.group(1)[i : i + 2], 16) for i in (0, 2, 4)]))
    return found


def luminance(rgb: list[float]) -> float:
    """WCAG's relative luminance of an sRGB colour (channels 0-255; p5 clamps a channel outside
    them, and so does this: `fill(900, 0, 0)` paints as red)."""
    r, g, b = (_linear(min(max(channel, 0.0), 255.0) / 255) for channel in rgb)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def _linear(c: float) -> float:
    return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4


def style_measures(reply: str) -> dict[str, float]:
    """`style/<name>` of one reply: mean fill opacity, opaque share, flat style (0/1), washes,
    effective bleed and texture, fill colour luminance."""
    alphas = fill_alphas(reply)
    mean = statistics.fmean(alphas) if alphas else NAN
    return {
        "style/mean_alpha": mean,
        "style/opaque_share": sum(a >= OPAQUE_ALPHA for a in alphas) / len(alphas)
        if alphas
        else NAN,
        "style/flat_style": float(mean >= FLAT_STYLE_ALPHA) if alphas else NAN,
        "style/washes": float(wash_count(reply)),
        **{name: setting(reply, name) for name in SETTERS},
        "style/fill_luminance": statistics.fmean(lums) if (lums := fill_luminances(reply)) else NAN,
    }
