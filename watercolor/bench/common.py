"""What the benchmarks share: the sample sketches, per-process CPU of a browser, printing."""

from __future__ import annotations

import contextlib
from pathlib import Path

import psutil

from watercolor.canvas import Canvas
from watercolor.config import compose_config
from watercolor.render.watchdog import command_line, cpu_seconds, descendants
from watercolor.tasks.painting.gate import extract_sketch

RICH_DIR = Path(__file__).parents[1] / "render" / "bench_sketches" / "rich"


def sample_sketches(folder: Path) -> list[str]:
    return [extract_sketch(p.read_text()) or "" for p in sorted(folder.glob("*.js"))]


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
