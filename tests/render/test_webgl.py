"""Who paints WebGL: each mode's flags, what a page really gets, and the side-by-side bench."""

import json
import subprocess
import sys
from pathlib import Path

import pytest
from hydra.utils import instantiate
from render_sketches import WATERCOLOUR

from watercolor.bench.webgl import parse_args, sketch_tiers, versus_baseline
from watercolor.config import compose_train, reward_set
from watercolor.render import RenderConfig
from watercolor.render.browser import WEBGL_FLAGS, chromium_flags

ROOT = Path(__file__).resolve().parents[2]
# The flags every mode keeps: headless, no sandbox, and the network walls.
SHARED = ["--headless", "--no-sandbox", "--disable-quic", "--host-resolver-rules=MAP * ~NOTFOUND",
          "--force-webrtc-ip-handling-policy=disable_non_proxied_udp",
          "--webrtc-ip-handling-policy=disable_non_proxied_udp"]  # fmt: skip
SOFTWARE = ["--disable-gpu", "--use-angle=swiftshader", "--enable-unsafe-swiftshader"]
# The flags before `webgl` existed: swiftshader must keep them, in this order.
BEFORE_WEBGL = ["--m", "--headless", "--no-sandbox", *SOFTWARE,
                "--js-flags=--max-old-space-size=256", "--disable-quic", "--no-first-run",
                "--disable-background-networking",
                "--disable-component-update", "--disable-sync", "--disable-extensions",
                "--disable-default-apps", "--disable-dev-shm-usage", "--disable-back-forward-cache",
                "--disable-background-timer-throttling", "--disable-renderer-backgrounding",
                "--disable-backgrounding-occluded-windows", "--mute-audio",
                "--deny-permission-prompts", "--host-resolver-rules=MAP * ~NOTFOUND",
                "--force-webrtc-ip-handling-policy=disable_non_proxied_udp",
                "--webrtc-ip-handling-policy=disable_non_proxied_udp"]  # fmt: skip

MODES = [
    ("swiftshader", SOFTWARE, ["--enable-gpu", "--ignore-gpu-blocklist"]),
    (
        "egl",
        ["--use-gl=angle", "--use-angle=gl-egl", "--enable-gpu", "--ignore-gpu-blocklist"],
        SOFTWARE,
    ),
    (
        "vulkan",
        [
            "--use-gl=angle",
            "--use-angle=vulkan",
            "--use-vulkan=native",
            "--enable-gpu",
            "--enable-features=Vulkan,VulkanFromANGLE,DefaultANGLEVulkan",
            "--disable-vulkan-surface",
            "--ignore-gpu-blocklist",
        ],
        SOFTWARE,
    ),
]


@pytest.mark.parametrize(("mode", "present", "absent"), MODES, ids=[m for m, _, _ in MODES])
def test_each_mode_asks_for_its_painter_and_keeps_the_walls(mode, present, absent):
    flags = chromium_flags(js_heap_mb=256, marker="--m", webgl=mode)
    assert set(present) <= set(flags)
    assert not set(absent) & set(flags)
    assert set(SHARED) <= set(flags)
    if mode != "swiftshader":
        assert not [flag for flag in flags if "swiftshader" in flag]


def test_modes_differ_only_in_their_webgl_flags_and_swiftshader_is_the_old_set():
    assert chromium_flags(256, "--m") == chromium_flags(256, "--m", "swiftshader") == BEFORE_WEBGL
    assert RenderConfig().webgl == "swiftshader"
    rest = [flag for flag in BEFORE_WEBGL if flag not in SOFTWARE]
    for mode, flags in WEBGL_FLAGS.items():
        assert [f for f in chromium_flags(256, "--m", mode) if f not in flags] == rest, mode


def test_an_unknown_mode_is_refused_naming_the_known_ones():
    known = r"\['egl', 'swiftshader', 'vulkan'\]"
    with pytest.raises(ValueError, match=rf"unknown webgl mode 'opengl'; choose from {known}"):
        chromium_flags(256, webgl="opengl")
    with pytest.raises(ValueError, match=known):
        RenderConfig(webgl="gpu")
    with pytest.raises(SystemExit):
        parse_args(["--modes", "swiftshader,cuda"])


def test_the_gpu_renderer_is_local_on_egl():
    local, gpu = (compose_train([f"renderer={option}"]).renderer for option in ("local", "gpu"))
    assert local.webgl == "swiftshader" and gpu.webgl == "egl"
    assert {k: v for k, v in gpu.items() if k != "webgl"} == {
        k: v for k, v in local.items() if k != "webgl"
    }
    assert instantiate(gpu).webgl == "egl"


def test_the_bench_paints_samples_and_replies_with_training_and_rich_renderers(tmp_path):
    replies = tmp_path / "replies.json"
    replies.write_text(json.dumps([f"```javascript\n{WATERCOLOUR}\n```", "no code here"]))
    tiers = sketch_tiers(parse_args(["--replies", str(replies), "--rich", "--workers", "3"]))
    (local, sketches), (rich, rich_sketches) = tiers["sketches"], tiers["rich"]
    assert sketches[-1].strip() == WATERCOLOUR.strip() and len(sketches) == 8  # 7 samples + 1
    assert (local.time_limit_s, rich.time_limit_s) == (10.0, 60.0)
    assert local.workers == rich.workers == 3 and len(rich_sketches) >= 3
    assert len(sketch_tiers(parse_args(["--limit", "2"]))["sketches"][1]) == 2


@pytest.mark.browser
async def test_a_page_of_the_default_pool_gets_swiftshader(pool):
    info = await pool.webgl_renderer()
    assert info["context"] == "webgl2"
    assert "SwiftShader" in info["renderer"], info


@pytest.mark.browser
async def test_canvases_are_compared_sketch_by_sketch(pool):
    rewards = reward_set("fine_grained")
    painted = await pool.render_batch([WATERCOLOUR, WATERCOLOUR], seeds=[1, 2])
    same = versus_baseline(painted, painted, rewards)
    assert same["status_agreement"] == 1.0 and same["scored_by_both"] == 2
    assert same["score_max_diff"] == same["score_mean_diff"] == 0.0
    assert same["score_within_tolerance"] == 1.0
    assert same["max_differing_pixel_share"] == 0.0 and same["max_channel_difference"] == 0
    broken = await pool.render("throw new Error('no painting today')", seed=1)
    moved = versus_baseline([painted[1], broken], painted, rewards)  # other seed; an error
    assert moved["status_agreement"] == 0.5
    assert moved["max_differing_pixel_share"] > 0.01  # the other seed moved the washes


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
