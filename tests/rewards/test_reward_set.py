"""RewardSet semantics with plain functions: weights, gate, None, columns, groups."""

import functools
import time

import pytest

from watercolor.canvas import Canvas, Status
from watercolor.rewards.palette import palette_match
from watercolor.rewards.reward_set import (
    COMPONENT_BUDGET_S,
    ComponentSetupError,
    RewardSet,
    scaled_total,
)

OK = Canvas(status=Status.OK, sketch="brush.circle(0, 0, 9);")
THREW = Canvas(status=Status.ERROR, errors=["TypeError"])
LOST = Canvas(status=Status.INFRA_ERROR, errors=["browser gone"])


def ran(canvas: Canvas) -> float | None:
    return None if canvas.infra_failure else float(canvas.ok)


def half(canvas: Canvas) -> float | None:
    return None if canvas.infra_failure else 0.5


def undecided(canvas: Canvas) -> float | None:
    return None


def echo_prompt(canvas: Canvas, prompt: str = "", bonus: float = 0.0) -> float:
    return min(1.0, len(prompt) / 10 + bonus)


def build(gate=(), normalise=False, **extra) -> RewardSet:
    components = {
        "ran": {"weight": 0.2, "fn": ran},
        "half": {"weight": 0.8, "fn": half},
        **extra,
    }
    return RewardSet(components, gate=gate, normalise=normalise)


def test_total_is_the_weighted_sum_and_every_component_is_reported():
    score = build().score(OK)
    assert score.total == pytest.approx(0.2 * 1 + 0.8 * 0.5)
    assert score.components == {"ran": 1.0, "half": 0.5} and score.gate_passed


def test_normalised_total_divides_by_the_weights():
    rewards = RewardSet({"a": {"weight": 2.0, "fn": half}, "b": {"weight": 2.0, "fn": ran}})
    normalised = RewardSet(
        {"a": {"weight": 2.0, "fn": half}, "b": {"weight": 2.0, "fn": ran}}, normalise=True
    )
    assert rewards.score(OK).total == pytest.approx(3.0)
    assert normalised.score(OK).total == pytest.approx(0.75)


def test_failed_gate_scores_zero_but_keeps_the_components():
    score = build(gate=["ran"]).score(THREW)
    assert score.total == 0.0 and not score.gate_passed and score.components["half"] == 0.5
    assert build().score(THREW).total == pytest.approx(0.4)  # ungated: only its share lost


def test_gate_threshold():
    assert build(gate=["half"]).score(OK).total == 0.0  # 0.5 < default threshold 1.0
    lenient = RewardSet({"half": {"weight": 1.0, "fn": half}}, gate=["half"], gate_threshold=0.5)
    assert lenient.score(OK).total == 0.5


def test_infrastructure_failure_is_none_even_behind_a_gate():
    for rewards in (build(), build(gate=["ran"])):
        score = rewards.score(LOST)
        assert score.total is None and score.components == {"ran": None, "half": None}


def test_a_weighted_none_is_none_but_an_unweighted_one_is_only_reported():
    assert build(maybe={"weight": 0.1, "fn": undecided}).score(OK).total is None
    score = build(maybe={"weight": 0.0, "fn": undecided}).score(OK)
    assert score.total == pytest.approx(0.6) and score.components["maybe"] is None
    gated = build(gate=["maybe"], maybe={"weight": 0.0, "fn": undecided}).score(OK)
    assert gated.total is None  # a gate without a verdict has no verdict


def test_columns_reach_only_the_components_that_name_them():
    from functools import partial

    rewards = build(prompt={"weight": 1.0, "fn": partial(echo_prompt, bonus=0.1)})
    score = rewards.score(OK, prompt="abcde", unrelated=object())
    assert score.components["prompt"] == pytest.approx(0.6)
    assert score.total == pytest.approx(0.6 + 0.6)


