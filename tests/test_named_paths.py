"""Every `*.py` file that README.md, docs/ and the package's module docstrings name exists, so a
rename that leaves an old name behind fails here (issue 55).

How a name is read (the rule):
- `top/...py` whose first part is a folder at the repository's root (`watercolor/`, `tests/`,
  `scripts/`, `experiments/`, ...): that path from the root.
- Any other path with a slash, `render/pool.py`: inside `watercolor/`; in a module's docstring
  also from the module's own folder or a folder above it (`painter/tiny.py` in
  `tasks/painting/episode.py`).
- A bare name, `pool.py`: in a module's docstring, a module of its own folder or a folder above
  it, else the only module of that name in `watercolor/` (`harness.py` has two: name the folder);
  on a page, any file of that name in the repository (pages list files in trees and tables).
Names with a placeholder (`test_<module>.py`, `*.py`) and URLs are not read.
"""

from __future__ import annotations

import ast
import re
import subprocess
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
PAGES = [REPO / "README.md", *sorted((REPO / "docs").rglob("*.md"))]
MODULES = sorted((REPO / "watercolor").rglob("*.py"))
# A `.py` name not inside a longer word, a URL or a placeholder; a `:line` or `::test` may follow.
PY_NAME = re.compile(r"(?<![\w./<>*{}$-])((?:[\w.-]+/)*[\w-][\w.-]*\.py)(?![\w/])")


def repo_files() -> set[str]:
    """The repository's files, as a fresh clone has them (tracked), and new ones not ignored."""
    listed = subprocess.run(
        ["git", "ls-files", "--cached", "--others", "--exclude-standard"],
        cwd=REPO, capture_output=True, text=True, check=True,
    ).stdout.split()  # fmt: skip
    return {name for name in listed if (REPO / name).is_file()}


FILES = repo_files()
TOP = {name.split("/", 1)[0] for name in FILES if "/" in name}
PACKAGE = sorted(name for name in FILES if name.startswith("watercolor/"))


def folders_up(module: Path) -> list[str]:
    """`module`'s folder and each folder above it up to `watercolor/`, as repo paths with a `/`."""
    folder, up = module.parent, []
    while folder != REPO:
        up.append(f"{folder.relative_to(REPO)}/")
        folder = folder.parent
    return up


def exists(name: str, module: Path | None) -> bool:
    """Whether `name`, read by the module docstring's rule (`module`) or a page's (None), exists."""
    if "/" in name and name.split("/", 1)[0] in TOP:
        return name in FILES
    places = ["watercolor/"] if "/" in name else []
    if module is not None:
        places += folders_up(module)
    if any(f"{place}{name}" in FILES for place in places):
        return True
    if "/" in name:
        return False
    if module is not None:
        return len([f for f in PACKAGE if f.endswith(f"/{name}")]) == 1
    return any(f == name or f.endswith(f"/{name}") for f in FILES)


def missing(text: str, module: Path | None = None) -> list[str]:
    return sorted({m.group(1) for m in PY_NAME.finditer(text) if not exists(m.group(1), module)})


@pytest.mark.parametrize("page", PAGES, ids=lambda p: str(p.relative_to(REPO)))
def test_every_py_file_a_page_names_exists(page):
    gone = missing(page.read_text())
    assert not gone, f"{page.relative_to(REPO)} names files that are not there: {gone}"


def test_every_py_file_a_module_docstring_names_exists():
    gone = {}
    for module in MODULES:
        docstring = ast.get_docstring(ast.parse(module.read_text()), clean=False) or ""
        if names := missing(docstring, module):
            gone[str(module.relative_to(REPO))] = names
    assert not gone, f"module docstrings name files that are not there: {gone}"


@pytest.mark.parametrize(
    ("text", "module", "gone"),
    [
        ("see watercolor/render/pool.py:51 and tests/test_docs.py::x", None, []),
        ("watercolor/render/pools.py", None, ["watercolor/render/pools.py"]),
        ("render/pool.py, bench/train.py", None, ["bench/train.py"]),
        ("tests/<package>/test_<module>.py, conf/*.py, https://x.org/a/b.py", None, []),
        ("webgl.py and grpo_steps.py; render.py", "watercolor/bench/__init__.py", ["render.py"]),
        ("harness.py", "watercolor/render/pool.py", ["harness.py"]),  # two: say which
        ("page_harness.py, painter/tiny.py", "watercolor/tasks/painting/episode.py", []),
    ],
)
def test_the_rule_reads_each_kind_of_name(text, module, gone):
    assert missing(text, module and REPO / module) == gone
