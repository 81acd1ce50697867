"""The embedded tiny painter: a small Qwen3-architecture LM built offline from the corpus.

    >>> from watercolor.policy.tiny import SMOKE, ensure_tiny_model
    >>> path = ensure_tiny_model(SMOKE, "outputs/cache")        # builds once (~1 min), then reuses
    >>> from transformers import AutoModelForCausalLM, AutoTokenizer
    >>> model = AutoModelForCausalLM.from_pretrained(path)     # the same path as a hub model

Or from a shell: `python -m watercolor.policy.tiny [--smoke] [--cache-root DIR]`.

The build: generate the corpus (`watercolor.policy.corpus`), train a byte-level BPE tokenizer
on it (HF `tokenizers`, wrapped as a transformers fast tokenizer with a ChatML chat template),
initialise a `Qwen3ForCausalLM` from a small `Qwen3Config`, warm-start it with TRL's
`SFTTrainer` on conversational prompt-completion records (loss on the reply only), and
`save_pretrained` model and tokenizer. Nothing is downloaded.

The result lives in `<cache_root>/tiny-<hash>/`, built in a temporary directory and renamed
into place, so a directory that exists is complete, and two processes building the same model
at once both end up with one good copy. `build.json` beside the weights records the losses,
wall time, thread count, library versions and the sha256 of the records it trained on.

Cache names: a model is named by what it is made of, its config (every `TinyConfig` field) and
the exact text of the SFT records it trains on (`training_records(config)`, the call the build
makes; ~0.2 s for the default's 800), never by the source of the code. A change to the corpus's
sketch writers or prompt list that changes a record renames it; a comment, a moved function or
a reworded docstring does not. Not covered: the code that turns those records into weights
(the tokenizer's splitting rules, the chat template, `warm_start`'s fixed settings, the model
class) and the libraries and machine it runs on. A change there keeps the name: delete the
cached directory to rebuild. Library versions are left out on purpose: like the CPU and the
thread count, which also change the weights (README, "Measured"), they say where a model was
built, not what from, and `build.json` records them. What identifies the weights is their
fingerprint (`watercolor.provenance.weights_fingerprint`, the `weights` tag every run records);
a study checks that, never the name.

The tokenizer splits text into lines, numbers and space-led words before BPE (instead of
GPT-2's punctuation split), so a line such as `  brush.vertex(-12, 35);` costs five tokens
(`  brush.vertex(-`, `12`, `, `, `35`, `);\\n`) rather than a dozen: replies average ~270
tokens, which keeps SFT and GRPO generation on a CPU short.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
import shutil
import tempfile
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, field, replace
from importlib.metadata import version
from pathlib import Path

import torch
from tokenizers import Regex, Tokenizer, decoders, models, pre_tokenizers, trainers
from transformers import PreTrainedTokenizerFast, Qwen3Config, Qwen3ForCausalLM, set_seed

from watercolor.cores import torch_threads
from watercolor.policy.corpus import Mixture, conversation, generate_corpus
from watercolor.tasks.painting.prompts import SYSTEM_PROMPT
from watercolor.tasks.painting.prompts import prompts as task_prompts

DEFAULT_CACHE_ROOT = Path("outputs/cache")
BUILD_INFO = "build.json"
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


@dataclass(frozen=True)
class TinyConfig:
    """Everything that decides the built model (all of it is hashed into the cache name)."""

    # corpus
    corpus_size: int = 800
    corpus_seed: int = 0
    mixture: Mixture = field(default_factory=Mixture)
    prompts: tuple[str, ...] | None = None  # None: the painting task's training prompts
    system_prompt: str | None = SYSTEM_PROMPT
    # Records that carry the system prompt. Training always sends it; at 0.25 the model passed
    # the gate on 31 % of replies with it and 41 % without (experiments/2026-11-30_three_rewards/).
    system_prompt_share: float = 0.6
    # tokenizer and model
    vocab_size: int = 2048
    hidden_size: int = 256
    intermediate_size: int = 768
    num_layers: int = 4
    num_heads: int = 4
    num_kv_heads: int = 2
    max_positions: int = 4096
    # supervised warm start (150 steps left the default at loss 1.04, writing no throws and
    # 77 % of replies that pass the gate)
    steps: int = 300
    batch_size: int = 8
    max_length: int = 1024  # tokens per training record (longer ones are truncated)
    learning_rate: float = 2e-3
    warmup_steps: int = 10
    seed: int = 0

    def __post_init__(self) -> None:
        # Accept what a config system hands over (a mapping, a list) as the hashable types.
        if not isinstance(self.mixture, Mixture):
            object.__setattr__(self, "mixture", Mixture(**dict(self.mixture)))
        if self.prompts is not None:
            object.__setattr__(self, "prompts", tuple(self.prompts))


DEFAULT = TinyConfig()
# Test scale: builds in well under a minute on 2 cores and still writes `brush.` code.
SMOKE = TinyConfig(
    corpus_size=160,
    system_prompt_share=0.25,  # 40 short steps learn the reply's skeleton better without it
    vocab_size=1024,
    hidden_size=128,
    intermediate_size=384,
    num_layers=2,
    num_heads=2,
    num_kv_heads=1,
    steps=40,
    learning_rate=3e-3,
    warmup_steps=4,
)


def config_hash(config: TinyConfig) -> str:
    """12 hex digits naming the build by what it is made of: `config` and its SFT records'
    text (the module docstring's "Cache names" says what this leaves out)."""
    return digest({**asdict(config), "records": records_digest(training_records(config))})


def records_digest(records: list[dict]) -> str:
    """The sha256 of `records` as canonical JSON: their exact text, in their order."""
    return hashlib.sha256(json.dumps(records, sort_keys=True).encode()).hexdigest()


def digest(payload: object) -> str:
    """12 hex digits of the sha256 of `payload` as canonical JSON."""
    return hashlib.sha256(json.dumps(payload, sort_keys=True).encode()).hexdigest()[:12]


def cache_dir(config: TinyConfig, cache_root: str | Path = DEFAULT_CACHE_ROOT) -> Path:
    return Path(cache_root) / f"tiny-{config_hash(config)}"


def _prompts(config: TinyConfig) -> list[str]:
    return list(config.prompts) if config.prompts is not None else task_prompts("train")


# --- corpus -> chat records ---------------------------------------------------------------


def training_records(config: TinyConfig, progress: bool = False) -> list[dict]:
    """The SFT dataset: conversational prompt-completion records of the corpus."""
    examples = generate_corpus(
        config.corpus_size,
        seed=config.corpus_seed,
        mixture=config.mixture,
        prompts=_prompts(config),
        progress=progress,
    )
    rng = random.Random(config.seed)
    records = []
    for example in examples:
        with_system = rng.random() < config.system_prompt_share
        records.append(conversation(example, config.system_prompt if with_system else None))
    return records


def record_text(record: dict) -> str:
    """A record's messages as one text (what the tokenizer is trained on)."""
    return "\n".join(message["content"] for message in record["prompt"] + record["completion"])


# --- tokenizer ----------------------------------------------------------------------------


def train_tokenizer(
    texts: list[str], vocab_size: int, progress: bool = False
) -> PreTrainedTokenizerFast:
    """A byte-level BPE tokenizer trained on `texts`, with ChatML special tokens and template."""
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


def new_model(config: TinyConfig, tokenizer: PreTrainedTokenizerFast) -> Qwen3ForCausalLM:
    """A randomly initialised Qwen3 causal LM sized by `config` (tied embeddings, float32)."""
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
    model, tokenizer, records: list[dict], config: TinyConfig, scratch: Path, progress: bool = False
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
        activation_checkpointing=False,  # TRL turns it on by default; 3M parameters need no saving
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


def build_tiny_model(config: TinyConfig, out_dir: str | Path, progress: bool = True) -> dict:
    """Build the model and tokenizer into `out_dir` (no caching); returns the build info."""
    start = time.perf_counter()
    out_dir = Path(out_dir)
    set_seed(config.seed)
    records = training_records(config, progress)
    tokenizer = train_tokenizer([record_text(r) for r in records], config.vocab_size, progress)
    model = new_model(config, tokenizer)
    with tempfile.TemporaryDirectory(prefix="tiny-sft-") as scratch:
        logs = warm_start(model, tokenizer, records, config, Path(scratch), progress)
    model.save_pretrained(out_dir)
    tokenizer.save_pretrained(out_dir)
    info = {
        "hash": config_hash(config),
        "records": records_digest(records),  # what it trained on (the name covers it too)
        "config": asdict(config),
        "parameters": sum(p.numel() for p in model.parameters()),
        "vocab_size": len(tokenizer),
        "losses": [{"step": row["step"], "loss": row["loss"]} for row in logs],
        "final_loss": logs[-1]["loss"] if logs else None,
        "wall_s": round(time.perf_counter() - start, 1),
        "threads": torch.get_num_threads(),
        "versions": {
            name: version(name) for name in ("torch", "transformers", "trl", "tokenizers")
        },
    }
    (out_dir / BUILD_INFO).write_text(json.dumps(info, indent=2))
    return info


def ensure_tiny_model(
    config: TinyConfig = DEFAULT,
    cache_root: str | Path = DEFAULT_CACHE_ROOT,
    *,
    threads: int | None = None,
    progress: bool = True,
) -> Path:
    """The directory of the built tiny model for `config`, building it on first use."""
    return build_once(
        cache_dir(config, cache_root), lambda out: build_tiny_model(config, out, progress), threads
    )


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


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description="Build (or find) the embedded tiny painter.")
    parser.add_argument("--smoke", action="store_true", help="the test-scale model (~1 min)")
    parser.add_argument("--cache-root", default=str(DEFAULT_CACHE_ROOT))
    parser.add_argument(
        "--threads",
        type=int,
        default=None,
        help="torch intra-op threads (default: cores not already busy)",
    )
    parser.add_argument("--steps", type=int, default=None, help="override the SFT steps")
    args = parser.parse_args(argv)
    config = SMOKE if args.smoke else DEFAULT
    if args.steps is not None:
        config = replace(config, steps=args.steps)
    path = ensure_tiny_model(config, args.cache_root, threads=args.threads)
    info = read_build_info(path)
    print(json.dumps({k: info[k] for k in ("hash", "parameters", "final_loss", "wall_s")}))
    print(path)


if __name__ == "__main__":
    main()
