"""CanvasEnvironment with `turns`: draft, feedback, revision; in process, on made-up canvases.

The task's episode is injected (it returns a canvas chosen per reply), so no browser runs: what
is tested is the episode's bookkeeping (done, the refused extra step, reset), the feedback text
and the fault behaviour. The real server and client: test_revision_server.py.
"""

import dataclasses
import io

import numpy as np
import pytest
from PIL import Image

from watercolor.canvas import Canvas, Status
from watercolor.config import compose_train, reward_set
from watercolor.env.environment import CanvasEnvironment, checked_turns
from watercolor.env.models import CanvasAction
from watercolor.env.step_reward import RewardSetScore
from watercolor.render.pool import RenderConfig, RenderPool
from watercolor.tasks import build_task
from watercolor.tasks.painting.feedback import feedback
from watercolor.tasks.painting.harness import HARNESS

TASK = build_task(compose_train().task)  # painting, as conf/task makes it

CREAM, BLUE = (250, 243, 227, 255), (40, 80, 160, 255)


def png(painted_rows: int, size: int = 40) -> bytes:
    """A cream sheet whose first `painted_rows` rows are a flat blue wash."""
    rgba = np.tile(np.array(CREAM, dtype=np.uint8), (size, size, 1))
    rgba[:painted_rows] = BLUE
    buffer = io.BytesIO()
    Image.fromarray(rgba, "RGBA").save(buffer, format="PNG")
    return buffer.getvalue()


# What the injected episode paints for each reply.
CANVASES = {
    "draft": Canvas(Status.OK, png=png(10), sketch="function setup() {}"),
    "revision": Canvas(Status.OK, png=png(30), sketch="function setup() { }"),
    "crash": Canvas(
        Status.ERROR, errors=["TypeError: brush.wash is not a function (sketch.js:7:9)"]
    ),
}


async def episode(pool, reply, *, seed):
    if reply == "browser dies":
        raise ConnectionError("Target page, context or browser has been closed")
    return CANVASES[reply]


def environment(turns: int, **kwargs) -> CanvasEnvironment:
    score = kwargs.pop("score", RewardSetScore(reward_set("gated")))
    pool = RenderPool(RenderConfig(workers=1), HARNESS)  # never started: the episode is injected
    task = dataclasses.replace(TASK, episode=episode, turns=turns)
    return CanvasEnvironment(pool, task, score=score, **kwargs)


async def test_two_turns_give_feedback_then_end_the_episode():
    env = environment(2)
    env.reset(seed=3, prompt="a blue pond")
    assert env.state.turns == 2
    draft = await env.step_async(CanvasAction(reply="draft"))
    assert not draft.done and draft.status == "ok" and env.state.step_count == 1
    rewards = reward_set("gated")
    expected = feedback(CANVASES["draft"], rewards.score(CANVASES["draft"], prompt="a blue pond"))
    assert draft.feedback == expected and "Scores" in expected
    assert (
        draft.reward == draft.score == rewards.score(CANVASES["draft"], prompt="a blue pond").total
    )
    final = await env.step_async(CanvasAction(reply="revision"))
    revised = rewards.score(CANVASES["revision"], prompt="a blue pond")
    assert final.done and final.reward == revised.total  # its own score, not a change
    assert final.feedback == feedback(CANVASES["revision"], revised)
    with pytest.raises(RuntimeError, match=r"episode is over \(2 step\(s\) per episode\).*reset"):
        await env.step_async(CanvasAction(reply="revision"))
    assert env.state.step_count == 2  # the refused step changed nothing


async def test_reset_starts_a_new_episode():
    env = environment(2)
    env.reset(seed=3)
    await env.step_async(CanvasAction(reply="draft"))
    await env.step_async(CanvasAction(reply="draft"))
    first_id = env.state.episode_id
    env.reset(seed=4)
    assert env.state.step_count == 0 and env.state.episode_id != first_id
    assert not (await env.step_async(CanvasAction(reply="draft"))).done


async def test_one_turn_is_one_step_with_feedback():
    env = environment(1)
    env.reset(seed=3)
    final = await env.step_async(CanvasAction(reply="crash"))
    assert final.done and final.reward == 0.0
    assert final.feedback.startswith("The sketch threw an error")
    assert "sketch.js:7:9" in final.feedback
    with pytest.raises(RuntimeError, match="reset"):
        await env.step_async(CanvasAction(reply="draft"))


async def test_a_bare_total_scorer_gives_feedback_without_scores():
    env = environment(2, score=lambda canvas, prompt: 0.5)
    env.reset(seed=3)
    draft = await env.step_async(CanvasAction(reply="draft"))
    assert draft.reward == 0.5 and draft.feedback == feedback(CANVASES["draft"])


async def test_a_browser_failure_mid_episode_is_no_verdict_and_the_episode_goes_on():
    env = environment(2)
    env.reset(seed=3)
    draft = await env.step_async(CanvasAction(reply="browser dies"))
    assert draft.status == "infra_error" and draft.reward is None and draft.score is None
    assert not draft.done and "its fault, not the sketch's" in draft.feedback
    final = await env.step_async(CanvasAction(reply="revision"))
    assert final.done and final.reward > 0


async def test_a_scorer_failure_is_no_verdict():
    def scorer_down(canvas, prompt):
        raise ConnectionError("scorer down")

    env = environment(2, score=scorer_down)
    env.reset(seed=3)
    draft = await env.step_async(CanvasAction(reply="draft"))
    assert draft.reward is None and not draft.done and draft.feedback == feedback(CANVASES["draft"])


@pytest.mark.parametrize("turns", [0, -1, 1.5, True, "2"])
def test_turns_must_be_a_whole_number_of_steps(turns):
    with pytest.raises(ValueError, match="at least 1"):
        checked_turns(turns)
    with pytest.raises(ValueError, match="at least 1"):
        environment(turns)
