"""A vision-language judge behind an OpenAI-compatible chat-completions endpoint.

    $ vllm serve Qwen/Qwen3-VL-30B-A3B-Instruct --port 8001        # on a GPU machine

    >>> from watercolor.rewards.judges import VLMJudge
    >>> judge = VLMJudge("http://127.0.0.1:8001/v1", model="Qwen/Qwen3-VL-30B-A3B-Instruct")
    >>> judge.compare(canvas.png, reference.png)
    'B'

The anchor's judge: a fixed prompt, two paintings as base64 PNG data URLs (A first, B second),
temperature 0, and a strict JSON answer `{"winner": "A" | "B" | "tie", "reason": "..."}`
(requested with a JSON-schema `response_format`, which vLLM and OpenAI enforce; set
`response_format=None` for servers that reject it). The answer is parsed strictly: anything
but exactly that object is malformed.

How requests are sent, retried and bounded, when a comparison is no verdict, and where the key,
endpoint and model come from: the comment above `VLMJudge`.
"""

from __future__ import annotations

import base64
import io
import json
import logging
import os
import threading

import openai
from openai.types.chat import ChatCompletion
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


class MalformedAnswer(ValueError):
    """The server answered, but not with exactly one verdict object."""


def parse_verdict(content: str) -> Verdict:
    """The winner from the model's text: exactly {"winner": A|B|tie, "reason": str}."""
    try:
        answer = json.loads(content)
    except (TypeError, json.JSONDecodeError, RecursionError) as exc:  # nested past the stack
        raise MalformedAnswer(f"not JSON: {content!r:.200}") from exc
    if not isinstance(answer, dict) or set(answer) != {"winner", "reason"}:
        raise MalformedAnswer(f"expected keys winner and reason: {content!r:.200}")
    if answer["winner"] not in VERDICTS or not isinstance(answer["reason"], str):
        raise MalformedAnswer(f"winner must be one of {VERDICTS}: {content!r:.200}")
    return answer["winner"]


def answer_text(completion: ChatCompletion) -> str:
    """The assistant's text from a chat completion."""
    if not completion.choices:
        raise MalformedAnswer(f"no choices in {completion!r:.200}")
    content = completion.choices[0].message.content
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


# Requests go through the `openai` client (`chat.completions.create`), which retries transport
# errors, timeouts and 408/409/429/5xx answers itself: `max_retries` times, with its own exponential
# backoff (0.5 s doubling to at most 8 s, with jitter; not configurable) or the server's
# `Retry-After`; each request is bounded by `timeout_s`. Failures are no verdict, never a fake loss:
# once the client gives up, or the server refuses the request (other 4xx: a wrong model name, a bad
# request), or the answer is not exactly the verdict object, `compare` returns None. A malformed
# answer is not asked again: at temperature 0 the same question mostly gets the same answer. At most
# `concurrency` requests are in flight per judge, so one comparison takes at most about
# `(max_retries + 1) * timeout_s` plus the backoff. The API key, if the server wants one, is read
# from the environment variable named by `api_key_env`, so it never lands in a logged config;
# without one the client sends the placeholder `EMPTY` (vLLM's convention: a server started without
# `--api-key` ignores it). The endpoint and model have no defaults here: the judge sets take them
# from conf/reward/blocks/judge/vlm.yaml (its port, 8001, and the environment variables that move
# it), their one source.
class VLMJudge:
    """Asks a vision-language model which of two paintings is the better watercolour."""

    def __init__(
        self,
        base_url: str,
        model: str,
        *,
        prompt: str = JUDGE_PROMPT,
        image_size: int | None = None,
        response_format: dict | None = RESPONSE_FORMAT,
        max_tokens: int = 256,
        timeout_s: float = 120.0,
        max_retries: int = 2,
        concurrency: int = 8,
        api_key_env: str = "WATERCOLOR_JUDGE_API_KEY",
    ) -> None:
        self.base_url, self.model, self.prompt = base_url, model, prompt
        self.image_size, self.response_format = image_size, response_format
        self.max_tokens = max_tokens
        self.concurrency = max(1, concurrency)
        self._slots = threading.BoundedSemaphore(self.concurrency)
        self._client = openai.OpenAI(
            base_url=base_url,
            api_key=os.environ.get(api_key_env) or "EMPTY",
            timeout=timeout_s,
            max_retries=max(0, max_retries),
        )

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
        """The verdict (A, B or tie); None when the server gave no usable one."""
        body = self.request(a_png, b_png)
        try:
            with self._slots:
                completion = self._client.chat.completions.create(**body)
            return parse_verdict(answer_text(completion))
        # APIError: the client's retries are spent, or the request was refused. ValueError: a
        # MalformedAnswer, or a body that is not JSON at all (the client raises json's error).
        except (openai.APIError, ValueError) as exc:
            log.warning("judge gave no verdict: %s", exc)
            return None

    def close(self) -> None:
        self._client.close()
