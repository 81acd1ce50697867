"""What an SVG document draws, read from its text: every rendered shape's effective opacity,
how much of the sheet it weighs and whether it is a flat fill.

    >>> from watercolor.tasks.svg.document import drawn_shapes
    >>> drawn_shapes('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 600 600">'
    ...              '<defs><circle r="90"/></defs>'
    ...              '<circle cx="300" cy="300" r="90" fill-opacity="0.4"/></svg>')
    [Shape(opacity=0.4, weight=1.0, flat=True)]

The SVG reward's document terms (`watercolor.tasks.svg.rewards`) pay see-through shapes and
several of them, so they must count only what the browser draws (issue 44). What is counted, how
opacity and weight are read, the budgets, and why by hand rather than a CSS engine: the comment
above `drawn_shapes`.
"""

from __future__ import annotations

import math
import re
import xml.etree.ElementTree as ET
from typing import NamedTuple

from watercolor.rewards.pixels import ramp
from watercolor.tasks.svg.gate import unescape_css

SVG_NS = "{http://www.w3.org/2000/svg}"
XLINK_HREF = "{http://www.w3.org/1999/xlink}href"
SHAPES = frozenset({"path", "rect", "circle", "ellipse", "line", "polyline", "polygon"})
# Drawn only where something refers to them (a <use>, a clip, a mask, a fill), never in place.
NOT_IN_PLACE = frozenset({
    "defs", "clipPath", "mask", "symbol", "pattern", "marker", "linearGradient",
    "radialGradient", "filter", "style", "script", "title", "desc", "metadata", "foreignObject",
})  # fmt: skip
PROPERTIES = frozenset({
    "opacity", "fill-opacity", "stroke-opacity", "fill", "stroke", "stroke-width", "display",
    "visibility",
})  # fmt: skip
INHERITED = frozenset(
    {"fill-opacity", "stroke-opacity", "fill", "stroke", "stroke-width", "visibility"}
)
GEOMETRY = {
    "circle": ("cx", "cy", "r"), "ellipse": ("cx", "cy", "rx", "ry"),
    "rect": ("x", "y", "width", "height"), "line": ("x1", "y1", "x2", "y2"),
    "polyline": ("points",), "polygon": ("points",), "path": ("d",),
}  # fmt: skip
SAME_SPOT = 0.01  # shapes whose geometry agrees to 1 % of the sheet's side are stacked on one spot
TINY, FULL = 0.002, 0.02  # a shape's share of the sheet that weighs 0, and 1
MAX_RULES = 256  # selectors a style sheet may hold for its shapes to be read at all
MAX_VISITS = 5_000  # elements read, <use> expansions included: an exponential chain stops here

_RULE = re.compile(r"([^{}]*)\{([^{}]*)\}")
_COMMENT = re.compile(r"/\*.*?\*/", re.S)
_COMPOUND = re.compile(r"^(\*|[\w-]+)?((?:[#.][\w-]+)*)$")
_SCALING = re.compile(r"\b(scale|matrix)\s*\(([^)]*)\)")
_NUMBER = re.compile(r"[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?")


class Shape(NamedTuple):
    opacity: float  # effective opacity of its paint: opacity(s) times fill- (or stroke-) opacity
    weight: float  # its area's share of the sheet, ramped from TINY (0) to FULL (1)
    flat: bool  # painted with a colour, not a gradient or pattern


class Box(NamedTuple):
    x: float
    y: float
    width: float
    height: float

    @property
    def area(self) -> float:
        return self.width * self.height


class Rule(NamedTuple):
    """Every rule of one selector: the element it matches, and what each property wins with."""

    tag: str | None
    ids: tuple[str, ...]
    classes: tuple[str, ...]
    declarations: dict[str, tuple[tuple, str]]  # property -> (cascade rank, value)


