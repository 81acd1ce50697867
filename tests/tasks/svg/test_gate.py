"""The SVG gate: each violation code with a document that trips it, and near misses that pass.

Every case is `GOOD` with one thing changed, so a case shows exactly what the gate refuses.
"""

import io
import xml.etree.ElementTree as ET
from itertools import pairwise

import numpy as np
import pytest
from PIL import Image

from watercolor.canvas import Canvas, Status
from watercolor.tasks.svg import gate
from watercolor.tasks.svg.gate import SvgRules, check_canvas, check_reply, check_svg, extract_svg

NS = 'xmlns="http://www.w3.org/2000/svg"'
XLINK = 'xmlns:xlink="http://www.w3.org/1999/xlink"'
SHAPES = (
    '<defs><linearGradient id="sky"><stop offset="0" stop-color="#9cc"/></linearGradient></defs>'
    '<rect width="600" height="300" fill="url(#sky)"/>'
    '<circle id="sun" cx="300" cy="200" r="80" fill="#f2a65a" fill-opacity="0.6"/>'
)
GOOD = f'<svg {NS} {XLINK} viewBox="0 0 600 600">{SHAPES}</svg>'


def good(extra: str = "", shapes: str = SHAPES, opening: str = "") -> str:
    """`GOOD` with `extra` added after its shapes and `opening` added to its root's attributes."""
    return f'<svg {NS} {XLINK} viewBox="0 0 600 600"{opening}>{shapes}{extra}</svg>'


def codes(svg: str, rules: SvgRules = gate.DEFAULT_RULES) -> list[str]:
    return [v.code for v in check_svg(svg, rules)]


# Nine entities, each ten of the one before: "&i;" is 10^8 "ha"s once expanded.
ENTITIES = "".join(f'  <!ENTITY {b} "{f"&{a};" * 10}">\n' for a, b in pairwise("abcdefghi"))
LAUGHS = (
    f'<?xml version="1.0"?>\n<!DOCTYPE svg [\n  <!ENTITY a "ha">\n{ENTITIES}]>\n'
    f"<svg {NS}><text>&i;</text></svg>"
)

# (code, document): each trips exactly that code.
REFUSED = [
    ("truncated", f'<svg {NS} viewBox="0 0 600 600"><rect width="9" height="9"/>'),
    ("doctype", LAUGHS),
    ("doctype", f'<!DOCTYPE svg PUBLIC "-//W3C//DTD SVG 1.1//EN" "x.dtd">{GOOD}'),
    ("not_well_formed", good('<rect width="9" height=9/>')),
    ("not_well_formed", good("<g><rect/></circle>")),
    ("not_svg", '<html xmlns="http://www.w3.org/1999/xhtml"><body/></html>'),
    ("not_svg", f'<svg viewBox="0 0 600 600">{SHAPES}</svg>'),  # no SVG namespace
    ("script", good("<script>document.title = 'x'</script>")),
    ("script", good('<g><script href="#s"/></g>')),
    ("event_handler", good(opening=' onload="paint()"')),
    ("event_handler", good('<rect width="9" height="9" onClick="go()"/>')),
    ("external_reference", good('<image href="http://example.com/x.png" width="9" height="9"/>')),
    ("external_reference", good('<use xlink:href="other.svg#leaf"/>')),
    ("external_reference", good('<image href="data:image/png;base64,iVBORw0K" width="9"/>')),
    ("external_reference", good('<rect width="9" height="9" fill="url(http://x.org/p#g)"/>')),
    ("external_reference", good('<rect width="9" height="9" style="fill: url(\'p.svg#g\')"/>')),
    ("external_reference", good("<style>@import 'theme.css';</style>")),
    ("external_reference", good("<style>rect { fill: url(data:image/png;base64,AAAA) }</style>")),
    ("external_reference", good("<rect style=\"mask-image: image-set('data:image/png,AA' 1x)\"/>")),
    ("external_reference", '<?xml-stylesheet href="http://example.com/s.css"?>\n' + GOOD),
    ("foreign_object", good('<foreignObject width="9" height="9"><p>hi</p></foreignObject>')),
    ("animation", good('<set attributeName="fill" to="red"/>')),
    ("animation", good('<animateTransform attributeName="transform" type="rotate"/>')),
    ("no_drawing", good(shapes="<text x='10' y='20'>a sun over the sea</text>")),
    ("no_drawing", good(shapes="<g/>")),
]


@pytest.mark.parametrize(("code", "svg"), REFUSED)
def test_each_rule_refuses_its_case(code, svg):
    violations = check_svg(svg)
    assert [v.code for v in violations] == [code], [v.message for v in violations]
    assert violations[0].message.endswith((".", ")")) and len(violations[0].message) > 40


def test_a_good_document_passes():
    assert check_svg(GOOD) == []


