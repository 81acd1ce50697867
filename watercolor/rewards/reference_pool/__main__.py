"""python -m watercolor.rewards.reference_pool build [--folder DIR] [--size N] [--seed S]

Re-renders a reference pool's sketches into its images and metadata.jsonl (see `build.py`);
without `--folder`, the pool bundled with the package.
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from pathlib import Path

from watercolor import usage
from watercolor.config import compose_train
from watercolor.rewards.reference_pool import BUNDLED
from watercolor.rewards.reference_pool.build import SIZE, build_pool
from watercolor.tasks import build_task


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m watercolor.rewards.reference_pool")
    commands = parser.add_subparsers(dest="command", required=True)
    build = commands.add_parser("build", help="render sources/*.js into images/ + metadata.jsonl")
    build.add_argument("--folder", default=str(BUNDLED), help="pool folder (default: bundled)")
    build.add_argument("--size", type=int, default=SIZE, help="image side in pixels")
    build.add_argument("--seed", type=int, default=0, help="render seed")
    args = parser.parse_args(argv)
    if not Path(args.folder, "sources").is_dir():
        usage.fail(f"--folder: no pool folder (with sources/) at {args.folder}")
    try:
        painting = build_task(compose_train(["task=painting"]).task)  # the sources are p5 sketches
        records = build_pool(args.folder, args.size, args.seed, harness=painting.harness)
    except (OSError, ValueError, RuntimeError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    tiers = Counter(r["tier"] for r in records)
    print(f"{len(records)} references in {args.folder}: {dict(sorted(tiers.items()))}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
