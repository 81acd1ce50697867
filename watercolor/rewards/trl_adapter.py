"""A reward set as TRL reward functions: one per component, one render per completion.

    >>> scorer = RolloutScorer(reward_set, renderer, num_generations=4)
    >>> funcs, weights = scorer.reward_functions()
    >>> GRPOTrainer(..., reward_funcs=funcs, args=GRPOConfig(reward_weights=weights, ...))

TRL calls every reward function of a batch concurrently on its own event loop (they are
`async def`). The first call paints the whole batch (gate, render, score); the others await
the same task, so a sketch is rendered once however many components read it.

What TRL sums is exactly the set's total: function `i` returns component `i`'s value, zeroed
when the set's gate fails, and its weight is the set's weight for `i` (divided by the sum of
weights when the set normalises). An infrastructure failure is None from every function, never
a fake 0. What TRL logs and what goes through `log_metric`, and how `prefetch` paints ahead: the
comments above `RolloutScorer` and at `prefetch`.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import logging
import statistics
import time
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from watercolor.canvas import Canvas, Status
from watercolor.rewards.reward_set import RewardSet, Score

if TYPE_CHECKING:  # training imports transformers; scoring alone does not need it
    from watercolor.training.step_cpu import RewardsCpu
    from watercolor.training.yardsticks import Yardsticks

log = logging.getLogger(__name__)

Renderer = Callable[[str, int], Awaitable[Canvas]]  # (reply, seed) -> Canvas
# Every metric the scorer logs through TRL (`batch_metrics`, `prefetched`, `generation_s`).
ROLLOUT_PREFIX = "rollouts/"


@dataclass
class Rollouts:
    """One scored batch: what TRL's reward functions return, and what tracking logs."""

    step: int
    prompts: list[str]
    replies: list[str]
    canvases: list[Canvas]
    scores: list[Score]
    weights: dict[str, float] = field(default_factory=dict)
    wall_s: float = 0.0  # painting + scoring the whole batch, as the trainer waited for it
    yardsticks: dict[str, float] = field(default_factory=dict)  # behaviour/*, crossreward/*

    def value(self, name: str, i: int) -> float | None:
        """Component `name` of completion `i` as TRL sees it (gated; None = no verdict)."""
        score = self.scores[i]
        if score.total is None:
            return None
        return score.components.get(name) if score.gate_passed else 0.0


def completion_text(completion) -> str:
    """The assistant's text from a TRL completion (a string, or a list of chat messages)."""
    if isinstance(completion, str):
        return completion
    return "".join(m.get("content") or "" for m in completion if m.get("role") == "assistant")


def prompt_text(prompt) -> str:
    """The user's request from a TRL prompt (a string, or a list of chat messages)."""
    if isinstance(prompt, str):
        return prompt
    return next((m["content"] for m in reversed(prompt) if m.get("role") == "user"), "")


