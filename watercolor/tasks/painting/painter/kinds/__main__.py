"""What each reward set pays each kind of reply in the tiny painter's corpus.

    python -m watercolor.tasks.painting.painter.kinds     # 8 replies a kind; coarse, fine, gated
    python -m watercolor.tasks.painting.painter.kinds --per-kind 12 --rewards coarse,gated --json
    python -m watercolor.tasks.painting.painter.kinds --model outputs/cache/tiny-<hash>  # a model's

The kinds and the table are the package's (`watercolor.tasks.painting.painter.kinds`). Replies
of each corpus kind are written for the task's held-out prompts, rendered once each with the
training renderer (`conf/renderer/local.yaml`) through the task's episode (gate, render, blank
check), and scored by every set, as `watercolor.evaluate` does for a model's replies.

With `--model`, it samples that model on the held-out prompts at the training temperature
(the trainer group's sampler settings, system prompt included, as GRPO samples) and reports
the share of replies that pass the task's static gate and the kinds they read as
(`reply_kind`): the warm start's untrained proportions, the starting point of every study.
"""

from __future__ import annotations

import argparse
import asyncio
import json
from collections.abc import Sequence

import pandas as pd
from hydra.errors import HydraException
from hydra.utils import instantiate
from omegaconf import DictConfig
from omegaconf.errors import OmegaConfBaseException

from watercolor import config, usage
from watercolor.config import compose_train, reward_set, reward_set_names
from watercolor.render.renderers import LocalRenderer
from watercolor.tasks import build_task
from watercolor.tasks.painting.painter.corpus import KINDS, Example
from watercolor.tasks.painting.painter.kinds import (
    DEFAULT_REWARDS,
    best_kinds,
    kind_examples,
    label,
    markdown,
    model_summary,
    reply_kind,
    summary,
)


def pay_table(
    examples: Sequence[Example], rewards: Sequence[str], cfg: DictConfig, seed: int = 0
) -> pd.DataFrame:
    """One row per example: kind, status, and the total under every reward set.

    `cfg`: the composed training config, whose renderer and task episode paint the replies.
    """
    from watercolor.evaluation.sampling import paint_replies  # torch: only past the arguments

    task = build_task(cfg.task)
    renderer = LocalRenderer(instantiate(cfg.renderer), task.episode, task.harness)
    replies = [example.reply for example in examples]
    canvases = asyncio.run(paint_replies(replies, renderer, seed, progress=True))
    pairs = zip(examples, canvases, strict=True)
    rows = [{"kind": e.kind, "label": label(e), "status": str(c.status)} for e, c in pairs]
    for name in rewards:
        scores = reward_set(name).score_batch(canvases, prompt=[e.prompt for e in examples])
        for row, score in zip(rows, scores, strict=True):
            row[name] = score.total
    return pd.DataFrame(rows)


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
    parser.add_argument("--samples", type=int, default=config.STUDY_SAMPLES,
                        help="--model: replies per prompt (a study's)")  # fmt: skip
    parser.add_argument("--num-prompts", type=int, default=config.STUDY_PROMPTS,
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
