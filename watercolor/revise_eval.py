"""Draft against revision on the same held-out prompts, with controls at equal tokens.

    >>> sets = load_reward_sets(["fine_grained"])
    >>> table = evaluate_revisions("outputs/runs/.../final", prompts("heldout")[:8], sets,
    ...                            feedback_rewards=sets["fine_grained"])
    >>> revision_measures(table, "fine_grained")["clean_draft_change"]
    Estimate(mean=0.031, low=-0.004, high=0.066)

Every draft is revised three times, from the same draft with the same sampling seed:
- `revision`: with the environment's feedback on the draft (`watercolor.tasks.painting.feedback`);
- `revision_empty`: with the feedback turn empty (does the model use the words, or only the turn?);
- `revision_other`: with another prompt's feedback (same sample, next prompt). If that does as
  well as the real feedback, the feedback is ignored.
Each draft also has a `second` single-turn try, so best-of-2 single-turn spends the tokens a
draft and its revision spend.

The table has one row per reply (`role`: draft, second, revision, revision_empty,
revision_other; `feedback` holds the text the revision saw); each role is scored as its own
groups, so group components compare a canvas with the other replies of its role.

`revision_measures` pairs each draft with its revisions by (run, prompt, sample) and reports,
each with a paired bootstrap CI over runs and prompts (`watercolor.stats`):
- `crash_fix_rate`: drafts that did not run cleanly whose revision did;
- `clean_draft_change`: the total's change over drafts that already ran cleanly (the headline);
- `regression_rate`: revisions scored below their draft; `copy_rate`: the same sketch again;
- `vs_best_of_2`, `vs_empty_feedback`, `vs_other_feedback`: the revision's total minus each
  control's. `draft_vs_single_turn` compares a revising model's drafts with a single-turn
  model's replies on the same prompts (a model that drafts badly on purpose shows here).

What this isolates: nothing itself; replies run in the render pool's sandboxed pages.
"""

from __future__ import annotations

import asyncio
from collections.abc import Mapping, Sequence
from dataclasses import replace
from pathlib import Path

import numpy as np
import pandas as pd

from watercolor.canvas import Canvas, Status
from watercolor.cores import torch_threads
from watercolor.evaluate import (
    Sample,
    configured,
    configured_task,
    generate_samples,
    paint_replies,
    prompt_replies,
    sampling_settings,
    score_rows,
)
from watercolor.policy.loading import load_policy
from watercolor.render.painters import LocalPainter
from watercolor.render.pool import RenderConfig
from watercolor.rewards.reward_set import RewardSet
from watercolor.stats import Estimate, bootstrap_means, cells, estimate, point_mean
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
) -> list[dict]:
    """`score_rows` of one role, each row marked with its role and the feedback it saw."""
    rows = score_rows(samples, canvases, reward_sets)
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
    rows = role_rows("draft", drafts, draft_canvases, reward_sets, texts)
    rows += role_rows("second", second, second_canvases, reward_sets)
    for role, replies in revised.items():
        rows += role_rows(role, replies, paint(replies, render, task.episode, seed, progress),
                          reward_sets, conditions[role])  # fmt: skip
    return pd.DataFrame(rows)


def paint(replies: Sequence[Sample], render, episode, seed: int, progress: bool) -> list[Canvas]:
    """Every reply painted once in a fresh pool (closed afterwards)."""
    painter = LocalPainter(render, episode)
    return asyncio.run(paint_replies([s.reply for s in replies], painter, seed, progress))


# --- measures -----------------------------------------------------------------------------------


def pairs(table: pd.DataFrame, set_name: str, run: str = "run") -> pd.DataFrame:
    """One row per draft: its run, prompt and sample, and per role the total, status and sketch."""
    table = table if run in table else table.assign(**{run: 0})
    keys = [run, "prompt_index", "sample"]
    wide = None
    for role, rows in table.groupby("role"):
        part = rows.set_index(keys)[[f"total/{set_name}", "status", "sketch"]]
        part.columns = [f"{role}:{c.split('/')[0]}" for c in part.columns]
        wide = part if wide is None else wide.join(part, how="outer")
    return wide.reset_index()


