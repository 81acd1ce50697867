"""Generation for GRPO that starts painting each reply the moment it is finished (opt-in).

    >>> rollout = OverlappedRollout(scorer)
    >>> GRPOTrainer(..., rollout_func=rollout)

By default (`overlap_rendering=false`) TRL's GRPOTrainer generates on its own and this module
only times it (`GenerationClock`). `overlap_rendering=true` opts in to `OverlappedRollout`, a
TRL `rollout_func` (the experimental `GRPOTrainer` argument for custom generation): TRL has no
hook for "a row of the batch has finished", so it generates the batch itself.

TRL generates the whole batch and only then calls the reward functions, so the browser idles
while the model writes and the model idles while the browser paints. Replies finish at very
different lengths (a flat fill in ~150 tokens, a layered wash in ~500), so most of a batch is
done long before its longest reply. How it generates, with which of the trainer's attributes,
and what of that is not public API: the comment above `OverlappedRollout`.

It also records the generation wall time, which the scorer logs as `generation_s`.

Only for the `hf` sampler: with vLLM, TRL generates on its own, and `watercolor.train` refuses
`overlap_rendering=true` (`check_settings`).
"""

from __future__ import annotations

import time
from collections.abc import Callable

import torch
from transformers import StoppingCriteria, StoppingCriteriaList, TrainerCallback
from trl.models import unwrap_model_for_generation

from watercolor.rewards.trl_adapter import RolloutScorer


class GenerationClock(TrainerCallback):
    """Tells the scorer when each training step starts: TRL's own generation comes first in a
    step, then the rewards call, so the scorer logs the time between as `generation_s`."""

    def __init__(self, scorer: RolloutScorer) -> None:
        self.scorer = scorer

    def on_step_begin(self, args, state, control, **kwargs) -> None:
        self.scorer.note_step_start()


class FinishedRows(StoppingCriteria):
    """Calls `on_finished(row, completion_ids)` once per row, at the step it emits EOS.

    Never stops generation itself (it returns all False); `generate`'s own EOS criterion does.
    """

    def __init__(
        self, prompt_length: int, eos_ids: list[int], on_finished: Callable[[int, list[int]], None]
    ) -> None:
        self.prompt_length, self.on_finished = prompt_length, on_finished
        self.eos = torch.tensor(eos_ids)
        self.done: torch.Tensor | None = None

    def __call__(self, input_ids: torch.Tensor, scores, **kwargs) -> torch.Tensor:
        if self.done is None:
            self.done = torch.zeros(input_ids.shape[0], dtype=torch.bool)
        just_finished = torch.isin(input_ids[:, -1].cpu(), self.eos) & ~self.done
        for row in just_finished.nonzero().flatten().tolist():
            self.done[row] = True
            self.on_finished(row, input_ids[row, self.prompt_length :].tolist())
        return torch.zeros(input_ids.shape[0], dtype=torch.bool, device=input_ids.device)


# `OverlappedRollout` generates with what the trainer exposes publicly: its tokenizer
# (`processing_class`) and `args.chat_template_kwargs` for the prompts, `model_wrapped` and
# `accelerator` through `trl.models.unwrap_model_for_generation`, and the trainer's
# `generation_config` / `generation_kwargs` (what TRL's own transformers path samples with);
# everything after a reply's first EOS is dropped, as TRL does. Its one addition is a stopping
# criterion that never stops generation but hands every row that has just emitted EOS to
# `RolloutScorer.prefetch`, which starts its render on the loop of TRL's reward calls. When TRL then
# calls the reward functions, the scorer awaits the renders already under way (a reply cut off at
# `max_completion_length` is painted then, as before). The first step paints nothing ahead: the
# reward loop is known once TRL has called the rewards.
#
# What is not public API: `generation_config`, `generation_kwargs` and `rollout_func` itself are TRL
# attributes and an experimental argument without documented stability; a TRL upgrade can change
# them (tests/test_train_smoke.py trains with this path, so CI sees it). Prompts must be
# conversational (the task's dataset is); TRL's multimodal and tool-calling prompt handling is not
# reproduced here.
class OverlappedRollout:
    """A TRL `rollout_func`: transformers generation, each finished reply painted at once."""

    def __init__(self, scorer: RolloutScorer) -> None:
        self.scorer = scorer

    def __call__(self, prompts: list, trainer) -> dict[str, list]:
        started = time.perf_counter()
        tokenizer = trainer.processing_class
        prompt_ids = conversation_ids(prompts, tokenizer, trainer.args.chat_template_kwargs)

        def paint_now(row: int, ids: list[int]) -> None:
            # `ids` end at the row's first EOS: the reply's text as TRL will decode it
            self.scorer.prefetch(tokenizer.decode(ids, skip_special_tokens=True))

        completion_ids = generate(trainer, prompt_ids, on_finished=paint_now)
        self.scorer.note_generation(time.perf_counter() - started)
        return {"prompt_ids": prompt_ids, "completion_ids": completion_ids, "logprobs": None}


def conversation_ids(
    prompts: list, tokenizer, chat_template_kwargs: dict | None
) -> list[list[int]]:
    """Each conversation's ids, ending with the assistant's generation prompt."""
    if not all(isinstance(prompt, list) for prompt in prompts):
        raise ValueError("this rollout needs conversational prompts (lists of messages)")
    kwargs = chat_template_kwargs or {}
    return tokenizer.apply_chat_template(
        prompts, add_generation_prompt=True, tokenize=True, return_dict=True, **kwargs
    )["input_ids"]


def generate(
    trainer,
    prompt_ids: list[list[int]],
    on_finished: Callable[[int, list[int]], None] | None = None,
) -> list[list[int]]:
    """One sampled continuation of each row of `prompt_ids`, up to and including its first EOS,
    with the trainer's model and its generation config (TRL's own sampling settings);
    `on_finished(row, ids)` is called as each row emits EOS."""
    tokenizer = trainer.processing_class
    inputs = tokenizer.pad({"input_ids": prompt_ids}, padding_side="left", return_tensors="pt")
    inputs = {k: v.to(trainer.accelerator.device) for k, v in inputs.items()}
    prompt_length = inputs["input_ids"].shape[1]
    eos_ids = eos_token_ids(trainer.generation_config)
    watchers = [FinishedRows(prompt_length, eos_ids, on_finished)] if on_finished else []
    with (
        unwrap_model_for_generation(
            trainer.model_wrapped,
            trainer.accelerator,
            gather_deepspeed3_params=trainer.args.ds3_gather_for_generation,
            generation_kwargs=trainer.generation_kwargs,
            gradient_checkpointing_kwargs=trainer.args.gradient_checkpointing_kwargs,
        ) as model,
        torch.no_grad(),
    ):
        output = model.generate(
            **inputs,
            generation_config=trainer.generation_config,
            stopping_criteria=StoppingCriteriaList(watchers),
        )
    return [until_eos(row.tolist(), eos_ids) for row in output[:, prompt_length:].cpu()]


def eos_token_ids(generation_config) -> list[int]:
    """The generation config's EOS ids as a list (it may hold one id or several)."""
    eos = generation_config.eos_token_id
    return [eos] if isinstance(eos, int) else list(eos)


def until_eos(ids: list[int], eos_ids: list[int]) -> list[int]:
    """The ids up to and including the first EOS (all of them if there is none)."""
    for i, token in enumerate(ids):
        if token in eos_ids:
            return ids[: i + 1]
    return ids
