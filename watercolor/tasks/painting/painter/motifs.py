"""Compositions for the corpus: each motif lays out a subject as coloured parts of simple shapes.

    >>> import random
    >>> from watercolor.tasks.painting.painter.motifs import compose
    >>> parts = compose("flower", random.Random(0))
    >>> [part.role for part in parts][:2]
    ['leaf', 'main']

Geometry only: a `Part` says which palette role paints it (`main`, `light`, `dark`, `accent`,
`leaf`, `sky`, `ground`, `trunk`) and which shapes it covers;
`watercolor.tasks.painting.painter.sketches` decides how they are painted (layered washes, flat
fills, bare p5, strokes). Coordinates are WEBGL ones: the origin is the canvas centre and a 600 px
canvas spans about -300..300.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from dataclasses import dataclass


@dataclass(frozen=True)
class Circle:
    x: int
    y: int
    r: int


@dataclass(frozen=True)
class Blob:
    """A closed shape through `points`; `curvature` (0..1) rounds its corners."""

    points: tuple[tuple[int, int], ...]
    curvature: float


@dataclass(frozen=True)
class Ring:
    """`count` circles of radius `r` spaced evenly at `distance` around (x, y) (petals, halos)."""

    x: int
    y: int
    distance: int
    r: int
    count: int


Shape = Circle | Blob | Ring
MAX_BUMPS = 2  # undulations of a band's top edge


@dataclass(frozen=True)
class Part:
    role: str
    shapes: tuple[Shape, ...]


def oval(
    rng: random.Random,
    x: float,
    y: float,
    rx: float,
    ry: float,
    angle: float = 0.0,
    count: int | None = None,
) -> Blob:
    """A wobbly ellipse as a blob of `count` (default 4) points, rotated by `angle` (radians)."""
    count = count or 4  # every point is a line of code the model must write
    points = []
    for i in range(count):
        t = 2 * math.pi * i / count
        wobble = rng.uniform(0.85, 1.15)
        px, py = rx * wobble * math.cos(t), ry * wobble * math.sin(t)
        ca, sa = math.cos(angle), math.sin(angle)
        points.append((round(x + px * ca - py * sa), round(y + px * sa + py * ca)))
    return Blob(tuple(points), round(rng.uniform(0.4, 0.9), 1))


def band(rng: random.Random, top: float, bottom: float, bumps: int = 3) -> Blob:
    """A horizontal band across the canvas whose top edge undulates (hills, water, sky).

    At most MAX_BUMPS bumps: a sketch's length is what a reply costs to write and to risk.
    """
    bumps = min(bumps, MAX_BUMPS)
    xs = [round(-320 + 640 * i / bumps) for i in range(bumps + 1)]
    ridge = [(x, round(top + rng.uniform(-30, 30))) for x in xs]
    return Blob((*ridge, (320, round(bottom)), (-320, round(bottom))), 0.5)


def flower(rng: random.Random) -> list[Part]:
    x, y = rng.randint(-40, 40), rng.randint(-80, 0)
    count, size = rng.randint(5, 8), rng.randint(45, 70)
    stem = oval(rng, x, y + 170, 10, 150)
    leaf = oval(rng, x + 60, y + 190, 55, 22, rng.uniform(-0.6, -0.2))
    if rng.random() < 0.65:
        petals: tuple[Shape, ...] = (Ring(x, y, round(size * 1.3), size, count),)
    else:  # separate petals cost a shape each: at most five
        count = min(count, 5)
        step = 2 * math.pi / count
        petals = tuple(
            oval(rng, x + 75 * math.cos(i * step), y + 75 * math.sin(i * step), 70, 35, i * step, 4)
            for i in range(count)
        )
    inner = Ring(x, y, round(size * 0.6), round(size * 0.7), count)
    centre = Circle(x, y, rng.randint(22, 38))
    return [
        Part("leaf", (stem, leaf)),
        Part("main", petals),
        Part("light", (inner,)),
        Part("accent", (centre,)),
    ]


def fruit(rng: random.Random) -> list[Part]:
    x, y, r = rng.randint(-30, 30), rng.randint(-10, 40), rng.randint(110, 160)
    body = oval(rng, x, y, r, r * rng.uniform(0.85, 1.1))
    return [
        Part("ground", (oval(rng, x + 30, y + r, r * 1.4, 30),)),
        Part("main", (body,)),
        Part("dark", (oval(rng, x + r * 0.35, y + r * 0.3, r * 0.55, r * 0.5),)),
        Part("light", (Circle(round(x - r * 0.4), round(y - r * 0.4), round(r * 0.3)),)),
        Part("leaf", (oval(rng, x + 40, y - r - 25, 55, 20, -0.5),)),
    ]


def tree(rng: random.Random) -> list[Part]:
    x = rng.randint(-40, 40)
    crowns = tuple(
        Circle(x + rng.randint(-110, 110), rng.randint(-190, -40), rng.randint(70, 120))
        for _ in range(rng.randint(4, 7))
    )
    trunk = Blob(((x - 22, 210), (x - 12, -40), (x + 12, -40), (x + 26, 210)), 0.2)
    return [
        Part("ground", (band(rng, 190, 320),)),
        Part("trunk", (trunk,)),
        Part("main", crowns),
        Part("light", crowns[: len(crowns) // 2]),
    ]


def peak(rng: random.Random, x: int, half_width: int) -> Blob:
    """A mountain: a triangle standing on y = 120 with a jittered summit."""
    summit = (x + rng.randint(-30, 30), rng.randint(-170, -60))
    return Blob(((x - half_width, 120), summit, (x + half_width, 120)), 0.3)


def landscape(rng: random.Random) -> list[Part]:
    peaks = (
        peak(rng, rng.randint(-150, -40), rng.randint(150, 200)),
        peak(rng, rng.randint(40, 150), rng.randint(150, 200)),
    )
    return [
        Part("sky", (band(rng, -320, 0, 2),)),
        Part("main", peaks),
        Part("dark", (band(rng, 80, 320),)),
        Part("light", (band(rng, 170, 320, 4),)),
    ]


def sunset(rng: random.Random) -> list[Part]:
    sun = Circle(rng.randint(-120, 120), rng.randint(-40, 60), rng.randint(60, 110))
    return [
        Part("main", (band(rng, -320, 80, 2),)),
        Part("light", (band(rng, -150, 100, 3),)),
        Part("accent", (sun,)),
        Part("dark", (band(rng, 110, 320, 4),)),
    ]


def moon(rng: random.Random) -> list[Part]:
    x, y, r = rng.randint(-60, 60), rng.randint(-80, 20), rng.randint(80, 130)
    return [
        Part("dark", (band(rng, -320, 320, 2),)),
        Part("main", (Ring(x, y, round(r * 0.4), r, 6),)),
        Part("light", (Circle(x, y, r),)),
        Part("accent", (Circle(x + r // 3, y - r // 4, r // 4),)),
    ]


def fish(rng: random.Random) -> list[Part]:
    x, y, length = rng.randint(-40, 40), rng.randint(-40, 40), rng.randint(120, 170)
    tail = Blob(((x + length - 20, y), (x + length + 90, y - 70), (x + length + 80, y + 70)), 0.6)
    return [
        Part("sky", (band(rng, -320, 320, 2),)),
        Part("main", (oval(rng, x, y, length, length * 0.45), tail)),
        Part("light", (oval(rng, x - 20, y - 20, length * 0.6, length * 0.2),)),
        Part("dark", (Circle(x - length + 45, y - 10, 12),)),
    ]


def bird(rng: random.Random) -> list[Part]:
    x, y = rng.randint(-40, 40), rng.randint(-20, 40)
    wing = Blob(((x - 60, y - 10), (x + 40, y - 120), (x + 90, y - 20)), 0.6)
    beak = Blob(((x - 160, y - 70), (x - 200, y - 55), (x - 160, y - 45)), 0.1)
    return [
        Part(
            "trunk", (Blob(((-300, y + 95), (300, y + 80), (300, y + 100), (-300, y + 110)), 0.3),)
        ),
        Part("main", (oval(rng, x, y, 110, 75), Circle(x - 110, y - 60, 50))),
        Part("dark", (wing,)),
        Part("accent", (beak, Circle(x - 120, y - 70, 8))),
    ]


def butterfly(rng: random.Random) -> list[Part]:
    x, y, size = rng.randint(-30, 30), rng.randint(-30, 30), rng.randint(70, 100)
    wings = tuple(
        oval(
            rng, x + side * size, y + dy * size * 0.8, size * scale, size * 0.7 * scale, side * 0.5
        )
        for side in (-1, 1)
        for dy, scale in ((-1, 1.0), (0.8, 0.7))
    )
    return [
        Part("main", wings),
        Part(
            "light",
            tuple(
                Circle(w.points[0][0] - side * 30, w.points[0][1], 25)
                for w, side in zip(wings, (-1, -1, 1, 1), strict=True)
            ),
        ),
        Part("dark", (oval(rng, x, y, 14, size * 0.9),)),
    ]


def sea(rng: random.Random) -> list[Part]:
    return [
        Part("sky", (band(rng, -320, 40, 2),)),
        Part("light", (band(rng, -40, 320, 4),)),
        Part("main", (band(rng, 40, 320, 5), band(rng, 150, 320, 3))),
        Part("dark", (band(rng, 240, 320, 6),)),
    ]


def boat(rng: random.Random) -> list[Part]:
    x, y = rng.randint(-60, 60), rng.randint(40, 100)
    hull = Blob(((x - 140, y), (x + 140, y), (x + 100, y + 50), (x - 100, y + 50)), 0.2)
    sail = Blob(((x - 5, y - 20), (x - 5, y - 240), (x - 120, y - 20)), 0.1)
    jib = Blob(((x + 5, y - 20), (x + 5, y - 200), (x + 90, y - 20)), 0.1)
    return [
        Part("sky", (band(rng, -320, 80, 2),)),
        Part("main", (band(rng, y + 20, 320, 4),)),
        Part("light", (sail, jib)),
        Part("dark", (hull,)),
    ]


def vessel(rng: random.Random) -> list[Part]:
    x, y, r = rng.randint(-30, 30), rng.randint(0, 60), rng.randint(90, 130)
    neck = oval(rng, x, y - r, r * 0.35, r * 0.5)
    return [
        Part("ground", (band(rng, y + r - 20, 320, 2),)),
        Part("main", (oval(rng, x, y, r, r * 0.9), neck)),
        Part("light", (oval(rng, x - r * 0.35, y - r * 0.2, r * 0.25, r * 0.45),)),
        Part("dark", (oval(rng, x + r * 0.4, y + r * 0.3, r * 0.45, r * 0.4),)),
    ]


def generic(rng: random.Random) -> list[Part]:
    blobs = tuple(
        oval(
            rng,
            rng.randint(-150, 150),
            rng.randint(-150, 150),
            rng.randint(60, 140),
            rng.randint(50, 120),
            rng.uniform(0, math.pi),
        )
        for _ in range(rng.randint(3, 5))
    )
    return [
        Part("light", blobs[:2]),
        Part("main", blobs),
        Part(
            "accent", (Circle(rng.randint(-100, 100), rng.randint(-100, 100), rng.randint(30, 60)),)
        ),
    ]


MOTIFS: dict[str, Callable[[random.Random], list[Part]]] = {
    f.__name__: f
    for f in (
        flower,
        fruit,
        tree,
        landscape,
        sunset,
        moon,
        fish,
        bird,
        butterfly,
        sea,
        boat,
        vessel,
        generic,
    )
}


def compose(motif: str, rng: random.Random) -> list[Part]:
    """The parts of `motif` (back to front); unknown motifs get the generic composition."""
    return MOTIFS.get(motif, generic)(rng)
