"""The render fleet (`watercolor.render.fleet.RemoteRenderer`) on loopback servers of its own.

Its per-server counters reach the step's metrics, beside infra_failure_rate: both URLs are closed
ports on this machine, so every reply is refused by both (`unreachable`), comes back without a
verdict, and the scorer logs what each server did. A server of an older version (no
`GET /task/episode`) stops training with one clear error instead of being taken for a down server
and retried at every turn: a real HTTP server that answers `/health` and 404s the rest, as a
FastAPI app from before the endpoint does. The fleet with a live env server killed mid-batch is
tests/env/test_render_fleet.py (slow tier).
"""

from __future__ import annotations

import socket
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from watercolor.config import reward_set
from watercolor.render.fleet import RemoteRenderer, ServerTooOld
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


class OldServer(BaseHTTPRequestHandler):
    """Healthy, but without the episode endpoint; keeps the paths it was asked for."""

    asked: list[str] = []

    def do_GET(self) -> None:
        self.asked.append(self.path)
        found = self.path == "/health"
        self.send_response(200 if found else 404)
        self.send_header("Content-Type", "application/json")
        self.end_headers()
        self.wfile.write(b'{"status": "healthy"}' if found else b'{"detail": "Not Found"}')

    def log_message(self, *args) -> None:  # quiet
        pass


@pytest.fixture
def old_server_url():
    OldServer.asked = []
    server = ThreadingHTTPServer(("127.0.0.1", 0), OldServer)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()


async def test_a_server_without_the_episode_endpoint_is_too_old_not_unreachable(old_server_url):
    renderer = RemoteRenderer([old_server_url], episode={"rules": {"max_chars": 20000}})
    with pytest.raises(ServerTooOld, match=rf"{old_server_url} is too old.*/task/episode.*upgrade"):
        await renderer("```javascript\nfunction setup() {}\n```", seed=0)
    server = renderer.servers[0]
    assert (server.taken, server.unreachable) == (0, 0)  # no reply sent, not marked down
    assert OldServer.asked == ["/task/episode"]  # asked once, not retried