# TRL therefore logs `rewards/<name>` as the component's gated value; the raw values, gate-violation
# rates, execution rate, per-canvas render time and the batch's wall time in rewards go through
# `log_metric` as `rollouts/components/<name>`, `rollouts/violations/<code>`,
# `rollouts/execution_rate`, `rollouts/render_s` and `rollouts/reward_wall_s`
# (`watercolor.tracking.metric_name` says what MLflow calls each). An infrastructure failure makes
# every function return None for that completion, so TRL leaves it out of the group baseline instead
# of scoring a fake 0.
class RolloutScorer:
    """Paints and scores each batch once; serves its components to TRL."""

    def __init__(
        self,
        reward_set: RewardSet,
        renderer: Renderer,
        *,
        num_generations: int,
        seed: int = 0,
        on_batch: Callable[[Rollouts], None] | None = None,
        cpu: RewardsCpu | None = None,
        yardsticks: Yardsticks | None = None,
    ) -> None:
        self.reward_set, self.renderer = reward_set, renderer
        self.yardsticks = yardsticks  # measures each scored batch (None: not measured)
        self.cpu = cpu  # marks the rewards call's CPU for training.step_cpu (None: not read)
        self.num_generations, self.seed, self.on_batch = num_generations, seed, on_batch
        self._batches: dict[tuple, asyncio.Task] = {}
        self._codes: set[str] = set()  # every violation code seen so far in this run
        self._ahead: dict[str, list[concurrent.futures.Future]] = {}  # reply -> renders under way
        self._generation_s: float | None = None
        self._step_started: float | None = None
        # The event loop TRL calls the reward functions on (the renders run there).
        self.loop: asyncio.AbstractEventLoop | None = None

    # `prefetch(reply)` starts painting a reply before TRL asks for its reward (called by
    # `watercolor.training.rollout.OverlappedRollout` as each reply finishes generating); the batch
    # then awaits that render instead of starting another. `rollouts/prefetched` (the share of a
    # batch's canvases that were painted ahead) and `rollouts/generation_s` are logged with the
    # rest: the rollout's own generation time (`note_generation`), or, when TRL generates, the time
    # from the step's start (`note_step_start`, from `watercolor.training.rollout.GenerationClock`)
    # to the rewards call.
    def prefetch(self, reply: str) -> bool:
        """Start painting `reply` now, from any thread, on the loop TRL calls the rewards on.

        False (nothing started) before the first rewards call: that loop is not known yet.
        """
        if self.loop is None:
            return False
        future = asyncio.run_coroutine_threadsafe(self.renderer(reply, self.seed), self.loop)
        self._ahead.setdefault(reply, []).append(future)
        return True

    def note_generation(self, seconds: float) -> None:
        """The wall time of the generation whose replies the next batch scores (logged once)."""
        self._generation_s = seconds

    def note_step_start(self) -> None:
        """A training step starts (TRL generates, then asks for rewards): unless the rollout
        reports its generation time itself, it is taken as the time until the rewards call."""
        self._step_started = time.perf_counter()

    def reward_functions(self) -> tuple[list[Callable], list[float]]:
        """TRL reward functions (named after the components) and their `reward_weights`."""
        weights = self.trl_weights()
        return [self._function(name) for name in weights], list(weights.values())

    def trl_weights(self) -> dict[str, float]:
        weights = self.reward_set.weights
        if not self.reward_set.normalise:
            return dict(weights)
        norm = sum(abs(w) for w in weights.values()) or 1.0
        return {name: w / norm for name, w in weights.items()}

    def _function(self, name: str) -> Callable:
        async def component(prompts, completions, trainer_state=None, **kwargs):
            rollouts = await self.rollouts(prompts, completions, trainer_state, kwargs)
            return [rollouts.value(name, i) for i in range(len(completions))]

        component.__name__ = component.__qualname__ = name
        return component

    def paint_and_score(
        self, loop: asyncio.AbstractEventLoop, prompts: Sequence, replies: Sequence[str]
    ) -> tuple[list[Canvas], list[Score]]:
        """Paint and score `replies` now, on `loop` (the one TRL calls the rewards on), from a
        thread outside it: a revision episode's drafts (`watercolor.training.revision`), never
        logged."""
        self.loop = loop

        async def paint_all() -> tuple[list[Canvas], list[Score]]:
            canvases = await asyncio.gather(*(self.renderer(r, self.seed) for r in replies))
            texts = [prompt_text(p) for p in prompts]
            return canvases, await asyncio.to_thread(self._score_groups, canvases, texts)

        return asyncio.run_coroutine_threadsafe(paint_all(), loop).result()

    async def rollouts(self, prompts, completions, trainer_state, kwargs) -> Rollouts:
        """The scored batch for these completions (painted by the first caller only). A
        revision episode's completion is a whole trajectory: its `final_reply` is scored."""
        self.loop = asyncio.get_running_loop()
        step = getattr(trainer_state, "global_step", 0)
        replies = kwargs.get("final_reply") or [completion_text(c) for c in completions]
        key = (step, tuple(replies))
        if key not in self._batches:
            self._batches = {k: t for k, t in self._batches.items() if k[0] >= step}
            self._batches[key] = asyncio.ensure_future(self._score(step, prompts, key[1], kwargs))
        return await self._batches[key]

    def _score_groups(self, canvases: list[Canvas], texts: list[str]) -> list[Score]:
        """Score group by group: group components (diversity, judges) see one GRPO group."""
        scores, size = [], self.num_generations
        with self.cpu.scoring_thread() if self.cpu else contextlib.nullcontext():
            for start in range(0, len(canvases), size):
                group = slice(start, start + size)
                scores += self.reward_set.score_batch(canvases[group], prompt=texts[group])
        return scores

    async def _canvas(self, reply: str) -> tuple[Canvas, bool]:
        """(canvas, whether it was painted ahead): a prefetched render if one is under way."""
        pending = self._ahead.get(reply)
        if pending:
            return await asyncio.wrap_future(pending.pop()), True
        return await self.renderer(reply, self.seed), False

    async def _score(self, step: int, prompts, replies: Sequence[str], kwargs) -> Rollouts:
        started = time.perf_counter()
        if self.cpu:
            self.cpu.start()
        if self._generation_s is None and self._step_started is not None:
            self._generation_s = started - self._step_started
        self._step_started = None
        texts = [prompt_text(p) for p in prompts]
        painted = await asyncio.gather(*(self._canvas(r) for r in replies))
        canvases = [canvas for canvas, _ in painted]
        ahead = sum(hit for _, hit in painted) / len(painted)
        self._ahead.clear()  # renders of replies TRL decoded differently are not awaited again
        # Off the event loop: a judge may block on a model server for seconds.
        scores = await asyncio.to_thread(self._score_groups, canvases, texts)
        # Numbered as the optimisation step these completions train (metrics use the same).
        rollouts = Rollouts(
            step + 1, texts, list(replies), canvases, scores, self.trl_weights(),
            wall_s=time.perf_counter() - started,
        )  # fmt: skip
        self._codes |= {code for c in canvases for code in c.violations}
        rollouts.yardsticks = await self._measure(rollouts)
        if log_metric := kwargs.get("log_metric"):
            metrics = batch_metrics(rollouts, self._codes) | {"prefetched": ahead}
            if self._generation_s is not None:
                metrics["generation_s"] = self._generation_s
            metrics |= draft_metrics(kwargs.get("draft_reward"), scores)
            if counters := getattr(self.renderer, "counters", None):  # a render fleet's, per server
                metrics |= counters()
            for name, value in metrics.items():
                log_metric(f"{ROLLOUT_PREFIX}{name}", value)
            for name, value in rollouts.yardsticks.items():
                log_metric(name, value)
        self._generation_s = None
        if self.on_batch is not None:
            self.on_batch(rollouts)
        if self.cpu:
            self.cpu.end()
        return rollouts

    async def _measure(self, rollouts: Rollouts) -> dict[str, float]:
        """The batch's yardsticks ({} without any); one that fails is logged, never the
        batch's failure: its rewards stand."""
        if self.yardsticks is None:
            return {}
        try:
            with self.cpu.yardsticks_window() if self.cpu else contextlib.nullcontext():
                return await self.yardsticks.measure(rollouts)
        except Exception:
            log.exception("the yardsticks of step %d failed (its rewards stand)", rollouts.step)
            return {}


