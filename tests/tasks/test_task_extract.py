"""Finding the sketch in a model reply: fenced js first, bare code second, prose is nothing."""

import pytest

from watercolor.tasks.painting.gate import check_reply, extract_sketch

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
