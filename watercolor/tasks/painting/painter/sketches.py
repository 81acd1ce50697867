"""Sketch writers for the corpus: one composition, painted in one of several styles.

    >>> import random
    >>> from watercolor.tasks.painting.painter.motifs import compose
    >>> from watercolor.tasks.painting.painter.sketches import layered, palette
    >>> rng = random.Random(0)
    >>> code = layered(compose("fruit", rng), palette("#b0223a", rng), rng)
    >>> code.splitlines()[1]
    '  createCanvas(600, 600, WEBGL);'

Styles, from what the task wants to what it forbids:

- `layered`: translucent `brush.fill(r, g, b, alpha)` washes, glazed in several passes, with
  `fillBleed` / `fillTexture`; quality varies (passes; alpha in the visible-but-translucent
  band or too faint / too heavy; bleed and texture use).
- `flat`: opaque fills (alpha 255), bleed and texture mostly switched off (p5.brush's
  defaults bleed a little and grain a lot): the "fake watercolour".
- `stroke_only`: outlines with `brush.pick(...)` / `brush.stroke(...)`, no fills.
- `plain_p5`: bare p5 `fill(...)` / `ellipse(...)` / `beginShape()`: banned by the task's gate.
- `then_throw`: a finished sketch whose last line calls a function that does not exist: it
  paints everything, then throws at run time (the static gate cannot tell; the browser can).
- `corrupt`: breaks a sketch (missing brace, undefined function, unknown brush method).

Every sketch follows the task's skeleton (`createCanvas(600, 600, WEBGL)`, cream paper,
`brush.scaleBrushes(3)`), written into `setup()`. Why colours are written as numbers: the comment
at `fill_call`.
"""

from __future__ import annotations

import math
import random

from watercolor.tasks.painting.painter.motifs import Blob, Circle, Part, Ring, Shape

PAPER = "#f4ecd8"
HEADER = (
    "function setup() {",
    "  createCanvas(600, 600, WEBGL);",
    f'  background("{PAPER}");',
    "  brush.scaleBrushes(3);",
)
# p5.brush 2.2 fills are translucent at any opacity; below ~60 a single wash barely shows on
# the paper, above ~150 it covers what is under it (measured with an opacity sweep).
WASH_ALPHA = (60, 150)
# Body lines after which a layered sketch adds no more repeat glazes. It bounds the longest
# reply (~300 tokens of the tiny painter's tokenizer): every line is generation time in GRPO,
# and a reply cut off at the completion limit paints nothing.
GLAZE_BUDGET = 24
STROKE_BRUSHES = ("HB", "2B", "pen", "rotring", "charcoal", "cpencil", "marker")
UNDEFINED_CALLS = (
    "drawPetals(0, 0, 80);",
    "paintWash(0, 0, 200);",
    "addShadow(40, 60);",
    "softenEdges(0.5);",
    "drawLeaves(-60, 120);",
)
# Invented brush methods a model is tempted to write; none is exported by p5.brush 2.2.
UNKNOWN_BRUSH_CALLS = (
    "brush.nonexistent();",
    "brush.watercolor(0.5);",
    "brush.bleed(0.3);",
    "brush.blend(0.4);",
    "brush.glaze(0.6);",
    "brush.softEdges(0.5);",
)
DEFECTS = ("missing_brace", "undefined_function", "unknown_brush_method")


# --- colours ------------------------------------------------------------------------------


def _rgb(hex_colour: str) -> tuple[int, int, int]:
    value = int(hex_colour.lstrip("#"), 16)
    return value >> 16, (value >> 8) & 255, value & 255


def _hex(rgb: tuple[float, float, float]) -> str:
    return "#" + "".join(f"{max(0, min(255, round(c))):02x}" for c in rgb)


def mix(a: str, b: str, t: float) -> str:
    """`a` moved a fraction `t` towards `b`."""
    return _hex(tuple(x + (y - x) * t for x, y in zip(_rgb(a), _rgb(b), strict=True)))


def jitter(colour: str, rng: random.Random, amount: int = 10) -> str:
    """A nearby shade, so repeated washes of one colour are not all identical."""
    return _hex(tuple(c + rng.randint(-amount, amount) for c in _rgb(colour)))


def palette(main: str, rng: random.Random) -> dict[str, str]:
    """Role -> colour; `main`, `light` and `dark` all come from the prompt's colour."""
    return {
        "main": main,
        "light": mix(main, "#ffffff", 0.45),
        "dark": mix(main, "#1c1a2e", 0.4),
        "accent": rng.choice(("#e9b949", "#d9773a", "#f2d16b", "#5b3a29")),
        "leaf": mix(rng.choice(("#5f8f4e", "#4a7c59", "#7a9a4a")), main, 0.15),
        "sky": rng.choice(("#a9c4de", "#c9d8e8", "#b7cfd9")),
        "ground": rng.choice(("#a68a5b", "#8f7a55", "#b59b6b")),
        "trunk": rng.choice(("#6b4a2f", "#5a3d2b")),
    }


