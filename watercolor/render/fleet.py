"""Rendering on a fleet of environment servers: `RemoteRenderer`, training's `renderer=remote`.

    renderer = RemoteRenderer(["http://box-a:8100", "http://box-b:8100"])
    renderer = RemoteRenderer()                          # a server on this machine (options.PORT)
    canvas = await renderer(reply, seed=0)               # as LocalRenderer paints (renderers.py)
    await renderer.close()

It is `LocalRenderer`'s counterpart (`watercolor.render.renderers`): the same call, `await
renderer(reply, seed) -> Canvas`, painted by `python -m watercolor.env.serve` servers instead of
a local pool, one episode per reply through the typed client (`watercolor.render.wire`). Replies
go round-robin, at most `sessions_per_server` sessions open on each server (keep it at or under
the server's `--max-sessions`, which refuses the rest). Every episode opens its own session, so
there is no long-lived connection to repair: a server that comes back after a crash or a restart
is simply reached again by the next episode that tries it. A reply no server would take, or whose
server died after it was sent, comes back `infra_error` with reward None, never a zero (see
`RemoteRenderer`).

What this isolates: nothing itself; each server renders in its own pool's sandbox
(`watercolor.render.pool`).
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Mapping, Sequence
from contextlib import suppress
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

import httpx
from websockets.exceptions import ConnectionClosed

from watercolor.canvas import Canvas, Status
from watercolor.render.options import PORT
from watercolor.render.wire import CanvasAction, CanvasEnv, CanvasObservation

log = logging.getLogger(__name__)

# What a dead, refusing, restarting or stuck server raises through OpenEnv's client:
# ConnectionError (an OSError) when the WebSocket cannot open, RuntimeError for an error frame
# (CAPACITY_REACHED, a failing environment), ConnectionClosed when the socket drops, TimeoutError.
SERVER_FAILURES = (OSError, RuntimeError, TimeoutError, ConnectionClosed)


class Unreachable(Exception):
    """The server took no reply (down, refusing, or failed before the step): nothing ran."""


class EpisodeMismatch(ValueError):
    """A server gates (or otherwise runs the task's episode) differently from the run."""


class ServerTooOld(RuntimeError):
    """A server from before `GET /task/episode`: it cannot say which episode it runs.

    Not `Unreachable`: it is up and would answer, and skipping it for a while would only meet
    the same 404 at every later turn, each reply it was asked for coming back without a verdict.
    """


@dataclass
class Server:
    """One environment server as the renderer sees it (its counters are for logs and tests)."""

    url: str
    down_until: float = 0.0  # time.monotonic(): skipped while in the future
    taken: int = 0  # replies sent to it (its session was open and reset)
    rendered: int = 0  # replies it answered
    lost: int = 0  # replies it took and never answered (each one a None reward)
    unreachable: int = 0  # times it took no reply (the reply went to another server)
    checked: bool = False  # its task episode was found to be the run's

    @property
    def in_flight(self) -> int:
        return self.taken - self.rendered - self.lost


LOCAL_SERVER = f"http://127.0.0.1:{PORT}"  # `python -m watercolor.env.serve` on this machine
FLEET_COUNTERS = ("taken", "rendered", "lost", "unreachable")  # Server's, logged per step


class RemoteRenderer:
    """`await renderer(reply, seed) -> Canvas` on remote environment servers (training's renderer).

    Replies go round-robin over `urls` (one URL may be given as a string; None: the server on
    this machine at the env server's default port, `watercolor.render.options.PORT`), at most
    `sessions_per_server` in flight on each. Each
    server runs the task's episode (gate rules included) and renderer of its own composed
    conf/train.yaml: with no flags, the defaults a local run renders with. A run's overrides of
    the renderer or the task are not sent; start the servers with the same ones (serve's
    rendering flags and `--set`). Given `episode` (the run's `task.episode` config, as training
    passes it), the renderer asks each server for its own (`GET /task/episode`) before its first
    reply there and raises `EpisodeMismatch`, naming the keys that differ, when a server gates
    differently: its verdicts would not be the run's, and `ServerTooOld` when the server has no
    such endpoint (a version from before it): upgrade it. The returned Canvas is scored locally
    with the run's reward set, like a local render.

    When a server fails, two cases differ:
    - It takes no reply (connection refused, capacity reached, reset failed): nothing ran, so
      the reply goes to the next server. The failed server is skipped for `retry_after_s`;
      after that the next reply whose turn it is tries it again, which is how a restarted
      server is found: no reconnect loop, since every episode opens its own session.
    - It dies (or times out) after the reply was sent: the reply is not retried elsewhere and
      comes back `infra_error` (reward None). A reply lost mid-render may be what brought the
      server down (a sketch exhausting memory), and retrying it could take the next server
      with it; a retry would also queue behind the survivor's own share and lengthen the step
      for one sample that GRPO does without (None is left out of the group baseline).
    Only when no server takes a reply is it `infra_error` before rendering.

    `pixel_density` and `time_limit_s` are accepted so the local renderer's overrides (e.g.
    `debug=smoke`) compose with `renderer=remote`, but they are the servers' settings
    (`python -m watercolor.env.serve --pixel-density --time-limit`, or `--set
    renderer.pixel_density=...`; default conf/renderer/local.yaml's): set here, they are
    ignored with a warning.
    """

    def __init__(
        self,
        urls: str | Sequence[str] | None = None,
        sessions_per_server: int = 8,
        timeout_s: float = 600.0,
        *,
        retry_after_s: float = 5.0,
        connect_timeout_s: float = 10.0,
        pixel_density: float | None = None,
        time_limit_s: float | None = None,
        episode: Mapping[str, Any] | None = None,
    ) -> None:
        urls = [LOCAL_SERVER] if urls is None else [urls] if isinstance(urls, str) else urls
        if not urls:
            raise ValueError("RemoteRenderer needs at least one server URL")
        self.servers = [Server(url) for url in urls]
        self.sessions_per_server, self.timeout_s = sessions_per_server, timeout_s
        self.retry_after_s, self.connect_timeout_s = retry_after_s, connect_timeout_s
        ignored = {"pixel_density": pixel_density, "time_limit_s": time_limit_s}
        if ignored := {k: v for k, v in ignored.items() if v is not None}:
            log.warning("renderer %s: set on the servers (serve --help); ignored here", ignored)
        self.episode = episode
        self._limits: list[asyncio.Semaphore] | None = None
        self._next = 0

    async def __call__(self, reply: str, seed: int = 0) -> Canvas:
        return (await self.observe(reply, seed)).to_canvas(reply=reply)

    async def observe(self, reply: str, seed: int, prompt: str | None = None) -> CanvasObservation:
        """One episode on the first server in turn that takes the reply (see the class doc)."""
        if self._limits is None:  # made on the loop that uses them
            self._limits = [asyncio.Semaphore(self.sessions_per_server) for _ in self.servers]
        errors = []
        for i in self._turn():
            server = self.servers[i]
            async with self._limits[i]:
                try:
                    return await self._episode(server, reply, seed, prompt)
                except Unreachable as error:
                    server.unreachable += 1
                    server.down_until = time.monotonic() + self.retry_after_s
                    errors.append(f"{server.url} took no reply: {error.__cause__!r}")
        return infra_error(errors, seed)

    def _turn(self) -> list[int]:
        """Server indices to try: round-robin from this reply's turn, servers marked down last."""
        start, self._next = self._next % len(self.servers), self._next + 1
        order = [(start + k) % len(self.servers) for k in range(len(self.servers))]
        now = time.monotonic()
        return sorted(order, key=lambda i: self.servers[i].down_until > now)  # stable

    async def _episode(
        self, server: Server, reply: str, seed: int, prompt: str | None
    ) -> CanvasObservation:
        if self.episode is not None and not server.checked:
            await self._check_episode(server)
        env = CanvasEnv(
            base_url=server.url,
            connect_timeout_s=self.connect_timeout_s,
            # Long: the step queues behind every other session's render on the server's pages.
            message_timeout_s=self.timeout_s,
        )
        try:
            try:
                await env.connect()
                await env.reset(seed=seed, prompt=prompt)
            except SERVER_FAILURES as error:
                raise Unreachable(str(error)) from error
            server.taken += 1
            try:
                observation = (await env.step(CanvasAction(reply=reply))).observation
            except SERVER_FAILURES as error:
                server.lost += 1
                server.down_until = time.monotonic() + self.retry_after_s
                return infra_error([f"{server.url} lost the reply mid-render: {error!r}"], seed)
            server.rendered += 1
            server.down_until = 0.0
            return observation
        finally:
            with suppress(*SERVER_FAILURES):
                await env.close()

    async def _check_episode(self, server: Server) -> None:
        """EpisodeMismatch unless the server's task episode is this run's; ServerTooOld if it
        has no `/task/episode`; Unreachable if it does not answer (the reply then goes to the
        next server, as for any refusal)."""
        try:
            async with httpx.AsyncClient(timeout=self.connect_timeout_s) as client:
                answer = await client.get(f"{server.url}/task/episode")
        except httpx.HTTPError as error:
            raise Unreachable(str(error)) from error
        if answer.status_code == 404:
            raise ServerTooOld(
                f"{server.url} is too old: it has no GET /task/episode (404), so it cannot show "
                "that it gates as this run does; upgrade it (restart python -m "
                "watercolor.env.serve from this version of watercolor)"
            )
        try:
            answer.raise_for_status()
        except httpx.HTTPStatusError as error:
            raise Unreachable(str(error)) from error
        if differ := differences(answer.json(), dict(self.episode)):
            details = "; ".join(f"{k}: server {a!r}, run {b!r}" for k, a, b in differ)
            raise EpisodeMismatch(
                f"{server.url} runs another task episode than this run ({details}); start it "
                "with the run's task overrides (python -m watercolor.env.serve --set ...)"
            )
        server.checked = True

    def counters(self) -> dict[str, int]:
        """Per server, so far: replies it took, answered and lost, and the times it took none
        (the reply went to another server), as `fleet/<host:port>/<counter>`; the scorer logs
        them each step beside `infra_failure_rate` (`watercolor.rewards.trl_adapter`)."""
        return {
            f"fleet/{urlsplit(server.url).netloc}/{name}": getattr(server, name)
            for server in self.servers
            for name in FLEET_COUNTERS
        }

    async def close(self) -> None:
        """Nothing to close: each episode opens and closes its own session."""


def differences(theirs: Mapping, ours: Mapping, prefix: str = "") -> list[tuple[str, Any, Any]]:
    """(dotted key, their value, our value) wherever two nested configs differ.

    >>> differences({"rules": {"max_chars": 50, "ban": True}}, {"rules": {"max_chars": 90}})
    [('rules.ban', True, None), ('rules.max_chars', 50, 90)]
    """
    found = []
    for key in sorted(theirs.keys() | ours.keys()):
        a, b = theirs.get(key), ours.get(key)
        if isinstance(a, Mapping) and isinstance(b, Mapping):
            found += differences(a, b, f"{prefix}{key}.")
        elif a != b:
            found.append((f"{prefix}{key}", a, b))
    return found


def infra_error(errors: list[str], seed: int) -> CanvasObservation:
    """No verdict: the fleet failed, not the sketch (score and reward None)."""
    return CanvasObservation(status=str(Status.INFRA_ERROR), errors=errors, done=True, seed=seed)
