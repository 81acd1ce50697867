"""One warm page: a freshly loaded harness document that runs exactly one sketch.

    page = await WarmPage.open(browser, 600, harness)      # the task's harness loaded, ready
    canvas = await page.run(sketch, seed=0, density=1.0, max_frames=3, limit_s=10.0)
    await page.load()                                       # a new document for the next sketch

A page is reused, its document is not: after every sketch the page navigates to a fresh copy
of the harness, so no global, prototype, timer or library setting survives into the next
sketch (p5.brush keeps module state, e.g. its brush scale, and a second `let x` at top level
would be a SyntaxError). Reloading painting's harness costs 0.1-0.5 s of CPU (mostly p5's own
start-up) and
happens in the background while the pool hands out other pages; opening a new page (context,
renderer process, document) costs about twice that.

Everything that decides a sketch's fate is watched from Playwright's side, where the sketch
cannot reach: page crashes, dialogs (dismissed), script-initiated navigations (CDP), every
request (refused unless it is our own load of the harness), uncaught errors (`pageerror`), and
the time limit (enforced by `Runtime.terminateExecution` over CDP, which stops a busy loop in
milliseconds).
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import itertools
from collections.abc import Callable

from playwright.async_api import (
    Browser,
    BrowserContext,
    CDPSession,
    ConsoleMessage,
    Dialog,
    Page,
    Route,
)
from playwright.async_api import Error as PlaywrightError

from watercolor.canvas import Canvas, Status
from watercolor.render.page_harness import CONTENT_SECURITY_POLICY, HARNESS_URL, Harness

LOAD_TIMEOUT_S = 15.0
# Opening a page (context, page, harness): Playwright's new_page has no timeout of its own and,
# on a browser killed a moment before, was seen never to answer.
OPEN_TIMEOUT_S = LOAD_TIMEOUT_S + 5.0
STOP_S = 2.0  # how long a time-out waits for the sketch's script to be terminated
POLL_S = 0.1  # how often a run checks its budget
RUN_IN_PAGE = "options => window.__watercolor.run(options)"

_load_counter = itertools.count()


class BrowserGone(RuntimeError):
    """The browser died or was closed under a page (the pool relaunches it)."""


class HarnessBroken(RuntimeError):
    """The harness did not load or answered nonsense: our failure, not the sketch's."""