def test_a_set_reading_a_second_paper_has_no_verdict_on_a_canvas_painted_over_one():
    """Never the reading of an opaque canvas: no verdict, and the reason (issue 52)."""
    rewards = RewardSet({"ran": {"weight": 1.0, "fn": ran}}, second_paper="#1e3a5f")
    alone = rewards.score(OK)
    assert alone.total is None and "second paper (#1e3a5f)" in alone.errors[-1]
    twinned = Canvas(status=Status.OK, twin=OK, twin_paper="#1e3a5f")
    assert rewards.score(twinned).total == 1.0 and not rewards.score(twinned).errors
    assert rewards.score(THREW).total == 0.0  # a failed run needs no twin: scored as it is
    assert rewards.missing_paper(OK) and build().missing_paper(OK) is None


def test_a_component_two_sets_share_is_computed_once_per_canvas():
    calls = []

    def counted(canvas: Canvas, scale: float = 1.0) -> float:
        calls.append(scale)
        return 0.5 * scale

    one = RewardSet({"c": {"weight": 1.0, "fn": functools.partial(counted, scale=1.0)}})
    two = RewardSet({"other": {"weight": 2.0, "fn": functools.partial(counted, scale=1.0)}})
    three = RewardSet({"c": {"weight": 1.0, "fn": functools.partial(counted, scale=2.0)}})
    canvas = Canvas(status=Status.OK)
    assert one.score(canvas).total == 0.5 and two.score(canvas).total == 1.0
    assert calls == [1.0]  # same function, same parameters: once
    assert three.score(canvas).total == 1.0 and calls == [1.0, 2.0]  # other parameters: again
    one.score(Canvas(status=Status.OK))
    assert calls == [1.0, 2.0, 1.0]  # another canvas: again


def test_gate_must_name_a_component():
    with pytest.raises(ValueError, match="clean_run"):
        build(gate=["clean_run"])
    with pytest.raises(ValueError, match="callable"):
        RewardSet({"x": {"weight": 1.0, "fn": "not a function"}})


def test_score_batch_adds_group_components_after_the_gate():
    def copies(canvases, penalty: float = 1.0):
        return [None if c.infra_failure else 1.0 - penalty * (c is canvases[0]) for c in canvases]

    rewards = RewardSet(
        {"ran": {"weight": 1.0, "fn": ran}},
        gate=["ran"],
        group_components={"diverse": {"weight": 0.5, "fn": copies}},
    )
    first, second = OK, Canvas(status=Status.OK)
    scores = rewards.score_batch([first, second, THREW, LOST], prompt=["a", "b", "c", "d"])
    assert [s.total for s in scores] == [1.0, 1.5, 0.0, None]
    assert [s.components["diverse"] for s in scores] == [0.0, 1.0, 1.0, None]
    assert rewards.weights == {"ran": 1.0, "diverse": 0.5}


def test_a_component_that_raises_costs_only_its_own_canvas_a_verdict():
    def fragile(canvas: Canvas) -> float:
        if canvas.errors:
            raise RecursionError("maximum recursion depth exceeded")
        return 1.0

    rewards = build(fragile={"weight": 0.1, "fn": fragile})
    good, bad = rewards.score_batch([OK, THREW])
    assert good.total == pytest.approx(0.7) and good.errors == ()
    assert bad.total is None and bad.components["fragile"] is None  # ours: no verdict
    assert bad.errors == ("reward component fragile raised RecursionError: maximum recursion "
                          "depth exceeded",)  # fmt: skip


def test_a_component_that_can_score_no_canvas_stops_the_scoring_at_once():
    # palette_match with neither a palette nor a reference: as a per-canvas error, every canvas
    # of the run would lose its verdict (None for TRL) and training would go on without a signal.
    rewards = build(palette_match={"weight": 0.5, "fn": palette_match})
    with pytest.raises(ComponentSetupError, match="needs `palette`.*or `reference`"):
        rewards.score_batch([OK, THREW])
    with pytest.raises(ComponentSetupError):
        rewards.score(LOST)


def test_the_set_up_check_raises_only_for_a_component_that_can_score_nothing():
    # What the environment server runs at start-up (watercolor/env/serve.py), so a misconfigured
    # component is refused there, not logged as a scorer failure at every step.
    def prompt_only(canvas: Canvas, prompt: str) -> float:  # the probe gives no prompt
        return float(len(prompt))

    def buggy(canvas: Canvas) -> float:
        raise ZeroDivisionError("a bug scoring reports per canvas")

    build(p={"weight": 0.0, "fn": prompt_only}, b={"weight": 0.0, "fn": buggy}).check_setup()
    broken = build(palette_match={"weight": 0.5, "fn": palette_match})
    with pytest.raises(ComponentSetupError, match="needs `palette`"):
        broken.check_setup()


