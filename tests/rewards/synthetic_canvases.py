"""Synthetic paintings (numpy) wrapped as Canvas records, for reward tests.

    canvas = layered_watercolour(layers=12)       # genuine-like: translucent textured washes
    canvas = flat_blocks()                         # the coarse-reward cheat

All are 600 x 600 (the task's canvas) on the task's cream paper unless told otherwise,
deterministic (seeded), and made once per process (a Canvas is immutable). Genuine-like images
composite translucent washes over the paper the way a browser alpha-blends p5.brush layers;
cheats are what a policy could learn instead.
"""

from __future__ import annotations

import io
from functools import cache

import numpy as np
from PIL import Image
from scipy import ndimage

from watercolor.canvas import Canvas, Status

SIZE = 600
PAPER = "#f4ecd8"
PALETTE = ("#e8665a", "#f5b08a", "#6a9a5b", "#4a78b0")  # coral, peach, leaf green, blue
BRUSH_SKETCH = (
    "function setup() {\n  createCanvas(600, 600, WEBGL);\n  background('#f4ecd8');\n"
    "  brush.scaleBrushes(3);\n  brush.noStroke();\n  brush.fill('#e8665a', 90);\n"
    "  brush.fillBleed(0.3);\n  brush.circle(0, 0, 120);\n}\n"
)


def rgb(colour: str) -> np.ndarray:
    value = colour.lstrip("#")
    return np.array([int(value[i : i + 2], 16) for i in (0, 2, 4)], dtype=np.float32) / 255


def png_bytes(image: np.ndarray) -> bytes:
    """RGB float [0, 1] (H, W, 3) or RGBA uint8 -> PNG bytes of an opaque RGBA image."""
    if image.dtype != np.uint8:
        image = np.round(np.clip(image, 0, 1) * 255).astype(np.uint8)
    if image.shape[-1] == 3:
        image = np.dstack([image, np.full(image.shape[:2], 255, np.uint8)])
    buffer = io.BytesIO()
    Image.fromarray(image, "RGBA").save(buffer, format="PNG")
    return buffer.getvalue()


def to_canvas(image: np.ndarray, sketch: str = BRUSH_SKETCH, **fields) -> Canvas:
    """Wrap pixels as an ok Canvas, as the renderer would return them."""
    reply = f"```javascript\n{sketch}```"
    return Canvas(status=Status.OK, png=png_bytes(image), sketch=sketch, reply=reply, **fields)


def paper(size: int = SIZE, colour: str = PAPER) -> np.ndarray:
    return np.broadcast_to(rgb(colour), (size, size, 3)).copy()


def composite(image: np.ndarray, colour: str, alpha: np.ndarray) -> np.ndarray:
    """Alpha-blend a colour over the image (what the browser does with translucent fills)."""
    alpha = np.clip(alpha, 0, 1)[..., None]
    return image * (1 - alpha) + rgb(colour) * alpha


def disc(size: int, cx: float, cy: float, r: float, soft: float = 0.0) -> np.ndarray:
    """Coverage of a disc: a 1-pixel anti-aliased step, or a linear ramp `soft` px wide."""
    y, x = np.mgrid[0:size, 0:size].astype(np.float32)
    distance = np.hypot(x - cx, y - cy) - r
    return np.clip(0.5 - distance / max(soft, 1.0), 0, 1)


def noise(size: int, sigma: float, rng: np.random.Generator) -> np.ndarray:
    """Gaussian noise, low-passed at `sigma` px (0 = white), normalised to zero mean, unit std."""
    field = rng.standard_normal((size, size)).astype(np.float32)
    if sigma > 0:
        field = ndimage.gaussian_filter(field, sigma)
    return (field - field.mean()) / field.std()


@cache
def blank(size: int = SIZE) -> Canvas:
    return to_canvas(paper(size))


@cache
def flat_blocks(colours: tuple[str, ...] = PALETTE, size: int = SIZE) -> Canvas:
    """Opaque, uniform rectangles and discs with hard edges: the 'fake watercolour'."""
    image, s = paper(size), size / 600
    boxes = [(90, 90, 270, 250), (330, 100, 520, 260), (100, 330, 260, 520)]
    for colour, (x0, y0, x1, y1) in zip(colours, boxes, strict=False):
        image[int(y0 * s) : int(y1 * s), int(x0 * s) : int(x1 * s)] = rgb(colour)
    return to_canvas(composite(image, colours[-1], disc(size, 420 * s, 420 * s, 90 * s)))


@cache
def graded_mosaic(size: int = SIZE) -> Canvas:
    """Flat translucent discs, each darker on one side: p5.brush's own shading of a flat fill."""
    image, s = paper(size), size / 600
    y, x = np.mgrid[0:size, 0:size].astype(np.float32)
    for i in range(30):
        cx, cy = (80 + (i * 73) % 440) * s, (80 + (i * 131) % 440) * s
        shading = np.clip(0.5 + (x - cx) / (90 * s), 0.1, 1.0)  # a ramp across the disc
        alpha = 0.85 * disc(size, cx, cy, 45 * s) * shading
        image = composite(image, PALETTE[i % len(PALETTE)], alpha)
    return to_canvas(image)


@cache
def flat_mosaic(size: int = SIZE) -> Canvas:
    """Thirty overlapping opaque discs in the palette: flat shapes touching each other."""
    image, s = paper(size), size / 600
    for i in range(30):
        cx, cy = 80 + (i * 73) % 440, 80 + (i * 131) % 440
        image = composite(image, PALETTE[i % len(PALETTE)], disc(size, cx * s, cy * s, 45 * s))
    return to_canvas(image)


