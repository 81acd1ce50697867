"""`bench render_modes`' parts that measure (they assert no speed: goals live in the bench)."""

import re

import pytest
from render_sketches import SIZE, WATERCOLOUR

from watercolor.bench.common import RICH_DIR, sample_sketches
from watercolor.bench.render_modes import where_the_time_goes
from watercolor.render import RenderConfig

pytestmark = pytest.mark.browser


async def test_where_the_time_goes_splits_a_render_by_chromium_process():
    split = await where_the_time_goes([WATERCOLOUR], RenderConfig(size=SIZE))
    assert set(split) == {"gpu_s", "renderer_s", "browser_s", "gpu_share"}
    assert split["gpu_s"] > 0 and split["renderer_s"] > 0  # both did work for a watercolour
    assert 0 < split["gpu_share"] < 1


def test_the_rich_tier_is_the_size_frontier_models_write():
    sketches = sample_sketches(RICH_DIR)
    assert len(sketches) >= 3
    for sketch in sketches:
        assert sketch.count("\n") >= 100
        for method in ("wash", "set", "flowLine", "field"):
            assert re.search(rf"brush\.{method}\(", sketch), method
        fills = len(re.findall(r"brush\.(fill|wash)\(", sketch))
        assert fills >= 8  # written; loops make dozens of washes once run
