"""CanvasEnvironment in-process: reset determinism, one-step episodes, scorer and failures."""

import asyncio
import base64
import io
from dataclasses import replace
from pathlib import Path

import pytest
from PIL import Image

from watercolor.canvas import Canvas, Status
from watercolor.config import compose_train
from watercolor.env.environment import CanvasEnvironment
from watercolor.env.models import CanvasAction
from watercolor.render.pool import RenderConfig, RenderPool
from watercolor.tasks import build_task
from watercolor.tasks.painting.harness import HARNESS
from watercolor.tasks.painting.prompts import SYSTEM_PROMPT, prompts

RENDER = RenderConfig(workers=1, time_limit_s=60)  # generous: shared, slow machines
TASK = build_task(compose_train().task)  # painting, as conf/task makes it


@pytest.fixture(scope="module")
async def pool():
    async with RenderPool(RENDER, HARNESS) as pool:
        yield pool


def test_reset_draws_the_prompt_from_the_seed():
    env, other = (
        CanvasEnvironment(RenderPool(RENDER, HARNESS), TASK),
        CanvasEnvironment(RenderPool(RENDER, HARNESS), TASK),
    )
    first = env.reset(seed=3)
    assert first.prompt == other.reset(seed=3).prompt
    assert first.system_prompt == SYSTEM_PROMPT and first.seed == 3
    assert not first.done and first.reward is None and first.status is None
    assert env.state.seed == 3 and env.state.step_count == 0 and env.state.episode_id
    drawn = {env.reset(seed=seed).prompt for seed in range(40)}
    assert len(drawn) > 1 and drawn <= set(prompts("train"))
    assert env.reset(seed=1, prompt="a grey heron").prompt == "a grey heron"
    assert env.reset().seed is not None  # an unseeded episode still records its seed


async def test_the_tasks_pieces_are_injectable():
    """Episode, prompts and conversation are the task's (the server builds conf/task's)."""
    calls = []

    async def episode(pool, reply, *, seed):
        calls.append((reply, seed))
        return Canvas(Status.VIOLATION, violations=["made_up"], reply=reply, seed=seed)

    def user_only(prompt):
        return [{"role": "user", "content": prompt}]

    other_task = replace(
        TASK, episode=episode, train_prompts=["a", "b", "c"], conversation=user_only
    )
    env = CanvasEnvironment(RenderPool(RENDER, HARNESS), other_task)
    first = env.reset(seed=3)
    assert first.system_prompt == ""  # the conversation's: no system message
    drawn = {env.reset(seed=seed).prompt for seed in range(20)}
    assert drawn == {"a", "b", "c"}  # from the injected prompts only, and all of them
    env.reset(seed=5)
    final = await env.step_async(CanvasAction(reply="anything"))
    assert calls == [("anything", 5)] and final.violations == ["made_up"] and final.reward == 0


@pytest.mark.browser
async def test_one_step_paints_scores_and_ends_the_episode(pool, watercolour_reply):
    env = CanvasEnvironment(pool, TASK)
    env.reset(seed=1)
    final = await env.step_async(CanvasAction(reply=watercolour_reply))
    assert final.status == "ok", final.errors
    assert 0.0 < final.score <= 1.0 and final.reward == final.score and final.done
    assert Image.open(io.BytesIO(base64.b64decode(final.png_base64))).size[0] > 0
    assert final.to_canvas().rgba.shape[2] == 4 and final.timings["total_ms"] > 0
    assert final.metadata["step_started"] <= final.metadata["step_finished"]
    assert env.state.step_count == 1 and env.state.score == final.score
    with pytest.raises(RuntimeError, match="reset"):
        await env.step_async(CanvasAction(reply=watercolour_reply))


@pytest.mark.browser
async def test_a_gate_violation_scores_zero(pool, bad_reply):
    env = CanvasEnvironment(pool, TASK)
    env.reset(seed=2)
    final = await env.step_async(CanvasAction(reply=bad_reply))
    assert final.status == "violation" and final.violations
    assert final.score == 0.0 and final.reward == 0.0 and final.done


@pytest.mark.browser
async def test_the_scorer_is_injectable_sync_or_async(pool):
    seen = []

    def constant(canvas, prompt):
        seen.append((canvas.status, prompt))
        return 0.5

    async def judge(canvas, prompt):
        await asyncio.sleep(0)
        return 0.25

    for score, expected in [(constant, 0.5), (judge, 0.25)]:
        env = CanvasEnvironment(pool, TASK, score=score)
        env.reset(seed=4, prompt="a grey heron")
        assert (await env.step_async(CanvasAction(reply="no code here"))).reward == expected
    assert seen == [(Status.VIOLATION, "a grey heron")]


@pytest.mark.browser
async def test_blocking_step_runs_on_the_pools_loop(pool, bad_reply):
    env = CanvasEnvironment(pool, TASK, loop=asyncio.get_running_loop())
    env.reset(seed=5)
    final = await asyncio.to_thread(env.step, CanvasAction(reply=bad_reply))
    assert final.done and final.status == "violation"
    with pytest.raises(RuntimeError, match="step_async"):
        CanvasEnvironment(pool, TASK).step(CanvasAction(reply=bad_reply))


@pytest.mark.browser
async def test_infrastructure_failures_give_no_reward(pool, watercolour_reply, bad_reply):
    # A browser that cannot start is our failure: no verdict on the sketch, reward None.
    broken = RenderPool(RenderConfig(workers=1, chromium="/nonexistent/chromium"), HARNESS)
    try:
        env = CanvasEnvironment(broken, TASK)
        env.reset(seed=6)
        final = await env.step_async(CanvasAction(reply=watercolour_reply))
    finally:
        await broken.close()
    assert final.status == "infra_error" and final.errors
    assert final.reward is None and final.score is None and final.done

    def scorer_down(canvas, prompt):
        raise ConnectionError("scorer down")

    env = CanvasEnvironment(pool, TASK, score=scorer_down)
    env.reset(seed=7)
    assert (await env.step_async(CanvasAction(reply=bad_reply))).reward is None


def test_the_environment_takes_the_one_episode_type_the_renderers_define():
    # Issue 21: two hand copies of the episode's type drifted apart in their docs; one remains.
    from watercolor.env import environment
    from watercolor.render import renderers

    assert environment.Episode is renderers.Episode
    assert "\nEpisode = " not in Path(environment.__file__).read_text()
