"""A reward set as an OpenEnv rubric tree: the environment's `rubric`, built from the set's own
components.

    >>> rubric = RewardSetRubric(rewards)       # a RewardSet (conf/reward/gated.yaml)
    >>> rubric({"prompt": "paint a peach hibiscus in watercolour"}, canvas)
    0.71                                        # == rewards.score(canvas, prompt=...).total
    >>> [(name, child.last_score) for name, child in rubric.named_rubrics()]
    [('gate', 1.0), ('gate.clean_run', 1.0), ..., ('weighted', 0.71), ...]

The tree (`openenv.core.rubrics.Rubric` throughout: `named_rubrics`, `last_score`, hooks work):

    RewardSetRubric            the set's total (None: no verdict)
      gate: GateRubric         1.0 when every gate component reaches the threshold, else 0.0
        <name>: ComponentRubric
      weighted: WeightedRubric sum of weight x value over the paid components (normalised
                               as the set normalises)
        <name>: ComponentRubric  (.weight)
      reported: RubricDict     the unpaid, ungating components, computed for the record

Each leaf calls the very `Component` that `RewardSet.score` calls (the one Hydra instantiated), so
training (which scores through `RewardSet`) and the environment's rubric share every component;
a component listed in the gate and paid too is one leaf under both, computed once per call. Why
training does not score through this tree, and what OpenEnv's rubric contract does not carry (and
this tree does, as the set does): the comment above `RewardSetRubric`.
"""

from __future__ import annotations

from collections.abc import Mapping

from openenv.core.rubrics import Rubric, RubricDict

from watercolor.canvas import Canvas
from watercolor.rewards.reward_set import Component, RewardSet, component_value


class ComponentRubric(Rubric):
    """One component of a reward set: its value for a canvas (None: no verdict, or it raised)."""

    def __init__(self, name: str, component: Component, budget_s: float) -> None:
        super().__init__()
        self.name, self.component, self.weight = name, component, component.weight
        self.budget_s = budget_s
        self.last_error: str | None = None
        self.overran = False

    def forward(self, action: Mapping, observation: Canvas) -> float | None:
        # as RewardSet.score: None where it raised, 0 (and `overran`) past its CPU budget
        value, self.last_error, self.overran = component_value(
            self.name, self.component, observation, action, self.budget_s
        )
        return value


class GateRubric(Rubric):
    """1.0 when every gate component reaches `threshold`, 0.0 when one does not, None when one
    has no verdict (an empty gate passes)."""

    def __init__(self, leaves: Mapping[str, ComponentRubric], threshold: float) -> None:
        super().__init__()
        self.threshold = threshold
        adopt(self, leaves)

    def forward(self, action: Mapping, observation: Canvas) -> float | None:
        return self.combine({n: leaf(action, observation) for n, leaf in self.named_children()})

    def combine(self, values: Mapping[str, float | None]) -> float | None:
        gate = [values[name] for name, _ in self.named_children()]
        if any(v is None for v in gate):
            return None
        return 1.0 if all(v >= self.threshold for v in gate) else 0.0


class WeightedRubric(Rubric):
    """The weighted sum of the paid components, divided by `divisor`; None when one has no
    verdict."""

    def __init__(self, leaves: Mapping[str, ComponentRubric], divisor: float | None) -> None:
        super().__init__()
        self.divisor = divisor
        adopt(self, leaves)

    def forward(self, action: Mapping, observation: Canvas) -> float | None:
        return self.combine({n: leaf(action, observation) for n, leaf in self.named_children()})

    def combine(self, values: Mapping[str, float | None]) -> float | None:
        paid = [(leaf.weight, values[name]) for name, leaf in self.named_children()]
        if any(v is None for _, v in paid):
            return None
        total = sum(weight * value for weight, value in paid)
        return total if self.divisor is None else total / self.divisor


# Training does not call through this tree: importing `openenv.core.rubrics` imports OpenEnv's
# server stack (~9 s here), which the scorer, `watercolor.score` and a typo's answer must not pay,
# and a leaf's `last_score` is one slot shared by every session and every row of a batch.
# tests/env/test_rubric.py shows both paths give the same total, bit for bit, on the tests' sketch
# table.
#
# What OpenEnv's rubric contract (`forward(action, observation) -> float`) does not carry, kept
# here:
# - `None`, no verdict: an infrastructure failure, or a component that could not decide (a judge
#   server down). OpenEnv's `Gate` and `WeightedSum` compare and multiply their children's values,
#   so a None would raise; these containers pass it up as the set does, and TRL leaves the row out
#   of the group baseline.
# - A component over its CPU budget (`RewardSet.component_budget_s`) reads 0 and the tree's total is
#   0, as the set's: the reply's failure, which no container's arithmetic would give.
# - The inputs: the observation is our `Canvas` (pixels, reply, status: what the components read),
#   not the wire `CanvasObservation`, and the action is the row's dataset columns (`{"prompt":
#   ...}`), which components such as `prompt_colours` name as parameters. The reply is
#   `canvas.reply`.
# - Group components (a judge's win rate over a GRPO group, `group_diversity`) score a whole group,
#   not one (action, observation): they are named in `group_components` but are no leaves, and the
#   tree's total is the per-canvas part; `RewardSet.score_batch` adds them.
# - A judge's references (the tiered pool a pairwise judge draws from) live in the component, not in
#   the rubric's `state_dict`; OpenEnv's `LLMJudge` does not serialise its model either, which is
#   why the manifest carries a judge pin.
# - Weights need not sum to 1 (OpenEnv's `WeightedSum` requires it): sets paid partly by group
#   components, and normalised sets, do not.
class RewardSetRubric(Rubric):
    """A `RewardSet` as a rubric tree (see the module docstring); call it as
    `rubric(columns, canvas)`."""

    def __init__(self, rewards: RewardSet) -> None:
        super().__init__()
        self.rewards = rewards
        budget = rewards.component_budget_s
        leaves = {n: ComponentRubric(n, c, budget) for n, c in rewards.components.items()}
        self.gate = GateRubric({n: leaves[n] for n in rewards.gate}, rewards.gate_threshold)
        divisor = sum(abs(w) for w in rewards.weights.values()) if rewards.normalise else None
        paid = {n: leaf for n, leaf in leaves.items() if leaf.weight}
        self.weighted = WeightedRubric(paid, divisor)
        unpaid = {n: leaf for n, leaf in leaves.items() if n not in paid and n not in rewards.gate}
        self.reported = RubricDict(unpaid)
        self.leaves = leaves
        self.group_components = tuple(rewards.group_components)  # not leaves: see the comment above

    def forward(self, action: Mapping, observation: Canvas) -> float | None:
        values = {name: leaf(action, observation) for name, leaf in self.leaves.items()}
        gate = self.gate._finish_forward(action, observation, self.gate.combine(values))
        weighted = self.weighted._finish_forward(action, observation, self.weighted.combine(values))
        if observation.infra_failure or gate is None or weighted is None:
            return None
        if self.rewards.missing_paper(observation):  # no verdict, as the set's (never opaque)
            return None
        overran = any(leaf.overran for leaf in self.leaves.values())
        return weighted if gate and not overran else 0.0


def adopt(parent: Rubric, leaves: Mapping[str, ComponentRubric]) -> None:
    """Register `leaves` as `parent`'s children by component name (ValueError on a name the
    container already uses, e.g. `threshold`)."""
    for name, leaf in leaves.items():
        if hasattr(parent, name):
            raise ValueError(
                f"reward component {name!r}: the name is taken in {type(parent).__name__}"
            )
        setattr(parent, name, leaf)
