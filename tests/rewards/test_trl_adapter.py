"""The TRL adapter: one render per completion, TRL's weighted sum == the set's total, None
for infrastructure failures. Real Chromium renders the completions."""

from __future__ import annotations

import asyncio

import pytest

from watercolor.canvas import Status
from watercolor.config import reward_set
from watercolor.render.pool import RenderConfig, RenderPool
from watercolor.render.renderers import LocalRenderer
from watercolor.rewards.trl_adapter import RolloutScorer
from watercolor.tasks.painting.episode import paint
from watercolor.tasks.painting.harness import HARNESS

pytestmark = pytest.mark.browser

THROWS = """```js
function setup() {
  createCanvas(600, 600, WEBGL);
  background("#f4ecd8");
  brush.noStroke();
  brush.fill("#d9485a", 150);
  brush.circle(0, 0, 120);
  undefinedFunction();
}
```"""


def washes(*circles: tuple[str, int, int, int]) -> str:
    """A gate-clean reply of a few translucent washes: ~1 CPU-s to paint at the training
    density, a quarter of a sample watercolour's."""
    marks = "".join(f'  brush.fill("{colour}", 140);\n  brush.circle({x}, {y}, {r});\n'
                    for colour, x, y, r in circles)  # fmt: skip
    return (
        "```js\nfunction setup() {\n  createCanvas(600, 600, WEBGL);\n"
        '  background("#f4ecd8");\n  brush.scaleBrushes(3);\n  brush.noStroke();\n'
        f"  brush.fillBleed(0.3);\n  brush.fillTexture(0.4, 0.3);\n{marks}}}\n```"
    )


CORAL = washes(("#e8734a", -40, -20, 140), ("#5b8fd1", 60, 40, 120))
COMPLETIONS = [
    [{"role": "assistant", "content": CORAL}],
    [{"role": "assistant", "content": THROWS}],
    [{"role": "assistant", "content": "I would paint a hibiscus."}],
    [{"role": "assistant", "content": washes(("#9aa84a", 0, 30, 150), ("#c9b458", 40, -60, 90))}],
]
PROMPTS = [[{"role": "user", "content": "paint a coral koi pond in watercolour"}]] * 4


class CountingRenderer(LocalRenderer):
    calls = 0

    async def __call__(self, reply, seed=0):
        CountingRenderer.calls += 1
        return await super().__call__(reply, seed)


async def call_all(funcs, completions=COMPLETIONS):
    outputs = await asyncio.gather(*(f(prompts=PROMPTS, completions=completions) for f in funcs))
    return list(outputs)


@pytest.fixture(scope="module")
def config():
    return RenderConfig(size=600, pixel_density=0.5, workers=2, time_limit_s=60)


@pytest.fixture(scope="module")
async def renderer(config):
    """One renderer for the module's tests: starting its two browsers costs ~6 CPU-s, more than
    the renders of a test (every sketch still gets a fresh document)."""
    renderer = CountingRenderer(config, paint, HARNESS)
    yield renderer
    await renderer.close()


@pytest.mark.parametrize("name", ["coarse", "fine_grained", "gated"])
async def test_weighted_sum_is_the_set_total(name, renderer):
    rewards, batches = reward_set(name), []
    scorer = RolloutScorer(rewards, renderer, num_generations=4, on_batch=batches.append)
    funcs, weights = scorer.reward_functions()
    CountingRenderer.calls = 0
    outputs = await call_all(funcs)
    assert [f.__name__ for f in funcs] == list(rewards.weights)
    assert CountingRenderer.calls == len(COMPLETIONS)  # one render per completion
    (batch,) = batches
    for i, score in enumerate(batch.scores):
        trl_total = sum(w * out[i] for w, out in zip(weights, outputs, strict=True))
        assert trl_total == pytest.approx(score.total)
    statuses = [c.status for c in batch.canvases]
    assert statuses == [Status.OK, Status.ERROR, Status.VIOLATION, Status.OK]
    if name == "gated":
        assert all(out[1] == 0 and out[2] == 0 for out in outputs)
        assert batch.scores[0].total > 0.3


async def test_infrastructure_failure_is_none_for_every_function():
    # A pool whose browser cannot be launched: every render is the pool's own infra_error.
    pool = RenderPool(RenderConfig(chromium="/nonexistent/chromium", workers=1), HARNESS)

    async def renderer(reply, seed=0):
        return await paint(pool, reply, seed=seed)

    scorer = RolloutScorer(reward_set("gated"), renderer, num_generations=4)
    funcs, _ = scorer.reward_functions()
    try:
        outputs = await call_all(funcs, COMPLETIONS[:1] * 4)
    finally:
        await pool.close()
    assert all(value is None for out in outputs for value in out)


async def test_prefetched_replies_are_painted_once_and_counted(renderer):
    logged = {}
    scorer = RolloutScorer(reward_set("gated"), renderer, num_generations=4)
    funcs, _ = scorer.reward_functions()
    texts = [c[0]["content"] for c in COMPLETIONS]
    nothing = [[{"role": "assistant", "content": "no sketch"}]] * 4

    def batch(completions):
        return asyncio.gather(*(
            f(prompts=PROMPTS, completions=completions, log_metric=logged.__setitem__)
            for f in funcs
        ))  # fmt: skip

    # Before TRL's first rewards call the reward loop is unknown: nothing is painted ahead.
    assert not await asyncio.to_thread(scorer.prefetch, texts[0])
    await batch(nothing)  # the first step: TRL calls the rewards on this loop
    CountingRenderer.calls = 0
    # Two replies painted ahead (as the rollout does from the generation thread), one of them a
    # text TRL never asks for: it is painted but not awaited again.
    for text in (texts[0], texts[3], "never asked for"):
        assert await asyncio.to_thread(scorer.prefetch, text)
    scorer.note_generation(1.5)
    outputs = await batch(COMPLETIONS)
    assert CountingRenderer.calls == 5  # 4 completions (2 of them ahead) + the unused one
    assert logged["rollouts/prefetched"] == 0.5 and logged["rollouts/generation_s"] == 1.5
    assert outputs[0][0] is not None and outputs[0][0] > 0  # the prefetched canvas was scored


async def test_trl_own_generation_is_timed_from_the_step_start(renderer):
    from watercolor.training.rollout import GenerationClock  # torch and TRL: only here

    logged = {}
    scorer = RolloutScorer(reward_set("gated"), renderer, num_generations=4)
    funcs, _ = scorer.reward_functions()
    GenerationClock(scorer).on_step_begin(args=None, state=None, control=None)
    await asyncio.sleep(0.3)  # TRL generating the batch
    await asyncio.gather(*(
        f(prompts=PROMPTS, completions=COMPLETIONS, log_metric=logged.__setitem__)
        for f in funcs
    ))  # fmt: skip
    assert 0.3 <= logged["rollouts/generation_s"] < 3
    assert logged["rollouts/prefetched"] == 0.0
