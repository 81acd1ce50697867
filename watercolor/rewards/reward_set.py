"""A reward set: weighted components, an optional hard gate, one total per canvas.

    >>> from hydra.utils import instantiate
    >>> rewards = instantiate(cfg.reward)          # conf/reward/gated.yaml -> RewardSet
    >>> score = rewards.score(canvas, prompt="draw a peach hibiscus in watercolour")
    >>> score.total, score.components["edge_softness"]
    (0.71, 0.83)

or, without Hydra, from plain values:

    >>> from watercolor.rewards import coverage, execution
    >>> rewards = RewardSet(
    ...     {"clean_run": {"weight": 0.0, "fn": execution.clean_run},
    ...      "coverage": {"weight": 1.0, "fn": coverage.coverage}},
    ...     gate=["clean_run"])

The total (`Score.total`):

    None                    if the canvas is an infrastructure failure, or any gate component
                            or any component with a non-zero weight returned None (no verdict:
                            TRL leaves the sample out of the group baseline);
    0                       if any gate component scored below `gate_threshold`, or any
                            component spent over `component_budget_s` CPU seconds on the
                            canvas (the reply's failure: its content made the scoring slow);
    sum_i w_i * c_i         otherwise (the anchor's form: 0.05*gate + 0.05*length_ramp + ...),
                            divided by sum_i w_i when `normalise` is true.

Every component is computed and reported, weight 0 included, so a metric can be watched without
paying for it. What a component that raises, fails its setup or overruns its CPU budget reports,
and which dataset columns reach it: the comment at `component_value`. Group components
(`group_diversity`, a judge's win rate) score a whole GRPO group: the comment at `score_batch`.
"""

from __future__ import annotations

import functools
import inspect
import logging
import math
import time
import weakref
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import TypeVar

from watercolor.canvas import Canvas, Status

log = logging.getLogger(__name__)
ComponentFn = Callable[..., float | None]
T = TypeVar("T")
# One component's CPU budget on one canvas (seconds of the scoring thread's own clock, so other
# threads and processes do not count): ~50x the slowest offline component measured (~0.04 s,
# show_through on an SVG canvas, 2026-12-05). Checked when the component returns, like the
# gate's GATE_BUDGET_S (watercolor.tasks.episode): pure Python cannot be preempted without a
# signal, which only the main thread may set and the trainer's reward calls need not run on.
COMPONENT_BUDGET_S = 2.0


class ComponentSetupError(ValueError):
    """A component configured so that it can score no canvas (an argument it needs is missing):
    raised through `score` (and by `RewardSet.check_setup`, before any canvas), so a run stops
    saying why, where a per-canvas error would leave every canvas without a verdict (None for
    TRL) for the whole run. Raise it before reading the canvas."""


@dataclass(frozen=True)
class Component:
    """One weighted reward function and the dataset columns it accepts."""

    weight: float
    fn: ComponentFn
    columns: frozenset[str]

    @classmethod
    def of(cls, name: str, spec: Mapping) -> Component:
        """From `{weight: float, fn: callable}` (what Hydra instantiates from the YAML)."""
        if not callable(spec.get("fn")):
            raise ValueError(f"reward component {name!r}: `fn` must be callable, got {spec!r}")
        parameters = list(inspect.signature(spec["fn"]).parameters.values())[1:]
        named = (inspect.Parameter.POSITIONAL_OR_KEYWORD, inspect.Parameter.KEYWORD_ONLY)
        columns = frozenset(p.name for p in parameters if p.kind in named)
        return cls(float(spec.get("weight", 1.0)), spec["fn"], columns)

    def __call__(self, first, columns: Mapping) -> float | list[float | None] | None:
        return self.fn(first, **{k: v for k, v in columns.items() if k in self.columns})

    def key(self, columns: Mapping) -> tuple | None:
        """What this call on a canvas is: the function itself (two lambdas are two), its bound
        parameters and the columns it reads (by value, as text); None where that cannot be said
        (a callable object, whose state could differ)."""
        fn, bound = self.fn, ()
        while isinstance(fn, functools.partial):
            bound, fn = (repr(fn.args), repr(sorted(fn.keywords.items())), *bound), fn.func
        if not inspect.isfunction(fn):
            return None
        read = repr(sorted((k, v) for k, v in columns.items() if k in self.columns))
        return (fn, *bound, read)


