"""What each reward set pays each kind of reply in the tiny painter's corpus.

    python -m watercolor.tasks.painting.painter.kinds     # 8 replies a kind; coarse, fine, gated
    python -m watercolor.tasks.painting.painter.kinds --per-kind 12 --rewards coarse,gated --json
    python -m watercolor.tasks.painting.painter.kinds --model outputs/cache/tiny-<hash>  # a model's

The corpus (`watercolor.tasks.painting.painter.corpus`) is the warm start's repertoire: layered
washes, flat opaque fills, sketches that paint and then throw, stroke-only outlines (and, off by
default, bare p5 and broken code). Reward design can only decide among behaviours the policy already
has, so this table is the study's premise: each set should pay a different kind most. Replies
are written for the task's held-out prompts, rendered once each with the training renderer
(`conf/renderer/local.yaml`) through the task's episode (gate, render, blank check), and scored
by every set, as `watercolor.evaluate` does for a model's replies.

With `--model`, it samples that model on the held-out prompts at the training temperature
(the trainer group's sampler settings, system prompt included, as GRPO samples) and reports
the share of replies that pass the task's static gate and the kinds they read as
(`reply_kind`): the warm start's untrained proportions, the starting point of every study.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import re
from collections.abc import Sequence

import pandas as pd
from hydra.errors import HydraException
from hydra.utils import instantiate
from omegaconf import DictConfig
from omegaconf.errors import OmegaConfBaseException

from watercolor import usage
from watercolor.canvas import Status
from watercolor.config import compose_train, reward_set, reward_set_names
from watercolor.evaluation.sampling import paint_replies
from watercolor.render.painters import LocalPainter
from watercolor.tasks import build_task
from watercolor.tasks.painting.gate import check_reply
from watercolor.tasks.painting.painter.corpus import KINDS, Example, Mixture, make_example
from watercolor.tasks.painting.painter.sketches import UNDEFINED_CALLS
from watercolor.tasks.painting.style import OPAQUE_ALPHA, fill_alphas
from watercolor.training import study

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


def pay_table(
    examples: Sequence[Example], rewards: Sequence[str], cfg: DictConfig, seed: int = 0
) -> pd.DataFrame:
    """One row per example: kind, status, and the total under every reward set.

    `cfg`: the composed training config, whose renderer and task episode paint the replies.
    """
    task = build_task(cfg.task)
    painter = LocalPainter(instantiate(cfg.renderer), task.episode, task.harness)
    replies = [example.reply for example in examples]
    canvases = asyncio.run(paint_replies(replies, painter, seed, progress=True))
    pairs = zip(examples, canvases, strict=True)
    rows = [{"kind": e.kind, "label": label(e), "status": str(c.status)} for e, c in pairs]
    for name in rewards:
        scores = reward_set(name).score_batch(canvases, prompt=[e.prompt for e in examples])
        for row, score in zip(rows, scores, strict=True):
            row[name] = score.total
    return pd.DataFrame(rows)


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


def model_kinds(
    model_dir: str, cfg: DictConfig, samples: int, num_prompts: int, seed: int = 0
) -> pd.DataFrame:
    """`samples` replies to each of the first `num_prompts` held-out prompts from `model_dir`,
    sampled as training samples (as `watercolor.evaluate` does: the trainer's temperature,
    top_p, top_k, completion limit and chat template settings; each prompt asked in `cfg`'s
    task conversation, system prompt included): their kinds, tokens and truncation."""
    from watercolor.evaluation.sampling import (  # torch: only here
        generate_samples,
        training_sampling,
    )
    from watercolor.policy.loading import load_policy

    model, tokenizer = load_policy(model_dir)
    prompts = instantiate(cfg.task.eval_prompts)[:num_prompts]
    generation, template_kwargs = training_sampling(cfg)
    replies = generate_samples(model, tokenizer, prompts, samples=samples, seed=seed,
                               generation=generation, chat_template_kwargs=template_kwargs,
                               conversation=instantiate(cfg.task.conversation))  # fmt: skip
    return pd.DataFrame(
        {"kind": reply_kind(s.reply), "tokens": s.tokens, "truncated": s.truncated} for s in replies
    )


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


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="python -m watercolor.tasks.painting.painter.kinds", description=__doc__
    )
    parser.add_argument("--per-kind", type=int, default=8, help="replies of each kind")
    parser.add_argument("--kinds", default=",".join(KINDS), help="comma-separated corpus kinds")
    parser.add_argument("--rewards", default=",".join(DEFAULT_REWARDS), help="sets in conf/reward/")
    parser.add_argument("--seed", type=int, default=0, help="rendering seed")
    parser.add_argument("--json", action="store_true", help="one JSON object instead of tables")
    parser.add_argument("--model", help="sample this model instead (a directory or hub id)")
    parser.add_argument("--samples", type=int, default=study.SAMPLES,
                        help="--model: replies per prompt (a study's)")  # fmt: skip
    parser.add_argument("--num-prompts", type=int, default=study.NUM_PROMPTS,
                        help="--model: the first held-out prompts (a study's)")  # fmt: skip
    parser.add_argument(
        "--set", action="append", default=[], metavar="OVERRIDE",
        help="Hydra override of the training config, e.g. trainer.temperature=0.8",
    )  # fmt: skip
    return parser.parse_args(argv)


def main(argv: Sequence[str] | None = None) -> dict:
    args = parse_args(argv)
    kinds, rewards = args.kinds.split(","), args.rewards.split(",")
    if unknown := set(kinds) - set(KINDS):
        usage.fail(f"unknown kinds {sorted(unknown)}; choose from {KINDS}")
    if unknown := set(rewards) - set(known := reward_set_names()):
        usage.fail(f"unknown reward sets {sorted(unknown)}; choose from {known}")
    if args.model:
        usage.check_model_source(args.model, "--model")
    try:
        cfg = compose_train(args.set)
    except (HydraException, OmegaConfBaseException) as error:  # a bad --set
        usage.fail(error)
    if args.model:
        table = model_kinds(args.model, cfg, args.samples, args.num_prompts, args.seed)
        figures = model_summary(table)
        print(json.dumps(figures) if args.json else pd.Series(figures).round(3).to_string())
        return figures
    prompts = instantiate(cfg.task.eval_prompts)
    table = pay_table(kind_examples(kinds, prompts, args.per_kind), rewards, cfg, args.seed)
    stats = summary(table, rewards)
    best = best_kinds(stats, rewards)
    if args.json:
        print(json.dumps({"kinds": stats.round(4).to_dict("index"), "best": best}))
    else:
        print(markdown(stats, rewards))
        print("\nbest-paid kind: " + ", ".join(f"{n}: {k}" for n, k in best.items()))
    return best


if __name__ == "__main__":
    main()
