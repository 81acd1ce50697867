"""Revision through TRL's `environment_factory` (models that take images): the submit tool.

The tool's contract with the real renderer and the gated reward set: a submission returns the
canvas at the configured size and the feedback in words; a submission past `turns` is refused in
words and not painted; `get_reward` is the last submission's score (None for an infrastructure
failure, 0 when nothing was submitted). Then how a config chooses the route (`model.takes_images`
with `task.turns` > 1), and the tool's schema as TRL builds it.
"""

from __future__ import annotations

import json
from unittest.mock import patch

import pytest
from hydra.utils import instantiate
from PIL import Image
from transformers.utils import get_json_schema

from watercolor.canvas import Canvas, Status
from watercolor.config import compose_train
from watercolor.render.pool import RenderConfig
from watercolor.render.renderers import LocalRenderer
from watercolor.tasks import build_task
from watercolor.tasks.painting.episode import paint
from watercolor.tasks.painting.feedback import feedback
from watercolor.tasks.painting.harness import HARNESS
from watercolor.tasks.painting.prompts import conversation
from watercolor.training.job import build_submit_episodes
from watercolor.training.settings import check_settings
from watercolor.training.tool_env import SubmitEpisodes, load_processor, small_image

THROWS = """function setup() {
  createCanvas(600, 600, WEBGL);
  background("#f3ead6");
  brush.scaleBrushes(3);
  let wash = null;
  brush.circle(0, 0, wash.radius);
}"""
PAINTS = """function setup() {
  createCanvas(600, 600, WEBGL);
  background("#f3ead6");
  brush.scaleBrushes(3);
  brush.noStroke();
  brush.fill("#c0392b", 170);
  brush.circle(0, 0, 160);
  brush.fill("#e67e22", 140);
  brush.circle(40, -30, 90);
}"""
FOX = conversation("paint a red fox in watercolour")


class Counting:
    """The real renderer, counting its calls."""

    def __init__(self, renderer) -> None:
        self.renderer, self.calls = renderer, 0

    async def __call__(self, reply: str, seed: int = 0) -> Canvas:
        self.calls += 1
        return await self.renderer(reply, seed)


@pytest.fixture(scope="module")
async def renderer():
    local = LocalRenderer(
        RenderConfig(pixel_density=0.5, workers=1, time_limit_s=30.0), paint, HARNESS
    )
    yield local
    await local.close()


def gated():
    return instantiate(compose_train(["reward=gated"]).reward)


def episode(renderer, turns: int = 2, image_px: int = 128):
    env = SubmitEpisodes(gated(), Counting(renderer), feedback, turns=turns, image_px=image_px)()
    assert f"{turns} submissions in all" in env.reset(prompt=FOX)  # what TRL adds to the request
    return env


def parts(result: list[dict]) -> tuple[Image.Image, str]:
    (image,) = [p["image"] for p in result if p["type"] == "image"]
    (text,) = [p["text"] for p in result if p["type"] == "text"]
    return image, text


@pytest.mark.browser
async def test_a_throwing_sketch_returns_its_feedback_and_a_small_canvas(renderer):
    env = episode(renderer, image_px=96)
    image, text = parts(await env.submit(THROWS))
    assert "threw an error" in text and "First error:" in text, text
    assert "Scores" in text and "total 0.00" in text, text  # the gated set's verdict, in words
    assert isinstance(image, Image.Image) and image.size == (96, 96)
    assert env.get_reward() == 0.0


@pytest.mark.browser
async def test_a_painted_canvas_comes_back_as_painted(renderer):
    env = episode(renderer)
    image, text = parts(await env.submit(PAINTS))
    assert "ran and painted" in text, text
    assert image.size == (128, 128)
    colours = image.getcolors(maxcolors=128 * 128)
    assert len(colours) > 20  # washes, not the grey "painted nothing" square
    assert env.get_reward() > 0