# Every component is computed and reported, weight 0 included, so a metric can be watched without
# paying for it; one that raises is reported as None (a bug of ours: no verdict for that canvas, the
# others keep theirs) and named in `Score.errors`, except a setup error (`ImportError`, a missing
# extra; `ComponentSetupError`, a component configured so that it can score no canvas), which stops
# the scoring at its first canvas with its message (`check_setup` finds the second kind before any
# canvas: training and the environment server call it at start-up); one over its CPU budget is
# reported as 0, its overrun named there too (checked when it returns, see `COMPONENT_BUDGET_S`;
# group components are not timed). Dataset columns passed to `score(canvas, **columns)` reach
# exactly the components that name them as a parameter (e.g. `prompt` for `prompt_colours`).
def component_value(
    name: str, component: Component, canvas: Canvas, columns: Mapping, budget_s: float
) -> tuple[float | None, str | None, bool]:
    """(value, error, overran) of one component on one canvas: None where it raised (a bug of
    ours), 0 where it spent over `budget_s` CPU seconds of this thread (the reply's failure).
    Computed once per canvas for the same function, parameters and columns, whichever set
    asks (`_MEMO`)."""
    memo, key = _MEMO.setdefault(canvas, {}), component.key(columns)
    if key is None or key not in memo:
        found = _guarded(name, lambda: component(canvas, columns), budget_s, "reply")
        if found[1]:
            log.error("%s (reply: %.80r)", found[1], canvas.reply or canvas.sketch)
        if key is None:
            return found
        memo[key] = found
    return memo[key]


# Per canvas, each component call's (value, error, overran) by `Component.key`: sets share
# components (gated is fine_grained behind a gate, show_through scales fine_grained's sum), so
# a canvas scored by several (evaluation, the audit, every run's yardsticks) computes each once.
# Components are pure functions of the canvas and their parameters (STYLE.md), so a repeat
# call could only give the same answer.
_MEMO: weakref.WeakKeyDictionary[Canvas, dict] = weakref.WeakKeyDictionary()


def group_values(
    name: str, component: Component, canvases: list[Canvas], columns: Mapping, budget_s: float
) -> tuple[list[float | None], str | None]:
    """(one value per canvas, error) of a group component: all None where it raised or gave
    another count of values (a bug of ours), all 0 where it spent over `budget_s` CPU seconds
    per canvas (the group's replies made it slow; which one cannot be told, and a constant over
    the group moves no GRPO advantage)."""

    def call() -> list[float | None]:
        values = list(component(canvases, columns))
        if len(values) != len(canvases):
            raise ValueError(f"gave {len(values)} values for {len(canvases)} canvases")
        return values

    values, error, overran = _guarded(name, call, budget_s * len(canvases), "group's")
    if error:
        log.error("%s (a group of %d replies)", error, len(canvases))
    if values is None or overran:
        values = [None if values is None else 0.0] * len(canvases)
    return values, error


def _guarded(
    name: str, call: Callable[[], T], budget_s: float, whose: str
) -> tuple[T | float | None, str | None, bool]:
    """(call's value, error, overran): None where it raised, 0.0 where it spent over `budget_s`
    CPU seconds of this thread."""
    started = time.thread_time()
    try:
        value, error = call(), None
    except (ImportError, ComponentSetupError):
        raise  # it would fail every canvas alike: a setup error, said at once
    except Exception as exc:  # a scorer's bug costs this canvas its verdict, not the batch
        value, error = None, f"reward component {name} raised {type(exc).__name__}: {exc}"
    spent = time.thread_time() - started
    if overran := spent > budget_s:
        value = 0.0
        error = (
            f"reward component {name} took {spent:.2f} CPU-s, over its budget of {budget_s:g} "
            f"CPU-s: the {whose} failure, scored 0"
        )
    return value, error, overran


