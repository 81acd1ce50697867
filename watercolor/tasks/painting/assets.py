"""Where the pinned JS libraries live, and what p5.brush exports.

    >>> from watercolor.tasks.painting.assets import brush_methods
    >>> "fillBleed" in brush_methods()
    True

p5.js and p5.brush come from npm, pinned by `watercolor/tasks/painting/js/package-lock.json` and
installed by `scripts/setup.sh` (`npm ci --prefix watercolor/tasks/painting/js`). The list of brush
methods the gate accepts is read from the installed library's ES-module export list, so it
follows the library when the lockfile moves, instead of being typed by hand.
"""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path

JS_DIR = Path(__file__).parent / "js"
NODE_MODULES = JS_DIR / "node_modules"
P5_JS = NODE_MODULES / "p5" / "lib" / "p5.min.js"
BRUSH_JS = NODE_MODULES / "p5.brush" / "dist" / "p5.brush.js"
BRUSH_ESM_JS = NODE_MODULES / "p5.brush" / "dist" / "p5.brush.esm.js"

_EXPORT_LIST = re.compile(r"export\s*\{([^}]*)\}\s*;?\s*(?://[^\n]*\s*)*$")


class AssetsMissing(RuntimeError):
    """The npm libraries are not installed; the message says how to install them."""


def require(path: Path) -> Path:
    """Return `path`, or raise `AssetsMissing` with the command that installs it."""
    if not path.is_file():
        raise AssetsMissing(
            f"{path} is missing: install the pinned JS libraries with "
            f"`npm ci --prefix {JS_DIR}` (or run `bash scripts/setup.sh`)."
        )
    return path


@cache
def library_source(path: Path) -> str:
    """The text of one installed library file (read once per process)."""
    return require(path).read_text(encoding="utf-8")


@cache
def brush_methods() -> frozenset[str]:
    """Names p5.brush exports (`brush.<name>`), parsed from its ES-module build."""
    match = _EXPORT_LIST.search(library_source(BRUSH_ESM_JS))
    if match is None:
        raise AssetsMissing(f"no export list found at the end of {BRUSH_ESM_JS}")
    names = (item.split(" as ")[-1].strip() for item in match.group(1).split(","))
    return frozenset(name for name in names if name)


def versions() -> dict[str, str]:
    """Installed versions of the JS libraries (for run metadata)."""
    import json

    return {
        name: json.loads(require(NODE_MODULES / name / "package.json").read_text())["version"]
        for name in ("p5", "p5.brush")
    }
