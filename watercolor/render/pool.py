"""Render a task's code in a pool of warm, sandboxed headless-Chromium pages.

    >>> import asyncio
    >>> from watercolor.render import RenderConfig, RenderPool
    >>> from watercolor.tasks.painting.harness import harness  # a task's page (Task.harness)
    >>> SKETCH = "function setup() { createCanvas(256, 256, WEBGL); background(200); }"
    >>> async def paint(code):
    ...     async with RenderPool(RenderConfig(size=256), harness()) as pool:
    ...         return await pool.render(code, seed=1)
    >>> canvas = asyncio.run(paint(SKETCH))
    >>> canvas.status, canvas.rgba.shape
    (<Status.OK: 'ok'>, (256, 256, 4))

`workers` lanes, each its own browser running one sketch at a time on two warm pages, each page
holding a fresh document of the task's harness (its contract: `page_harness.py`). `render` never
raises for a bad sketch: its `Canvas` says what happened, and `infra_error` only when *we*
failed, so a trainer can drop the sample instead of scoring a fake zero.

What it isolates: network (the document's CSP, Playwright's routing, Chromium's flags), files and
storage (an opaque origin), state (a new document per sketch), time (`time_limit_s` of the lane
browser's CPU time, a wall-clock backstop), memory (a capped V8 heap, a watchdog on renderer
memory), dialogs and navigation. What it does not: Chromium runs with `--no-sandbox`, its own
bugs, side channels, CPU contention. Always close the pool (`async with`). Each of these in
detail, with determinism and WebGL on a GPU: docs/environment.md, "The render pool".
"""

from __future__ import annotations

import asyncio
import contextlib
import secrets
import time
import weakref
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

import psutil
from playwright.async_api import Browser, Playwright, async_playwright
from playwright.async_api import Error as PlaywrightError

from watercolor.canvas import Canvas, Status
from watercolor.render.browser import launch, webgl_flags, webgl_renderer
from watercolor.render.page import BrowserGone, HarnessBroken, WarmPage
from watercolor.render.page_harness import Harness
from watercolor.render.watchdog import (
    CpuMeter,
    MemoryWatchdog,
    adopt_orphans,
    adopted_browser_processes,
    descendants,
    find_process,
    reap_browser_zombies,
)

# Pages kept beyond `workers`, so a page loading its next document never delays a sketch.
SPARE_PAGES = 1
# A sketch is run again when the pool restarts its browser under it (after another sketch
# timed out); this many restarts at most, then `infra_error`.
MAX_RESTARTS_PER_SKETCH = 3

# A sketch's time limit is CPU time of its browser; on a machine so busy that the sketch gets
# little CPU, it is also stopped after this many times the limit of wall time.
WALL_LIMIT_FACTOR = 3.0

# A renderer process (V8 heap + canvases + typed arrays) may use this many times js_heap_mb.
RENDERER_MEMORY_FACTOR = 4

# Same code + seed, watercolour fills: at most this share of pixels differ, by at most this much.
DETERMINISM_TOLERANCE = {"max_differing_fraction": 0.001, "max_channel_difference": 32}


@dataclass(frozen=True)
class RenderConfig:
    size: int = 600  # canvas CSS size the harness expects (sketch coordinates)
    pixel_density: float = 1.0  # p5 pixelDensity; <1 renders fewer pixels, same coordinates
    workers: int = 2  # warm pages
    time_limit_s: float = 10.0  # CPU s per sketch (setup + frames + read-back); see above
    max_frames: int = 3  # draw() frames before an animated sketch is stopped
    js_heap_mb: int = 256  # --js-flags=--max-old-space-size
    chromium: str | None = None  # path; None -> /usr/bin/chromium, else Playwright's own browser
    webgl: str = "swiftshader"  # who paints WebGL: swiftshader (CPU), egl or vulkan (GPU)

    def __post_init__(self) -> None:
        webgl_flags(self.webgl)  # an unknown mode fails here, naming the known ones


class Retired(RuntimeError):
    """The pool closed the sketch's browser on purpose (a neighbour's time-out): run it again."""


