"""Every committed study's evaluation replies score the same through the environment's rubric
tree (watercolor/env/rubric.py) as through RewardSet.score (issue 46 item 2).

    .venv/bin/python experiments/2026-12-05_rubric_identity/identity.py --limit 3   # a handful
    .venv/bin/python experiments/2026-12-05_rubric_identity/identity.py             # all (hours)

The records keep replies, not canvases, so each reply is painted again (the task's episode, the
default renderer, seed 0) and the canvas scored by every offline reward set of its task both
ways: `same` counts totals and components equal bit for bit. `recorded_delta` is the largest
|total now - total recorded| per set, for information only: a repaint differs from the study's
own render (SwiftShader's few pixels, another machine, code changed since), which says nothing
about the rubric.
"""

from __future__ import annotations

import argparse
import asyncio
from pathlib import Path

import pandas as pd
from hydra.utils import instantiate

from watercolor.config import compose_train, reward_sets
from watercolor.env.rubric import RewardSetRubric
from watercolor.render.pool import RenderPool
from watercolor.tasks import build_task

ROOT = Path(__file__).resolve().parents[2]


def same(a: float | None, b: float | None) -> bool:
    return a is b is None or (a is not None and b is not None and a.hex() == b.hex())


async def check(files: list[Path], limit: int | None) -> pd.DataFrame:
    cfg = compose_train([])  # every study so far is the painting task
    task = build_task(cfg.task)
    sets = {
        n: r for n, r in reward_sets(offline=True, task=task.name).items() if not r.second_paper
    }
    rubrics = {n: RewardSetRubric(r) for n, r in sets.items()}
    rows = []
    async with RenderPool(instantiate(cfg.renderer), task.harness) as pool:
        for file in files:
            samples = pd.read_parquet(file)
            for _, sample in samples.head(limit).iterrows():
                canvas = await task.episode(pool, sample.reply, seed=0)
                for name, rewards in sets.items():
                    score = rewards.score(canvas, prompt=sample.prompt)
                    total = rubrics[name]({"prompt": sample.prompt}, canvas)
                    leaves = {n: leaf.last_score for n, leaf in rubrics[name].leaves.items()}
                    recorded = sample.get(f"total/{name}")
                    rows.append(
                        {
                            "file": str(file.relative_to(ROOT)),
                            "key": sample.key,
                            "set": name,
                            "same": same(score.total, total) and leaves == score.components,
                            "recorded_delta": None
                            if recorded is None or pd.isna(recorded) or score.total is None
                            else abs(score.total - recorded),
                        }
                    )
    return pd.DataFrame(rows)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--limit", type=int, help="replies per records file (default: all)")
    parser.add_argument("--files", type=int, help="records files (default: all)")
    args = parser.parse_args()
    files = sorted(ROOT.glob("experiments/*/records/*/evaluation/samples.parquet"))[: args.files]
    table = asyncio.run(check(files, args.limit))
    print(
        table.groupby("set")
        .agg(
            scored=("same", "size"), same=("same", "sum"), recorded_delta=("recorded_delta", "max")
        )
        .to_string()
    )
    print(f"{int(table['same'].sum())} of {len(table)} scores the same bit for bit")


if __name__ == "__main__":
    main()
