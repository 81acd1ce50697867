"""The static gate: find the sketch in a reply and refuse what the task does not pay for.

    >>> from watercolor.tasks.painting.gate import check_reply
    >>> reply = "```js\\nfunction setup() { createCanvas(600, 600); rect(0, 0, 9, 9); }\\n```"
    >>> sketch, violations = check_reply(reply)
    >>> [v.code for v in violations]
    ['not_webgl', 'bare_primitive', 'no_painting']

A reply is refused before any rendering when it has no sketch, was cut off, is too long, lacks
`setup` or a WEBGL canvas, reaches outside the page, writes text, draws with bare p5 primitives,
calls brush methods the library lacks or the task does not allow, aliases `brush`, or never
paints; after rendering, `check_canvas` refuses a blank canvas. Each rule and its code: the
comment above `check_sketch`.

What this isolates: nothing. The gate is the task's policy (what earns a reward), matched on
the code with comments and literals blanked (`jsscan`), and it can be fooled by obfuscation.
Every scan is linear in the reply's length: tests/tasks/test_hostile_input.py measures the
gate on hostile replies (thousands of unclosed tags, calls or regex classes) at the limits.
The safety boundary is the renderer's browser (no network, no files, time and memory bounds).
Why a lexical scan (`jsscan`) and not a parser: the comment after the imports.
"""

from __future__ import annotations

import bisect
import re
import string
from collections.abc import Iterable
from dataclasses import dataclass

from watercolor.canvas import Canvas
from watercolor.rewards.pixels import painted_fraction as painted_fraction  # the task's measure
from watercolor.tasks.episode import Violation, fenced_blocks, without_thinking
from watercolor.tasks.painting.assets import brush_methods
from watercolor.tasks.painting.jsscan import Scan, scan
from watercolor.tasks.parts import blank_canvas

# Why a lexical scan and not a parser (e.g. tree-sitter's JavaScript grammar), issue 10: what we
# tried against it (computed members `brush["rect"]`, string-built names, names in comments and
# strings, `brush . rect` across spaces and lines) is already caught or rightly ignored; the one
# evasion found, an alias (`const b = brush; b.rect()`), a parser alone does not catch either (it
# needs data flow) and is refused here as `brush_alias`. A parser would add a native dependency for
# what the scan does in 160 lines.


def _names(words: str) -> frozenset[str]:
    return frozenset(words.split())


# The anchor's allow-list: string-free fill and shape methods (no named brushes to invent).
ANCHOR_BRUSH_METHODS = _names(
    "fill fillBleed fillTexture noFill noStroke beginShape vertex endShape circle scaleBrushes"
)
# Brush calls that put paint on the canvas; a sketch without one paints nothing.
PAINTING_METHODS = _names("circle endShape rect polygon line arc spline flowLine endStroke")
# p5 drawing and colour calls that bypass p5.brush (plus raw pixel and shader routes).
BARE_PRIMITIVES = _names(
    "point line rect square ellipse circle arc triangle quad bezier curve spline beginShape "
    "endShape vertex bezierVertex curveVertex quadraticVertex splineVertex beginContour "
    "endContour box sphere plane cylinder cone torus ellipsoid model image texture fill "
    "stroke updatePixels createGraphics createFramebuffer createShader shader filter"
)
TEXT_CALLS = _names(
    "text textFont textSize textAlign textStyle textLeading textWrap textWidth textToPoints "
    "textToContours"
)


@dataclass(frozen=True)
class GateRules:
    """What the gate accepts. `allowed_brush_methods=None` accepts anything p5.brush exports."""

    allowed_brush_methods: frozenset[str] | None = ANCHOR_BRUSH_METHODS
    ban_bare_primitives: bool = True
    max_chars: int = 20_000

    def __post_init__(self) -> None:
        # YAML gives lists; keep the rules hashable and the lookups set-fast.
        if self.allowed_brush_methods is not None:
            object.__setattr__(self, "allowed_brush_methods", frozenset(self.allowed_brush_methods))


