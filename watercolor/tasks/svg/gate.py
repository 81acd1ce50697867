"""The static gate: find the SVG in a reply and refuse what the task does not pay for.

    >>> from watercolor.tasks.svg.gate import check_reply
    >>> reply = '```svg\\n<svg xmlns="http://www.w3.org/2000/svg"><text>a sun</text></svg>\\n```'
    >>> svg, violations = check_reply(reply)
    >>> [v.code for v in violations]
    ['no_drawing']

A reply is refused before any rendering when it has no SVG, was cut off, is too long, declares a
DTD, is not well-formed SVG, or holds a script, an event handler, an external reference, a
foreignObject, an animation, too many elements or no shape; after rendering, `check_canvas`
refuses a blank canvas. Each rule and its code: the comment above `check_svg`.

What this isolates: nothing. The gate is the task's policy (what earns a reward), matched on
the parsed tree (entities decoded) and, for CSS, on its text with CSS escapes decoded as the
browser decodes them (`u\\72l(` is `url(`, `"\\64 ata:` is `"data:`: `unescape_css`). Every
scan is linear in the reply's length (tests/tasks/test_hostile_input.py measures them on
hostile replies at the length limits), and the tree is never walked by recursion.
The wall is the harness: the SVG is loaded as an image, which runs no script and fetches
nothing (watercolor/tasks/svg/harness.py), inside the render pool's sandbox. It does draw an
embedded data: image, though (tests/tasks/svg/test_harness.py): the gate alone keeps those
out.
Why ElementTree and not defusedxml: the comment at `_parse`.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from collections.abc import Iterable
from dataclasses import dataclass

from watercolor.canvas import Canvas
from watercolor.tasks.episode import Violation, fenced_blocks, without_thinking
from watercolor.tasks.parts import blank_canvas

SVG_NS = "http://www.w3.org/2000/svg"
SHAPES = frozenset(["path", "rect", "circle", "ellipse", "line", "polyline", "polygon"])
ANIMATIONS = frozenset(["animate", "set", "animateTransform", "animateMotion", "animateColor"])
OPENING = f'<svg xmlns="{SVG_NS}" viewBox="0 0 600 600">'


@dataclass(frozen=True)
class SvgRules:
    """What the gate accepts: the SVG's length in characters and its number of elements."""

    max_chars: int = 20_000
    max_elements: int = 2_000


DEFAULT_RULES = SvgRules()


# ---------------------------------------------------------------- extraction

_SVG_TAGS = frozenset({"svg", "xml"})
# An <svg> start or end tag, with any namespace prefix (`<svg:svg>`), and how it ends: `>`,
# `/>` or, for one cut off, nothing. Possessive, so a tag that never ends is read once: the
# lazy `<svg\b[^>]*/>` this replaces took seconds on thousands of unclosed tags (issue 44).
_SVG_TAG = re.compile(r"""<(/?)(?:[\w.-]+:)?svg(?![\w.:-])(?:[^<>"']|"[^"<]*"|'[^'<]*')*+(/?>)?""")


def extract_svg(reply: str) -> str | None:
    """The first fenced svg/xml block, else a bare <svg>...</svg> in the reply, else None."""
    return _find_svg(reply)[0]


def _find_svg(reply: str) -> tuple[str | None, bool]:
    """(svg or None, whether its fence was closed)."""
    text = without_thinking(reply)
    for tag, body, closed in fenced_blocks(text):
        if tag in _SVG_TAGS:
            return (body.strip() or None), closed
    return _bare_svg(text), True


def _closes(tag: re.Match) -> bool:
    """Whether an <svg> tag closes an element: an end tag, or a start tag that closes itself."""
    return tag.group(2) == "/>" or (tag.group(1) == "/" and tag.group(2) is not None)


def _bare_svg(text: str) -> str | None:
    """From the first <svg to the last </svg> (nested <svg> elements stay whole); one never
    closed runs to the end of the text, and the gate finds it `truncated`."""
    opened, end = None, None
    for tag in _SVG_TAG.finditer(text):
        opened = opened or (None if tag.group(1) else tag)
        if opened and _closes(tag):
            end = tag.end()
    return None if opened is None else text[opened.start() : end or len(text)].strip()


