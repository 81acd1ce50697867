"""judge_winrate's aggregation on a scripted judge: both orders, ties and splits 0.5, failures
are no verdict, one draw of references for the whole group."""

import pytest
from judge_helpers import ScriptedJudge, canvas_of, png_of

from watercolor.canvas import Canvas, Status
from watercolor.rewards.judges.winrate import group_seed, judge_winrate, outcome

RED, GREEN, BLUE, WHITE = (200, 40, 40), (40, 160, 60), (40, 60, 200), (255, 255, 255)


def prefers(png: bytes):
    """A judge that picks the side showing `png` and otherwise always says "A" (position bias)."""
    return lambda a, b: "A" if a == png else "B" if b == png else "A"


@pytest.mark.parametrize(
    ("verdict", "canvas_first", "expected"),
    [("A", True, 1.0), ("B", True, 0.0), ("A", False, 0.0), ("B", False, 1.0),
     ("tie", True, 0.5), ("tie", False, 0.5), (None, True, None)],
)  # fmt: skip
def test_outcome_of_one_comparison(verdict, canvas_first, expected):
    assert outcome(verdict, canvas_first) == expected


def test_each_canvas_meets_every_reference_in_both_orders(references):
    group = [canvas_of(RED), canvas_of(GREEN)]
    judge = ScriptedJudge(lambda a, b: "tie")
    assert judge_winrate(group, judge=judge, pool=references, n_references=4) == [0.5, 0.5]
    assert len(judge.calls) == 2 * 4 * 2
    for canvas in group:
        first = [b for a, b in judge.calls if a == canvas.png]
        second = [a for a, b in judge.calls if b == canvas.png]
        assert len(first) == len(second) == 4 and sorted(first) == sorted(second)


def test_the_whole_group_faces_the_same_references(references):
    group = [canvas_of(RED), canvas_of(GREEN), canvas_of(BLUE)]
    judge = ScriptedJudge(lambda a, b: "A")
    judge_winrate(group, judge=judge, pool=references, n_references=4)
    faced = [{b for a, b in judge.calls if a == c.png} for c in group]
    assert faced[0] == faced[1] == faced[2] and len(faced[0]) == 4
    tiers = sorted(r.tier for r in references.references if r.png in faced[0])
    assert tiers == ["love", "love", "ok", "ok"]


def test_the_draw_is_fixed_by_seed_and_group(references):
    group = [canvas_of(RED), canvas_of(GREEN)]

    def faced(canvases, seed):
        judge = ScriptedJudge(lambda a, b: "A")
        judge_winrate(canvases, judge=judge, pool=references, seed=seed)
        return {b for a, b in judge.calls if a == canvases[0].png}

    assert faced(group, 0) == faced(group, 0) == faced(group[::-1], 0)
    assert group_seed(0, group) == group_seed(0, group[::-1]) != group_seed(1, group)
    assert len({frozenset(faced(group, seed)) for seed in range(6)}) > 1


def test_clear_wins_losses_and_order_dependent_splits(references):
    winner, other = canvas_of(RED), canvas_of(GREEN)
    # The judge always prefers `winner`, whichever side it is on; otherwise it says "A".
    judge = ScriptedJudge(prefers(winner.png))
    assert judge_winrate([winner, other], judge=judge, pool=references) == [1.0, 0.5]
    always_b = ScriptedJudge(lambda a, b: "B")
    assert judge_winrate([winner, other], judge=always_b, pool=references) == [0.5, 0.5]
    reference_wins = ScriptedJudge(lambda a, b: "B" if a in (winner.png, other.png) else "A")
    assert judge_winrate([winner, other], judge=reference_wins, pool=references) == [0.0, 0.0]


def test_failed_comparisons_are_no_verdict_not_losses(references):
    winner = canvas_of(RED)
    silent = ScriptedJudge(lambda a, b: None)
    assert judge_winrate([winner], judge=silent, pool=references) == [None]
    # Only the comparisons with the canvas shown first answer: those count, the rest are left out.
    half = ScriptedJudge(lambda a, b: "A" if a == winner.png else None)
    assert judge_winrate([winner], judge=half, pool=references) == [1.0]


def test_canvases_that_did_not_paint(references):
    refused = Canvas(status=Status.VIOLATION, violations=["no_sketch"], reply="no code")
    blank = Canvas(status=Status.VIOLATION, violations=["blank_canvas"], png=png_of(WHITE))
    lost = Canvas(status=Status.INFRA_ERROR, errors=["browser gone"], reply="x")
    judge = ScriptedJudge(lambda a, b: "A")
    values = judge_winrate([canvas_of(RED), refused, blank, lost], judge=judge, pool=references)
    assert values == [0.5, 0.0, 0.0, None]
    assert len(judge.calls) == 8  # only the painted canvas was judged


def test_comparisons_run_concurrently_up_to_the_judges_bound(references):
    group = [canvas_of(RED), canvas_of(GREEN)]
    serial = judge_winrate(group, judge=ScriptedJudge(prefers(group[0].png)), pool=references)
    threaded = ScriptedJudge(prefers(group[0].png), concurrency=4)
    assert judge_winrate(group, judge=threaded, pool=references) == serial == [1.0, 0.5]
    assert len(threaded.calls) == 16


def test_at_least_one_reference(references):
    with pytest.raises(ValueError, match="reference"):
        judge_winrate([canvas_of(RED)], judge=ScriptedJudge(lambda a, b: "A"), pool=references,
                      n_references=0)  # fmt: skip
