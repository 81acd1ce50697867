"""The SVG document reading pays what is drawn (issue 44 item 4): shapes that are never rendered
are not counted, opacity is read after the style sheet, gradient fills are not glazes and tiny
dots weigh (almost) nothing. No browser: each case is a document and what it must read."""

from __future__ import annotations

import io

import numpy as np
import pytest
from PIL import Image

from watercolor.canvas import Canvas, Status
from watercolor.tasks.svg.document import drawn_shapes, shapes
from watercolor.tasks.svg.rewards import composition, translucent_shapes

SVG = '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 600 600">{}</svg>'
DRAWN = '<circle cx="300" cy="300" r="100" fill="#2a8a8a" fill-opacity="0.5"/>'
VEIL = 'fill="#2a8a8a" fill-opacity="0.4"'


@pytest.mark.parametrize(
    "hidden",
    [
        f'<defs><circle r="90" {VEIL}/></defs>',
        f'<clipPath id="c"><circle r="90" {VEIL}/></clipPath>',
        f'<mask id="m"><rect width="90" height="90" {VEIL}/></mask>',
        f'<symbol id="s"><circle r="90" {VEIL}/></symbol>',  # never <use>d
        f'<pattern id="p"><circle r="90" {VEIL}/></pattern>',
        f'<circle r="0" {VEIL}/>',
        f'<ellipse rx="90" ry="0" {VEIL}/>',
        f'<rect width="0" height="90" {VEIL}/>',
        f'<rect height="90" {VEIL}/>',  # width defaults to 0
        f'<circle r="90" {VEIL} display="none"/>',
        f'<g style="display: none"><circle r="90" {VEIL}/></g>',
        f'<circle r="90" {VEIL} visibility="hidden"/>',
        f'<g opacity="0"><circle r="90" {VEIL}/></g>',
        '<circle r="90" fill="#2a8a8a" style="opacity:0"/>',
        f'<x:circle xmlns:x="urn:example:other" r="90" {VEIL}/>',
        f'<x:g xmlns:x="urn:example:other"><circle r="90" {VEIL}/></x:g>',
        '<circle r="90" fill="none"/>',  # neither fill nor stroke paints
        f'<style>.h {{ display: none }}</style><circle class="h" r="90" {VEIL}/>',
        '<circle r="90" fill="#2a8a8a00"/>',  # the colour's own alpha is 0
        '<circle r="90" style="fill: rgba(42, 138, 138, 0)"/>',
        '<circle r="90" fill="transparent" stroke="#2a8a8a" stroke-width="0"/>',
        f'<g transform="scale(0)"><circle r="90" {VEIL}/></g>',
        f'<circle cx="-5000" cy="300" r="90" {VEIL}/>',  # off the sheet
        f'<rect x="700" y="0" width="200" height="200" {VEIL}/>',
    ],
)
def test_a_shape_that_is_never_drawn_is_not_counted(hidden):
    assert shapes(SVG.format(DRAWN + hidden)) == [0.5]


@pytest.mark.parametrize(
    ("fill", "opacity"),
    [('fill="#2a8a8a80"', 0.5), ('fill="#2a88"', 0.53), ('style="fill: rgba(42,138,138,.4)"', 0.4),
     ('fill="hsl(180 50% 35% / 40%)"', 0.4), ('fill="rgb(42 138 138)" fill-opacity=".4"', 0.4)],
)  # fmt: skip
def test_a_colour_s_own_alpha_is_its_opacity(fill, opacity):
    assert shapes(SVG.format(f'<circle cx="300" cy="300" r="90" {fill}/>')) == pytest.approx(
        [opacity], abs=0.01
    )


def test_a_shape_partly_off_the_sheet_weighs_what_is_on_it():
    half_off = drawn_shapes(SVG.format('<rect x="-100" y="0" width="200" height="200"/>'))
    moved = '<g transform="translate(600 0)"><rect x="-100" width="200" height="200"/></g>'
    moved = drawn_shapes(SVG.format(moved))  # a transform: not clipped (not read)
    assert half_off[0].weight == moved[0].weight == 1.0  # 100 x 200 on the sheet, over FULL
    sliver = drawn_shapes(SVG.format('<rect x="-197" y="0" width="200" height="200"/>'))
    assert sliver[0].weight == 0.0  # 3 x 200 on it


def test_a_used_symbol_or_shape_is_drawn_with_the_use_s_opacity():
    defs = f'<defs><circle id="d" r="90" {VEIL}/></defs><symbol id="s">{CIRCLE}</symbol>'
    xlink = 'xmlns:xlink="http://www.w3.org/1999/xlink"'
    uses = f'<use href="#s" opacity="0.5"/><use xlink:href="#d" {xlink}/>'
    assert shapes(SVG.format(DRAWN + defs + uses)) == pytest.approx([0.5, 0.2, 0.4])


