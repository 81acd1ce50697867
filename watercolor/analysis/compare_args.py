"""`python -m watercolor.compare`'s arguments, read and checked before the comparison's own code
loads (mlflow, matplotlib and scipy: seconds), so a typo or a path that is not there answers at
once (watercolor/usage.py). `watercolor.analysis.comparison` does the rest (docs/studies.md says
what it writes); its `main(argv)` reads them here too.
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from pathlib import Path

from watercolor import usage
from watercolor.analysis import stats

DESCRIPTION = (
    "Lay training runs side by side: key metrics, reward curves and the same step's canvases."
)
# The compare run's experiment: the compared runs' name plus this (--log-experiment names another)
COMPARE_EXPERIMENT_SUFFIX = "-compare"
# `--second-paper` alone: the paper the runs' audited set reads (its config's `second_paper`)
AUDITED_PAPER = "audited"


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python -m watercolor.compare", description=DESCRIPTION)
    which = parser.add_mutually_exclusive_group(required=True)
    which.add_argument("--experiment", help="every training run of this MLflow experiment")
    which.add_argument("--sweep-dir", help="a Hydra multirun dir (its jobs' mlflow_run_id files)")
    which.add_argument("--runs", nargs="+", metavar="ID", help="MLflow run ids")
    which.add_argument("--study", help="the finished training runs of one study (its `study` tag)")
    which.add_argument("--records", metavar="DIR",
                       help="a study's records folder (watercolor.analysis.records): no MLflow "
                       "store; "
                       "galleries re-render the replies")  # fmt: skip
    parser.add_argument("--filter", default="", help="MLflow search filter (with --experiment)")
    parser.add_argument("--out", help="output dir (default outputs/compare/<timestamp>)")
    parser.add_argument("--tracking-uri", help="MLflow store (default: with --sweep-dir, the "
                        "one its jobs logged to; else training's, conf/paths; "
                        "MLFLOW_TRACKING_URI wins when set)")  # fmt: skip
    parser.add_argument("--artifacts", metavar="DIR", help="artifact root of a new experiment "
                        "(default: training's, conf/paths)")  # fmt: skip
    parser.add_argument("--log-experiment", help="experiment of the compare run "
                        "(default: the compared runs' experiment's name + "
                        f"{COMPARE_EXPERIMENT_SUFFIX!r})")  # fmt: skip
    parser.add_argument("--no-log", action="store_true", help="write nothing to the store: no "
                        "compare run (a --records comparison never logs one), no saved view "
                        "of the runs side by side (the printed link then filters them in its "
                        "URL)")  # fmt: skip
    parser.add_argument("--no-gallery", action="store_true",
                        help="no galleries (no canvases fetched or rendered)")  # fmt: skip
    parser.add_argument("--gallery-steps", type=_step, nargs="+", metavar="STEP",
                        help="the rollout steps the gallery shows, each run at each (default: "
                        "the last step every run logged)")  # fmt: skip
    parser.add_argument("--second-paper", nargs="?", const=AUDITED_PAPER, metavar="COLOUR",
                        help="paint each reply the gallery shows again over this paper (a CSS "
                        "colour; alone: the one the runs' audited set reads, e.g. show_through's) "
                        "and show both")  # fmt: skip
    parser.add_argument("--ema", type=_smoothing, default=stats.SMOOTHING, metavar="WEIGHT",
                        help="curve smoothing: EMA weight of the past in [0, 1), 0 = raw "
                        "(default %(default)s)")  # fmt: skip
    parser.add_argument("--resamples", type=int, default=stats.RESAMPLES,
                        help="bootstrap resamples of the CIs (default %(default)s)")  # fmt: skip
    parser.add_argument("--bootstrap-seed", type=int, default=0,
                        help="seed of the bootstrap (default %(default)s)")  # fmt: skip
    args = parser.parse_args(argv)
    if args.records is not None and not Path(args.records).is_dir():
        usage.fail(f"no records folder {args.records}")
    if args.sweep_dir is not None and not Path(args.sweep_dir).is_dir():
        usage.fail(f"no sweep dir {args.sweep_dir}")
    if args.no_gallery and (args.gallery_steps or args.second_paper):
        usage.fail("--gallery-steps and --second-paper choose what the gallery shows: drop "
                   "--no-gallery, or them")  # fmt: skip
    return args


def _step(text: str) -> int:
    step = int(text)
    if step < 1:
        raise argparse.ArgumentTypeError(f"a rollout step is 1 or more, got {text}")
    return step


def _smoothing(text: str) -> float:
    value = float(text)
    if not 0 <= value < 1:
        raise argparse.ArgumentTypeError(f"must be in [0, 1), got {text}")
    return value
