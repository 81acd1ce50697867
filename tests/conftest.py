"""The tests' root. `tests/` mirrors `watercolor/`: a package's tests sit in `tests/<package>/`,
the entry points' and base modules' here.

Test files are imported by path (pyproject.toml: `--import-mode=importlib`), so two packages'
tests may share a name; the folders that keep shared helpers are on `sys.path` (its `pythonpath`),
so the helpers kept here (`train_helpers.py`: `python -m watercolor.train` for real) import as
top-level modules from any folder below, e.g. `tests/training/` and `tests/env/`.
"""

import pytest

from watercolor.tasks.painting.painter.tiny import SMOKE, ensure_tiny_model


@pytest.fixture(scope="session")
def tiny_cache(tmp_path_factory):
    return tmp_path_factory.mktemp("tiny-cache")


@pytest.fixture(scope="session")
def smoke_model(tiny_cache):
    """One smoke-scale tiny painter per test session (a worker's), built into a temporary cache
    (~1 min): the painter's tests (tests/tasks/painting/painter/) and the policy's load it."""
    return ensure_tiny_model(SMOKE, tiny_cache, progress=False)
