"""A task as an OpenEnv environment: a reply in, a scored canvas and feedback out, for up to
`turns` steps per episode.

    async with RenderPool(render_config, task.harness) as pool:
        env = CanvasEnvironment(pool, task)               # a watercolor.tasks.Task (conf/task)
        first = env.reset(seed=7)                        # first.prompt: what to paint
        final = await env.step_async(CanvasAction(reply=reply))
        final.done, final.status, final.reward           # (True, 'ok', 0.41)

        env = CanvasEnvironment(pool, two_turns)          # task.turns 2: draft, feedback, revision
        env.reset(seed=7)
        draft = await env.step_async(CanvasAction(reply=reply))
        draft.done, draft.feedback                       # (False, 'The sketch ran and ...')
        final = await env.step_async(CanvasAction(reply=revised))   # final.done: True

`reset` draws a prompt from the task's prompts (deterministic in the seed) and takes the
system prompt from the task's `conversation`. Each `step` runs the task's `episode` on the reply
(painting's `paint`: extract the sketch, gate it, render it through the shared `RenderPool`, with
the episode's seed, so a revision is painted with the draft's random numbers), scores the canvas
(`None`: an infrastructure failure, never a zero) and carries the task's `feedback(canvas,
score)`; the `turns`-th step (`task.turns`, 1 by default) ends the episode (`done`). Every piece
comes from the `Task` (`watercolor.tasks`: its episode, train prompts, conversation, feedback and
turns), which `serve.py` builds from conf/task, so the server runs the episode training runs.
Why a step pays no improvement, what HTTP `/step` does and how the sessions share one pool: the
comments in `CanvasEnvironment`.

Isolation of the model-written code (time, memory, network, files) is the pool's; this
module only decides what counts as a failure of the sketch and what counts as ours.
"""

from __future__ import annotations

import asyncio
import inspect
import logging
import random
import time
import uuid
from collections.abc import Awaitable, Callable
from typing import Any

from openenv.core.env_server.interfaces import Environment
from openenv.core.env_server.types import EnvironmentMetadata

from watercolor.canvas import Canvas, Status
from watercolor.env import renamed_names
from watercolor.env.models import CanvasAction, CanvasObservation, CanvasState
from watercolor.env.step_reward import gated_coverage
from watercolor.render.pool import RenderPool
from watercolor.render.renderers import Episode  # the one type of a task's episode function
from watercolor.rewards.reward_set import Score
from watercolor.tasks import Task

log = logging.getLogger(__name__)

# A reward set's `Score` (its total is the reward; its components go into the feedback) or a
# bare total (no component line in the feedback).
Scorer = Callable[[Canvas, str], Score | float | None | Awaitable[Score | float | None]]