class RenderPool:
    """`workers` lanes, each one headless Chromium running one sketch at a time; use as
    `async with RenderPool(config, harness) as pool`, `harness` the task's page
    (`watercolor.render.page_harness.Harness`; `Task.harness`).

    A sketch runs alone in its lane's browser, so the CPU its browser spends while it runs is
    its own (its time limit is counted in that CPU time) and a neighbour that floods its GPU
    process slows nobody else.
    """

    def __init__(self, config: RenderConfig, harness: Harness) -> None:
        self.config, self.harness = config, harness
        lane = replace(config, workers=1)
        self.lanes = [BrowserLane(lane, harness) for _ in range(max(1, config.workers))]
        self._idle: asyncio.Queue[BrowserLane] | None = None  # made on the loop that renders

    async def __aenter__(self) -> RenderPool:
        await self.start()
        return self

    async def __aexit__(self, *exc_info) -> None:
        await self.close()

    async def start(self) -> None:
        """Launch every lane's browser and warm its pages (`async with` does it)."""
        await asyncio.gather(*(lane.start() for lane in self.lanes))

    async def close(self) -> None:
        """Close every lane. Safe to call twice."""
        await asyncio.gather(*(lane.close() for lane in self.lanes))
        self._idle = None

    @property
    def launches(self) -> int:
        """How many browsers this pool has started (relaunches show here)."""
        return sum(lane.launches for lane in self.lanes)

    def browser_pid(self) -> int | None:
        """The pid of the first lane's Chromium (Linux), for diagnostics and tests."""
        return self.lanes[0].browser_pid()

    async def webgl_renderer(self) -> dict[str, str]:
        """What WebGL a fresh page of the first lane's browser gets (`browser.webgl_renderer`):
        a GPU mode whose driver did not start paints in software without a word."""
        return await self.lanes[0].webgl_renderer()

    async def render(self, sketch: str, seed: int = 0, paper: str | None = None) -> Canvas:
        """Run one sketch (raw JS) on the next free lane and return its Canvas. Never raises
        for a bad sketch. `paper` (a CSS colour) asks the harness to paint that paper instead
        of the one the sketch asks for (painting's harness: every `background()`). Timings:
        `load_ms` until the sketch started (waiting for a free lane and warm page), `draw_ms`
        in the page, `total_ms` for the whole call, `cpu_ms` the CPU
        time its browser spent on it (what the time limit counts; Linux)."""
        if self._idle is None:
            self._idle = asyncio.Queue()
            for lane in self.lanes:
                self._idle.put_nowait(lane)
        idle, started = self._idle, time.perf_counter()
        lane = await idle.get()
        waited_ms = (time.perf_counter() - started) * 1000
        try:
            canvas = await lane.render(sketch, seed, paper)
        finally:
            idle.put_nowait(lane)
        timings = dict(canvas.timings)
        for key in ("load_ms", "total_ms"):
            timings[key] = timings.get(key, 0.0) + waited_ms
        return replace(canvas, timings=timings)

    async def render_batch(
        self, sketches: Sequence[str], seeds: Sequence[int] | int = 0
    ) -> list[Canvas]:
        """Render many sketches concurrently over the lanes, results in input order."""
        if isinstance(seeds, int):
            seeds = [seeds] * len(sketches)
        if len(seeds) != len(sketches):
            raise ValueError(f"{len(sketches)} sketches but {len(seeds)} seeds")
        return list(await asyncio.gather(*map(self.render, sketches, seeds)))


