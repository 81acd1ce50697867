"""Launching the headless Chromium the renderer drives (flags, executable, process tree).

    >>> from watercolor.render.browser import chromium_flags, chromium_executable
    >>> "--use-angle=swiftshader" in chromium_flags(js_heap_mb=256)
    True
    >>> "--use-angle=gl-egl" in chromium_flags(js_heap_mb=256, webgl="egl")
    True
    >>> chromium_executable(None)  # Debian's package here; None means Playwright's own browser
    '/usr/bin/chromium'

`webgl` chooses who paints WebGL, through ANGLE (`WEBGL_FLAGS`):
  swiftshader  SwiftShader, software on the CPU (the default), so p5.brush paints on machines
               without a GPU;
  egl          ANGLE over the system's native EGL/OpenGL driver (on an NVIDIA machine, its
               libEGL_nvidia through glvnd);
  vulkan       ANGLE over the system's Vulkan driver (the ICD the Vulkan loader finds).
A GPU mode is a request, not a promise: when its driver cannot start, Chromium quietly paints
with SwiftShader instead (Playwright always adds `--enable-unsafe-swiftshader`), and egl takes
whatever EGL the system offers (on a machine without a GPU, Mesa's llvmpipe: software too), so
check what a page really got with `webgl_renderer`. Every other flag is the same in all modes.

The network flags are a second wall behind the page's CSP and Playwright's request routing: every
host name resolves to nothing, and WebRTC may not send UDP outside a proxy (there is none).
"""

from __future__ import annotations

from pathlib import Path

from playwright.async_api import Browser, Playwright

DEBIAN_CHROMIUM = "/usr/bin/chromium"

# The flags of each WebGL mode, by Chromium's own names: --use-angle's values are in
# ui/gl/gl_switches.cc, --use-vulkan and --disable-vulkan-surface in
# gpu/command_buffer/service/gpu_switches.cc, the Vulkan features in gpu/config/
# gpu_finch_features.cc and ui/gl/gl_switches.cc, --enable-gpu (headless mode's "stop forcing
# SwiftShader") in chrome/browser/headless/headless_mode_switches.h.
WEBGL_FLAGS = {
    "swiftshader": ["--disable-gpu", "--use-angle=swiftshader", "--enable-unsafe-swiftshader"],
    "egl": ["--enable-gpu", "--use-gl=angle", "--use-angle=gl-egl", "--ignore-gpu-blocklist"],
    "vulkan": [
        "--enable-gpu",
        "--use-gl=angle",
        "--use-angle=vulkan",
        # Vulkan for Chromium's compositing, its device shared with ANGLE, ANGLE on Vulkan.
        # Chromium keeps only the last --enable-features (seen in its GPU process's command
        # line), so Playwright's own two are off in this mode: CDPScreenshotNewSurface (we never
        # screenshot) and SkipListAccountsWithoutGaiaCookies (a start-up request to Google that
        # --host-resolver-rules refuses anyway).
        "--enable-features=Vulkan,VulkanFromANGLE,DefaultANGLEVulkan",
        "--use-vulkan=native",  # the system's driver, not SwiftShader's Vulkan
        "--disable-vulkan-surface",  # no window to present to: no VK_KHR_surface, blit instead
        "--ignore-gpu-blocklist",
    ],
}


def webgl_flags(webgl: str) -> list[str]:
    """The flags that make `webgl` paint WebGL; a ValueError names the modes for any other."""
    if webgl not in WEBGL_FLAGS:
        raise ValueError(f"unknown webgl mode {webgl!r}; choose from {sorted(WEBGL_FLAGS)}")
    return list(WEBGL_FLAGS[webgl])


def chromium_flags(js_heap_mb: int, marker: str = "", webgl: str = "swiftshader") -> list[str]:
    """Command-line flags for a headless, offline Chromium painting WebGL with `webgl`.

    `marker` is an extra flag Chromium ignores; it lets the memory watchdog find this browser.
    """
    return [marker] * bool(marker) + [
        "--headless",
        "--no-sandbox",  # we run as root in containers; see pool.py on what that means
        *webgl_flags(webgl),
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
    playwright: Playwright,
    *,
    executable: str | None,
    js_heap_mb: int,
    marker: str = "",
    webgl: str = "swiftshader",
) -> Browser:
    """Start one headless Chromium painting WebGL with `webgl` (see `WEBGL_FLAGS`)."""
    return await playwright.chromium.launch(
        executable_path=chromium_executable(executable),
        args=chromium_flags(js_heap_mb, marker, webgl),
        headless=True,
        handle_sigint=False,
        handle_sigterm=False,
        handle_sighup=False,
    )


# What a page's WebGL runs on: ANGLE's unmasked renderer names the backend and the device,
# e.g. "ANGLE (Google, Vulkan 1.3.0 (SwiftShader Device (Subzero) ...), SwiftShader driver)".
WEBGL_RENDERER_JS = """() => {
  const canvas = document.createElement('canvas');
  for (const context of ['webgl2', 'webgl']) {
    const gl = canvas.getContext(context);
    if (!gl) continue;
    const info = gl.getExtension('WEBGL_debug_renderer_info');
    return {
      context,
      vendor: String(gl.getParameter(info ? info.UNMASKED_VENDOR_WEBGL : gl.VENDOR)),
      renderer: String(gl.getParameter(info ? info.UNMASKED_RENDERER_WEBGL : gl.RENDERER)),
    };
  }
  return {context: 'none', vendor: '', renderer: ''};
}"""


async def webgl_renderer(browser: Browser) -> dict[str, str]:
    """The WebGL a fresh page of `browser` gets: `context` (webgl2, webgl or none), and the
    unmasked `vendor` and `renderer` strings (empty without a context)."""
    page = await browser.new_page()
    try:
        return await page.evaluate(WEBGL_RENDERER_JS)
    finally:
        await page.context.close()