@cache
def soft_blobs(blur: float = 20.0, size: int = SIZE) -> Canvas:
    """Opaque-ish discs whose edges ramp over `blur` px: soft edges, but no texture."""
    image, s = paper(size), size / 600
    centres = [(200, 200), (400, 220), (220, 410), (410, 410)]
    for colour, (cx, cy) in zip(PALETTE, centres, strict=True):
        image = composite(image, colour, 0.8 * disc(size, cx * s, cy * s, 90 * s, blur * s))
    return to_canvas(image)


@cache
def bled_wash(blur: float = 10.0, wobble: float = 12.0, seed: int = 0, size: int = SIZE) -> Canvas:
    """Discs with a soft `blur` px edge and a faint fringe that wanders ~`wobble` px past it.

    What p5.brush's bleed leaves: the body of the wash ramps, and faint copies of its outline
    spread irregularly beyond it (bays and spurs a few pixels across).
    """
    rng, s = np.random.default_rng(seed), size / 600
    y, x = np.mgrid[0:size, 0:size].astype(np.float32)
    image = paper(size)
    centres = [(200, 200), (400, 220), (220, 410), (410, 410)]
    for colour, (cx, cy) in zip(PALETTE, centres, strict=True):
        distance = np.hypot(x - cx * s, y - cy * s) - 90 * s
        body = 0.7 * np.clip(0.5 - distance / max(blur * s, 1.0), 0, 1)
        fringe = distance - wobble * s * (1 + noise(size, 3 * s, rng))
        image = composite(image, colour, np.maximum(body, 0.15 * np.clip(0.5 - fringe / s, 0, 1)))
    return to_canvas(image)


@cache
def layered_watercolour(
    layers: int = 12,
    edge_blur: float = 8.0,
    grain: float = 0.35,
    seed: int = 0,
    size: int = SIZE,
    opacity: float = 1.0,
) -> Canvas:
    """Translucent, overlapping, textured washes with soft edges: the genuine article.

    `opacity` scales every wash's alpha (2.5: the same washes as heavy, nearly covering fills).
    """
    rng, s = np.random.default_rng(seed), size / 600
    image = paper(size)
    for i in range(layers):
        # Centres on a small circle (golden angle): every new layer overlaps the earlier ones.
        cx, cy = (300 + 80 * np.cos(2.4 * i)) * s, (300 + 80 * np.sin(2.4 * i)) * s
        r = (100 + 25 * np.sin(1.7 * i)) * s
        shape = disc(size, cx, cy, r, edge_blur * s)
        # Uneven pigment (low frequency) and granulation (fine, correlated) modulate the alpha.
        unevenness = 1 + 0.3 * noise(size, 25 * s, rng)
        granules = 1 + grain * noise(size, 2.5 * s, rng)
        alpha = opacity * rng.uniform(0.25, 0.4) * shape * unevenness * granules
        image = composite(image, PALETTE[i % len(PALETTE)], alpha)
    return to_canvas(image)


@cache
def speckle(amount: float = 0.08, seed: int = 0, size: int = SIZE) -> Canvas:
    """Flat blocks plus per-pixel white noise of std `amount`: fake granulation."""
    base = np.asarray(Image.open(io.BytesIO(flat_blocks(size=size).png)).convert("RGB"))
    image = base.astype(np.float32) / 255
    jitter = np.random.default_rng(seed).standard_normal(image.shape[:2]).astype(np.float32)
    painted = (np.abs(image - rgb(PAPER)).max(axis=-1) > 0.01)[..., None]
    return to_canvas(image + painted * amount * jitter[..., None])


@cache
def correlated_texture(sigma: float = 2.5, amount: float = 0.06, size: int = SIZE) -> Canvas:
    """Flat blocks whose paint carries spatially correlated texture (granulation, no layering)."""
    base = np.asarray(Image.open(io.BytesIO(flat_blocks(size=size).png)).convert("RGB"))
    image = base.astype(np.float32) / 255
    texture = noise(size, sigma * size / 600, np.random.default_rng(1))
    painted = (np.abs(image - rgb(PAPER)).max(axis=-1) > 0.01)[..., None]
    return to_canvas(image + painted * amount * texture[..., None])


@cache
def huge_blob(size: int = SIZE) -> Canvas:
    """One opaque colour filling most of the sheet (about 70 %)."""
    return to_canvas(
        composite(paper(size), PALETTE[0], disc(size, size / 2, size / 2, 0.47 * size))
    )


@cache
def edge_to_edge(seed: int = 0, size: int = SIZE) -> Canvas:
    """A textured wash flooding the whole sheet, paper nowhere visible."""
    rng = np.random.default_rng(seed)
    alpha = 0.7 * (1 + 0.3 * noise(size, 25 * size / 600, rng)) * (1 + 0.2 * noise(size, 2.5, rng))
    return to_canvas(composite(paper(size), PALETTE[3], alpha))


@cache
def few_marks(ground: str = PAPER, marks: int = 3, seed: int = 0, size: int = SIZE) -> Canvas:
    """A sheet of one ground colour (paper, a tint, a dark `background`) and a few small marks.

    Each mark is three glazes, textured and soft-edged: every quality of a watercolour wash,
    on about 1.5 % of the sheet. The ground is the sheet, not a pigment layer.
    """
    rng, s = np.random.default_rng(seed), size / 600
    image = paper(size, ground)
    for i in range(3 * marks):
        cx, cy = (150 + 150 * (i // 3)) * s, (200 + 90 * (i % 2) + 40 * (i // 3)) * s
        shape = disc(size, cx + 6 * (i % 3) * s, cy, (18 - 4 * (i % 3)) * s, 4 * s)
        alpha = 0.45 * shape * (1 + 0.3 * noise(size, 4 * s, rng))
        image = composite(image, PALETTE[i % len(PALETTE)], alpha)
    return to_canvas(image)
