"""What one GRPO step of a real recipe costs on one GPU, measured on random weights of its class.

    $ python -m watercolor.bench.gpu                  # Qwen3.5-35B-A3B's class, bf16, on cuda
    $ python -m watercolor.bench.gpu --dense          # Qwen3.5's dense class (~9B at its defaults)
    $ python -m watercolor.bench.gpu --device cpu --tiny --json   # the same path, tiny, on a CPU

Real weights cannot be downloaded here, and the time a token costs hardly depends on the
weights' values, so the model is built from its class's default config (the transformers config
classes default to the 35B-A3B's sizes, and to a 9B for the dense class) with random weights,
initialised on the GPU in bf16: the 65 GiB never touch the CPU. In one run, at batch `--batch`
(one GRPO group), it measures:

- generation: `generate` from `--prompt-tokens` random ids, `--decode-steps` new tokens sampled
  with the recipe's temperature, top_p and top_k (min_new_tokens = max_new_tokens: no reply
  ends early): the prefill's seconds (the fastest of `PREFILL_TRIES` one-token generations: a
  decode step is the difference of two timings, and one slow prefill on a busy machine made it
  negative), then milliseconds per decode step. Twice: on the bare model, and with the recipe's
  LoRA attached and unmerged, gradient checkpointing off, as TRL's GRPOTrainer generates without
  vLLM (peft then adds each expert stack's low-rank delta to the stack on every forward, which a
  decode step pays for);
- the update: the recipe's own LoRA (`model.lora` of conf/model/<recipe>.yaml, made a
  LoraConfig by `watercolor.policy.loading.lora_config`, as training does), gradient
  checkpointing on, one forward + backward over prompt + completion tokens, the completion's
  log-probabilities as TRL's trainer computes them (`token_logps`) and a GRPO-shaped loss
  (log-probabilities times random advantages), then a fused AdamW step on the LoRA weights:
  seconds per update (mean of `--repeats` after one warm-up) at each of `--completion-tokens`;
- peak GPU memory of each phase (the generation's cache is freed before the update), the
  versions, the experts and attention implementations, and whether flash-linear-attention and
  causal-conv1d were importable and used (or transformers' PyTorch fallbacks ran).

`step_estimate` then adds up one GRPO step at realistic reply lengths: generation (the prefill,
then a decode step per reply token, the LoRA-attached figures; every reply as long as the
longest, since a batch decodes until its last reply ends), rendering (`--render-s`: seconds for
the group's renders, an input: the default is the anchor's reported 69-96 s for 8 renders, not
a figure measured here) and the update (a straight line through the measured update times
against tokens per sequence; with one length measured, through zero).

A phase that fails still prints what the phases before it measured (an update length that fails
records its error and the run goes on): a lent GPU gives one try.

Not measured: a trained router's balance (random routers spread tokens evenly over experts),
decode steps at contexts longer than the prompt (10 of the 35B's 40 layers attend to the whole
context; the rest keep a fixed-size state), TRL's own overhead (reward calls, logging; with
`beta: 0` it runs no reference model), and vLLM.
"""

from __future__ import annotations

import argparse
import contextlib
import importlib
import inspect
import json
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from importlib.metadata import PackageNotFoundError, version

import torch
from omegaconf import OmegaConf
from peft import get_peft_model
from transformers import AutoModelForImageTextToText, PretrainedConfig, PreTrainedModel

from watercolor.config import compose_train
from watercolor.policy.loading import lora_config
from watercolor.tasks.painting.painter import tiny_qwen35

REPLY_TOKENS = (1024, 2048, 4096, 8192)
ANCHOR_RENDER_S = (69.0, 96.0)  # the anchor's reported seconds for a group's 8 renders
GIB = 2**30
PACKAGES = ("torch", "transformers", "peft", "trl", "triton", "accelerate",
            "flash-linear-attention", "causal-conv1d")  # fmt: skip
# The linear attention's kernels: transformers uses these packages' when they import, else
# its own PyTorch code (the functions of the modeling module that wrap them).
KERNELS = {
    "flash_linear_attention": ("fla", ["torch_chunk_gated_delta_rule"]),
    "causal_conv1d": ("causal_conv1d", ["causal_conv1d_fn", "causal_conv1d_update"]),
}


