"""Revision episodes (`task.turns: 2`): draft, the environment's feedback, revision, through TRL.

The first tests are the token bookkeeping on the tiny painter's real tokenizer and chat
template. The slow ones train for real: one GRPO step in this process with the rollout's output
captured (masks, what was scored), and `python -m watercolor.train debug=smoke task.turns=2` as
a user runs it. The smoke painter cannot revise (it never saw a feedback turn): these tests
check the episode's plumbing, not that revisions improve.
"""

from __future__ import annotations

import asyncio

import pytest
from train_helpers import CACHE, mlflow_client, run_training
from transformers import AutoTokenizer

from watercolor.config import compose_train
from watercolor.tasks import build_task
from watercolor.tasks.painting.feedback import REVISION_REQUEST, revision_conversation
from watercolor.tasks.painting.harness import HARNESS
from watercolor.tasks.painting.painter.tiny import SMOKE, ensure_tiny_model
from watercolor.tasks.painting.prompts import conversation
from watercolor.training.revision import RevisionRollout, feedback_ids

DRAFT = (
    "```js\nfunction setup() {\n  createCanvas(600, 600, WEBGL);\n  brush.circle(0, 0, 90);\n}\n```"
)
TASK = conversation("paint a red fox in watercolour")


@pytest.fixture(scope="module")
def tokenizer():
    return AutoTokenizer.from_pretrained(ensure_tiny_model(SMOKE, CACHE, progress=False))


def as_template_renders(tokenizer, ids: list[int]) -> str:
    return tokenizer.decode(ids, skip_special_tokens=False)


@pytest.mark.parametrize("draft_ended", [True, False])
def test_feedback_ids_continue_the_sampled_draft_as_the_template_renders_the_episode(
    tokenizer, draft_ended
):
    prompt_ids = tokenizer.apply_chat_template(TASK, add_generation_prompt=True)["input_ids"]
    draft_ids = tokenizer(DRAFT, add_special_tokens=False)["input_ids"]
    draft_ids += [tokenizer.eos_token_id] if draft_ended else []  # else: cut off at the limit
    after = revision_conversation(TASK, DRAFT, "The sketch threw an error and painted nothing.")
    turn = feedback_ids(tokenizer, after, draft_ended, {})
    rendered = tokenizer.apply_chat_template(after, tokenize=False, add_generation_prompt=True)
    assert as_template_renders(tokenizer, prompt_ids + draft_ids + turn) == rendered
    # the feedback turn holds the environment's words, and never the draft's own tokens
    assert "painted nothing" in tokenizer.decode(turn) and "createCanvas" not in tokenizer.decode(
        turn
    )


def test_a_template_that_rewrites_the_reply_is_refused_clearly(tokenizer):
    class Rewriting:  # a template that drops what the model wrote (as some thinking templates do)
        eos_token = tokenizer.eos_token

        @staticmethod
        def apply_chat_template(messages, tokenize=False, add_generation_prompt=False):
            return "".join(m["role"] for m in messages)

    with pytest.raises(ValueError, match="cannot extend the sampled ids"):
        feedback_ids(Rewriting, revision_conversation(TASK, DRAFT, "x"), True, {})


def test_fewer_than_two_turns_is_not_a_revision_episode():
    with pytest.raises(ValueError, match="at least 2 turns"):
        RevisionRollout(scorer=None, task=build_task(compose_train(["task.turns=1"]).task))


class Captured:
    """Wraps the rollout to keep what it returned to TRL."""

    def __init__(self, rollout: RevisionRollout) -> None:
        self.rollout, self.outputs = rollout, []

    def __call__(self, prompts, trainer):
        self.outputs.append(self.rollout(prompts, trainer))
        return self.outputs[-1]


