"""A render server of an older version (no `GET /task/episode`) stops training with one clear
error instead of being taken for a down server and retried at every turn.

The old server is a real HTTP server on a loopback port: it answers `/health` and 404s the
rest, as a FastAPI app from before the endpoint does.
"""

import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from watercolor.env.client import RemoteRenderer, ServerTooOld


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
