"""Win rate against reference paintings, judged pairwise in both orders (a group component).

    >>> from watercolor.rewards.judges import PixelJudge, judge_winrate
    >>> from watercolor.rewards.reference_pool import load_pool
    >>> judge_winrate(group, judge=PixelJudge(), pool=load_pool(), n_references=4)
    [0.75, 0.5, 0.0, None]

The anchor's judge term: for one GRPO group, `n_references` references are drawn once (half
`love`, half `ok` by default) and every canvas of the group faces the same ones, so the group's
advantages compare like with like. Each canvas meets each reference twice, once shown first and
once second, because vision judges favour a position; each comparison scores the canvas 1 (won),
0 (lost) or 0.5 (tie), so a verdict that flips with the order (a split) counts 0.5 overall.
A canvas's value is the mean over the comparisons that got a verdict:

    None   the canvas is an infrastructure failure, or every one of its comparisons failed
    0.0    the canvas did not paint (refused, failed, or blank): nothing to show, no judge call
    [0, 1] otherwise

The draw's seed is `seed` mixed with a digest of the group's replies: the same group always
meets the same references (reproducible), different groups meet different ones.
"""

from __future__ import annotations

import hashlib
import statistics
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor

from watercolor.canvas import Canvas
from watercolor.rewards.judges.judge import Judge, Verdict
from watercolor.rewards.pixels import score_without_paint
from watercolor.rewards.reference_pool import Reference, ReferencePool


def outcome(verdict: Verdict | None, canvas_first: bool) -> float | None:
    """The canvas's score from one comparison: 1 won, 0 lost, 0.5 tie, None no verdict."""
    if verdict is None:
        return None
    if verdict == "tie":
        return 0.5
    return float((verdict == "A") == canvas_first)


def mean_outcome(outcomes: Sequence[float | None]) -> float | None:
    answered = [o for o in outcomes if o is not None]
    return statistics.fmean(answered) if answered else None


def group_seed(seed: int, canvases: Sequence[Canvas]) -> str:
    """One seed for a whole group: `seed` and what the group wrote (order-independent)."""
    digest = hashlib.sha256()
    for text in sorted(c.reply or c.sketch for c in canvases):
        digest.update(hashlib.sha256(text.encode()).digest())
    return f"{seed}:{digest.hexdigest()}"


def judgeable(canvas: Canvas) -> bool:
    return canvas.ok and canvas.png is not None


def run_comparisons(judge: Judge, pairs: list[tuple[bytes, bytes]]) -> list[Verdict | None]:
    """Every pair judged, at most `judge.concurrency` at once; verdicts in order."""
    workers = max(1, min(judge.concurrency, len(pairs)))
    if workers == 1:
        return [judge.compare(a, b) for a, b in pairs]
    with ThreadPoolExecutor(max_workers=workers, thread_name_prefix="judge") as threads:
        return list(threads.map(lambda pair: judge.compare(*pair), pairs))


def judge_winrate(
    canvases: list[Canvas],
    *,
    judge: Judge,
    pool: ReferencePool,
    n_references: int = 4,
    love_share: float = 0.5,
    seed: int = 0,
) -> list[float | None]:
    """[0, 1] each: how often the canvas beats the group's references (both orders; tie 0.5)."""
    if n_references < 1:
        raise ValueError(f"judge_winrate needs at least one reference, got {n_references}")
    references = pool.draw(n_references, group_seed(seed, canvases), love_share)
    jobs = [
        (i, ref, first)
        for i, canvas in enumerate(canvases)
        if judgeable(canvas)
        for ref in references
        for first in (True, False)
    ]
    verdicts = run_comparisons(judge, [pair(canvases[i], ref, first) for i, ref, first in jobs])
    outcomes: dict[int, list[float | None]] = {}
    for (i, _, first), verdict in zip(jobs, verdicts, strict=True):
        outcomes.setdefault(i, []).append(outcome(verdict, first))
    return [
        mean_outcome(outcomes[i]) if i in outcomes else score_without_paint(c)
        for i, c in enumerate(canvases)
    ]


def pair(canvas: Canvas, reference: Reference, canvas_first: bool) -> tuple[bytes, bytes]:
    return (canvas.png, reference.png) if canvas_first else (reference.png, canvas.png)