DEFAULT_RULES = GateRules()  # the anchor's rules


# ---------------------------------------------------------------- extraction

_JS_TAGS = frozenset({"js", "javascript", "jsx", "mjs", "p5", "p5js", "p5.js"})
# A line that starts JavaScript: a declaration, a comment, a directive or a complete call.
_CODE_LINE = re.compile(
    r"^[ \t]*(?:(?:async\s+)?function\b|(?:const|let|var|class)\s+[\w$]|//|/\*|"
    r"[\"']use strict|[A-Za-z_$][\w$.]*\s*\(.*\)\s*;[ \t]*$)",
    re.M,
)


def extract_sketch(reply: str) -> str | None:
    """The first fenced js/javascript block, else the reply's code if it is bare code, else None."""
    return _find_sketch(reply)[0]


def _find_sketch(reply: str) -> tuple[str | None, bool]:
    """(sketch or None, whether its fence was closed)."""
    text = without_thinking(reply)
    blocks = fenced_blocks(text)
    if blocks:
        for tag, body, closed in blocks:
            if tag in _JS_TAGS or (tag == "" and _CODE_LINE.search(body)):
                return (body if body.strip() else None), closed
        return None, True
    start = _CODE_LINE.search(text)
    return (text[start.start() :].strip() + "\n" if start else None), True


# ---------------------------------------------------------------- the reply gate


def check_reply(reply: str, rules: GateRules = DEFAULT_RULES) -> tuple[str | None, list[Violation]]:
    """Extract the sketch and list every rule it breaks (empty list: it may be rendered)."""
    sketch, fence_closed = _find_sketch(reply)
    if sketch is None:
        return None, [Violation("no_sketch", "the reply contains no JavaScript sketch.")]
    if len(sketch) > rules.max_chars:
        size, limit = len(sketch), rules.max_chars
        message = f"the sketch has {size:,} characters, over the limit of {limit:,}."
        return sketch, [Violation("too_long", message)]
    return sketch, check_sketch(sketch, rules, fence_closed=fence_closed)


# A reply is refused before any rendering when it has no sketch (`no_sketch`), was cut off
# (`truncated`), is over `GateRules.max_chars` (`too_long`), lacks `setup` (`no_setup`) or a WEBGL
# canvas (`not_webgl`), reaches outside the page (`external_access`: loaders, fetch, XHR, sockets,
# eval, DOM, URLs and data URIs), writes text (`text_label`), draws with bare p5 primitives
# (`bare_primitive`), calls brush methods the library lacks (`unknown_brush_method`) or the task
# does not allow (`disallowed_brush_method`; p5.brush's `no*` methods, which only turn a setting
# off, are always allowed), uses `brush` as a value so its calls cannot be checked (`brush_alias`,
# under an allow-list), or never paints (`no_painting`). After rendering, `check_canvas` refuses a
# canvas that is (almost) all paper (`blank_canvas`), by the reward components' own definition of
# the sheet and of paint (`watercolor.rewards.pixels`: whatever the sketch laid down as its
# background is the sheet), so the task and every component agree on what is blank.
def check_sketch(
    sketch: str, rules: GateRules = DEFAULT_RULES, *, fence_closed: bool = True
) -> list[Violation]:
    """Every static rule `sketch` (raw JavaScript) breaks, in a fixed order."""
    source = scan(sketch)
    calls = _call_sites(source.code)
    declared = {name for names in _DECLARED.findall(source.code) for name in names if name}
    found = [
        _truncated(source, fence_closed),
        _instance_mode(source.code),
        _no_setup(source.code),
        _not_webgl(source.code),
        _external_access(source),
        _text_label(source.code, calls, declared),
        _bare_primitive(source.code, calls, declared) if rules.ban_bare_primitives else None,
        *_brush_violations(source.code, rules.allowed_brush_methods),
        _no_painting(source.code),
    ]
    return [v for v in found if v is not None]


def _line(code: str, offset: int) -> int:
    return code.count("\n", 0, offset) + 1


