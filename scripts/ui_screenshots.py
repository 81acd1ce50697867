"""docs/ui's screenshots of a real sweep, from the links it printed: the side-by-side link (as a
first visit opens it, then with the Assistant closed), its run list, one job's charts link and
that job's rollouts table (then scrolled to its components), in Debian's Chromium at 1400x1000,
saved as palettized PNGs.

    .venv/bin/python -m watercolor.train --multirun debug=quick reward=coarse,fine_grained,gated \
        ... 2>&1 | tee sweep.log
    .venv/bin/python scripts/ui_screenshots.py sweep.log --job gated --out docs/ui

It serves the store the sweep printed (`mlflow ui --backend-store-uri URI`) on a free loopback
port and opens the printed links there, through the helpers of tests/test_mlflow_ui.py, which
check the same pages on synthetic jobs. It saves no view: the links open those the sweep saved.
"""

import argparse
import asyncio
import io
import re
import sys
import tempfile
from pathlib import Path

from PIL import Image

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
from test_mlflow_ui import browser_page, chart, close_assistant, served  # noqa: E402

from watercolor.tracking import UI_ADDRESS  # noqa: E402

LINK = rf"{re.escape(UI_ADDRESS)}\S+"
STORE = r"mlflow ui --backend-store-uri (\S+?)`"
SIDE_BY_SIDE = rf"runs side by side in MLflow.*\n\s+({LINK})"
CHARTS = rf"its charts, reward/total and the yardsticks first: ({LINK})"
PAGE = rf"its page: ({LINK})"


def printed_links(log: str, job: str) -> dict[str, str]:
    """The store and links the sweep printed: `store`, `side_by_side`, and of the job trained on
    the reward set `job` (its part of the log: from Hydra's `#N : ... reward=<job>` line on) its
    `charts` and its `page`."""
    parts = re.split(r"\[HYDRA\]\s+#\d+ : ", log)
    (own,) = [p for p in parts[1:] if re.search(rf"\breward={job}\b", p.splitlines()[0])]
    found = {"store": (STORE, log), "side_by_side": (SIDE_BY_SIDE, log), "charts": (CHARTS, own),
             "page": (PAGE, own)}  # fmt: skip
    return {key: re.search(pattern, text)[1] for key, (pattern, text) in found.items()}


async def capture(links: dict[str, str], base: str, out: Path) -> None:
    """The six screenshots, on the server at `base`."""
    async with browser_page() as page:
        save = lambda name: snap(page, out / name)  # noqa: E731
        await page.goto(links["side_by_side"].replace(UI_ADDRESS, base))
        audited = chart(page, "crossreward/show_through")
        await audited.locator(".js-plotly-plot").wait_for(timeout=90_000)
        await page.wait_for_timeout(3_000)  # the other charts draw
        await page.locator("[data-component-id='mlflow.assistant.chat_panel.close']").wait_for()
        await save("1-the-link.png")
        await close_assistant(page)  # the browser remembers it closed
        await save("2-side-by-side.png")
        await page.locator("label:has(input[name=runs-view-mode][value=TABLE])").click()
        await page.locator(".ag-center-cols-container .ag-row").first.wait_for(timeout=30_000)
        await save("3-run-list.png")

        await page.goto(links["charts"].replace(UI_ADDRESS, base))
        await chart(page, "reward/total").locator(".js-plotly-plot").wait_for(timeout=90_000)
        await page.wait_for_timeout(3_000)
        await save("4-run-charts.png")

        run_page = links["page"].replace(UI_ADDRESS, base)
        table = run_page.replace("/model-metrics", "/artifacts/rollouts.json")
        await page.goto(f"{table}?workflowType=machine_learning")
        canvas = page.locator('img[src*="get-artifact?path=table_images"]').first
        await canvas.wait_for(timeout=60_000)
        await page.locator("[data-component-id='mlflow_header.toggle_sidebar_button']").click()
        await page.wait_for_timeout(3_000)  # the table widens, its canvases load
        await save("5-rollouts-table.png")
        await page.locator("[role=table]").evaluate(SCROLL_TO_THIRD_COMPONENT)
        await page.wait_for_timeout(1_000)
        await save("6-rollouts-components.png")


# The table is wider than the page (a column per component): scroll its box so that the third
# component's column (after canvas, reply, reward, status and two components) comes first.
SCROLL_TO_THIRD_COMPONENT = """table => {
    let box = table;
    while (box.scrollWidth <= box.clientWidth) box = box.parentElement;
    box.scrollLeft = table.querySelector("[role=row]").children[6].offsetLeft;
}"""


async def snap(page, path: Path) -> None:
    """The page as a palettized PNG (as tests/test_mlflow_ui.py saves its own)."""
    shot = Image.open(io.BytesIO(await page.screenshot())).convert("P", palette=Image.ADAPTIVE)
    shot.save(path, optimize=True)
    print(f"{path}: {path.stat().st_size // 1024} KiB")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("log", type=Path, help="what the sweep printed (stdout and stderr)")
    parser.add_argument("--job", default="gated", help="the reward set of the job to show")
    parser.add_argument("--out", type=Path, default=Path("docs/ui"))
    args = parser.parse_args()
    links = printed_links(args.log.read_text(), args.job)
    with tempfile.TemporaryDirectory() as tmp, served(links["store"], Path(tmp, "log")) as base:
        asyncio.run(capture(links, base, args.out))


if __name__ == "__main__":
    main()