@dataclass(frozen=True)
class Score:
    """The total reward of one canvas and every component's value."""

    total: float | None
    components: dict[str, float | None]
    gate_passed: bool
    errors: tuple[str, ...] = ()  # components that raised (their value is None: our failure)


class RewardSet:
    """Weighted reward components with an optional hard gate (see the module docstring)."""

    def __init__(
        self,
        components: Mapping[str, Mapping],
        gate: Sequence[str] = (),
        gate_threshold: float = 1.0,
        normalise: bool = False,
        group_components: Mapping[str, Mapping] | None = None,
        needs: Sequence[str] = (),
        task: str | None = None,
        second_paper: str | None = None,
        component_budget_s: float | None = None,
    ) -> None:
        self.components = {name: Component.of(name, spec) for name, spec in components.items()}
        self.group_components = {
            name: Component.of(name, spec) for name, spec in (group_components or {}).items()
        }
        missing = [name for name in gate if name not in self.components]
        if missing:
            raise ValueError(f"gate names {missing} that are not components of this reward set")
        self.gate, self.gate_threshold, self.normalise = tuple(gate), gate_threshold, normalise
        # Services the set cannot score without (e.g. "hpsv3", "judge_server"); offline tools
        # (evaluate's default, tests) leave such sets out.
        self.needs = tuple(needs)
        # The task whose canvases the set was made for (a `Task.name`, conf/task/<name>.yaml's
        # `name`): evaluation scores a task's canvases with its own sets, training refuses
        # another task's (`watercolor.config.check_reward_task`). None: any task's.
        self.task = task
        # The paper (#rrggbb) each passing reply is painted over a second time, for components
        # that read opacity from the pair (`watercolor.rewards.matting`); None: one render.
        self.second_paper = second_paper
        # CPU seconds (of the scoring thread) one component may spend on one canvas; None: the
        # default, COMPONENT_BUDGET_S.
        self.component_budget_s = (
            COMPONENT_BUDGET_S if component_budget_s is None else component_budget_s
        )

    def check_setup(self) -> None:
        """Raise `ComponentSetupError` now for a component configured so that it can score no
        canvas, where a long-running scorer (the environment server) would otherwise log it at
        every step. Each per-canvas component is called once on a canvas with no verdict (an
        infrastructure failure: the contract's None, nothing read or fetched); a component that
        checks its arguments raises before it looks at the canvas (`palette_match`). Anything
        else it raises here is left for scoring to report, per canvas."""
        probe = Canvas(Status.INFRA_ERROR, errors=["the reward set's set-up check"])
        for name, component in self.components.items():
            try:
                component(probe, {})
            except ComponentSetupError:
                raise
            except Exception as error:  # not a setup error: scoring reports it, per canvas
                log.debug("reward component %s on the set-up check: %r", name, error)

    @property
    def weights(self) -> dict[str, float]:
        return {n: c.weight for n, c in {**self.components, **self.group_components}.items()}

    def missing_paper(self, canvas: Canvas) -> str | None:
        """Why this set cannot judge a painted `canvas`: it reads opacity from a second paper
        (`second_paper`) the canvas was not painted over (an episode not built for the set:
        `watercolor.tasks.Task.painting_for`); None when nothing is missing. Such a canvas has
        no verdict, never the reading of an opaque one."""
        if self.second_paper is None or not canvas.ok or canvas.twin_paper == self.second_paper:
            return None
        painted = f"over {canvas.twin_paper}" if canvas.twin_paper else "over one paper only"
        return (
            f"this reward set reads opacity from a second paper ({self.second_paper}) and the "
            f"canvas was painted {painted}: no verdict (paint it with the task's episode for this "
            "set, Task.painting_for)"
        )

    def score(self, canvas: Canvas, **columns) -> Score:
        """Score one canvas (group components are not applied; see `score_batch`)."""
        values, errors, overran = {}, [], False
        budget = self.component_budget_s
        for name, component in self.components.items():
            values[name], error, over = component_value(name, component, canvas, columns, budget)
            errors += [error] if error else []
            overran |= over
        score = self._total(canvas, values)
        if overran and score.total is not None:
            score = replace(score, total=0.0)  # the reply made its scoring overrun: its failure
        if missing := self.missing_paper(canvas):
            score, errors = replace(score, total=None), [*errors, missing]
        return replace(score, errors=tuple(errors)) if errors else score

    def _total(self, canvas: Canvas, values: dict[str, float | None]) -> Score:
        gate = [values[name] for name in self.gate]
        passed = all(v is not None and v >= self.gate_threshold for v in gate)
        needed = [values[n] for n, c in self.components.items() if c.weight] + gate
        if canvas.infra_failure or any(v is None for v in needed):
            return Score(None, values, passed)
        if not passed:
            return Score(0.0, values, False)
        total = sum(c.weight * values[n] for n, c in self.components.items() if c.weight)
        return Score(self._normalised(total), values, True)

    # Group components (`fn(canvases, **params) -> list[float | None]`, e.g. `group_diversity`) see
    # a whole GRPO group, so only `score_batch` applies them: their weighted values are added to
    # each canvas's total (gated canvases stay at 0).
    def score_batch(self, canvases: Sequence[Canvas], **columns: Sequence) -> list[Score]:
        """Score a group of canvases; `columns` hold one value per canvas, in the same order."""
        scores = [
            self.score(canvas, **{k: v[i] for k, v in columns.items()})
            for i, canvas in enumerate(canvases)
        ]
        budget = self.component_budget_s
        for name, group in self.group_components.items():
            values, error = group_values(name, group, list(canvases), columns, budget)
            pairs = zip(scores, values, strict=True)
            scores = [self._add(score, name, group.weight, v, error) for score, v in pairs]
        return scores

    def _add(
        self, score: Score, name: str, weight: float, value: float | None, error: str | None
    ) -> Score:
        """`score` with a group component's value (and error) recorded and (weighted) added to
        its total."""
        components = {**score.components, name: value}
        total = score.total
        if total is not None and score.gate_passed and weight:
            total = None if value is None else total + self._normalised(weight * value)
        errors = score.errors + ((error,) if error else ())
        return Score(total, components, score.gate_passed, errors)

    def _normalised(self, weighted_sum: float) -> float:
        if not self.normalise:
            return weighted_sum
        return weighted_sum / sum(abs(w) for w in self.weights.values())