def recipe_name(dense: bool) -> str:
    return "qwen3_5_4b" if dense else "qwen3_5_35b_a3b"


def recipe_settings(dense: bool) -> tuple[dict, dict]:
    """(lora, trainer) of the recipe, composed as `python -m watercolor.train model=...` does."""
    cfg = compose_train([f"model={recipe_name(dense)}"])
    return OmegaConf.to_container(cfg.model.lora), OmegaConf.to_container(cfg.trainer)


def model_config(dense: bool, tiny: bool) -> PretrainedConfig:
    """The class-default config of the recipe's class, or the tiny recipe models' sizes."""
    config_cls, model_cls = tiny_qwen35.classes(not dense)
    if tiny:
        tokenizer = tiny_qwen35.qwen35_tokenizer(["function setup() { brush.fill(1); }"] * 4, 300)
        sizes = tiny_qwen35.DENSE if dense else tiny_qwen35.MOE
        return tiny_qwen35.model_config(sizes, tokenizer)
    return config_cls(architectures=[model_cls.__name__])


def vision_ids(config: PretrainedConfig) -> list[int]:
    return [
        config.image_token_id,
        config.video_token_id,
        config.vision_start_token_id,
        config.vision_end_token_id,
    ]


def require_device(device: str, tiny: bool) -> None:
    """Refuse to run the full-size models anywhere but on a CUDA device."""
    if device == "cpu" and tiny:
        return
    if device == "cpu":
        raise SystemExit("bench gpu: --device cpu runs only with --tiny (a 35B model on a CPU).")
    if not torch.cuda.is_available():
        raise SystemExit(
            "bench gpu: no CUDA device here. It measures a real recipe on a GPU; to run the same "
            "code path on a tiny model on this CPU, pass --device cpu --tiny."
        )


# --- timing and memory ----------------------------------------------------------------------


def synchronize(device: torch.device) -> None:
    if device.type == "cuda":
        torch.cuda.synchronize(device)


def timed(fn: Callable[[], object], device: torch.device) -> tuple[object, float]:
    """(fn(), seconds), the device synchronised before and after."""
    synchronize(device)
    start = time.perf_counter()
    result = fn()
    synchronize(device)
    return result, time.perf_counter() - start


@contextlib.contextmanager
def peak_memory(device: torch.device, into: dict, key: str) -> Iterator[None]:
    """Record into `into[key]` the GiB allocated at the peak inside and at the end (CUDA only)."""
    if device.type != "cuda":
        yield
        return
    torch.cuda.empty_cache()
    torch.cuda.reset_peak_memory_stats(device)
    try:
        yield
    finally:
        into[key] = {
            "peak": round(torch.cuda.max_memory_allocated(device) / GIB, 2),
            "after": round(torch.cuda.memory_allocated(device) / GIB, 2),
        }


# --- the measurements -----------------------------------------------------------------------


def build(config: PretrainedConfig, device: torch.device, dtype: torch.dtype) -> PreTrainedModel:
    """The recipe's class with random weights, created and initialised on `device`."""
    with torch.device(device):
        model = AutoModelForImageTextToText.from_config(config, dtype=dtype)
    return model.eval()


def random_ids(config: PretrainedConfig, shape: tuple[int, int], device: torch.device):
    """Random token ids below the vision tokens (a text prompt: no image placeholders)."""
    return torch.randint(0, min(vision_ids(config)), shape, device=device)


PREFILL_TRIES = 3  # a one-token generation is one forward: cheap to time thrice


