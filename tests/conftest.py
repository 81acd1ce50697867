"""The tests' root. `tests/` mirrors `watercolor/`: a package's tests sit in `tests/<package>/`,
the entry points' and base modules' here.

Pytest's default (prepend) import mode puts each conftest's folder on `sys.path`, so the helpers
kept here (`train_helpers.py`: `python -m watercolor.train` for real) import as top-level
modules from any folder below, e.g. `tests/training/` and `tests/env/`.
"""