def scaled_total(
    canvas: Canvas,
    prompt: str | None = None,
    *,
    rewards: RewardSet,
    factor: ComponentFn | Sequence[ComponentFn],
) -> float | None:
    """[0, 1]: `rewards`' total for the canvas times `factor` of it, or times the product of
    several factors (None if the total or any factor is None). A factor is called as a component
    is, with the canvas and the prompt where it takes one. A product cannot be collected
    piecemeal: a canvas that fails one factor outright keeps nothing of the others
    (conf/reward/washes.yaml, svg_fine.yaml)."""
    columns = {} if prompt is None else {"prompt": prompt}
    total = rewards.score(canvas, **columns).total
    factors = [factor] if callable(factor) else list(factor)
    values = [Component.of("factor", {"fn": f})(canvas, columns) for f in factors]
    if total is None or any(value is None for value in values):
        return None
    return total * math.prod(values)


def second_paper(reward_sets: Iterable[RewardSet]) -> str | None:
    """The one second paper these sets ask the renderer for (None if none asks); two sets asking
    for different papers cannot share a render, which is an error."""
    asked = {rewards.second_paper for rewards in reward_sets} - {None}
    if len(asked) > 1:
        raise ValueError(
            f"reward sets ask for different second papers {sorted(asked)}: score them apart"
        )
    return asked.pop() if asked else None