# ---------------------------------------------------------------- the reply gate


def check_reply(reply: str, rules: SvgRules = DEFAULT_RULES) -> tuple[str | None, list[Violation]]:
    """Extract the SVG and list every rule it breaks (empty list: it may be rendered)."""
    svg, fence_closed = _find_svg(reply)
    if svg is None:
        message = f"the reply contains no SVG document; answer with one ```svg block: {OPENING}..."
        return None, [Violation("no_svg", message)]
    return svg, check_svg(svg, rules, fence_closed=fence_closed)


# A reply is refused before any rendering when it has no SVG (`no_svg`), was cut off (`truncated`),
# is over `SvgRules.max_chars` (`too_long`), declares a DTD or entities (`doctype`: refused on the
# text, before any parser sees it, so no entity is ever expanded), is not well-formed XML
# (`not_well_formed`) or not an SVG document (`not_svg`: the root must be `svg` in the SVG
# namespace, or Chromium will not draw it). A well-formed SVG is then refused for each of: a
# `script` element (`script`), an `on*` attribute (`event_handler`), a reference outside the
# document (`external_reference`: an href not starting with `#`, a `url(...)` not starting with `#`,
# an `image-set()`, `@import`, an `<?xml-stylesheet?>`, any data: URI, since an embedded raster
# image would be a way around drawing), a `foreignObject` (`foreign_object`: HTML inside the SVG),
# `animate`/`set`/`animateTransform`/`animateMotion` or CSS `@keyframes` and `animation`
# (`animation`: the canvas is one still frame, and Chromium applies an animation's first value to
# it), more than `SvgRules.max_elements` elements (`too_many_elements`), or no shape at all
# (`no_drawing`: path, rect, circle, ellipse, line, polyline or polygon; `text` draws but is not
# drawing). Element and attribute names are compared by local name, in SVG's own case
# (`foreignObject`), whatever their namespace or prefix (`<svg:svg xmlns:svg=...>` is an SVG
# document). After rendering, `check_canvas` refuses a canvas that is (almost) all sheet
# (`blank_canvas`), by the reward components' own definition of blank (`watercolor.rewards.pixels`),
# as painting's gate does.
def check_svg(
    svg: str, rules: SvgRules = DEFAULT_RULES, *, fence_closed: bool = True
) -> list[Violation]:
    """Every rule `svg` (the document's text) breaks, in a fixed order. A document too long,
    cut off, with a DTD or not parsable as SVG is not parsed or not looked into further."""
    text_checks = [_too_long(svg, rules.max_chars), _truncated(svg, fence_closed), _doctype(svg)]
    if found := [v for v in text_checks if v is not None]:
        return found
    root = _parse(svg)
    if isinstance(root, Violation):
        return [root]
    if found := _not_svg(root):
        return [found]
    elements = list(root.iter())
    checks = [
        _script(elements),
        _event_handler(elements),
        _external_reference(svg, elements),
        _foreign_object(elements),
        _animation(elements),
        _too_many_elements(elements, rules.max_elements),
        _no_drawing(elements),
    ]
    return [v for v in checks if v is not None]


def _local(name: str) -> str:
    """'{http://www.w3.org/2000/svg}rect' -> 'rect'."""
    return name.rsplit("}", 1)[-1]


def _listed(items: Iterable[str], limit: int = 3) -> str:
    """'a, b, c and 2 more' for the first distinct items."""
    distinct = list(dict.fromkeys(items))
    more = len(distinct) - limit
    return ", ".join(distinct[:limit]) + (f" and {more} more" if more > 0 else "")


def _too_long(svg: str, limit: int) -> Violation | None:
    if len(svg) <= limit:
        return None
    message = (
        f"the SVG has {len(svg):,} characters, over the limit of {limit:,}; draw with fewer, "
        'larger shapes (round coordinates, reuse shapes with <use href="#id">).'
    )
    return Violation("too_long", message)


