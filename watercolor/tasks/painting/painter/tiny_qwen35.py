"""Tiny Qwen3.5 models of the real recipes' own classes, built offline, to run those recipes on CPU.

    >>> from watercolor.tasks.painting.painter.tiny_qwen35 import MOE, ensure_tiny_qwen35
    >>> path = ensure_tiny_qwen35(MOE, "outputs/cache")   # Qwen3_5MoeForConditionalGeneration
    $ python -m watercolor.train model=qwen3_5_35b_a3b model.name_or_path=<path> ...

Or from a shell (`--cache-root DIR` to build elsewhere):

    $ python -m watercolor.tasks.painting.painter.tiny_qwen35 [--size tiny|gpu] [--dense]

`model=qwen3_5_35b_a3b` and `model=qwen3_5_4b` load multimodal checkpoints
(`Qwen3_5MoeForConditionalGeneration`, `Qwen3_5ForConditionalGeneration`): a language model with
hybrid linear/full attention (and, for the MoE, fused 3-D expert weights) plus a vision tower.
Their real weights cannot be downloaded here, so this builds the same classes from the
transformers config classes (a `text_config` + `vision_config` composite, as the checkpoints'
config.json holds), shrunk to a few million parameters, and saves them as a hub snapshot would
be: config.json, safetensors, generation config and tokenizer with a chat template that has the
real one's `enable_thinking` switch. The recipe, its LoRA targets and the checked adapter
loader then run on exactly the module layout of the real checkpoints.

`--size gpu` (`GPU_MOE`, `GPU_DENSE`) builds the same classes at half a billion parameters, for a
GPU (do not build it on a CPU). Why the tokenizer and corpus are the tiny painter's, how bf16
mixed precision is switched on, the GPU size's shape and what the cache name covers: the comments
at `TinyQwen35Config`, `mixed_precision`, `GPU_PAINTER` and `config_hash`.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import tempfile
import time
from collections.abc import Iterator
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING

from watercolor.policy import builder
from watercolor.tasks.painting.painter import tiny
from watercolor.tasks.painting.painter.tiny import DEFAULT, SMOKE, TinyConfig

if TYPE_CHECKING:
    from transformers import PretrainedConfig, PreTrainedModel, PreTrainedTokenizerFast

BUILD_INFO = builder.BUILD_INFO  # build_once looks for it
THINK = ["<think>", "</think>"]  # plain added tokens, as in Qwen's tokenizer: decoded, not skipped
VISION = ["<|vision_start|>", "<|vision_end|>", "<|image_pad|>", "<|video_pad|>"]
MIXED_PRECISION = "ACCELERATE_MIXED_PRECISION"

# ChatML with the switch the recipes use: Qwen3.5 thinks by default (its generation prompt opens
# a <think> block); `enable_thinking=False` closes an empty block first, as the real template
# does. Not a copy of Qwen's template: no tools, images or stripping of past reasoning.
CHAT_TEMPLATE = (
    "{%- for message in messages %}"
    "{{- '<|im_start|>' + message['role'] + '\\n' + message['content'] + '<|im_end|>\\n' }}"
    "{%- endfor %}"
    "{%- if add_generation_prompt %}{{- '<|im_start|>assistant\\n' }}"
    "{%- if enable_thinking is defined and enable_thinking is false %}"
    "{{- '<think>\\n\\n</think>\\n\\n' }}"
    "{%- else %}{{- '<think>\\n' }}{%- endif %}"
    "{%- endif %}"
)


# The tokenizer and corpus are the tiny painter's (`watercolor.tasks.painting.painter.tiny`), and
# the model is warm-started on that corpus for a few dozen steps: a purely random model writes no
# code, every reply of a GRPO group then scores the same and the step has nothing to learn. The
# vision tower is kept (one tiny block) but never trained; no image processor is saved (text-only
# GRPO).
@dataclass(frozen=True)
class TinyQwen35Config:
    """Everything that decides the built model (all of it is hashed into the cache name)."""

    moe: bool = True  # Qwen3_5Moe (35B-A3B's class) or dense Qwen3_5 (4B's class)
    hidden_size: int = 128
    # Three linear-attention layers, then one full-attention layer: the real interval of 4.
    num_layers: int = 4
    num_heads: int = 4
    num_kv_heads: int = 1
    head_dim: int = 32
    linear_heads: int = 2  # key heads of the linear attention (value heads: twice as many)
    linear_head_dim: int = 32
    intermediate_size: int = 384  # dense MLP
    num_experts: int = 8
    experts_per_token: int = 2
    expert_size: int = 64  # each expert's and the shared expert's intermediate size
    vision_depth: int = 1
    vision_hidden_size: int = 32
    # The tiny painter's corpus, tokenizer and warm start (its model sizes are not used).
    painter: TinyConfig = field(default_factory=lambda: replace(SMOKE, steps=30))
    # accelerate's mixed precision for the warm start: "no" (float32) or "bf16" (autocast)
    mixed_precision: str = "no"
    seed: int = 0

    def __post_init__(self) -> None:
        if not isinstance(self.painter, TinyConfig):  # a mapping from a config system
            object.__setattr__(self, "painter", TinyConfig(**dict(self.painter)))


MOE = TinyQwen35Config(moe=True)
DENSE = TinyQwen35Config(moe=False)

# `--size gpu` (`GPU_MOE`, `GPU_DENSE`) builds a painter of the same classes at half a billion
# parameters, for a GPU: hidden 1024, 8 layers (3 linear-attention : 1 full-attention), 32 experts
# of which 4 route each token, warm-started in bf16 mixed precision on the default tiny painter's
# 800-record corpus. It is sized to warm-start in a few minutes on one H200; do not build it on a
# CPU.
#
# For a GPU: the default painter's corpus (800 records, ~430 tokens each) and tokenizer (2048
# asked, 1191 learnt). From scratch at 0.45B parameters: a learning rate of GPT-2-medium's order
# (the tiny painter's 2e-3 is for 3.45M parameters), batches of 16, 400 steps: 8 passes over a
# small, repetitive corpus. Not yet timed on a GPU; `--steps` overrides the steps.
GPU_PAINTER = replace(DEFAULT, steps=400, batch_size=16, learning_rate=4e-4, warmup_steps=20)
# 450.8M parameters at that tokenizer (100M active per token: 4 of 32 experts), 402.7M of them in
# the experts; GPU_DENSE: 136.0M. Counted on the meta device
# (tests/tasks/painting/painter/test_tiny_qwen35.py).
GPU_MOE = TinyQwen35Config(
    moe=True,
    hidden_size=1024,
    num_layers=8,
    num_heads=8,
    num_kv_heads=2,
    head_dim=128,
    linear_heads=4,
    linear_head_dim=128,
    intermediate_size=4096,
    num_experts=32,
    experts_per_token=4,
    expert_size=512,
    painter=GPU_PAINTER,
    mixed_precision="bf16",
)
GPU_DENSE = replace(GPU_MOE, moe=False)  # 0.14B


# Built into `<cache_root>/tiny-qwen35-<hash>/`, in a temporary directory renamed into place. The
# hash names the model by what it is made of, as the tiny painter's does
# (`watercolor.tasks.painting.painter.tiny`, "Cache names"): this config and the exact text of the
# records it warm-starts on, not the source of the code that builds it (the template and added
# tokens here, the model classes, the warm start); what identifies the weights is their fingerprint,
# which every run records.
def config_hash(config: TinyQwen35Config) -> str:
    """12 hex digits naming the build by what it is made of: this config and the text of the
    painter's records it trains its tokenizer and warm start on."""
    # The build adds `chat_template_kwargs` to each record: the same for all, so not hashed.
    records = builder.records_digest(tiny.training_records(config.painter))
    return builder.digest({**asdict(config), "records": records})