def revision_values(pair: pd.DataFrame) -> pd.DataFrame:
    """Per draft, the value each measure averages (NaN where the measure does not apply)."""
    draft, revision = pair["draft:total"].astype(float), pair["revision:total"].astype(float)
    clean = pair["draft:status"] == str(Status.OK)
    fixed = (pair["revision:status"] == str(Status.OK)).astype(float)
    both = draft.notna() & revision.notna()
    return pair.assign(
        crash_fix_rate=fixed.where(~clean),
        clean_draft_change=(revision - draft).where(clean & both),
        regression_rate=(revision < draft).astype(float).where(both),
        copy_rate=(norm(pair["revision:sketch"]) == norm(pair["draft:sketch"])).astype(float),
        vs_best_of_2=revision - np.fmax(draft, pair["second:total"].astype(float)),
        vs_empty_feedback=revision - pair["revision_empty:total"].astype(float),
        vs_other_feedback=revision - pair["revision_other:total"].astype(float),
    )


MEASURES = ("crash_fix_rate", "clean_draft_change", "regression_rate", "copy_rate",
            "vs_best_of_2", "vs_empty_feedback", "vs_other_feedback")  # fmt: skip


def norm(sketches: pd.Series) -> pd.Series:
    return sketches.fillna("").map(lambda text: " ".join(text.split()))


def revision_measures(
    table: pd.DataFrame, set_name: str, *, run: str = "run", resamples: int = 2000, seed: int = 0
) -> dict[str, Estimate]:
    """Every measure of the module docstring with its paired bootstrap CI (runs x prompts)."""
    values = revision_values(pairs(table, set_name, run))
    prompts = sorted(values["prompt_index"].unique())
    out = {}
    for measure in MEASURES:
        group = cells(values, measure, prompts, run=run)
        draws = bootstrap_means({measure: group}, resamples=resamples, seed=seed)[measure]
        out[measure] = estimate(point_mean(group), draws)
    return out


def draft_vs_single_turn(
    revising: pd.DataFrame, single: pd.DataFrame, set_name: str, *, run: str = "run",
    resamples: int = 2000, seed: int = 0,
) -> Estimate:  # fmt: skip
    """The revising model's drafts minus the single-turn model's replies (total under
    `set_name`), paired by prompt; below 0 means its drafts got worse (sandbagging)."""
    drafts = revising[revising["role"] == "draft"]
    drafts, single = (t if run in t else t.assign(**{run: 0}) for t in (drafts, single))
    prompts = sorted(set(drafts["prompt_index"]) | set(single["prompt_index"]))
    groups = {name: cells(rows, f"total/{set_name}", prompts, run=run)
              for name, rows in (("draft", drafts), ("single", single))}  # fmt: skip
    draws = bootstrap_means(groups, resamples=resamples, seed=seed)
    point = point_mean(groups["draft"]) - point_mean(groups["single"])
    return estimate(point, draws["draft"] - draws["single"])


def arm_revision_table(
    samples: pd.DataFrame, *, by: str = "trained_with", run: str = "run",
    baseline: str | None = None, resamples: int = 2000, seed: int = 0,
) -> pd.DataFrame:  # fmt: skip
    """Long table of a study's revision evaluations (rows of every role, `by` naming each
    model's arm and `run` its evaluation): per reward set that scored them (`scored_by`), each
    measure (`MEASURES`, plus the mean `draft_total` and `revision_total`) per arm, then each
    pair of arms' difference ("a - b", paired by prompt; runs resampled within each arm).
    Arms keep their order in `samples`, except `baseline` (the untrained model's), which goes
    last, so that every difference with it reads "arm - baseline"."""
    arms = sorted(dict.fromkeys(samples[by]), key=lambda arm: arm == baseline)
    prompts = sorted(samples["prompt_index"].unique())
    rows = []
    for scorer in (c.removeprefix("total/") for c in samples if c.startswith("total/")):
        values = {}
        for arm in arms:
            found = revision_values(pairs(samples[samples[by] == arm], scorer, run))
            values[arm] = found.assign(
                draft_total=found["draft:total"].astype(float),
                revision_total=found["revision:total"].astype(float),
            )
        for measure in ("draft_total", "revision_total", *MEASURES):
            groups = {arm: cells(values[arm], measure, prompts, run=run) for arm in arms}
            draws = bootstrap_means(groups, resamples=resamples, seed=seed)
            points = {arm: point_mean(group) for arm, group in groups.items()}
            found = [(arm, estimate(points[arm], draws[arm])) for arm in arms]
            found += [(f"{a} - {b}", estimate(points[a] - points[b], draws[a] - draws[b]))
                      for i, a in enumerate(arms) for b in arms[i + 1 :]]  # fmt: skip
            rows += [{"scored_by": scorer, "measure": measure, "comparison": name} | vars(e)
                     for name, e in found]  # fmt: skip
    return pd.DataFrame(rows, columns=["scored_by", "measure", "comparison", "mean", "low", "high"])