class WarmPage:
    """A Playwright page in its own browser context, holding one fresh harness document."""

    def __init__(
        self,
        browser: Browser,
        context: BrowserContext,
        page: Page,
        cdp: CDPSession,
        harness: Harness,
    ):
        self.browser, self.context, self.page, self.cdp = browser, context, page, cdp
        self.harness = harness
        self.size = page.viewport_size["width"]
        self._expected_url: str | None = None
        self._incidents: list[str] = []  # dialogs, refused requests: each one fails the sketch
        self._page_errors: list[str] = []  # uncaught errors as Playwright saw them
        self._crashed = asyncio.Event()
        self._abandoned = False  # a render was cancelled or timed out: the page may still be busy
        page.on("dialog", self._on_dialog)
        page.on(
            "pageerror", lambda error: self._page_errors.append(f"{error.name}: {error.message}")
        )
        page.on("crash", lambda _: self._crashed.set())
        page.on("console", self._on_console)

    @classmethod
    async def open(cls, browser: Browser, size: int, harness: Harness) -> WarmPage:
        """A new context + page with `harness` loaded, within OPEN_TIMEOUT_S."""
        opening = asyncio.ensure_future(cls._open(browser, size, harness))
        # An opening left behind (timed out, or its caller cancelled as the pool closes) fails
        # once its browser is gone; nobody awaits it then, so its error is read here, not
        # printed by asyncio as "Task exception was never retrieved". `result()` still raises.
        opening.add_done_callback(lambda task: task.cancelled() or task.exception())
        done, _ = await asyncio.wait({opening}, timeout=OPEN_TIMEOUT_S)
        if not done:  # left to finish or fail on its own: its clean-up may hang as well
            opening.cancel()
            if not browser.is_connected():
                raise BrowserGone(f"opening a page took over {OPEN_TIMEOUT_S:g} s")
            raise HarnessBroken(f"opening a page took over {OPEN_TIMEOUT_S:g} s")
        return opening.result()

    @classmethod
    async def _open(cls, browser: Browser, size: int, harness: Harness) -> WarmPage:
        try:
            context = await browser.new_context(
                viewport={"width": size, "height": size},
                device_scale_factor=1,
                service_workers="block",
                accept_downloads=False,
            )
        except PlaywrightError as error:
            raise await _failure(browser, error) from error
        try:
            page = await context.new_page()
            warm = cls(browser, context, page, await context.new_cdp_session(page), harness)
            await context.route("**/*", warm._on_route)
            # Script-initiated navigations are announced here before the call that made them
            # returns (the in-page `beforeunload` and the refused request may come later).
            warm.cdp.on("Page.frameRequestedNavigation", warm._on_navigation)
            await warm.cdp.send("Page.enable")
            await warm.load()
        except PlaywrightError as error:
            await _quietly(context.close())
            raise await _failure(browser, error) from error
        except BaseException:
            await _quietly(context.close())
            raise
        return warm

    @property
    def usable(self) -> bool:
        alive = self.browser.is_connected() and not self.page.is_closed()
        return alive and not self._crashed.is_set() and not self._abandoned

    async def load(self) -> None:
        """Navigate to a fresh harness document (a one-time URL, so a sketch cannot reload it)."""
        url = f"{HARNESS_URL}?load={next(_load_counter)}"
        self._expected_url = url
        try:
            await self.page.goto(url, wait_until="load", timeout=LOAD_TIMEOUT_S * 1000)
            ready = await self.page.evaluate("typeof window.__watercolor?.run === 'function'")
        except PlaywrightError as error:
            raise await _failure(self.browser, error) from error
        if not ready:
            raise HarnessBroken(
                f"the {self.harness.name} harness loaded without its runtime (__watercolor)"
            )

    async def close(self) -> None:
        with contextlib.suppress(PlaywrightError):
            await self.context.close()

    async def run(
        self,
        sketch: str,
        *,
        seed: int,
        density: float,
        max_frames: int,
        paper: str | None = None,
        limit_s: float,
        cpu_s: Callable[[], float] | None = None,
        wall_limit_s: float | None = None,
    ) -> Canvas:
        """Run one sketch on this document. Raises BrowserGone / HarnessBroken for our failures.

        The sketch is stopped (`timeout`) when `cpu_s()` (CPU seconds spent on it so far, read
        every POLL_S) reaches `limit_s`, or when `wall_limit_s` of wall time have passed. Without
        `cpu_s`, `limit_s` is wall time.
        """
        self._incidents.clear()
        self._page_errors.clear()
        size = self.size
        options = {
            "code": sketch,
            "seed": seed,
            "size": size,
            "density": density,
            "maxFrames": max_frames,
            "paper": paper,
        }
        evaluation = asyncio.ensure_future(self.page.evaluate(RUN_IN_PAGE, options))
        crash = asyncio.ensure_future(self._crashed.wait())
        try:
            overrun = await _watch({evaluation, crash}, limit_s, cpu_s, wall_limit_s)
        except asyncio.CancelledError:
            self._abandoned = True  # the caller gave up; the pool replaces this page
            evaluation.cancel()
            raise
        finally:
            crash.cancel()
        if self._crashed.is_set():
            await _discard(evaluation)
            return _crash_canvas()
        if not evaluation.done():
            await self._stop(evaluation)
            return Canvas(Status.TIMEOUT, errors=[overrun])
        if evaluation.exception() is not None:
            return await self._explain(evaluation.exception())
        return self._verdict(evaluation.result())

    async def _explain(self, error: BaseException) -> Canvas:
        """The evaluation failed: the page crashed, the sketch navigated away, or we failed.

        Playwright may report the failed call before the crash or disconnect event that
        explains it, so give those events a moment to arrive.
        """
        for _ in range(10):
            if self._crashed.is_set():
                return _crash_canvas()
            if not self.browser.is_connected():
                raise BrowserGone(str(error)) from error
            await asyncio.sleep(0.05)
        if self._incidents:  # e.g. a navigation destroyed the document mid-run
            return Canvas(Status.ERROR, errors=list(self._incidents))
        raise HarnessBroken(f"{type(error).__name__}: {error}") from error

    def _verdict(self, report: object) -> Canvas:
        """Turn the page's report into a Canvas."""
        if not isinstance(report, dict) or "errors" not in report:
            raise HarnessBroken(f"the harness answered {report!r:.200}")
        errors = list(report["errors"]) or list(self._page_errors)
        errors += [incident for incident in self._incidents if incident not in errors]
        timings = {"draw_ms": float(report.get("drawMs", 0.0))}
        notes = [str(note)[:300] for note in list(report.get("notes") or [])[:10]]
        png = base64.b64decode(report["png"].split(",", 1)[1]) if report.get("png") else None
        papers = _papers(report.get("papers"))
        if errors or png is None:  # a sketch that threw keeps what it had painted, if anything
            errors = errors or ["the sketch produced no picture"]
            return Canvas(
                Status.ERROR, png=png, errors=errors, notes=notes, timings=timings, papers=papers
            )
        return Canvas(Status.OK, png=png, notes=notes, timings=timings, papers=papers)

    async def _stop(self, evaluation: asyncio.Future) -> None:
        """Stop a sketch that ran out of time: terminate its script, forget the evaluation.

        The page is not reused: the work its sketch already handed to the GPU process (shared
        by every page) would go on there and slow the next sketches (measured: the next page
        waited 7-18 s), so the pool closes its context, which drops that work, and opens a new
        page. The time-out is the sketch's verdict whatever the stop itself does: a stop that
        gets no answer (the renderer is stuck in a GPU call) is not our failure.
        """
        self._abandoned = True
        with contextlib.suppress(PlaywrightError, TimeoutError):
            await asyncio.wait_for(self.cdp.send("Runtime.terminateExecution"), timeout=STOP_S)
        await _discard(evaluation)

    async def _on_route(self, route: Route) -> None:
        request = route.request
        if request.url == self._expected_url and request.is_navigation_request():
            self._expected_url = None
            await route.fulfill(
                body=self.harness.document(),
                content_type="text/html; charset=utf-8",
                headers={"Content-Security-Policy": CONTENT_SECURITY_POLICY},
            )
            return
        if request.url.endswith("/favicon.ico"):  # the browser's own habit, not the sketch's
            await _quietly(route.abort("blockedbyclient"))
            return
        kind = "navigation" if request.is_navigation_request() else "request"
        self._incidents.append(
            f"{kind} refused by the sandbox: {request.method} {request.url[:200]}"
        )
        with contextlib.suppress(PlaywrightError):
            await route.abort("blockedbyclient")

    def _on_navigation(self, event: dict) -> None:
        url = str(event.get("url", ""))[:200]
        self._incidents.append(f"the sketch tried to navigate ({event.get('reason')}) to {url}")

    def _on_console(self, message: ConsoleMessage) -> None:
        # Chromium refuses file:// navigations from web pages itself and only says so here.
        if message.type == "error" and message.text.startswith("Not allowed to load local"):
            self._incidents.append(f"refused by the browser: {message.text[:200]}")

    def _on_dialog(self, dialog: Dialog) -> None:
        self._incidents.append(
            f"the sketch opened a dialog: {dialog.type}({dialog.message[:200]!r}), dismissed"
        )
        asyncio.ensure_future(_quietly(dialog.dismiss()))


