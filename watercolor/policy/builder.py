"""How the embedded tiny painters are built: tokenizer, model, supervised warm start, cache.

    >>> from watercolor.policy.builder import train_tokenizer, new_model, warm_start, build_once
    >>> tokenizer = train_tokenizer([record_text(r) for r in records], vocab_size=2048)
    >>> model = new_model(config, tokenizer)       # a small Qwen3ForCausalLM sized by `config`
    >>> warm_start(model, tokenizer, records, config, scratch)   # TRL's SFTTrainer, reply loss
    >>> build_once(cache_root / f"<name>-{digest(...)}", build)  # built once, renamed into place

Every task's tiny painter is built with these from its own records (TRL's conversational
prompt-completion records): painting's (`watercolor.tasks.painting.painter.tiny`, its revising
painter and the recipe-architecture models) and SVG's (`watercolor.tasks.svg.painter`). A build's
`config` is any dataclass with the fields `new_model` and `warm_start` read (sizes; steps, batch
size, length, learning rate, warm-up, seed). Nothing is downloaded.

The tokenizer splits text into lines, numbers and space-led words before BPE (instead of
GPT-2's punctuation split), so a line such as `  brush.vertex(-12, 35);` costs five tokens
(`  brush.vertex(-`, `12`, `, `, `35`, `);\\n`) rather than a dozen: replies stay short, which
keeps SFT and GRPO generation on a CPU short. The chat template is ChatML as Qwen models use it,
without a thinking block, the assistant's reply in {% generation %} markers so TRL's
assistant-only loss works as well as prompt-completion.
"""

from __future__ import annotations

import hashlib
import json
import shutil
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

from watercolor.cores import torch_threads

if TYPE_CHECKING:
    from transformers import PreTrainedTokenizerFast, Qwen3ForCausalLM

BUILD_INFO = "build.json"


class BuildConfig(Protocol):
    """What `new_model` and `warm_start` read of a build's config (`TinyConfig`,
    `SvgPainterConfig`, ...)."""

    hidden_size: int
    intermediate_size: int
    num_layers: int
    num_heads: int
    num_kv_heads: int
    max_positions: int
    steps: int
    batch_size: int
    max_length: int
    learning_rate: float
    warmup_steps: int
    seed: int


PAD, IM_START, IM_END = "<|endoftext|>", "<|im_start|>", "<|im_end|>"


# ChatML, as Qwen models use it, without a thinking block. The assistant's reply sits inside
# {% generation %} markers so TRL's assistant-only loss works as well as prompt-completion.
CHAT_TEMPLATE = (
    "{%- for message in messages %}"
    "{%- if message['role'] == 'assistant' %}"
    "{{- '<|im_start|>assistant\\n' }}"
    "{%- generation %}{{- message['content'] + '<|im_end|>' }}{%- endgeneration %}"
    "{{- '\\n' }}"
    "{%- else %}"
    "{{- '<|im_start|>' + message['role'] + '\\n' + message['content'] + '<|im_end|>\\n' }}"
    "{%- endif %}"
    "{%- endfor %}"
    "{%- if add_generation_prompt %}{{- '<|im_start|>assistant\\n' }}{%- endif %}"
)


def digest(payload: object) -> str:
    """12 hex digits of the sha256 of `payload` as canonical JSON."""
    return hashlib.sha256(json.dumps(payload, sort_keys=True).encode()).hexdigest()[:12]


def sft_record(prompt: str, reply: str, system_prompt: str | None = None) -> dict[str, list[dict]]:
    """TRL's conversational prompt-completion record of one reply (with `system_prompt` if any)."""
    messages = [{"role": "system", "content": system_prompt}] if system_prompt else []
    messages.append({"role": "user", "content": prompt})
    return {"prompt": messages, "completion": [{"role": "assistant", "content": reply}]}


def records_digest(records: list[dict]) -> str:
    """The sha256 of `records` as canonical JSON: their exact text, in their order."""
    return hashlib.sha256(json.dumps(records, sort_keys=True).encode()).hexdigest()


def record_text(record: dict) -> str:
    """A record's messages as one text (what the tokenizer is trained on)."""
    return "\n".join(message["content"] for message in record["prompt"] + record["completion"])


# --- tokenizer ----------------------------------------------------------------------------


