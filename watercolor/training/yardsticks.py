"""Yardsticks: every run's rollouts measured the same way, whatever reward the run pays.

    >>> yardsticks = build_yardsticks(settings, task, rewards, renderer, own="fine_grained")
    >>> await yardsticks.measure(rollouts)   # the scorer calls it each step, after scoring
    {'behaviour/flat_block_rate': 0.25, ..., 'crossreward/coarse': 0.41,
     'crossreward/gate/gated': 0.75, ...}

A reward's own curve is a ruler only for itself: `reward/total` under `coarse` and under
`fine_grained` are two rulers. So each step the rollouts' canvases and replies, already in memory,
are measured by evaluation's own code (`watercolor.analysis.behaviour`: `behaviour_row` with the
task's `style`, summed up by `summarise_behaviour`) as `behaviour/<metric>`, and every offline
reward set of the task scores the same canvases: `crossreward/<set>` (its mean total over the
replies it has a verdict on, a failed gate counting 0) and `crossreward/gate/<set>` (the share
of those its gate passes). The run's own set is among them under its name, from the scores
already computed, so every job of a sweep draws a line on every chart.

Which sets score on which steps (a set that reads a second paper, sets with group components or
services): the comment at `Yardsticks.measured`.

What it costs is the job's CPU while it runs (the twin renders in Chromium included):
`step_cpu/yardsticks_s` (`watercolor.training.step_cpu`); `python -m watercolor.bench grpo_steps`
sets it against the default step. `yardsticks.enabled=false` turns it off,
`yardsticks.cross_rewards=[coarse]` narrows it, `yardsticks.second_paper_every=0` paints no twin.
"""

from __future__ import annotations

import asyncio
import math
import statistics
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import pandas as pd

from watercolor import config
from watercolor.analysis.behaviour import behaviour_row, summarise_behaviour
from watercolor.canvas import Canvas
from watercolor.rewards.reward_set import RewardSet, Score
from watercolor.rewards.trl_adapter import Rollouts
from watercolor.tasks import Task
from watercolor.tasks.episode import with_twin

BEHAVIOUR, CROSS, GATE = "behaviour/", "crossreward/", "crossreward/gate/"
# Evaluation's measures that need what training does not keep per reply (token counts) or a
# group of canvases (diversity): left to evaluation.
NOT_PER_STEP = ("truncated_rate", "completion_tokens", "diversity")


@dataclass(frozen=True)
class YardstickSettings:
    """conf/train.yaml's `yardsticks` (the config instantiates this; its values live there).

    `cross_rewards`: the sets that score each step's canvases (None: every set of the task that
    scores offline with no group component, `cross_reward_names`); `second_paper_every`: the
    steps (every this many) whose clean runs are painted over a second paper for the sets that
    read one (0: never, beyond what the run's own episode paints)."""

    enabled: bool
    cross_rewards: Sequence[str] | None
    second_paper_every: int


def cross_reward_names(task: str) -> list[str]:
    """The offline sets made for `task` that score a canvas on its own (no group component such
    as a judge's win rate, which draws references and costs a judge's time)."""
    names = config.reward_set_names(offline=True, task=task)
    return [n for n in names if not config.compose_train([f"reward={n}"]).reward.get(
        "group_components")]  # fmt: skip


