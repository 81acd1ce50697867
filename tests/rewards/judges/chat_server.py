"""A tiny OpenAI-compatible chat-completions server on loopback, for the VLM judge tests.

It stands in for a real model server (`vllm serve Qwen/Qwen3-VL-30B-A3B-Instruct`): it speaks the
same HTTP API (POST /v1/chat/completions, JSON in and out), records every request, and answers
as the test scripts it to: a verdict, a malformed answer, an HTTP error, or a slow reply.

    with ChatServer(lambda request, n: verdict("A")) as server:
        VLMJudge(server.base_url, "test-model").compare(a_png, b_png)
"""

from __future__ import annotations

import base64
import json
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


@dataclass
class Reply:
    status: int = 200
    body: dict | str = ""
    delay_s: float = 0.0


def completion(content: str) -> dict:
    """A chat-completions response body whose assistant message is `content`."""
    return {
        "id": "chatcmpl-test",
        "object": "chat.completion",
        "model": "test-model",
        "choices": [
            {"index": 0, "finish_reason": "stop",
             "message": {"role": "assistant", "content": content}}
        ],
    }  # fmt: skip


def verdict(winner: str, reason: str = "softer washes") -> Reply:
    return Reply(body=completion(json.dumps({"winner": winner, "reason": reason})))


def images(request: dict) -> list[bytes]:
    """The images of a chat request, decoded from their data URLs, in the order shown."""
    parts = request["messages"][-1]["content"]
    urls = [p["image_url"]["url"] for p in parts if p.get("type") == "image_url"]
    return [base64.b64decode(url.split(",", 1)[1]) for url in urls]


@dataclass
class Recorded:
    path: str
    headers: dict[str, str]
    body: dict


class ChatServer:
    """Serves `script(request_body, n) -> Reply` (n counts requests from 0) on 127.0.0.1."""

    def __init__(self, script: Callable[[dict, int], Reply]) -> None:
        self.script = script
        self.requests: list[Recorded] = []
        self._lock = threading.Lock()
        self._server = ThreadingHTTPServer(("127.0.0.1", 0), self._handler())
        self._server.daemon_threads = True
        self._thread = threading.Thread(
            target=self._server.serve_forever, kwargs={"poll_interval": 0.02}, daemon=True
        )

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self._server.server_address[1]}/v1"

    def __enter__(self) -> ChatServer:
        self._thread.start()
        return self

    def __exit__(self, *exc_info) -> None:
        self._server.shutdown()
        self._server.server_close()
        self._thread.join(timeout=5)

    def _answer(self, path: str, headers: dict, body: dict) -> Reply:
        with self._lock:
            n = len(self.requests)
            self.requests.append(Recorded(path, headers, body))
        if path != "/v1/chat/completions":
            return Reply(404, {"error": f"no route {path}"})
        return self.script(body, n)

    def _handler(self) -> type[BaseHTTPRequestHandler]:
        server = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:  # noqa: N802 (http.server's naming)
                raw = self.rfile.read(int(self.headers.get("Content-Length", 0)))
                headers = {k.lower(): v for k, v in self.headers.items()}  # case-blind
                reply = server._answer(self.path, headers, json.loads(raw))
                time.sleep(reply.delay_s)
                text = reply.body if isinstance(reply.body, str) else json.dumps(reply.body)
                payload = text.encode()
                try:
                    self.send_response(reply.status)
                    self.send_header("Content-Type", "application/json")
                    self.send_header("Content-Length", str(len(payload)))
                    self.end_headers()
                    self.wfile.write(payload)
                except (BrokenPipeError, ConnectionResetError):
                    pass  # the client gave up (a timeout test)

            def log_message(self, *args) -> None:  # keep the test output quiet
                pass

        return Handler