def _papers(reported: object) -> list[tuple[int, ...]]:
    """The harness's `papers` (RGBA colours the sketch asked for), checked; [] if it sent none."""
    if not isinstance(reported, list):
        return []
    return [
        tuple(int(v) for v in colour)
        for colour in reported[:8]
        if isinstance(colour, list)
        and len(colour) == 4
        and all(isinstance(v, int | float) and 0 <= v <= 255 for v in colour)
    ]


async def _quietly(awaitable) -> None:
    with contextlib.suppress(PlaywrightError):
        await awaitable


async def _watch(
    running: set[asyncio.Future],
    limit_s: float,
    cpu_s: Callable[[], float] | None,
    wall_limit_s: float | None,
) -> str | None:
    """Wait until one of `running` is done (None) or the sketch is over its budget (why)."""
    loop = asyncio.get_running_loop()
    wall_limit = wall_limit_s if cpu_s is not None else limit_s
    deadline = loop.time() + wall_limit if wall_limit is not None else None
    while True:
        left = None if deadline is None else deadline - loop.time()
        timeout = POLL_S if cpu_s is not None else left
        if left is not None and timeout is not None:
            timeout = min(timeout, left)
        done, _ = await asyncio.wait(running, timeout=timeout, return_when=asyncio.FIRST_COMPLETED)
        if done:
            return None
        if cpu_s is not None and cpu_s() >= limit_s:
            return f"the sketch ran past its {limit_s:g} s time limit (CPU time of its browser)"
        if deadline is not None and loop.time() >= deadline:
            if cpu_s is None:
                return f"the sketch ran past the {wall_limit:g} s time limit"
            return (
                f"the sketch ran past the {wall_limit:g} s wall-clock backstop of its "
                f"{limit_s:g} s time limit (the machine was too busy to give it that CPU)"
            )


async def _discard(future: asyncio.Future) -> None:
    """Cancel an abandoned evaluation and retrieve its outcome, so none is logged as lost."""
    future.cancel()
    await asyncio.wait({future}, timeout=1.0)
    if future.done() and not future.cancelled():
        future.exception()


def _crash_canvas() -> Canvas:
    return Canvas(Status.CRASHED, errors=["the page crashed (out of memory or a renderer crash)"])


async def _failure(browser: Browser, error: BaseException) -> RuntimeError:
    """Our own failure, classified: the browser is gone (its disconnect event may lag the
    failed call by a moment, so wait briefly for it), or the harness is broken."""
    for _ in range(10):
        if not browser.is_connected():
            return BrowserGone(str(error))
        await asyncio.sleep(0.05)
    return HarnessBroken(f"{type(error).__name__}: {error}")