def _lines(code: str, offsets: list[int]) -> list[int]:
    """The line of each of `offsets` (ascending), counted in one pass."""
    lines, line, at = [], 1, 0
    for offset in offsets:
        line, at = line + code.count("\n", at, offset), offset
        lines.append(line)
    return lines


def _names_with_lines(code: str, hits: Iterable[tuple[str, int]], limit: int = 4) -> str:
    """'rect() (line 3), fill() (line 4)' for the first occurrence of each name."""
    first: dict[str, int] = {}
    for name, offset in hits:
        first.setdefault(name, offset)
    parts = [f"{name} (line {_line(code, at)})" for name, at in list(first.items())[:limit]]
    more = len(first) - limit
    return ", ".join(parts) + (f" and {more} more" if more > 0 else "")


# -- truncation

_OPENERS = {"{": "}", "(": ")", "[": "]"}
_IDENTIFIER_CHARS = string.ascii_letters + string.digits + "_$"
_NEEDS_MORE = _names("function let const var return new if else for while")


def _ends_mid_statement(code: str) -> bool:
    """Whether the code stops after an operator or a keyword that needs something after it."""
    tail = code.rstrip()
    if tail.endswith(("++", "--")):
        return False
    last_word = tail[len(tail.rstrip(_IDENTIFIER_CHARS)) :]
    return tail[-1:] in set("=+-*%&|^!<>?:,.(") or last_word in _NEEDS_MORE


def _truncated(source: Scan, fence_closed: bool) -> Violation | None:
    code, reason = source.code, None
    if not fence_closed:
        reason = "its code block is never closed"
    elif source.unterminated:
        reason = f"it ends inside an unterminated {source.unterminated}"
    elif unclosed := [o for o, c in _OPENERS.items() if code.count(o) > code.count(c)]:
        reason = "it leaves " + " and ".join(f"'{o}'" for o in unclosed) + " unclosed"
    elif _ends_mid_statement(code):
        reason = "it stops in the middle of a statement"
    return Violation("truncated", f"the sketch looks cut off: {reason}.") if reason else None


# -- skeleton

_SETUP = re.compile(r"(?<![\w$.])function\s+setup\s*\(|(?<![\w$])setup\s*=(?!=)")


def _no_setup(code: str) -> Violation | None:
    if _SETUP.search(code):
        return None
    return Violation("no_setup", "the sketch defines no setup() function.")


_NEW_P5 = re.compile(r"(?<![\w$.])new\s+p5\s*\(")


def _instance_mode(code: str) -> Violation | None:
    if not _NEW_P5.search(code):
        return None
    return Violation(
        "instance_mode",
        "the sketch uses p5 instance mode (new p5(...)); write it in global mode: "
        "function setup() { createCanvas(600, 600, WEBGL); ... } with brush.* calls.",
    )


def _closing_parens(code: str) -> dict[int, int]:
    """Where each parenthesis closes, by where it opens (one never closed is left out)."""
    closing, opened = {}, []
    for k, c in enumerate(code):
        if c == "(":
            opened.append(k)
        elif c == ")" and opened:
            closing[opened.pop()] = k
    return closing


def _not_webgl(code: str) -> Violation | None:
    canvases = [m.end() - 1 for m in re.finditer(r"(?<![\w$])createCanvas\s*\(", code)]
    if not canvases:
        return Violation("not_webgl", "the sketch never calls createCanvas(600, 600, WEBGL).")
    # Each call's arguments run to its closing parenthesis (or the end): found in one pass, and
    # WEBGL looked up by position, so nested calls are not read again each (issue 44).
    closing, webgl = _closing_parens(code), [m.start() for m in _WEBGL.finditer(code)]
    ends = [closing.get(start, len(code)) for start in canvases]
    if all(_any_between(webgl, start, end) for start, end in zip(canvases, ends, strict=True)):
        return None
    return Violation(
        "not_webgl", "createCanvas() has no WEBGL argument; p5.brush paints only in WEBGL mode."
    )