def rgb(colour: str) -> tuple[int, int, int]:
    """The channels of "#rrggbb", snapped to multiples of 5 (fewer distinct numbers)."""
    r, g, b = (min(255, snap(c)) for c in _rgb(colour))
    return r, g, b


# Colours are written as numbers (`brush.fill(r, g, b, alpha)`, `brush.stroke(r, g, b)`), not
# "#rrggbb" strings: a tiny model writes four numbers far more reliably than a six-digit hex string
# (trained on hex it miscounted the digits and dropped the closing quote).
def fill_call(colour: str, alpha: int) -> str:
    """`brush.fill(r, g, b, alpha)` for a "#rrggbb" colour."""
    r, g, b = rgb(colour)
    return f"brush.fill({r}, {g}, {b}, {alpha});"


# --- shapes -------------------------------------------------------------------------------


def snap(value: float, step: int = 5) -> int:
    """`value` rounded to a multiple of `step`: fewer distinct numbers for a tiny model to learn."""
    return step * round(value / step)


def _around(centre: int, trig: str, distance: int) -> str:
    """`centre + trig(a) * distance` as JS, without a `0 +`."""
    term = f"{trig}(a) * {distance}"
    return term if centre == 0 else f"{centre} + {term}"


def _ring_loop(ring: Ring, call: str, size: int) -> list[str]:
    distance = snap(ring.distance)
    x, y = _around(snap(ring.x), "cos", distance), _around(snap(ring.y), "sin", distance)
    return [
        f"for (let i = 0; i < {ring.count}; i++) {{",
        f"  let a = i * TWO_PI / {ring.count};",
        f"  {call}({x}, {y}, {max(5, snap(size))});",
        "}",
    ]


def _ring_circles(ring: Ring) -> list[Circle]:
    step = 2 * math.pi / ring.count
    return [
        Circle(
            round(ring.x + math.cos(i * step) * ring.distance),
            round(ring.y + math.sin(i * step) * ring.distance),
            ring.r,
        )
        for i in range(ring.count)
    ]


def brush_shape(shape: Shape, rng: random.Random) -> list[str]:
    """JS lines drawing `shape` with p5.brush (rings as a loop or unrolled)."""
    if isinstance(shape, Circle):
        return [f"brush.circle({snap(shape.x)}, {snap(shape.y)}, {max(5, snap(shape.r))});"]
    if isinstance(shape, Ring):
        if rng.random() < 0.8:
            return _ring_loop(shape, "brush.circle", shape.r)
        return [line for c in _ring_circles(shape) for line in brush_shape(c, rng)]
    vertices = [f"brush.vertex({snap(x)}, {snap(y)});" for x, y in shape.points]
    return [f"brush.beginShape({shape.curvature});", *vertices, "brush.endShape(CLOSE);"]


def p5_shape(shape: Shape, rng: random.Random) -> list[str]:
    """JS lines drawing `shape` with bare p5 primitives (p5 takes diameters, not radii)."""
    if isinstance(shape, Circle):
        x, y, d = snap(shape.x), snap(shape.y), max(10, 2 * snap(shape.r))
        return [rng.choice((f"ellipse({x}, {y}, {d}, {d});", f"circle({x}, {y}, {d});"))]
    if isinstance(shape, Ring):
        return _ring_loop(shape, "circle", 2 * shape.r)
    vertices = (f"vertex({snap(x)}, {snap(y)});" for x, y in shape.points)
    return ["beginShape();", *vertices, "endShape(CLOSE);"]


def nudge(shape: Shape, rng: random.Random) -> Shape:
    """The same shape slightly moved and shrunk: a second glaze that does not line up exactly."""
    dx, dy, k = rng.randint(-12, 12), rng.randint(-12, 12), rng.uniform(0.8, 0.97)
    if isinstance(shape, Circle):
        return Circle(shape.x + dx, shape.y + dy, round(shape.r * k))
    if isinstance(shape, Ring):
        return Ring(shape.x + dx, shape.y + dy, shape.distance, round(shape.r * k), shape.count)
    return Blob(tuple((x + dx, y + dy) for x, y in shape.points), shape.curvature)


# --- styles -------------------------------------------------------------------------------


def _sketch(body: list[str]) -> str:
    return "\n".join([*HEADER, *("  " + line for line in body), "}"])


def _fraction(low: float, high: float, rng: random.Random) -> str:
    """A number in [low, high] in steps of 0.05, written like a person would ("0.35", "0.2")."""
    return f"{snap(rng.uniform(low, high) * 100) / 100:g}"


