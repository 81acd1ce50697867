"""The figure the write-up shows inline: per arm (rows), seed 0's first two held-out canvases over
their own paper and over the second paper (columns), from the gallery `papers_gallery.py` wrote.

    .venv/bin/python experiments/2026-12-05_show_through/papers_gallery.py   # gallery/ (not in git)
    .venv/bin/python experiments/2026-12-05_show_through/papers_strip.py     # papers_strip.png
"""

from pathlib import Path

from PIL import Image

HERE = Path(__file__).parent
TILE = 200


def main() -> Path:
    rows = []
    for arm in ("fine_grained", "show_through"):
        own = sorted((HERE / "gallery" / f"{arm}-seed0").glob("*_own.png"))[:2]
        rows.append([p for o in own for p in (o, o.with_name(o.name.replace("_own", "_second")))])
    strip = Image.new("RGB", (TILE * len(rows[0]), TILE * len(rows)), "white")
    for y, row in enumerate(rows):
        for x, path in enumerate(row):
            with Image.open(path) as image:
                strip.paste(image.convert("RGB").resize((TILE, TILE)), (x * TILE, y * TILE))
    out = HERE / "papers_strip.png"
    strip.save(out, optimize=True)
    return out


if __name__ == "__main__":
    print(main())
