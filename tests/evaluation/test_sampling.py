"""`evaluate` (its sampling) asks and paints as the configured task says (conf/task), not as
painting does."""

from __future__ import annotations

from pathlib import Path

from watercolor.config import compose_train
from watercolor.evaluation.sampling import (
    configured,
    configured_task,
    generate_samples,
    sampling_settings,
)
from watercolor.policy.loading import load_policy
from watercolor.tasks.painting.painter.tiny import SMOKE, ensure_tiny_model

CACHE = Path(__file__).resolve().parents[2] / "outputs" / "cache"


def test_the_prompt_messages_are_the_tasks():
    model, tokenizer = load_policy(ensure_tiny_model(SMOKE, CACHE, progress=False))
    templated = []
    apply_chat_template = tokenizer.apply_chat_template

    def noted(messages, **kwargs):  # the real template, noting what it was given
        templated.append(messages)
        return apply_chat_template(messages, **kwargs)

    tokenizer.apply_chat_template = noted

    def conversation(prompt: str) -> list[dict]:  # another task's: no system prompt
        return [{"role": "user", "content": f"task: {prompt}"}]

    generate_samples(model, tokenizer, ["draw a kite"], samples=1, progress=False,
                     generation={"max_new_tokens": 2}, conversation=conversation)  # fmt: skip
    assert templated == [[{"role": "user", "content": "task: draw a kite"}]]


def test_without_hydra_the_defaults_are_the_configured_ones():
    assert configured("renderer").pixel_density == 0.5  # conf/renderer, not RenderConfig's 1.0
    task = configured_task()  # conf/evaluate.yaml's task group: painting
    messages = task.conversation("paint a red koi")
    assert messages[0]["role"] == "system" and messages[-1]["content"] == "paint a red koi"
    assert task.suffix == ".js" and task.eval_prompts[0].startswith("paint ")


def test_without_a_completion_limit_sampling_stops_where_training_does():
    limit = compose_train().trainer.max_completion_length  # conf/trainer, the one source
    assert sampling_settings(None) == {"do_sample": True, "max_new_tokens": limit}
    assert sampling_settings({"temperature": 0.5})["max_new_tokens"] == limit
    assert sampling_settings({"max_new_tokens": 7, "do_sample": False}) == {
        "do_sample": False,
        "max_new_tokens": 7,
    }
