"""The procedural corpus: deterministic, in the configured proportions, each kind what it claims."""

import random
import re

import pytest

from watercolor.tasks.painting.assets import brush_methods
from watercolor.tasks.painting.gate import GateRules, check_reply, extract_sketch
from watercolor.tasks.painting.painter.corpus import (
    KINDS,
    VALID_KINDS,
    Mixture,
    conversation,
    generate_corpus,
)
from watercolor.tasks.painting.painter.motifs import MOTIFS, Blob, Circle, Ring, compose
from watercolor.tasks.painting.painter.sketches import (
    UNDEFINED_CALLS,
    UNKNOWN_BRUSH_CALLS,
    WASH_ALPHA,
    fill_call,
)
from watercolor.tasks.painting.painter.subjects import read_prompt
from watercolor.tasks.painting.prompts import COLOURS, prompts

FILL = re.compile(r"brush\.fill\((\d+), (\d+), (\d+), (\d+)\)")


# Every kind, the default-off ones too.
EVERY_KIND = Mixture(layered=4, flat=2, then_throw=1, stroke_only=1, plain_p5=1, broken=1)


@pytest.fixture(scope="module")
def corpus():
    return generate_corpus(400, seed=3, mixture=EVERY_KIND)


def by_kind(corpus, kind):
    return [example for example in corpus if example.kind == kind]


def test_same_seed_same_corpus_other_seed_other_corpus(corpus):
    assert generate_corpus(400, seed=3, mixture=EVERY_KIND) == corpus
    other = generate_corpus(400, seed=4, mixture=EVERY_KIND)
    assert [e.reply for e in other] != [e.reply for e in corpus]


def test_kinds_come_in_the_mixture_proportions():
    mixture = Mixture(layered=5, flat=2, then_throw=1, stroke_only=1, plain_p5=1, broken=1)
    counts = {kind: 0 for kind in KINDS}
    for example in generate_corpus(220, seed=0, mixture=mixture):
        counts[example.kind] += 1
    assert counts == {
        "layered": 100, "flat": 40, "then_throw": 20, "stroke_only": 20, "plain_p5": 20,
        "broken": 20,
    }  # fmt: skip
    assert sum(Mixture().counts(7).values()) == 7  # rounding never loses or adds an example


def test_a_zero_weight_kind_never_appears_and_bad_weights_are_refused():
    only_layered = Mixture(layered=1, flat=0, then_throw=0, stroke_only=0)
    assert {e.kind for e in generate_corpus(30, mixture=only_layered)} == {"layered"}
    with pytest.raises(ValueError):
        Mixture(layered=-1).counts(10)


def test_prompts_come_from_the_task_training_split(corpus):
    train = set(prompts("train"))
    assert all(example.prompt in train for example in corpus)
    own = generate_corpus(20, prompts=["paint a teal koi fish in watercolour"])
    assert {example.prompt for example in own} == {"paint a teal koi fish in watercolour"}


def test_every_well_formed_reply_follows_the_skeleton(corpus):
    for example in corpus:
        if example.kind not in VALID_KINDS:
            continue
        code = extract_sketch(example.reply)
        assert code is not None
        assert "function setup() {" in code
        assert "createCanvas(600, 600, WEBGL);" in code
        assert "brush.scaleBrushes(3);" in code
        assert code.count("{") == code.count("}")


def mean(values):
    values = list(values)
    return sum(values) / len(values)


def wash_share(example):
    """Share of the reply's fills whose opacity is in the translucent-but-visible band."""
    alphas = [int(fill[3]) for fill in FILL.findall(example.reply)]
    return sum(WASH_ALPHA[0] <= a <= WASH_ALPHA[1] for a in alphas) / len(alphas)


def test_layered_washes_are_translucent_and_flat_fills_opaque(corpus):
    layered = by_kind(corpus, "layered")
    assert sum(wash_share(e) for e in layered) / len(layered) > 0.5
    assert any("fillBleed(0." in e.reply for e in layered)
    assert any("fillTexture(0." in e.reply for e in layered)
    for example in by_kind(corpus, "flat"):
        assert {fill[3] for fill in FILL.findall(example.reply)} == {"255"}
        assert "fillBleed(0." not in example.reply and "fillTexture(0." not in example.reply


def test_better_layered_sketches_use_better_washes(corpus):
    layered = by_kind(corpus, "layered")
    good = [e for e in layered if e.quality > 0.7]
    poor = [e for e in layered if e.quality < 0.3]
    assert mean(map(wash_share, good)) > mean(map(wash_share, poor)) + 0.2

    def glazes(example):
        return example.reply.count("brush.fill(")

    assert mean(map(glazes, good)) > mean(map(glazes, poor))  # more passes over the same shapes


