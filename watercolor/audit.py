"""Audit a reward set before training: what it pays the task's cheats and matched pairs.

    python -m watercolor.audit reward=washes
    python -m watercolor.audit task=svg reward=svg_fine --json
    python -m watercolor.audit reward=my_set --pairs 24 --csv audit.csv
    python -m watercolor.audit reward=gated reward.components.coverage.weight=0

Every reward round so far calibrated its set the same way, by hand: genuine paintings, cheats
(what a policy could learn instead) and matched pairs (a translucent composition and its opaque
twins). This runs that check on any set of conf/reward/, a user's own included. The table is
the task's (`Task.audit`, conf/task/<name>.yaml's `audit`: painting's sketches, samples and
translucent/opaque/pale twins; SVG's corpus kinds and twins). Each reply is rendered once by
the task's episode as training renders it (conf/train.yaml composed with the overrides and
flags: its gate, the renderer at pixel density 0.5), and scored by the set. It prints each
sketch's total, each cheat's share of the weakest genuine painting and each pair kind's mean
difference with its 95 % bootstrap interval, with a verdict per line and overall against the
margins (`watercolor.analysis.audit_verdicts`): a cheat earns at most `--cheat-share` (0.5) of the
weakest genuine painting; a reference outscores its twin (the interval above 0).

Exit code: 0 when every check passes, 1 when one fails, 2 for usage errors or when the
renderer failed (no verdict). Rendering painting's table takes a few minutes on 2 cores
(progress lines on stderr); `--json` prints one JSON object instead of the table, `--csv` also
writes the lines to a file.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import math
import sys
import time
from collections.abc import Awaitable, Callable
from pathlib import Path

import pandas as pd
from hydra.errors import HydraException
from hydra.utils import instantiate
from omegaconf import DictConfig

from watercolor import usage
from watercolor.analysis.audit_verdicts import Margins, audit_lines, passed, report
from watercolor.canvas import Canvas
from watercolor.config import compose_config, reward_set_names, unknown
from watercolor.render import options
from watercolor.render.pool import RenderConfig
from watercolor.rewards.reward_set import RewardSet
from watercolor.tasks import Task, build_task
from watercolor.tasks.audit_table import AuditTable


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="python -m watercolor.audit", description=__doc__.split("\n")[0]
    )
    parser.add_argument(
        "overrides",
        nargs="*",
        help="Hydra overrides of conf/train.yaml: reward=<set> (default: the task's), task=svg, "
        "reward.components.coverage.weight=0, ...",
    )
    parser.add_argument("--pairs", type=int, help="pairs of each kind (default: the task's)")
    parser.add_argument(
        "--cheat-share",
        type=float,
        default=Margins.cheat_share,
        help="most a cheat may earn, as a share of the weakest genuine painting",
    )
    parser.add_argument("--json", action="store_true", help="one JSON object, not the table")
    parser.add_argument("--csv", type=Path, help="also write the lines to this CSV file")
    options.add_render_arguments(parser)
    return parser.parse_args(argv)


def composed(args: argparse.Namespace) -> tuple[str, DictConfig]:
    """(the reward set's name, conf/train.yaml composed as training composes it for the task
    with that set, the flags and the overrides); ValueError for an unknown set or another
    task's (`options.compose_scoring`)."""
    named = [o.split("=", 1)[1] for o in args.overrides if o.startswith("reward=")]
    args.set = [o for o in args.overrides if not o.startswith("reward=")] + args.set
    if named and named[-1] not in (names := reward_set_names()):
        raise ValueError(unknown("reward set", named[-1], names))
    reward = named[-1] if named else _task_default(args)
    return reward, options.compose_scoring(args, reward)


def _task_default(args: argparse.Namespace) -> str:
    """The reward set training composes for the task (conf/task/svg.yaml names its own)."""
    cfg = compose_config("train", options.overrides(args), return_hydra_config=True)
    return cfg.hydra.runtime.choices["reward"]


def audit_table(task: Task, pairs: int | None) -> AuditTable:
    if task.audit is None:
        raise ValueError(f"the {task.name!r} task has no audit table (its config's `audit`)")
    if pairs is not None and pairs < 0:
        raise ValueError(f"--pairs must be 0 or more, not {pairs}")
    return task.audit() if pairs is None else task.audit(pairs=pairs)


def episode(task: Task, rewards: RewardSet) -> Callable[..., Awaitable[Canvas]]:
    """The task's episode as training runs it for `rewards` (`Task.painting_for`)."""
    return task.painting_for(rewards).episode


def replies(table: AuditTable) -> list[str]:
    """Every distinct reply of the table, in order (each is rendered once)."""
    found = [s.reply for s in table.sketches]
    found += [r for p in table.pairs for r in (p.reference, p.twin)]
    return list(dict.fromkeys(found))


