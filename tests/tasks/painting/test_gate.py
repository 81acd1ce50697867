"""The static gate: each violation code with a case that trips it and a near miss that must not;
and finding the sketch in a model reply: fenced js first, bare code second, prose is nothing.

Every case is a sketch body pasted into a valid skeleton (`sketch(...)`), so a case shows
exactly the one thing that differs from a sketch the gate accepts.
"""

import numpy as np
import pytest

from watercolor.canvas import Canvas, Status
from watercolor.rewards.coverage import coverage, not_blank
from watercolor.rewards.pixels import view
from watercolor.tasks.painting.gate import (
    ANCHOR_BRUSH_METHODS,
    GateRules,
    check_canvas,
    check_reply,
    check_sketch,
    extract_sketch,
    painted_fraction,
)
from watercolor.tasks.painting.jsscan import scan

WASH = 'brush.fill("#f2a68a", 150);\n  brush.circle(0, 0, 120);'


def sketch(body: str = WASH, canvas: str = "createCanvas(600, 600, WEBGL);") -> str:
    return (
        "function setup() {\n"
        f"  {canvas}\n"
        '  background("#f3ead6");\n'
        "  brush.scaleBrushes(3);\n"
        "  brush.noStroke();\n"
        f"  {body}\n"
        "}\n"
    )


def fenced(code: str, tag: str = "js") -> str:
    return f"Here is my painting.\n\n```{tag}\n{code.rstrip()}\n```\n"


def with_line(line: str) -> str:
    """A fenced reply: the plain watercolour plus one more line in setup()."""
    return fenced(sketch(f"{WASH}\n  {line}"))


def codes(reply: str, rules: GateRules | None = None) -> list[str]:
    return [v.code for v in check_reply(reply, rules or GateRules())[1]]


NESTED_CANVAS = "createCanvas(min(600, 700), 600, WEBGL);"
SHAPE = "brush.fill('#aa3344', 150); brush.beginShape(0.5); brush.vertex(0, 0);\n  " + (
    "brush.vertex(9, 9); brush.endShape(CLOSE);"
)
# The sketch's own helpers may share a p5 name; calling them is not a bare primitive.
OWN_FUNCTION = fenced(
    sketch(f"{WASH}\n  petal(1);\n}}\nfunction petal(k) {{\n  brush.circle(k, k, 9);")
)
OWN_CIRCLE = with_line("function circle(x) { brush.circle(x, 0, 9); }\n  circle(4);")
OWN_METHOD = fenced(
    sketch(f"{WASH}\n  new Petal().circle(3);")
    + "class Petal {\n  circle(r) {\n    brush.circle(0, 0, r);\n  }\n}\n"
)
OWN_ARROW = with_line(
    "const dab = (x) => brush.circle(x, 0, 9);\n  line = (a) => dab(a);\n  line(3);"
)


# p5 instance mode: `p.setup` and `p.createCanvas(..., p.WEBGL)` look like the skeleton.
INSTANCE_MODE = fenced(
    "new p5((p) => {\n  p.setup = () => {\n    p.createCanvas(600, 600, p.WEBGL);\n"
    "    brush.fill(200, 60, 80, 120);\n    brush.circle(0, 0, 80);\n  };\n});\n"
)


def test_a_plain_watercolour_passes():
    assert codes(fenced(sketch())) == []