# The SVG reward's document terms (`watercolor.tasks.svg.rewards`) pay see-through shapes and
# several of them, so they must count only what the browser draws (issue 44): nothing inside
# `<defs>`, `<clipPath>`, `<mask>`, `<symbol>`, `<pattern>` or `<marker>` unless a `<use>` draws it,
# nothing outside the SVG namespace, no shape of size 0 or scaled to nothing, none under `display:
# none`, `visibility: hidden` or opacity 0, none whose paint is none or a colour of alpha 0 (`#f4a0`
# is #rgba: Chromium draws nothing), and of a shape no transform moved, only the part on the sheet.
# A colour's own alpha multiplies its opacity. Opacity, display and visibility are read in the CSS
# cascade's order as far as a simple reading goes: an inline `style` beats a `<style>` rule (the
# more specific, then the later) beats the attribute, and `!important` beats them all; a rule's
# selector is read by its last compound (type, `#id`, `.class`, `*`), and a selector with a
# pseudo-class or an attribute test is skipped. A shape's weight is its area's share of the sheet, 0
# below `TINY` and 1 from `FULL`, so hundreds of dots weigh (almost) nothing; areas are read from
# the geometry attributes (a path's or polygon's by its points' bounding box) and ignore transforms,
# clipping and `calc()`. Shapes on one spot (their geometry equal to `SAME_SPOT` of the sheet's
# side) are one shape of their combined opacity, as the canvas shows them. A fill of `url(...)` (a
# gradient or pattern) is not `flat`. Past `MAX_RULES` style rules a document's shapes are not read,
# and the walk stops after `MAX_VISITS` elements (`<use>` expansions included). Hand-written rather
# than a CSS engine: a real one (Chromium's computed styles) would need the page again after the
# render; this reading is pure Python on text the gate already parsed, linear in the document and
# its budgets.
def drawn_shapes(document: str) -> list[Shape]:
    """Every shape the browser draws from `document`, in document order; none when it is not
    XML (another task's sketch, scored by a set that lists every reward set)."""
    try:
        root = ET.fromstring(document)
    except ET.ParseError:
        return []
    sheet, rules = _sheet(root), _rules(root)
    if rules is None:
        return []  # a style sheet past MAX_RULES is not read: nothing is paid for its shapes
    ids = {e.get("id"): e for e in root.iter() if e.get("id")}
    found: dict[tuple, Shape] = {}
    visits = 0
    # A stack, not recursion: a document may nest its groups thousands deep (issue 44).
    stack = [(root, {"opacity": 1.0}, False, "")]
    while stack and visits < MAX_VISITS:
        element, inherited, used, place = stack.pop()
        visits += 1
        name = _local(element)
        if name is None or (name in NOT_IN_PLACE and not (used and name == "symbol")):
            continue  # another namespace, or drawn only where referred to
        style = _computed(element, rules, inherited)
        if style.get("display") == "none" or style["opacity"] <= 0:
            continue
        if _collapses(element.get("transform", "")):
            continue  # scaled to nothing
        place += f"|{element.get('transform', '')}"
        moved = bool(place.strip("| "))
        if name in SHAPES and (shape := _shape(element, name, style, sheet, moved)):
            spot = (name, place, _spot(element, name, sheet))
            found[spot] = _stacked(found[spot], shape) if spot in found else shape
        children = list(element)
        if name == "use":
            target = ids.get((element.get("href") or element.get(XLINK_HREF) or "").lstrip("#"))
            children = [target] if target is not None else []
            place += f"|{element.get('x', '')} {element.get('y', '')}"
        used = used or name == "use"
        stack.extend((child, style, used, place) for child in reversed(children))
    return list(found.values())


def shapes(document: str) -> list[float]:
    """The effective opacity of every drawn shape in `document`, in document order."""
    return [s.opacity for s in drawn_shapes(document)]


def _collapses(transform: str) -> bool:
    """Whether a transform scales everything to nothing (`scale(0)`, a singular matrix)."""
    for kind, args in _SCALING.findall(transform):
        numbers = [float(n) for n in _NUMBER.findall(args)]
        if kind == "scale" and numbers and 0 in numbers:
            return True
        if kind == "matrix" and len(numbers) == 6:
            a, b, c, d = numbers[:4]
            if a * d == b * c:
                return True
    return False


def _spot(element: ET.Element, name: str, sheet: Box) -> tuple[int, ...]:
    """The shape's geometry to within `SAME_SPOT` of the sheet's side: shapes on one spot are
    one shape on the canvas, however many the document stacks there."""
    grid = SAME_SPOT * math.sqrt(sheet.area)
    text = " ".join(element.get(key) or "" for key in GEOMETRY[name])
    return tuple(round(float(n) / grid) for n in _NUMBER.findall(text) if math.isfinite(float(n)))


def _stacked(below: Shape, above: Shape) -> Shape:
    """Two shapes on one spot as the one they show: light passes through both."""
    opacity = 1 - (1 - below.opacity) * (1 - above.opacity)
    return Shape(opacity, max(below.weight, above.weight), below.flat and above.flat)


def _local(element: ET.Element) -> str | None:
    """The element's SVG name; None outside the SVG namespace (or a comment)."""
    tag = element.tag
    return tag[len(SVG_NS) :] if isinstance(tag, str) and tag.startswith(SVG_NS) else None


