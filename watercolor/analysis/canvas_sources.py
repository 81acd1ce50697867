"""Where `watercolor.compare`'s galleries get their canvases: an MLflow store, or a re-render.

    >>> source = StoreCanvases(mlflow.MlflowClient(uri))     # the PNGs the runs logged
    >>> source = RenderedCanvases(records)                    # records hold no PNGs: re-render
    >>> pngs = source.rollouts(run_id, step, rows, folder)    # {reply index: PNG path}
    >>> pngs = source.rollouts(run_id, step, rows, folder, paper="#1e3a5f")  # over a 2nd paper
    >>> source.close()                                        # or `with RenderedCanvases(...)`

A study's committed records keep the replies, not their canvases; the renderer is deterministic
(strokes bit-identical, watercolour fills within a few pixels), so a gallery re-renders only the
replies it shows, each with the renderer and task of the run that wrote it (its `config.yaml`)
and the seed it was painted with. Runs that painted alike (the same renderer and task config)
share one renderer, kept warm from call to call until `close()`: a study's 15 galleries start
one pool's browsers, not 15 (each pool's start costs ~3 CPU-s a browser).

Over a second paper (`paper=`): each reply that ran clean is painted again over that paper, as a
set that reads one paints its twin (the task's `with_twin`: its code, the same seed). No run
logs its twins' pictures, so a store's canvases are re-rendered for it too (`StoreCanvases`'s
`repaint`).

What this isolates: nothing itself; replies run in the render pool's sandboxed pages
(`watercolor.render.pool`).
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import Sequence
from pathlib import Path

import mlflow
import pandas as pd
from hydra.utils import instantiate
from omegaconf import DictConfig, OmegaConf

from watercolor.analysis.records import Evaluation, Records
from watercolor.config import compose_train


class StoreCanvases:
    """The canvases the runs logged to an MLflow store; `repaint` (a `RenderedCanvases` of the
    same runs) paints what no run logged: the replies over a second paper."""

    def __init__(
        self, client: mlflow.MlflowClient, repaint: RenderedCanvases | None = None
    ) -> None:
        self.client, self.repaint = client, repaint

    def close(self) -> None:
        """Close `repaint`'s browsers, if it started any (as `RenderedCanvases.close`)."""
        if self.repaint is not None:
            self.repaint.close()

    def rollouts(
        self, run_id: str, step: int, rows: pd.DataFrame, folder: Path, paper: str | None = None
    ) -> dict:
        """{index: PNG} of the run's logged rollout step, plus "grid" (its grid image); over
        `paper`, `repaint`'s (ValueError without one)."""
        if paper is not None:
            if self.repaint is None:
                raise ValueError("a store holds no canvas over a second paper: give a repaint")
            return self.repaint.rollouts(run_id, step, rows, folder, paper)
        folder.mkdir(parents=True, exist_ok=True)
        self.client.download_artifacts(run_id, f"rollouts/{step_folder(step)}", str(folder))
        images = folder / step_folder(step)
        found = {int(i): images / f"canvas_{int(i):02d}.png" for i in rows["index"]}
        return {k: p for k, p in found.items() if p.is_file()} | {"grid": images / "grid.png"}

    def evaluation(self, evaluation: Evaluation, keys: Sequence[str], folder: Path) -> dict:
        """{key: PNG} of the evaluation's canvases that painted."""
        names = {a.path for a in self.client.list_artifacts(evaluation.evaluation_id, "canvases")}
        found = {}
        for key in keys:
            if f"canvases/{key}.png" in names:
                folder.mkdir(parents=True, exist_ok=True)
                found[key] = Path(self.client.download_artifacts(
                    evaluation.evaluation_id, f"canvases/{key}.png", str(folder)))  # fmt: skip
        return found