class Yardsticks:
    """Measures a scored batch (`measure`): `behaviour/*` and `crossreward/*` metrics."""

    def __init__(
        self,
        task: Task,
        reward_sets: Mapping[str, RewardSet],
        own: str | None,
        renderer=None,
        *,
        second_paper_every: int,
        seed: int = 0,
    ) -> None:
        """`reward_sets`: the cross-scoring sets by name; `own`: which of them is the run's (its
        scores are the batch's own); `renderer`: the run's (a `LocalRenderer` paints twins)."""
        self.task, self.reward_sets, self.own, self.renderer = task, reward_sets, own, renderer
        self.every, self.seed = second_paper_every, seed
        papers = {s.second_paper for s in reward_sets.values()} - {None}
        self.paper = papers.pop() if len(papers) == 1 else None  # several: none painted here

    async def measure(self, rollouts: Rollouts) -> dict[str, float]:
        """The batch's yardsticks (NaN-free: a measure with nothing to read is left out)."""
        canvases = rollouts.canvases
        if self._twins_due(rollouts.step):
            pool = await self.renderer.started()
            canvases = await asyncio.gather(*(self._twin(pool, c) for c in canvases))
        return await asyncio.to_thread(self.measured, rollouts, list(canvases))

    # A set that reads opacity from a second paper (painting's `show_through`) scores only canvases
    # painted over that paper too. On the steps `second_paper_every` names, each clean run of the
    # step is painted again over it (`watercolor.tasks.episode.with_twin`, the twin step of
    # `Task.painting_for`'s episode), and `behaviour/paint_opacity` is read beside; on the other
    # steps those sets log nothing (no value is better than a guessed one), unless the run's own
    # episode painted the twins already. Sets with group components (a judge's win rate) or services
    # stay off unless `cross_rewards` names them. A remote renderer paints no twins here.
    def measured(self, rollouts: Rollouts, canvases: Sequence[Canvas]) -> dict[str, float]:
        """`measure` on canvases already painted (twins included where due)."""
        metrics = behaviour_metrics(canvases, rollouts.replies, self.task.style)
        for name, rewards in self.reward_sets.items():
            if name == self.own:
                scores = rollouts.scores
            elif all(rewards.missing_paper(c) is None for c in canvases):
                scores = rewards.score_batch(canvases, prompt=rollouts.prompts)
            else:  # its second paper was not painted this step
                continue
            metrics |= cross_metrics(name, scores)
        return metrics

    def _twins_due(self, step: int) -> bool:
        return bool(
            self.paper and self.every and step % self.every == 0
            and hasattr(self.renderer, "started")  # a local pool: a remote one paints no twin
        )  # fmt: skip

    async def _twin(self, pool, canvas: Canvas) -> Canvas:
        if not canvas.ok or canvas.twin_paper == self.paper:
            return canvas
        return await with_twin(pool, canvas, self.paper, self.seed)


def behaviour_metrics(
    canvases: Sequence[Canvas], replies: Sequence[str], style=None
) -> dict[str, float]:
    """`behaviour/<metric>`: evaluation's summary (`summarise_behaviour`) of these canvases'
    `behaviour_row`s, the measures that need a token count or a group left out."""
    table = pd.DataFrame(
        [behaviour_row(c, r, style) for c, r in zip(canvases, replies, strict=True)]
    )
    summary = summarise_behaviour(table)
    return {
        BEHAVIOUR + name: value
        for name, value in summary.items()
        if name not in NOT_PER_STEP and math.isfinite(value)
    }


def cross_metrics(name: str, scores: Sequence[Score]) -> dict[str, float]:
    """`crossreward/<name>` (mean total over the scores with a verdict) and
    `crossreward/gate/<name>` (the share of those whose gate passed); {} with no verdict."""
    judged = [s for s in scores if s.total is not None]
    if not judged:
        return {}
    return {
        CROSS + name: statistics.fmean(s.total for s in judged),
        GATE + name: sum(s.gate_passed for s in judged) / len(judged),
    }


def build_yardsticks(
    settings: YardstickSettings,
    task: Task,
    rewards: RewardSet,
    renderer=None,
    *,
    own: str | None = None,
    seed: int = 0,
) -> Yardsticks | None:
    """The run's yardsticks (None when `settings.enabled` is false): `rewards` (the run's own
    set, named `own`) and the other sets `settings` names, made for the task."""
    if not settings.enabled:
        return None
    names = settings.cross_rewards
    names = cross_reward_names(task.name) if names is None else list(names)
    sets = {}
    for name in dict.fromkeys([*names, *([own] if own else [])]):
        sets[name] = rewards if name == own else config.reward_set(name)
        config.check_reward_task(name, sets[name].task, task.name)
    return Yardsticks(
        task, sets, own, renderer, second_paper_every=settings.second_paper_every, seed=seed
    )
