"""The parts of the renderer that need no browser: harness document, flags, watchdog, config."""

import asyncio
import gc
import os
import subprocess
import sys

import pytest

from watercolor.render import RenderConfig
from watercolor.render.browser import chromium_executable, chromium_flags
from watercolor.render.page_harness import CONTENT_SECURITY_POLICY, fill_template, inline_script
from watercolor.render.watchdog import MemoryWatchdog, descendants, find_process, resident_mb
from watercolor.tasks.painting.assets import BRUSH_JS, P5_JS, library_source
from watercolor.tasks.painting.harness import HARNESS


def test_harness_inlines_both_libraries_and_fetches_nothing():
    html = HARNESS.document()
    assert len(html) > len(library_source(P5_JS)) + len(library_source(BRUSH_JS))
    assert "sourceMappingURL" not in html
    assert "__watercolor" in html
    assert " src=" not in html and "<link" not in html
    # p5, p5.brush and the harness runtime: three inline scripts, each closed exactly once.
    assert html.count("</script>") == 3


def test_a_template_gets_each_script_inlined_once_and_a_missing_marker_is_an_error(tmp_path):
    template = tmp_path / "page.html"
    template.write_text("<script>/*A*/</script><script>/*A*/</script>")
    html = fill_template(template, {"/*A*/": "x = '</script>';\n//# sourceMappingURL=x.map"})
    assert html == "<script>x = '<\\/script>';\n</script><script>/*A*/</script>"
    assert inline_script("a</script") == "a<\\/script"
    with pytest.raises(ValueError, match="no /\\*B\\*/ marker"):
        fill_template(template, {"/*B*/": ""})


def test_content_security_policy_walls_the_document_in():
    assert CONTENT_SECURITY_POLICY.startswith("sandbox allow-scripts allow-modals;")
    assert "default-src 'none'" in CONTENT_SECURITY_POLICY
    assert "allow-same-origin" not in CONTENT_SECURITY_POLICY  # opaque origin: no storage
    assert "connect-src" not in CONTENT_SECURITY_POLICY  # falls back to 'none'


def test_flags_cap_the_heap_and_use_software_webgl():
    flags = chromium_flags(js_heap_mb=128, marker="--watercolor-pool=abc")
    assert flags[0] == "--watercolor-pool=abc"
    assert "--js-flags=--max-old-space-size=128" in flags
    assert "--use-angle=swiftshader" in flags and "--headless" in flags
    assert any(flag.startswith("--host-resolver-rules=MAP * ~NOTFOUND") for flag in flags)


def test_executable_prefers_the_given_path_then_debian():
    assert chromium_executable("/opt/my/chrome") == "/opt/my/chrome"
    expected = "/usr/bin/chromium" if os.path.isfile("/usr/bin/chromium") else None
    assert chromium_executable(None) == expected


def test_config_defaults_are_the_agreed_interface():
    config = RenderConfig()
    assert (config.size, config.pixel_density, config.workers) == (600, 1.0, 2)
    assert (config.time_limit_s, config.max_frames, config.js_heap_mb) == (10.0, 3, 256)
    assert config.chromium is None


def test_watchdog_kills_a_renderer_over_the_limit_and_spares_others():
    marker = "--watercolor-test-marker"
    sleeper = "import time; time.sleep(60)"
    parent = subprocess.Popen(
        [sys.executable, "-c", _SPAWNER, marker, sleeper],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
    )  # fmt: skip
    try:
        renderer, helper = map(int, parent.stdout.readline().split())
        assert find_process(marker) == parent.pid
        assert {renderer, helper} <= set(descendants(parent.pid))
        assert resident_mb(renderer) > 1
        watchdog = MemoryWatchdog(marker, limit_mb=1)
        watchdog.check(parent.pid)
        assert watchdog.killed == [renderer]  # only the --type=renderer child
        assert parent.stdout.readline().split() == ["exited", str(renderer), "-9"]
        assert helper in descendants(parent.pid)
    finally:
        try:
            parent.communicate("\n", timeout=30)
        except subprocess.TimeoutExpired:
            parent.kill()
            parent.wait()


