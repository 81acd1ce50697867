"""A sketch's verdict does not depend on machine load or on its neighbours: its time limit is the
CPU time its own lane's browser spends on it (with a wall-clock backstop), not wall time.

Through real Chromium with a real heavy sketch (the rich bench tier, ~120 lines of washes) at the
training renderer's size and density, beside busy-loop processes that keep every core busy.
"""

import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import pytest
from render_sketches import sketch

from watercolor.canvas import Status
from watercolor.render import RenderConfig, RenderPool
from watercolor.render.pool import WALL_LIMIT_FACTOR
from watercolor.tasks.painting.harness import HARNESS

pytestmark = [pytest.mark.browser, pytest.mark.slow]

RICH = (
    Path(__file__).resolve().parents[2] / "watercolor/render/bench_sketches/rich/harbour_dusk.js"
).read_text()
TRAINING = RenderConfig(size=600, pixel_density=0.5, workers=2)
# Washes handed to WebGL in a loop, far past any limit.
FLOOD = sketch("""
  brush.fillBleed(0.4); brush.fillTexture(0.8, 0.5);
  for (let i = 0; i < 4000; i++) { brush.fill(120, 30, 50, 80); brush.rect(-128, -128, 256, 256); }
""")
HEADROOM = 1.5  # the limit, as a multiple of the sketch's own CPU time alone
# Busy loops beside it (in CI, three in the test's own session left its wall time under its
# limit: the browser's session kept its share of the cores).
BURNERS = 4


def busy_cores(count: int) -> list[subprocess.Popen]:
    # Each in its own session: with autogroup scheduling, CPU is shared between sessions first,
    # and loops in the test's own session would only compete with the test.
    return [
        subprocess.Popen([sys.executable, "-c", "while True: pass"], start_new_session=True)
        for _ in range(count)
    ]


async def test_a_heavy_sketch_keeps_its_verdict_under_load_and_beside_overruns():
    async with RenderPool(replace(TRAINING, time_limit_s=120), HARNESS) as probe:
        alone = await probe.render(RICH, seed=3)
    assert alone.status == Status.OK, alone.errors
    limit_s = HEADROOM * alone.timings["cpu_ms"] / 1000  # a sketch that needs 2/3 of its limit

    async with RenderPool(replace(TRAINING, time_limit_s=limit_s), HARNESS) as pool:
        again = await pool.render(RICH, seed=3)
        burners = busy_cores(BURNERS)
        try:
            loaded = await pool.render(RICH, seed=3)
        finally:
            for burner in burners:
                burner.kill()
        beside = await pool.render_batch([FLOOD, RICH, FLOOD], seeds=3)

    assert again.status == Status.OK, again.errors
    assert loaded.status == Status.OK, loaded.errors
    # The load mattered: a wall-clock limit would have stopped this sketch.
    assert loaded.timings["draw_ms"] / 1000 > limit_s, (loaded.timings, limit_s)
    assert loaded.timings["draw_ms"] / 1000 < WALL_LIMIT_FACTOR * limit_s
    assert [c.status for c in beside] == [Status.TIMEOUT, Status.OK, Status.TIMEOUT], [
        c.errors for c in beside
    ]
    assert "CPU time" in beside[0].errors[0]
