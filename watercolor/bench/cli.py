"""`python -m watercolor.bench WHAT [flags]`: WHAT is the benchmark's module under bench/; the
shared flags of render_modes, score_cost, matting_cost, grpo_steps and remote; `webgl` and `gpu`
parse their own (`python -m watercolor.bench webgl --help`).
"""

from __future__ import annotations

import argparse
import importlib
import json
import sys
from pathlib import Path

from watercolor import bench, usage
from watercolor.bench import grpo_steps, matting_cost, remote, render_modes, score_cost
from watercolor.bench.common import show
from watercolor.tasks.painting import SAMPLES_DIR

# The benchmarks that share the flags below, by their module's name (also the subcommand's).
BENCHMARKS = {
    "render_modes": render_modes.bench_render,
    "score_cost": score_cost.bench_score,
    "matting_cost": matting_cost.bench_matting,
    "grpo_steps": grpo_steps.bench_train,
    "remote": remote.bench_remote,
}


# The subcommands' names before each was named as its module (2026-12-07): still answered, with a
# note, so the commands recorded in past experiments run as written.
OLD_NAMES = {
    "render": "render_modes",
    "score": "score_cost",
    "train": "grpo_steps",
    "matting": "matting_cost",
}


def current_name(argv: list[str]) -> list[str]:
    """`argv` with an old subcommand name replaced by its module's, saying so on stderr."""
    if argv and argv[0] in OLD_NAMES:
        new = OLD_NAMES[argv[0]]
        print(f"bench {argv[0]} is now bench {new} (its module's name)", file=sys.stderr)
        return [new, *argv[1:]]
    return argv


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    argv = current_name(sys.argv[1:] if argv is None else argv)
    parser = argparse.ArgumentParser(
        prog="python -m watercolor.bench", description=bench.__doc__.split("\n")[0]
    )
    parser.add_argument("what", choices=list(BENCHMARKS))
    parser.add_argument("--json", action="store_true", help="end with one JSON object")
    parser.add_argument("--sketches", type=Path, default=SAMPLES_DIR, help="folder of .js sketches")
    parser.add_argument("--repeat", type=int, default=1, help="render the set this many times")
    parser.add_argument("--density", type=float, help="also measure this pixel density")
    parser.add_argument(
        "--rich", action="store_true", help="render_modes: also the rich tier, at training density"
    )
    parser.add_argument("--time-limit", type=float, default=60.0, help="seconds per sketch")
    parser.add_argument("--steps", type=int, default=6, help="grpo_steps: GRPO steps to run")
    parser.add_argument("--smoke", action="store_true", help="grpo_steps: the smoke-scale model")
    parser.add_argument(
        "--jobs", type=int, default=1, help="grpo_steps: also run this many overlapped jobs at once"
    )
    parser.add_argument(
        "--threads", type=int, metavar="N", help="grpo_steps: also run the sequential steps with "
        "threads=N (torch intra-op threads; the default is conf/machine/default.yaml's)",
    )  # fmt: skip
    parser.add_argument(
        "--set", action="append", default=[], metavar="OVERRIDE",
        help="grpo_steps: a Hydra override for every benchmark run, e.g. trainer.num_generations=8",
    )  # fmt: skip
    parser.add_argument("--servers", type=int, default=2, help="remote: local servers to start")
    parser.add_argument("--server-workers", type=int, default=1, help="remote: pages per server")
    parser.add_argument("--server-density", type=float, help="remote: the servers' pixel "
                        "density (default: training's, conf/renderer/local.yaml)")  # fmt: skip
    return parser.parse_args(argv)


# Benchmarks with flags of their own, a module each: `python -m watercolor.bench webgl --help`.
OWN_MODULES = {"webgl": "watercolor.bench.webgl", "gpu": "watercolor.bench.gpu"}


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv and argv[0] in OWN_MODULES:  # imported on use: gpu imports torch
        importlib.import_module(OWN_MODULES[argv[0]]).main(argv[1:])
        return 0
    args = parse_args(argv)
    if not any(args.sketches.glob("*.js")):
        usage.fail(f"no .js sketches in {args.sketches}")
    figures = BENCHMARKS[args.what](args)
    show(figures)
    if args.json:
        print(json.dumps(figures))
    return 0