class CanvasEnvironment(Environment[CanvasAction, CanvasObservation, CanvasState]):
    """One episode of the task (`task.turns` steps) per reset; many instances (sessions) share
    one `RenderPool`."""

    # Sessions share nothing mutable but the pool, and the pool queues concurrent renders.
    SUPPORTS_CONCURRENT_SESSIONS = True

    def __init__(
        self,
        pool: RenderPool,
        task: Task,
        *,
        score: Scorer = gated_coverage,
        loop: asyncio.AbstractEventLoop | None = None,
    ) -> None:
        """Episodes of `task` (its train prompts, `turns` steps each: at least 1), scored by
        `score`; `loop`: the pool's, for the blocking `step`."""
        # OpenEnv's `rubric` slot: the reward set as a rubric tree (watercolor/env/rubric.py) when
        # the scorer is one; the reward itself comes from `score`, which that tree matches.
        super().__init__(rubric=getattr(score, "rubric", None))
        self._pool, self._task, self._score = pool, task, score
        self._turns = checked_turns(task.turns)
        self._loop = loop
        self._state = CanvasState()

    def reset(
        self,
        seed: int | None = None,
        episode_id: str | None = None,
        prompt: str | None = None,
        **kwargs: Any,
    ) -> CanvasObservation:
        """Start an episode: the seed picks the prompt (unless given) and seeds the render."""
        if seed is None:
            seed = random.SystemRandom().randrange(2**31)
        prompt = prompt or random.Random(seed).choice(self._task.train_prompts)
        episode_id = episode_id or str(uuid.uuid4())
        self._state = CanvasState(
            episode_id=episode_id, prompt=prompt, seed=seed, turns=self._turns
        )
        return CanvasObservation(
            prompt=prompt, system_prompt=self._system_prompt(prompt), seed=seed
        )

    async def step_async(
        self, action: CanvasAction, timeout_s: float | None = None, **kwargs: Any
    ) -> CanvasObservation:
        """Render and score the reply, with feedback; the `turns`-th step ends the episode."""
        # A step after the `turns`-th raises until `reset`, as OpenEnv's own environments refuse a
        # step outside an episode.
        if self._state.step_count >= self._state.turns:
            raise RuntimeError(
                f"the episode is over ({self._state.turns} step(s) per episode); call reset()"
            )
        # A multi-step episode needs a session (the WebSocket `CanvasEnv`): OpenEnv's stateless
        # HTTP `/step` makes a fresh environment for each request, so each HTTP step is the first
        # step of a new episode.
        if not self._state.prompt:
            self.reset()  # stateless HTTP /step builds a fresh environment per request
        started = time.time()
        canvas = await self._render(action.reply)
        score = await self._score_canvas(canvas)
        # The score is that step's reward, never a change over the draft (paying for improvement
        # would teach a bad draft on purpose); `None` means an infrastructure failure (the row
        # carries no verdict and must not count as a zero). Every step's observation carries the
        # task's feedback: the text a revising painter reads next.
        total = score.total if isinstance(score, Score) else score
        self._state.step_count += 1
        self._state.status, self._state.score = str(canvas.status), total
        # Server-side wall clock, so clients can see that sessions render concurrently.
        timestamps = {"step_started": started, "step_finished": time.time()}
        return CanvasObservation.from_canvas(
            canvas,
            total,
            done=self._state.step_count == self._state.turns,
            feedback=self._task.feedback(canvas, score if isinstance(score, Score) else None),
            prompt=self._state.prompt,
            metadata=timestamps,
        )

    def step(
        self, action: CanvasAction, timeout_s: float | None = None, **kwargs: Any
    ) -> CanvasObservation:
        """Blocking `step_async`, for a thread other than the pool's loop (given as `loop=`)."""
        # Every session's environment shares ONE pool, which queues renders on its warm pages.
        # The pool is asyncio-based and bound to the loop it started on; OpenEnv's server awaits
        # `step_async` on its own loop, which is where `serve.py` starts the pool.
        if self._loop is None:
            raise RuntimeError("the render pool is asyncio: await step_async, or pass loop=")
        return asyncio.run_coroutine_threadsafe(self.step_async(action), self._loop).result()

    @property
    def state(self) -> CanvasState:
        return self._state

    def get_metadata(self) -> EnvironmentMetadata:
        return EnvironmentMetadata(
            name="watercolor",
            description=f"{self._task.description}, {self._turns} step(s) per episode.",
            version="0.1.0",
        )

    def _system_prompt(self, prompt: str) -> str:
        """The system message of the task's conversation for `prompt` ("" if it has none)."""
        messages = self._task.conversation(prompt)
        return next((m["content"] for m in messages if m["role"] == "system"), "")

    async def _render(self, reply: str) -> Canvas:
        """Run the task's episode on the reply; an exception there is our failure, never the
        sketch's."""
        try:
            episode: Episode = self._task.episode
            return await episode(self._pool, reply, seed=self._state.seed)
        except Exception as error:
            log.exception("render failed")
            errors = [f"render failed: {error!r}"]
            return Canvas(Status.INFRA_ERROR, errors=errors, reply=reply, seed=self._state.seed)

    async def _score_canvas(self, canvas: Canvas) -> Score | float | None:
        """Run the scorer off the event loop (other sessions keep moving); failure -> None."""
        try:
            if inspect.iscoroutinefunction(self._score):
                result = self._score(canvas, self._state.prompt)
            else:
                result = await asyncio.to_thread(self._score, canvas, self._state.prompt)
            return await result if inspect.isawaitable(result) else result
        except Exception:
            log.exception("scorer failed")
            return None


def checked_turns(turns: int) -> int:
    """`turns` if it is a whole number of steps, at least 1; ValueError otherwise."""
    if isinstance(turns, bool) or not isinstance(turns, int) or turns < 1:
        raise ValueError(f"task.turns must be a whole number of steps, at least 1, not {turns!r}")
    return turns


__getattr__ = renamed_names(globals(), __name__)  # the old Paint* names, deprecated
