"""Every run's yardsticks (watercolor.training.yardsticks) are evaluation's measures and the
task's other sets' scores, by the same code on the same canvases; a second paper is painted only
on the steps that ask for it, in real Chromium."""

from __future__ import annotations

import asyncio
import math
from dataclasses import replace

import pandas as pd
import pytest
from hydra.utils import instantiate

from tests.rewards import synthetic_canvases as synthetic
from watercolor.analysis.behaviour import summarise_behaviour
from watercolor.canvas import Canvas, Status
from watercolor.config import compose_train, reward_set
from watercolor.evaluation.sampling import Sample, score_rows
from watercolor.render.renderers import LocalRenderer
from watercolor.rewards.trl_adapter import Rollouts, RolloutScorer
from watercolor.tasks import build_task
from watercolor.training.yardsticks import (
    NOT_PER_STEP,
    Yardsticks,
    build_yardsticks,
    cross_reward_names,
)

PROMPT = "paint a coral hibiscus in watercolour"
TASK = build_task(compose_train().task)
CANVASES = [
    synthetic.layered_watercolour(),
    synthetic.flat_blocks(),
    synthetic.speckle(),
    synthetic.bled_wash(),
    Canvas(status=Status.ERROR, errors=["TypeError"], sketch=synthetic.BRUSH_SKETCH),
    Canvas(status=Status.VIOLATION, violations=["no_sketch"]),
    Canvas(status=Status.INFRA_ERROR, errors=["browser gone"]),
]
REPLIES = [c.reply or f"```js\n{c.sketch}\n```" for c in CANVASES]


def batch(own, step: int = 3, canvases=CANVASES, replies=REPLIES) -> Rollouts:
    scores = own.score_batch(canvases, prompt=[PROMPT] * len(canvases))
    return Rollouts(step, [PROMPT] * len(canvases), list(replies), list(canvases), scores)


def test_a_step_is_measured_as_evaluation_measures_the_same_canvases():
    sets = {name: reward_set(name) for name in ("coarse", "fine_grained", "gated")}
    rollouts = batch(sets["fine_grained"])
    measured = Yardsticks(TASK, sets, own="fine_grained", second_paper_every=0).measured(
        rollouts, CANVASES
    )

    samples = [Sample(0, PROMPT, i, reply, 100, False) for i, reply in enumerate(REPLIES)]
    table = pd.DataFrame(score_rows(samples, CANVASES, sets, TASK.style))  # evaluation's rows
    expected = {
        f"behaviour/{name}": value
        for name, value in summarise_behaviour(table).items()
        if name not in NOT_PER_STEP and math.isfinite(value)
    }
    assert {"behaviour/flat_block_rate", "behaviour/coverage", "behaviour/lightness",
            "behaviour/style/mean_alpha"} <= set(expected)  # fmt: skip
    assert {k: v for k, v in measured.items() if k.startswith("behaviour/")} == expected
    for name in sets:
        judged = table[table[f"total/{name}"].notna()]
        assert measured[f"crossreward/{name}"] == pytest.approx(judged[f"total/{name}"].mean())
        assert measured[f"crossreward/gate/{name}"] == pytest.approx(judged[f"gate/{name}"].mean())


def test_the_run_s_own_set_is_read_from_its_own_scores():
    own = reward_set("coarse")
    rollouts = batch(own)
    rollouts.scores = [type(s)(0.5, s.components, True) for s in rollouts.scores]  # its own
    measured = Yardsticks(TASK, {"coarse": own}, own="coarse", second_paper_every=0).measured(
        rollouts, CANVASES
    )
    assert measured["crossreward/coarse"] == 0.5 and measured["crossreward/gate/coarse"] == 1.0


def test_a_set_reading_a_second_paper_scores_only_canvases_painted_over_it():
    sets = {"show_through": reward_set("show_through"), "coarse": reward_set("coarse")}
    measured = Yardsticks(TASK, sets, own="coarse", second_paper_every=0).measured(
        batch(sets["coarse"]), CANVASES
    )
    assert "crossreward/coarse" in measured and "behaviour/paint_opacity" not in measured
    assert not any("show_through" in name for name in measured)  # no twins: nothing, not opaque


