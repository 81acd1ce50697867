"""Render the three test beds of the design once and keep their canvases (pickled), so reward
designs are scored offline on the same pixels:

    E=experiments/2026-12-05_translucency_v2_design; export PYTHONPATH=.  # repo root
    python $E/canvases.py sketches
    python $E/canvases.py pairs --split train --seed 0
    python $E/canvases.py pairs --split heldout --seed 1
    python $E/canvases.py kinds --per-kind 24
    python $E/canvases.py painter --model outputs/cache/intel-path/tiny-335457da48af

- `sketches`: the reward tests' sketch table (tests/rewards/test_reward_sketches.py's
  `render_all`: each sketch once, both gate settings);
- `pairs`: the translucency calibration's matched pairs (`translucency_calibration.wash_pairs`,
  rendered as its CLI renders them, 30 s limit);
- `kinds`: the corpus's `layered` and `flat` replies to the held-out prompts, as the kinds table
  (`painter.kinds`) writes and renders them (training renderer, seed 0);
- `painter`: a model's own replies (the first 24 held-out prompts x 4, sampled as training
  samples, as `painter.kinds --model` does), rendered the same way and labelled by `reply_kind`.

Canvases go to $CANVAS_CACHE (default /tmp/h34cache) as `<bed>.pkl`; `score.py` reads them.
"""

from __future__ import annotations

import argparse
import asyncio
import importlib.util
import os
import pickle
from dataclasses import replace
from pathlib import Path

from hydra.utils import instantiate

CACHE = Path(os.environ.get("CANVAS_CACHE", "/tmp/h34cache"))
ROOT = Path(__file__).resolve().parents[2]


def sketch_table_module():
    path = ROOT / "tests/rewards/test_reward_sketches.py"
    spec = importlib.util.spec_from_file_location("reward_sketches", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def sketches() -> dict:
    module = sketch_table_module()
    canvases = asyncio.run(module.render_all(module.TABLE))
    return {"table": module.TABLE, "canvases": canvases}


def pairs(count: int, seed: int, split: str, time_limit_s: float = 30.0) -> dict:
    from watercolor.tasks.painting.calibration import render_replies, training_render_config
    from watercolor.tasks.painting.translucency_calibration import wash_pairs

    chosen = wash_pairs(count, seed, split)
    render = replace(training_render_config(), time_limit_s=time_limit_s)
    replies = [t for _, t, _ in chosen] + [o for _, _, o in chosen]
    canvases = asyncio.run(render_replies(replies, render))
    return {"pairs": chosen, "translucent": canvases[:count], "opaque": canvases[count:]}


def kinds(per_kind: int, seed: int = 0) -> dict:
    from watercolor.config import compose_train
    from watercolor.evaluation.sampling import paint_replies
    from watercolor.render.renderers import LocalRenderer
    from watercolor.tasks import build_task
    from watercolor.tasks.painting.painter.kinds import kind_examples, label

    cfg = compose_train([])
    examples = kind_examples(["layered", "flat"], instantiate(cfg.task.eval_prompts), per_kind)
    task = build_task(cfg.task)
    renderer = LocalRenderer(instantiate(cfg.renderer), task.episode, task.harness)
    canvases = asyncio.run(paint_replies([e.reply for e in examples], renderer, seed))
    rows = [{"label": label(e), "prompt": e.prompt, "quality": e.quality} for e in examples]
    return {"rows": rows, "canvases": canvases}


def painter(model_dir: str, num_prompts: int = 24, samples: int = 4) -> dict:
    from watercolor.config import compose_train
    from watercolor.evaluation.sampling import generate_samples, paint_replies, training_sampling
    from watercolor.policy.loading import load_policy
    from watercolor.render.renderers import LocalRenderer
    from watercolor.tasks import build_task
    from watercolor.tasks.painting.painter.kinds import reply_kind

    cfg = compose_train([])
    model, tokenizer = load_policy(model_dir)
    prompts = instantiate(cfg.task.eval_prompts)[:num_prompts]
    generation, template_kwargs = training_sampling(cfg)
    replies = generate_samples(model, tokenizer, prompts, samples=samples, seed=0,
                               generation=generation, chat_template_kwargs=template_kwargs,
                               conversation=instantiate(cfg.task.conversation))  # fmt: skip
    task = build_task(cfg.task)
    paint = LocalRenderer(instantiate(cfg.renderer), task.episode, task.harness)
    canvases = asyncio.run(paint_replies([r.reply for r in replies], paint, 0))
    rows = [{"label": reply_kind(r.reply), "prompt": r.prompt} for r in replies]
    return {"rows": rows, "canvases": canvases, "model": model_dir}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("bed", choices=["sketches", "pairs", "kinds", "painter"])
    parser.add_argument("--model", default="outputs/cache/intel-path/tiny-335457da48af")
    parser.add_argument("--split", default="train")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--count", type=int, default=30)
    parser.add_argument("--per-kind", type=int, default=24)
    args = parser.parse_args()
    CACHE.mkdir(parents=True, exist_ok=True)
    if args.bed == "sketches":
        data, name = sketches(), "sketches"
    elif args.bed == "pairs":
        data, name = pairs(args.count, args.seed, args.split), f"pairs_{args.split}_{args.seed}"
    elif args.bed == "kinds":
        data, name = kinds(args.per_kind), f"kinds_{args.per_kind}"
    else:
        data, name = painter(args.model), "painter"
    (CACHE / f"{name}.pkl").write_bytes(pickle.dumps(data))
    print(f"wrote {CACHE / name}.pkl")


if __name__ == "__main__":
    main()