async def render_table(
    table: AuditTable,
    task: Task,
    config: RenderConfig,
    seed: int = 0,
    progress: bool = True,
    episode: Callable[..., Awaitable[Canvas]] | None = None,
) -> dict[str, Canvas]:
    """{reply: Canvas}: each distinct reply through the task's episode (or `episode`: the one
    a reward set needs, `episode(task, rewards)`) once, in one pool."""
    todo, started = replies(table), time.monotonic()
    episode = episode or task.episode
    async with options.pool(config, task.harness) as pool:

        async def paint(reply: str) -> tuple[str, Canvas]:
            return reply, await episode(pool, reply, seed=seed)

        canvases = {}
        for done in asyncio.as_completed([paint(r) for r in todo]):
            reply, canvases[reply] = await done
            if progress and (len(canvases) % 10 == 0 or len(canvases) == len(todo)):
                seconds = time.monotonic() - started
                line = f"audit: rendered {len(canvases)} of {len(todo)} ({seconds:.0f} s)"
                print(line, file=sys.stderr, flush=True)
    return canvases


def score_table(
    table: AuditTable, canvases: dict[str, Canvas], rewards: RewardSet
) -> tuple[pd.DataFrame, pd.DataFrame]:
    """(one row per sketch: name, kind, status, total; one row per pair: kind, index, the
    reference's and the twin's totals, NaN where a side did not paint cleanly)."""
    rows = [(s.reply, s.prompt) for s in table.sketches]
    rows += [(r, p.prompt) for p in table.pairs for r in (p.reference, p.twin)]
    scores = rewards.score_batch([canvases[r] for r, _ in rows], prompt=[p for _, p in rows])
    totals = [math.nan if s.total is None else s.total for s in scores]
    sketches = pd.DataFrame({
        "name": [s.name for s in table.sketches],
        "kind": [s.kind for s in table.sketches],
        "status": [str(canvases[s.reply].status) for s in table.sketches],
        "total": totals[: len(table.sketches)],
    }).set_index("name", drop=False)  # fmt: skip
    sides = iter(totals[len(table.sketches) :])
    pairs = pd.DataFrame(
        [{"kind": p.kind, "index": p.index, **_sides(p, canvases, sides)} for p in table.pairs],
        columns=["kind", "index", "reference", "twin"],
    )
    return sketches, pairs


def _sides(pair, canvases: dict[str, Canvas], totals) -> dict[str, float]:
    clean = canvases[pair.reference].ok and canvases[pair.twin].ok
    reference, twin = next(totals), next(totals)
    return {"reference": reference if clean else math.nan, "twin": twin if clean else math.nan}


def infra_failures(canvases: dict[str, Canvas]) -> list[str]:
    return [e for c in canvases.values() if c.infra_failure for e in c.errors or ["infra_error"]]


def as_json(reward: str, task: str, lines: pd.DataFrame, margins: Margins) -> str:
    def value(v):
        return None if isinstance(v, float) and not math.isfinite(v) else v

    records = [{k: value(v) for k, v in row.items()} for row in lines.to_dict("records")]
    return json.dumps({"reward": reward, "task": task, "passed": passed(lines),
                       "margins": {"cheat_share": margins.cheat_share, "level": margins.level},
                       "lines": records})  # fmt: skip


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    try:
        reward, cfg = composed(args)
        task = build_task(cfg.task)
        table = audit_table(task, args.pairs)
        rewards: RewardSet = instantiate(cfg.reward)
    except (HydraException, OSError, ValueError) as exc:
        print(f"error: {usage.message(exc)}", file=sys.stderr)
        return usage.USAGE
    kinds = {p.kind for p in table.pairs}
    print(f"audit: reward set {reward!r} on the {task.name!r} task: {len(table.sketches)} "
          f"sketches, {len(kinds)} pair kinds x {len(table.pairs) // max(len(kinds), 1)} pairs",
          file=sys.stderr)  # fmt: skip
    config = options.render_config(cfg, workers=2)
    painted = episode(task, rewards)
    canvases = asyncio.run(render_table(table, task, config, args.seed, episode=painted))
    if failures := infra_failures(canvases):
        print(f"error: the renderer failed, no verdict: {failures[0]}", file=sys.stderr)
        return 2
    margins = Margins(cheat_share=args.cheat_share)
    lines = audit_lines(*score_table(table, canvases, rewards), margins)
    if args.csv:
        lines.to_csv(args.csv, index=False)
    if args.json:
        print(as_json(reward, task.name, lines, margins))
    else:
        print(f"reward set {reward!r}, task {task.name!r}\n")
        print(report(lines, margins, table.reference, table.about))
    return 0 if passed(lines) else 1


if __name__ == "__main__":
    sys.exit(main())
