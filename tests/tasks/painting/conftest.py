"""One render pool for the painting-task browser tests.

Sketches keep their 600 x 600 coordinates; `pixel_density=0.5` renders a quarter of the pixels
(about 3x faster), which is all these tests need. The time limit is generous because the
samples are layered watercolours and CI machines are busy.
"""

import pytest

from watercolor.render import RenderConfig, RenderPool
from watercolor.tasks.painting.harness import HARNESS

TASK_RENDER = RenderConfig(pixel_density=0.5, workers=1, time_limit_s=30.0)


@pytest.fixture(scope="session")
async def painting_pool():
    async with RenderPool(TASK_RENDER, HARNESS) as pool:
        yield pool
