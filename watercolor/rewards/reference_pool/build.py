"""Render a pool's sketches into its images and `metadata.jsonl` (once; the results are committed).

    python -m watercolor.rewards.reference_pool build          # the bundled pool, in place
    python -m watercolor.rewards.reference_pool build --folder my_pool --size 256

or from Python:

    >>> from watercolor.rewards.reference_pool.build import build_pool
    >>> painting = build_task(compose_train(["task=painting"]).task)  # its sketches are p5's
    >>> records = build_pool("my_pool", harness=painting.harness, size=300)
    >>> records[0]["file"], records[0]["tier"]
    ('images/autumn_tree_love.png', 'love')

A pool folder holds `sources/<subject>_<tier>.js` (tier: love, ok or nope); each is rendered
in the harness it is given (the painting task's: the command builds it through
`watercolor.tasks.Task`, as this module sits below the tasks) with the project's renderer (the
sketches keep the task's 600 x 600 coordinates, rendered at `size / 600` pixel density, one
seed for all) and written to `images/<subject>_<tier>.png`.
The sketches are rendered as they are, without the task's static gate, so `nope` references
may use the bare p5 primitives the gate refuses; the renderer's sandbox still applies.
"""

from __future__ import annotations

import asyncio
import io
import json
from pathlib import Path

from PIL import Image

from watercolor.canvas import Canvas
from watercolor.render.page_harness import Harness
from watercolor.render.pool import RenderConfig, RenderPool
from watercolor.rewards.reference_pool import BUNDLED, TIERS

SIZE = 300  # pixels; small enough to commit (~1.7 MB for 24), large enough to judge
CANVAS = RenderConfig().size  # the task's sketch coordinates (600)


def describe(sketch: str) -> str:
    """The sketch's opening `//` comment lines, joined: its caption."""
    caption = []
    for line in sketch.lstrip().splitlines():
        if not line.startswith("//"):
            break
        caption.append(line.removeprefix("//").strip())
    return " ".join(caption)


def subject_and_tier(path: Path) -> tuple[str, str]:
    subject, _, tier = path.stem.rpartition("_")
    if tier not in TIERS or not subject:
        raise ValueError(f"{path.name}: sketches are named <subject>_<tier>.js, tier in {TIERS}")
    return subject, tier


async def render_sketches(
    sketches: list[str], harness: Harness, size: int, seed: int
) -> list[Canvas]:
    config = RenderConfig(pixel_density=size / CANVAS, workers=2, time_limit_s=60.0)
    async with RenderPool(config, harness) as pool:
        return list(await asyncio.gather(*(pool.render(s, seed=seed) for s in sketches)))


def save_png(png: bytes, path: Path, size: int) -> None:
    """Write the render as an optimised RGB PNG of exactly `size` x `size` pixels."""
    with Image.open(io.BytesIO(png)) as image:
        rgb = image.convert("RGB")
    if rgb.size != (size, size):  # a fractional pixel density can round a pixel off
        rgb = rgb.resize((size, size), Image.Resampling.LANCZOS)
    path.parent.mkdir(parents=True, exist_ok=True)
    rgb.save(path, format="PNG", optimize=True)


def build_pool(
    folder: str | Path = BUNDLED, size: int = SIZE, seed: int = 0, *, harness: Harness
) -> list[dict]:
    """Render every `sources/*.js` of `folder` in `harness`; write the images and metadata.jsonl."""
    root = Path(folder)
    sources = sorted((root / "sources").glob("*.js"))
    if not sources:
        raise FileNotFoundError(f"no sketches in {root / 'sources'}")
    names = [subject_and_tier(path) for path in sources]  # fail on a bad name before rendering
    sketches = [path.read_text("utf-8") for path in sources]
    canvases = asyncio.run(render_sketches(sketches, harness, size, seed))
    records = []
    for path, (subject, tier), sketch, canvas in zip(
        sources, names, sketches, canvases, strict=True
    ):
        if not canvas.ok:
            raise RuntimeError(f"{path.name} did not render ({canvas.status}): {canvas.errors}")
        image = f"images/{path.stem}.png"
        save_png(canvas.png, root / image, size)
        records.append(
            {
                "file": image,
                "source": f"sources/{path.name}",
                "tier": tier,
                "subject": subject,
                "description": describe(sketch),
                "size": size,
                "seed": seed,
            }
        )
    lines = "".join(json.dumps(r) + "\n" for r in records)
    (root / "metadata.jsonl").write_text(lines, "utf-8")
    return records
