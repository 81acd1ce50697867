"""Records hold replies, not PNGs: `RenderedCanvases` paints them again, in real Chromium, as the
run that wrote them painted them (its renderer, task and seed), and the picture is the one a
direct render gives."""

from __future__ import annotations

import asyncio
import io

import numpy as np
import pandas as pd
import pytest
from hydra.utils import instantiate
from omegaconf import OmegaConf
from PIL import Image

from watercolor.analysis.canvas_sources import RenderedCanvases, task_harness
from watercolor.analysis.records import Evaluation, Records
from watercolor.config import compose_train
from watercolor.render import renderers
from watercolor.render.renderers import LocalRenderer
from watercolor.tasks.episode import with_twin

pytestmark = pytest.mark.browser


def run_config(seed: int = 3) -> str:
    """A training run's resolved config.yaml at a low density (the renderer and task it records,
    and its seed)."""
    cfg = compose_train(["renderer.pixel_density=0.25", f"seed={seed}"])
    return OmegaConf.to_yaml(OmegaConf.masked_copy(cfg, ["renderer", "task", "seed"]), resolve=True)


def pixels(png: bytes | str) -> np.ndarray:
    source = io.BytesIO(png) if isinstance(png, bytes) else png
    with Image.open(source) as image:
        return np.asarray(image.convert("RGB"), dtype=float)


class CountedRenderer(LocalRenderer):
    made = 0

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        CountedRenderer.made += 1


@pytest.mark.slow  # slow tier: experiments/2026-12-07_test_tiers
def test_replies_are_painted_again_as_their_run_painted_them(tmp_path, monkeypatch):
    reply = """```js
function setup() {
  createCanvas(600, 600, WEBGL);
  background("#f3ead6");
  brush.scaleBrushes(3);
  brush.noStroke();
  brush.fill("#e07a8f", 150); brush.fillBleed(0.3); brush.fillTexture(0.4, 0.3);
  brush.circle(-40, -20, 140);
  brush.fill("#5b8fd1", 120);
  brush.circle(60, 40, 120);
}
```"""  # two translucent washes: ~1 CPU-s to paint (a sample watercolour, ~4)
    rows = pd.DataFrame({"step": [10, 10], "index": [0, 1], "reply": [reply, "no code at all"],
                         "status": ["ok", "violation"]})  # fmt: skip
    samples = pd.DataFrame({"key": ["p00_s00"], "reply": [reply], "status": ["ok"],
                            "prompt": ["a peach hibiscus"]})  # fmt: skip
    # The evaluation is of another run (seed 4): it painted alike, so it shares r1's renderer.
    found = Records(runs=[{"run_id": "r1", "seed": "3"}, {"run_id": "r2", "seed": "4"}],
                    configs={"r1": run_config(3), "r2": run_config(4)},
                    evaluations=[Evaluation("e1", "r2", {}, samples, {"seed": "3"})])  # fmt: skip
    monkeypatch.setattr(renderers, "LocalRenderer", CountedRenderer)
    with RenderedCanvases(found) as source:
        pngs = source.rollouts("r1", 10, rows, tmp_path / "run")
        evaluation = source.evaluation(found.evaluations[0], ["p00_s00", "p01_s00"], tmp_path / "e")
    assert CountedRenderer.made == 1  # one renderer for both runs: same renderer config and task
    assert set(pngs) == {0, "grid"}  # the refused reply has no canvas
    cfg = OmegaConf.create(run_config())
    harness = instantiate(task_harness(cfg.task))
    renderer = LocalRenderer(instantiate(cfg.renderer), instantiate(cfg.task.episode), harness)

    async def direct():
        try:
            return await renderer(reply, 3)
        finally:
            await renderer.close()

    expected = pixels(asyncio.run(direct()).png)
    again = pixels(str(pngs[0]))
    assert again.shape == expected.shape == (150, 150, 3)  # 600 px at density 0.25
    assert np.abs(again - expected).max() <= 32 and np.mean(again != expected) < 0.01
    assert pixels(str(pngs["grid"])).std() > 0  # a picture, not a grey placeholder
    assert set(evaluation) == {"p00_s00"} and np.abs(pixels(str(evaluation["p00_s00"]))
                                                      - expected).max() <= 32  # fmt: skip


class CallCounted(LocalRenderer):
    calls = 0

    async def __call__(self, reply: str, seed: int = 0):
        CallCounted.calls += 1
        return await super().__call__(reply, seed)


@pytest.mark.slow  # slow tier: four renders in Chromium (~15 s)
def test_over_a_second_paper_the_clean_replies_are_painted_again_as_their_twins(
    tmp_path, monkeypatch
):
    reply = """```js
function setup() {
  createCanvas(600, 600, WEBGL);
  background("#f3ead6");
  brush.noStroke();
  brush.fill("#e07a8f", 110);
  brush.circle(0, 0, 120);
}
```"""  # one translucent wash in the middle of a cream sheet
    rows = pd.DataFrame({"step": [5, 5], "index": [0, 1], "reply": [reply, "no code at all"],
                         "status": ["ok", "violation"]})  # fmt: skip
    found = Records(runs=[{"run_id": "r1", "seed": "3"}], configs={"r1": run_config(3)})
    monkeypatch.setattr(renderers, "LocalRenderer", CallCounted)
    with RenderedCanvases(found) as source:
        own = source.rollouts("r1", 5, rows, tmp_path)
        over = source.rollouts("r1", 5, rows, tmp_path, paper="#1e3a5f")
        assert CallCounted.calls == 2  # the twins reuse the batch just painted
        later = rows.assign(step=10, reply=[reply.replace("110", "90"), "no code at all"])
        source.rollouts("r1", 10, later, tmp_path, paper="#1e3a5f")
        assert CallCounted.calls == 4  # other replies are painted first, then their twins
    assert set(own) == set(over) == {0, "grid"}  # the refused reply has no twin either
    grids = [pixels(str(found["grid"])) for found in (own, over)]
    assert grids[0].shape == grids[1].shape == (200, 400, 3)  # a tile per reply, in order
    assert (grids[1][:, 200:] == 128).all()  # the refused reply's tile: grey, in its place
    assert own[0].parent.name == "step_00005" and over[0].parent.name == "step_00005_over_1e3a5f"
    corner_own, corner_over = pixels(str(own[0]))[2, 2], pixels(str(over[0]))[2, 2]
    assert np.abs(corner_own - (243, 234, 214)).max() <= 6  # the paper the sketch asked for
    assert np.abs(corner_over - (30, 58, 95)).max() <= 6  # the second paper instead
    cfg = OmegaConf.create(run_config())
    harness = instantiate(task_harness(cfg.task))
    renderer = LocalRenderer(instantiate(cfg.renderer), instantiate(cfg.task.episode), harness)

    async def direct():
        try:
            canvas = await renderer(reply, 3)
            return await with_twin(await renderer.started(), canvas, "#1e3a5f", 3)
        finally:
            await renderer.close()

    expected = pixels(asyncio.run(direct()).twin.png)
    assert np.abs(pixels(str(over[0])) - expected).max() <= 32  # as training paints the twin


def test_runs_recorded_before_tasks_named_their_harness_painted_in_paintings():
    cfg = OmegaConf.create(run_config())
    assert task_harness(cfg.task) == cfg.task.harness
    del cfg.task["harness"]  # a config.yaml of 2026-12-04 or earlier
    assert instantiate(task_harness(cfg.task)).name == "p5.brush"
