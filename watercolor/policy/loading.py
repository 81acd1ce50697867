"""Load the policy: a hub id or local path, optionally with a fresh LoRA, or a saved adapter.

    >>> from watercolor.policy.loading import load_policy
    >>> model, tokenizer = load_policy("Qwen/Qwen3.5-35B-A3B", lora={"r": 16, "lora_alpha": 32})
    >>> model, tokenizer = load_policy("outputs/run-1/checkpoint-60")   # a saved LoRA adapter

Plain transformers and PEFT. Models are loaded with the class their config names
(`architectures`), not a generic auto class: an adapter trained on one class of a checkpoint
only fits that class. The anchor's caveat: for multimodal Qwen3.5, `AutoModelForCausalLM`
builds a text-only model whose modules are named differently from the
`...ForConditionalGeneration` model the adapter was trained on; PEFT then loads almost none of
the adapter's tensors and only warns. Here the load result is checked and a mismatch raises
`AdapterMismatch`.

Nothing here downloads by itself beyond what `from_pretrained` does for a hub id; pass
`local_files_only=True` (or set HF_HUB_OFFLINE=1) to stay offline.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import torch
import transformers
from peft import LoraConfig, PeftConfig, PeftModel, get_peft_model
from peft.tuners.lora import LoraLayer, ParamWrapper
from transformers import AutoConfig, AutoModelForCausalLM, AutoTokenizer, PreTrainedModel

ADAPTER_CONFIG = "adapter_config.json"


class AdapterMismatch(RuntimeError):
    """A saved adapter's tensors do not match the modules of the model it is loaded onto."""


def resolve_dtype(dtype: str | torch.dtype | None) -> str | torch.dtype:
    """None: bfloat16 on a GPU that supports it, else float32 (no bf16 on CPU); names -> dtypes."""
    if dtype is None:
        cuda_bf16 = torch.cuda.is_available() and torch.cuda.is_bf16_supported()
        return torch.bfloat16 if cuda_bf16 else torch.float32
    if isinstance(dtype, str) and dtype != "auto":  # "auto": the checkpoint's own dtype
        return getattr(torch, dtype)
    return dtype


def model_class(config: transformers.PretrainedConfig) -> type:
    """The transformers class the checkpoint was saved from; the causal-LM auto class otherwise."""
    for name in config.architectures or []:
        cls = getattr(transformers, name, None)
        if cls is not None:
            return cls
    return AutoModelForCausalLM  # remote-code or unknown architectures


def lora_config(lora: dict[str, Any]) -> LoraConfig:
    """A causal-LM LoRA config, all linear layers by default; `lora` keys are LoraConfig's."""
    return LoraConfig(**{"task_type": "CAUSAL_LM", "target_modules": "all-linear", **lora})


def lora_reach(model: PeftModel) -> dict[str, int]:
    """Where LoRA sits -> how many base weights it adapts there.

    Keys are module names, and `module.parameter` for a parameter reached by `target_parameters`
    (a fused MoE expert tensor in transformers 5, which no `target_modules` can name).
    """
    reach = {}
    for name, module in model.named_modules():
        if not isinstance(module, LoraLayer):
            continue
        name = name.replace(".base_layer", "")  # peft nests one wrapper per targeted parameter
        if isinstance(module, ParamWrapper):
            reach[f"{name}.{module.parameter_name}"] = module.get_param().numel()
        else:
            reach[name] = module.get_base_layer().weight.numel()
    return reach


def is_adapter(path: str | Path) -> bool:
    """True if `path` is a local directory holding a saved PEFT adapter."""
    return (Path(path) / ADAPTER_CONFIG).is_file()


def load_policy(
    name_or_path: str | Path,
    *,
    lora: dict[str, Any] | None = None,
    adapter: str | Path | None = None,
    adapter_trainable: bool = False,
    dtype: str | torch.dtype | None = None,
    device_map: str | dict | None = None,
    revision: str | None = None,
    local_files_only: bool = False,
    trust_remote_code: bool = False,
) -> tuple[PreTrainedModel | PeftModel, Any]:
    """(model, tokenizer) for a hub id or local path.

    `lora`: attach a fresh LoRA adapter (keys of `peft.LoraConfig`, e.g. r, lora_alpha).
    `adapter`: load a saved adapter onto the base (or pass the adapter directory itself as
    `name_or_path`: its config names the base). `adapter_trainable`: keep training it.
    """
    if is_adapter(name_or_path):
        adapter, name_or_path = (
            name_or_path,
            PeftConfig.from_pretrained(str(name_or_path)).base_model_name_or_path,
        )
    if lora is not None and adapter is not None:
        raise ValueError("pass either `lora` (a new adapter) or `adapter` (a saved one), not both")
    hub = {
        "revision": revision,
        "local_files_only": local_files_only,
        "trust_remote_code": trust_remote_code,
    }
    config = AutoConfig.from_pretrained(str(name_or_path), **hub)
    model = model_class(config).from_pretrained(
        str(name_or_path), config=config, dtype=resolve_dtype(dtype), device_map=device_map, **hub
    )
    has_own_tokenizer = adapter is not None and (Path(adapter) / "tokenizer_config.json").is_file()
    tokenizer = AutoTokenizer.from_pretrained(
        str(adapter if has_own_tokenizer else name_or_path), **hub
    )
    if adapter is not None:
        return attach_adapter(model, adapter, trainable=adapter_trainable), tokenizer
    if lora is not None:
        return get_peft_model(model, lora_config(lora)), tokenizer
    return model, tokenizer


def attach_adapter(
    model: PreTrainedModel, adapter: str | Path, trainable: bool = False
) -> PeftModel:
    """`model` with the saved adapter loaded; raises AdapterMismatch unless every tensor fits."""
    config = PeftConfig.from_pretrained(str(adapter))
    config.inference_mode = not trainable
    try:
        peft_model = get_peft_model(model, config)
    except ValueError as error:  # e.g. none of its target modules exist in this model
        raise AdapterMismatch(_mismatch_message(model, adapter, str(error))) from error
    result = peft_model.load_adapter(str(adapter), adapter_name="default", is_trainable=trainable)
    if result.missing_keys or result.unexpected_keys:
        detail = (
            f"{len(result.missing_keys)} adapter weights of the model are not in the file "
            f"(e.g. {result.missing_keys[:2]}), {len(result.unexpected_keys)} weights in the file "
            f"fit no module (e.g. {result.unexpected_keys[:2]})"
        )
        raise AdapterMismatch(_mismatch_message(model, adapter, detail))
    return peft_model


def _mismatch_message(model: PreTrainedModel, adapter: str | Path, detail: str) -> str:
    base = json.loads((Path(adapter) / ADAPTER_CONFIG).read_text()).get("base_model_name_or_path")
    return (
        f"adapter {adapter} does not fit {type(model).__name__} (base {base}): {detail}. "
        "An adapter only fits the model class it was trained on: a multimodal checkpoint "
        "loaded as a text-only causal LM (or the reverse) names its modules differently. "
        "Load the base with the class in its config's `architectures`."
    )
