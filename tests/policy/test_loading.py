"""Policy loading on the built tiny model: own class, LoRA, adapter round trip, mismatch guard."""

import pytest
import torch
from peft import PeftModel
from safetensors.torch import load_file, save_file
from transformers import AutoModelForCausalLM, Qwen3Config, Qwen3ForCausalLM

from watercolor.policy.loading import (
    AdapterMismatch,
    is_adapter,
    load_policy,
    model_class,
    resolve_dtype,
)

LORA = {"r": 4, "lora_alpha": 8}


def test_model_class_follows_the_config_architectures():
    assert model_class(Qwen3Config(architectures=["Qwen3ForCausalLM"])) is Qwen3ForCausalLM
    assert model_class(Qwen3Config(architectures=["SomeRemoteCodeModel"])) is AutoModelForCausalLM
    assert model_class(Qwen3Config()) is AutoModelForCausalLM


def test_dtype_defaults_to_float32_without_a_bf16_gpu():
    expected = (
        torch.bfloat16
        if torch.cuda.is_available() and torch.cuda.is_bf16_supported()
        else torch.float32
    )
    assert resolve_dtype(None) == expected
    assert resolve_dtype("bfloat16") == torch.bfloat16 and resolve_dtype("auto") == "auto"


def logits(model, tokenizer):
    inputs = tokenizer("  brush.fill(", return_tensors="pt")
    with torch.no_grad():
        return model(**inputs).logits


@pytest.mark.slow
def test_plain_load_uses_the_checkpoint_class(smoke_model):
    model, tokenizer = load_policy(smoke_model, local_files_only=True)
    assert type(model) is Qwen3ForCausalLM and model.dtype == torch.float32
    assert tokenizer.chat_template and tokenizer.eos_token == "<|im_end|>"


@pytest.mark.slow
def test_lora_adapter_round_trip_gives_identical_outputs(smoke_model, tmp_path):
    model, tokenizer = load_policy(smoke_model, lora=LORA, local_files_only=True)
    assert isinstance(model, PeftModel)
    trainable = [name for name, p in model.named_parameters() if p.requires_grad]
    assert trainable and all("lora_" in name for name in trainable)
    torch.manual_seed(0)
    with torch.no_grad():  # LoRA starts as a no-op (B = 0); give it weights worth saving
        for name, p in model.named_parameters():
            if "lora_B" in name:
                p.normal_(std=0.05)
    expected = logits(model, tokenizer)
    model.save_pretrained(tmp_path / "adapter")
    assert is_adapter(tmp_path / "adapter")

    reloaded, tokenizer = load_policy(tmp_path / "adapter", local_files_only=True)
    assert isinstance(reloaded, PeftModel) and type(reloaded.get_base_model()) is Qwen3ForCausalLM
    assert torch.equal(logits(reloaded, tokenizer), expected)
    base, _ = load_policy(smoke_model, local_files_only=True)
    assert not torch.allclose(logits(base, tokenizer), expected)  # the adapter does change outputs


@pytest.mark.slow
def test_an_adapter_for_another_model_class_is_refused(smoke_model, tmp_path):
    model, _ = load_policy(smoke_model, lora=LORA, local_files_only=True)
    adapter = tmp_path / "adapter"
    model.save_pretrained(adapter)
    # What a multimodal model's adapter looks like to a text-only class: other module paths.
    weights = load_file(adapter / "adapter_model.safetensors")
    renamed = {
        k.replace("model.layers.", "model.language_model.layers."): v for k, v in weights.items()
    }
    save_file(renamed, adapter / "adapter_model.safetensors")
    with pytest.raises(AdapterMismatch, match="does not fit Qwen3ForCausalLM"):
        load_policy(adapter, local_files_only=True)


@pytest.mark.slow
def test_new_lora_and_saved_adapter_are_exclusive(smoke_model, tmp_path):
    model, _ = load_policy(smoke_model, lora=LORA, local_files_only=True)
    model.save_pretrained(tmp_path / "adapter")
    with pytest.raises(ValueError, match="not both"):
        load_policy(smoke_model, lora=LORA, adapter=tmp_path / "adapter", local_files_only=True)
