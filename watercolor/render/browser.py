"""Launching the headless Chromium the renderer drives (flags, executable, process tree).

    >>> from watercolor.render.browser import chromium_flags, chromium_executable
    >>> "--use-angle=swiftshader" in chromium_flags(js_heap_mb=256)
    True
    >>> chromium_executable(None)  # Debian's package here; None means Playwright's own browser
    '/usr/bin/chromium'

WebGL comes from SwiftShader (software), so p5.brush paints on machines without a GPU. The
network flags are a second wall behind the page's CSP and Playwright's request routing: every
host name resolves to nothing, and WebRTC may not send UDP outside a proxy (there is none).
"""

from __future__ import annotations

from pathlib import Path

from playwright.async_api import Browser, Playwright

DEBIAN_CHROMIUM = "/usr/bin/chromium"


def chromium_flags(js_heap_mb: int, marker: str = "") -> list[str]:
    """Command-line flags for a headless, offline, software-WebGL Chromium.

    `marker` is an extra flag Chromium ignores; it lets the memory watchdog find this browser.
    """
    return [marker] * bool(marker) + [
        "--headless",
        "--no-sandbox",  # we run as root in containers; see pool.py on what that means
        "--disable-gpu",
        "--use-angle=swiftshader",
        "--enable-unsafe-swiftshader",
        f"--js-flags=--max-old-space-size={js_heap_mb}",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--disable-extensions",
        "--disable-default-apps",
        "--disable-dev-shm-usage",
        "--disable-back-forward-cache",  # a finished sketch's document must not live on
        "--disable-background-timer-throttling",
        "--disable-renderer-backgrounding",
        "--disable-backgrounding-occluded-windows",
        "--mute-audio",
        "--deny-permission-prompts",
        "--host-resolver-rules=MAP * ~NOTFOUND",
        "--force-webrtc-ip-handling-policy=disable_non_proxied_udp",
        "--webrtc-ip-handling-policy=disable_non_proxied_udp",
    ]


def chromium_executable(path: str | None) -> str | None:
    """The browser to launch: `path`, else Debian's Chromium, else None (Playwright's own)."""
    if path:
        return path
    return DEBIAN_CHROMIUM if Path(DEBIAN_CHROMIUM).is_file() else None


async def launch(
    playwright: Playwright, *, executable: str | None, js_heap_mb: int, marker: str = ""
) -> Browser:
    """Start one headless Chromium."""
    return await playwright.chromium.launch(
        executable_path=chromium_executable(executable),
        args=chromium_flags(js_heap_mb, marker),
        headless=True,
        handle_sigint=False,
        handle_sigterm=False,
        handle_sighup=False,
    )