def time_generation(
    model, prompt: torch.Tensor, decode_steps: int, sampling: dict, device: torch.device
) -> dict:
    """Prefill seconds and ms per decode step of `generate` at the prompt's batch size."""
    config = model.config
    options = {
        "attention_mask": torch.ones_like(prompt),
        "do_sample": True,
        "pad_token_id": 0,
        "suppress_tokens": vision_ids(config),
        **sampling,
    }

    def generate(tokens: int):
        return model.generate(prompt, min_new_tokens=tokens, max_new_tokens=tokens, **options)

    timed(lambda: generate(2), device)  # warm-up: kernels, autotuning, allocator
    prefill_s = min(timed(lambda: generate(1), device)[1] for _ in range(PREFILL_TRIES))
    output, total_s = timed(lambda: generate(decode_steps), device)
    if output.shape[1] != prompt.shape[1] + decode_steps:
        raise RuntimeError(f"generation stopped early: {output.shape[1]} tokens")
    decode_ms = 1000 * (total_s - prefill_s) / max(1, decode_steps - 1)
    return {
        "prefill_s": round(prefill_s, 3),
        "decode_ms_per_step": round(decode_ms, 2),
        "generate_s": round(total_s, 3),
    }


def with_lora(model, lora: dict, device: torch.device):
    """The recipe's LoRA on `model` (as GRPOTrainer's peft_config), gradient checkpointing on."""
    # The recipe's `gradient_checkpointing: true`, non-reentrant as TRL sets it by default
    model.activation_checkpointing_enable(activation_checkpointing_kwargs={"use_reentrant": False})
    with torch.device(device):
        peft_model = get_peft_model(model, lora_config(lora))
    return peft_model.train()


def token_logps(logits: torch.Tensor, ids: torch.Tensor) -> torch.Tensor:
    """Each of `ids`' log-probability under `logits`, as TRL's GRPOTrainer computes it: on a GPU
    with triton, TRL's fused kernel (`trl.kernels.selective_log_softmax_and_entropy`, public;
    the trainer's `selective_log_softmax` calls it there and drops the entropy), else
    log_softmax then gather (the trainer's own fallback, without its row-by-row loop)."""
    from trl import kernels  # TRL takes seconds to import

    if logits.is_cuda and hasattr(kernels, "selective_log_softmax_and_entropy"):
        return kernels.selective_log_softmax_and_entropy(logits, ids)[0]
    return torch.gather(logits.log_softmax(-1), dim=-1, index=ids.unsqueeze(-1)).squeeze(-1)


def update_once(model, optimizer, ids: torch.Tensor, completion_tokens: int) -> None:
    """One GRPO-shaped update: completion log-probs x random advantages, backward, AdamW step."""
    logits = model(input_ids=ids, use_cache=False, logits_to_keep=completion_tokens + 1).logits
    logps = token_logps(logits[:, :-1], ids[:, -completion_tokens:])
    advantages = torch.randn(ids.shape[0], 1, device=ids.device)
    loss = -(logps.float() * advantages).mean()
    loss.backward()
    optimizer.step()
    optimizer.zero_grad(set_to_none=True)


def time_update(model, optimizer, ids: torch.Tensor, completion: int, repeats: int, device):
    """Mean seconds of `repeats` updates after one warm-up."""

    def update() -> None:
        update_once(model, optimizer, ids, completion)

    update()
    return sum(timed(update, device)[1] for _ in range(repeats)) / repeats


def time_updates(model, args, lr: float, device: torch.device, peaks: dict) -> list[dict]:
    """Seconds per update at each completion length; a length that fails records its error."""
    trainable = [p for p in model.parameters() if p.requires_grad]
    optimizer = torch.optim.AdamW(trainable, lr=lr, fused=device.type == "cuda")
    rows = []
    for completion in args.completion_tokens:
        sequence = args.prompt_tokens + completion
        ids = random_ids(model.config, (args.batch, sequence), device)
        row = {"completion_tokens": completion, "sequence_tokens": sequence}
        try:
            with peak_memory(device, peaks, f"update_{completion}"):
                seconds = time_update(model, optimizer, ids, completion, args.repeats, device)
            row["update_s"] = round(seconds, 3)
        except Exception as error:  # out of memory, a kernel refusing its backward: recorded,
            # and the run goes on (one try on a lent GPU: the other figures still come back)
            row["error"] = f"{type(error).__name__}: {str(error)[:300]}"
            optimizer.zero_grad(set_to_none=True)
        rows.append(row)
    return rows


def generation_with_lora(model, prompt, args, sampling: dict, device) -> dict:
    """`time_generation` on the LoRA model as TRL generates: gradient checkpointing off."""
    model.get_base_model().activation_checkpointing_disable()
    return time_generation(model, prompt, args.decode_steps, sampling, device)