def _wash_settings(rng: random.Random, quality: float) -> list[str]:
    """Bleed and texture calls; better sketches use them more often."""
    lines = []
    if rng.random() < 0.3 + 0.65 * quality:
        direction = rng.choice(("", ', "out"', ', "in"'))
        lines.append(f"brush.fillBleed({_fraction(0.05, 0.4, rng)}{direction});")
    if rng.random() < 0.25 + 0.7 * quality:
        lines.append(f"brush.fillTexture({_fraction(0.2, 0.8, rng)}, {_fraction(0.1, 0.7, rng)});")
    return lines


def _wash_alpha(rng: random.Random, quality: float) -> int:
    """Fill opacity: mostly in the WASH_ALPHA band for good sketches, else too faint or heavy."""
    if rng.random() < 0.4 + 0.6 * quality:
        return snap(rng.randint(*WASH_ALPHA))
    return snap(rng.choice((rng.randint(30, 55), rng.randint(180, 255))))


def _glazes(part: Part, rng: random.Random, quality: float) -> list[tuple[Shape, ...]]:
    """The shape sets painted for one part: the part itself, then fewer, nudged repeats."""
    passes = 1 + (quality > 0.45 and rng.random() < 0.8) + (quality > 0.8 and rng.random() < 0.6)
    repeats = part.shapes[: min(2, max(1, len(part.shapes) // 2))]
    return [part.shapes] + [tuple(nudge(s, rng) for s in repeats) for _ in range(passes - 1)]


def layered(
    parts: list[Part], colours: dict[str, str], rng: random.Random, quality: float | None = None
) -> str:
    """Translucent washes; `quality` in [0, 1] (random if None) sets passes, alpha, bleed use."""
    quality = rng.random() if quality is None else quality
    body = ["brush.noStroke();"]
    shared = rng.random() < 0.8  # one bleed/texture setting for the whole sketch, or per part
    if shared:
        body += _wash_settings(rng, quality)
    for part in parts:
        if not shared:
            body += _wash_settings(rng, quality)
        for i, shapes in enumerate(_glazes(part, rng, quality)):
            if i and len(body) > GLAZE_BUDGET:
                break
            body.append(fill_call(jitter(colours[part.role], rng), _wash_alpha(rng, quality)))
            body += [line for s in shapes for line in brush_shape(s, rng)]
    return _sketch(body)


def flat(parts: list[Part], colours: dict[str, str], rng: random.Random) -> str:
    """Opaque fills with bleed and texture off: blocks of roughly the right colours."""
    body = ["brush.noStroke();"]
    if rng.random() < 0.8:  # p5.brush fills bleed and grain by default; most turn that off
        body += ["brush.fillBleed(0);", "brush.fillTexture(0, 0);"]
    for part in parts:
        body.append(fill_call(colours[part.role], 255))
        body += [line for s in part.shapes for line in brush_shape(s, rng)]
    return _sketch(body)


def stroke_only(parts: list[Part], colours: dict[str, str], rng: random.Random) -> str:
    """Outlines drawn with a stroke brush and no fill."""
    body = ["brush.noFill();"]
    for part in parts:
        r, g, b = rgb(colours[part.role])
        body.append(f'brush.pick("{rng.choice(STROKE_BRUSHES)}");')
        body.append(f"brush.stroke({r}, {g}, {b});")
        body.append(f"brush.strokeWeight({rng.choice((0.5, 0.8, 1, 1.5, 2))});")
        body += [line for s in part.shapes for line in brush_shape(s, rng)]
    return _sketch(body)


def plain_p5(parts: list[Part], colours: dict[str, str], rng: random.Random) -> str:
    """Bare p5 primitives with a plain `fill`: what the task's gate bans."""
    body = ["noStroke();"]
    for part in parts:
        r, g, b = rgb(colours[part.role])
        body.append(rng.choice((f"fill({r}, {g}, {b});", f"fill({r}, {g}, {b}, 180);")))
        body += [line for s in part.shapes for line in p5_shape(s, rng)]
    if rng.random() < 0.5:  # half of them forget the brush setup too
        return _sketch(body).replace("  brush.scaleBrushes(3);\n", "")
    return _sketch(body)


def then_throw(sketch: str, rng: random.Random) -> str:
    """`sketch` with a call to an undefined function as the last line of `setup()`."""
    lines = sketch.splitlines()
    return "\n".join([*lines[:-1], "  " + rng.choice(UNDEFINED_CALLS), lines[-1]])


def corrupt(sketch: str, defect: str, rng: random.Random) -> str:
    """`sketch` broken by one `defect` (one of DEFECTS)."""
    lines = sketch.splitlines()
    if defect == "missing_brace":
        return "\n".join(lines[:-1])
    call = rng.choice(UNDEFINED_CALLS if defect == "undefined_function" else UNKNOWN_BRUSH_CALLS)
    at = rng.randint(len(HEADER), len(lines) - 1)
    return "\n".join([*lines[:at], "  " + call, *lines[at:]])
