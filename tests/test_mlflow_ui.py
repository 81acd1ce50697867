"""The MLflow UI, served on loopback and opened in real Chromium, shows a training run's rollouts
table with each canvas as a picture beside its reply, reward, status and every component as a
number, and a run's charts link opens on `reward/total` and the yardsticks (issues 11 and 52);
the link a comparison prints opens its jobs' yardstick curves overlaid, each job's own reward
after, and the run list ranked by the audited set's score (issues 43 and 52). Those tests save
what they see as docs/ui's screenshots:

    WATERCOLOR_UI_SCREENSHOTS=docs/ui pytest tests/test_mlflow_ui.py -k "side_by_side or table"

The run is logged by `watercolor.tracking.log_rollouts`, as training logs each step, from
synthetic scored steps (tests/analysis/analysis_helpers.py) rather than a smoke training run,
which would add minutes on two cores and logs through the same function. Chromium is Debian's
(/usr/bin/chromium; Playwright's own browser download does not work here), launched with the
renderer's flags minus the host-resolver rule that makes every address unreachable.
"""

import contextlib
import datetime
import io
import os
import re
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from types import SimpleNamespace

import httpx
import pytest
from PIL import Image
from playwright.async_api import async_playwright

sys.path.insert(0, str(Path(__file__).resolve().parent / "analysis"))
from analysis_helpers import rollouts  # noqa: E402  (synthetic scored steps, shared)

from watercolor import tracking  # noqa: E402
from watercolor.analysis import comparison  # noqa: E402
from watercolor.render.browser import chromium_executable, chromium_flags  # noqa: E402
from watercolor.tracking import log_rollouts, mlflow_run, run_name  # noqa: E402
from watercolor.training.mlflow_callback import RolloutLogger  # noqa: E402

pytestmark = [pytest.mark.slow, pytest.mark.browser]
# One step's log of a real run (python -m watercolor.bench grpo_steps), trimmed: TRL's metrics and
# the scorer's, under the names they have in TRL's logs.
TRL_LOG = {
    "loss": 0.048, "grad_norm": 0.38, "learning_rate": 3e-05, "num_tokens": 4080.0,
    "completions/mean_length": 197.0, "rewards/gate_pass/mean": 0.75, "rewards/gate_pass/std": 0.46,
    "rewards/coverage/mean": 1.0, "rewards/coverage/std": 0.0, "reward": 0.58, "reward_std": 0.08,
    "frac_reward_zero_std": 0.0, "rollouts/components/coverage": 1.0,
    "rollouts/execution_rate": 0.75, "rollouts/render_s": 6.1,
    "rollouts/violations/no_sketch": 0.25,
    "kl": 0.0, "entropy": 0.75, "clip_ratio/low_mean": 0.0, "step_time": 23.5, "epoch": 0.002,
    "crossreward/show_through": 0.21, "crossreward/coarse": 0.45,
    "crossreward/gate/show_through": 1.0, "crossreward/gate/coarse": 0.75,
    "behaviour/flat_block_rate": 0.38, "behaviour/execution_rate": 0.75,
    "behaviour/style/mean_alpha": 0.81,
}  # fmt: skip
AUDITED = "show_through"  # the painting task's audited set (conf/task/painting.yaml)
MLFLOW = Path(sys.executable).with_name("mlflow")


