"""Sampling a model's replies, painting and scoring them: what evaluation (`watercolor.evaluate`),
the revision controls (`watercolor.evaluation.revisions`) and the kinds table
(`watercolor.tasks.painting.painter.kinds`) share.

    replies = generate_samples(model, tokenizer, prompts, samples=4, seed=0)  # seeded per prompt
    renderer = LocalRenderer(render, task.episode, task.harness)
    canvases = asyncio.run(paint_replies([s.reply for s in replies], renderer))
    rows = score_rows(replies, canvases, reward_sets)  # one row per sample, every set

Sampling is seeded per prompt (the same prompt gets the same replies whichever other prompts
are asked); every canvas is rendered with one seed, as in training. Without Hydra, the task, the
renderer and the sampling settings are conf/evaluate.yaml's (`configured_task`, `configured`,
`sampling_settings`), so a caller samples and paints as training does.
"""

from __future__ import annotations

import asyncio
import zlib
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

import torch
from hydra.utils import instantiate
from omegaconf import DictConfig, OmegaConf
from tqdm.auto import tqdm

from watercolor import config
from watercolor.analysis.behaviour import behaviour_row
from watercolor.canvas import Canvas
from watercolor.cores import torch_threads
from watercolor.policy.loading import load_policy
from watercolor.render.pool import RenderConfig
from watercolor.render.renderers import LocalRenderer
from watercolor.rewards.diversity import group_diversity
from watercolor.rewards.reward_set import RewardSet
from watercolor.tasks import Task, build_task


@dataclass(frozen=True)
class Sample:
    """One generated reply to one prompt."""

    prompt_index: int
    prompt: str
    sample: int
    reply: str
    tokens: int  # completion tokens, the end-of-turn token included
    truncated: bool  # stopped by max_new_tokens, not by the model

    @property
    def key(self) -> str:
        return f"p{self.prompt_index:02d}_s{self.sample:02d}"


def generate_samples(
    model,
    tokenizer,
    prompts: Sequence[str],
    *,
    samples: int,
    seed: int = 0,
    generation: Mapping | None = None,
    chat_template_kwargs: Mapping | None = None,
    threads: int | None = None,
    progress: bool = True,
    conversation: Callable[[str], list[dict]] | None = None,
) -> list[Sample]:
    """`samples` replies per prompt with `model.generate` (sampling, seeded per prompt).

    `generation`: `generate` settings (`sampling_settings` fills in the completion limit).
    `threads`: torch threads (None: the cores not already busy; see `torch_threads`).
    `conversation`: the task's prompt -> chat messages (None: the configured task's, conf/task).
    """
    settings = sampling_settings(generation)
    conversation = conversation or configured_task().conversation
    replies = []
    with torch_threads(threads):
        for i, prompt in enumerate(tqdm(prompts, desc="generate", disable=not progress)):
            messages = conversation(prompt)
            replies += prompt_replies(model, tokenizer, i, prompt, messages, samples, seed,
                                       settings, chat_template_kwargs or {})  # fmt: skip
    return replies


def sampling_settings(generation: Mapping | None) -> dict:
    """`generate` settings: sampling, with `generation` over it; without a `max_new_tokens`
    there, the configured one (conf/evaluate.yaml's: the trainer's `max_completion_length`)."""
    if generation is None or "max_new_tokens" not in generation:
        limit = config.compose_config("evaluate").generation.max_new_tokens
        generation = {"max_new_tokens": limit, **(generation or {})}
    return {"do_sample": True, **generation}


def training_sampling(train: DictConfig) -> tuple[dict, dict | None]:
    """`generation` and `chat_template_kwargs` of conf/evaluate.yaml read against a composed
    training config (its trainer group): how that training samples, for `generate_samples`."""
    own = OmegaConf.to_container(config.compose_config("evaluate"), resolve=False)
    keys = ("generation", "chat_template_kwargs")
    node = OmegaConf.create({"trainer": OmegaConf.to_container(train.trainer, resolve=True)}
                            | {key: own[key] for key in keys})  # fmt: skip
    return tuple(OmegaConf.to_container(node, resolve=True)[key] for key in keys)


