"""A vision-language judge behind an OpenAI-compatible chat-completions endpoint.

    $ vllm serve Qwen/Qwen3-VL-30B-A3B-Instruct --port 8000        # on a GPU machine

    >>> from watercolor.rewards.judges import VLMJudge
    >>> judge = VLMJudge("http://127.0.0.1:8000/v1", model="Qwen/Qwen3-VL-30B-A3B-Instruct")
    >>> judge.compare(canvas.png, reference.png)
    'B'

The anchor's judge: a fixed prompt, two paintings as base64 PNG data URLs (A first, B second),
temperature 0, and a strict JSON answer `{"winner": "A" | "B" | "tie", "reason": "..."}`
(requested with a JSON-schema `response_format`, which vLLM and OpenAI enforce; set
`response_format=None` for servers that reject it). The answer is parsed strictly: anything
but exactly that object is malformed.

Failures are no verdict, never a fake loss: transport errors, timeouts, 408/425/429/5xx answers
and malformed answers are retried `attempts` times with exponential backoff, then `compare`
returns None; other 4xx answers (a wrong model name, a bad request) return None at once, since
repeating them cannot help. At most `concurrency` requests are in flight per judge, each bounded
by `timeout_s`, so one comparison takes at most about `attempts * timeout_s` plus the backoff.
The API key, if the server wants one, is read from the environment variable named by
`api_key_env`, so it never lands in a logged config. Written on `httpx` (a project dependency)
rather than the `openai` client: one POST and its retries are all that is needed.
"""

from __future__ import annotations

import base64
import io
import json
import logging
import os
import threading
import time

import httpx
from PIL import Image

from watercolor.rewards.judges.judge import VERDICTS, Verdict

log = logging.getLogger(__name__)

JUDGE_PROMPT = """\
You judge watercolour paintings made with code (p5.js and the p5.brush library). You will see \
two paintings, A and B. Decide which is the better watercolour: translucent washes layered \
over each other, soft bleeding edges, paper grain and pigment texture, a coherent composition \
and pleasing colour. Flat, opaque, hard-edged shapes are poor watercolour however tidy they \
are. Judge the painting, not its subject. Answer with a JSON object only, no other text: \
{"winner": "A" or "B" or "tie", "reason": "<one short sentence>"}. Answer "tie" only when \
neither is better."""

RESPONSE_FORMAT = {
    "type": "json_schema",
    "json_schema": {
        "name": "verdict",
        "strict": True,
        "schema": {
            "type": "object",
            "properties": {
                "winner": {"type": "string", "enum": list(VERDICTS)},
                "reason": {"type": "string"},
            },
            "required": ["winner", "reason"],
            "additionalProperties": False,
        },
    },
}
RETRY_STATUS = frozenset({408, 425, 429})  # and every 5xx


class MalformedAnswer(ValueError):
    """The server answered, but not with exactly one verdict object."""


class RetryableStatus(Exception):
    """The server is busy or failing (408/425/429/5xx): worth asking again."""


def parse_verdict(content: str) -> Verdict:
    """The winner from the model's text: exactly {"winner": A|B|tie, "reason": str}."""
    try:
        answer = json.loads(content)
    except (TypeError, json.JSONDecodeError) as exc:
        raise MalformedAnswer(f"not JSON: {content!r:.200}") from exc
    if not isinstance(answer, dict) or set(answer) != {"winner", "reason"}:
        raise MalformedAnswer(f"expected keys winner and reason: {content!r:.200}")
    if answer["winner"] not in VERDICTS or not isinstance(answer["reason"], str):
        raise MalformedAnswer(f"winner must be one of {VERDICTS}: {content!r:.200}")
    return answer["winner"]


def answer_text(body: object) -> str:
    """The assistant's text from a chat-completions response body."""
    try:
        content = body["choices"][0]["message"]["content"]
    except (KeyError, IndexError, TypeError) as exc:
        raise MalformedAnswer(f"no choices[0].message.content in {str(body):.200}") from exc
    if not isinstance(content, str):
        raise MalformedAnswer(f"content is not text: {content!r:.200}")
    return content


