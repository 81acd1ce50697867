"""What the benchmarks share: the painting task, its sample sketches, per-process CPU of a browser,
printing.

The benchmarks time p5 sketches, so they paint in the painting task, built as training builds
it (`watercolor.tasks.build_task` on conf/task/painting.yaml), never from its package.
"""

from __future__ import annotations

import contextlib
import functools
from functools import cache
from pathlib import Path

import psutil

from watercolor.canvas import Canvas
from watercolor.config import compose_config
from watercolor.render.watchdog import command_line, cpu_seconds, descendants
from watercolor.tasks import Task, build_task

RICH_DIR = Path(__file__).parents[1] / "render" / "bench_sketches" / "rich"


def sample_sketches(folder: Path) -> list[str]:
    """The `.js` sketches of `folder`, as they are (bare sketches: nothing to extract)."""
    return [path.read_text("utf-8") for path in sorted(folder.glob("*.js"))]


@cache
@functools.cache
def painting() -> Task:
    """The painting task as training builds it (its harness, its episode), built once: the
    fresh-page loop asks for its harness inside the timed region."""
    return build_task(compose_config("train", ["task=painting"]).task)


def process_cpu(root: int | None) -> dict[int, tuple[str, float]]:
    """{pid: (kind, CPU seconds so far)} for the browser `root` and every process below it."""
    found = {}
    for pid in [root, *descendants(root)] if root is not None else []:
        with contextlib.suppress(psutil.Error):
            command = command_line(psutil.Process(pid))
            kind = "gpu_s" if "--type=gpu-process" in command else "browser_s"
            kind = "renderer_s" if "--type=renderer" in command else kind
            found[pid] = (kind, cpu_seconds([pid]))
    return found


def failures(canvases: list[Canvas]) -> list[str]:
    return [f"{c.status}: {'; '.join(c.errors)[:200]}" for c in canvases if not c.ok]


def training_density() -> float:
    """The pixel density training renders at (conf/renderer/local.yaml, the default renderer)."""
    return compose_config("train").renderer.pixel_density


def show(figures: dict) -> None:
    for key, value in figures.items():
        print(f"{key:>34}: {value}", flush=True)
