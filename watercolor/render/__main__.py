"""Render one sketch file (or a full model reply with a fenced code block) in the sandbox.

    python -m watercolor.render sketch.js -o canvas.png
    python -m watercolor.render reply.md --size 256 --json
    python -m watercolor.render reply.md --set +task.episode.rules.allowed_brush_methods=null

The renderer and the task's episode (its gate and checks) are the ones training uses
(conf/train.yaml's `renderer` and `task`), painting as the composed reward set reads it
(`Task.painting_for`: `--set reward=show_through` paints a passing sketch over its second paper
too, reported as `twin_status`); flags and `--set` overrides change them.

With `--json` it prints exactly one JSON object on stdout (DESIGN.md §5): `status`, `errors`,
`violations`, `timings` (`total_ms`, `draw_ms`, `load_ms`), `png` (the written path or null).
Exit code: 0 when the sketch painted (`ok`), 1 when the sketch failed (violation, error,
timeout, crash), 2 for usage or infrastructure errors: another task's reply (an SVG document
under the default painting task) is one, whose error names the override to add
(`--set task=svg`). It never hangs: the whole command is bounded by the sketch time limit plus
a start-up margin.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
import time
from pathlib import Path

from hydra.errors import HydraException
from hydra.utils import instantiate

from watercolor import usage
from watercolor.canvas import Canvas, Status
from watercolor.render import options
from watercolor.render.pool import RenderConfig
from watercolor.tasks import Task, build_task, other_task

STARTUP_MARGIN_S = 60.0  # launching Chromium and loading p5 + p5.brush on a busy 2-core box


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="python -m watercolor.render", description=__doc__.split("\n")[0]
    )
    parser.add_argument(
        "sketch",
        help="a sketch (painting: .js) or a model reply with a fenced code block ('-' = stdin)",
    )
    parser.add_argument("-o", "--output", type=Path, help="write the canvas PNG here")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    options.add_render_arguments(parser)
    return parser.parse_args(argv)


async def render_reply(reply: str, config: RenderConfig, task: Task, seed: int) -> Canvas:
    async with options.pool(config, task.harness) as pool:  # a refused reply starts no browser
        return await task.episode(pool, reply, seed=seed)


def run(reply: str, config: RenderConfig, task: Task, seed: int) -> Canvas:
    """Render with an outer deadline, so even a wedged browser cannot hang the command."""
    deadline = config.time_limit_s + STARTUP_MARGIN_S
    start = time.perf_counter()
    try:
        return asyncio.run(asyncio.wait_for(render_reply(reply, config, task, seed), deadline))
    except TimeoutError:
        message = f"renderer gave no answer within {deadline:.0f} s"
    except Exception as exc:  # any failure here is ours (browser missing, assets missing)
        message = f"{type(exc).__name__}: {exc}"
    total_ms = (time.perf_counter() - start) * 1000
    return Canvas(Status.INFRA_ERROR, errors=[message], timings={"total_ms": total_ms}, reply=reply)


def report(canvas: Canvas, png_path: str | None, as_json: bool) -> None:
    if as_json:
        print(json.dumps(canvas.to_json(png_path)))
        return
    timings = "  ".join(f"{k} {v:.0f} ms" for k, v in canvas.timings.items())
    print(f"{canvas.status}  {timings}" + (f"  -> {png_path}" if png_path else ""))
    for line in [*(f"violation: {v}" for v in canvas.violations), *canvas.errors]:
        print(f"  {line}")
    if canvas.ok and not png_path:
        print("  (pass -o OUT.png to save the canvas)")


def exit_code(canvas: Canvas) -> int:
    if canvas.ok:
        return 0
    return 2 if canvas.status == Status.INFRA_ERROR else 1


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    try:
        cfg = options.compose(args)
        config = options.render_config(cfg)
        task = build_task(cfg.task).painting_for(instantiate(cfg.reward))
    except (HydraException, ValueError) as exc:  # a bad flag, override or number: usage
        print(f"error: {usage.message(exc)}", file=sys.stderr)
        return 2
    try:
        reply = sys.stdin.read() if args.sketch == "-" else Path(args.sketch).read_text("utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        print(f"error: cannot read {args.sketch}: {exc}", file=sys.stderr)
        return 2
    canvas = run(reply, config, task, args.seed)
    # another task's reply: refused without a browser
    if mistake := other_task(args.sketch, reply, canvas, cfg.task.name):
        print(f"error: {mistake}", file=sys.stderr)
        return 2
    png_path = None
    if args.output and canvas.png is not None:
        args.output.parent.mkdir(parents=True, exist_ok=True)
        args.output.write_bytes(canvas.png)
        png_path = str(args.output)
    report(canvas, png_path, args.json)
    return exit_code(canvas)


if __name__ == "__main__":
    sys.exit(main())
