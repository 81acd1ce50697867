"""`python -m watercolor.bench webgl` (watercolor/bench/webgl.py): which sketches it paints, how
it compares a mode's canvases with the baseline's, and the whole benchmark run (slow). The
render modes' flags themselves are tests/render/test_browser.py's."""

import json
import subprocess
import sys
from pathlib import Path

import pytest
from render_sketches import SIZE, WATERCOLOUR

from watercolor.bench.webgl import parse_args, sketch_tiers, versus_baseline
from watercolor.config import reward_set
from watercolor.render import RenderConfig, RenderPool
from watercolor.tasks.painting.harness import HARNESS

ROOT = Path(__file__).resolve().parents[2]


def test_the_bench_paints_samples_and_replies_with_training_and_rich_renderers(tmp_path):
    replies = tmp_path / "replies.json"
    replies.write_text(json.dumps([f"```javascript\n{WATERCOLOUR}\n```", "no code here"]))
    tiers = sketch_tiers(parse_args(["--replies", str(replies), "--rich", "--workers", "3"]))
    (local, sketches), (rich, rich_sketches) = tiers["sketches"], tiers["rich"]
    assert sketches[-1].strip() == WATERCOLOUR.strip() and len(sketches) == 8  # 7 samples + 1
    assert (local.time_limit_s, rich.time_limit_s) == (10.0, 60.0)
    assert local.workers == rich.workers == 3 and len(rich_sketches) >= 3
    assert len(sketch_tiers(parse_args(["--limit", "2"]))["sketches"][1]) == 2


@pytest.mark.slow  # slow tier: experiments/2026-12-07_test_tiers
@pytest.mark.browser
async def test_canvases_are_compared_sketch_by_sketch():
    rewards = reward_set("fine_grained")
    async with RenderPool(RenderConfig(size=SIZE, workers=2), HARNESS) as pool:
        painted = await pool.render_batch([WATERCOLOUR, WATERCOLOUR], seeds=[1, 2])
        broken = await pool.render("throw new Error('no painting today')", seed=1)
    same = versus_baseline(painted, painted, rewards)
    assert same["status_agreement"] == 1.0 and same["scored_by_both"] == 2
    assert same["score_max_diff"] == same["score_mean_diff"] == 0.0
    assert same["score_within_tolerance"] == 1.0
    assert same["max_differing_pixel_share"] == 0.0 and same["max_channel_difference"] == 0
    moved = versus_baseline([painted[1], broken], painted, rewards)  # other seed; an error
    assert moved["status_agreement"] == 0.5
    assert moved["max_differing_pixel_share"] > 0.01  # the other seed moved the washes


@pytest.mark.slow  # the benchmark run end to end, ~23 s (command 2's budget, issue 45)
@pytest.mark.browser
def test_the_bench_measures_swiftshader_and_measures_egl_only_on_the_gpu():
    command = [sys.executable, "-m", "watercolor.bench.webgl", "--modes", "swiftshader,egl",
               "--limit", "2", "--workers", "1", "--json"]  # fmt: skip
    run = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stdout[-2000:] + run.stderr[-2000:]
    figures = json.loads(run.stdout.splitlines()[-1])
    base, egl = figures["swiftshader"], figures["egl"]
    assert "SwiftShader" in base["renderer"] and "skipped" not in base
    assert base["sketches_per_s"] > 0 and base["sketches_per_core_s"] > 0
    assert base["sketches_failures"] == [] and base["sketches_cpu_s"]["gpu_s"] > 0
    if egl["on_gpu"]:  # a machine with an NVIDIA GPU that its driver reaches
        assert "NVIDIA" in egl["renderer"] and egl["sketches_status_agreement"] is not None
    else:  # here: Mesa's software EGL, SwiftShader, or no browser; reported, never measured
        reason = egl["skipped"]
        assert reason.startswith("WebGL is not on the NVIDIA GPU") or "Error" in reason
        assert "sketches_per_s" not in egl and "sketches_per_s_ratio" not in egl
