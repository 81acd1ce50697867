"""The render fleet's per-server counters reach the step's metrics, beside infra_failure_rate.

No server runs here: both URLs are closed ports on this machine, so every reply is refused by
both (`unreachable`), comes back without a verdict, and the scorer logs what each server did.
The fleet with a live server killed mid-batch is tests/env/test_render_fleet.py (slow tier).
"""

from __future__ import annotations

import socket

from watercolor.config import reward_set
from watercolor.env.client import RemoteRenderer
from watercolor.rewards.trl_adapter import RolloutScorer


def closed_port() -> int:
    with socket.socket() as s:  # bound then closed: nothing listens there
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


async def test_per_server_counters_are_logged_with_the_step():
    ports = [closed_port(), closed_port()]
    renderer = RemoteRenderer([f"http://127.0.0.1:{p}" for p in ports], connect_timeout_s=2.0)
    scorer = RolloutScorer(reward_set("gated"), renderer, num_generations=2)
    funcs, _ = scorer.reward_functions()
    logged = {}
    completions = [[{"role": "assistant", "content": "```js\nfunction setup() {}\n```"}]] * 2
    prompts = [[{"role": "user", "content": "paint a red fox in watercolour"}]] * 2
    values = await funcs[0](prompts=prompts, completions=completions, log_metric=logged.__setitem__)
    assert values == [None, None]  # no verdict, never a 0
    assert logged["rollouts/infra_failure_rate"] == 1.0
    for port in ports:
        counters = {k.rsplit("/", 1)[1]: v for k, v in logged.items()
                    if k.startswith(f"rollouts/fleet/127.0.0.1:{port}/")}  # fmt: skip
        # each reply tried both servers: two refusals each, nothing taken, rendered or lost
        assert counters == {"taken": 0, "rendered": 0, "lost": 0, "unreachable": 2}, logged
