"""The prompt set: deterministic, disjoint splits, colours readable back from the text."""

import json
import os
import random
import re
import subprocess
import sys

import pytest

from watercolor.tasks.painting.gate import ANCHOR_BRUSH_METHODS, check_reply
from watercolor.tasks.painting.prompts import (
    COLOURS,
    HELD_OUT_SUBJECTS,
    SUBJECTS,
    SYSTEM_PROMPT,
    conversation,
    prompt_colours,
    prompt_records,
    prompts,
    sample_prompt,
)


def test_splits_are_disjoint_and_cover_every_pair():
    train, held_out = set(prompts("train")), set(prompts("heldout"))
    assert not train & held_out
    pairs = len(COLOURS) * sum(map(len, SUBJECTS.values()))
    assert len(train) + len(held_out) == pairs
    assert len(train) > 2 * len(held_out) > 0


def test_held_out_subjects_never_appear_in_train():
    train_subjects = {r.subject for r in prompt_records("train")}
    assert not train_subjects & HELD_OUT_SUBJECTS
    assert {r.subject for r in prompt_records("heldout")} >= HELD_OUT_SUBJECTS
    # Some held-out prompts are new pairs of subjects and colours that train does see.
    unseen_pairs = [r for r in prompt_records("heldout") if r.subject not in HELD_OUT_SUBJECTS]
    assert unseen_pairs and all(r.subject in train_subjects for r in unseen_pairs)
    assert {r.category for r in prompt_records("train")} == set(SUBJECTS)


PRINT_PROMPTS = (
    "import json; from watercolor.tasks.painting.prompts import prompts; "
    "print(json.dumps({s: prompts(s) for s in ('train', 'heldout')}))"
)


def prompts_in_a_new_process(hash_seed: str) -> dict[str, list[str]]:
    """Both splits as a fresh interpreter with PYTHONHASHSEED=`hash_seed` computes them."""
    env = os.environ | {"PYTHONHASHSEED": hash_seed}
    done = subprocess.run([sys.executable, "-c", PRINT_PROMPTS], env=env, capture_output=True,
                          text=True, check=True, timeout=60)  # fmt: skip
    return json.loads(done.stdout)


def test_prompts_are_deterministic_and_ordered():
    # The same splits, in the same order, in every process: the split depends on the text only
    # (sha256), and the order on nothing that Python's per-process string hashing changes.
    first, second = prompts_in_a_new_process("1"), prompts_in_a_new_process("2")
    assert first == second == {s: prompts(s) for s in ("train", "heldout")}
    assert first["train"][0] == "paint a peach hibiscus in watercolour"
    assert "paint a lavender hibiscus in watercolour" in first["heldout"]


def test_unknown_split_is_an_error():
    with pytest.raises(ValueError, match="unknown split"):
        prompts("test")


def test_articles_read_well():
    texts = prompts("train") + prompts("heldout")
    assert "paint an ochre pear in watercolour" in texts
    assert not [t for t in texts if re.search(r"\ba [aeiou]", t)]


def test_every_prompt_gives_back_its_colour():
    for record in prompt_records("train") + prompt_records("heldout"):
        assert prompt_colours(record.text) == [(record.colour, COLOURS[record.colour])]


@pytest.mark.parametrize(
    ("prompt", "expected"),
    [
        ("paint a peach hibiscus in watercolour", [("peach", "#f2a68a")]),
        ("Paint a Cobalt vase of coral tulips", [("cobalt", "#1f4f9e"), ("coral", "#ee7a62")]),
        ("paint a rose in watercolour", []),  # a subject, not one of the named colours
        ("paint a teal teal sea", [("teal", "#1d6f72")]),
        ("paint a sagebrush field", []),  # whole words only
    ],
)
def test_prompt_colours(prompt, expected):
    assert prompt_colours(prompt) == expected


def test_colours_are_hex_and_never_subject_words():
    subject_words = {w for subjects in SUBJECTS.values() for s in subjects for w in s.split()}
    assert not subject_words & set(COLOURS)
    assert all(re.fullmatch(r"#[0-9a-f]{6}", hex_) for hex_ in COLOURS.values())


def test_sample_prompt_is_reproducible():
    draws = [sample_prompt(random.Random(3)) for _ in range(2)]
    assert draws[0] == draws[1] and draws[0] in prompts("train")
    assert sample_prompt(random.Random(3), "heldout") in prompts("heldout")


def test_system_prompt_names_the_skeleton_and_only_allowed_methods():
    for piece in ("createCanvas(600, 600, WEBGL)", "brush.scaleBrushes(3)", "```js"):
        assert piece in SYSTEM_PROMPT
    mentioned = set(re.findall(r"brush\.(\w+)\(", SYSTEM_PROMPT))
    assert mentioned == ANCHOR_BRUSH_METHODS


def test_system_prompt_skeleton_passes_the_gate_once_it_paints():
    """The skeleton the prompt shows is itself gate-clean once a wash is added."""
    skeleton = re.search(r"```js\n(.*?)```", SYSTEM_PROMPT, re.S).group(1)
    painted = skeleton.replace(
        "// layered washes go here", 'brush.fill("#f2a68a", 150);\n  brush.circle(0, 0, 90);'
    )
    assert check_reply(f"```js\n{painted}```")[1] == []
    assert [v.code for v in check_reply(f"```js\n{skeleton}```")[1]] == ["no_painting"]


def test_conversation_is_trl_chat_format():
    messages = conversation("paint a teal wave in watercolour")
    assert [m["role"] for m in messages] == ["system", "user"]
    assert messages[1]["content"] == "paint a teal wave in watercolour"
