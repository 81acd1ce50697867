"""What `python -m watercolor.bench.gpu` measures with (its docstring says what and how): the
model, its generation, its update and what ran. torch, transformers and peft load here, after
the command has read its arguments, so a typo answers at once."""

from __future__ import annotations

import argparse
import contextlib
import importlib
import inspect
import sys
import time
from collections.abc import Callable, Iterator
from importlib.metadata import PackageNotFoundError, version

import torch
from omegaconf import OmegaConf
from peft import get_peft_model
from transformers import AutoModelForImageTextToText, PretrainedConfig, PreTrainedModel

from watercolor.config import compose_train
from watercolor.policy.loading import lora_config
from watercolor.tasks.painting.painter import tiny_qwen35

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


# --- the run --------------------------------------------------------------------------------


def run(args: argparse.Namespace, figures: dict) -> None:
    """Fill `figures` with every measured figure of one bench run, phase by phase (the command's
    docstring); the command adds the estimate from them."""
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