class RenderedCanvases:
    """Canvases re-rendered from the replies in a study's records; `close()` (or `with`) ends
    the renderers' browsers."""

    def __init__(self, found: Records) -> None:
        self.configs = found.configs
        self.seeds = {info["run_id"]: int(info["seed"]) for info in found.runs}
        self._runner: asyncio.Runner | None = None  # the one loop the renderers live on
        self._renderers: dict[str, object] = {}  # renderer + episode config -> its LocalRenderer
        # The last batch painted (key, canvases): its twins over a second paper reuse it.
        self._last: tuple[tuple, list] | None = None

    def __enter__(self) -> RenderedCanvases:
        return self

    def __exit__(self, *exc_info) -> None:
        self.close()

    def close(self) -> None:
        """Close every renderer and their loop. Safe to call twice."""
        if self._runner is None:
            return
        renderers, self._renderers, self._last = list(self._renderers.values()), {}, None

        async def close_all() -> None:
            await asyncio.gather(*(p.close() for p in renderers), return_exceptions=True)

        try:
            self._runner.run(close_all())
        finally:
            self._runner.close()
            self._runner = None

    def rollouts(
        self, run_id: str, step: int, rows: pd.DataFrame, folder: Path, paper: str | None = None
    ) -> dict:
        """{index: PNG} of the rows' replies painted as the run painted them, plus "grid"; with
        `paper`, those that ran clean painted again over it instead (the module docstring)."""
        indices = [int(i) for i in rows["index"]]
        pngs = self._paint(list(rows["reply"]), self.seeds[run_id], self.configs[run_id], paper)
        folder = folder / step_folder(step, paper)  # as a store's download lays them out
        found = _save(
            folder, {f"canvas_{i:02d}": png for i, png in zip(indices, pngs, strict=True)}
        )
        result = {i: found[f"canvas_{i:02d}"] for i in indices if f"canvas_{i:02d}" in found}
        grid = folder / "grid.png"
        _grid([result.get(i) for i in indices], grid)  # a tile per reply: both papers' align
        return result | {"grid": grid}

    def evaluation(self, evaluation: Evaluation, keys: Sequence[str], folder: Path) -> dict:
        """{key: PNG} of the samples' replies (those of `keys` it has), painted with the
        evaluation's seed."""
        if "key" not in evaluation.samples:
            return {}
        rows = evaluation.samples.set_index("key")
        keys = [k for k in keys if k in rows.index]
        rows = rows.loc[keys]
        config = self.configs.get(evaluation.source_run_id) or next(iter(self.configs.values()))
        seed = int(evaluation.params.get("seed", 0))
        pngs = self._paint(list(rows["reply"]), seed, config)
        return _save(folder, dict(zip(keys, pngs, strict=True)))

    def _paint(
        self, replies: list[str], seed: int, config_yaml: str, paper: str | None = None
    ) -> list[bytes | None]:
        from watercolor.render.renderers import LocalRenderer  # the browser only when rendering

        if self._runner is None:
            self._runner = asyncio.Runner()
        config = OmegaConf.create(config_yaml)
        task = {"episode": config.task.episode, "harness": config.task.get("harness")}
        key = OmegaConf.to_yaml({"renderer": config.renderer, **task})
        renderer = self._renderers.get(key)  # runs of other seeds or arms paint alike
        if renderer is None:  # the harness is composed once per renderer, not per call
            episode, harness = instantiate(task["episode"]), instantiate(task_harness(config.task))
            renderer = LocalRenderer(instantiate(config.renderer), episode, harness)
            self._renderers[key] = renderer

        async def paint() -> list[bytes | None]:
            batch = (key, seed, tuple(replies))
            if self._last is not None and self._last[0] == batch:
                canvases = self._last[1]  # the same replies, just painted: their twins follow
            else:
                canvases = await asyncio.gather(*(renderer(reply, seed) for reply in replies))
                self._last = (batch, canvases)
            if paper is None:
                return [canvas.png for canvas in canvases]
            pool = await renderer.started()  # a twin: the clean run's code over `paper`
            clean = [c for c in canvases if c.ok]
            twins = await asyncio.gather(*(pool.render(c.sketch, seed, paper) for c in clean))
            painted = {id(c): t.png for c, t in zip(clean, twins, strict=True)}
            return [painted.get(id(canvas)) for canvas in canvases]

        return self._runner.run(paint())


def step_folder(step: int, paper: str | None = None) -> str:
    """A rollout step's folder name (a store's artifact path's), over `paper` if one is named."""
    name = f"step_{step:05d}"
    return name if paper is None else f"{name}_over_{re.sub('[^0-9A-Za-z]+', '', paper)}"


def task_harness(task: DictConfig) -> DictConfig:
    """The config of the harness a run's task painted in. Runs recorded before tasks named their
    harness (2026-12-05) are the painting task's, the only task then: conf/task/painting.yaml's."""
    if "harness" in task:
        return task.harness
    return compose_train(["task=painting"]).task.harness


def _save(folder: Path, pngs: dict[str, bytes | None]) -> dict[str, Path]:
    folder.mkdir(parents=True, exist_ok=True)
    found = {}
    for name, png in pngs.items():
        if png is not None:
            found[name] = folder / f"{name}.png"
            found[name].write_bytes(png)
    return found


def _grid(paths: list[Path | None], target: Path, tile: int = 200) -> None:
    """Up to 4 tiles a row, in order; a reply with no canvas (None) keeps its tile, grey, so
    a grid over the second paper lines up with the run's own."""
    from PIL import Image

    columns = max(1, min(4, len(paths)))
    rows = max(1, -(-len(paths) // columns))
    grid = Image.new("RGB", (columns * tile, rows * tile), (128, 128, 128))
    for i, path in enumerate(paths):
        if path is None:
            continue
        with Image.open(path) as image:
            grid.paste(
                image.convert("RGB").resize((tile, tile)),
                ((i % columns) * tile, (i // columns) * tile),
            )
    grid.save(target)
