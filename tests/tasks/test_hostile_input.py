"""Hostile replies outside the browser (issue 44): what Python reads of model-written text must
neither recurse nor scan super-linearly, and one reply it cannot read never costs the others
their verdicts. Each case names the outcome it must have; the browser's own sandbox is tested in
tests/render/test_sandbox.py."""

from __future__ import annotations

import re
import time

import pytest

from watercolor.tasks.episode import without_thinking
from watercolor.tasks.painting import gate as painting_gate
from watercolor.tasks.painting.style import style_measures as painting_style
from watercolor.tasks.svg import gate as svg_gate
from watercolor.tasks.svg.rewards import shapes
from watercolor.tasks.svg.style import style_measures as svg_style_measures

SVG_NS = "http://www.w3.org/2000/svg"
SVG_OPEN = f'<svg xmlns="{SVG_NS}" viewBox="0 0 600 600">'


def nested_groups(depth: int) -> str:
    """An SVG whose one circle sits `depth` groups deep (~7 characters a level)."""
    return (
        f'<svg xmlns="{SVG_NS}" viewBox="0 0 600 600">' + "<g>" * depth
        + '<circle r="9" opacity="0.5"/>' + "</g>" * depth + "</svg>"
    )  # fmt: skip


def test_a_deep_document_is_walked_without_recursion():
    # 1,990 levels pass the gate (2,000 elements, 20,000 characters); Python's recursion limit
    # is 1,000
    deep = nested_groups(1_990)
    assert svg_gate.check_svg(deep) == []
    assert shapes(deep) == [0.5]
    assert svg_style_measures(deep)["style/shapes"] == 1.0


@pytest.mark.parametrize(
    "reply",
    ["a<think>b</think>c<think>d</think>e", "<think>a<think>b</think>c", "a<think>b", "</think>a",
     "<think></think><think>x</think>", "<think>" * 5 + "</think>" * 2, "no thoughts"],
)  # fmt: skip
def test_think_blocks_are_dropped_as_the_lazy_regex_dropped_them(reply):
    assert without_thinking(reply) == re.sub(r"<think>.*?</think>", "", reply, flags=re.S)


# ---------------------------------------------------------------- the SVG gate reads CSS


def svg_with(extra: str) -> str:
    return f'<svg xmlns="{SVG_NS}" viewBox="0 0 600 600"><circle r="90"/>{extra}</svg>'


def styled(css: str) -> str:
    return svg_with(f"<style>{css}</style>")


def rect(attributes: str) -> str:
    return svg_with(f'<rect width="9" height="9" {attributes}/>')


PNG = "image/png;base64,iVBORw0KGgo"
LOOPBACK = "http://127.0.0.1:9"
# (code, document): each is refused with exactly that code. CSS escapes (CSS Syntax §4.3.7: a
# backslash and 1-6 hex digits and one optional space, or a backslash and any character) and a
# backslash-newline inside a string are decoded before matching, as Chromium decodes them.
HOSTILE_SVG = [
    ("external_reference", styled(f'svg {{ background: image-set("\\64 ata:{PNG}" 1x) }}')),
    ("external_reference", rect(f"style='mask-image: image-set(\"\\64 ata:{PNG}\" 1x)'")),
    ("external_reference", rect("style='mask-image: -webkit-image-set(\"x.png\" 1x)'")),
    ("external_reference", styled(f'svg {{ background: url("\\000064\\61ta:{PNG}") }}')),
    ("external_reference", styled(f'svg {{ background: url("\\44 ata:{PNG}") }}')),
    ("external_reference", styled(f'svg {{ background: url("da\\\nta:{PNG}") }}')),
    ("external_reference", styled(f"svg {{ background: u\\72l({LOOPBACK}/x.png) }}")),
    ("external_reference", styled(f"svg {{ background: url({LOOPBACK}/x.png")),  # never closed
    ("external_reference", styled(f"@\\69mport '{LOOPBACK}/x.css';")),
    ("external_reference", rect(f'fill="\\75rl({LOOPBACK}/p.svg#g)"')),
    ("animation", styled("@keyframes grow { to { r: 300px } } circle { animation: grow 1s }")),
    ("animation", styled("@-webkit-keyframes grow { to { r: 300px } }")),
    ("animation", styled("@\\6b eyframes grow { to { r: 300px } }")),
    ("animation", rect('style="animation-name: grow"')),
]
# Each is accepted: namespace prefixes, escapes that decode to the document's own ids.
ACCEPTED_SVG = [
    f'<svg:svg xmlns:svg="{SVG_NS}" viewBox="0 0 600 600"><svg:circle r="90"/></svg:svg>',
    f'<s:svg xmlns:s="{SVG_NS}"><s:g><s:svg x="9"><s:rect width="9"/></s:svg></s:g></s:svg>',
    svg_with('<defs><linearGradient id="g"/></defs><rect width="9" fill="url(\\23 g)"/>'),
    styled("circle { fill: #c33; stroke-dasharray: 4 } /* no animation here */"),
    rect('style="fill: url(#g)" class="animation-free"'),
]


