"""A lexical pass over JavaScript: blank out comments and literals, keep the code.

    >>> from watercolor.tasks.painting.jsscan import scan
    >>> s = scan('brush.fill("#ff0000", 80); // rect(0, 0, 9, 9)')
    >>> s.code
    'brush.fill("       ", 80);                    '
    >>> s.strings
    ('#ff0000',)

The static gate matches identifiers such as `rect(` or `fetch(`; doing that on raw text flags
words inside comments and strings (`// no rect() here`). `scan` returns the source with every
comment and every string, template and regex literal body replaced by spaces (same length,
newlines kept, so offsets and line numbers still point at the source), plus the literal bodies
for the checks that look inside strings (URLs, data URIs), plus where the text stopped in the
middle of a literal or comment (a sign of a truncated reply).

Not a parser: regex literals are told from division by the previous token, the usual
heuristic; ambiguous code that fools it only makes the gate see a few more or fewer names.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

# After these words a `/` starts a regex literal, not a division.
_REGEX_KEYWORDS = frozenset(
    ("return", "typeof", "instanceof", "in", "of", "new", "delete", "void", "throw", "case")
    + ("do", "else", "yield", "await")
)
_WORD_CHARS = re.compile(r"[\w$]")


@dataclass(frozen=True)
class Scan:
    code: str  # the source with comment and literal bodies blanked (quotes kept)
    strings: tuple[str, ...]  # bodies of string, template and regex literals, in order
    unterminated: str | None  # "comment", "string", "template" or "regex" if the text ends in one


class _Scanner:
    """One left-to-right pass; `out` is the source being blanked in place."""

    def __init__(self, source: str) -> None:
        self.src = source
        self.out = list(source)
        self.strings: list[str] = []
        self.unterminated: str | None = None
        self.templates: list[int] = []  # brace depth inside each open `${ ... }`
        self.last = -1  # index of the last significant code character
        # A `/` before here is a division: a regex literal tried from an earlier `/` on this
        # line found no end, so trying each later `/` would read the line again (quadratic).
        self.no_regex_before = -1

    def blank(self, start: int, end: int) -> None:
        for k in range(start, end):
            if self.out[k] != "\n":
                self.out[k] = " "

    def run(self) -> Scan:
        i, src = 0, self.src
        while i < len(src):
            i = self.step(i, src[i], src[i + 1 : i + 2])
        if self.templates and self.unterminated is None:
            self.unterminated = "template"  # the text ends inside a `${ ... }`
        return Scan("".join(self.out), tuple(self.strings), self.unterminated)

    def step(self, i: int, c: str, nxt: str) -> int:
        """Consume the token at `i`; return where the next one starts."""
        if c == "/" and nxt in ("/", "*"):
            return self.comment(i, nxt)
        if c in "'\"":
            return self.string(i, c)
        if c == "`":
            return self.template_part(i + 1)
        if c == "/" and i > self.no_regex_before and self.regex_allowed():
            return self.regex(i)
        if self.templates and c in "{}":
            if c == "}" and self.templates[-1] == 0:
                self.templates.pop()  # end of `${ ... }`: back inside the template
                return self.template_part(i + 1)
            self.templates[-1] += 1 if c == "{" else -1
        if not c.isspace():
            self.last = i
        return i + 1

    def comment(self, i: int, kind: str) -> int:
        if kind == "/":
            end = self.src.find("\n", i)
            end = len(self.src) if end < 0 else end
        else:
            close = self.src.find("*/", i + 2)
            if close < 0:
                self.unterminated = "comment"
            end = len(self.src) if close < 0 else close + 2
        self.blank(i, end)
        return end

    def string(self, i: int, quote: str) -> int:
        k = i + 1
        while k < len(self.src) and self.src[k] not in (quote, "\n"):
            k += 2 if self.src[k] == "\\" else 1
        if k >= len(self.src) or not self.src[k:].strip():  # only a newline after it: cut off
            self.unterminated = "string"
        self.literal(i + 1, min(k, len(self.src)))
        self.last = min(k, len(self.src) - 1)
        return k + 1

    def template_part(self, start: int) -> int:
        """Scan template text from `start` to the closing backtick or the next `${`."""
        k = start
        while k < len(self.src) and self.src[k] != "`" and not self.src.startswith("${", k):
            k += 2 if self.src[k] == "\\" else 1
        self.literal(start, min(k, len(self.src)))
        if k >= len(self.src):
            self.unterminated = "template"
            return len(self.src)
        if self.src[k] == "$":
            self.templates.append(0)
            self.last = k + 1
            return k + 2
        self.last = k
        return k + 1

    def regex(self, i: int) -> int:
        k, in_class = i + 1, False
        while k < len(self.src) and self.src[k] != "\n":
            c = self.src[k]
            if c == "\\":
                k += 2
                continue
            if c == "/" and not in_class:
                break
            in_class = (in_class or c == "[") and c != "]"
            k += 1
        if k >= len(self.src):
            self.unterminated = "regex"
        elif self.src[k] == "\n":  # not a regex after all: a lone `/`
            self.last, self.no_regex_before = i, k
            return i + 1
        self.literal(i + 1, min(k, len(self.src)))
        self.last = min(k, len(self.src) - 1)
        return k + 1

    def literal(self, start: int, end: int) -> None:
        self.strings.append(self.src[start:end])
        self.blank(start, end)

    def regex_allowed(self) -> bool:
        """Whether a `/` here starts a regex literal (judged by the previous token)."""
        if self.last < 0:
            return True
        prev = self.src[self.last]
        if prev in ")]}" or prev in "'\"`":
            return False
        if not _WORD_CHARS.match(prev):
            return True
        start = self.last
        while start > 0 and _WORD_CHARS.match(self.src[start - 1]):
            start -= 1
        return self.src[start : self.last + 1] in _REGEX_KEYWORDS


def scan(source: str) -> Scan:
    """Blank comments and literal bodies in `source`; see the module docstring."""
    return _Scanner(source).run()