def test_a_use_chain_is_read_within_a_budget():
    # each use draws the previous one twice: 2**40 circles for the browser, a bounded walk here
    chain = [f'<g id="u0"><circle r="90" {VEIL}/></g>']
    twice = '<g id="u{}"><use href="#u{}"/><use href="#u{}"/></g>'
    chain += [twice.format(i, i - 1, i - 1) for i in range(1, 41)]
    found = shapes(SVG.format("<defs>" + "".join(chain) + '</defs><use href="#u40"/>'))
    assert 0 < len(found) <= 10_000


CIRCLE = f'<circle r="90" {VEIL}/>'
INLINE = f'<circle r="90" {VEIL} style="fill-opacity:.3"/>'
NAMED = f'<circle id="a" class="b" r="90" {VEIL}/>'


@pytest.mark.parametrize(
    ("css", "shape", "opacity"),
    [
        # a <style> rule beats the attribute, an inline style beats the rule
        ("circle { fill-opacity: 1 }", CIRCLE, 1.0),
        ("circle { fill-opacity: 1 }", INLINE, 0.3),
        # the more specific selector wins, then the later rule; !important beats inline style
        ("#a { fill-opacity: .2 } circle.b { fill-opacity: 1 }", NAMED, 0.2),
        (".b { fill-opacity: .2 } .b { fill-opacity: .7 }", NAMED, 0.7),
        ("* { fill-opacity: 1 !important }", INLINE, 1.0),
        # a selector list, a descendant selector (read by its last part), an escaped property
        ("rect, svg g circle { opacity: 1; fill-opacity: 1 }", f"<g>{CIRCLE}</g>", 1.0),
        ("circle { fill-\\6f pacity: 1 }", CIRCLE, 1.0),
        # group opacity from a rule multiplies, fill-opacity from a rule is inherited
        ("g { opacity: .5; fill-opacity: .6 }", '<g><circle r="90" fill="#2a8a8a"/></g>', 0.3),
    ],
)
def test_opacity_is_read_after_the_style_sheet(css, shape, opacity):
    assert shapes(SVG.format(f"<style>{css}</style>{shape}")) == pytest.approx([opacity])


def painted(document: str) -> Canvas:
    pixels = np.full((60, 60, 3), 250, np.uint8)
    pixels[5:55, 5:55] = (42, 138, 138)  # paint over most of the sheet: extent 1
    png = io.BytesIO()
    Image.fromarray(pixels).save(png, format="PNG")
    return Canvas(Status.OK, png=png.getvalue(), sketch=SVG.format(document))


def test_a_gradient_fill_is_not_paid_as_a_glaze():
    stops = "".join(f'<stop offset="{i / 9}" stop-opacity="{0.2 + i / 12}"/>' for i in range(10))
    document = f'<linearGradient id="g">{stops}</linearGradient>'
    document += '<rect x="50" y="50" width="500" height="500" fill="url(#g)" fill-opacity="0.6"/>'
    assert translucent_shapes(painted(document)) == 0.0
    flat = '<rect x="50" y="50" width="500" height="500" fill="#2a8a8a" fill-opacity="0.6"/>'
    assert translucent_shapes(painted(flat)) == pytest.approx(1.0)


def test_hundreds_of_tiny_dots_weigh_nothing():
    rng = np.random.default_rng(0)
    dots = "".join(f'<circle cx="{x}" cy="{y}" r="3"/>' for x, y in rng.integers(50, 550, (300, 2)))
    document = '<rect x="50" y="50" width="500" height="500" fill="#2a8a8a"/>'
    document += f'<g fill="#1f6e6e" fill-opacity="0.5">{dots}</g>'
    assert translucent_shapes(painted(document)) == 0.0
    assert composition(painted(document), few=2, many=10) == 0.0
    washes = "".join(
        f'<circle cx="{100 + 40 * i}" cy="300" r="120" fill="#2a8a8a" fill-opacity="0.4"/>'
        for i in range(10)
    )
    assert translucent_shapes(painted(washes)) == composition(painted(washes)) == pytest.approx(1)


def test_a_shape_weighs_by_its_area_up_to_a_full_wash():
    document = '<rect width="600" height="600"/><circle r="3"/><circle cx="300" cy="300" r="20"/>'
    weights = [
        s.weight for s in drawn_shapes(SVG.format(document + '<rect width="90" height="90"/>'))
    ]
    assert weights[0] == weights[3] == 1.0 and weights[1] == 0.0 and 0 < weights[2] < 1


def test_shapes_stacked_on_one_spot_are_one_shape_of_their_combined_opacity():
    # ten veils of 0.3 on one spot are one block of 0.97 on the canvas (the stacked_veils cheat)
    veil = '<rect x="60" y="60" width="480" height="480" fill-opacity="0.3"/>'
    nudged = '<rect x="62" y="61" width="480" height="479" fill-opacity="0.3"/>'
    assert shapes(SVG.format(veil * 10)) == pytest.approx([1 - 0.7**10])
    assert shapes(SVG.format(veil + nudged)) == pytest.approx([1 - 0.7**2])  # a nudge: same spot
    moved = f'<g transform="translate(100 0)">{veil}</g><circle r="240" fill-opacity="0.3"/>'
    assert shapes(SVG.format(veil + moved)) == pytest.approx([0.3, 0.3, 0.3])  # elsewhere
