"""Every committed study's evaluation replies score the same through the environment's rubric
tree (watercolor/env/rubric.py) as through RewardSet.score (issue 46 item 2).

    .venv/bin/python experiments/2026-12-05_rubric_identity/identity.py --limit 3 --files 1
    .venv/bin/python experiments/2026-12-05_rubric_identity/identity.py      # all, ~1-2 hours

The records keep replies, not canvases, so each reply is painted again (its task's episode, the
default renderer, seed 0; over the second paper too where a set of the task reads one, as
training paints for `show_through`) and the canvas scored by every offline reward set of its task
both ways: `same` counts totals and components equal bit for bit. `recorded_delta` is the
largest |total now - total recorded| per set, for information only: a repaint differs from the
study's own render (SwiftShader's few pixels, another machine, code changed since: svg_fine is a
product now), which says nothing about the rubric.

Each records file's rows go to results/<study>__<job>.parquet (zstd) as it finishes, so a run
stopped part way is resumed by running the command again; summary.csv is rebuilt from every
result file.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
import time
from functools import partial
from pathlib import Path

import pandas as pd
from hydra.utils import instantiate

from watercolor.analysis.records import write_table
from watercolor.config import compose_train, reward_sets
from watercolor.env.rubric import RewardSetRubric
from watercolor.render.pool import RenderPool
from watercolor.rewards.reward_set import second_paper
from watercolor.tasks import build_task

ROOT = Path(__file__).resolve().parents[2]
HERE = Path(__file__).parent
RESULTS = HERE / "results"


def same(a: float | None, b: float | None) -> bool:
    return a is b is None or (a is not None and b is not None and a.hex() == b.hex())


def task_of(samples: Path) -> str:
    """The task a records file's evaluation painted (its episode's package; painting before tasks
    were named)."""
    params = json.loads((samples.parent / "evaluation.json").read_text())["params"]
    episode = params.get("task.episode._target_", "watercolor.tasks.painting.episode.paint")
    return episode.split(".")[2]


def result_path(samples: Path) -> Path:
    job = samples.parents[1]
    return RESULTS / f"{job.parents[1].name}__{job.name}.parquet"


async def check_task(task_name: str, files: list[Path], limit: int | None) -> pd.DataFrame:
    """Every file's rows; written to results/ as each file finishes unless `limit` (a trial)."""
    cfg = compose_train([f"task={task_name}"])
    task = build_task(cfg.task)
    sets = reward_sets(offline=True, task=task.name)
    rubrics = {name: RewardSetRubric(rewards) for name, rewards in sets.items()}
    paper = second_paper(sets.values())
    episode = task.episode if paper is None else partial(task.episode, second_paper=paper)
    config = instantiate(cfg.renderer)
    found = []
    async with RenderPool(config, task.harness) as pool:
        slots = asyncio.Semaphore(config.workers)

        async def paint(reply: str):
            async with slots:
                return await episode(pool, reply, seed=0)

        for file in files:
            samples = pd.read_parquet(file).head(limit)
            started = time.monotonic()
            canvases = await asyncio.gather(*(paint(reply) for reply in samples["reply"]))
            rows = []
            for (_, sample), canvas in zip(samples.iterrows(), canvases, strict=True):
                for name, rewards in sets.items():
                    score = rewards.score(canvas, prompt=sample.prompt)
                    total = rubrics[name]({"prompt": sample.prompt}, canvas)
                    leaves = {n: leaf.last_score for n, leaf in rubrics[name].leaves.items()}
                    recorded = sample.get(f"total/{name}")
                    delta = (
                        None
                        if recorded is None or pd.isna(recorded) or score.total is None
                        else abs(score.total - recorded)
                    )
                    rows.append({
                        "file": str(file.relative_to(ROOT)), "key": sample.key, "set": name,
                        "same": same(score.total, total) and leaves == score.components,
                        "recorded_delta": delta,
                    })  # fmt: skip
            found += rows
            if limit is None:
                RESULTS.mkdir(exist_ok=True)
                write_table(pd.DataFrame(rows), result_path(file))
            seconds = time.monotonic() - started
            print(f"{file.relative_to(ROOT)}: {len(samples)} replies, {seconds:.0f} s",
                  file=sys.stderr, flush=True)  # fmt: skip
    return pd.DataFrame(found)


def summary(table: pd.DataFrame, out: Path | None) -> pd.DataFrame:
    found = (
        table.groupby("set")
        .agg(scored=("same", "size"), same=("same", "sum"), delta=("recorded_delta", "max"))
        .reset_index()
    )
    if out is not None:
        found.to_csv(out, index=False)
    print(found.to_string(index=False))
    print(f"{int(table['same'].sum())} of {len(table)} scores the same bit for bit "
          f"({table['file'].nunique()} records files)")  # fmt: skip
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--limit", type=int, help="replies per records file (default: all)")
    parser.add_argument("--files", type=int, help="records files (default: all)")
    args = parser.parse_args()
    files = sorted(ROOT.glob("experiments/*/records/*/evaluation/samples.parquet"))[: args.files]
    todo = [f for f in files if args.limit is not None or not result_path(f).exists()]
    tables = [
        asyncio.run(check_task(name, [f for f in todo if task_of(f) == name], args.limit))
        for name in sorted({task_of(f) for f in todo})
    ]
    if args.limit is not None:  # a trial: its own rows only, nothing written
        summary(pd.concat(tables), None)
    else:
        done = [pd.read_parquet(result_path(f)) for f in files if result_path(f).exists()]
        summary(pd.concat(done), HERE / "summary.csv")


if __name__ == "__main__":
    main()