@pytest.fixture
def logged(tmp_path, monkeypatch) -> dict:
    """A run with two logged steps in a fresh sqlite store: {uri, experiment, run, name,
    printed} (`printed`: what the run printed when it ended, its links)."""
    # mlflow.set_tracking_uri exports MLFLOW_TRACKING_URI, which tracking_uri() prefers: an
    # earlier test's store would otherwise receive this run
    monkeypatch.delenv("MLFLOW_TRACKING_URI", raising=False)
    uri, name, printed = f"sqlite:///{tmp_path}/mlflow.db", run_name("gated", 0), io.StringIO()
    params = {"seed": 0, "task.audited_reward": AUDITED}
    with contextlib.redirect_stdout(printed), mlflow_run(
        uri, "ui", params=params, tags={"reward": "gated"}, run_dir=tmp_path / "job",
        artifact_root=str(tmp_path / "art"), run_name=name,
    ) as run:  # fmt: skip
        for step in (1, 2):
            log_rollouts(rollouts(step, ["gate_pass", "coverage"]))
            # a training step's log as TRL and the scorer hand it to the callback
            logs = TRL_LOG | {"reward": 0.3 * step}
            RolloutLogger().on_log(None, SimpleNamespace(global_step=step), None, logs=logs)
    return {"uri": uri, "experiment": run.info.experiment_id, "run": run.info.run_id, "name": name,
            "printed": printed.getvalue()}  # fmt: skip


@pytest.fixture
def ui(logged, tmp_path, monkeypatch):
    """`mlflow server` on 127.0.0.1 over that store; yields its base URL."""
    monkeypatch.delenv("MLFLOW_TRACKING_URI", raising=False)
    with served(logged["uri"], tmp_path / "server.log") as base:
        yield base


@contextlib.contextmanager
def served(uri: str, log_path: Path) -> Iterator[str]:
    """`mlflow server` on 127.0.0.1 over the store `uri`, its output to `log_path`; yields its
    base URL."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    env = os.environ | {"MLFLOW_SERVER_ENABLE_JOB_EXECUTION": "false"}  # no job workers
    command = [str(MLFLOW), "server", "--backend-store-uri", uri,
               "--host", "127.0.0.1", "--port", str(port), "--workers", "1"]  # fmt: skip
    with open(log_path, "w") as log:
        server = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT, env=env,
                                  start_new_session=True)  # fmt: skip
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 90
        while not _healthy(base):
            assert server.poll() is None, log_path.read_text()[-2000:]
            assert time.monotonic() < deadline, "mlflow server did not start in 90 s"
            time.sleep(0.5)
        yield base
    finally:
        os.killpg(server.pid, signal.SIGTERM)  # the server and its uvicorn workers
        server.wait(timeout=30)


def _healthy(base: str) -> bool:
    try:
        return httpx.get(f"{base}/health", timeout=2).status_code == 200
    except httpx.HTTPError:
        return False


@contextlib.asynccontextmanager
async def browser_page():
    """A page of Debian's Chromium, allowed to reach loopback (the served UI)."""
    flags = [f for f in chromium_flags(js_heap_mb=1024) if not f.startswith("--host-resolver")]
    async with async_playwright() as playwright:
        browser = await playwright.chromium.launch(
            executable_path=chromium_executable(None), args=flags, headless=True
        )
        try:
            yield await browser.new_page(viewport={"width": 1400, "height": 1000})
        finally:
            await browser.close()


def links(ui: str, logged: dict) -> dict[str, str]:
    """The links the finished run printed (`tracking.ui_hint`), on the test's server: `charts`
    (its view), `run` (its page) and `runs` (its experiment's)."""
    printed = logged["printed"]
    found = {key: re.search(rf"{label}: (\S+)", printed).group(1) for key, label in (
        ("charts", "its charts, reward/total and the yardsticks first"), ("run", "its page"),
        ("runs", "the experiment's runs"))}  # fmt: skip
    assert all(link.startswith(tracking.UI_ADDRESS) for link in found.values())
    return {key: link.replace(tracking.UI_ADDRESS, ui) for key, link in found.items()}


