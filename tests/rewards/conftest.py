"""The bundled reference pool, for the judge and reference-pool tests below this folder.

This folder is on `sys.path` (pyproject.toml's `pythonpath`), so `judge_helpers.py` serves
`judges/` and the HPSv3 tests here.
"""

import pytest

from watercolor.rewards.reference_pool import ReferencePool, load_pool


@pytest.fixture(scope="session")
def references() -> ReferencePool:
    return load_pool()