# (code, reply that must trip it, near miss that must not; "" when there is no useful one)
CASES = [
    ("no_sketch", "I would paint a soft peach hibiscus.", fenced(sketch())),
    ("no_sketch", "", "function setup() {}\n"),
    ("no_sketch", "```js\n\n```", fenced(sketch())),
    ("truncated", "```js\n" + sketch(), fenced(sketch())),  # fence never closed
    ("truncated", fenced(sketch()[:-3]), fenced(sketch() + "// done {\n")),  # '{' left open
    ("truncated", "```js\n" + sketch() + 'let s = "abc\n```', with_line('let s = "a{b";')),
    ("truncated", fenced(sketch() + "/* unfinished"), fenced(sketch() + "/* done */")),
    ("truncated", fenced(sketch() + "let x ="), fenced(sketch() + "let x = 1;")),
    ("truncated", fenced(sketch() + "x = 2 +"), fenced(sketch() + "let i = 0; i++")),
    ("truncated", fenced(sketch() + "function"), fenced(sketch() + "let functional = 1")),
    ("truncated", fenced(sketch() + "brush."), fenced(sketch() + "let x = 1.5")),
    ("instance_mode", INSTANCE_MODE, with_line("let p = new p5.Vector(1, 2);")),
    ("no_setup", fenced(sketch().replace("setup", "paint")), fenced(sketch())),
    ("no_setup", fenced("// function setup() {}\n" + sketch().replace("setup", "start")), ""),
    ("not_webgl", fenced(sketch(canvas="createCanvas(600, 600);")), fenced(sketch())),
    ("not_webgl", fenced(sketch(canvas="")), fenced(sketch(canvas=NESTED_CANVAS))),
    ("external_access", with_line("fetch('/x');"), with_line("// fetch('/x')")),
    ("external_access", with_line("let img = loadImage('a.png');"), with_line("loadPixels();")),
    ("external_access", with_line("loadJSON('x.json');"), with_line("let loaded = 1;")),
    ("external_access", with_line("new XMLHttpRequest();"), ""),
    ("external_access", with_line("new WebSocket('ws://a');"), ""),
    ("external_access", with_line("new EventSource('/e');"), ""),
    ("external_access", with_line("navigator.sendBeacon('/b');"), ""),
    ("external_access", with_line("import('./m.js');"), with_line("let important = 1;")),
    ("external_access", with_line("eval('1');"), with_line("let evaluate = 1;")),
    ("external_access", with_line("new Function('return 1')();"), with_line("function f() {}")),
    ("external_access", with_line("createDiv('hi');"), with_line("createVector(1, 2);")),
    ("external_access", with_line("createImg('a.png');"), ""),
    ("external_access", with_line("document.body.innerHTML = '';"), ""),
    ("external_access", with_line("window.open('x');"), ""),
    ("external_access", with_line("location.href = 'x';"), with_line("let location = {x: 1};")),
    ("external_access", with_line("window['fe' + 'tch']('/');"), ""),
    ("external_access", with_line("setTimeout('paint()', 9);"), with_line("setTimeout(f, 9);")),
    (
        "external_access",
        with_line("let u = 'https://a.example/p.png';"),
        with_line("// https://a.b"),
    ),
    ("external_access", with_line("let u = 'file:///etc/passwd';"), with_line("let s = 'a // b';")),
    (
        "external_access",
        with_line("let u = `data:image/png;base64,AA`;"),
        with_line("let d = 'data';"),
    ),
    ("external_access", with_line('[]["constructor"];'), ""),
    ("text_label", with_line("text('hibiscus', 0, 0);"), with_line("// text('hibiscus', 0, 0)")),
    ("text_label", with_line("textSize(20);"), with_line("let textured = 1;")),
    (
        "text_label",
        with_line("drawingContext.fillText('a', 0, 0);"),
        with_line("let s = 'text(1)';"),
    ),
    ("bare_primitive", with_line("circle(0, 0, 50);"), with_line("brush.circle(0, 0, 50);")),
    ("bare_primitive", with_line("rect(0, 0, 9, 9);"), with_line("// rect(0, 0, 9, 9);")),
    ("bare_primitive", with_line("fill(255, 0, 0);"), with_line("let a = Array(3).fill(0);")),
    ("bare_primitive", with_line("beginShape(); vertex(0, 0); endShape();"), fenced(sketch(SHAPE))),
    ("bare_primitive", with_line("line(0, 0, 9, 9);"), with_line("const outline = [1];")),
    (
        "bare_primitive",
        with_line("stroke('red'); ellipse(0, 0, 9);"),
        with_line("brush . noStroke();"),
    ),
    ("bare_primitive", with_line("drawingContext.clearRect(0, 0, 9, 9);"), OWN_FUNCTION),
    ("bare_primitive", with_line("image(pg, 0, 0);"), OWN_CIRCLE),
    ("bare_primitive", with_line("triangle(0, 0, 9, 9, 0, 9);"), OWN_METHOD),
    ("bare_primitive", with_line("point(0, 0);"), OWN_ARROW),
    ("bare_primitive", with_line("if (true) { quad(0, 0, 1, 1, 2, 2, 3, 3); }"), ""),
    (
        "unknown_brush_method",
        with_line("brush.watercolor(0, 0, 9);"),
        with_line("brush.fillBleed(0.3);"),
    ),
    ("unknown_brush_method", with_line("brush.bleed(0.3);"), with_line("// brush.bleed(0.3);")),
    (
        "disallowed_brush_method",
        with_line("brush.set('HB', '#000', 1);"),
        with_line("brush.noFill();"),
    ),
    (
        "disallowed_brush_method",
        with_line("brush.rect(0, 0, 9, 9);"),
        with_line("let s = 'brush.rect(';"),
    ),
    ("disallowed_brush_method", with_line("brush['wash']('#fff');"), ""),
    # State resets outside the allow-list paint nothing and are allowed; their misspellings are
    # not p5.brush methods at all.
    ("disallowed_brush_method", with_line("brush.wash('#fff', 90);"), with_line("brush.noWash();")),
    ("unknown_brush_method", with_line("brush.noWashes();"), with_line("brush.noField();")),
    # An alias hides which methods it calls: refused; a name that merely contains "brush" is not.
    (
        "brush_alias",
        with_line("const b = brush; b.rect(0, 0, 9, 9);"),
        with_line("let brushes = 2;"),
    ),
    ("brush_alias", with_line("paintWith(brush);"), with_line("brush?.noFill();")),
    ("no_painting", fenced(sketch('brush.fill("#f2a68a", 150);')), fenced(sketch(SHAPE))),
    ("no_painting", fenced(sketch('brush.fill("#f2a68a", 150);\n  // brush.circle(0, 0, 9);')), ""),
]