def cache_dir(config: TinyQwen35Config, cache_root: str | Path) -> Path:
    return Path(cache_root) / f"tiny-qwen35-{config_hash(config)}"


# --- tokenizer and model ------------------------------------------------------------------


def qwen35_tokenizer(texts: list[str], vocab_size: int) -> PreTrainedTokenizerFast:
    """The tiny painter's BPE tokenizer with Qwen3.5's thinking and vision tokens and template."""
    tokenizer = builder.train_tokenizer(texts, vocab_size)
    tokenizer.add_tokens(THINK)
    tokenizer.add_special_tokens({"additional_special_tokens": VISION})
    tokenizer.chat_template = CHAT_TEMPLATE
    return tokenizer


def text_config(config: TinyQwen35Config, tokenizer: PreTrainedTokenizerFast) -> dict:
    """The language model's config: the class defaults (the real checkpoints') where not shrunk."""
    sizes = {
        "vocab_size": len(tokenizer),
        "hidden_size": config.hidden_size,
        "num_hidden_layers": config.num_layers,
        "num_attention_heads": config.num_heads,
        "num_key_value_heads": config.num_kv_heads,
        "head_dim": config.head_dim,
        "linear_num_key_heads": config.linear_heads,
        "linear_num_value_heads": 2 * config.linear_heads,
        "linear_key_head_dim": config.linear_head_dim,
        "linear_value_head_dim": config.linear_head_dim,
        "max_position_embeddings": config.painter.max_positions,
        "pad_token_id": tokenizer.pad_token_id,
        "eos_token_id": tokenizer.eos_token_id,
    }
    if not config.moe:
        return sizes | {"intermediate_size": config.intermediate_size}
    return sizes | {
        "num_experts": config.num_experts,
        "num_experts_per_tok": config.experts_per_token,
        "moe_intermediate_size": config.expert_size,
        "shared_expert_intermediate_size": config.expert_size,
    }


