"""Harnesses: the document each warm page holds, and the sandbox every one is served in.

    >>> from watercolor.render.page_harness import Harness, CONTENT_SECURITY_POLICY
    >>> blank = Harness("blank", lambda: "<!doctype html><script>/* __watercolor */</script>")
    >>> blank.document().startswith("<!doctype html>")
    True

A harness belongs to a task (painting's holds p5.js, p5.brush and its runtime:
`watercolor.tasks.painting.harness`); the render pool loads a fresh copy of it for every
sketch and knows nothing else of the task. Its contract with the pool (watercolor/render/page.py):

- the document is one self-contained HTML text: every script and style inline (`inline_script`
  makes library code safe to sit in a <script>), nothing fetched;
- it defines `window.__watercolor.run(options)`, called once per document with
  `{code, seed, size, density, maxFrames}` (the reply's code, the episode's seed, the canvas's
  CSS size, its pixel density, and the most animation frames a harness that animates may draw),
  returning a promise of `{errors, notes, png, setupMs, drawMs, frames}`: `png` a
  `data:image/png;base64,...` URL of `size * density` square pixels (or null), `errors` what
  failed the code (empty when it ran), `notes` what the harness changed without failing it.

The page's own watch (time, crashes, dialogs, navigations, requests) is the pool's and holds for
every harness. Playwright serves the document for a made-up origin with `CONTENT_SECURITY_POLICY`,
which gives it an opaque origin and lets it fetch nothing: the comment there says what each part
stops.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path

HARNESS_URL = "http://watercolor.invalid/"

# Playwright serves the document for a made-up origin (`HARNESS_URL`, never resolved) with
# `CONTENT_SECURITY_POLICY`: `sandbox allow-scripts allow-modals` gives the document an opaque
# origin (no cookies, storage or IndexedDB, no popups, forms or plug-ins) and `default-src 'none'`
# stops fetch, XHR, WebSocket, beacons, images, scripts, workers, fonts and frames from any URL;
# only inline scripts and data:/blob: images (which never leave the page) are allowed.
CONTENT_SECURITY_POLICY = "; ".join(
    [
        "sandbox allow-scripts allow-modals",
        "default-src 'none'",
        "script-src 'unsafe-inline' 'unsafe-eval'",
        "style-src 'unsafe-inline'",
        "img-src data: blob:",
        "base-uri 'none'",
        "form-action 'none'",
    ]
)

_SOURCE_MAP = re.compile(r"^//# sourceMappingURL=.*$", re.MULTILINE)


@dataclass(frozen=True)
class Harness:
    """A task's page: `name` (for messages) and `document()`, the HTML text (cache it: it is
    asked for on every page load)."""

    name: str
    document: Callable[[], str]


def inline_script(source: str) -> str:
    """JS made safe to sit inside <script>: no closing tag, no source-map fetch."""
    return _SOURCE_MAP.sub("", source).replace("</script", "<\\/script")


def fill_template(template: Path, scripts: Mapping[str, str]) -> str:
    """`template`'s text with each marker (e.g. "/*P5*/") replaced once by its script, inlined."""
    document = template.read_text(encoding="utf-8")
    for marker, source in scripts.items():
        if marker not in document:
            raise ValueError(f"{template} has no {marker} marker")
        document = document.replace(marker, inline_script(source), 1)
    return document