_WEBGL = re.compile(r"\bWEBGL\b")


def _any_between(sorted_offsets: list[int], start: int, end: int) -> bool:
    k = bisect.bisect_right(sorted_offsets, start)
    return k < len(sorted_offsets) and sorted_offsets[k] < end


# -- external access

_EXTERNAL_CODE = [
    re.compile(p)
    for p in (
        r"(?<![\w$])load(?!Pixels\b)[A-Z][\w$]*\s*\(",
        r"(?<![\w$])(?:fetch|eval|Function|importScripts|require|Worker|SharedWorker)\s*\(",
        r"(?<![\w$.])import\b",
        r"(?<![\w$])(?:XMLHttpRequest|WebSocket|EventSource|navigator|sendBeacon|document)\b",
        r"(?<![\w$])(?:localStorage|sessionStorage|indexedDB|postMessage)\b",
        r"(?<![\w$])(?:innerHTML|outerHTML|insertAdjacentHTML)\b",
        r"(?<![\w$])create(?:Element|Img|Div|P|Span|A|Button|Input|Select|Slider|Checkbox|"
        r"Radio|ColorPicker|FileInput|Video|Audio|Capture)\s*\(",
        r"(?<![\w$])window\s*\.\s*(?:open|location)\b",
        r"(?<![\w$])location\s*\.\s*(?:href|assign|replace|reload)\b",
        r"(?<![\w$])(?:window|globalThis)\s*\[",
        r"(?<![\w$])set(?:Timeout|Interval)\s*\(\s*[\"'`]",
    )
]
_EXTERNAL_STRING = [
    (re.compile(r"(?:https?|wss?|ftp|file)://", re.I), "a URL"),
    (re.compile(r"^\s*(?:blob|javascript):|data:[\w.+-]*[/;,]", re.I), "a data:/blob: URI"),
    (
        re.compile(
            r"^\s*(?:constructor|fetch|eval|Function|XMLHttpRequest|WebSocket|import|document|"
            r"location|cookie)\s*$"
        ),
        "a string naming a forbidden global",
    ),
]


def _external_access(source: Scan) -> Violation | None:
    hits = [
        (re.sub(r"\s+", "", m.group(0)).rstrip("\"'`").replace("(", "()"), m.start())
        for pattern in _EXTERNAL_CODE
        for m in pattern.finditer(source.code)
    ]
    what = [_names_with_lines(source.code, sorted(hits, key=lambda h: h[1]))] if hits else []
    what += [label for regex, label in _EXTERNAL_STRING if any(map(regex.search, source.strings))]
    if not what:
        return None
    return Violation(
        "external_access", f"the sketch reaches outside the canvas: {', '.join(what)}."
    )


# -- calls by name

_CALL = re.compile(r"(?<![\w$])([A-Za-z_$][\w$]*)\s*\(")
# Names the sketch defines itself: `function f(`, `const f =`, `f = (...) =>`, class methods
# `f(a, b) {`. A call to one of them is the sketch's own helper, not a p5 primitive.
_DECLARED = re.compile(
    r"(?<![\w$.])(?:function\s*\*?\s*([A-Za-z_$][\w$]*)|(?:const|let|var)\s+([A-Za-z_$][\w$]*)"
    r"|([A-Za-z_$][\w$]*)\s*=\s*(?:function\b|\([^()]*\)\s*=>|[\w$]+\s*=>)"
    r"|([A-Za-z_$][\w$]*)\s*\([^()]*\)\s*\{)"
)


Calls = list[tuple[str, int, bool]]  # (name, offset, bare) of every call site


def _call_sites(code: str) -> Calls:
    """Every `name(` in `code`; bare means not a method call (`x.name(`, `x . name(`)."""
    sites = []
    for m in _CALL.finditer(code):
        k = m.start() - 1
        while k >= 0 and code[k].isspace():
            k -= 1
        sites.append((m.group(1), m.start(), k < 0 or code[k] != "."))
    return sites


