"""One warm render pool (two workers, 256 px) for the whole test session."""

import pytest
from render_sketches import SIZE, TIME_LIMIT_S

from watercolor.render import RenderConfig, RenderPool
from watercolor.tasks.painting.harness import HARNESS


@pytest.fixture(scope="session")
async def pool():
    async with RenderPool(
        RenderConfig(size=SIZE, workers=2, time_limit_s=TIME_LIMIT_S), HARNESS
    ) as pool:
        yield pool