@pytest.mark.parametrize(("code", "positive", "negative"), CASES)
def test_violation_and_near_miss(code, positive, negative):
    assert code in codes(positive), check_reply(positive)[1]
    if negative:
        assert code not in codes(negative), check_reply(negative)[1]


def test_a_near_miss_trips_nothing_else():
    """Every fenced near miss above is a whole sketch the gate accepts, not just one code."""
    clean = [neg for _, _, neg in CASES if neg.startswith("Here")]
    assert {neg: codes(neg) for neg in clean if codes(neg)} == {}


def test_too_long_is_refused_before_any_other_check():
    huge = fenced(sketch(WASH + "\n  " + "let a = 1;\n  " * 200_000))  # ~2.4 MB
    sketch_text, violations = check_reply(huge)
    assert [v.code for v in violations] == ["too_long"]
    assert sketch_text is not None and len(sketch_text) > 1_000_000
    assert codes(fenced(sketch()), GateRules(max_chars=100)) == ["too_long"]
    assert codes(fenced(sketch()), GateRules(max_chars=10_000)) == []


def test_bare_primitives_can_be_allowed():
    reply = fenced(sketch(WASH + "\n  rect(0, 0, 9, 9);"))
    assert "bare_primitive" in codes(reply)
    assert "bare_primitive" not in codes(reply, GateRules(ban_bare_primitives=False))


def test_allow_list_none_accepts_every_exported_method():
    reply = fenced(sketch(WASH + "\n  brush.set('HB', '#222', 1);\n  brush.rect(0, 0, 9, 9);"))
    assert codes(reply) == ["disallowed_brush_method"]
    assert codes(reply, GateRules(allowed_brush_methods=None)) == []
    assert "unknown_brush_method" in codes(
        fenced(sketch(WASH + "\n  brush.bogus();")), GateRules(allowed_brush_methods=None)
    )


def test_rules_from_yaml_lists_become_frozensets():
    rules = GateRules(allowed_brush_methods=["fill", "circle"])
    assert rules.allowed_brush_methods == frozenset({"fill", "circle"})
    assert (
        GateRules().allowed_brush_methods == ANCHOR_BRUSH_METHODS
        and len(ANCHOR_BRUSH_METHODS) == 10
    )


def test_messages_are_one_readable_sentence_with_lines():
    reply = fenced(sketch(WASH + "\n  rect(0, 0, 9, 9);\n  text('x', 0, 0);\n  fetch('/a');"))
    violations = check_reply(reply)[1]
    assert {v.code for v in violations} == {"bare_primitive", "text_label", "external_access"}
    for v in violations:
        assert v.message.endswith(".") and v.message.count(". ") == 0 and "\n" not in v.message
    bare = next(v for v in violations if v.code == "bare_primitive")
    assert "rect() (line 8)" in bare.message


def test_every_violation_is_reported_once():
    reply = fenced(sketch("rect(0, 0, 9, 9); rect(1, 1, 2, 2); ellipse(0, 0, 4);"))
    found = codes(reply)
    assert found == ["bare_primitive", "no_painting"]


