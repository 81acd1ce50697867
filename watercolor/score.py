"""Score sketches with a reward set: render once, every component, the set's total.

    python -m watercolor.score sketch.js --reward gated --json
    python -m watercolor.score watercolor/tasks/painting/samples --reward fine_grained
    python -m watercolor.score reply.md --reward coarse --prompt "paint a peach hibiscus" \\
        --set reward.components.coverage.weight=0

It scores what training sees: the reward set, the renderer and the task's episode (its gate and
checks) come from conf/train.yaml composed with `reward=NAME`, the rendering flags and `--set`
overrides (`--set renderer.pixel_density=1`,
`--set +task.episode.rules.allowed_brush_methods=null`).

For one file, `--json` prints exactly one JSON object (DESIGN.md §5): `reward` (float, or null
when the renderer or a scorer failed: no verdict), `status`, `violations`, `errors`,
`components` (name -> float or null) and `timings`. For a directory (its files with the
task's sketch suffix, painting's .js, and its .md and .txt files) it prints a table, or with
`--json` one such object per line with a `file` key. A file that is not UTF-8 is that file's
failure (status `error`, reward 0 from a set that pays running), not the folder's.
Exit code: 0 when every sketch painted, 1 when a sketch failed, 2 for usage or
infrastructure errors (one file that is another task's reply included: the error names the
override to add, `--set task=svg`).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
from pathlib import Path

import pandas as pd
from hydra.errors import HydraException
from hydra.utils import instantiate
from omegaconf import DictConfig

from watercolor import usage
from watercolor.canvas import Canvas, Status
from watercolor.config import default_option, reward_set_names, unknown
from watercolor.render import options
from watercolor.rewards.reward_set import RewardSet, Score
from watercolor.tasks import build_task, other_task

REPLY_SUFFIXES = (".md", ".txt")  # beside the task's own sketch suffix (painting: .js)


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="python -m watercolor.score", description=__doc__.split("\n")[0]
    )
    parser.add_argument("sketch", type=Path, help="a sketch, a model reply, or a directory")
    parser.add_argument(
        "--reward",
        default=None,
        help=f"one of {reward_set_names()} (default: the one training composes for the task: "
        f"conf/train.yaml's {default_option('reward')}, unless the task config names its own)",
    )
    parser.add_argument("--prompt", default="", help="the request the sketch answers")
    parser.add_argument("--json", action="store_true", help="JSON instead of a table")
    options.add_render_arguments(parser)
    return parser.parse_args(argv)


def sketch_files(path: Path, suffix: str) -> list[Path]:
    """`path`, or a directory's replies: its files with the task's sketch `suffix`, .md or .txt."""
    if path.is_dir():
        found = (p for p in path.iterdir() if p.suffix in (suffix, *REPLY_SUFFIXES))
        return sorted(p for p in found if not p.stem.upper().startswith("README"))
    return [path]


async def paint_all(
    replies: list[str], cfg: DictConfig, seed: int, rewards: RewardSet
) -> list[Canvas]:
    """Each reply through the task's episode as `rewards` reads it (`Task.painting_for`: a second
    paper for a set that reads opacity), in the composed renderer."""
    task = build_task(cfg.task).painting_for(rewards)
    config = options.render_config(cfg, workers=min(len(replies), 2))
    async with options.pool(config, task.harness) as pool:
        return list(await asyncio.gather(*(task.episode(pool, r, seed=seed) for r in replies)))


def composed(args: argparse.Namespace) -> DictConfig:
    """conf/train.yaml as training composes it for the task, with `--reward`'s set if named
    (ValueError for one conf/reward/ does not hold or one made for another task), the rendering
    flags and `--set`."""
    if args.reward is not None and args.reward not in (names := reward_set_names()):
        raise ValueError(unknown("reward set", args.reward, names))
    return options.compose_scoring(args, args.reward)


def record(canvas: Canvas, score: Score) -> dict:
    """The §5 JSON object of one scored sketch."""
    fields = canvas.to_json()
    fields["errors"] += score.errors  # a component that raised: named beside the render's errors
    return {"reward": score.total, **fields, "components": score.components}


def read_reply(path: Path) -> str | Canvas:
    """The file's text, or an error Canvas when it is not UTF-8: that file's scored failure,
    not the folder's (issue 44)."""
    try:
        return path.read_text("utf-8")
    except UnicodeDecodeError as exc:
        message = (
            f"{path.name} is not UTF-8 text ({exc.reason} at byte {exc.start}); save it as UTF-8"
        )
        return Canvas(Status.ERROR, errors=[message])


def score_files(files: list[Path], cfg: DictConfig, args: argparse.Namespace) -> list[dict]:
    texts = [read_reply(f) for f in files]
    replies = [t for t in texts if isinstance(t, str)]
    rewards: RewardSet = instantiate(cfg.reward)
    try:
        painted = asyncio.run(paint_all(replies, cfg, args.seed, rewards)) if replies else []
    except Exception as exc:  # the browser could not start: ours, not the sketches'
        failed = Canvas(Status.INFRA_ERROR, errors=[f"{type(exc).__name__}: {exc}"])
        painted = [failed] * len(replies)
    one_file = not args.sketch.is_dir()
    mistake = one_file and replies and other_task(files[0], replies[0], painted[0], cfg.task.name)
    if mistake:
        raise ValueError(mistake)  # another task's reply, refused without a browser: usage
    canvases = [t if isinstance(t, Canvas) else painted.pop(0) for t in texts]
    scores = rewards.score_batch(canvases, prompt=[args.prompt] * len(canvases))
    return [
        record(c, s) | {"file": str(f)} for f, c, s in zip(files, canvases, scores, strict=True)
    ]


def table(records: list[dict]) -> str:
    rows = [
        {
            "file": Path(r["file"]).name,
            "reward": r["reward"],
            "status": r["status"],
            "violations": ",".join(r["violations"]),
            **r["components"],
        }
        for r in records
    ]
    return pd.DataFrame(rows).round(3).to_string(index=False)


def exit_code(records: list[dict]) -> int:
    statuses = {r["status"] for r in records}
    if Status.INFRA_ERROR in statuses:
        return 2
    return 0 if statuses == {Status.OK} else 1


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    try:
        cfg = composed(args)
        suffix = cfg.task.suffix
        files = sketch_files(args.sketch, suffix)
        if not files:
            raise ValueError(f"no {'/'.join((suffix, *REPLY_SUFFIXES))} files in {args.sketch}")
        records = score_files(files, cfg, args)
    except (HydraException, OSError, ValueError) as exc:
        print(f"error: {usage.message(exc)}", file=sys.stderr)
        return 2
    if args.json and not args.sketch.is_dir():
        print(json.dumps({k: v for k, v in records[0].items() if k != "file"}))
    elif args.json:
        print("\n".join(json.dumps(r) for r in records))
    else:
        print(table(records))
    return exit_code(records)


if __name__ == "__main__":
    sys.exit(main())
