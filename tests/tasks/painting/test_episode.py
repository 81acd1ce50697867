"""paint(): the gate first, then the real browser, then the blank-canvas check."""

import time

import pytest

from watercolor.canvas import Status
from watercolor.render import RenderConfig, RenderPool
from watercolor.tasks.painting import sample_sketches
from watercolor.tasks.painting.episode import paint
from watercolor.tasks.painting.gate import GateRules, painted_fraction
from watercolor.tasks.painting.harness import HARNESS

SKELETON = """function setup() {
  createCanvas(600, 600, WEBGL);
  background("#f3ead6");
  brush.scaleBrushes(3);
  brush.noStroke();
  %s
}
"""


def reply(body: str) -> str:
    return f"A watercolour for you.\n\n```js\n{SKELETON % body}```\n"


async def test_a_violation_never_reaches_the_browser():
    """The pool here cannot start a browser: reaching it would give infra_error, not violation."""
    unusable = RenderPool(RenderConfig(workers=1, chromium="/nonexistent/chromium"), HARNESS)
    bad = reply('brush.fill("#ee7a62", 150);\n  rect(0, 0, 100, 100);')
    started = time.perf_counter()
    canvas = await paint(unusable, bad, seed=5)
    assert unusable.launches == 0 and time.perf_counter() - started < 5  # no browser started
    assert canvas.status == Status.VIOLATION
    assert canvas.violations == ["bare_primitive", "no_painting"]
    assert len(canvas.errors) == 2 and "rect() (line 7)" in canvas.errors[0]
    assert canvas.png is None and canvas.timings == {}
    assert (canvas.reply, canvas.seed) == (bad, 5)
    assert canvas.sketch.startswith("function setup()")
    assert unusable.launches == 0


async def test_no_sketch_keeps_the_reply():
    unusable = RenderPool(RenderConfig(workers=1, chromium="/nonexistent/chromium"), HARNESS)
    canvas = await paint(unusable, "I'd rather describe it in words.")
    assert (canvas.status, canvas.violations, canvas.sketch) == (
        Status.VIOLATION,
        ["no_sketch"],
        "",
    )
    assert canvas.reply == "I'd rather describe it in words."


@pytest.mark.browser
async def test_a_sample_paints_ok(painting_pool):
    text = f"```js\n{sample_sketches()['hibiscus']}```"
    canvas = await paint(painting_pool, text, seed=3)
    assert canvas.status == Status.OK, canvas.errors
    assert canvas.violations == [] and canvas.seed == 3
    assert canvas.reply == text and canvas.sketch == sample_sketches()["hibiscus"]
    assert painted_fraction(canvas.rgba) > 0.05
    assert canvas.timings["total_ms"] > 0


@pytest.mark.browser
async def test_a_sketch_that_paints_nothing_is_a_blank_canvas(painting_pool):
    """It passes the static gate (it calls brush.circle) but leaves only the paper."""
    text = reply("brush.noFill();\n  brush.circle(0, 0, 100);")
    canvas = await paint(painting_pool, text)
    assert canvas.status == Status.VIOLATION
    assert canvas.violations == ["blank_canvas"]
    assert "painted" in canvas.errors[-1]
    assert canvas.png is not None and painted_fraction(canvas.rgba) < 0.005  # pixels kept
    assert canvas.reply == text and "brush.noFill()" in canvas.sketch


@pytest.mark.browser
async def test_a_throwing_sketch_is_an_error_not_a_violation(painting_pool):
    text = reply('brush.fill("#ee7a62", 150);\n  brush.circle(0, 0, 80);\n  undefinedHelper();')
    canvas = await paint(painting_pool, text)
    assert canvas.status == Status.ERROR, canvas.errors
    assert canvas.violations == [] and "undefinedHelper" in " ".join(canvas.errors)
    assert canvas.reply == text


@pytest.mark.browser
async def test_rules_decide_what_renders(painting_pool):
    """A pencil line (brush.set + brush.line) is outside the anchor's allow-list, not p5.brush's."""
    text = reply('brush.set("HB", "#37408c", 2);\n  brush.line(-200, 0, 200, 0);')
    refused = await paint(painting_pool, text)
    allowed = await paint(painting_pool, text, rules=GateRules(allowed_brush_methods=None))
    assert refused.violations == ["disallowed_brush_method"]
    assert allowed.status == Status.OK, allowed.errors


async def test_a_gate_over_its_time_budget_is_the_replys_violation():
    """Issue 44: a reply that takes the gate too long fails as the reply's, with no render."""
    from watercolor.tasks.episode import gated_render

    def slow_gate(text: str):
        started = time.thread_time()
        while time.thread_time() - started < 0.05:
            pass
        return text, []

    unusable = RenderPool(RenderConfig(workers=1, chromium="/nonexistent/chromium"), HARNESS)
    canvas = await gated_render(unusable, "x", 1, slow_gate, blank=list, gate_budget_s=0.01)
    assert canvas.status == Status.VIOLATION and canvas.violations == ["gate_time"]
    assert "over the budget of 0.01 CPU-s" in canvas.errors[0] and unusable.launches == 0
