"""A self-contained HTML gallery of canvases (used by `evaluate` and `compare`), and charts saved
small (`save_chart`).

    >>> page = gallery_html("runs", [("gated", [{"image": "a.png", "caption": "step 3"}])])
    >>> page.startswith("<!doctype html>")
    True

Kept apart from the entry points so `compare` can build a gallery without importing torch.
"""

from __future__ import annotations

import html
import io
from collections.abc import Sequence
from pathlib import Path

from PIL import Image


def save_chart(figure, path: Path, dpi: int) -> Path:
    """A matplotlib figure of lines and text as a 256-colour palette PNG: a third of the RGBA
    file, as readable (not for canvases: a palette bands a wash's gradients)."""
    buffer = io.BytesIO()
    figure.savefig(buffer, format="png", dpi=dpi)
    with Image.open(buffer) as image:
        image.convert("RGB").convert("P", palette=Image.Palette.ADAPTIVE).save(path, optimize=True)
    return path


def gallery_html(title: str, sections: Sequence[tuple[str, Sequence[dict]]]) -> str:
    """A self-contained HTML page: titled sections of cards `{image, caption, lines}`.

    `image` is a relative path (None: a grey placeholder), `caption` a heading, `lines` the
    text under it.
    """
    parts = [f"<!doctype html><meta charset=utf-8><title>{html.escape(title)}</title>", _STYLE]
    parts.append(f"<h1>{html.escape(title)}</h1>")
    for heading, cards in sections:
        parts.append(f"<h2>{html.escape(heading)}</h2><div class=row>")
        parts += [_card(card) for card in cards]
        parts.append("</div>")
    return "\n".join(parts)


_STYLE = """<style>
body{font-family:sans-serif;margin:1em;background:#faf8f3}
.row{display:flex;flex-wrap:wrap;gap:12px}
.card{width:220px;font-size:12px}
.card img,.none{width:220px;height:220px;object-fit:contain;background:#888;display:block}
.none{color:#fff;display:flex;align-items:center;justify-content:center}
.card p{margin:2px 0}
</style>"""


def _card(card: dict) -> str:
    image = card.get("image")
    if image:
        picture = f'<img src="{html.escape(str(image))}" loading=lazy>'
    else:
        picture = f"<div class=none>{html.escape(card.get('placeholder', 'no canvas'))}</div>"
    lines = "".join(f"<p>{html.escape(str(line))}</p>" for line in card.get("lines", ()))
    caption = html.escape(card.get("caption", ""))
    return f"<div class=card>{picture}<p><b>{caption}</b></p>{lines}</div>"


def relative(path: Path, root: Path) -> str | None:
    """`path` relative to the gallery's folder `root` (None when there is no such file)."""
    return path.relative_to(root).as_posix() if path.is_file() else None


def score_text(value) -> str:
    """A score as a gallery caption shows it: three decimals, n/a when missing."""
    return "n/a" if value is None or value != value else f"{value:.3f}"  # NaN != NaN