def test_a_component_over_its_cpu_budget_is_the_reply_s_scored_failure():
    def slow_on_errors(canvas: Canvas) -> float:
        # a reply whose content makes the reading slow (here: a canvas with errors) spins; a
        # wait (I/O, a server) costs no CPU and is no overrun
        spin(0.2) if canvas.errors else time.sleep(0.2)
        return 1.0

    rewards = build(slow={"weight": 0.1, "fn": slow_on_errors})
    rewards.component_budget_s = 0.1
    quick, slow, lost = rewards.score_batch([OK, THREW, LOST])
    assert quick.total == pytest.approx(0.7) and quick.errors == ()
    assert slow.total == 0.0 and slow.components["slow"] == 0.0  # the reply's: scored 0
    assert slow.components["half"] == 0.5  # the others still reported
    (error,) = slow.errors
    assert error.startswith("reward component slow took 0.2") and "over its budget of 0.1" in error
    assert lost.total is None  # the infrastructure's failure stays no verdict
    assert RewardSet({"ran": {"weight": 1.0, "fn": ran}}).component_budget_s == COMPONENT_BUDGET_S


def spin(seconds: float) -> None:
    started = time.thread_time()
    while time.thread_time() - started < seconds:
        pass


@pytest.mark.parametrize(
    ("group", "error"),
    [
        (lambda canvases: 1 / 0, "reward component diverse raised ZeroDivisionError"),
        (lambda canvases: [1.0], "reward component diverse raised ValueError: gave 1 values"),
    ],
)
def test_a_group_component_that_raises_costs_its_group_the_verdict_not_the_batch(group, error):
    rewards = RewardSet(
        {"ran": {"weight": 1.0, "fn": ran}},
        gate=["ran"],
        group_components={"diverse": {"fn": group}},
    )
    scores = rewards.score_batch([OK, THREW])
    assert [s.total for s in scores] == [None, 0.0]  # ours: no verdict; a failed gate stays 0
    assert [s.components["diverse"] for s in scores] == [None, None]
    assert all(s.errors[0].startswith(error) for s in scores)


def test_a_group_component_over_its_cpu_budget_scores_its_group_0():
    def slow(canvases):
        spin(0.25)  # the group's replies made the reading slow: which one cannot be told
        return [1.0] * len(canvases)

    rewards = RewardSet(
        {"ran": {"weight": 1.0, "fn": ran}}, group_components={"diverse": {"fn": slow}}
    )
    rewards.component_budget_s = 0.1  # per canvas: 0.2 for the pair
    scores = rewards.score_batch([OK, OK])
    assert [s.total for s in scores] == [1.0, 1.0]  # 0 for each: no advantage moves
    assert [s.components["diverse"] for s in scores] == [0.0, 0.0]
    assert "over its budget of 0.2 CPU-s: the group's failure" in scores[0].errors[0]
    rewards.component_budget_s = 0.2  # 0.4 for the pair: in budget
    assert [s.total for s in rewards.score_batch([OK, OK])] == [2.0, 2.0]


def test_scaled_total_is_the_set_total_times_its_factors():
    base = RewardSet({"paint": {"weight": 1.0, "fn": lambda canvas: 0.8}})
    assert scaled_total(OK, rewards=base, factor=half) == pytest.approx(0.4)
    # several factors multiply; one that takes the prompt is given it, as a component is
    factors = [half, echo_prompt]
    assert scaled_total(OK, "abcde", rewards=base, factor=factors) == pytest.approx(0.2)
    assert scaled_total(OK, "", rewards=base, factor=factors) == 0.0
    assert scaled_total(OK, rewards=base, factor=[half, undecided]) is None
    none = RewardSet({"paint": {"weight": 1.0, "fn": undecided}})
    assert scaled_total(OK, rewards=none, factor=half) is None