def classes(moe: bool) -> tuple[type[PretrainedConfig], type[PreTrainedModel]]:
    """(config class, model class) of the 35B-A3B's (`moe`) or the dense 4B's checkpoints."""
    from transformers import (  # only where a model is built: a typo answers without them
        Qwen3_5Config,
        Qwen3_5ForConditionalGeneration,
        Qwen3_5MoeConfig,
        Qwen3_5MoeForConditionalGeneration,
    )

    if moe:
        return Qwen3_5MoeConfig, Qwen3_5MoeForConditionalGeneration
    return Qwen3_5Config, Qwen3_5ForConditionalGeneration


def model_config(config: TinyQwen35Config, tokenizer: PreTrainedTokenizerFast) -> PretrainedConfig:
    """The composite config (`text_config` + `vision_config`) the real checkpoints' class takes."""
    vision = {
        "depth": config.vision_depth,
        "hidden_size": config.vision_hidden_size,
        "intermediate_size": 2 * config.vision_hidden_size,
        "num_heads": 2,
        "out_hidden_size": config.hidden_size,
        "num_position_embeddings": 64,
    }
    ids = tokenizer.convert_tokens_to_ids(VISION)
    config_cls, model_cls = classes(config.moe)
    return config_cls(
        text_config=text_config(config, tokenizer),
        vision_config=vision,
        vision_start_token_id=ids[0],
        vision_end_token_id=ids[1],
        image_token_id=ids[2],
        video_token_id=ids[3],
        architectures=[model_cls.__name__],
    )


def new_model(config: TinyQwen35Config, tokenizer: PreTrainedTokenizerFast) -> PreTrainedModel:
    """A randomly initialised Qwen3.5 `...ForConditionalGeneration`, vision tower included."""
    model = classes(config.moe)[1](model_config(config, tokenizer))
    model.generation_config.eos_token_id = tokenizer.eos_token_id
    model.generation_config.pad_token_id = tokenizer.pad_token_id
    return model


# --- build and cache ----------------------------------------------------------------------


def message_text(record: dict) -> str:
    """A conversational record's text (what the tokenizer is trained on)."""
    return "\n".join(m["content"] for m in record["prompt"] + record["completion"])


