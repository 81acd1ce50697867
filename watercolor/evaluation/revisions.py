"""Draft against revision on the same held-out prompts, with controls at equal tokens.

    >>> sets = load_reward_sets("painting", ["fine_grained"])
    >>> table = evaluate_revisions("outputs/runs/.../final", prompts("heldout")[:8], sets,
    ...                            EvaluationSpec.configured(), sets["fine_grained"])
    >>> revision_measures(table, "fine_grained")["clean_draft_change"]  # analysis.revision_stats
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
shows is measured by `watercolor.analysis.revision_stats` (no torch: compare imports it).

What this isolates: nothing itself; replies run in the render pool's sandboxed pages.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from pathlib import Path

import pandas as pd

from watercolor.canvas import Canvas
from watercolor.cores import torch_threads
from watercolor.evaluation.sampling import EvaluationSpec, Sample, prompt_replies, sampling_settings
from watercolor.rewards.reward_set import RewardSet
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
    spec: EvaluationSpec,
    texts: Sequence[str] | None = None,
) -> list[dict]:
    """`spec.rows` of one role, each row marked with its role and the feedback it saw."""
    rows = spec.rows(samples, canvases, reward_sets)
    for i, row in enumerate(rows):
        row["role"], row["feedback"] = role, texts[i] if texts is not None else ""
        row["sketch"] = canvases[i].sketch
    return rows


def evaluate_revisions(
    model_path: str | Path,
    prompts: Sequence[str],
    reward_sets: Mapping[str, RewardSet],
    spec: EvaluationSpec,
    feedback_rewards: RewardSet,
) -> pd.DataFrame:
    """Drafts, second tries and three revisions of each draft, painted and scored (one row
    each; see the module docstring), `spec.samples` drafts per prompt (`spec`: the task,
    renderer and sampling settings). `feedback_rewards` is the reward set whose components the
    feedback shows (the set the model was trained with:
    `watercolor.evaluation.held_out.feedback_rewards`)."""
    model, tokenizer = spec.load(model_path)
    task, samples = spec.task, spec.samples
    tries = spec.generate(model, tokenizer, prompts, 2 * samples)
    canvases = spec.paint(tries, reward_sets.values())
    first = [s.sample < samples for s in tries]  # each prompt's first half: the drafts
    drafts = [s for s, d in zip(tries, first, strict=True) if d]
    second = [replace(s, sample=s.sample - samples) for s, d in zip(tries, first, strict=True)
              if not d]  # fmt: skip
    draft_canvases = [c for c, d in zip(canvases, first, strict=True) if d]
    second_canvases = [c for c, d in zip(canvases, first, strict=True) if not d]
    texts = feedback_texts(drafts, draft_canvases, feedback_rewards, task)
    conditions = {"revision": texts, "revision_empty": [""] * len(texts),
                  "revision_other": other_prompts_feedback(drafts, texts)}  # fmt: skip
    settings = sampling_settings(spec.generation)
    with torch_threads(spec.threads):
        revised = {
            role: revise(model, tokenizer, drafts, words, seed=spec.seed, settings=settings,
                         task=task, template_kwargs=spec.chat_template_kwargs)
            for role, words in conditions.items()
        }  # fmt: skip
    del model
    rows = role_rows("draft", drafts, draft_canvases, reward_sets, spec, texts)
    rows += role_rows("second", second, second_canvases, reward_sets, spec)
    for role, replies in revised.items():
        canvases = spec.paint(replies, reward_sets.values())
        rows += role_rows(role, replies, canvases, reward_sets, spec, conditions[role])
    return pd.DataFrame(rows)


# --- measures -----------------------------------------------------------------------------------
