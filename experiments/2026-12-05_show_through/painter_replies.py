"""What show_through pays the study painter's own replies, layered against flat, before training.

    E=experiments/2026-12-05_show_through
    .venv/bin/python $E/painter_replies.py > $E/painter_replies.txt

The pinned painter (weights 7fba23e24fa4, `outputs/cache/intel-path/tiny-335457da48af`) answers the
first 24 held-out prompts 4 times each, sampled as training samples; each reply is painted as
training paints it, over its own paper and over show_through's second paper, and labelled by the
corpus kind its code reads as (`painter.kinds.reply_kind`: layered, flat, refused, then_throw).
Per kind: the mean totals of show_through, washes and fine_grained and the matted paint opacity;
layered - flat with a 95 % bootstrap interval; the ROC AUC of "layered scores higher"; and the
share of painted replies whose opacity is under show_through's `opaque` cut (the replies its
see-through reading can pay at all). Canvases are kept in $CANVAS_CACHE (pickled).
"""

from __future__ import annotations

import asyncio
import os
import pickle
from pathlib import Path

import numpy as np
import pandas as pd
from hydra.utils import instantiate

from watercolor.analysis.behaviour import roc_auc
from watercolor.analysis.stats import LEVEL, RESAMPLES
from watercolor.config import compose_train, reward_set
from watercolor.evaluation.sampling import generate_samples, paint_replies, training_sampling
from watercolor.policy.loading import load_policy
from watercolor.render.renderers import LocalRenderer
from watercolor.rewards.matting import paint_opacity
from watercolor.tasks import build_task
from watercolor.tasks.painting.painter.kinds import reply_kind

MODEL = "outputs/cache/intel-path/tiny-335457da48af"
CACHE = Path(os.environ.get("CANVAS_CACHE", "/tmp/show_through_cache"))
SETS = ("show_through", "washes", "fine_grained")


def painted(num_prompts: int = 24, samples: int = 4) -> tuple[list, list]:
    """(replies, canvases) of the painter, cached."""
    path = CACHE / f"painter-{num_prompts}x{samples}.pkl"
    if path.exists():
        return pickle.loads(path.read_bytes())
    cfg = compose_train([])
    model, tokenizer = load_policy(MODEL)
    prompts = instantiate(cfg.task.eval_prompts)[:num_prompts]
    generation, template_kwargs = training_sampling(cfg)
    replies = generate_samples(model, tokenizer, prompts, samples=samples, seed=0,
                               generation=generation, chat_template_kwargs=template_kwargs,
                               conversation=instantiate(cfg.task.conversation))  # fmt: skip
    task = build_task(cfg.task)
    episode = lambda pool, reply, seed: task.episode(  # noqa: E731
        pool, reply, seed=seed, second_paper=reward_set("show_through").second_paper
    )
    renderer = LocalRenderer(instantiate(cfg.renderer), episode, task.harness)
    canvases = asyncio.run(paint_replies([r.reply for r in replies], renderer, 0))
    CACHE.mkdir(parents=True, exist_ok=True)
    path.write_bytes(pickle.dumps((replies, canvases)))
    return replies, canvases


def difference(a: np.ndarray, b: np.ndarray, seed: int = 0) -> str:
    """mean(a) - mean(b) with its 95 % bootstrap interval (each group resampled on its own)."""
    rng = np.random.default_rng(seed)
    draws = (a[rng.integers(0, len(a), (RESAMPLES, len(a)))].mean(axis=1)
             - b[rng.integers(0, len(b), (RESAMPLES, len(b)))].mean(axis=1))  # fmt: skip
    low, high = np.quantile(draws, [(1 - LEVEL) / 2, (1 + LEVEL) / 2])
    return f"{a.mean() - b.mean():+.3f} [{low:+.3f}, {high:+.3f}]"


def main() -> None:
    replies, canvases = painted()
    sets = {name: reward_set(name) for name in SETS}
    opaque_cut = sets["show_through"].components["show_through_factor"].fn.keywords["opaque"]
    rows = [{"kind": reply_kind(r.reply), "opacity": paint_opacity(c) if c.ok else np.nan,
             **{n: s.score(c, prompt=r.prompt).total for n, s in sets.items()}}
            for r, c in zip(replies, canvases, strict=True)]  # fmt: skip
    table = pd.DataFrame(rows)
    print(f"replies: {table['kind'].value_counts().to_dict()}")
    print(table.groupby("kind")[["opacity", *SETS]].mean().round(3).to_string())
    layered, flat = table[table.kind == "layered"], table[table.kind == "flat"]
    for name in ("opacity", *SETS):
        a, b = layered[name].dropna().to_numpy(), flat[name].dropna().to_numpy()
        print(
            f"{name:>13}: layered - flat {difference(a, b)}, AUC layered > flat {roc_auc(a, b):.3f}"
        )
    ok = table["opacity"].notna()
    share = (table.loc[ok, "opacity"] < opaque_cut).mean()
    print(f"painted replies under the opaque cut {opaque_cut}: {share:.1%} of {int(ok.sum())}")


if __name__ == "__main__":
    main()
