"""The embedded tiny painter: a small Qwen3-architecture LM built offline from the corpus.

    >>> from watercolor.tasks.painting.painter.tiny import SMOKE, ensure_tiny_model
    >>> path = ensure_tiny_model(SMOKE, "outputs/cache")        # builds once (~1 min), then reuses
    >>> from transformers import AutoModelForCausalLM, AutoTokenizer
    >>> model = AutoModelForCausalLM.from_pretrained(path)     # the same path as a hub model

Or from a shell: `python -m watercolor.tasks.painting.painter.tiny [--smoke] [--cache-root DIR]`.

The build: generate the corpus (`watercolor.tasks.painting.painter.corpus`), train a byte-level BPE
tokenizer on it (HF `tokenizers`, wrapped as a transformers fast tokenizer with a ChatML chat
template), initialise a `Qwen3ForCausalLM` from a small `Qwen3Config`, warm-start it with TRL's
`SFTTrainer` on conversational prompt-completion records (loss on the reply only), and
`save_pretrained` model and tokenizer. Nothing is downloaded.

The tokenizer, model, warm start and cache are every task's (`watercolor.policy.builder`, whose
tokenizer keeps a line such as `  brush.vertex(-12, 35);` to five tokens: replies average ~270
tokens, which keeps SFT and GRPO generation on a CPU short).

Where the build lives and what `build.json` records, and what the cache name covers ("Cache
names"): the comments at `ensure_tiny_model` and `config_hash`.
"""

from __future__ import annotations

import argparse
import json
import random
import tempfile
import time
from dataclasses import asdict, dataclass, field, replace
from importlib.metadata import version
from pathlib import Path

from watercolor.policy.builder import (
    BUILD_INFO,
    build_once,
    digest,
    new_model,
    read_build_info,
    record_text,
    records_digest,
    train_tokenizer,
    warm_start,
)
from watercolor.tasks.painting.painter.corpus import Mixture, conversation, generate_corpus
from watercolor.tasks.painting.prompts import SYSTEM_PROMPT
from watercolor.tasks.painting.prompts import prompts as task_prompts

DEFAULT_CACHE_ROOT = Path("outputs/cache")


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


# Cache names: a model is named by what it is made of, its config (every `TinyConfig` field) and the
# exact text of the SFT records it trains on (`training_records(config)`, the call the build makes;
# ~0.2 s for the default's 800), never by the source of the code. A change to the corpus's sketch
# writers or prompt list that changes a record renames it; a comment, a moved function or a reworded
# docstring does not. Not covered: the code that turns those records into weights (the tokenizer's
# splitting rules, the chat template, `warm_start`'s fixed settings, the model class) and the
# libraries and machine it runs on. A change there keeps the name: delete the cached directory to
# rebuild. Library versions are left out on purpose: like the CPU and the thread count, which also
# change the weights (docs/measured.md), they say where a model was built, not what from, and
# `build.json` records them. What identifies the weights is their fingerprint
# (`watercolor.analysis.provenance.weights_fingerprint`, the `weights` tag every run records); a
# study checks that, never the name.
def config_hash(config: TinyConfig) -> str:
    """12 hex digits naming the build by what it is made of: `config` and its SFT records'
    text (the comment above, "Cache names", says what this leaves out)."""
    return digest({**asdict(config), "records": records_digest(training_records(config))})


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


# --- build and cache ----------------------------------------------------------------------


def build_tiny_model(config: TinyConfig, out_dir: str | Path, progress: bool = True) -> dict:
    """Build the model and tokenizer into `out_dir` (no caching); returns the build info."""
    import torch  # only where a model is built: a typo at the command answers without it
    from transformers import set_seed

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


# The result lives in `<cache_root>/tiny-<hash>/`, built in a temporary directory and renamed into
# place, so a directory that exists is complete, and two processes building the same model at once
# both end up with one good copy. `build.json` beside the weights records the losses, wall time,
# thread count, library versions and the sha256 of the records it trained on.
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


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        prog="python -m watercolor.tasks.painting.painter.tiny",
        description="Build (or find) the embedded tiny painter.",
    )
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
