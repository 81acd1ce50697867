"""The environment's feedback text: what it says for each way a render ends, and its length cap.

Pure tests on Canvas and Score values; `test_feedback_on_real_renders` paints real sketches
(a refused one, a throwing one, a clean one) and reads the feedback of what the browser said.
"""

import pytest

from watercolor.canvas import Canvas, Status
from watercolor.rewards.reward_set import Score
from watercolor.tasks.painting.episode import paint
from watercolor.tasks.painting.feedback import (
    MAX_CHARS,
    feedback,
    revision_conversation,
    revision_request,
)
from watercolor.tasks.painting.prompts import conversation

GATE_MESSAGE = "bare p5 primitives are not watercolour: rect() on line 4."
ERROR = "TypeError: brush.wash is not a function (sketch.js:7:9)"


@pytest.mark.parametrize(
    ("canvas", "says", "never"),
    [
        (Canvas(Status.VIOLATION, violations=["bare_primitive"], errors=[GATE_MESSAGE]),
         ["refused", GATE_MESSAGE], ["bare_primitive"]),
        (Canvas(Status.ERROR, errors=[ERROR, "a later error"]),
         ["threw", f"First error: {ERROR}", "Nothing painted."], ["a later error", "kept"]),
        (Canvas(Status.ERROR, png=b"png", errors=[ERROR]),  # painted, then threw
         ["threw", "What it painted before that is kept."], ["Nothing painted"]),
        (Canvas(Status.TIMEOUT, errors=["the sketch ran past 10 s"]), ["time limit"], []),
        (Canvas(Status.CRASHED), ["crashed"], []),
        (Canvas(Status.INFRA_ERROR, errors=["browser gone"]), ["not the sketch's"], ["browser"]),
        (Canvas(Status.OK), ["ran and painted"], ["Scores"]),
    ],
)  # fmt: skip
def test_feedback_says_how_the_render_ended(canvas, says, never):
    text = feedback(canvas)
    assert all(part in text for part in says), text
    assert not any(part in text for part in never), text


def test_feedback_names_and_rounds_every_component_with_the_total():
    score = Score(0.61234, {"coverage": 0.4167, "edge_softness": 0.8333, "hps": None}, True)
    text = feedback(Canvas(Status.OK), score)
    assert text.endswith("total 0.61; coverage 0.42, edge_softness 0.83, hps n/a"), text


def test_a_score_without_verdict_says_so():
    text = feedback(Canvas(Status.OK), Score(None, {"coverage": 0.5}, True))
    assert "total no verdict" in text


@pytest.mark.parametrize("max_chars", [120, MAX_CHARS])
def test_feedback_stays_within_its_cap_and_cuts_at_a_whole_component(max_chars):
    components = {f"component_number_{i}": i / 97 for i in range(60)}
    messages = [f"violation {i}: " + "x" * 40 for i in range(3)]
    for canvas in (Canvas(Status.OK), Canvas(Status.VIOLATION, errors=messages)):
        text = feedback(canvas, Score(0.5, components, True), max_chars=max_chars)
        assert len(text) <= max_chars, (len(text), text)
        if "Scores" in text:
            assert text.endswith(", ..."), text
            listed = text.split("; ", 1)[1].removesuffix(", ...").split(", ")
            assert all(part.startswith("component_number_") for part in listed), listed


def test_a_long_gate_message_is_cut_to_the_cap():
    text = feedback(Canvas(Status.VIOLATION, errors=["y" * 2000]), max_chars=200)
    assert len(text) <= 200 and text.endswith("...")


def test_the_revision_turn_carries_the_feedback_after_the_draft():
    task = conversation("paint a red fox in watercolour")
    turns = revision_conversation(task, "```js\nfunction setup() {}\n```", "The sketch threw.")
    assert turns[: len(task)] == task
    assert turns[-2] == {"role": "assistant", "content": "```js\nfunction setup() {}\n```"}
    assert turns[-1] == {"role": "user", "content": revision_request("The sketch threw.")}
    assert "The sketch threw." in turns[-1]["content"]


THROWS = """```js
function setup() {
  createCanvas(600, 600, WEBGL);
  background("#f3ead6");
  brush.scaleBrushes(3);
  let wash = null;
  brush.circle(0, 0, wash.radius);
}
```"""


async def test_feedback_on_real_renders(painting_pool):
    refused = await paint(painting_pool, "no code here")
    threw = await paint(painting_pool, THROWS)
    assert "refused" in feedback(refused) and refused.errors[0] in feedback(refused)
    text = feedback(threw)
    assert threw.status == Status.ERROR and "First error:" in text
    assert "sketch.js:6:" in text, text  # the harness's place of the error reaches the painter
