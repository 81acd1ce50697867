"""Which corpus kind a reply reads as, and the table of what each reward set pays each kind.

    kind = reply_kind(reply)   # "layered", "flat", "then_throw", "refused" or "other"
    print(markdown(summary(table, rewards), rewards))   # table: one row per painted example

The corpus (`watercolor.tasks.painting.painter.corpus`) is the warm start's repertoire: layered
washes, flat opaque fills, sketches that paint and then throw, stroke-only outlines (and, off by
default, bare p5 and broken code). Reward design can only decide among behaviours the policy already
has, so this table is the study's premise: each set should pay a different kind most.

The command that paints the corpus (or samples a model) and prints the table is this package's
`__main__` (`python -m watercolor.tasks.painting.painter.kinds`): it reaches evaluation's sampler
and renderer, above the task's layer, so it lives where a command may (tests/test_layers.py).
"""

from __future__ import annotations

import random
import re
from collections.abc import Sequence

import pandas as pd

from watercolor.canvas import Status
from watercolor.tasks.painting.gate import check_reply
from watercolor.tasks.painting.painter.corpus import KINDS, Example, Mixture, make_example
from watercolor.tasks.painting.painter.sketches import UNDEFINED_CALLS
from watercolor.tasks.painting.style import OPAQUE_ALPHA, fill_alphas

DEFAULT_REWARDS = ("coarse", "fine_grained", "gated")
_UNDEFINED = frozenset(call.split("(")[0] for call in UNDEFINED_CALLS)
_CALL = re.compile(r"^\s*(\w+)\s*\(", re.MULTILINE)
GOOD_QUALITY = 0.5  # layered sketches' quality (0..1) from which the kinds table calls them good


def reply_kind(reply: str) -> str:
    """Which corpus kind a reply reads as, from its code: `refused` when the static gate
    refuses it (for any reason), else `then_throw` (calls one of the corpus's undefined
    functions), `flat` (every fill opaque), `layered` (translucent fills) or `other`."""
    sketch, violations = check_reply(reply)
    if violations or sketch is None:
        return "refused"
    if any(name in _UNDEFINED for name in _CALL.findall(sketch)):
        return "then_throw"
    alphas = fill_alphas(sketch)
    if not alphas:
        return "other"
    return "flat" if min(alphas) >= OPAQUE_ALPHA else "layered"


def kind_examples(kinds: Sequence[str], prompts: Sequence[str], per_kind: int) -> list[Example]:
    """`per_kind` replies of each kind, for `prompts` in turn (seeded by kind and index)."""
    return [
        make_example(kind, prompts[i % len(prompts)], random.Random(f"kinds:{kind}:{i}"))
        for kind in kinds
        for i in range(per_kind)
    ]


def label(example: Example) -> str:
    """The row an example is counted in: its kind, layered washes split by quality (a set's
    optimum is the best of a kind, and a layered reply's quality decides what it pays)."""
    if example.kind != "layered":
        return example.kind
    return f"layered, quality {'>=' if example.quality >= GOOD_QUALITY else '<'} {GOOD_QUALITY}"


def summary(table: pd.DataFrame, rewards: Sequence[str]) -> pd.DataFrame:
    """Per row label: its share of the default mixture, the share that painted (status ok),
    mean and std of each set's total."""
    groups = table.groupby("label", sort=False)
    stats = groups[list(rewards)].agg(["mean", "std"])
    stats.columns = [f"{name} {stat}" for name, stat in stats.columns]
    mixture = Mixture()
    weights = {kind: getattr(mixture, kind) / sum(getattr(mixture, k) for k in KINDS)
               for kind in KINDS}  # fmt: skip
    kind_of = groups["kind"].first()
    within_kind = groups.size() / kind_of.map(table["kind"].value_counts())
    stats.insert(0, "default share", [weights[kind_of[n]] * within_kind[n] for n in stats.index])
    stats.insert(1, "painted", groups["status"].agg(_ok_share))
    return stats


def _ok_share(statuses: pd.Series) -> float:
    return float((statuses == str(Status.OK)).mean())


def best_kinds(stats: pd.DataFrame, rewards: Sequence[str]) -> dict[str, str]:
    """Each set's best-paid kind."""
    return {name: str(stats[f"{name} mean"].idxmax()) for name in rewards}


def markdown(stats: pd.DataFrame, rewards: Sequence[str]) -> str:
    """The table as README markdown: `mean ± std` per set."""
    header = "| reply | default share | ran cleanly | " + " | ".join(rewards) + " |"
    lines = [header, "|" + "---|" * (3 + len(rewards))]
    for kind, row in stats.iterrows():
        cells = [f"{row[f'{n} mean']:.3f} ± {row[f'{n} std']:.3f}" for n in rewards]
        lines.append(
            f"| {kind} | {row['default share']:.2f} | {row['painted']:.2f} | "
            + " | ".join(cells)
            + " |"
        )
    return "\n".join(lines)


def model_summary(table: pd.DataFrame) -> dict[str, float]:
    """Static-gate pass rate, the share of each kind, mean tokens and truncation."""
    shares = table["kind"].value_counts(normalize=True)
    return {
        "replies": float(len(table)),
        "gate_pass_rate": float(1 - shares.get("refused", 0.0)),
        **{f"kind/{kind}": float(share) for kind, share in shares.items()},
        "tokens": float(table["tokens"].mean()),
        "truncated_rate": float(table["truncated"].mean()),
    }
