"""`python -m watercolor.bench WHAT [flags]`: the shared flags of render, score, train and remote;
`webgl` and `gpu` parse their own (`python -m watercolor.bench webgl --help`).
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


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="python -m watercolor.bench", description=bench.__doc__.split("\n")[0]
    )
    parser.add_argument("what", choices=["render", "score", "train", "remote", "matting"])
    parser.add_argument("--json", action="store_true", help="end with one JSON object")
    parser.add_argument("--sketches", type=Path, default=SAMPLES_DIR, help="folder of .js sketches")
    parser.add_argument("--repeat", type=int, default=1, help="render the set this many times")
    parser.add_argument("--density", type=float, help="also measure this pixel density")
    parser.add_argument(
        "--rich", action="store_true", help="render: also the rich tier, at training density"
    )
    parser.add_argument("--time-limit", type=float, default=60.0, help="seconds per sketch")
    parser.add_argument("--steps", type=int, default=6, help="train: GRPO steps to run")
    parser.add_argument("--smoke", action="store_true", help="train: the smoke-scale model")
    parser.add_argument(
        "--jobs", type=int, default=1, help="train: also run this many overlapped jobs at once"
    )
    parser.add_argument(
        "--threads", type=int, metavar="N", help="train: also run the sequential steps with "
        "threads=N (torch intra-op threads; the default is conf/machine/default.yaml's)",
    )  # fmt: skip
    parser.add_argument(
        "--set", action="append", default=[], metavar="OVERRIDE",
        help="train: a Hydra override for every benchmark run, e.g. trainer.num_generations=8",
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
    bench = {
        "render": render_modes.bench_render,
        "score": score_cost.bench_score,
        "train": grpo_steps.bench_train,
        "remote": remote.bench_remote,
        "matting": matting_cost.bench_matting,
    }[args.what]
    figures = bench(args)
    show(figures)
    if args.json:
        print(json.dumps(figures))
    return 0
