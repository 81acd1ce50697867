"""A server with `--set task.turns=2`, driven by the real client: draft, feedback, revision.

The server is `python -m watercolor.env.serve` as a subprocess (as in test_serve.py); the
client is `CanvasEnv` over its WebSocket session, with `paint_session` writing each turn.
"""

import pytest
from env_servers import running_server

from watercolor.config import reward_set
from watercolor.env.client import CanvasEnv, paint_session
from watercolor.env.models import CanvasAction
from watercolor.tasks.painting.feedback import feedback, revision_conversation

pytestmark = [pytest.mark.browser, pytest.mark.slow]

REWARD = "gated"


@pytest.fixture(scope="module")
def url():
    """A two-turn server (turns from conf/task via --set, as any task setting) on loopback."""
    flags = ["--max-sessions", "2", "--workers", "1", "--time-limit", "60"]
    flags += ["--reward", REWARD, "--set", "task.turns=2"]
    with running_server(*flags) as url:
        yield url


def local_feedback(observation, reply: str) -> str:
    """The feedback the task's function gives for the canvas the server sent back."""
    canvas = observation.to_canvas(reply=reply)
    return feedback(canvas, reward_set(REWARD).score(canvas, prompt=observation.prompt))


async def test_a_two_turn_session_gives_feedback_then_ends(url, watercolour_reply, bad_reply):
    asked = []

    def policy(messages):
        asked.append(messages)
        return [watercolour_reply, bad_reply][len(asked) - 1]

    async with CanvasEnv(base_url=url, message_timeout_s=300) as env:
        draft, revision = await paint_session(
            env, policy, seed=11, revision_conversation=revision_conversation
        )
        state = await env.state()
        # without the task's revision turn, a client cannot write the second step
        with pytest.raises(ValueError, match="revision_conversation"):
            await paint_session(env, lambda messages: bad_reply, seed=12)
    assert draft.observation.status == "ok", draft.observation.errors
    assert not draft.done and draft.reward == draft.observation.score > 0
    assert draft.observation.feedback == local_feedback(draft.observation, watercolour_reply)
    assert draft.observation.feedback.startswith("The sketch ran and painted the canvas.")
    assert "Scores" in draft.observation.feedback  # the reward set's components
    assert revision.done and revision.reward == 0.0  # the revision broke the gate
    assert revision.observation.feedback == local_feedback(revision.observation, bad_reply)
    assert revision.observation.feedback.startswith("The sketch was refused:")
    # The revision was written to the conversation with the draft and its feedback.
    task, again = asked
    assert [m["role"] for m in task] == ["system", "user"]
    assert task[1]["content"] == draft.observation.prompt
    assert again == revision_conversation(task, watercolour_reply, draft.observation.feedback)
    assert (state.turns, state.step_count) == (2, 2)


async def test_a_third_step_is_refused_and_reset_starts_a_new_episode(url, bad_reply):
    async with CanvasEnv(base_url=url, message_timeout_s=300) as env:
        await env.reset(seed=12)
        steps = [await env.step(CanvasAction(reply=bad_reply)) for _ in range(2)]
        assert [s.done for s in steps] == [False, True]
        with pytest.raises(RuntimeError, match=r"episode is over \(2 step\(s\).*call reset"):
            await env.step(CanvasAction(reply=bad_reply))
        assert (await env.state()).step_count == 2  # the refused step ran nothing
        await env.reset(seed=13)
        again = await env.step(CanvasAction(reply=bad_reply))
        assert not again.done and again.reward == 0.0
        assert (await env.state()).step_count == 1
