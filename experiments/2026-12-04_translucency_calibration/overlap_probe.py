"""Does a p5.brush 2.2.2 fill at opacity 255 hide the wash under it? (the overlap probe)

Paints two overlapping discs (A, then B over it) three times with the same random stream: both,
A alone, and B alone (A drawn in the paper's colour, so B's bleed and texture are the same), at
opacities 60, 100, 150 and 255, with bleed and texture off and at the library's defaults, for
three colour pairs. Over the pixels where A and B both show, it prints the median of

    rho = <k(AB), k(A) + k(B)> / |k(A) + k(B)|^2

with k the Kubelka-Munk absorbance K/S above the paper's (watercolor.rewards.translucency), and
the same ratio in OKLab (colour above the paper). rho = 1: the overlap carries both washes'
absorbance, the under-layer fully shows; a covering fill would give the top wash's alone.
Run from the repository root (48 renders, ~2 min on 2 busy cores):

    .venv/bin/python experiments/2026-12-04_translucency_calibration/overlap_probe.py
"""

import asyncio
from dataclasses import replace

import numpy as np

from watercolor.analysis.behaviour import render_replies, training_render_config
from watercolor.rewards.pixels import oklab, srgb_to_linear, view
from watercolor.rewards.translucency import absorbance

PAPER = "244, 236, 216"  # the corpus's paper, #f4ecd8
PAIRS = (("40, 90, 160", "200, 60, 40"), ("200, 60, 40", "220, 180, 40"),
         ("60, 120, 70", "60, 120, 70"))  # fmt: skip
SETTINGS = {"bleed, texture off": "brush.fillBleed(0); brush.fillTexture(0, 0);", "defaults": ""}
OPACITIES = (60, 100, 150, 255)


def sketch(alpha: int, under: str, over: str | None, settings: str) -> str:
    body = f"brush.fill({under}, {alpha});\n  brush.circle(-70, 0, 150);\n"
    if over is not None:
        body += f"  brush.fill({over}, {alpha});\n  brush.circle(70, 0, 150);\n"
    return (f"```js\nfunction setup() {{\n  createCanvas(600, 600, WEBGL);\n"
            f'  background("#f4ecd8");\n  brush.scaleBrushes(3);\n  brush.noStroke();\n'
            f"  {settings}\n  {body}}}\n```")  # fmt: skip


def rho(both: np.ndarray, under: np.ndarray, over: np.ndarray) -> float:
    total = under + over
    return float(np.median((both * total).sum(-1) / (total * total).sum(-1)))


cases = [(s, a, u, o) for s in SETTINGS for u, o in PAIRS for a in OPACITIES]
replies = [sketch(a, *layers, SETTINGS[s])
           for s, a, u, o in cases for layers in ((u, o), (u, None), (PAPER, o))]  # fmt: skip
render = replace(training_render_config(), time_limit_s=30.0)
canvases = asyncio.run(render_replies(replies, render))
print("settings            opacity  under -> over                 pixels  rho K/S  rho OKLab")
for i, (setting, alpha, under, over) in enumerate(cases):
    both, alone_a, alone_b = (view(c) for c in canvases[3 * i : 3 * i + 3])
    paper_rgb = both.rgb[2:10, 2:10].reshape(-1, 3).mean(0)
    lab = [v.lab - oklab(paper_rgb) for v in (both, alone_a, alone_b)]
    overlap = (np.linalg.norm(lab[1], axis=-1) > 0.03) & (np.linalg.norm(lab[2], axis=-1) > 0.03)
    if overlap.sum() < 50:
        print(f"{setting:19s} {alpha:7d}  {under} -> {over}: too faint to overlap")
        continue
    k_paper = absorbance(srgb_to_linear(paper_rgb))
    ks = [absorbance(srgb_to_linear(v.rgb))[overlap] - k_paper for v in (both, alone_a, alone_b)]
    print(f"{setting:19s} {alpha:7d}  {under:>12s} -> {over:12s} {overlap.sum():7d}  "
          f"{rho(*ks):7.2f}  {rho(*(x[overlap] for x in lab)):9.2f}")  # fmt: skip