@dataclass(frozen=True)
class EvaluationSpec:
    """How an evaluation samples, paints and scores a model: the one set of settings
    `watercolor.evaluation.held_out.evaluate_model` and
    `watercolor.evaluation.revisions.evaluate_revisions` take.

    `task`, `render`: the task (its conversation, episode, harness, style measures and sketch
    suffix) and the renderer; `EvaluationSpec.configured()` takes conf/evaluate.yaml's, so a
    caller without Hydra paints as training does. `samples` replies per prompt, sampled with
    `seed` (per prompt), `generation` (`generate` settings, `sampling_settings` fills in the
    completion limit) and `chat_template_kwargs`; the model loaded in `dtype`, generating on
    `threads` torch threads (None: the idle cores).
    """

    task: Task
    render: RenderConfig
    samples: int = 4
    seed: int = 0
    generation: Mapping | None = None
    chat_template_kwargs: Mapping | None = None
    dtype: str | None = None
    threads: int | None = None
    progress: bool = True

    @classmethod
    def configured(cls, **fields) -> EvaluationSpec:
        """conf/evaluate.yaml's task and renderer (unless given), with `fields` set."""
        task = fields.pop("task", None) or configured_task()
        return cls(task=task, render=fields.pop("render", None) or configured("renderer"), **fields)

    def load(self, model_path: str | Path):
        """(model, tokenizer) in eval mode, across the GPUs where there are any."""
        device_map = "auto" if torch.cuda.is_available() else None
        model, tokenizer = load_policy(str(model_path), dtype=self.dtype, device_map=device_map)
        model.eval()
        return model, tokenizer

    def generate(self, model, tokenizer, prompts: Sequence[str], samples: int) -> list[Sample]:
        """`samples` replies per prompt (`generate_samples` with these settings)."""
        return generate_samples(
            model, tokenizer, prompts, samples=samples, seed=self.seed,
            generation=self.generation, chat_template_kwargs=self.chat_template_kwargs,
            threads=self.threads, progress=self.progress, conversation=self.task.conversation,
        )  # fmt: skip

    def paint(
        self, replies: Sequence[Sample], reward_sets: Iterable[RewardSet] = ()
    ) -> list[Canvas]:
        """Every reply through the task's episode once, in a fresh pool closed afterwards,
        painted as `reward_sets` read it (`Task.painting_for`: a second paper for opacity)."""
        episode = self.task.painting_for(*reward_sets).episode
        renderer = LocalRenderer(self.render, episode, self.task.harness)
        return asyncio.run(
            paint_replies([s.reply for s in replies], renderer, self.seed, self.progress)
        )

    def rows(self, replies, canvases, reward_sets: Mapping[str, RewardSet]) -> list[dict]:
        """`score_rows` with the task's style measures."""
        return score_rows(replies, canvases, reward_sets, self.task.style)


def configured(key: str):
    """A part of conf/evaluate.yaml (`renderer`), built: what a caller without Hydra gets by
    default, so it paints as training does."""
    return instantiate(OmegaConf.select(config.compose_config("evaluate"), key))


def configured_task() -> Task:
    """The task conf/evaluate.yaml names (its `task` group), built: what a caller without Hydra
    gets by default, so it asks and paints as training does."""
    return build_task(config.compose_config("evaluate").task)


def prompt_replies(model, tokenizer, index: int, prompt: str, messages: list[dict],
                    samples: int, seed: int, settings: dict,
                    template_kwargs: Mapping) -> list[Sample]:  # fmt: skip
    """`samples` replies to one prompt (as chat `messages`), sampled with the prompt's own seed."""
    text = tokenizer.apply_chat_template(
        messages, tokenize=False, add_generation_prompt=True, **template_kwargs
    )
    inputs = tokenizer(text, return_tensors="pt", add_special_tokens=False).to(model.device)
    torch.manual_seed(prompt_seed(seed, prompt))
    with torch.no_grad():
        output = model.generate(**inputs, num_return_sequences=samples, **settings)
    completions = output[:, inputs["input_ids"].shape[1] :]
    return [_sample(tokenizer, index, prompt, j, ids) for j, ids in enumerate(completions)]