def _truncated(svg: str, fence_closed: bool) -> Violation | None:
    tags = list(_SVG_TAG.finditer(svg))
    if not fence_closed:
        reason = "its code block is never closed"
    elif sum(not tag.group(1) for tag in tags) > sum(map(_closes, tags)):
        reason = "an <svg> element is opened and never closed"
    else:
        return None
    message = f"the SVG looks cut off: {reason}; write the whole document, ending with </svg>."
    return Violation("truncated", message)


_DTD = re.compile(r"<!(?:DOCTYPE|ENTITY)", re.I)


def _doctype(svg: str) -> Violation | None:
    if not _DTD.search(svg):
        return None
    message = (
        "the SVG declares a <!DOCTYPE> or <!ENTITY>; leave it out and start the document with "
        f"{OPENING}."
    )
    return Violation("doctype", message)


# Why the standard library's ElementTree and not defusedxml: the one danger it guards against here,
# entity expansion, is refused on the text before parsing (`doctype`), and expat resolves no
# external entity without a DTD.
def _parse(svg: str) -> ET.Element | Violation:
    """The document's root element, or `not_well_formed` with the parser's position."""
    try:
        return ET.fromstring(svg)
    except ET.ParseError as error:
        message = (
            f"the SVG is not well-formed XML ({error}); close every element, quote every "
            "attribute and write & and < in text as &amp; and &lt;."
        )
        return Violation("not_well_formed", message)


def _not_svg(root: ET.Element) -> Violation | None:
    if root.tag == f"{{{SVG_NS}}}svg":
        return None
    if root.tag == "svg":
        found = "an <svg> root without the SVG namespace"
    else:
        found = f"a <{_local(root.tag)}> root"
    return Violation("not_svg", f"the document has {found}; its root must be {OPENING}.")


def _named(elements: list[ET.Element], names: frozenset[str]) -> list[str]:
    return [f"<{_local(e.tag)}>" for e in elements if _local(e.tag) in names]


def _script(elements: list[ET.Element]) -> Violation | None:
    if not _named(elements, frozenset({"script"})):
        return None
    message = "the SVG has a <script> element; an SVG here is a still picture: draw with shapes."
    return Violation("script", message)


def _event_handler(elements: list[ET.Element]) -> Violation | None:
    found = [f"{_local(name)}=" for e in elements for name in e.attrib if _is_handler(name)]
    if not found:
        return None
    message = f"the SVG has event handlers ({_listed(found)}); remove them: nothing runs here."
    return Violation("event_handler", message)


def _is_handler(attribute: str) -> bool:
    # No SVG presentation attribute starts with "on" (opacity, offset, orient, overflow don't).
    return _local(attribute).lower().startswith("on")


# A CSS escape (CSS Syntax §4.3.7): a backslash and 1-6 hex digits with one optional space, a
# backslash and a newline (inside a string: a line continuation, dropped), or a backslash and
# any other character (that character).
_CSS_ESCAPE = re.compile(r"\\(?:([0-9a-fA-F]{1,6})(?:\r\n|[ \t\n\r\f])?|(\r\n|[\n\r\f])|(.))", re.S)
_URL_OPEN = re.compile(r"url\(\s*", re.I)
# Images named by a string (a URL or a data: URI), not by url(); data: anywhere; @import.
_IMAGE_SET = re.compile(r"(?<![\w-])(?:-webkit-)?image-set\(", re.I)
_DATA_URI = re.compile(r"\bdata:[\w.+-]*[/;,]", re.I)
_IMPORT = re.compile(r"@import\b", re.I)
_STYLESHEET = re.compile(r"<\?xml-stylesheet\b", re.I)


def unescape_css(css: str) -> str:
    """`css` with its escapes decoded, as the browser reads it: `u\\72l(` is `url(`, and
    `"\\64 ata:` is `"data:` (a code point that is 0, a surrogate or past U+10FFFF is U+FFFD)."""
    return _CSS_ESCAPE.sub(_unescaped, css)


def _unescaped(escape: re.Match) -> str:
    digits, newline, char = escape.groups()
    if digits is None:
        return "" if newline else char
    code = int(digits, 16)
    return chr(code) if 0 < code <= 0x10FFFF and not 0xD800 <= code <= 0xDFFF else "\ufffd"