# Near misses: each looks like a refused case but is not one.
NEAR_MISSES = [
    good('<use href="#sun" x="50"/>'),  # a reference inside the document
    good('<use xlink:href=" #sun" x="50"/>'),
    good('<rect width="9" height="9" style="fill:url( \'#sky\' )" opacity="0.5"/>'),
    good('<path d="M0 0 L9 9" stroke="#000" stroke-dashoffset="2"/>'),  # on* only as a prefix
    good("<text x='9' y='9'>data: 2024, see url</text>"),  # words, not a data: URI or url()
    good("<!-- a comment --><style>circle { stroke: #333 }</style>"),
    '<?xml version="1.0" encoding="UTF-8"?>\n' + GOOD,
    good(f'<svg {NS} x="10" width="50" height="50"><ellipse rx="5" ry="3"/></svg>'),  # nested svg
    good(shapes='<polyline points="0,0 9,9"/><text>a label</text>'),  # text beside a shape
]


@pytest.mark.parametrize("svg", NEAR_MISSES)
def test_near_misses_pass(svg):
    assert check_svg(svg) == [], [v.message for v in check_svg(svg)]


def test_a_document_breaking_several_rules_lists_each_once_in_order():
    svg = good("<script>x()</script><text onclick='x()'>a</text><set to='1'/>", shapes="<g/>")
    assert codes(svg) == ["script", "event_handler", "animation", "no_drawing"]


def test_limits_are_the_rules():
    assert codes(GOOD, SvgRules(max_chars=len(GOOD) - 1)) == ["too_long"]
    assert codes(GOOD, SvgRules(max_chars=len(GOOD))) == []
    elements = len(list(ET.fromstring(GOOD).iter()))  # svg, defs, gradient, stop, rect, circle
    assert codes(GOOD, SvgRules(max_elements=elements - 1)) == ["too_many_elements"]
    assert codes(GOOD, SvgRules(max_elements=elements)) == []
    assert (gate.DEFAULT_RULES.max_chars, gate.DEFAULT_RULES.max_elements) == (20_000, 2_000)


def test_billion_laughs_is_refused_before_any_parser_sees_it(monkeypatch):
    def no_parsing(*_):
        raise AssertionError("the gate parsed a document with a DTD")

    monkeypatch.setattr(ET, "fromstring", no_parsing)
    monkeypatch.setattr(ET, "XMLParser", no_parsing)
    violations = check_svg(LAUGHS)
    assert [v.code for v in violations] == ["doctype"]
    assert "<!DOCTYPE>" in violations[0].message and "<svg xmlns=" in violations[0].message


def test_a_parse_error_says_where():
    (violation,) = check_svg(good("<g><rect/></circle>"))
    assert "line 1, column" in violation.message and "mismatched tag" in violation.message


# ---------------------------------------------------------------- the reply


def test_prose_around_a_fenced_block():
    reply = f"Here is a sun:\n\n```svg\n{GOOD}\n```\n\nThe gradient gives the sky depth."
    svg, violations = check_reply(reply)
    assert (svg, violations) == (GOOD, [])


@pytest.mark.parametrize(
    "reply",
    [
        f"<think>an <svg> maybe</think>\n```xml\n{GOOD}\n```",  # xml tag; thoughts ignored
        f"```html\n<p>no</p>\n```\nInstead:\n```svg\n{GOOD}\n```",  # the first svg block
        f"Sure! {GOOD} Enjoy.",  # bare, in prose
        f'```\n<?xml version="1.0"?>\n{GOOD}\n```',  # untagged fence: found bare
    ],
)
def test_the_svg_is_found(reply):
    assert extract_svg(reply).endswith(GOOD)


def test_a_bare_svg_keeps_its_nested_svg_whole():
    nested = good(f'<svg {NS} width="50" height="50"><circle r="5"/></svg>')
    assert extract_svg(f"Here:\n{nested}\nDone.") == nested


@pytest.mark.parametrize(
    ("reply", "code"),
    [
        ("I would draw a sun over the sea.", "no_svg"),
        ("```svg\n\n```", "no_svg"),
        (f"```svg\n{GOOD[:-6]}", "truncated"),  # the fence and the svg both left open
        (f"```svg\n{GOOD}", "truncated"),  # the svg closed, its fence not
        (f"Here: {GOOD[:-6]}", "truncated"),  # bare and cut off
    ],
)
def test_a_reply_without_a_whole_svg_is_refused(reply, code):
    svg, violations = check_reply(reply)
    assert [v.code for v in violations] == [code]
    assert (svg is None) == (code == "no_svg")


# ---------------------------------------------------------------- the canvas


def canvas_of(pixels: np.ndarray) -> Canvas:
    buffer = io.BytesIO()
    Image.fromarray(pixels).save(buffer, format="PNG")
    return Canvas(status=Status.OK, png=buffer.getvalue())


def test_a_white_sheet_is_blank_and_a_drawn_one_is_not():
    sheet = np.full((300, 300, 3), 255, dtype=np.uint8)
    (blank,) = check_canvas(canvas_of(sheet))
    assert blank.code == "blank_canvas" and "0.00%" in blank.message
    drawn = sheet.copy()
    drawn[100:200, 100:200] = (40, 90, 200)
    assert check_canvas(canvas_of(drawn)) == []
    speck = sheet.copy()
    speck[150:155, 150:155] = (40, 90, 200)  # 0.03 % of the sheet: under BLANK_COVERAGE
    assert [v.code for v in check_canvas(canvas_of(speck))] == ["blank_canvas"]