def test_check_sketch_takes_raw_javascript():
    assert check_sketch(sketch()) == []
    assert [v.code for v in check_sketch("function setup() {")] == [
        "truncated",
        "not_webgl",
        "no_painting",
    ]


# ---------------------------------------------------------------- the lexical scan


@pytest.mark.parametrize(
    ("source", "code", "strings", "unterminated"),
    [
        ("a(1); // rect()", "a(1);          ", (), None),
        ("a /* x */ b", "a         b", (), None),
        ("s = 'it\\'s'", "s = '     '", ("it\\'s",), None),
        ("r = /[/]x/g.test(s) / 2", "r = /    /g.test(s) / 2", ("[/]x",), None),
        ("t = `a ${ f('b') } c`", "t = `  ${ f(' ') }  `", ("a ", "b", " c"), None),
        ("x = 'open", "x = '    ", ("open",), "string"),
        ("x = `open ${a", "x = `     ${a", ("open ",), "template"),
        ("/* open", "       ", (), "comment"),
        ("a\n// c\nb", "a\n    \nb", (), None),
    ],
)
def test_scan_blanks_comments_and_literals(source, code, strings, unterminated):
    result = scan(source)
    assert (result.code, result.strings, result.unterminated) == (code, strings, unterminated)
    assert len(result.code) == len(source)


# ---------------------------------------------------------------- the canvas gate


def canvas_of(rgba: np.ndarray) -> Canvas:
    import io

    from PIL import Image

    buffer = io.BytesIO()
    Image.fromarray(rgba, "RGBA").save(buffer, format="PNG")
    return Canvas(Status.OK, png=buffer.getvalue())


def paper(size: int = 100) -> np.ndarray:
    rgba = np.empty((size, size, 4), np.uint8)
    rgba[...] = (243, 234, 214, 255)
    return rgba


def test_blank_paper_is_a_blank_canvas():
    assert [v.code for v in check_canvas(canvas_of(paper()))] == ["blank_canvas"]


def test_a_small_wash_is_not_blank_and_a_speck_is():
    wash, speck = paper(), paper()
    wash[40:50, 40:50] = (200, 120, 100, 255)  # 1 % of the canvas
    speck[40:42, 40:42] = (200, 120, 100, 255)  # 0.04 %
    assert check_canvas(canvas_of(wash)) == []
    assert [v.code for v in check_canvas(canvas_of(speck))] == ["blank_canvas"]
    assert painted_fraction(wash) == pytest.approx(0.01)


def test_paper_is_the_commonest_colour_not_a_fixed_cream():
    """A sketch on dark paper with a pale wash is judged against its own paper."""
    dark = paper()
    dark[...] = (20, 30, 60, 255)
    assert [v.code for v in check_canvas(canvas_of(dark))] == ["blank_canvas"]
    dark[:, :30] = (240, 200, 150, 255)
    assert check_canvas(canvas_of(dark)) == []


def test_faint_noise_does_not_count_as_paint():
    noisy = paper().astype(np.int16)
    noisy[..., :3] += np.random.default_rng(0).integers(-4, 5, noisy[..., :3].shape)
    assert [v.code for v in check_canvas(canvas_of(noisy.astype(np.uint8)))] == ["blank_canvas"]


def test_a_transparent_canvas_with_paint_is_not_blank():
    rgba = np.zeros((100, 100, 4), np.uint8)
    rgba[10:60, 10:60] = (120, 40, 40, 180)
    assert check_canvas(canvas_of(rgba)) == []


def test_canvas_without_pixels_is_not_judged():
    assert check_canvas(Canvas(Status.ERROR, errors=["boom"])) == []


MARKS = {"speck": 5, "mark": 9, "wash": 20}  # square marks' sides: 0.25 %, 0.81 %, 4 % of a sheet