def _computed(element: ET.Element, rules: dict[str, list[Rule]], inherited: dict) -> dict:
    """The element's properties after the cascade, with its parent's `inherited` ones; opacity
    multiplied through the groups."""
    declared = _declared(element, rules)
    style = {k: v for k, v in inherited.items() if k in INHERITED}
    style |= {k: v.strip().lower() for k, v in declared.items() if not k.endswith("opacity")}
    for key in ("fill-opacity", "stroke-opacity"):
        style[key] = _fraction(declared.get(key), style.get(key, 1.0))
    style["opacity"] = inherited["opacity"] * _fraction(declared.get("opacity"), 1.0)
    return style


def _declared(element: ET.Element, sheet: dict[str, list[Rule]]) -> dict[str, str]:
    """{property: value} that wins for the element: attribute < rule < inline < !important."""
    ranked = {k: ((0, 0), element.get(k)) for k in PROPERTIES if element.get(k) is not None}
    offers = [d for rule in _candidates(element, sheet) for d in rule.declarations.items()]
    inline = _declarations(element.get("style", ""))
    offers += [(k, ((int(important), 2), value)) for k, (value, important) in inline.items()]
    for key, (rank, value) in offers:
        if key not in ranked or rank >= ranked[key][0]:
            ranked[key] = (rank, value)
    return {key: value for key, (_, value) in ranked.items()}


def _candidates(element: ET.Element, sheet: dict[str, list[Rule]]) -> list[Rule]:
    """The rules whose selector matches the element, looked up by its name, id and classes."""
    classes = set((element.get("class") or "").split())
    keys = ["*", _local(element) or "", f"#{element.get('id')}", *(f".{c}" for c in classes)]
    return [
        rule
        for key in keys
        for rule in sheet.get(key, ())
        if (rule.tag is None or rule.tag == _local(element))
        and all(element.get("id") == i for i in rule.ids)
        and classes.issuperset(rule.classes)
    ]


def _rules(root: ET.Element) -> dict[str, list[Rule]] | None:
    """The rules of every `<style>` in the document, one per selector (its declarations each
    resolved in cascade order), filed under the name, `#id` or `.class` an element needs to
    match it; None past `MAX_RULES` rules (a sheet written to make the reading slow)."""
    text = "\n".join("".join(e.itertext()) for e in root.iter() if _local(e) == "style")
    merged: dict[tuple, dict[str, tuple[tuple, str]]] = {}
    order = 0
    for selectors, body in _RULE.findall(_COMMENT.sub("", unescape_css(text))):
        declarations = _declarations(body)
        for selector in selectors.split(","):
            order += 1
            parsed = _selector(selector) if declarations else None
            if parsed is None:
                continue  # a pseudo-class, an attribute test or an at-rule: not read
            *key, specificity = parsed
            resolved = merged.setdefault(tuple(key), {})
            for prop, (value, important) in declarations.items():
                rank = (int(important), 1, *specificity, order)
                if prop not in resolved or rank >= resolved[prop][0]:
                    resolved[prop] = (rank, value)
    if order > MAX_RULES:
        return None
    sheet: dict[str, list[Rule]] = {}
    for (tag, ids, classes), declarations in merged.items():
        filed = f"#{ids[0]}" if ids else f".{classes[0]}" if classes else tag or "*"
        sheet.setdefault(filed, []).append(Rule(tag, ids, classes, declarations))
    return sheet


def _selector(selector: str) -> tuple | None:
    """(tag or None, ids, classes, specificity) of a selector's last compound, or None."""
    parts = re.split(r"[\s>+~]+", selector.strip())
    match = _COMPOUND.match(parts[-1]) if parts[-1] else None
    if match is None:
        return None
    tag = None if match.group(1) in (None, "*") else match.group(1)
    ids = tuple(re.findall(r"#([\w-]+)", match.group(2)))
    classes = tuple(sorted(set(re.findall(r"\.([\w-]+)", match.group(2)))))
    types = sum(1 for p in parts if p and p[0] not in "#.*")
    return tag, ids, classes, (len(ids), len(classes), types)


def _declarations(css: str) -> dict[str, tuple[str, bool]]:
    """{property: (value, !important)} of a declaration block, the later winning."""
    found = {}
    for declaration in unescape_css(css).split(";"):
        key, colon, value = declaration.partition(":")
        key = key.strip().lower()
        if colon and key in PROPERTIES:
            head, bang, flag = value.rpartition("!")
            important = bool(bang) and flag.strip().lower() == "important"
            value = head.strip() if important else value.strip()
            if important or not found.get(key, ("", False))[1]:
                found[key] = (value, important)
    return found