def data_url(png: bytes, size: int | None = None) -> str:
    """A PNG as a data URL, resized to `size` x `size` first when a size is given."""
    if size is not None:
        with Image.open(io.BytesIO(png)) as image:
            resized = image.convert("RGB").resize((size, size), Image.Resampling.LANCZOS)
        buffer = io.BytesIO()
        resized.save(buffer, format="PNG")
        png = buffer.getvalue()
    return "data:image/png;base64," + base64.b64encode(png).decode("ascii")


class VLMJudge:
    """Asks a vision-language model which of two paintings is the better watercolour."""

    def __init__(
        self,
        base_url: str = "http://127.0.0.1:8000/v1",
        model: str = "Qwen/Qwen3-VL-30B-A3B-Instruct",
        *,
        prompt: str = JUDGE_PROMPT,
        image_size: int | None = None,
        response_format: dict | None = RESPONSE_FORMAT,
        max_tokens: int = 256,
        timeout_s: float = 120.0,
        attempts: int = 3,
        backoff_s: float = 1.0,
        concurrency: int = 8,
        api_key_env: str = "WATERCOLOR_JUDGE_API_KEY",
    ) -> None:
        self.base_url, self.model, self.prompt = base_url, model, prompt
        self.image_size, self.response_format = image_size, response_format
        self.max_tokens, self.attempts, self.backoff_s = max_tokens, max(1, attempts), backoff_s
        self.concurrency = max(1, concurrency)
        self._slots = threading.BoundedSemaphore(self.concurrency)
        key = os.environ.get(api_key_env)
        headers = {"Authorization": f"Bearer {key}"} if key else {}
        timeout = httpx.Timeout(timeout_s, connect=min(10.0, timeout_s))
        self._client = httpx.Client(base_url=base_url, timeout=timeout, headers=headers)

    def request(self, a_png: bytes, b_png: bytes) -> dict:
        """The chat-completions request body for one comparison (A shown first)."""
        content = [
            {"type": "text", "text": "Painting A:"},
            {"type": "image_url", "image_url": {"url": data_url(a_png, self.image_size)}},
            {"type": "text", "text": "Painting B:"},
            {"type": "image_url", "image_url": {"url": data_url(b_png, self.image_size)}},
            {"type": "text", "text": "Which is the better watercolour? Reply with the JSON only."},
        ]
        body = {
            "model": self.model,
            "messages": [
                {"role": "system", "content": self.prompt},
                {"role": "user", "content": content},
            ],
            "temperature": 0,
            "max_tokens": self.max_tokens,
        }
        if self.response_format is not None:
            body["response_format"] = self.response_format
        return body

    def compare(self, a_png: bytes, b_png: bytes) -> Verdict | None:
        """The verdict (A, B or tie); None when the server gave no usable one after retries."""
        body = self.request(a_png, b_png)
        for attempt in range(self.attempts):
            if attempt:
                time.sleep(self.backoff_s * 2 ** (attempt - 1))
            try:
                return self._ask(body)
            except (httpx.TransportError, MalformedAnswer, RetryableStatus) as exc:
                log.warning("judge attempt %d/%d failed: %s", attempt + 1, self.attempts, exc)
            except httpx.HTTPStatusError as exc:  # our request is wrong; asking again won't help
                log.error("judge refused the request: %s", exc)
                return None
        return None

    def _ask(self, body: dict) -> Verdict:
        with self._slots:
            response = self._client.post("chat/completions", json=body)
        if response.status_code in RETRY_STATUS or response.status_code >= 500:
            raise RetryableStatus(f"HTTP {response.status_code}: {response.text:.200}")
        response.raise_for_status()
        try:
            payload = response.json()
        except ValueError as exc:
            raise MalformedAnswer(f"response is not JSON: {response.text:.200}") from exc
        return parse_verdict(answer_text(payload))

    def close(self) -> None:
        self._client.close()
