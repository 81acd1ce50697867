"""The harness page: one HTML document with p5.js, p5.brush and `harness.js` inlined.

    >>> from watercolor.render.harness import harness_html, CONTENT_SECURITY_POLICY
    >>> html = harness_html()
    >>> "p5.brush" in html and "__watercolor" in html
    True

The page needs nothing from the network: the libraries travel inside the document, which
Playwright serves for a made-up origin (`HARNESS_URL`, never resolved). The response carries
`CONTENT_SECURITY_POLICY`: `sandbox allow-scripts allow-modals` gives the document an opaque
origin (no cookies, storage or IndexedDB, no popups, forms or plug-ins) and `default-src 'none'`
stops fetch, XHR, WebSocket, beacons, images, scripts, workers, fonts and frames from any URL;
only inline scripts and data:/blob: images (which never leave the page) are allowed.
"""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path

from watercolor.render.assets import BRUSH_JS, P5_JS, library_source

HARNESS_DIR = Path(__file__).parent / "harness"
HARNESS_URL = "http://watercolor.invalid/"

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


def _inline(source: str) -> str:
    """JS made safe to sit inside <script>: no closing tag, no source-map fetch."""
    return _SOURCE_MAP.sub("", source).replace("</script", "<\\/script")


@cache
def harness_html() -> str:
    """The complete harness document (built once per process)."""
    template = (HARNESS_DIR / "harness.html").read_text(encoding="utf-8")
    parts = {
        "/*P5*/": library_source(P5_JS),
        "/*BRUSH*/": library_source(BRUSH_JS),
        "/*HARNESS*/": (HARNESS_DIR / "harness.js").read_text(encoding="utf-8"),
    }
    for marker, source in parts.items():
        template = template.replace(marker, _inline(source), 1)
    return template
