"""What opacity the matting measure recovers: plain p5 fills of known alpha, p5.brush fills at
opacity 255-50 with and without bleed and texture, and one render on a transparent canvas.

    E=experiments/2026-12-05_matting; .venv/bin/python $E/measure.py > $E/measure.txt

Each sketch is one centred square on a cream paper (`#f6f0e3`), rendered as training renders
(pixel density 0.5, seed 0) on that paper and again on each second paper (only `background()`
changed, `RenderPool.render(paper=...)`); alpha = 1 - the paper share (watercolor.rewards.matting)
read over the square's central half, where bleed does not reach.
"""

from __future__ import annotations

import asyncio
import sys
from dataclasses import replace

import numpy as np

from watercolor.render import RenderPool
from watercolor.rewards.matting import matte
from watercolor.tasks.painting.calibration import training_render_config
from watercolor.tasks.painting.harness import HARNESS

CREAM = "#f6f0e3"
SECOND_PAPERS = ("#1e3a5f", "#3a7d44", "#8a2b62")
P5_FILL = """function setup() {{
  createCanvas(600, 600, WEBGL);
  background("{paper}");
  noStroke();
  fill(192, 57, 43, {alpha});
  rect(-150, -150, 300, 300);
}}"""
BRUSH_FILL = """function setup() {{
  createCanvas(600, 600, WEBGL);
  background("{paper}");
  brush.scaleBrushes(3);
  brush.noStroke();
  brush.fill(192, 57, 43, {alpha});
  {setters}
  brush.beginShape();
  brush.vertex(-150, -150); brush.vertex(150, -150);
  brush.vertex(150, 150); brush.vertex(-150, 150);
  brush.endShape(CLOSE);
}}"""
STYLES = {
    "plain (bleed 0, texture 0)": "brush.fillBleed(0); brush.fillTexture(0, 0);",
    "defaults (no setter)": "",
    "bleed 0.3, texture 0.8": "brush.fillBleed(0.3); brush.fillTexture(0.8, 0.5);",
}


def centre(values: np.ndarray) -> np.ndarray:
    h, w = values.shape
    return values[h * 3 // 8 : h * 5 // 8, w * 3 // 8 : w * 5 // 8].ravel()


async def pair(pool: RenderPool, sketch: str, second: str):
    first = await pool.render(sketch, seed=0)
    twin = await pool.render(sketch, seed=0, paper=second)
    canvas = replace(first, twin=twin, twin_paper=second)
    found = matte(canvas)
    if found is None:
        raise RuntimeError(f"no matte: {first.status} {first.errors} {twin.status} {twin.errors}")
    return canvas, found


def line(label: str, share: np.ndarray, residual: np.ndarray) -> str:
    alpha = 1 - centre(share)
    q10, q50, q90 = np.percentile(alpha, [10, 50, 90])
    return (
        f"{label:44s} alpha median {q50:5.3f} (10-90 %: {q10:5.3f}-{q90:5.3f})  "
        f"residual median {np.median(centre(residual)):5.1f}/255"
    )


async def main() -> None:
    config = replace(training_render_config(), workers=1, time_limit_s=60.0)
    async with RenderPool(config, HARNESS) as pool:
        for second in SECOND_PAPERS:
            print(f"\n## second paper {second} (first {CREAM})\n")
            print("plain p5 fill(192, 57, 43, a), rect: recovered alpha against a/255")
            for alpha in (0, 32, 64, 128, 192, 255):
                canvas, (share, residual) = await pair(
                    pool, P5_FILL.format(paper=CREAM, alpha=alpha), second
                )
                outside = share[:8, :8]
                print(
                    line(f"  a = {alpha:3d} (a/255 = {alpha / 255:.3f})", share, residual)
                    + f"  outside paint: alpha {1 - outside.mean():.3f}"
                )
            print("p5.brush fill(192, 57, 43, opacity), one square")
            for style, setters in STYLES.items():
                for alpha in (255, 200, 150, 100, 50):
                    sketch = BRUSH_FILL.format(paper=CREAM, alpha=alpha, setters=setters)
                    canvas, (share, residual) = await pair(pool, sketch, second)
                    print(line(f"  {style}, opacity {alpha}", share, residual))
            sys.stdout.flush()
        print("\n## one render on a transparent canvas (paper rgba(0,0,0,0)) against the pair\n")
        for style, setters in STYLES.items():
            for alpha in (255, 100):
                sketch = BRUSH_FILL.format(paper=CREAM, alpha=alpha, setters=setters)
                clear = await pool.render(sketch, seed=0, paper="rgba(0,0,0,0)")
                canvas, (share, residual) = await pair(pool, sketch, SECOND_PAPERS[0])
                png_alpha = centre(clear.rgba[..., 3].astype(float) / 255)
                print(
                    f"  {style}, opacity {alpha}: canvas alpha median {np.median(png_alpha):.3f}, "
                    f"pair alpha median {np.median(1 - centre(share)):.3f}"
                )


if __name__ == "__main__":
    asyncio.run(main())
