"""Client side of the environment: a typed OpenEnv client, whole episodes, painting on a fleet.

    async with CanvasEnv(base_url="http://127.0.0.1:8100") as env:
        first = await env.reset(seed=7)                  # first.observation.prompt
        result = await env.step(CanvasAction(reply=reply))
        result.reward, result.observation.status         # (0.41, 'ok')

    async with CanvasEnv(base_url=url) as env:            # a server with --set task.turns=2
        draft, revision = await paint_session(env, policy, seed=7,  # policy(messages) -> reply
                                              revision_conversation=task.revision_conversation)
        draft.done, draft.observation.feedback, revision.done       # (False, 'The ...', True)

    observations = await paint_remote(urls, replies, seeds=[0, 1, 2, 3], prompts=prompts)

`CanvasEnv` is OpenEnv's `EnvClient` (one WebSocket, one server-side session) with our types;
`.sync()` gives the blocking variant. A session's episode takes the server's `turns` steps:
step until `done` (`paint_session` does it, putting each step's feedback into the next turn's
messages with the task's `revision_conversation`). `paint_remote` paints replies on several
servers through `RemoteRenderer`, the render fleet (one step per reply, whatever the server's
`turns`; `renderer=remote` in training), which lives beside `LocalRenderer` in
`watercolor.render.fleet` and is importable from here too, as are the wire types
(`watercolor.render.wire`). What a reply that no server takes, or whose server dies, comes back
as: the comment at `paint_remote`.
"""

from __future__ import annotations

import asyncio
import inspect
from collections.abc import Awaitable, Callable, Sequence

from openenv.core.client_types import StepResult

from watercolor.env import renamed_names
from watercolor.render.fleet import (
    SERVER_FAILURES,
    EpisodeMismatch,
    RemoteRenderer,
    ServerTooOld,
    Unreachable,
)
from watercolor.render.wire import CanvasAction, CanvasEnv, CanvasObservation, CanvasState

__all__ = [
    "SERVER_FAILURES", "CanvasAction", "CanvasEnv", "CanvasObservation", "CanvasState",
    "EpisodeMismatch", "RemoteRenderer", "ServerTooOld", "Unreachable", "paint_remote",
    "paint_session", "task_messages",
]  # fmt: skip


Messages = list[dict[str, str]]
Policy = Callable[[Messages], str | Awaitable[str]]  # the conversation so far -> the next reply


async def paint_session(
    env: CanvasEnv,
    policy: Policy,
    *,
    seed: int | None = None,
    prompt: str | None = None,
    revision_conversation: Callable[[Messages, str, str], Messages] | None = None,
) -> list[StepResult[CanvasObservation]]:
    """One whole episode on an open session, however many steps the server's `turns` make it.

    `policy(messages)` (sync or async) writes each reply: first to the task's messages (the
    reset's system prompt and prompt), then to the conversation with its last reply and that
    step's feedback added (`revision_conversation`: the task's, `watercolor.tasks.Task`, the turn
    training and evaluation use; needed only when the server's episodes take several steps).
    Returns every step's result, the last one `done`. A server that fails mid-episode raises
    (one of `SERVER_FAILURES`, as `CanvasEnv`'s own calls do): the session, and with it the
    episode, is gone.
    """
    first = (await env.reset(seed=seed, prompt=prompt)).observation
    messages = task_messages(first)
    results = []
    while True:
        reply = policy(messages)
        reply = await reply if inspect.isawaitable(reply) else reply
        results.append(await env.step(CanvasAction(reply=reply)))
        if results[-1].done:
            return results
        if revision_conversation is None:
            raise ValueError(
                "this server's episodes take more than one step: pass paint_session the task's "
                "revision_conversation (`watercolor.tasks.build_task(cfg.task)`'s)"
            )
        messages = revision_conversation(messages, reply, results[-1].observation.feedback)


def task_messages(first: CanvasObservation) -> Messages:
    """The chat a reset observation asks for: its system prompt (if any), then its prompt."""
    system = [{"role": "system", "content": first.system_prompt}] if first.system_prompt else []
    return [*system, {"role": "user", "content": first.prompt}]


# A reply that no server would take and a reply whose server died after it was sent come back as an
# `infra_error` observation with reward None, never a zero; the TRL adapter turns that into a None
# reward for every component (`watercolor.rewards.trl_adapter`), as it does for a local browser
# failure.
async def paint_remote(
    base_urls: Sequence[str],
    replies: Sequence[str],
    *,
    seeds: Sequence[int],
    prompts: Sequence[str | None] | None = None,
    sessions_per_server: int = 8,
    timeout_s: float = 600.0,
) -> list[CanvasObservation]:
    """Paint every reply on the servers (a `RemoteRenderer`), concurrently; in input order."""
    renderer = RemoteRenderer(base_urls, sessions_per_server, timeout_s)
    prompts = prompts or [None] * len(replies)
    episodes = (renderer.observe(r, s, p) for r, s, p in zip(replies, seeds, prompts, strict=True))
    return list(await asyncio.gather(*episodes))


__getattr__ = renamed_names(globals(), __name__)  # the old Paint* and RemotePainter, deprecated
