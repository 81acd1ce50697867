"""What a render pool costs before it paints anything: CPU-seconds over this process's tree.

    .venv/bin/python experiments/2026-12-02_test_tiers/probe_pool_start.py

Prints, twice: a RenderPool of 1 and of 2 lanes (start, first render of two washes, close), then
one lane's start by part (Playwright's driver, the browser, the first warm page, the spare).
Read with `watercolor.training.step_cpu.tree_cpu`; a process that exits before a reading and is
reaped by nobody we count is lost, so a `close` figure can come out negative.
"""

import asyncio

from playwright.async_api import async_playwright

from watercolor.render.browser import launch
from watercolor.render.page import WarmPage
from watercolor.render.pool import RenderConfig, RenderPool
from watercolor.training.step_cpu import tree_cpu

WASHES = (
    'function setup(){createCanvas(600,600,WEBGL);background("#f4ecd8");brush.noStroke();'
    'brush.fill("#e8734a",140);brush.circle(0,0,140);}'
)


def cpu() -> float:
    return sum(tree_cpu().values())


async def pool(workers: int) -> None:
    t0 = cpu()
    async with RenderPool(RenderConfig(workers=workers, pixel_density=0.5)) as started:
        t1 = cpu()
        canvas = await started.render(WASHES)
        t2 = cpu()
    t3 = cpu()
    print(f"pool of {workers}: start {t1 - t0:.2f}, first render {t2 - t1:.2f} ({canvas.status}),"
          f" close {t3 - t2:.2f}, in all {t3 - t0:.2f} CPU-s")  # fmt: skip


async def lane() -> None:
    t0 = cpu()
    playwright = await async_playwright().start()
    t1 = cpu()
    browser = await launch(playwright, executable=None, js_heap_mb=256, marker="--probe=1")
    t2 = cpu()
    await WarmPage.open(browser, 600)
    t3 = cpu()
    await WarmPage.open(browser, 600)
    t4 = cpu()
    await browser.close()
    await playwright.stop()
    print(f"one lane: playwright {t1 - t0:.2f}, browser {t2 - t1:.2f}, first page {t3 - t2:.2f},"
          f" spare page {t4 - t3:.2f}, close {cpu() - t4:.2f} CPU-s")  # fmt: skip


async def main() -> None:
    for _ in range(2):
        await pool(1)
        await pool(2)
        await lane()


if __name__ == "__main__":
    asyncio.run(main())