@pytest.mark.slow  # slow tier: experiments/2026-12-07_test_tiers
def test_the_default_sets_are_the_task_s_offline_ones_without_a_judge():
    assert cross_reward_names("painting") == [
        "coarse", "fine_grained", "gated", "show_through", "translucent", "washes",
    ]  # fmt: skip
    assert cross_reward_names("svg") == ["svg_coarse", "svg_fine"]
    settings = instantiate(compose_train().yardsticks)  # conf/train.yaml's
    assert settings.enabled and settings.cross_rewards is None
    off = replace(settings, enabled=False)
    assert build_yardsticks(off, TASK, reward_set("coarse")) is None
    narrowed = build_yardsticks(
        replace(settings, cross_rewards=["gated"]), TASK, reward_set("coarse"), own="coarse"
    )
    assert list(narrowed.reward_sets) == ["gated", "coarse"]


class Exploding:
    async def measure(self, rollouts):
        raise RuntimeError("a yardstick's bug")


def test_the_scorer_logs_them_and_a_failing_one_costs_the_batch_nothing():
    own = reward_set("coarse")
    canvases = {reply: canvas for reply, canvas in zip(REPLIES, CANVASES, strict=True)}

    async def renderer(reply: str, seed: int) -> Canvas:
        return canvases[reply]

    async def scored(yardsticks) -> tuple[list, dict]:
        logged = {}
        scorer = RolloutScorer(own, renderer, num_generations=len(REPLIES), yardsticks=yardsticks)
        (function,) = [f for f in scorer.reward_functions()[0] if f.__name__ == "coverage"]
        values = await function([PROMPT] * len(REPLIES), REPLIES, log_metric=logged.__setitem__)
        return values, logged

    measuring = Yardsticks(
        TASK, {"coarse": own, "gated": reward_set("gated")}, own="coarse", second_paper_every=0
    )
    values, logged = asyncio.run(scored(measuring))
    assert {"crossreward/coarse", "crossreward/gated", "behaviour/layering"} <= set(logged)
    exploded, quiet = asyncio.run(scored(Exploding()))
    assert exploded == values and not any(k.startswith("crossreward/") for k in quiet)


WASH = """```javascript
function setup() {
  createCanvas(600, 600, WEBGL);
  background("#f4ecd8");
  brush.noStroke();
  brush.fill("#3a6ea5", 90);
  brush.fillBleed(0.3);
  brush.circle(-60, 40, 150);
  brush.fill("#e07a8f", 110);
  brush.circle(40, -20, 130);
}
```"""


@pytest.mark.slow  # slow tier: experiments/2026-12-07_test_tiers
@pytest.mark.browser
def test_a_due_step_paints_the_second_paper_and_the_audited_set_scores_it():
    own = reward_set("fine_grained")
    sets = {"fine_grained": own, "show_through": reward_set("show_through")}

    async def two_steps() -> tuple[dict, dict]:
        config = instantiate(compose_train().renderer, workers=1)  # as training paints
        renderer = LocalRenderer(config, TASK.episode, TASK.harness)
        yardsticks = Yardsticks(TASK, sets, "fine_grained", renderer, second_paper_every=5)
        try:
            canvas = await renderer(WASH, 0)
            assert canvas.ok and canvas.twin is None, canvas.errors
            steps = [batch(own, step, [canvas], [WASH]) for step in (4, 5)]
            return tuple([await yardsticks.measure(s) for s in steps])
        finally:
            await renderer.close()

    skipped, due = asyncio.run(two_steps())
    assert "crossreward/show_through" not in skipped and "behaviour/paint_opacity" not in skipped
    assert due["crossreward/show_through"] > 0 and 0 < due["behaviour/paint_opacity"] < 1
    assert due["crossreward/fine_grained"] == skipped["crossreward/fine_grained"]