async def test_the_ui_lists_the_run_and_shows_the_rollouts_table_as_a_person_reads_it(ui, logged):
    experiment = f"{ui}/#/experiments/{logged['experiment']}"
    # Tagged as a training experiment, it still opens in GenAI's "Evaluation runs" when a person
    # opens it without asking for the training mode: 3.17 reads the mode from the browser only
    # (the comment at tracking.metric_name). The day this fails, tagging our experiments is worth
    # doing.
    tracking.mlflow.MlflowClient(logged["uri"]).set_experiment_tag(
        logged["experiment"], "mlflow.experimentKind", "custom_model_development")  # fmt: skip
    async with browser_page() as page:
        await page.goto(experiment)
        await page.get_by_text("Evaluation runs").first.wait_for(timeout=60_000)
        await page.goto(links(ui, logged)["runs"])  # the printed link: the training view
        await page.get_by_text(logged["name"]).first.wait_for(timeout=60_000)
        assert "Evaluation runs" not in await page.inner_text("body")  # not GenAI's view

        table = f"{experiment}/runs/{logged['run']}/artifacts/rollouts.json"
        await page.goto(f"{table}?workflowType=machine_learning")
        canvas = page.locator('img[src*="get-artifact?path=table_images"]').first
        await canvas.wait_for(timeout=60_000)
        await page.get_by_text("// reply 0 at step 1").first.wait_for(timeout=10_000)
        await page.wait_for_function(
            "img => img.complete && img.naturalWidth > 0", arg=await canvas.element_handle()
        )
        shown = await page.request.get(await canvas.evaluate("img => img.src"))
        picture = Image.open(io.BytesIO(await shown.body())).convert("RGB")
        # The table as the page shows it: its header, then the first page's rows, cell by cell.
        rows = await page.locator("[role=table] [role=row]").evaluate_all(
            "rows => rows.map(r => Array.from(r.children).map(c => c.innerText.trim()))"
        )
        await close_assistant(page)
        await page.locator("[data-component-id='mlflow_header.toggle_sidebar_button']").click()
        await page.wait_for_timeout(1_000)  # the table widens
        await save_screenshot(page, "4-rollouts-table.png")
    red, green, blue = picture.getpixel((picture.width // 2, picture.height // 2))
    assert abs(red - 60) < 12 and abs(green - 120) < 12 and abs(blue - 200) < 12  # canvas 0
    header, *cells = rows
    assert header[:6] == ["canvas", "reply", "reward", "status", "c/gate_pass", "c/coverage"]
    by_name = [dict(zip(header, row, strict=True)) for row in cells]
    # every component a number, as in rollouts.json (a column named `c.coverage` showed empty)
    assert [(r["reward"], r["status"], r["c/coverage"]) for r in by_name] == [
        ("0.5", "ok", "0.5"), ("0.6", "ok", "0.5"), ("0.7", "ok", "0.5"), ("0", "violation", "0"),
    ]  # fmt: skip


async def test_a_runs_charts_link_opens_on_its_reward_and_the_yardsticks(ui, logged):
    titles = "[data-testid=experiment-view-compare-runs-card] h4"
    async with browser_page() as page:
        await page.goto(links(ui, logged)["charts"])  # the link a finished run prints
        await page.locator(titles).first.wait_for(timeout=90_000)
        first = await page.locator(titles).first.inner_text()
        sections = await section_titles(page)
        # The run's own page (its second link): the UI's sections, sorted by name.
        await page.goto(links(ui, logged)["run"])
        await page.get_by_text("Step", exact=True).first.wait_for(timeout=60_000)
        on_its_page = await section_titles(page)
    assert first == "reward/total"
    assert sections[:6] == ["reward", "crossreward", "behaviour", "behaviour/style",
                            "crossreward/gate", "reward components"]  # fmt: skip
    assert on_its_page[:3] == ["behaviour", "behaviour/style", "crossreward"], on_its_page


async def section_titles(page) -> list[str]:
    """The chart sections in the order the page shows them: each section's title is followed by
    its chart count, "(N)"."""
    lines = [line.strip() for line in (await page.inner_text("body")).splitlines()]
    return [lines[i - 1] for i, line in enumerate(lines) if re.fullmatch(r"\(\d+\)", line)]


async def close_assistant(page) -> None:
    """Close MLflow's Assistant, which opens over a third of the page on a loopback address's
    first visit (closed once, it stays closed: the browser remembers)."""
    assistant = page.locator("[data-component-id='mlflow.assistant.chat_panel.close']")
    await assistant.wait_for(timeout=30_000)
    await assistant.click()
    await page.wait_for_timeout(1_000)  # the page widens


# Three jobs of a sweep over the reward sets: each one's total reward at steps 1-4, and what the
# audited set pays the same rollouts (gated's reward rises most while show_through's score falls).
JOB_REWARDS = {"coarse": [0.21, 0.28, 0.33, 0.36], "fine_grained": [0.18, 0.27, 0.38, 0.45],
               "gated": [0.12, 0.30, 0.47, 0.58]}  # fmt: skip
JOB_AUDITED = {"coarse": [0.30, 0.34, 0.38, 0.41], "fine_grained": [0.31, 0.33, 0.33, 0.32],
               "gated": [0.30, 0.28, 0.25, 0.23]}  # fmt: skip
# A folder to save what the UI tests see, palettized (docs/ui's screenshots): unset, none.
SCREENSHOTS = os.environ.get("WATERCOLOR_UI_SCREENSHOTS")


@pytest.fixture
def jobs(tmp_path, monkeypatch) -> dict:
    """The three jobs (JOB_REWARDS, JOB_AUDITED: steps as TRL and the scorer hand them to the
    callback) and another study's run, in one experiment of a fresh store: {uri, runs (the
    jobs'), names}."""
    monkeypatch.delenv("MLFLOW_TRACKING_URI", raising=False)
    uri, ids, names = f"sqlite:///{tmp_path}/mlflow.db", [], {}
    for minute, (reward_set, rewards) in enumerate(JOB_REWARDS.items()):
        names[reward_set] = run_name(reward_set, 0, datetime.datetime(2026, 12, 1, 6, minute))
        params = {"seed": 0, "task.audited_reward": AUDITED}
        with mlflow_run(uri, "watercolor", params=params, tags={"reward": reward_set},
                        run_dir=tmp_path / reward_set, artifact_root=str(tmp_path / "art"),
                        run_name=names[reward_set]) as run:  # fmt: skip
            for step, reward in enumerate(rewards, 1):
                audited = JOB_AUDITED[reward_set][step - 1]
                varied = {"reward": reward, "rollouts/execution_rate": 0.5 + reward / 2,
                          "rewards/gate_pass/mean": 0.5 + reward / 2,
                          "rewards/coverage/mean": 1.5 * reward, f"crossreward/{AUDITED}": audited,
                          "crossreward/coarse": 0.3 + reward / 2,
                          "behaviour/flat_block_rate": 0.6 - reward / 2}  # fmt: skip
                logs = TRL_LOG | {key: round(value, 3) for key, value in varied.items()}
                RolloutLogger().on_log(None, SimpleNamespace(global_step=step), None, logs=logs)
        ids.append(run.info.run_id)
    with mlflow_run(uri, "watercolor", params={}, tags={}, run_dir=tmp_path / "other",
                    run_name="another study's run"):  # fmt: skip
        tracking.mlflow.log_metric("reward/total", 0.9, step=1)  # in no side-by-side of the jobs
    client = tracking.mlflow.MlflowClient(uri)
    return {"uri": uri, "runs": [client.get_run(i) for i in ids], "names": names}


@pytest.fixture
def jobs_ui(jobs, tmp_path):
    """`mlflow server` over the jobs' store; yields its base URL."""
    with served(jobs["uri"], tmp_path / "server.log") as base:
        yield base


async def test_the_side_by_side_link_opens_on_the_jobs_yardsticks(jobs, jobs_ui, tmp_path):
    # The link a comparison prints (a sweep's too), saving the jobs' view in their experiment.
    printed = comparison.side_by_side(jobs["uri"], jobs["runs"], tmp_path)
    (link,) = re.findall(rf"{re.escape(tracking.UI_ADDRESS)}\S+", printed)
    cards = "[data-testid=experiment-view-compare-runs-card]"
    async with browser_page() as page:
        await page.goto(link.replace(tracking.UI_ADDRESS, jobs_ui))
        audited = chart(page, f"crossreward/{AUDITED}")
        await audited.locator(".js-plotly-plot").wait_for(timeout=90_000)
        # A loopback address's first visit opens MLflow's Assistant over a third of the page;
        # closed once, it stays closed (the browser remembers): the README's first click.
        assistant = page.locator("[data-component-id='mlflow.assistant.chat_panel.close']")
        await assistant.wait_for(timeout=30_000)
        await save_screenshot(page, "1-the-link.png")
        # The yardsticks' sections first, the audited set's score first of all, each job's own
        # reward after; charts two to a row, their titles whole once the Assistant is closed
        # (beside it, a name as long as `crossreward/show_through` is cut).
        sections = await section_titles(page)
        assert sections[:6] == ["crossreward", "behaviour", "behaviour/style", "crossreward/gate",
                                "reward", "reward components"], sections  # fmt: skip
        await close_assistant(page)
        await save_screenshot(page, "2-side-by-side.png")
        titles = await page.locator(f"{cards} h4").evaluate_all(
            "titles => titles.map(h => [h.textContent, h.scrollWidth <= h.clientWidth])"
        )
        assert titles[0] == [f"crossreward/{AUDITED}", True] and all(w for _, w in titles), titles

        # One line per job, every one its own (plotly's own traces: name and values).
        for name, expected in ((f"crossreward/{AUDITED}", JOB_AUDITED), ("reward/total",
                                                                       JOB_REWARDS)):  # fmt: skip
            card = await scrolled_to(page, chart(page, name))
            await card.locator(".js-plotly-plot").wait_for(timeout=30_000)
            lines = await card.locator(".js-plotly-plot").evaluate(
                "plot => plot.data.map(line => [line.name, Array.from(line.y)])"
            )
            assert {line: pytest.approx(y) for line, y in lines} == {
                jobs["names"][reward_set]: values for reward_set, values in expected.items()
            }  # the three jobs, and not another run of their experiment

        # The list's other mode: the runs ranked by what the audited set pays their rollouts
        # (their own rewards are three rulers), with their own reward beside it.
        await page.locator("label:has(input[name=runs-view-mode][value=TABLE])").click()
        column = f"[col-id='metrics.`crossreward/{AUDITED}`']"
        scores = page.locator(f".ag-center-cols-container {column}")
        await scores.first.wait_for(timeout=30_000)
        await save_screenshot(page, "3-run-list.png")
        assert await in_row_order(scores) == ["0.41", "0.32", "0.23"]
        rewards = page.locator(".ag-center-cols-container [col-id='metrics.`reward/total`']")
        assert await in_row_order(rewards) == ["0.36", "0.45", "0.58"]
        names = page.locator(".ag-pinned-left-cols-container [col-id='attributes.`Run Name`'] a")
        assert await in_row_order(names) == [jobs["names"][s] for s in JOB_REWARDS]


def chart(page, metric: str):
    """The chart card of `metric` (its title)."""
    title = page.get_by_role("heading", name=metric, exact=True)
    return page.locator("[data-testid=experiment-view-compare-runs-card]").filter(has=title)


async def scrolled_to(page, card):
    """`card`, once the charts are scrolled down to it (the UI renders a chart near the view)."""
    await page.mouse.move(900, 600)  # over the charts
    for _ in range(40):
        if await card.count():
            await card.scroll_into_view_if_needed()
            return card
        await page.mouse.wheel(0, 400)
        await page.wait_for_timeout(250)
    raise AssertionError("the chart never came into view")


async def in_row_order(cells) -> list[str]:
    """The texts of a grid column's cells, top row first."""
    rows = await cells.evaluate_all(
        "cells => cells.map(c => [+c.closest('.ag-row').getAttribute('row-index'), c.innerText])"
    )
    return [text.strip() for _, text in sorted(rows)]


async def save_screenshot(page, name: str) -> None:
    """The page as a palettized PNG in `SCREENSHOTS`, when set."""
    if SCREENSHOTS:
        shot = Image.open(io.BytesIO(await page.screenshot())).convert("P", palette=Image.ADAPTIVE)
        shot.save(Path(SCREENSHOTS, name), optimize=True)
