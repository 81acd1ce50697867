"""The SVG harness in real Chromium, and `draw()`: gate, render, blank check.

The pool renders 600 x 600 documents at pixel density 0.5, so sketch coordinate (x, y) is pixel
(y // 2, x // 2) of `canvas.rgba`. Some tests call `pool.render` directly, bypassing the gate,
to show what the image route itself does with what the gate refuses.
"""

import time
from itertools import pairwise

import pytest

from watercolor.canvas import Status
from watercolor.render import RenderConfig, RenderPool
from watercolor.tasks.svg.episode import draw
from watercolor.tasks.svg.gate import check_svg
from watercolor.tasks.svg.harness import HARNESS, harness

NS = 'xmlns="http://www.w3.org/2000/svg"'
WHITE, RED, BLUE = (255, 255, 255, 255), (255, 0, 0, 255), (0, 0, 255, 255)
# Left half red; a half-transparent blue disc centred on the red half's edge.
LAYERED = (
    f'<svg {NS} viewBox="0 0 600 600">'
    '<rect x="0" y="0" width="300" height="600" fill="#ff0000"/>'
    '<circle cx="300" cy="300" r="100" fill="#0000ff" fill-opacity="0.5"/>'
    "</svg>"
)


# A billion laughs: 10^8 "ha"s once its nine entities are expanded.
ENTITIES = "".join(f'<!ENTITY {b} "{f"&{a};" * 10}">' for a, b in pairwise("abcdefghi"))
LAUGHS = f'<!DOCTYPE svg [<!ENTITY a "ha">{ENTITIES}]><svg {NS}><text>&i;</text></svg>'