def draft_metrics(drafts: Sequence[float | None] | None, scores: list[Score]) -> dict[str, float]:
    """A revision episode's draft reward and the final reply's change over it (both logged,
    never paid: paying for the change would teach bad drafts)."""
    if not drafts:
        return {}
    pairs = [(d, s.total) for d, s in zip(drafts, scores, strict=True) if d is not None]
    metrics = {"draft_reward": statistics.fmean(d for d, _ in pairs)} if pairs else {}
    if changes := [final - d for d, final in pairs if final is not None]:
        metrics["revision_gain"] = statistics.fmean(changes)
    return metrics


def batch_metrics(rollouts: Rollouts, codes: set[str] = frozenset()) -> dict[str, float]:
    """Execution rate, violation rate per code, render time and raw component means.

    Every code in `codes` is reported, 0 when absent from this batch, so that a rate averaged
    over a logging window (or read as "the latest value") is not stale.
    """
    canvases = rollouts.canvases
    metrics = {
        "execution_rate": sum(c.ok for c in canvases) / len(canvases),
        "infra_failure_rate": sum(c.status == Status.INFRA_ERROR for c in canvases) / len(canvases),
        "render_s": statistics.fmean(c.timings.get("total_ms", 0.0) for c in canvases) / 1000,
        "reward_wall_s": rollouts.wall_s,
    }
    for code in sorted(set(codes) | {code for c in canvases for code in c.violations}):
        metrics[f"violations/{code}"] = sum(code in c.violations for c in canvases) / len(canvases)
    for name in rollouts.scores[0].components if rollouts.scores else ():
        values = [s.components.get(name) for s in rollouts.scores]
        values = [v for v in values if v is not None]
        if values:
            metrics[f"components/{name}"] = statistics.fmean(values)
    return metrics
