"""The VLM judge's request and response handling against a loopback OpenAI-compatible server.

`chat_server.py` stands in for `vllm serve Qwen/Qwen3-VL-30B-A3B-Instruct`, which cannot run on
these CPU machines: it speaks the same HTTP API, so the judge's real `openai` client talks to it.
Checked: request shape, strict parsing, the client's retries of busy/failing servers, no verdict
after persistent failures, refusals, malformed answers or timeouts, and order swapping through
judge_winrate."""

import io
import json
import socket
import time

import pytest
from chat_server import ChatServer, Reply, completion, images, verdict
from judge_helpers import canvas_of, png_of
from PIL import Image

from watercolor.rewards.judges import VLMJudge, judge_winrate
from watercolor.rewards.judges.vlm import JUDGE_PROMPT, MalformedAnswer, parse_verdict

A_PNG, B_PNG = png_of((200, 60, 60)), png_of((60, 60, 200))
FAST = {"timeout_s": 5.0}  # the client's backoff is its own: 0.5 s, then 1 s, ...


def judge_for(server: ChatServer, **options) -> VLMJudge:
    return VLMJudge(server.base_url, model="test-model", **(FAST | options))


def test_request_carries_the_model_both_images_in_order_and_temperature_zero(monkeypatch):
    monkeypatch.setenv("TEST_JUDGE_KEY", "sk-test")
    with ChatServer(lambda request, n: verdict("A")) as server:
        assert judge_for(server, api_key_env="TEST_JUDGE_KEY").compare(A_PNG, B_PNG) == "A"
    (request,) = server.requests
    assert request.path == "/v1/chat/completions"
    assert request.headers["authorization"] == "Bearer sk-test"
    body = request.body
    assert body["model"] == "test-model" and body["temperature"] == 0
    assert body["messages"][0] == {"role": "system", "content": JUDGE_PROMPT}
    parts = body["messages"][1]["content"]
    urls = [p["image_url"]["url"] for p in parts if p["type"] == "image_url"]
    assert len(urls) == 2 and all(u.startswith("data:image/png;base64,") for u in urls)
    assert images(body) == [A_PNG, B_PNG]
    schema = body["response_format"]["json_schema"]["schema"]
    assert schema["properties"]["winner"]["enum"] == ["A", "B", "tie"]


def test_images_can_be_shown_at_one_size_and_json_mode_switched_off():
    with ChatServer(lambda request, n: verdict("tie")) as server:
        judge = judge_for(server, image_size=64, response_format=None)
        assert judge.compare(A_PNG, png_of((1, 2, 3), size=300)) == "tie"
    body = server.requests[0].body
    assert "response_format" not in body
    # No key in the environment: the client sends vLLM's placeholder.
    assert server.requests[0].headers["authorization"] == "Bearer EMPTY"
    sizes = [Image.open(io.BytesIO(png)).size for png in images(body)]
    assert sizes == [(64, 64), (64, 64)]


@pytest.mark.parametrize(
    ("content", "expected"),
    [
        ('{"winner": "A", "reason": "more layers"}', "A"),
        ('  {"reason": "", "winner": "tie"}\n', "tie"),
        ('{"winner": "B", "reason": "bleeds"}', "B"),
        ('```json\n{"winner": "A", "reason": "x"}\n```', MalformedAnswer),  # fenced
        ('{"winner": "a", "reason": "x"}', MalformedAnswer),  # case matters
        ('{"winner": "A"}', MalformedAnswer),  # no reason
        ('{"winner": "A", "reason": "x", "score": 9}', MalformedAnswer),  # extra key
        ('{"winner": "A", "reason": 3}', MalformedAnswer),
        ('["A"]', MalformedAnswer),
        ("A is better.", MalformedAnswer),
        ("", MalformedAnswer),
        ("[" * 100_000, MalformedAnswer),  # json recurses per level (issue 44)
    ],
)
def test_answers_are_parsed_strictly(content, expected):
    if expected is MalformedAnswer:
        with pytest.raises(MalformedAnswer):
            parse_verdict(content)
    else:
        assert parse_verdict(content) == expected