@pytest.mark.parametrize(("code", "svg"), HOSTILE_SVG)
def test_the_svg_gate_refuses_what_css_escapes_hide(code, svg):
    assert [v.code for v in svg_gate.check_svg(svg)] == [code]


def test_css_escapes_decode_as_the_browser_decodes_them():
    assert svg_gate.unescape_css('image-set("\\64 ata:x")') == 'image-set("data:x")'
    odd = '\\000064\\61ta \\0 \\110000 \\d800 \\\\ \\"'  # 0, past U+10FFFF, a surrogate
    assert svg_gate.unescape_css(odd) == 'data \ufffd\ufffd\ufffd\\ "'
    assert svg_gate.unescape_css('"da\\\r\nta"') == '"data"'


@pytest.mark.parametrize("svg", ACCEPTED_SVG)
def test_the_svg_gate_accepts_namespace_prefixes_and_escaped_own_ids(svg):
    assert svg_gate.check_svg(svg) == [], [v.message for v in svg_gate.check_svg(svg)]
    assert svg_gate.check_reply(svg)[1] == []  # found bare in a reply, whole


# ---------------------------------------------------------------- gate time at the length limits

# The longest reply a recipe allows: 8,192 tokens (conf/model/qwen3_5_35b_a3b.yaml) of up to
# ~8 characters each (`<think>` is one token in Qwen's tokenizer).
REPLY_CHARS = 64_000
SKETCH_CHARS = 20_000  # both gates' max_chars
ROOM = SKETCH_CHARS - 200  # for a body inside a sketch's or document's head and tail


