"""What a table of drafts and revisions (`watercolor.evaluation.revisions.evaluate_revisions`)
shows.

    >>> revision_measures(table, "fine_grained")["clean_draft_change"]
    Estimate(mean=0.031, low=-0.004, high=0.066)

`revision_measures` pairs each draft with its revisions by (run, prompt, sample) and reports,
each with a paired bootstrap CI over runs and prompts (`watercolor.analysis.stats`):
- `crash_fix_rate`: drafts that did not run cleanly whose revision did;
- `clean_draft_change`: the total's change over drafts that already ran cleanly (the headline);
- `regression_rate`: revisions scored below their draft; `copy_rate`: the same sketch again;
- `vs_best_of_2`, `vs_empty_feedback`, `vs_other_feedback`: the revision's total minus each
  control's. `draft_vs_single_turn` compares a revising model's drafts with a single-turn
  model's replies on the same prompts (a model that drafts badly on purpose shows here).
`arm_revision_table` is every measure per arm of a study and per pair of arms (compare's
`revision_ci.csv`). Analysis only: no torch, no model, so compare imports it at once.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from watercolor.analysis.stats import Estimate, bootstrap_means, cells, estimate, point_mean
from watercolor.canvas import Status


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