@pytest.mark.slow
@pytest.mark.browser
def test_one_grpo_step_trains_whole_trajectories_scored_on_the_revision(tmp_path):
    from hydra import compose, initialize_config_dir
    from hydra.utils import instantiate
    from omegaconf import OmegaConf
    from trl import GRPOConfig, GRPOTrainer

    from watercolor.config import CONF_DIR
    from watercolor.policy.loading import load_policy
    from watercolor.render.pool import RenderConfig
    from watercolor.render.renderers import LocalRenderer
    from watercolor.rewards.trl_adapter import RolloutScorer
    from watercolor.tasks.painting.episode import paint
    from watercolor.training.job import build_dataset

    with initialize_config_dir(str(CONF_DIR), version_base="1.3"):
        cfg = compose("train", ["reward=fine_grained"])
    model, tok = load_policy(str(ensure_tiny_model(SMOKE, CACHE, progress=False)))
    renderer = LocalRenderer(RenderConfig(pixel_density=0.5, workers=1), paint, HARNESS)
    batches = []
    scorer = RolloutScorer(
        instantiate(cfg.reward), renderer, num_generations=2, on_batch=batches.append
    )
    task = build_task(compose_train(["task.turns=2"]).task)
    rollout = Captured(RevisionRollout(scorer, task))
    funcs, weights = scorer.reward_functions()
    small = {"max_steps": 1, "num_generations": 2, "per_device_train_batch_size": 2,
             "max_completion_length": 96}  # fmt: skip
    trainer_kwargs = OmegaConf.to_container(cfg.trainer, resolve=True) | small
    args = GRPOConfig(
        **trainer_kwargs, output_dir=str(tmp_path), reward_weights=weights, report_to="none"
    )
    trainer = GRPOTrainer(
        model=model, processing_class=tok, reward_funcs=funcs, args=args,
        train_dataset=build_dataset(task).select(range(4)), rollout_func=rollout,
    )  # fmt: skip
    try:
        trainer.train()
    finally:
        asyncio.run_coroutine_threadsafe(renderer.close(), trainer.async_loop).result(60)
    (out,) = rollout.outputs
    (batch,) = batches
    request_head = REVISION_REQUEST.split("{feedback}")[0]
    trajectories = zip(out["completion_ids"], out["env_mask"], out["final_reply"], strict=True)
    for ids, mask, final in trajectories:
        assert len(mask) == len(ids) and mask[0] == 1 and mask[-1] == 1
        # one run of the environment's tokens (the feedback turn) between draft and revision
        runs = "".join(map(str, mask)).split("0")
        assert len([r for r in runs if r == ""]) == mask.count(0) - 1, mask
        feedback_turn = tok.decode([t for t, m in zip(ids, mask, strict=True) if m == 0])
        assert request_head.strip() in feedback_turn
        revision = tok.decode(ids[len(mask) - mask[::-1].index(0) :], skip_special_tokens=True)
        assert revision == final
    # the scorer painted and scored the final replies, not the whole trajectory's text
    assert batch.replies == out["final_reply"]
    assert len(out["draft_reward"]) == 2


@pytest.mark.slow
@pytest.mark.browser
def test_the_smoke_run_trains_revision_episodes_end_to_end(tmp_path):
    run_training(tmp_path, "reward=gated", "task.turns=2")
    client = mlflow_client(tmp_path)
    (run,) = client.search_runs(client.get_experiment_by_name("watercolor").experiment_id)
    for name in ("reward/total", "rollouts/draft_reward"):
        assert len(client.get_metric_history(run.info.run_id, name)) == 3, name
    assert run.data.params["task.turns"] == "2"
    assert (tmp_path / "run" / "final" / "model.safetensors").exists()


def test_revision_settings_that_cannot_work_are_refused_before_loading():
    from hydra import compose, initialize_config_dir

    from watercolor.config import CONF_DIR
    from watercolor.training.settings import check_settings

    with initialize_config_dir(str(CONF_DIR), version_base="1.3"):
        for overrides, message in [
            (["task.turns=2", "overlap_rendering=true"], "overlap_rendering=false"),
            (["task.turns=2", "sampler=vllm_colocate"], "sampler=hf"),
            (["task.turns=0"], "whole number"),
        ]:
            with pytest.raises(ValueError, match=message):
                check_settings(compose("train", overrides), "fine_grained")
        check_settings(compose("train", ["task.turns=2"]), "fine_grained")


def test_feedback_ids_follow_a_thinking_template_as_the_recipes_use_it():
    # Qwen3.5's template (the real-model recipes'), thinking off: the revision's generation
    # prompt carries the empty thinking block, as the draft's did; the sampled draft is kept.
    from watercolor.tasks.painting.painter.tiny_qwen35 import qwen35_tokenizer

    tokenizer = qwen35_tokenizer([DRAFT, "paint a red fox in watercolour"] * 4, 300)
    kwargs = {"enable_thinking": False}
    after = revision_conversation(TASK, DRAFT, "The sketch threw an error and painted nothing.")
    turn = tokenizer.decode(feedback_ids(tokenizer, after, True, kwargs))
    assert turn.startswith("\n<|im_start|>user\n") and "painted nothing" in turn
    assert turn.endswith("<|im_start|>assistant\n<think>\n\n</think>\n\n"), turn
