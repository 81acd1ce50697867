"""The reward set as an OpenEnv rubric tree: its shape, and the same total as `RewardSet.score`
(bit for bit) on synthetic canvases for every offline reward set. The sketch table, rendered in
Chromium, is checked the same way in tests/rewards/test_reward_sketches.py."""

import math
import time

import pytest
from openenv.core.rubrics import Rubric

from tests.rewards import synthetic_canvases as synthetic
from watercolor.canvas import Canvas, Status
from watercolor.config import compose_train, reward_set, reward_sets
from watercolor.env.environment import CanvasEnvironment
from watercolor.env.rubric import RewardSetRubric
from watercolor.env.step_reward import RewardSetScore
from watercolor.rewards.reward_set import RewardSet
from watercolor.tasks import build_task

PROMPT = "paint a coral hibiscus in watercolour"
CANVASES = {
    "layered": synthetic.layered_watercolour(),
    "flat_blocks": synthetic.flat_blocks(),
    "blank": synthetic.blank(),
    "speckle": synthetic.speckle(),
    "threw": Canvas(status=Status.ERROR, errors=["TypeError"], sketch=synthetic.BRUSH_SKETCH),
    "refused": Canvas(status=Status.VIOLATION, violations=["no_sketch"]),
    "lost": Canvas(status=Status.INFRA_ERROR, errors=["browser gone"]),
}


def ran(canvas: Canvas) -> float | None:
    return None if canvas.infra_failure else float(canvas.ok)


def half(canvas: Canvas) -> float | None:
    return 0.5


def undecided(canvas: Canvas) -> float | None:
    return None


def boom(canvas: Canvas) -> float:
    raise ZeroDivisionError("a scorer's bug")


def same(a: float | None, b: float | None) -> bool:
    """Equal bit for bit (None only with None)."""
    return a is b is None or (a is not None and b is not None and a.hex() == b.hex())


def differing(rubric: RewardSetRubric, rewards: RewardSet) -> list[str]:
    """The canvases whose total through `rubric` is not `rewards.score`'s, bit for bit: the
    identity tests' check, so the tests below can show it failing."""
    return [
        label
        for label, canvas in CANVASES.items()
        if not same(rewards.score(canvas, prompt=PROMPT).total, rubric({"prompt": PROMPT}, canvas))
    ]


# Two sets stay in the fast tier; the others (6-15 s each here) run in the slow tier
# (experiments/2026-12-07_test_tiers).
FAST_SETS = {"coarse", "translucent"}


@pytest.mark.parametrize(
    "name",
    [
        pytest.param(name, marks=[] if name in FAST_SETS else [pytest.mark.slow])
        for name in sorted(reward_sets(offline=True))
    ],
)
def test_every_offline_set_totals_the_same_through_its_rubric(name):
    rewards = reward_sets(offline=True)[name]
    rubric = RewardSetRubric(rewards)
    assert differing(rubric, rewards) == []
    for label, canvas in CANVASES.items():
        old = rewards.score(canvas, prompt=PROMPT)
        rubric({"prompt": PROMPT}, canvas)
        for leaf_name, leaf in rubric.leaves.items():
            assert same(old.components[leaf_name], leaf.last_score), (label, leaf_name)


# The leaves call the set's own components, so the identity checks only the combining code. These
# show the check fails when one path combines differently: the rubric is built from a set, the
# totals come from the same set with one combining setting changed
# (experiments/2026-12-05_rubric_identity/README.md, its correction).
def test_the_identity_check_fails_when_one_path_pays_a_component_another_weight():
    rubric = RewardSetRubric(reward_set("coarse"))  # the same totals: the identity test above
    reweighted = reward_set("coarse", ["reward.components.coverage.weight=0.25"])
    assert differing(rubric, reweighted) != []


def test_the_identity_check_fails_on_a_changed_gate_threshold_or_normalisation():
    components = {"ran": {"weight": 0.4, "fn": ran}, "half": {"weight": 0.4, "fn": half}}
    rewards = RewardSet(components, gate=["half"], gate_threshold=0.5)
    rubric = RewardSetRubric(rewards)
    assert differing(rubric, rewards) == []
    stricter = RewardSet(components, gate=["half"], gate_threshold=0.6)
    assert "layered" in differing(rubric, stricter)  # 0.6 passed through the gate, 0 beside it
    normalised = RewardSet(components, gate=["half"], gate_threshold=0.5, normalise=True)
    assert "layered" in differing(rubric, normalised)  # 0.6 against 0.6 / 0.8


