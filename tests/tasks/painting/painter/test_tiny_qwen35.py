"""The GPU-size painter of the 35B-A3B's class (`tiny_qwen35.GPU_MOE`), checked on a CPU.

Fast: its size and layout, counted on the meta device (no weights), its corpus, and the switch
that runs `builder.warm_start` in bf16. Slow: its build path (bf16 autocast warm start, save,
load with the recipe's loader) at the smoke sizes; the GPU size itself is built only on a GPU.
"""

from __future__ import annotations

from dataclasses import replace

import pytest
import torch
from transformers import Qwen3_5ForConditionalGeneration, Qwen3_5MoeForConditionalGeneration

from watercolor.policy.loading import load_policy
from watercolor.tasks.painting.painter import tiny, tiny_qwen35
from watercolor.tasks.painting.painter.tiny_qwen35 import (
    GPU_DENSE,
    GPU_MOE,
    MOE,
    build_tiny_qwen35,
    mixed_precision,
    new_model,
    qwen35_tokenizer,
    sized,
)

# Of the corpus, tokenizer and warm start, what the GPU painter must share with the default.
CORPUS_FIELDS = ("corpus_size", "corpus_seed", "mixture", "prompts", "system_prompt",
                 "system_prompt_share", "vocab_size", "max_length")  # fmt: skip


def meta_model(config):
    """The model `config` builds, without memory: every weight on the meta device."""
    tokenizer = qwen35_tokenizer(["function setup() { brush.fill('#e8665a', 150); }"] * 4, 300)
    with torch.device("meta"):
        return new_model(config, tokenizer)


@pytest.mark.parametrize(
    ("config", "low", "high"), [(GPU_MOE, 0.4e9, 0.5e9), (GPU_DENSE, 0.1e9, 0.2e9)]
)
def test_gpu_painter_has_hundreds_of_millions_of_parameters(config, low, high):
    # The tokenizer here has ~300 tokens, not 2054: 1.8M fewer embedding and output weights.
    model = meta_model(config)
    assert low < sum(p.numel() for p in model.parameters()) < high


def test_gpu_painter_keeps_the_real_layout():
    text = meta_model(GPU_MOE).config.text_config
    assert isinstance(meta_model(GPU_MOE), Qwen3_5MoeForConditionalGeneration)
    assert text.layer_types == ["linear_attention"] * 3 + ["full_attention"] + (
        ["linear_attention"] * 3 + ["full_attention"]
    )
    assert (text.num_experts, text.num_experts_per_tok, text.hidden_size) == (32, 4, 1024)


def test_gpu_painter_warm_starts_on_the_default_corpus():
    for name in CORPUS_FIELDS:
        assert getattr(GPU_MOE.painter, name) == getattr(tiny.DEFAULT, name), name
    assert GPU_MOE.mixed_precision == "bf16" and MOE.mixed_precision == "no"


@pytest.mark.parametrize("dense", [False, True])
def test_the_command_lines_size_and_class_are_what_gets_built(dense):
    tiny_model, gpu_model = (meta_model(sized(size, dense)) for size in ("tiny", "gpu"))
    built = Qwen3_5ForConditionalGeneration if dense else Qwen3_5MoeForConditionalGeneration
    assert type(tiny_model) is type(gpu_model) is built  # --dense: the 4B's class, else the MoE
    parameters = [sum(p.numel() for p in m.parameters()) for m in (tiny_model, gpu_model)]
    assert parameters[1] > 10 * parameters[0]  # --size gpu: hundreds of millions, not a CPU's


def test_mixed_precision_reaches_the_trainer_arguments(tmp_path, monkeypatch):
    from trl import SFTConfig

    monkeypatch.delenv(tiny_qwen35.MIXED_PRECISION, raising=False)
    with mixed_precision("bf16"):  # what builder.warm_start builds, bf16=False and all
        assert SFTConfig(output_dir=str(tmp_path), bf16=False).mixed_precision == "bf16"
    assert SFTConfig(output_dir=str(tmp_path), bf16=False).mixed_precision == "no"


@pytest.mark.slow
def test_gpu_build_path_at_smoke_size_warm_starts_and_loads(tmp_path):
    config = replace(MOE, mixed_precision="bf16", painter=replace(tiny.SMOKE, steps=6))
    info = build_tiny_qwen35(config, tmp_path, progress=False)
    assert info["class"] == "Qwen3_5MoeForConditionalGeneration"
    assert info["final_loss"] is not None and len(info["losses"]) == 6
    assert info["losses"][-1]["loss"] < info["losses"][0]["loss"]
    model, tokenizer = load_policy(tmp_path, dtype="float32", local_files_only=True)
    assert isinstance(model, Qwen3_5MoeForConditionalGeneration)
    assert len(tokenizer) == model.config.text_config.vocab_size