def _style_sheets(elements: list[ET.Element]) -> list[str]:
    """The text of every <style> and every `style` attribute, CSS escapes decoded."""
    found = ["".join(e.itertext()) for e in elements if _local(e.tag) == "style"]
    found += [v for e in elements for k, v in e.attrib.items() if _local(k) == "style"]
    return [unescape_css(css) for css in found]


def _outside_references(svg: str, elements: list[ET.Element]) -> list[str]:
    """Every reference in the document to something outside it, as the browser reads it."""
    found = ["<?xml-stylesheet?>"] if _STYLESHEET.search(svg) else []
    for element in elements:
        for name, value in element.attrib.items():
            if _local(name) != "href":
                found += _css_references(unescape_css(value))
            elif not value.strip().startswith("#"):
                found.append(f'href="{value.strip()[:60]}"')
        if _local(element.tag) == "style":
            css = unescape_css("".join(element.itertext()))
            found += _css_references(css) + ["@import"] * bool(_IMPORT.search(css))
    return found


def _urls(css: str) -> list[str]:
    """The target of every url(...) in `css`, quoted or not; one never closed runs to the end
    (as the browser reads it). One pass: each url( is read from where the last one ended."""
    found, at = [], 0
    while opened := _URL_OPEN.search(css, at):
        start = opened.end()
        quote = css[start] if css[start : start + 1] in ("'", '"') else ""
        end = css.find(quote or ")", start + len(quote))
        end = len(css) if end < 0 else end
        found.append(css[start + len(quote) : end].strip())
        at = end + 1
    return found


def _css_references(css: str) -> list[str]:
    found = [f"url({url[:60]})" for url in _urls(css) if not url.startswith("#")]
    found += ["image-set()"] * bool(_IMAGE_SET.search(css))
    return found + (["a data: URI"] if _DATA_URI.search(css) else [])


def _external_reference(svg: str, elements: list[ET.Element]) -> Violation | None:
    found = _outside_references(svg, elements)
    if not found:
        return None
    message = (
        f"the SVG refers to things outside itself ({_listed(found)}); nothing is fetched and "
        "embedded images are not drawing: draw everything with shapes and refer only to this "
        'document\'s own ids (href="#id", fill="url(#gradient)").'
    )
    return Violation("external_reference", message)


def _foreign_object(elements: list[ET.Element]) -> Violation | None:
    if not _named(elements, frozenset({"foreignObject"})):
        return None
    message = "the SVG has a <foreignObject> (HTML inside the SVG); draw with SVG shapes only."
    return Violation("foreign_object", message)


# A CSS animation: @keyframes (vendor-prefixed or not), or an `animation`/`animation-name` property.
_CSS_ANIMATION = re.compile(
    r"@(?:-[a-z]+-)?keyframes\b|(?<![\w-])(?:-[a-z]+-)?animation(?:-name)?\s*:", re.I
)


def _animation(elements: list[ET.Element]) -> Violation | None:
    found = _named(elements, ANIMATIONS)
    for css in _style_sheets(elements):
        found += [re.sub(r"\s+", "", m.group(0)) for m in _CSS_ANIMATION.finditer(css)]
    if not found:
        return None
    message = (
        f"the SVG animates ({_listed(found)}); the canvas is one still frame: set the final "
        "attributes on the shapes themselves."
    )
    return Violation("animation", message)


def _too_many_elements(elements: list[ET.Element], limit: int) -> Violation | None:
    if len(elements) <= limit:
        return None
    message = (
        f"the SVG has {len(elements):,} elements, over the limit of {limit:,}; use fewer, larger "
        "shapes (one <path> can hold many strokes)."
    )
    return Violation("too_many_elements", message)


def _no_drawing(elements: list[ET.Element]) -> Violation | None:
    if _named(elements, SHAPES):
        return None
    message = (
        "the SVG draws no shape; draw with path, rect, circle, ellipse, line, polyline or "
        "polygon (text does not count)."
    )
    return Violation("no_drawing", message)


# ---------------------------------------------------------------- the canvas gate


def check_canvas(canvas: Canvas) -> list[Violation]:
    """`blank_canvas` when the canvas is blank: `not View.painted`, as every component reads it."""
    return blank_canvas(canvas, "draw shapes in colours that stand out from the white sheet")