# Starts a fake "renderer" and a fake "helper" child, prints their pids, reports the renderer's end.
async def test_watchdog_loop_finds_the_renderers_and_kills_the_one_over_the_limit():
    # The loop itself (not one `check`): it finds the browser by its marker, lists its
    # renderers and reads their memory on every pass.
    marker = "--watercolor-test-marker-loop"
    parent = subprocess.Popen(
        [sys.executable, "-c", _SPAWNER, marker, "import time; time.sleep(60)"],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
    )  # fmt: skip
    watchdog = MemoryWatchdog(marker, limit_mb=1, interval_s=0.05)
    task = asyncio.ensure_future(watchdog.run())
    try:
        renderer, _ = map(int, parent.stdout.readline().split())
        for _ in range(200):
            if watchdog.killed:
                break
            await asyncio.sleep(0.05)
        assert watchdog.killed == [renderer]
    finally:
        task.cancel()
        try:
            parent.communicate("\n", timeout=30)
        except subprocess.TimeoutExpired:
            parent.kill()
            parent.wait()


# Each child says when its interpreter is up, and the pids are printed only then: a child read
# between its fork and its exec has a few KB resident (CI stop 30: 0.016 MB, under the 1 MB the
# test kills at).
_SPAWNER = """
import subprocess, sys
marker, code = sys.argv[1], "print('ready', flush=True); " + sys.argv[2]
renderer = subprocess.Popen([sys.executable, "-c", code, "--type=renderer"], stdout=subprocess.PIPE)
helper = subprocess.Popen([sys.executable, "-c", code, "--type=utility"], stdout=subprocess.PIPE)
assert renderer.stdout.readline() == helper.stdout.readline() == b"ready\\n"
print(renderer.pid, helper.pid, flush=True)
print("exited", renderer.pid, renderer.wait(), flush=True)
sys.stdin.readline()  # the test has looked at the helper: now end it
helper.kill()
helper.wait()
"""


def test_a_process_that_has_ended_has_no_descendants_memory_or_cpu():
    # A process can end between our reading of its pid and the scan below it (a browser closing
    # as the pool closes): it must read as no children, no memory and no CPU, not raise.
    from watercolor.render.watchdog import cpu_seconds, is_renderer

    ended = subprocess.Popen([sys.executable, "-c", "pass"])
    ended.wait()
    assert descendants(ended.pid) == []
    assert resident_mb(ended.pid) == 0.0
    assert cpu_seconds([ended.pid]) == 0.0
    assert not is_renderer(ended.pid)


async def test_an_opening_left_behind_fails_quietly(monkeypatch):
    # A page opening whose caller is cancelled (the pool closing) fails once its browser is
    # gone, with nobody awaiting it: its error must not reach asyncio's "never retrieved" log.
    from watercolor.render.page import BrowserGone, WarmPage

    async def opening_then_gone(browser, size, harness):
        await asyncio.sleep(0.05)
        raise BrowserGone("Target page, context or browser has been closed")

    monkeypatch.setattr(WarmPage, "_open", opening_then_gone)
    loop, unretrieved = asyncio.get_running_loop(), []
    previous = loop.get_exception_handler()
    loop.set_exception_handler(lambda _, context: unretrieved.append(context["message"]))
    try:
        caller = asyncio.ensure_future(WarmPage.open(None, 64, HARNESS))
        await asyncio.sleep(0.01)
        caller.cancel()
        await asyncio.gather(caller, return_exceptions=True)
        await asyncio.sleep(0.1)  # the opening fails now
        del caller  # its cancellation's traceback holds the opening
        gc.collect()  # an unretrieved error is logged when its task is collected
    finally:
        loop.set_exception_handler(previous)
    assert unretrieved == []
