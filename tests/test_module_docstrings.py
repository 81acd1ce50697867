"""Module docstrings say what a module is for and how to call it, in a few lines; the reasons
behind the code sit beside it as comments, and long explanations in docs/ (issue 55 item 3).
A docstring is measured as the lines its string literal spans, quotes included."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "watercolor"
MOST_LINES = 40
LONG, MOST_LONG = 25, 10  # "a dozen lines for most": at most 10 docstrings over 25 lines
# Over the limit still, each to be cut (then taken off this list, which may only shrink).
NOT_YET: set[str] = set()


def docstring_lines(source: str) -> int:
    """The lines the module's docstring spans (0: it has none)."""
    body = ast.parse(source).body
    first = body[0] if body else None
    if not (isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant)):
        return 0
    if not isinstance(first.value.value, str):
        return 0
    return first.end_lineno - first.lineno + 1


def test_no_module_docstring_is_over_40_lines():
    over = {
        str(path.relative_to(PACKAGE)): lines
        for path in sorted(PACKAGE.rglob("*.py"))
        if (lines := docstring_lines(path.read_text())) > MOST_LINES
    }
    assert set(over) <= NOT_YET, (
        f"module docstrings over {MOST_LINES} lines (move the reasons beside the code they "
        f"explain, the long explanations to docs/): { {k: over[k] for k in set(over) - NOT_YET} }"
    )
    assert set(over) >= NOT_YET, f"cut to size, take them off NOT_YET: {NOT_YET - set(over)}"


def test_at_most_ten_module_docstrings_run_over_25_lines():
    long = {
        str(path.relative_to(PACKAGE)): lines
        for path in sorted(PACKAGE.rglob("*.py"))
        if (lines := docstring_lines(path.read_text())) > LONG
    }
    assert len(long) <= MOST_LONG, f"{len(long)} module docstrings over {LONG} lines: {long}"


@pytest.mark.parametrize(
    ("source", "lines"),
    [('"""One line."""\n', 1), ('"""A\n\nB\n"""\nx = 1\n', 4), ("x = 1\n", 0), ("", 0)],
)
def test_a_docstring_is_measured_by_the_lines_it_spans(source, lines):
    assert docstring_lines(source) == lines
