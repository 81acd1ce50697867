"""Draft against revision on the same held-out prompts, with controls at equal tokens.

    >>> sets = load_reward_sets(["fine_grained"])
    >>> table = evaluate_revisions("outputs/runs/.../final", prompts("heldout")[:8], sets,
    ...                            feedback_rewards=sets["fine_grained"])
    >>> revision_measures(table, "fine_grained")["clean_draft_change"]   # watercolor.revision_stats
    Estimate(mean=0.031, low=-0.004, high=0.066)

Every draft is revised three times, from the same draft with the same sampling seed:
- `revision`: with the environment's feedback on the draft (the task's `feedback`);
- `revision_empty`: with the feedback turn empty (does the model use the words, or only the turn?);
- `revision_other`: with another prompt's feedback (same sample, next prompt). If that does as
  well as the real feedback, the feedback is ignored.
Each draft also has a `second` single-turn try, so best-of-2 single-turn spends the tokens a
draft and its revision spend.

The table has one row per reply (`role`: draft, second, revision, revision_empty,
revision_other; `feedback` holds the text the revision saw); each role is scored as its own
groups, so group components compare a canvas with the other replies of its role. What the table
shows is measured by `watercolor.revision_stats` (no torch: compare imports it).

What this isolates: nothing itself; replies run in the render pool's sandboxed pages.
"""

from __future__ import annotations

import asyncio
from collections.abc import Mapping, Sequence
from dataclasses import replace
from pathlib import Path

import pandas as pd

from watercolor.canvas import Canvas
from watercolor.cores import torch_threads
from watercolor.policy.loading import load_policy
from watercolor.render.painters import LocalPainter
from watercolor.render.pool import RenderConfig
from watercolor.rewards.reward_set import RewardSet
from watercolor.sampling import (
    Sample,
    configured,
    configured_task,
    generate_samples,
    paint_replies,
    prompt_replies,
    sampling_settings,
    score_rows,
)
from watercolor.tasks import Task


def feedback_texts(
    samples: Sequence[Sample], canvases: Sequence[Canvas], reward_set: RewardSet, task: Task
) -> list[str]:
    """The environment's feedback (the task's) on each sample's canvas, scored in its prompt's
    group."""
    texts = [""] * len(samples)
    for prompt_index in sorted({s.prompt_index for s in samples}):
        indices = [i for i, s in enumerate(samples) if s.prompt_index == prompt_index]
        group = [canvases[i] for i in indices]
        scores = reward_set.score_batch(group, prompt=[samples[i].prompt for i in indices])
        for i, score in zip(indices, scores, strict=True):
            texts[i] = task.feedback(canvases[i], score)
    return texts


def other_prompts_feedback(samples: Sequence[Sample], texts: Sequence[str]) -> list[str]:
    """Each sample gets the feedback of the same sample of the next prompt (cyclically): never
    its own prompt's when there are two prompts or more."""
    by_key = {(s.prompt_index, s.sample): t for s, t in zip(samples, texts, strict=True)}
    order = sorted({s.prompt_index for s in samples})
    after = {p: order[(i + 1) % len(order)] for i, p in enumerate(order)}
    return [by_key.get((after[s.prompt_index], s.sample), "") for s in samples]


def revise(
    model,
    tokenizer,
    drafts: Sequence[Sample],
    texts: Sequence[str],
    *,
    seed: int,
    settings: dict,
    task: Task,
    template_kwargs: Mapping | None = None,
) -> list[Sample]:
    """One revision of each draft after its feedback turn (`texts[i]`), seeded per prompt as
    the drafts are, so the three feedback conditions differ only in the words they saw."""
    revisions = []
    for draft, text in zip(drafts, texts, strict=True):
        messages = task.revision_conversation(task.conversation(draft.prompt), draft.reply, text)
        (reply,) = prompt_replies(model, tokenizer, draft.prompt_index, draft.prompt,
                                   messages, 1, seed + draft.sample, settings,
                                   template_kwargs or {})  # fmt: skip
        revisions.append(replace(reply, sample=draft.sample))
    return revisions


def role_rows(
    role: str,
    samples: Sequence[Sample],
    canvases: Sequence[Canvas],
    reward_sets: Mapping[str, RewardSet],
    texts: Sequence[str] | None = None,
    style=None,
) -> list[dict]:
    """`score_rows` of one role (with the task's `style` measures), each row marked with its
    role and the feedback it saw."""
    rows = score_rows(samples, canvases, reward_sets, style)
    for i, row in enumerate(rows):
        row["role"], row["feedback"] = role, texts[i] if texts is not None else ""
        row["sketch"] = canvases[i].sketch
    return rows


def evaluate_revisions(
    model_path: str | Path,
    prompts: Sequence[str],
    reward_sets: Mapping[str, RewardSet],
    *,
    feedback_rewards: RewardSet,
    samples: int = 4,
    seed: int = 0,
    generation: Mapping | None = None,
    chat_template_kwargs: Mapping | None = None,
    render: RenderConfig | None = None,
    task: Task | None = None,
    dtype: str | None = None,
    threads: int | None = None,
    progress: bool = True,
) -> pd.DataFrame:
    """Drafts, second tries and three revisions of each draft, painted and scored (one row
    each; see the module docstring). `feedback_rewards` is the reward set whose components the
    feedback shows (the set the model was trained with: `watercolor.evaluate.feedback_rewards`)."""
    model, tokenizer = load_policy(str(model_path), dtype=dtype)
    model.eval()
    task, render = task or configured_task(), render or configured("renderer")
    tries = generate_samples(
        model, tokenizer, prompts, samples=2 * samples, seed=seed, generation=generation,
        chat_template_kwargs=chat_template_kwargs, threads=threads, progress=progress,
        conversation=task.conversation,
    )  # fmt: skip
    canvases = paint(tries, render, task.episode, seed, progress)
    first = [s.sample < samples for s in tries]  # each prompt's first half: the drafts
    drafts = [s for s, d in zip(tries, first, strict=True) if d]
    second = [replace(s, sample=s.sample - samples) for s, d in zip(tries, first, strict=True)
              if not d]  # fmt: skip
    draft_canvases = [c for c, d in zip(canvases, first, strict=True) if d]
    second_canvases = [c for c, d in zip(canvases, first, strict=True) if not d]
    texts = feedback_texts(drafts, draft_canvases, feedback_rewards, task)
    conditions = {"revision": texts, "revision_empty": [""] * len(texts),
                  "revision_other": other_prompts_feedback(drafts, texts)}  # fmt: skip
    settings = sampling_settings(generation)
    with torch_threads(threads):
        revised = {
            role: revise(model, tokenizer, drafts, words, seed=seed, settings=settings,
                         task=task, template_kwargs=chat_template_kwargs)
            for role, words in conditions.items()
        }  # fmt: skip
    del model
    rows = role_rows("draft", drafts, draft_canvases, reward_sets, texts, task.style)
    rows += role_rows("second", second, second_canvases, reward_sets, style=task.style)
    for role, replies in revised.items():
        rows += role_rows(role, replies, paint(replies, render, task, seed, progress),
                          reward_sets, conditions[role], task.style)  # fmt: skip
    return pd.DataFrame(rows)


def paint(replies: Sequence[Sample], render, task: Task, seed: int, progress: bool) -> list[Canvas]:
    """Every reply painted once by `task`'s episode in a fresh pool (closed afterwards)."""
    painter = LocalPainter(render, task.episode, task.harness)
    return asyncio.run(paint_replies([s.reply for s in replies], painter, seed, progress))


# --- measures -----------------------------------------------------------------------------------