def train_tokenizer(
    texts: list[str], vocab_size: int, progress: bool = False
) -> PreTrainedTokenizerFast:
    """A byte-level BPE tokenizer trained on `texts`, with ChatML special tokens and template."""
    from tokenizers import Regex, Tokenizer, decoders, models, pre_tokenizers, trainers
    from transformers import PreTrainedTokenizerFast  # torch: only where a model is built

    tokenizer = Tokenizer(models.BPE())
    tokenizer.pre_tokenizer = pre_tokenizers.Sequence(
        [
            pre_tokenizers.Split(Regex(r"\n"), "merged_with_previous"),  # a line ends its tokens
            pre_tokenizers.Digits(individual_digits=False),  # numbers are tokens of their own
            pre_tokenizers.Split(Regex(r" +(?=\S)"), "merged_with_next"),  # words keep their space
            pre_tokenizers.ByteLevel(add_prefix_space=False, use_regex=False),
        ]
    )
    tokenizer.decoder = decoders.ByteLevel()
    trainer = trainers.BpeTrainer(
        vocab_size=vocab_size,
        special_tokens=[PAD, IM_START, IM_END],
        show_progress=progress,
        initial_alphabet=pre_tokenizers.ByteLevel.alphabet(),
    )
    tokenizer.train_from_iterator(texts, trainer)
    return PreTrainedTokenizerFast(
        tokenizer_object=tokenizer,
        eos_token=IM_END,
        pad_token=PAD,
        extra_special_tokens=[IM_START],
        chat_template=CHAT_TEMPLATE,
    )


# --- model --------------------------------------------------------------------------------


def new_model(config: BuildConfig, tokenizer: PreTrainedTokenizerFast) -> Qwen3ForCausalLM:
    """A randomly initialised Qwen3 causal LM sized by `config` (tied embeddings, float32)."""
    from transformers import Qwen3Config, Qwen3ForCausalLM

    model_config = Qwen3Config(
        vocab_size=len(tokenizer),
        hidden_size=config.hidden_size,
        intermediate_size=config.intermediate_size,
        num_hidden_layers=config.num_layers,
        num_attention_heads=config.num_heads,
        num_key_value_heads=config.num_kv_heads,
        head_dim=config.hidden_size // config.num_heads,
        max_position_embeddings=config.max_positions,
        max_window_layers=config.num_layers,
        tie_word_embeddings=True,
        pad_token_id=tokenizer.pad_token_id,
        eos_token_id=tokenizer.eos_token_id,
        bos_token_id=None,
    )
    model = Qwen3ForCausalLM(model_config)
    model.generation_config.eos_token_id = tokenizer.eos_token_id
    model.generation_config.pad_token_id = tokenizer.pad_token_id
    return model


def warm_start(
    model,
    tokenizer,
    records: list[dict],
    config: BuildConfig,
    scratch: Path,
    progress: bool = False,
) -> list[dict]:
    """Supervised fine-tuning with TRL on the reply tokens; returns the trainer's log rows."""
    from datasets import Dataset  # imported here: TRL takes seconds to import, a cache hit none
    from trl import SFTConfig, SFTTrainer

    args = SFTConfig(
        output_dir=str(scratch),
        max_steps=config.steps,
        per_device_train_batch_size=config.batch_size,
        learning_rate=config.learning_rate,
        lr_scheduler_type="cosine",
        warmup_steps=config.warmup_steps,
        weight_decay=0.01,
        max_length=config.max_length,
        completion_only_loss=True,
        activation_checkpointing=False,  # TRL turns it on by default; tiny painters need no saving
        bf16=False,
        fp16=False,
        logging_steps=max(1, config.steps // 20),
        save_strategy="no",
        report_to="none",
        seed=config.seed,
        train_sampling_strategy="group_by_length",  # batches of similar length: less padding
        dataloader_num_workers=0,
        dataloader_pin_memory=False,
        disable_tqdm=not progress,
    )
    trainer = SFTTrainer(
        model=model, args=args, train_dataset=Dataset.from_list(records), processing_class=tokenizer
    )
    trainer.train()
    return [row for row in trainer.state.log_history if "loss" in row]


# --- build and cache ----------------------------------------------------------------------


def build_once(target: Path, build: Callable[[Path], object], threads: int | None = None) -> Path:
    """`target`, after `build(scratch_dir)` filled it, unless a complete build is there already.

    Built in a temporary directory beside it and renamed into place, so a directory with its
    BUILD_INFO is complete, and two processes building the same model both end up with one.
    """
    if (target / BUILD_INFO).is_file():
        return target
    target.parent.mkdir(parents=True, exist_ok=True)
    scratch = Path(tempfile.mkdtemp(prefix=f".{target.name}.building-", dir=target.parent))
    scratch.chmod(0o755)  # mkdtemp makes it private; the cache is for everyone who can read it
    try:
        with torch_threads(threads):
            build(scratch)
        try:
            scratch.rename(target)
        except OSError:  # another process renamed the same build into place first
            if not (target / BUILD_INFO).is_file():
                raise
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    return target


def read_build_info(path: str | Path) -> dict:
    """The `build.json` of a built tiny model."""
    return json.loads((Path(path) / BUILD_INFO).read_text())