def pixel(canvas, x: int, y: int) -> tuple[int, ...]:
    """The RGBA at sketch coordinate (x, y)."""
    return tuple(int(c) for c in canvas.rgba[y // 2, x // 2])


def near(colour: tuple[int, ...], expected: tuple[int, ...], tolerance: int = 2) -> bool:
    return all(abs(a - b) <= tolerance for a, b in zip(colour, expected, strict=True))


@pytest.fixture(scope="module")
async def pool():
    async with RenderPool(RenderConfig(size=600, pixel_density=0.5, workers=1), HARNESS) as pool:
        yield pool


def test_the_document_is_one_inline_script_and_fetches_nothing():
    html = HARNESS.document()
    assert harness() is HARNESS and HARNESS.name == "svg"
    assert HARNESS.document() is html  # built once per process
    assert html.count("<script>") == 1 and html.count("</script>") == 1
    assert " src=" not in html and "<link" not in html and "/*HARNESS*/" not in html
    assert "__watercolor" in html and "createObjectURL" in html


@pytest.mark.browser
async def test_layered_translucent_shapes_paint_on_an_opaque_white_sheet(pool):
    canvas = await pool.render(LAYERED)
    assert canvas.status == Status.OK, canvas.errors
    assert canvas.rgba.shape == (300, 300, 4) and canvas.notes == []
    assert pixel(canvas, 100, 100) == RED
    assert pixel(canvas, 500, 500) == WHITE  # untouched: the opaque sheet, not transparency
    assert near(pixel(canvas, 360, 300), (127, 127, 255, 255))  # half blue over white
    assert near(pixel(canvas, 240, 300), (127, 0, 127, 255))  # half blue over red: blended
    assert canvas.timings["draw_ms"] < 2_000


@pytest.mark.browser
async def test_a_declared_size_is_scaled_to_the_canvas_and_noted(pool):
    small = f'<svg {NS} width="300" height="300"><rect width="150" height="300" fill="blue"/></svg>'
    canvas = await pool.render(small)
    assert canvas.status == Status.OK, canvas.errors
    assert pixel(canvas, 250, 300) == BLUE and pixel(canvas, 350, 300) == WHITE  # left half
    assert canvas.notes == [
        "the SVG declares a 300x300 drawing (its width and height), not 600x600: "
        "it was scaled to fill the canvas"
    ]
    wide = f'<svg {NS} viewBox="0 0 600 300"><rect width="600" height="300" fill="blue"/></svg>'
    canvas = await pool.render(wide)
    assert pixel(canvas, 300, 100) == WHITE and pixel(canvas, 300, 300) == BLUE  # centred band
    assert "600x300 drawing (its viewBox), not a square" in canvas.notes[0]


@pytest.mark.browser
@pytest.mark.parametrize(
    ("document", "detail"),
    [
        (f'<svg {NS}><rect width="9"></svg>', "not well-formed XML (error on line 1 at column"),
        ('<svg viewBox="0 0 9 9"><rect width="9" height="9"/></svg>', "namespace null"),
        ("a sun over the sea", "not well-formed XML"),
        (LAUGHS, "not well-formed XML"),  # the gate refuses it; Chromium's parser too
    ],
)
async def test_a_document_that_does_not_decode_is_an_error_that_says_so(pool, document, detail):
    started = time.perf_counter()
    canvas = await pool.render(document)
    assert canvas.status == Status.ERROR and canvas.png is None
    (error,) = canvas.errors
    assert error.startswith("the SVG document could not be decoded as an image: ")
    assert detail in error
    assert time.perf_counter() - started < 5  # an answer, not a hang


# A script and an onload handler that would cover the sheet in red and reach the network.
SCRIPTED = (
    f'<svg {NS} viewBox="0 0 600 600" onload="paint()">'
    '<rect x="0" y="0" width="10" height="10" fill="#000"/>'
    "<script>function paint() {"
    " const r = document.createElementNS('http://www.w3.org/2000/svg', 'rect');"
    " r.setAttribute('width', '600'); r.setAttribute('height', '600');"
    " r.setAttribute('fill', 'red');"
    " document.getElementsByTagNameNS('http://www.w3.org/2000/svg', 'svg')[0].appendChild(r);"
    " fetch('http://example.com/beacon'); }"
    " paint();</script>"
    "</svg>"
)


@pytest.mark.browser
async def test_an_svg_image_runs_no_script(pool):
    assert {v.code for v in check_svg(SCRIPTED)} == {"script", "event_handler"}
    canvas = await pool.render(SCRIPTED)
    assert canvas.status == Status.OK and canvas.errors == []
    assert pixel(canvas, 2, 2) == (0, 0, 0, 255)  # the document's own drawing is there
    assert pixel(canvas, 300, 300) == WHITE  # nothing the script would have drawn


EXTERNAL = (
    f'<svg {NS} xmlns:xlink="http://www.w3.org/1999/xlink" viewBox="0 0 600 600">'
    "<style>@import url(http://example.com/a.css); circle { fill: url(http://example.com/p#g) }"
    "</style>"
    '<circle cx="100" cy="100" r="50"/>'
    '<image href="http://example.com/x.png" x="300" y="300" width="300" height="300"/>'
    '<image xlink:href="http://example.com/y.png" x="300" y="0" width="10" height="10"/>'
    "</svg>"
)


@pytest.mark.browser
async def test_an_svg_image_fetches_nothing(pool):
    """No request leaves the image: one would reach the pool's routing and fail the render
    ("request refused by the sandbox"), or the CSP ("network access refused"). What Chromium
    draws instead of an image it did not fetch is its broken-image icon."""
    assert [v.code for v in check_svg(EXTERNAL)] == ["external_reference"]
    canvas = await pool.render(EXTERNAL)
    assert canvas.status == Status.OK and canvas.errors == []
    assert pixel(canvas, 100, 100) == WHITE  # the url() fill was not fetched: fill is none
    assert (canvas.rgba[150:, 150:, :3] != 255).any()  # the icon in the image's box


@pytest.mark.browser
async def test_a_data_uri_image_is_drawn_so_the_gate_refuses_it(pool):
    """The image route does draw embedded data: images; the gate is what keeps them out."""
    red = "%3Csvg xmlns='http://www.w3.org/2000/svg' width='9' height='9'%3E%3Crect width='9'"
    red += " height='9' fill='red'/%3E%3C/svg%3E"
    document = f'<svg {NS} viewBox="0 0 600 600"><image href="data:image/svg+xml,{red}" '
    document += 'width="600" height="600"/></svg>'
    assert [v.code for v in check_svg(document)] == ["external_reference", "no_drawing"]
    canvas = await pool.render(document)
    assert canvas.status == Status.OK and pixel(canvas, 300, 300) == RED


@pytest.mark.browser
async def test_a_foreign_object_taints_the_canvas_and_is_an_error(pool):
    document = f'<svg {NS} viewBox="0 0 9 9"><foreignObject width="9" height="9">'
    document += '<p xmlns="http://www.w3.org/1999/xhtml">hi</p></foreignObject></svg>'
    assert [v.code for v in check_svg(document)] == ["foreign_object", "no_drawing"]
    canvas = await pool.render(document)
    assert canvas.status == Status.ERROR and canvas.png is None
    assert "<foreignObject>" in canvas.errors[0] and "Tainted" in canvas.errors[0]


# ---------------------------------------------------------------- the episode


async def test_a_refused_reply_never_renders():
    """This pool cannot start a browser: reaching it would give infra_error, not violation."""
    unusable = RenderPool(RenderConfig(workers=1, chromium="/nonexistent/chromium"), HARNESS)
    reply = f"Here you are:\n```svg\n{SCRIPTED}\n```"
    started = time.perf_counter()
    canvas = await draw(unusable, reply, seed=4)
    # No browser was started (a launch attempt on the missing binary would also cost seconds).
    assert unusable.launches == 0 and time.perf_counter() - started < 5
    assert canvas.status == Status.VIOLATION and canvas.png is None
    assert canvas.violations == ["script", "event_handler"] and len(canvas.errors) == 2
    assert (canvas.sketch, canvas.reply, canvas.seed) == (SCRIPTED, reply, 4)
    canvas = await draw(unusable, "A sun, in words.")
    assert (canvas.violations, canvas.sketch) == (["no_svg"], "")


@pytest.mark.browser
async def test_a_good_reply_draws_ok(pool):
    reply = f"A red field under a blue sun.\n\n```svg\n{LAYERED}\n```\n"
    canvas = await draw(pool, reply, seed=2)
    assert canvas.status == Status.OK, canvas.errors
    assert canvas.violations == [] and pixel(canvas, 100, 100) == RED
    assert (canvas.sketch, canvas.reply, canvas.seed) == (LAYERED, reply, 2)


@pytest.mark.browser
async def test_a_blank_document_is_refused_after_rendering_with_its_png(pool):
    white = f'<svg {NS} viewBox="0 0 600 600"><rect width="600" height="600" fill="#fff"/></svg>'
    canvas = await draw(pool, f"```svg\n{white}\n```")
    assert canvas.status == Status.VIOLATION and canvas.violations == ["blank_canvas"]
    assert canvas.png is not None and (canvas.rgba == 255).all()
    assert "painted" in canvas.errors[-1] and canvas.sketch == white


@pytest.mark.browser
async def test_an_escaped_data_uri_is_drawn_and_a_prefixed_document_draws(pool):
    """Issue 44: a CSS escape once carried a data: image past the gate (Chromium decodes it and
    draws); written with an `svg:` prefix, a document draws as well and the gate accepts it."""
    red = "%3Csvg xmlns='http://www.w3.org/2000/svg' width='9' height='9'%3E%3Crect width='9'"
    red += " height='9' fill='red'/%3E%3C/svg%3E"
    style = f'<style>svg {{ background: image-set("\\64 ata:image/svg+xml,{red}" 1x) }}</style>'
    document = f'<svg {NS} viewBox="0 0 600 600">{style}<circle r="1"/></svg>'
    assert [v.code for v in check_svg(document)] == ["external_reference"]
    canvas = await pool.render(document)
    assert canvas.status == Status.OK and pixel(canvas, 300, 300) == RED
    prefixed = (
        LAYERED.replace("<", "<svg:").replace("<svg:/", "</svg:").replace("xmlns=", "xmlns:svg=")
    )
    canvas = await draw(pool, f"```svg\n{prefixed}\n```")
    assert canvas.status == Status.OK and canvas.violations == [], canvas.errors
    assert pixel(canvas, 100, 100) == RED
