"""Generation for GRPO that starts painting each reply the moment it is finished (opt-in).

    >>> rollout = OverlappedRollout(scorer, overlap=True)
    >>> GRPOTrainer(..., rollout_func=rollout)

By default (`overlap_rendering=false`) TRL's GRPOTrainer generates on its own and this module
only times it (`GenerationClock`). `overlap_rendering=true` opts in to `OverlappedRollout`. TRL
has no public hook for "a row of the batch has finished", so it re-implements TRL's transformers
generation step through TRL internals: `trainer._tokenize_prompts`, `trainer.model_wrapped`,
`trl.trainer.utils.pad` and the experimental `rollout_func` argument. A TRL upgrade can break it;
the default path does not use it.

TRL generates the whole batch and only then calls the reward functions, so the browser idles
while the model writes and the model idles while the browser paints. Replies finish at very
different lengths (a flat fill in ~150 tokens, a layered wash in ~500), so most of a batch is
done long before its longest reply. `OverlappedRollout` is a TRL `rollout_func` that generates
exactly as TRL's transformers path does (the trainer's prompt tokenisation, generation config and
unwrapped model; everything after the first EOS dropped) with one addition: a stopping
criterion that never stops generation but hands every row that has just emitted EOS to
`RolloutScorer.prefetch`, which starts its render on TRL's reward event loop. When TRL then
calls the reward functions, the scorer awaits the renders already under way (a reply that was
cut off at `max_completion_length` is painted then, as before).

With `overlap=False` it generates the same way and prefetches nothing. Either way it records the
generation wall time, which the scorer logs as `generation_s`.

Only for the `hf` sampler: with vLLM, generation happens outside this process (see
`watercolor.train`).
"""

from __future__ import annotations

import time
from collections.abc import Callable

import torch
from transformers import StoppingCriteria, StoppingCriteriaList, TrainerCallback
from trl.models import unwrap_model_for_generation
from trl.trainer.utils import pad

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


class OverlappedRollout:
    """A TRL `rollout_func`: transformers generation, each finished reply painted at once."""

    def __init__(self, scorer: RolloutScorer, *, overlap: bool = True) -> None:
        self.scorer, self.overlap = scorer, overlap

    def __call__(self, prompts: list, trainer) -> dict[str, list]:
        started = time.perf_counter()
        prompt_ids, _, _ = trainer._tokenize_prompts(prompts)
        tokenizer = trainer.processing_class
        inputs = {
            "input_ids": pad([torch.tensor(ids) for ids in prompt_ids],
                             padding_value=tokenizer.pad_token_id, padding_side="left"),
            "attention_mask": pad([torch.ones(len(ids), dtype=torch.long) for ids in prompt_ids],
                                  padding_value=0, padding_side="left"),
        }  # fmt: skip
        inputs = {k: v.to(trainer.accelerator.device) for k, v in inputs.items()}
        prompt_length = inputs["input_ids"].shape[1]
        loop = getattr(trainer, "async_loop", None)

        def paint_now(row: int, ids: list[int]) -> None:
            # `ids` end at the row's first EOS: the reply's text as TRL will decode it
            if self.overlap and loop is not None:
                self.scorer.prefetch(tokenizer.decode(ids, skip_special_tokens=True), loop)

        watcher = FinishedRows(prompt_length, list(trainer.eos_token_ids), paint_now)
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
                stopping_criteria=StoppingCriteriaList([watcher]),
            )
        completion_ids = [
            self._until_eos(row.tolist(), trainer.eos_token_ids)
            for row in output[:, prompt_length:].cpu()
        ]
        self.scorer.note_generation(time.perf_counter() - started)
        return {"prompt_ids": prompt_ids, "completion_ids": completion_ids, "logprobs": None}

    @staticmethod
    def _until_eos(ids: list[int], eos_ids) -> list[int]:
        """The ids up to and including the first EOS (all of them if there is none)."""
        for i, token in enumerate(ids):
            if token in eos_ids:
                return ids[: i + 1]
        return ids
