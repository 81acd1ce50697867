"""What the two tasks share (`watercolor.tasks.parts`): the prompt split, the chat and revision
messages, the feedback's first lines and the blank-canvas refusal."""

import pytest

from tests.rewards import synthetic_canvases as paint
from watercolor.canvas import Canvas, Status
from watercolor.tasks.parts import (
    blank_canvas,
    chat,
    check_split,
    how_it_went,
    prompt_split,
    revision_turns,
)

HOW_IT_ENDED = {status: f"it ended {status}" for status in Status}


def test_a_held_out_subject_is_held_out_and_one_in_n_of_the_rest_by_its_text():
    texts = [f"draw a coral thing number {i}" for i in range(2000)]
    splits = [prompt_split(t, subject_held_out=False, one_in=10) for t in texts]
    assert 0.07 < splits.count("heldout") / len(texts) < 0.13
    assert splits == [prompt_split(t, False, 10) for t in texts]  # the text decides, every time
    assert {prompt_split(t, subject_held_out=True, one_in=10) for t in texts} == {"heldout"}
    # Pinned: a prompt's split is the same on every machine and in every release.
    assert prompt_split("paint a peach hibiscus in watercolour", False, 10) == "train"
    assert prompt_split("paint a lavender hibiscus in watercolour", False, 10) == "heldout"


def test_an_unknown_split_is_refused():
    check_split("train")
    check_split("heldout")
    with pytest.raises(ValueError, match="unknown split 'test'"):
        check_split("test")


def test_chat_and_revision_turns():
    messages = chat("You paint.", "paint a fig")
    assert messages == [
        {"role": "system", "content": "You paint."},
        {"role": "user", "content": "paint a fig"},
    ]
    turns = revision_turns(messages, "a draft", "revise it")
    assert turns[:2] == messages
    assert turns[2:] == [
        {"role": "assistant", "content": "a draft"},
        {"role": "user", "content": "revise it"},
    ]


@pytest.mark.parametrize(
    ("canvas", "lines"),
    [
        (Canvas(Status.OK), ["it ended ok"]),
        (Canvas(Status.VIOLATION, violations=["no_setup"], errors=["no setup()."]),
         ["it ended violation", "- no setup()."]),
        (Canvas(Status.VIOLATION, violations=["no_setup", "too_long"]),  # no sentences: codes
         ["it ended violation", "- no_setup", "- too_long"]),
        (Canvas(Status.ERROR, errors=["TypeError (sketch.js:3:1)", "later"]),
         ["it ended error", "First error: TypeError (sketch.js:3:1)"]),
        (Canvas(Status.INFRA_ERROR, errors=["browser gone"]), ["it ended infra_error"]),
    ],
)  # fmt: skip
def test_how_it_went(canvas, lines):
    assert how_it_went(canvas, HOW_IT_ENDED) == lines


def test_a_blank_canvas_is_refused_with_the_tasks_advice():
    assert blank_canvas(paint.layered_watercolour()) == []
    assert blank_canvas(Canvas(Status.ERROR)) == []  # no pixels: nothing to call blank
    (plain,) = blank_canvas(paint.blank())
    (advised,) = blank_canvas(paint.blank(), "draw darker")
    assert plain.code == advised.code == "blank_canvas"
    assert plain.message.startswith("only 0.00% of the canvas is painted (at least 0.5% needed")
    assert plain.message.endswith("needed).")
    assert advised.message == plain.message.removesuffix(".") + "; draw darker."