@pytest.mark.browser
async def test_a_submission_past_turns_is_refused_in_words_and_not_painted(renderer):
    env = episode(renderer, turns=2)
    await env.submit(THROWS)
    await env.submit(PAINTS)
    third = await env.submit(THROWS)
    assert isinstance(third, str) and "used all 2 submissions" in third, third
    assert env.episodes.renderer.calls == 2
    assert env.get_reward() > 0  # still the second submission's (painted) score


@pytest.mark.browser
async def test_the_reward_is_the_last_submissions_score_never_the_change(renderer):
    reward_set = gated()
    env = episode(renderer)
    await env.submit(PAINTS)
    painted = env.get_reward()
    await env.submit(THROWS)  # a worse revision: the episode scores what it ended with
    assert painted > 0 and env.get_reward() == 0.0
    canvas, score = env.submissions[-1]
    assert score.total == reward_set.score(canvas, prompt="paint a red fox in watercolour").total
    env.reset(prompt=FOX)  # TRL reuses environments across batches: reset forgets
    assert env.get_reward() == 0.0 and env.submissions == []


async def broken_browser(reply: str, seed: int = 0) -> Canvas:
    return Canvas(Status.INFRA_ERROR, errors=["browser gone"])


async def dead_renderer(reply: str, seed: int = 0) -> Canvas:
    raise ConnectionError("render pool is down")


async def test_an_infrastructure_failure_is_no_verdict_never_a_zero():
    env = SubmitEpisodes(gated(), broken_browser, feedback)()
    env.reset(prompt=FOX)
    _, text = parts(await env.submit(PAINTS))
    assert "not the sketch's" in text
    assert env.get_reward() is None
    env = SubmitEpisodes(gated(), dead_renderer, feedback)()
    env.reset(prompt=FOX)
    with pytest.raises(ConnectionError):  # TRL shows the model the error, counts a tool failure
        await env.submit(PAINTS)
    assert env.get_reward() is None


def test_a_rollout_that_never_submitted_scores_zero():
    env = SubmitEpisodes(gated(), broken_browser, feedback)()
    env.reset(prompt=FOX)
    assert env.get_reward() == 0.0


def test_nothing_painted_is_the_galleries_grey_square_at_the_small_size():
    image = small_image(Canvas(Status.ERROR, errors=["x"]), 64)
    assert image.size == (64, 64) and image.getcolors() == [(64 * 64, (128, 128, 128))]


def test_submit_is_a_tool_trl_can_describe():
    env = SubmitEpisodes(gated(), broken_browser, feedback)()
    schema = get_json_schema(env.submit)["function"]  # what TRL puts in the prompt
    assert schema["name"] == "submit"
    assert schema["parameters"]["required"] == ["sketch"]
    assert schema["parameters"]["properties"]["sketch"]["type"] == "string"


@pytest.mark.parametrize(
    ("overrides", "route"),
    [
        (["model=qwen3_5_4b", "task.turns=2"], True),
        (["model=qwen3_5_35b_a3b", "task.turns=3"], True),
        (["model=qwen3_5_4b"], False),  # single-turn: TRL generates as before
        (["task.turns=2"], False),  # the tiny painter is a text model: watercolor.training.revision
    ],
)
def test_models_that_take_images_revise_through_the_submit_tool(overrides, route):
    cfg = compose_train(["reward=gated", *overrides])
    scorer = type("Scorer", (), {"reward_set": gated()})
    episodes = build_submit_episodes(cfg, scorer, None, build_task(cfg.task))
    assert (episodes is not None) == route
    if route:
        assert (episodes.turns, episodes.image_px) == (cfg.task.turns, 128)


def test_a_model_without_a_usable_processor_is_refused_in_words(tmp_path):
    from transformers.utils import is_torchvision_available

    from watercolor.tasks.painting.painter.tiny_qwen35 import qwen35_tokenizer

    qwen35_tokenizer(["function setup() {}"] * 4, 300).save_pretrained(tmp_path)
    with pytest.raises(ValueError, match="has no image processor"):
        load_processor(tmp_path)  # a text model's files: a tokenizer, no image processor
    if not is_torchvision_available():  # as on our CPU machines: Qwen3.5's processor needs it
        config = {"image_processor_type": "Qwen2VLImageProcessor"}
        (tmp_path / "preprocessor_config.json").write_text(json.dumps(config))
        (tmp_path / "processor_config.json").write_text('{"processor_class": "Qwen3VLProcessor"}')
        with pytest.raises(ImportError, match="needs torchvision"):
            load_processor(tmp_path)