# `mixed_precision="bf16"` runs `builder.warm_start` (which sets `bf16=False`) under accelerate's
# bf16 autocast, float32 master weights, by the variable `accelerate launch --mixed_precision bf16`
# sets: TrainingArguments reads ACCELERATE_MIXED_PRECISION when neither bf16 nor fp16 is set.
@contextlib.contextmanager
def mixed_precision(mode: str) -> Iterator[None]:
    """Trainers made inside take accelerate's mixed precision `mode` ("no", "bf16")."""
    before = os.environ.get(MIXED_PRECISION)
    os.environ[MIXED_PRECISION] = mode
    try:
        yield
    finally:
        if before is None:
            del os.environ[MIXED_PRECISION]
        else:
            os.environ[MIXED_PRECISION] = before


def build_tiny_qwen35(config: TinyQwen35Config, out_dir: str | Path, progress: bool = True) -> dict:
    """Build, warm-start and save the model and tokenizer into `out_dir`; returns the build info."""
    from transformers import set_seed

    start = time.perf_counter()
    set_seed(config.seed)
    records = tiny.training_records(config.painter, progress)
    for record in records:  # warm-start on prompts as the recipes render them: thinking off
        record["chat_template_kwargs"] = {"enable_thinking": False}
    texts = [message_text(r) for r in records]
    tokenizer = qwen35_tokenizer(texts, config.painter.vocab_size)
    model = new_model(config, tokenizer)
    with (
        tempfile.TemporaryDirectory(prefix="tiny-qwen35-sft-") as scratch,
        mixed_precision(config.mixed_precision),
    ):
        logs = builder.warm_start(
            model, tokenizer, records, config.painter, Path(scratch), progress
        )
    model.save_pretrained(out_dir)
    tokenizer.save_pretrained(out_dir)
    info = {
        "hash": config_hash(config),
        "class": type(model).__name__,
        "config": asdict(config),
        "parameters": sum(p.numel() for p in model.parameters()),
        "final_loss": logs[-1]["loss"] if logs else None,
        "losses": [{"step": row["step"], "loss": row["loss"]} for row in logs],
        "device": str(next(model.parameters()).device),  # where the trainer put it
        "wall_s": round(time.perf_counter() - start, 1),
    }
    (Path(out_dir) / BUILD_INFO).write_text(json.dumps(info, indent=2))
    return info


def ensure_tiny_qwen35(
    config: TinyQwen35Config = MOE,
    cache_root: str | Path = tiny.DEFAULT_CACHE_ROOT,
    *,
    threads: int | None = None,
    progress: bool = True,
) -> Path:
    """The directory of the built model for `config`, building it on first use."""
    return builder.build_once(
        cache_dir(config, cache_root), lambda out: build_tiny_qwen35(config, out, progress), threads
    )


def sized(size: str, dense: bool) -> TinyQwen35Config:
    """The config a command line names: `size` "tiny" (CPU) or "gpu", MoE unless `dense`."""
    moe_config, dense_config = (GPU_MOE, GPU_DENSE) if size == "gpu" else (MOE, DENSE)
    return dense_config if dense else moe_config


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        prog="python -m watercolor.tasks.painting.painter.tiny_qwen35",
        description="Build (or find) a tiny Qwen3.5 recipe model.",
    )
    parser.add_argument("--dense", action="store_true", help="Qwen3.5 dense (the 4B's class)")
    parser.add_argument(
        "--size", choices=["tiny", "gpu"], default="tiny", help="gpu: ~0.5B, for one GPU (bf16)"
    )
    parser.add_argument("--cache-root", default=str(tiny.DEFAULT_CACHE_ROOT))
    parser.add_argument("--steps", type=int, default=None, help="override the warm start's steps")
    args = parser.parse_args(argv)
    config = sized(args.size, args.dense)
    if args.steps is not None:
        config = replace(config, painter=replace(config.painter, steps=args.steps))
    path = ensure_tiny_qwen35(config, args.cache_root)
    info = json.loads((path / BUILD_INFO).read_text())
    shown = ("class", "parameters", "final_loss", "wall_s", "device")
    print(json.dumps({k: info.get(k) for k in shown}))
    print(path)


if __name__ == "__main__":
    main()
