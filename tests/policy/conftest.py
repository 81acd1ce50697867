"""One smoke-scale tiny painter per test session, built into a temporary cache (~1 min)."""

import pytest

from watercolor.tasks.painting.painter.tiny import SMOKE, ensure_tiny_model


@pytest.fixture(scope="session")
def tiny_cache(tmp_path_factory):
    return tmp_path_factory.mktemp("tiny-cache")


@pytest.fixture(scope="session")
def smoke_model(tiny_cache):
    return ensure_tiny_model(SMOKE, tiny_cache, progress=False)