def test_group_components_are_refused_on_this_route_before_loading():
    with pytest.raises(ValueError, match="scores each rollout alone"):
        check_settings(
            compose_train(["model=qwen3_5_4b", "task.turns=2", "reward=judge_led"]), "judge_led"
        )
    single_turn = compose_train(["model=qwen3_5_4b", "reward=judge_led"])
    check_settings(single_turn, "judge_led")  # fine
    with pytest.raises(ValueError, match="at least 2 turns"):
        SubmitEpisodes(gated(), broken_browser, feedback, turns=1)
    from watercolor.rewards.diversity import group_diversity
    from watercolor.rewards.reward_set import RewardSet

    with_group = RewardSet({}, group_components={"diversity": {"fn": group_diversity}})
    with pytest.raises(ValueError, match=r"group components \['diversity'\]"):
        SubmitEpisodes(with_group, broken_browser, feedback)  # built without Hydra: refused too


# --- slow: one GRPO step through TRL's environment_factory ---------------------------------------

REQUEST = [{"role": "user", "content": "paint a red fox in watercolour"}]


def submit_call(sketch: str) -> str:
    """An assistant turn calling submit(sketch), as Qwen3.5's template writes a tool call."""
    call = f"<tool_call>\n<function=submit>\n<parameter=sketch>\n{sketch}\n</parameter>\n"
    return f"{call}</function>\n</tool_call><|im_end|>"


def processor_for(tokenizer):
    """Qwen3.5's processor class (Qwen3VLProcessor) with a PIL image processor and no video one.

    transformers looks up the video processor's class even when none is passed, and that class
    needs torchvision, which has no CPU build installable here (PyPI's wheels link CUDA torch).
    The lookup is skipped for the missing video processor only: this route sends no videos.
    """
    from transformers import Qwen3VLProcessor
    from transformers.models.qwen2_vl.image_processing_pil_qwen2_vl import (
        Qwen2VLImageProcessorPil,
    )
    from transformers.processing_utils import ProcessorMixin
    from trl.chat_template_utils import qwen3_5_think_chat_template

    check = ProcessorMixin.check_argument_for_proper_class
    images = Qwen2VLImageProcessorPil(patch_size=16, merge_size=2, temporal_patch_size=2)
    with patch.object(
        ProcessorMixin,
        "check_argument_for_proper_class",
        lambda self, name, arg: None if arg is None else check(self, name, arg),
    ):
        return Qwen3VLProcessor(images, tokenizer, None, chat_template=qwen3_5_think_chat_template)


def tool_calling_qwen35(environment):
    """(model, processor): a tiny Qwen3.5 of the 4B recipe's class, vision tower included, with
    Qwen3.5's own chat template (the one TRL parses tool calls of), taught to call submit(PAINTS).

    No painter in the corpus ever saw a tool, so the model is taught the one call on the prompt
    TRL renders (tool schema included), on a tokenizer trained on that text: a short sequence,
    seconds a step on a busy CPU, and ~15 steps to write the call.
    """
    import torch
    from transformers import set_seed
    from trl.chat_template_utils import qwen3_5_think_chat_template

    from watercolor.tasks.painting.painter.tiny_qwen35 import DENSE, new_model, qwen35_tokenizer
    from watercolor.training.tool_env import HOW_TO_SUBMIT

    set_seed(0)
    request = [{**REQUEST[0], "content": REQUEST[0]["content"] + HOW_TO_SUBMIT.format(turns=2)}]
    renderer = qwen35_tokenizer(["x"], 300)
    renderer.chat_template = qwen3_5_think_chat_template
    prompt = renderer.apply_chat_template(
        request, tools=[environment.submit], add_generation_prompt=True, tokenize=False,
        enable_thinking=False,
    )  # fmt: skip
    tokenizer = qwen35_tokenizer([prompt + submit_call(PAINTS)] * 8, 1000)
    tokenizer.chat_template = qwen3_5_think_chat_template
    model = new_model(DENSE, tokenizer)
    prompt_ids = tokenizer(prompt, add_special_tokens=False)["input_ids"]
    call_ids = tokenizer(submit_call(PAINTS), add_special_tokens=False)["input_ids"]
    ids = torch.tensor([prompt_ids + call_ids])
    labels = torch.tensor([[-100] * len(prompt_ids) + call_ids])
    optimiser = torch.optim.AdamW(model.parameters(), lr=5e-3)
    for _ in range(60):
        loss = model(input_ids=ids, labels=labels).loss
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        optimiser.step()
        optimiser.zero_grad()
        if loss.item() < 0.05:
            break
    assert loss.item() < 0.05, f"the tiny model did not learn the call (loss {loss.item():.2f})"
    return model.eval(), processor_for(tokenizer)