def prompt_seed(seed: int, prompt: str) -> int:
    """The sampling seed of one prompt: fixed by `seed` and the text, not by its position."""
    return zlib.crc32(f"{seed}:{prompt}".encode())


def _sample(tokenizer, prompt_index: int, prompt: str, sample: int, ids: torch.Tensor) -> Sample:
    ends = (ids == tokenizer.eos_token_id).nonzero()
    length = int(ends[0]) + 1 if len(ends) else len(ids)
    reply = tokenizer.decode(ids[:length], skip_special_tokens=True)
    return Sample(prompt_index, prompt, sample, reply, length, truncated=not len(ends))


async def paint_replies(
    replies: Sequence[str], renderer: LocalRenderer, seed: int = 0, progress: bool = True
) -> list[Canvas]:
    """Every reply rendered once by `renderer` (concurrently, up to its pool size), then closed."""
    with tqdm(total=len(replies), desc="render", disable=not progress) as bar:

        async def one(reply: str) -> Canvas:
            canvas = await renderer(reply, seed)
            bar.update()
            return canvas

        try:
            return list(await asyncio.gather(*(one(reply) for reply in replies)))
        finally:
            await renderer.close()


def score_rows(
    samples: Sequence[Sample],
    canvases: Sequence[Canvas],
    reward_sets: Mapping[str, RewardSet],
    style: Callable[[str], dict[str, float]] | None = None,
) -> list[dict]:
    """One row per sample: what it is, how it rendered, its behaviour (with the task's code-read
    `style` measures, `Task.style`) and its score under every reward set.

    Each prompt's samples are scored together, as a GRPO group would be, so group components
    (and the diversity column) compare a canvas with the other paintings of the same prompt.
    Diversity is NaN for a canvas that did not paint (status not ok), like the other
    painted-only behaviour columns.
    """
    rows = [_base_row(s, c, style) for s, c in zip(samples, canvases, strict=True)]
    for indices in _groups(samples).values():
        group = [canvases[i] for i in indices]
        prompts = [samples[i].prompt for i in indices]
        for i, diversity in zip(indices, group_diversity(group), strict=True):
            rows[i]["diversity"] = diversity if canvases[i].ok else float("nan")
        for name, reward_set in reward_sets.items():
            for i, score in zip(
                indices, reward_set.score_batch(group, prompt=prompts), strict=True
            ):
                rows[i][f"total/{name}"] = score.total
                rows[i][f"gate/{name}"] = score.gate_passed
                rows[i] |= {f"{name}/{c}": v for c, v in score.components.items()}
    return rows


def _groups(samples: Sequence[Sample]) -> dict[int, list[int]]:
    groups: dict[int, list[int]] = {}
    for i, sample in enumerate(samples):
        groups.setdefault(sample.prompt_index, []).append(i)
    return groups


def _base_row(sample: Sample, canvas: Canvas, style) -> dict:
    return {
        "key": sample.key,
        "prompt_index": sample.prompt_index,
        "prompt": sample.prompt,
        "sample": sample.sample,
        "status": str(canvas.status),
        "violations": ",".join(canvas.violations),
        "errors": " | ".join(canvas.errors)[:500],
        "completion_tokens": sample.tokens,
        "completion_chars": len(sample.reply),
        "truncated": sample.truncated,
        "render_s": canvas.timings.get("total_ms", 0.0) / 1000,
        "reply": sample.reply,
    } | behaviour_row(canvas, sample.reply, style)


def save_canvases(
    samples: Sequence[Sample], canvases: Sequence[Canvas], folder: Path, suffix: str
) -> list:
    """Write `<key>.png` (when painted) and `<key><suffix>` (the reply's code: the task's file
    suffix, ".js" for painting) per sample; the PNG names (or None)."""
    folder.mkdir(parents=True, exist_ok=True)
    names = []
    for sample, canvas in zip(samples, canvases, strict=True):
        (folder / f"{sample.key}{suffix}").write_text(canvas.sketch or sample.reply)
        name = None
        if canvas.png is not None:
            name = f"{sample.key}.png"
            (folder / name).write_bytes(canvas.png)
        names.append(name)
    return names