def test_the_tree_names_the_gate_and_the_weighted_components():
    rewards = reward_sets(offline=True)["gated"]
    rubric = RewardSetRubric(rewards)
    names = dict(rubric.named_rubrics())
    assert isinstance(rubric, Rubric) and all(isinstance(r, Rubric) for r in names.values())
    assert {"gate.clean_run", "gate.gate_pass", "gate.not_blank"} <= set(names)
    assert "weighted.gate_pass" in names and "weighted.clean_run" not in names  # weight 0
    assert "reported.not_edge_to_edge" in names  # unpaid, not gating: computed for the record
    # One leaf per component, the very Component the set calls; gate_pass is one leaf in both.
    assert names["gate.gate_pass"] is names["weighted.gate_pass"]
    assert {n: leaf.component for n, leaf in rubric.leaves.items()} == rewards.components
    weights = {n: r.weight for n, r in rubric.weighted.named_children()}
    assert weights == {n: w for n, w in rewards.weights.items() if w}
    assert math.isclose(sum(weights.values()), 1.0)
    rubric({"prompt": PROMPT}, CANVASES["threw"])
    assert (rubric.gate.last_score, rubric.last_score) == (0.0, 0.0)


def test_no_verdict_raising_components_normalising_and_group_components():
    group = {"spread": {"weight": 1.0, "fn": lambda canvases: [1.0] * len(canvases)}}
    rewards = RewardSet(
        {
            "ran": {"weight": 0.2, "fn": ran},
            "half": {"weight": 0.8, "fn": half},
            "boom": {"weight": 0.0, "fn": boom},
        },
        gate=["ran"],
        normalise=True,
        group_components=group,
    )
    rubric = RewardSetRubric(rewards)
    ok = Canvas(status=Status.OK, sketch="brush.circle(0, 0, 9);")
    assert same(rubric({}, ok), rewards.score(ok).total)  # (0.2 + 0.4) / 2.0, group weight counted
    assert (
        rubric.leaves["boom"].last_score is None
        and "ZeroDivisionError" in rubric.leaves["boom"].last_error
    )
    assert rubric.group_components == ("spread",) and "spread" not in dict(rubric.named_rubrics())
    assert rubric({}, CANVASES["lost"]) is None  # infrastructure: no verdict, not 0
    assert rubric({}, CANVASES["threw"]) == 0.0
    undecided_set = RewardSet({"maybe": {"weight": 1.0, "fn": undecided}})
    assert RewardSetRubric(undecided_set)({}, ok) is None is undecided_set.score(ok).total


def test_a_canvas_without_the_second_paper_its_set_reads_has_no_verdict_through_the_rubric():
    rewards = RewardSet({"even": {"weight": 1.0, "fn": half}}, second_paper="#1e3a5f")
    ok = Canvas(Status.OK)
    assert RewardSetRubric(rewards)({}, ok) is None is rewards.score(ok).total
    twinned = Canvas(Status.OK, twin=ok, twin_paper="#1e3a5f")
    assert RewardSetRubric(rewards)({}, twinned) == 0.5 == rewards.score(twinned).total


def test_a_component_named_like_a_container_attribute_is_refused():
    with pytest.raises(ValueError, match="threshold"):
        RewardSetRubric(RewardSet({"threshold": {"weight": 1.0, "fn": half}}, gate=["threshold"]))


def test_the_environment_exposes_the_reward_set_as_its_rubric():
    rewards = reward_sets(offline=True)["fine_grained"]
    score = RewardSetScore(rewards)
    env = CanvasEnvironment(None, build_task(compose_train([]).task), score=score)
    assert env.rubric is score.rubric and env.rubric.rewards is rewards


def test_a_component_over_its_cpu_budget_scores_the_reply_0_through_the_rubric_too():
    def spin(canvas: Canvas) -> float:
        started = time.thread_time()
        while time.thread_time() - started < 0.1:
            pass
        return 1.0

    components = {"half": {"weight": 0.5, "fn": half}, "slow": {"weight": 0.5, "fn": spin}}
    rewards = RewardSet(components, component_budget_s=0.05)
    rubric = RewardSetRubric(rewards)
    ok = Canvas(status=Status.OK, sketch="brush.circle(0, 0, 9);")
    assert rubric({}, ok) == 0.0 == rewards.score(ok).total  # the reply's failure, as the set says
    assert rubric.leaves["slow"].last_score == 0.0 and "budget" in rubric.leaves["slow"].last_error
    assert rubric({}, CANVASES["lost"]) is None