@pytest.mark.slow
@pytest.mark.browser
def test_one_grpo_step_revises_through_the_submit_tool_and_sees_each_canvas(tmp_path):
    """TRL's own tool loop with the route `watercolor.train` builds for `model=qwen3_5_4b
    task.turns=2`: the model calls submit three times per rollout (the taught call, repeated);
    two are painted, the third is refused in words; every canvas reaches the vision tower at the
    configured 128 px; the reward TRL trains on is the environment's. What it cannot show: the
    model revising (it repeats one memorised sketch, so a group's rewards tie and the step's
    advantage is 0), and `load_processor` (AutoProcessor needs torchvision, see `processor_for`).
    """
    from datasets import Dataset
    from omegaconf import OmegaConf
    from trl import GRPOConfig, GRPOTrainer

    from watercolor.policy.loading import lora_config

    cfg = compose_train(["model=qwen3_5_4b", "task.turns=2", "reward=gated"])
    renderer = LocalRenderer(
        RenderConfig(pixel_density=0.5, workers=1, time_limit_s=30.0), paint, HARNESS
    )
    scorer = type("Scorer", (), {"reward_set": gated()})
    episodes = build_submit_episodes(cfg, scorer, renderer, build_task(cfg.task))
    made = []

    def factory():
        made.append(episodes())
        return made[-1]

    model, processor = tool_calling_qwen35(episodes())
    seen = []  # the image grids the vision tower encoded, call by call
    model.model.visual.register_forward_hook(
        lambda module, args, kwargs, out: seen.append(kwargs["grid_thw"].tolist()),
        with_kwargs=True,
    )
    cpu = {"bf16": False, "max_steps": 1, "num_generations": 2, "per_device_train_batch_size": 2,
           "max_completion_length": 2048, "temperature": 0.05, "save_strategy": "no",
           "max_tool_calling_iterations": 3, "gradient_checkpointing": False}  # fmt: skip
    args = GRPOConfig(
        **OmegaConf.to_container(cfg.trainer, resolve=True) | cpu,
        output_dir=str(tmp_path), report_to="none",
    )  # fmt: skip
    trainer = GRPOTrainer(
        model=model, processing_class=processor, reward_funcs=[], args=args,
        train_dataset=Dataset.from_list([{"prompt": REQUEST}] * 2), environment_factory=factory,
        peft_config=lora_config(OmegaConf.to_container(cfg.model.lora)),
    )  # fmt: skip
    try:
        trainer.train()
    finally:
        episodes.close()
    log = trainer.state.log_history[0]
    assert log["tools/call_frequency"] == 3 and log["tools/failure_frequency"] == 0, log
    assert len(made) == 2 and all(len(env.submissions) == 2 for env in made)
    rewards = [env.get_reward() for env in made]
    assert all(r > 0 for r in rewards)  # the painted sketch's gated score, the last submission's
    assert log["rewards/SubmitEnvironment/mean"] == pytest.approx(sum(rewards) / 2, abs=1e-4)
    assert seen and all(grid == [1, 8, 8] for call in seen for grid in call)  # 128 px / 16 px
    assert len(seen[-1]) == 4  # the loss's forward pass: both rollouts' two canvases