@pytest.mark.parametrize(
    "first", [Reply(503, {"error": "overloaded"}), Reply(429, {"error": "slow"})]
)
def test_a_busy_or_failing_server_is_asked_again_then_the_verdict_counts(first):
    with ChatServer(lambda request, n: first if n == 0 else verdict("B")) as server:
        assert judge_for(server).compare(A_PNG, B_PNG) == "B"
    assert len(server.requests) == 2
    assert server.requests[0].body == server.requests[1].body  # the same question again


@pytest.mark.parametrize(
    "answer",
    [
        Reply(body=completion("Painting A is better.")),  # malformed answer
        Reply(200, "<html>gateway</html>"),  # not JSON at all
        Reply(200, {"choices": []}),
    ],
)
def test_a_malformed_answer_is_no_verdict_without_asking_again(answer):
    with ChatServer(lambda request, n: answer if n == 0 else verdict("B")) as server:
        assert judge_for(server).compare(A_PNG, B_PNG) is None
    assert len(server.requests) == 1


def test_persistent_failure_is_no_verdict_after_the_retries():
    with ChatServer(lambda request, n: Reply(500, {"error": "boom"})) as server:
        assert judge_for(server, max_retries=2).compare(A_PNG, B_PNG) is None
    assert len(server.requests) == 3


def test_a_refused_request_is_not_retried():
    with ChatServer(lambda request, n: Reply(400, {"error": "unknown model"})) as server:
        assert judge_for(server, max_retries=3).compare(A_PNG, B_PNG) is None
    assert len(server.requests) == 1


def test_timeouts_are_no_verdict_within_the_time_bound():
    with ChatServer(lambda request, n: Reply(body=verdict("A").body, delay_s=2.0)) as server:
        start = time.monotonic()
        judge = judge_for(server, timeout_s=0.2, max_retries=1)
        assert judge.compare(A_PNG, B_PNG) is None
        # 2 x 0.2 s + the client's ~0.5 s backoff; waiting out the server's delays would take
        # 4 s, so the bound has room for a loaded machine and still catches that.
        assert time.monotonic() - start < 3.5
    assert len(server.requests) == 2


def test_an_unreachable_server_is_no_verdict():
    with socket.socket() as probe:  # a loopback port nobody listens on
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    judge = VLMJudge(f"http://127.0.0.1:{port}/v1", "test-model", max_retries=1, timeout_s=2.0)
    assert judge.compare(A_PNG, B_PNG) is None


def test_judge_winrate_swaps_the_order_through_the_server(references):
    """The server prefers one painting wherever it is shown and otherwise always says "A"."""
    winner, other = canvas_of((200, 40, 40)), canvas_of((40, 160, 60))

    def script(request, n):
        a, b = images(request)
        return verdict("A" if a == winner.png else "B" if b == winner.png else "A")

    with ChatServer(script) as server:
        judge = judge_for(server, concurrency=4)
        values = judge_winrate([winner, other], judge=judge, pool=references, n_references=4)
    assert values == [1.0, 0.5]  # a clear winner; a split in every pair for the other
    shown = [images(r.body) for r in server.requests]
    assert len(shown) == 16
    assert (
        sum(pair[0] == winner.png for pair in shown)
        == sum(pair[1] == winner.png for pair in shown)
        == 4
    )


def test_json_response_format_is_what_vllm_expects():
    """The schema travels as OpenAI's `json_schema` response format (vLLM enforces it)."""
    fmt = VLMJudge("http://127.0.0.1:1/v1", "test-model").request(A_PNG, B_PNG)["response_format"]
    assert fmt["type"] == "json_schema" and fmt["json_schema"]["strict"] is True
    assert json.loads(json.dumps(fmt)) == fmt