def _fraction(text: str | None, default: float, clip: bool = True) -> float:
    """A number or a percentage (an opacity: clipped to [0, 1]); `default` if unreadable."""
    match = _NUMBER.match((text or "").strip())
    if match is None:
        return default
    value = float(match.group()) / (100 if text.strip().endswith("%") else 1)
    if not math.isfinite(value):
        return default
    return min(1.0, max(0.0, value)) if clip else value


def _shape(element: ET.Element, name: str, style: dict, sheet: Box, moved: bool) -> Shape | None:
    """The drawn shape, or None where it paints nothing (no paint, hidden, size 0, off the
    sheet: read where no transform `moved` it)."""
    if style.get("visibility") in ("hidden", "collapse"):
        return None
    fill = style.get("fill", "black") if name != "line" else "none"  # a line has no inside
    stroke = style.get("stroke", "none")
    if _alpha(fill) > 0:
        opacity = style["opacity"] * style["fill-opacity"] * _alpha(fill)
        flat = not fill.startswith("url(")
    elif _alpha(stroke) > 0 and _fraction(style.get("stroke-width"), 1.0, clip=False) > 0:
        opacity = style["opacity"] * style["stroke-opacity"] * _alpha(stroke)
        flat = not stroke.startswith("url(")
    else:
        return None
    area, box = _extent(element, name, sheet)
    if not moved and box.area > 0:
        area *= _overlap(box, sheet) / box.area  # only what lies on the sheet is seen
    if opacity <= 0 or area <= 0:
        return None
    return Shape(opacity, ramp(area / sheet.area, TINY, FULL), flat)


def _alpha(paint: str) -> float:
    """The alpha of a paint: 0 for none or transparent, a colour's own (#rgba, #rrggbbaa,
    rgba(), hsl(... / a)), else 1."""
    if paint in ("none", "transparent"):
        return 0.0
    if paint.startswith("#") and len(paint) in (5, 9):
        digits = paint[4] * 2 if len(paint) == 5 else paint[7:9]
        return int(digits, 16) / 255 if all(c in "0123456789abcdef" for c in digits) else 1.0
    if paint.startswith(("rgb", "hsl")) and paint.endswith(")"):
        parts = re.split(r"[\s,/]+", paint[paint.find("(") + 1 : -1].strip())
        return _fraction(parts[3], 1.0) if len(parts) == 4 else 1.0
    return 1.0


def _extent(element: ET.Element, name: str, sheet: Box) -> tuple[float, Box]:
    """The shape's area in user units (a line's: its length times its stroke width) and its
    bounding box."""
    side = math.sqrt(sheet.area)

    def length(key: str) -> float:
        text = (element.get(key) or "").strip()
        match = _NUMBER.match(text)
        value = float(match.group()) if match else 0.0
        value = value * side / 100 if text.endswith("%") else value
        return value if math.isfinite(value) else 0.0

    x, y = length("cx"), length("cy")
    if name in ("circle", "ellipse"):
        rx, ry = (length("r"),) * 2 if name == "circle" else (length("rx"), length("ry"))
        rx, ry = max(rx, 0), max(ry, 0)
        return math.pi * rx * ry, Box(x - rx, y - ry, 2 * rx, 2 * ry)
    if name == "rect":
        width, height = max(length("width"), 0), max(length("height"), 0)
        return width * height, Box(length("x"), length("y"), width, height)
    if name == "line":
        xs, ys = (length("x1"), length("x2")), (length("y1"), length("y2"))
    else:
        text = element.get("points" if name != "path" else "d") or ""
        points = [float(n) for n in _NUMBER.findall(text)]
        xs, ys = points[0::2], points[1::2]
        if len(ys) < 2:
            return 0.0, Box(0, 0, 0, 0)
    box = Box(min(xs), min(ys), max(xs) - min(xs), max(ys) - min(ys))
    if name == "line":
        width = max(_fraction(element.get("stroke-width"), 1.0, clip=False), 1.0)
        return math.hypot(box.width, box.height) * width, box
    return box.area or box.width + box.height, box


def _overlap(a: Box, b: Box) -> float:
    width = min(a.x + a.width, b.x + b.width) - max(a.x, b.x)
    height = min(a.y + a.height, b.y + b.height) - max(a.y, b.y)
    return max(width, 0) * max(height, 0)


def _sheet(root: ET.Element) -> Box:
    """The document's sheet in user units: its viewBox, else 600 x 600 from the origin."""
    numbers = [float(n) for n in _NUMBER.findall(root.get("viewBox") or "")]
    if len(numbers) == 4 and numbers[2] > 0 and numbers[3] > 0:
        box = Box(*numbers)
        return box if math.isfinite(box.area) else Box(0, 0, 600, 600)
    return Box(0, 0, 600, 600)