class BrowserLane:
    """One headless Chromium and its warm pages, running `workers` sketches at once (the pool
    gives each lane one). It holds one page more than that, so a page that is loading its next
    document never holds up the next sketch.
    """

    def __init__(self, config: RenderConfig, harness: Harness) -> None:
        self.config, self.harness = config, harness
        self._playwright: Playwright | None = None
        self._browser: Browser | None = None
        # A fixed number of page tokens circulate: a warm page, or None ("open one when taken").
        self._pages: asyncio.Queue[WarmPage | None] = asyncio.Queue()
        self._page_count = config.workers + SPARE_PAGES
        self._pages_issued = False
        self._slots = asyncio.Semaphore(config.workers)
        self._lock = asyncio.Lock()  # one (re)launch at a time
        self._background: set[asyncio.Task] = set()
        self._watchdog: asyncio.Task | None = None
        self.marker = f"--watercolor-pool={secrets.token_hex(8)}"  # the watchdog finds it by this
        self.launches = 0  # how many browsers this pool has started (relaunches show here)
        self._retired: weakref.WeakSet[Browser] = weakref.WeakSet()  # closed by us on purpose
        self._family: set[int] = set()  # pids of our browsers' processes, to reap at close
        self._pid: int | None = None  # the live browser's process (Linux)

    async def start(self) -> None:
        """Launch the browser and warm the pages (`render` would too)."""
        await self._ensure_browser()

    async def close(self) -> None:
        """Close every page, the browser and Playwright. Safe to call twice."""
        tasks = [*self._background, *([self._watchdog] if self._watchdog else [])]
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        self._watchdog = None
        self._pages, self._pages_issued = asyncio.Queue(), False
        if self._browser is not None:
            self._family |= self._processes()
            with contextlib.suppress(PlaywrightError):
                await self._browser.close()
            self._browser = None
        if self._playwright is not None:
            await self._playwright.stop()
            self._playwright = None
        for _ in range(20):  # our browsers' helpers that outlived them were handed to us
            reap_browser_zombies()
            if not any(psutil.pid_exists(pid) for pid in self._family):
                break
            await asyncio.sleep(0.1)
        self._family.clear()

    def _processes(self) -> set[int]:
        """The live browser's process and everything below it (Linux; empty elsewhere)."""
        root = self.browser_pid()
        return {root, *descendants(root)} if root is not None else set()

    def browser_pid(self) -> int | None:
        """The pid of this lane's Chromium (Linux), for diagnostics and tests."""
        return self._pid if self._browser is not None else None

    async def webgl_renderer(self) -> dict[str, str]:
        """What WebGL a fresh page of this lane's browser gets (launching it if needed)."""
        await self._ensure_browser()
        return await webgl_renderer(self._browser)

    def _cpu_meter(self) -> Callable[[], float] | None:
        """CPU seconds the browser's processes spend from now on (None when they cannot be
        read); one that exits mid-sketch keeps what it had spent."""
        pids = self._processes()
        return CpuMeter(pids) if pids else None

    async def render(self, sketch: str, seed: int = 0, paper: str | None = None) -> Canvas:
        """Run one sketch (raw JS) and return its Canvas. Never raises for a bad sketch.

        Timings as `RenderPool.render`'s (`load_ms` here counts only the wait for a page).
        """
        started = time.perf_counter()
        canvas = await self._render_with_retry(sketch, seed, started, paper)
        timings = {"load_ms": 0.0, "draw_ms": 0.0, **canvas.timings}
        timings["total_ms"] = (time.perf_counter() - started) * 1000
        return replace(canvas, timings=timings, sketch=sketch, seed=seed)

    async def _render_with_retry(
        self, sketch: str, seed: int, started: float, paper: str | None
    ) -> Canvas:
        """A sketch hit by our failure (browser died, page broke) runs once more on a fresh
        page, relaunching the browser if needed; a second failure is `infra_error`. A sketch
        whose browser the pool itself closed (after a neighbour's time-out) runs again without
        that counting as a failure."""
        failures = 0
        for _ in range(MAX_RESTARTS_PER_SKETCH + 2):
            try:
                return await self._render_once(sketch, seed, started, paper)
            except Retired:
                continue
            except (BrowserGone, HarnessBroken, PlaywrightError, OSError) as error:
                failures += 1
                if failures == 2:
                    reason = f"{type(error).__name__}: {error}".rstrip(": ")  # never empty
                    return Canvas(Status.INFRA_ERROR, errors=[f"renderer failure: {reason}"])
        return Canvas(
            Status.INFRA_ERROR,
            errors=[f"renderer failure: its browser was restarted {MAX_RESTARTS_PER_SKETCH} "
                    "times under it (neighbouring sketches ran past their limit)"],
        )  # fmt: skip

    async def _render_once(
        self, sketch: str, seed: int, started: float, paper: str | None
    ) -> Canvas:
        async with self._slots:
            page = await self._take_page()
            load_ms = (time.perf_counter() - started) * 1000
            meter = self._cpu_meter() if self.config.workers == 1 else None
            try:
                canvas = await page.run(
                    sketch,
                    seed=seed,
                    paper=paper,
                    density=self.config.pixel_density,
                    max_frames=self.config.max_frames,
                    limit_s=self.config.time_limit_s,
                    cpu_s=meter,
                    wall_limit_s=self.config.time_limit_s * WALL_LIMIT_FACTOR,
                )
            except (BrowserGone, HarnessBroken, PlaywrightError, OSError) as error:
                if page.browser in self._retired:
                    raise Retired from error
                raise
            finally:
                self._spawn(self._recycle(page))  # a fresh document, in the background
            if canvas.status is Status.TIMEOUT:  # no new sketch starts on that browser
                self._retired.add(page.browser)
                self._spawn(self._retire(page.browser))
        timings = {**canvas.timings, "load_ms": load_ms}
        if meter is not None:
            timings["cpu_ms"] = meter() * 1000
        return replace(canvas, timings=timings)

    async def _retire(self, browser: Browser) -> None:
        """Close `browser` (already retired) after one of its sketches timed out; the next
        render starts a new one.

        What a sketch hands to WebGL is drawn by the browser's one GPU process, shared by all
        its pages and behind the page's script: a sketch stopped at its limit can leave seconds
        of drawing queued there, which closing its page does not cancel (measured: the next
        sketches waited 7-18 s, or timed out one after another). A new browser starts clean
        in about a second; a sketch in flight on the old one is run again on the new one.
        """
        with contextlib.suppress(PlaywrightError):
            await browser.close()

    async def _take_page(self) -> WarmPage:
        """A warm page of the live browser, or a new one (relaunching the browser if needed)."""
        await self._ensure_browser()
        page = await self._pages.get()
        if page is not None and page.usable and page.browser is self._browser:
            return page
        if page is not None:
            self._spawn(page.close())
        try:
            await self._ensure_browser()
            return await WarmPage.open(self._browser, self.config.size, self.harness)
        except BaseException:
            self._pages.put_nowait(None)  # the token goes back whatever happened
            raise

    async def _recycle(self, page: WarmPage) -> None:
        """Load a fresh document into the page (or replace it) and hand its token back."""
        fresh = None
        try:
            if page.usable:
                await page.load()
                fresh = page
            elif page.browser is self._browser and self._browser.is_connected():
                await page.close()
                fresh = await WarmPage.open(self._browser, self.config.size, self.harness)
        except Exception:  # whatever went wrong, the page goes and its token comes back
            await page.close()
        finally:
            self._pages.put_nowait(fresh)

    async def _ensure_browser(self) -> None:
        """Launch the browser if there is none, it died or it was retired (and, the first
        time, warm pages)."""
        if self._live():
            return
        async with self._lock:
            if not self._live():
                await self._launch()

    def _live(self) -> bool:
        browser = self._browser
        return browser is not None and browser.is_connected() and browser not in self._retired

    async def _launch(self) -> None:
        """(Re)start the browser. Caller holds the lock."""
        if self._browser is not None and self._browser not in self._retired:
            with contextlib.suppress(PlaywrightError):
                await self._browser.close()
        if self._playwright is None:
            adopt_orphans()  # a browser that dies hard leaves helpers for us to reap
            self._playwright = await async_playwright().start()
        adopted = {pid for pid, _ in adopted_browser_processes()}
        self._browser = await launch(
            self._playwright,
            executable=self.config.chromium,
            js_heap_mb=self.config.js_heap_mb,
            marker=self.marker,
            webgl=self.config.webgl,
        )
        self.launches += 1
        self._pid = find_process(self.marker)
        # Its crash handlers leave it at once and are handed to us: remember them as ours.
        self._family |= self._processes()
        self._family |= {pid for pid, _ in adopted_browser_processes()} - adopted
        if self._watchdog is None:
            limit_mb = RENDERER_MEMORY_FACTOR * self.config.js_heap_mb
            self._watchdog = asyncio.ensure_future(MemoryWatchdog(self.marker, limit_mb).run())
        if not self._pages_issued:  # after a relaunch, dead pages are replaced as they come round
            opened = await asyncio.gather(
                *(
                    WarmPage.open(self._browser, self.config.size, self.harness)
                    for _ in range(self._page_count)
                ),
                return_exceptions=True,
            )
            for page in opened:
                self._pages.put_nowait(page if isinstance(page, WarmPage) else None)
            self._pages_issued = True

    def _spawn(self, coroutine) -> None:
        task = asyncio.ensure_future(coroutine)
        self._background.add(task)
        task.add_done_callback(self._background.discard)