def test_the_task_gate_passes_brush_washes_and_rejects_the_rest(corpus):
    def codes(example):
        return {v.code for v in check_reply(example.reply)[1]}

    assert all(codes(e) == set() for e in by_kind(corpus, "layered") + by_kind(corpus, "flat"))
    assert all("bare_primitive" in codes(e) for e in by_kind(corpus, "plain_p5"))
    # pick/stroke are real methods outside the anchor's ten: strokes need a looser gate.
    assert all("disallowed_brush_method" in codes(e) for e in by_kind(corpus, "stroke_only"))
    any_method = GateRules(allowed_brush_methods=None)
    assert all(check_reply(e.reply, any_method)[1] == [] for e in by_kind(corpus, "stroke_only"))
    invented = [e for e in by_kind(corpus, "broken") if e.defect == "unknown_brush_method"]
    assert invented and all("unknown_brush_method" in codes(e) for e in invented)


def test_the_default_repertoire_passes_the_static_gate_but_strokes():
    # The kinds the sets disagree on; only the strokes (outside the anchor's list) are refused.
    default = generate_corpus(200, seed=5)
    assert {e.kind for e in default} == {"layered", "flat", "then_throw", "stroke_only"}
    passing = [e for e in default if not check_reply(e.reply)[1]]
    assert {e.kind for e in passing} == {"layered", "flat", "then_throw"}
    assert len(passing) / len(default) == pytest.approx(0.95, abs=0.02)


def test_then_throw_paints_everything_first_then_calls_what_does_not_exist(corpus):
    throws = by_kind(corpus, "then_throw")
    assert throws
    for example in throws:
        code = extract_sketch(example.reply).splitlines()
        assert code[-2].strip() in UNDEFINED_CALLS and code[-1] == "}"
        assert sum(line.strip() in UNDEFINED_CALLS for line in code) == 1


def test_broken_replies_are_broken_as_labelled(corpus):
    broken = by_kind(corpus, "broken")
    assert {e.defect for e in broken} == {
        "missing_brace",
        "undefined_function",
        "unknown_brush_method",
    }
    for example in broken:
        code = extract_sketch(example.reply)
        if example.defect == "missing_brace":
            assert code.count("{") > code.count("}")
        elif example.defect == "undefined_function":
            assert any(call in code for call in UNDEFINED_CALLS)
        else:
            assert any(call in code for call in UNKNOWN_BRUSH_CALLS)


def test_invented_brush_methods_are_not_in_the_library():
    invented = {call.split("(")[0].removeprefix("brush.") for call in UNKNOWN_BRUSH_CALLS}
    assert not invented & brush_methods()


def test_sketches_are_painted_in_the_prompt_colour_unless_marked_off_prompt(corpus):
    off = [e for e in corpus if not e.on_prompt]
    assert 0.03 < len(off) / len(corpus) < 0.2  # Mixture().off_prompt_colour = 0.1
    for example in corpus:
        asked, _ = read_prompt(example.prompt)
        assert (example.colour == asked) == example.on_prompt
    for example in by_kind(corpus, "flat"):  # flat fills use the pigment itself
        assert fill_call(COLOURS[example.colour], 255) in example.reply
    exact = generate_corpus(50, mixture=Mixture(off_prompt_colour=0))
    assert all(example.on_prompt for example in exact)


def test_every_motif_stays_near_the_canvas():
    for motif in MOTIFS:
        for seed in range(5):
            for part in compose(motif, random.Random(seed)):
                for shape in part.shapes:
                    points = shape.points if isinstance(shape, Blob) else [(shape.x, shape.y)]
                    assert all(-360 <= c <= 360 for point in points for c in point), (motif, shape)
                    assert isinstance(shape, Blob | Circle | Ring)


def test_prompts_are_read_for_colour_and_motif():
    assert read_prompt("paint a crimson hibiscus in watercolour") == ("crimson", "flower")
    assert read_prompt("paint a teal night sky in watercolour") == ("teal", "moon")
    assert read_prompt("paint an ochre koi fish in watercolour") == ("ochre", "fish")
    assert read_prompt("something else entirely") == (None, "generic")


def test_conversation_record_is_trl_prompt_completion(corpus):
    example = corpus[0]
    record = conversation(example, "be brief")
    assert [m["role"] for m in record["prompt"]] == ["system", "user"]
    assert record["completion"] == [{"role": "assistant", "content": example.reply}]
    assert [m["role"] for m in conversation(example)["prompt"]] == ["user"]