def filled(unit: str, chars: int = ROOM) -> str:
    return unit * (chars // len(unit))


def reply_around(code: str, language: str) -> str:
    """`code` in a fenced block after a closed think block of prose: REPLY_CHARS in all."""
    thinking = filled("I plan the layers first, pale to dark. ", REPLY_CHARS - len(code) - 40)
    return f"<think>{thinking}</think>\n```{language}\n{code}\n```\n"


def js(body: str) -> str:
    """A reply whose sketch holds `body` in its setup()."""
    head = "function setup() {\n  createCanvas(600, 600, WEBGL);\n  brush.circle(0, 0, 90);\n"
    return reply_around(head + body + "\n}", "js")


def svg(body: str) -> str:
    """A reply whose SVG document holds `body`."""
    return reply_around(f'<svg xmlns="{SVG_NS}">{body}<circle r="9"/></svg>', "svg")


def css(text: str) -> str:
    return svg(f"<style>{text[: ROOM - 20]}</style>")


PAINTING_BENIGN = js(filled('  brush.fill("#2a8c58", 180);\n  brush.circle(-230, 40, 150);\n'))
PAINTING_HOSTILE = {
    "unclosed <think>": filled("<think>", REPLY_CHARS),
    "unclosed fences": filled("```js\n", REPLY_CHARS),
    "bare code lines": filled("a(b(c(d)));\n", REPLY_CHARS),
    "createCanvas(WEBGL, repeated": js(filled("createCanvas(WEBGL, ")),
    "unclosed regex classes": js("x = /" + filled("[/")),
    "brush as a value": js(filled("brush ")),
    "open parentheses": js(filled("f(")),
    "nested templates": js("`" + filled("${`")),
    "unclosed strings": js(filled("'\n")),
    "a long word and slashes": js(filled("x", ROOM // 2) + filled(" /", ROOM // 2)),
    "function declarations": js(filled("function f(")),
    "load words": js(filled("loadX ")),
}
SVG_BENIGN = svg(filled('<rect x="40" y="60" width="120" height="80" fill="#2a8c58"/>'))
SVG_HOSTILE = {
    "unclosed <think>": filled("<think>", REPLY_CHARS),
    "unclosed fences": filled("```svg\n", REPLY_CHARS),
    "unclosed <svg tags": filled("<svg ", REPLY_CHARS),
    "unclosed <svg tags, fenced": reply_around(filled("<svg "), "svg"),
    "unclosed quotes in <svg tags": filled('<svg a="', REPLY_CHARS),
    "url( in a style sheet": css(filled("url(")),
    "url(' in a style sheet": css(filled("url('")),
    "url( in an attribute": svg(f'<rect fill="{filled("url(", ROOM - 20)}"/>'),
    "CSS escapes": css(filled("\\64 \\")),
    "image-set( and keyframes": css(filled("image-set(@keyframes ")),
    "animation names": css(filled("-a-animation-name")),
    "data: repeated": css(filled("data:")),
    "deep groups": reply_around(nested_groups(1_990), "svg"),
    "many elements": svg(filled("<rect/>")),
}


def cpu_seconds(check, reply: str, repeats: int = 3) -> float:
    """The least CPU time of `repeats` calls (CPU time: the machine is shared)."""
    times = []
    for _ in range(repeats):
        start = time.process_time()
        check(reply)
        times.append(time.process_time() - start)
    return min(times)


@pytest.mark.parametrize(
    "check, benign, hostile",
    [
        (painting_gate.check_reply, PAINTING_BENIGN, PAINTING_HOSTILE),
        (svg_gate.check_reply, SVG_BENIGN, SVG_HOSTILE),
    ],
    ids=["painting", "svg"],
)
def test_each_gate_is_linear_on_hostile_replies_at_the_length_limits(check, benign, hostile):
    # Speed is measured, not asserted: a sanity bound, relative to a benign reply measured here.
    assert len(benign) <= REPLY_CHARS and all(len(r) <= REPLY_CHARS for r in hostile.values())
    assert check(benign)[1] == []  # the benign reply passes: every check runs on it
    base = cpu_seconds(check, benign)
    ratios = {name: cpu_seconds(check, reply) / base for name, reply in hostile.items()}
    print(f"\nbenign {len(benign):,} chars: {base * 1e3:.1f} ms;",
          ", ".join(f"{name} {ratio:.1f}x" for name, ratio in ratios.items()))  # fmt: skip
    assert max(ratios.values()) <= 20, ratios


STYLE_HOSTILE = {
    "brush.fill( repeated": filled("brush.fill(", REPLY_CHARS),
    "brush.fillBleed( repeated": filled("brush.fillBleed(", REPLY_CHARS),
    "unclosed <svg tags": filled("<svg ", REPLY_CHARS),
    "deep groups": reply_around(nested_groups(1_990), "svg"),
    # the document reading's cascade and <use> (watercolor/tasks/svg/document.py): ~250
    # selectors each tested on ~900 elements, and a <use> chain the browser draws 2**59 times
    "style rules x elements": reply_around(SVG_OPEN + "<style>" + "".join(
        f".a.b{i}{{opacity:1}}" for i in range(250)) + "</style>" + '<g class="a"/>' * 900
        + '<circle r="90"/></svg>', "svg"),
    "use chain": reply_around(SVG_OPEN + '<defs><g id="u0"><circle r="90"/></g>' + "".join(
        f'<g id="u{i}"><use href="#u{i - 1}"/><use href="#u{i - 1}"/></g>' for i in range(1, 60))
        + "</defs>" + '<use href="#u59"/>' * 50 + "</svg>", "svg"),
}  # fmt: skip


@pytest.mark.parametrize(
    "measures, benign",
    [(painting_style, PAINTING_BENIGN), (svg_style_measures, SVG_BENIGN)],
    ids=["painting", "svg"],
)
def test_each_tasks_style_measures_are_linear_on_hostile_replies(measures, benign):
    base = cpu_seconds(measures, benign)
    ratios = {name: cpu_seconds(measures, reply) / base for name, reply in STYLE_HOSTILE.items()}
    print(f"\nbenign {base * 1e3:.1f} ms;", ", ".join(f"{n} {r:.1f}x" for n, r in ratios.items()))
    assert max(ratios.values()) <= 20, ratios
