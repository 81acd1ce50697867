"""Who paints WebGL: each mode's flags and what a page really gets (the side-by-side benchmark
of the modes is tests/bench/test_webgl.py's)."""

import pytest
from hydra.utils import instantiate

from watercolor.bench.webgl import parse_args
from watercolor.config import compose_train
from watercolor.render import RenderConfig
from watercolor.render.browser import WEBGL_FLAGS, chromium_flags

# The flags every mode keeps: headless, no sandbox, and the network walls.
SHARED = ["--headless", "--no-sandbox", "--disable-quic", "--host-resolver-rules=MAP * ~NOTFOUND",
          "--force-webrtc-ip-handling-policy=disable_non_proxied_udp",
          "--webrtc-ip-handling-policy=disable_non_proxied_udp"]  # fmt: skip
SOFTWARE = WEBGL_FLAGS["swiftshader"]


@pytest.mark.parametrize("mode", sorted(WEBGL_FLAGS))
def test_every_mode_keeps_the_walls_and_a_gpu_mode_never_asks_for_swiftshader(mode):
    flags = chromium_flags(js_heap_mb=256, marker="--m", webgl=mode)
    assert set(SHARED) <= set(flags), "a mode dropped a wall"
    if mode != "swiftshader":  # Chromium would paint on the CPU and the mode measure nothing
        assert not [flag for flag in flags if "swiftshader" in flag]


def test_modes_differ_only_in_their_webgl_flags():
    # Whatever the mode, the rest of the command line (heap, walls, marker, order) is the same.
    rest = [f for f in chromium_flags(256, "--m") if f not in SOFTWARE]
    for mode, flags in WEBGL_FLAGS.items():
        assert [f for f in chromium_flags(256, "--m", mode) if f not in flags] == rest, mode
    assert RenderConfig().webgl == "swiftshader"  # the default: paints without a GPU


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


@pytest.mark.browser
async def test_a_page_of_the_default_pool_gets_swiftshader(pool):
    info = await pool.webgl_renderer()
    assert info["context"] == "webgl2"
    assert "SwiftShader" in info["renderer"], info
