"""A render fleet that survives losing a server: two real servers, one killed mid-batch.

The reward functions training hands to TRL (`RolloutScorer` over a `RemoteRenderer`, as
`renderer=remote` builds them) score batches of a layered watercolour on two local servers.
One server is SIGKILLed (with its Chromium) while it holds replies, then restarted on the same
port while the batches go on.
"""

import asyncio
import time
from types import SimpleNamespace

import pytest
from env_servers import free_port, kill_group, start_server, wait_until_healthy

from watercolor.config import reward_set
from watercolor.env.client import RemoteRenderer
from watercolor.rewards.trl_adapter import RolloutScorer

pytestmark = [pytest.mark.browser, pytest.mark.slow]

BATCH = 4  # two replies on each server, both in flight at once (sessions_per_server=2)
FLAGS = ["--workers", "1", "--max-sessions", "4", "--pixel-density", "0.25", "--time-limit", "60"]
FLAGS += ["--reward", "gated"]  # the servers' own score is unused here: the cheapest set


class Fleet:
    """Two servers in their own process groups, restartable on their ports; always killed."""

    def __init__(self) -> None:
        self.ports = [free_port(), free_port()]
        self.urls = [f"http://127.0.0.1:{port}" for port in self.ports]
        self.processes = [start_server(port, *FLAGS, new_session=True) for port in self.ports]

    def wait(self) -> None:
        for url, process in zip(self.urls, self.processes, strict=True):
            wait_until_healthy(url, process)

    def restart(self, i: int) -> None:
        self.processes[i] = start_server(self.ports[i], *FLAGS, new_session=True)
        wait_until_healthy(self.urls[i], self.processes[i])

    def kill(self, i: int) -> None:
        kill_group(self.processes[i])

    def close(self) -> None:
        for process in self.processes:
            kill_group(process)


@pytest.fixture
def fleet():
    fleet = Fleet()
    try:
        fleet.wait()
        yield fleet
    finally:
        fleet.close()


class Batches:
    """Score batches exactly as TRL calls the reward functions: all concurrently, per step."""

    def __init__(self, renderer: RemoteRenderer, reply: str) -> None:
        self.scored = []  # each batch's Rollouts (canvases, scores), as tracking gets them
        scorer = RolloutScorer(
            reward_set("gated"), renderer, num_generations=BATCH, on_batch=self.scored.append
        )
        self.functions, _ = scorer.reward_functions()
        self.reply, self.step = reply, 0

    def start(self) -> asyncio.Future:
        completions = [[{"role": "assistant", "content": self.reply}]] * BATCH
        prompts = [[{"role": "user", "content": "paint a watercolour"}]] * BATCH
        state, self.step = SimpleNamespace(global_step=self.step), self.step + 1
        kwargs = {"prompts": prompts, "completions": completions, "trainer_state": state}
        return asyncio.gather(*(f(**kwargs) for f in self.functions))

    async def run(self) -> list[list[float | None]]:
        return await self.start()


def verdicts(outputs: list[list[float | None]]) -> list[bool]:
    """Per reply: whether TRL got a value (not None) from every reward function."""
    per_reply = list(zip(*outputs, strict=True))
    assert all(len(set(v is None for v in values)) == 1 for values in per_reply)
    return [values[0] is not None for values in per_reply]


async def test_a_server_killed_mid_batch_and_restarted(fleet, watercolour_reply):
    clock, phases = time.monotonic(), {}

    def phase(name: str) -> None:
        nonlocal clock
        phases[name], clock = round(time.monotonic() - clock, 1), time.monotonic()

    renderer = RemoteRenderer(fleet.urls, sessions_per_server=2, timeout_s=120, retry_after_s=1.0)
    a, b = renderer.servers
    batches = Batches(renderer, watercolour_reply)

    assert all(verdicts(await batches.run()))
    assert a.rendered == b.rendered == BATCH // 2  # round-robin over both
    phase("both_up")

    # Kill B (and its Chromium) as soon as it holds a reply; the batch still finishes.
    pending = batches.start()
    while b.in_flight == 0 and not pending.done():
        await asyncio.sleep(0.005)
    held = b.in_flight
    await asyncio.to_thread(fleet.kill, 1)
    outputs = await pending
    assert held >= 1 and b.lost >= 1, "the kill landed on no reply in flight"
    got = verdicts(outputs)
    lost = [i for i, ok in enumerate(got) if not ok]
    assert len(lost) == b.lost  # exactly the replies B held are None; A's have verdicts
    canvases = batches.scored[-1].canvases
    for i in lost:  # no verdict because B died holding it, not because of the sketch
        assert canvases[i].infra_failure and "mid-render" in canvases[i].errors[0]
        assert b.url in canvases[i].errors[0]
    assert all(canvases[i].ok for i, ok in enumerate(got) if ok)
    phase("kill")

    # B restarts on its port while the batches go on; until it is up its turns go to A.
    restarting = asyncio.ensure_future(asyncio.to_thread(fleet.restart, 1))
    assert all(verdicts(await batches.run()))
    phase("b_down")
    await restarting
    phase("restart")
    rendered_on_b = b.rendered

    # B is back: the next episodes reach it again.
    assert all(verdicts(await batches.run()))
    assert b.rendered > rendered_on_b, "the restarted server got no reply"
    phase("b_back")
    print(f"\nfleet: {a}\n       {b}\nphases (s): {phases}")
