"""Hostile replies outside the browser (issue 44): what Python reads of model-written text must
neither recurse nor scan super-linearly, and one reply it cannot read never costs the others
their verdicts. Each case names the outcome it must have; the browser's own sandbox is tested in
tests/render/test_sandbox.py."""

from __future__ import annotations

from watercolor.tasks.svg.rewards import shapes
from watercolor.tasks.svg.style import style_measures

SVG_NS = "http://www.w3.org/2000/svg"


def nested_groups(depth: int) -> str:
    """An SVG whose one circle sits `depth` groups deep (~7 characters a level)."""
    return (
        f'<svg xmlns="{SVG_NS}" viewBox="0 0 600 600">' + "<g>" * depth
        + '<circle r="9" opacity="0.5"/>' + "</g>" * depth + "</svg>"
    )  # fmt: skip


def test_a_deep_document_is_walked_without_recursion():
    # ~2,800 levels fit the gate's 20,000 characters; Python's recursion limit is 1,000
    deep = nested_groups(2_800)
    assert shapes(deep) == [0.5]
    assert style_measures(deep)["style/shapes"] == 1.0
