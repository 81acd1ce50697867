"""One render pool for the judge tests (the reference pool: tests/rewards/conftest.py).

Browser tests render the task's 600 x 600 sketches at `pixel_density=0.5` (300 px, the size of
the bundled references), one page at a time, with a generous time limit for busy CI machines.
"""

import pytest

from watercolor.render import RenderConfig, RenderPool
from watercolor.tasks.painting.harness import HARNESS

JUDGE_RENDER = RenderConfig(pixel_density=0.5, workers=1, time_limit_s=30.0)


@pytest.fixture(scope="session")
async def render_pool():
    async with RenderPool(JUDGE_RENDER, HARNESS) as pool:
        yield pool
