"""What one GRPO step of a real recipe costs on one GPU, measured on random weights of its class.

    $ python -m watercolor.bench.gpu                  # Qwen3.5-35B-A3B's class, bf16, on cuda
    $ python -m watercolor.bench.gpu --dense          # Qwen3.5's dense class (~9B at its defaults)
    $ python -m watercolor.bench.gpu --device cpu --tiny --json   # the same path, tiny, on a CPU

The model is built from its class's default config with random weights, on the GPU in bf16. One
run measures generation (bare and with the recipe's LoRA attached), the LoRA update and each
phase's peak memory, and `step_estimate` adds up one GRPO step at realistic reply lengths.

The measuring code is `watercolor/bench/gpu_cost.py`, loaded after the arguments are read (a
typo answers before torch loads); this module keeps the estimate's arithmetic and the command.

What each phase measures and how, what the estimate assumes, and what is not measured:
docs/gpu.md, "What `bench gpu` measures".
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Sequence

REPLY_TOKENS = (1024, 2048, 4096, 8192)
ANCHOR_RENDER_S = (69.0, 96.0)  # the anchor's reported seconds for a group's 8 renders


# --- the estimate ---------------------------------------------------------------------------


def fit_update(rows: Sequence[dict]) -> tuple[float, float]:
    """(intercept_s, s_per_token): least squares of update seconds on tokens per sequence;
    through zero when one length was measured."""
    points = [(r["sequence_tokens"], r["update_s"]) for r in rows if "update_s" in r]
    if not points:
        raise ValueError("no update was measured")
    if len({tokens for tokens, _ in points}) == 1:
        tokens, seconds = points[0]
        return 0.0, seconds / tokens
    n = len(points)
    mean_x = sum(x for x, _ in points) / n
    mean_y = sum(y for _, y in points) / n
    slope = sum((x - mean_x) * (y - mean_y) for x, y in points) / sum(
        (x - mean_x) ** 2 for x, _ in points
    )
    return mean_y - slope * mean_x, slope


def step_estimate(
    prefill_s: float,
    decode_ms: float,
    update_fit: tuple[float, float],
    prompt_tokens: int,
    reply_tokens: Sequence[int] = REPLY_TOKENS,
    render_s: Sequence[float] = ANCHOR_RENDER_S,
) -> list[dict]:
    """Seconds of one GRPO step (generate, render, update) per reply length and render figure."""
    intercept, per_token = update_fit
    rows = []
    for reply in reply_tokens:
        generation = prefill_s + reply * decode_ms / 1000
        update = intercept + per_token * (prompt_tokens + reply)
        for render in render_s:
            step = generation + render + update
            rows.append(
                {
                    "reply_tokens": reply,
                    "generation_s": round(generation, 1),
                    "render_s": render,
                    "update_s": round(update, 1),
                    "step_s": round(step, 1),
                    "steps_per_hour": round(3600 / step, 1),
                }
            )
    return rows


def estimate(figures: dict, render_s: Sequence[float]) -> list[dict]:
    """`step_estimate` from a run's LoRA-attached generation and its update times."""
    generation = figures["generation_lora"]
    return step_estimate(
        generation["prefill_s"],
        generation["decode_ms_per_step"],
        fit_update(figures["update"]),
        figures["prompt_tokens"],
        render_s=render_s,
    )


def table(rows: list[dict]) -> str:
    columns = list(rows[0])
    lines = ["  ".join(f"{c:>14}" for c in columns)]
    lines += ["  ".join(f"{row[c]:>14}" for c in columns) for row in rows]
    return "\n".join(lines)


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="python -m watercolor.bench.gpu", description=__doc__.splitlines()[0]
    )
    parser.add_argument("--dense", action="store_true", help="the dense class (qwen3_5_4b's)")
    parser.add_argument("--batch", type=int, default=8, help="replies per group")
    parser.add_argument("--prompt-tokens", type=int, default=812)
    parser.add_argument("--decode-steps", type=int, default=32)
    parser.add_argument(
        "--completion-tokens", type=int, nargs="+", default=[32, 1024],
        help="completion lengths the update is timed at",
    )  # fmt: skip
    parser.add_argument("--repeats", type=int, default=3, help="timed updates after a warm-up")
    parser.add_argument(
        "--render-s", type=float, nargs="+", default=list(ANCHOR_RENDER_S),
        help="seconds for a group's renders (default: the anchor's reported 69 and 96 s)",
    )  # fmt: skip
    parser.add_argument("--device", default="cuda")
    parser.add_argument("--tiny", action="store_true", help="the tiny recipe models' sizes")
    parser.add_argument("--json", action="store_true", help="one JSON object, nothing else")
    return parser.parse_args(argv)


def main(argv: list[str] | None = None) -> dict:
    """Run the bench and print its figures, also (all measured so far) when a phase fails."""
    args = parse_args(argv)
    from watercolor.bench import gpu_cost  # torch and transformers load after the arguments

    gpu_cost.require_device(args.device, args.tiny)
    figures: dict = {}
    try:
        gpu_cost.run(args, figures)
        figures["estimate"] = estimate(figures, args.render_s)
    finally:
        if args.json:
            print(json.dumps(figures))
        else:
            print(json.dumps({k: v for k, v in figures.items() if k != "estimate"}, indent=2))
            if figures.get("estimate"):
                print(table(figures["estimate"]))
    return figures


if __name__ == "__main__":
    main()