# --- what ran -------------------------------------------------------------------------------


def versions() -> dict[str, str | None]:
    """Installed versions of what the run depends on (None: not installed), and torch's CUDA."""
    found = {}
    for name in PACKAGES:
        try:
            found[name] = version(name)
        except PackageNotFoundError:
            found[name] = None
    return found | {"cuda": torch.version.cuda}


def importable(module: str) -> bool:
    try:
        importlib.import_module(module)
    except Exception:  # an installed package whose import fails is as good as none
        return False
    return True


def kernels_used(model: PreTrainedModel) -> dict[str, dict]:
    """Per linear-attention kernel package: importable, and used by the model's module.

    transformers picks each function's implementation once, at import, and keeps it in the
    wrapper's closure (`is_new_implementation`: the package's, not its own PyTorch code).
    """
    modeling = sys.modules[type(model).__module__]
    report = {}
    for name, (module, functions) in KERNELS.items():
        closures = [inspect.getclosurevars(getattr(modeling, f)).nonlocals for f in functions]
        used = {c.get("is_new_implementation") for c in closures}  # None: not such a wrapper
        report[name] = {
            "importable": importable(module),
            "used": used.pop() if len(used) == 1 else None,
        }
    return report


def implementations(model: PreTrainedModel) -> dict:
    """The attention and experts implementations transformers chose for the language model."""
    text = model.config.get_text_config()
    return {
        "attention": text._attn_implementation,
        "experts": getattr(text, "_experts_implementation_internal", None),
    }


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


# --- the run --------------------------------------------------------------------------------


def run(args: argparse.Namespace, figures: dict) -> None:
    """Fill `figures` with every figure of one bench run, phase by phase (see the docstring)."""
    device = torch.device(args.device)
    dtype = torch.float32 if args.tiny and device.type == "cpu" else torch.bfloat16
    lora, trainer = recipe_settings(args.dense)
    sampling = {k: trainer[k] for k in ("temperature", "top_p", "top_k")}
    config = model_config(args.dense, args.tiny)
    figures |= setting(args, device, dtype)
    peaks = figures["peak_gib"]
    with peak_memory(device, peaks, "build"):
        model, build_s = timed(lambda: build(config, device, dtype), device)
    figures |= described(model) | {"build_s": round(build_s, 1)}
    prompt = random_ids(config, (args.batch, args.prompt_tokens), device)
    with peak_memory(device, peaks, "generation"):
        figures["generation"] = time_generation(model, prompt, args.decode_steps, sampling, device)
    model = with_lora(model, lora, device)
    figures["trainable_parameters"] = sum(p.numel() for p in model.parameters() if p.requires_grad)
    figures["activation_checkpointing"] = model.get_base_model().is_activation_checkpointing
    figures["update"] = time_updates(model, args, trainer["learning_rate"], device, peaks)
    with peak_memory(device, peaks, "generation_lora"):
        figures["generation_lora"] = generation_with_lora(model, prompt, args, sampling, device)
    figures["estimate"] = estimate(figures, args.render_s)


def setting(args: argparse.Namespace, device: torch.device, dtype: torch.dtype) -> dict:
    """What the run measures on, known before it starts."""
    return {
        "recipe": recipe_name(args.dense),
        "device": torch.cuda.get_device_name(device) if device.type == "cuda" else device.type,
        "dtype": str(dtype).removeprefix("torch."),
        "tiny": args.tiny,
        "batch": args.batch,
        "prompt_tokens": args.prompt_tokens,
        "decode_steps": args.decode_steps,
        "versions": versions(),
        "peak_gib": {},
    }


def described(model: PreTrainedModel) -> dict:
    """The built model: class, size and the implementations transformers chose for it."""
    return {
        "class": type(model).__name__,
        "parameters": sum(p.numel() for p in model.parameters()),
        "kernels": kernels_used(model),
        "implementations": implementations(model),
    }


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
    require_device(args.device, args.tiny)
    figures: dict = {}
    try:
        run(args, figures)
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
