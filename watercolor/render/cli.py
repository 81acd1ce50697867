"""Command-line options shared by the commands that render (`render`, `score`, `bench`).

>>> parser = argparse.ArgumentParser(); add_render_arguments(parser)
>>> args = parser.parse_args(["--size", "256"]); render_config(args).size
256
"""

from __future__ import annotations

import argparse

from watercolor.render.pool import RenderConfig
from watercolor.tasks.painting.gate import GateRules

DEFAULTS = RenderConfig()


def add_render_arguments(parser: argparse.ArgumentParser) -> None:
    group = parser.add_argument_group("rendering")
    group.add_argument("--size", type=int, default=DEFAULTS.size, help="canvas size in px")
    group.add_argument(
        "--pixel-density",
        type=float,
        default=DEFAULTS.pixel_density,
        help="raster density (<1: fewer pixels, same sketch coordinates)",
    )
    group.add_argument(
        "--seed", type=int, default=0, help="seeds Math.random, randomSeed, noiseSeed"
    )
    group.add_argument(
        "--time-limit", type=float, default=DEFAULTS.time_limit_s, help="seconds per sketch"
    )
    group.add_argument("--chromium", help="browser executable (default: /usr/bin/chromium)")
    group.add_argument(
        "--allow-any-brush-method",
        action="store_true",
        help="accept every method p5.brush exports, not only the prompt's allow-list",
    )


def render_config(args: argparse.Namespace, workers: int = 1) -> RenderConfig:
    return RenderConfig(
        size=args.size,
        pixel_density=args.pixel_density,
        workers=workers,
        time_limit_s=args.time_limit,
        chromium=args.chromium,
    )


def gate_rules(args: argparse.Namespace) -> GateRules:
    return GateRules(allowed_brush_methods=None) if args.allow_any_brush_method else GateRules()