def sheets() -> dict[str, tuple[np.ndarray, float]]:
    """{name: (RGBA, the share of it painted)}: sheets on either side of the blank line, on
    paper, dark and tinted grounds."""
    cases = {"paper": paper()}
    for name, ground in {"dark": (30, 34, 50, 255), "tinted": (143, 156, 138, 255)}.items():
        cases[name] = paper()
        cases[name][...] = ground
    cases = {name: (rgba, 0.0) for name, rgba in cases.items()}
    for name, (ground, _) in list(cases.items()):
        for side, mark in MARKS.items():
            rgba = ground.copy()
            rgba[40 : 40 + mark, 50 : 50 + mark] = (230, 110, 90, 255)
            cases[f"{name}_{side}"] = (rgba, mark**2 / rgba[..., 0].size)
    faint = cases["dark"][0].copy()
    faint[20:40, 20:40, :3] += 6  # a faint mark the eye sees on a dark sheet
    return cases | {"dark_faint_mark": (faint, 400 / faint[..., 0].size)}


@pytest.mark.parametrize("name", list(sheets()))
def test_the_blank_check_is_the_reward_components_own(name):
    """The task and every reward component share one definition of the sheet and of paint:
    each reads the share painted as it was made, and calls blank exactly the sheets made with
    under half a percent painted (plain grounds and specks)."""
    rgba, share = sheets()[name]
    canvas = canvas_of(rgba)
    blank = name.endswith(("paper", "dark", "tinted", "speck"))
    assert painted_fraction(rgba) == view(canvas).coverage == pytest.approx(share)
    assert bool(check_canvas(canvas)) == blank  # the task's blank_canvas
    assert not_blank(canvas) == (0.0 if blank else 1.0)  # the components'
    assert coverage(canvas) == (0.0 if blank else pytest.approx(share))


def test_every_state_reset_is_allowed_and_paints_nothing():
    from watercolor.tasks.painting.gate import PAINTING_METHODS, state_resets

    resets = state_resets()
    assert {"noWash", "noField", "noHatch", "noMass", "noClip", "noFill", "noStroke"} <= resets
    assert not resets & PAINTING_METHODS
    calls = "\n  ".join(f"brush.{name}();" for name in sorted(resets))
    assert codes(fenced(sketch(f"{WASH}\n  {calls}"))) == []
    assert codes(fenced(sketch(calls))) == ["no_painting"]  # resets alone paint nothing


CODE = "function setup() {\n  createCanvas(600, 600, WEBGL);\n}\n"


@pytest.mark.parametrize(
    ("reply", "expected"),
    [
        (f"```js\n{CODE}```", CODE),
        (f"Here you go:\n\n```javascript\n{CODE}```\nEnjoy!", CODE),
        (f"```JavaScript\n{CODE}```", CODE),
        (f"  ```js  \n{CODE}  ```  \n", CODE),
        (f"```\n{CODE}```", CODE),  # unlabelled, but code
        (CODE, CODE),  # no fence at all
        (f"Sure! Here is the sketch.\n\n{CODE}", CODE),  # prose, then bare code
        (f"// a peach hibiscus\n{CODE}", f"// a peach hibiscus\n{CODE}"),
        ("let petals = 5;\nfunction setup() {}\n", "let petals = 5;\nfunction setup() {}\n"),
        ("I would paint a peach hibiscus with soft washes.", None),
        ("Use function setup to start, then paint.", None),
        ("", None),
        ("   \n\n", None),
        ("```js\n\n```", None),
        ("```\nJust some words in a box.\n```", None),
        ("```python\nprint('hi')\n```\n", None),
        (f"```html\n<canvas></canvas>\n```\n```js\n{CODE}```", CODE),  # two blocks: the js one
        (f"```js\n{CODE}```\n```js\nlet second = 1;\n```", CODE),  # two js blocks: the first
        (f"<think>\n```js\nlet draft = 1;\n```\n</think>\n```js\n{CODE}```", CODE),
        (f"<think>\n\n</think>\n\n{CODE}", CODE),
        (f"```js\n{CODE}", CODE),  # never closed: the rest of the reply (the gate says truncated)
    ],
)
def test_extract_sketch(reply, expected):
    assert extract_sketch(reply) == expected


def test_an_unclosed_fence_is_truncated_even_when_the_code_is_whole():
    sketch, violations = check_reply(f"```js\n{CODE}")
    assert sketch == CODE
    assert "truncated" in [v.code for v in violations]


def test_extraction_is_linear_on_a_huge_reply():
    """A megabyte of prose or of fences must not stall the gate (no catastrophic regex)."""
    import time

    start = time.perf_counter()
    assert extract_sketch("word " * 200_000) is None
    assert extract_sketch("```\n" * 50_000) is None
    assert time.perf_counter() - start < 10  # linear: ~0.1 s; a backtracking regex: minutes