def _bare_hits(calls: Calls, names: frozenset[str], declared: set[str]) -> list[tuple[str, int]]:
    """Bare calls to `names`, skipping names the sketch defines itself (its own `circle()`)."""
    return [(f"{n}()", at) for n, at, bare in calls if bare and n in names and n not in declared]


def _text_label(code: str, calls: Calls, declared: set[str]) -> Violation | None:
    hits = _bare_hits(calls, TEXT_CALLS, declared)
    hits += [(f"{n}()", at) for n, at, _ in calls if n in ("fillText", "strokeText")]
    if not hits:
        return None
    where = _names_with_lines(code, hits)
    return Violation("text_label", f"the sketch writes text ({where}); paint, do not label.")


def _bare_primitive(code: str, calls: Calls, declared: set[str]) -> Violation | None:
    hits = _bare_hits(calls, BARE_PRIMITIVES, declared)
    hits += [("drawingContext", m.start()) for m in re.finditer(r"\bdrawingContext\b", code)]
    if not hits:
        return None
    where = _names_with_lines(code, sorted(hits, key=lambda h: h[1]))
    return Violation(
        "bare_primitive", f"bare p5 drawing calls are not allowed: {where}; use brush.* methods."
    )


# -- brush methods

_BRUSH_MEMBER = re.compile(r"(?<![\w$.])brush\s*\??\.\s*([A-Za-z_$][\w$]*)|(?<![\w$.])brush\s*\[")
# `brush` as a value (`const b = brush`, `f(brush)`): its calls could not be checked.
_BRUSH_VALUE = re.compile(r"(?<![\w$.])brush(?![\w$])(?!\s*\??\.)(?!\s*\[)")


def state_resets() -> frozenset[str]:
    """p5.brush's `no*` methods (noWash, noField, noHatch, ...): they only turn a setting off,
    so they cannot paint, name a brush or reach outside. The gate accepts them whatever the
    allow-list says: a sketch that tidies up after itself is not breaking the task's rules."""
    return frozenset(name for name in brush_methods() if re.fullmatch(r"no[A-Z]\w*", name))


def _brush_violations(code: str, allowed: frozenset[str] | None) -> list[Violation]:
    members = [(m.group(1) or "[...]", m.start()) for m in _BRUSH_MEMBER.finditer(code)]
    exported = brush_methods() | {"[...]"}  # a computed name may be any method: allow-list it
    unknown = [(f"brush.{n}", at) for n, at in members if n not in exported]
    out = []
    if unknown:
        where = _names_with_lines(code, unknown)
        message = f"p5.brush has no such method: {where}."
        out.append(Violation("unknown_brush_method", message))
    if allowed is not None:
        if aliases := _lines(code, [m.start() for m in _BRUSH_VALUE.finditer(code)]):
            lines = ", ".join(map(str, sorted(set(aliases))))
            message = (f"`brush` is used as a value (line {lines}), which hides the methods it "
                       "calls; call them as brush.method(...).")  # fmt: skip
            out.append(Violation("brush_alias", message))
        allowed = allowed | state_resets()
        extra = [(f"brush.{n}", at) for n, at in members if n in exported and n not in allowed]
        if extra:
            where = _names_with_lines(code, extra)
            message = f"brush methods outside the allow-list: {where}."
            out.append(Violation("disallowed_brush_method", message))
    return out


_PAINT_CALL = re.compile(
    r"(?<![\w$.])brush\s*\??\.\s*(" + "|".join(sorted(PAINTING_METHODS)) + r")\s*\("
)


def _no_painting(code: str) -> Violation | None:
    if _PAINT_CALL.search(code):
        return None
    return Violation(
        "no_painting", "the sketch never paints a shape (brush.circle() or brush.endShape())."
    )


# ---------------------------------------------------------------- the canvas gate


def check_canvas(canvas: Canvas) -> list[Violation]:
    """`blank_canvas` when the canvas is blank: `not View.painted`, as every component reads it."""
    return blank_canvas(canvas)
