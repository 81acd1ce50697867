"""The SVG task's embedded tiny painter: built offline from its corpus, like painting's.

    >>> from watercolor.tasks.svg.painter import SMOKE, ensure_painter
    >>> path = ensure_painter(SMOKE, "outputs/cache")   # builds once (~1 min), then reuses

conf/model/svg_tiny.yaml and svg_smoke.yaml name it (`task=svg` picks the first, `debug=smoke`
the second). The build is every task's builder (`watercolor.policy.builder`: byte-level BPE
tokenizer, a small `Qwen3ForCausalLM`, TRL's `SFTTrainer` on the reply tokens, built in a
scratch directory and renamed into place) fed this task's records: conversational
prompt-completion records of `watercolor.tasks.svg.corpus`. The cache name `svg-tiny-<hash>`
covers the config (every field) and the records' exact text, never source bytes, as painting's
does; what identifies the weights is their fingerprint (`watercolor.analysis.provenance`), which
every run records.
"""

from __future__ import annotations

import json
import random
import tempfile
import time
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path

import torch
from transformers import set_seed

from watercolor.policy.builder import (
    BUILD_INFO,
    build_once,
    digest,
    new_model,
    record_text,
    records_digest,
    sft_record,
    train_tokenizer,
    warm_start,
)
from watercolor.tasks.svg.corpus import Mixture, generate_corpus
from watercolor.tasks.svg.prompts import SYSTEM_PROMPT, prompts


@dataclass(frozen=True)
class SvgPainterConfig:
    """Everything that decides the built model (all of it is hashed into the cache name)."""

    corpus_size: int = 800
    corpus_seed: int = 0
    mixture: Mixture = field(default_factory=Mixture)
    system_prompt_share: float = 0.5
    # painting's default sizes (watercolor.tasks.painting.painter.tiny.TinyConfig); 3.67M parameters
    # as the SVG study built it, not painting's 3.45M: its tokenizer learns more of the 2048 asked
    # (painting's learns 1191)
    vocab_size: int = 2048
    hidden_size: int = 256
    intermediate_size: int = 768
    num_layers: int = 4
    num_heads: int = 4
    num_kv_heads: int = 2
    max_positions: int = 2048
    steps: int = 400
    batch_size: int = 8
    max_length: int = 768
    learning_rate: float = 2e-3
    warmup_steps: int = 10
    seed: int = 0

    def __post_init__(self) -> None:
        if not isinstance(self.mixture, Mixture):  # a mapping from the config system
            object.__setattr__(self, "mixture", Mixture(**dict(self.mixture)))


DEFAULT = SvgPainterConfig()
# Test scale: builds in ~20 s on 2 cores; 15 of 16 of its held-out replies pass the gate (at 40
# steps none did: a smoke comparison of reward sets then compares refusals).
SMOKE = replace(
    DEFAULT,
    corpus_size=160,
    vocab_size=1024,
    hidden_size=128,
    intermediate_size=384,
    num_layers=2,
    num_heads=2,
    num_kv_heads=1,
    steps=150,
    learning_rate=3e-3,
)


def training_records(config: SvgPainterConfig) -> list[dict]:
    """The SFT dataset: conversational prompt-completion records of the corpus."""
    examples = generate_corpus(config.corpus_size, config.corpus_seed, config.mixture, prompts())
    rng = random.Random(config.seed)
    records = []
    for example in examples:
        with_system = rng.random() < config.system_prompt_share
        records.append(
            sft_record(example.prompt, example.reply, SYSTEM_PROMPT if with_system else None)
        )
    return records


def config_hash(config: SvgPainterConfig) -> str:
    """12 hex digits naming the build by its config and its records' text."""
    return digest({**asdict(config), "records": records_digest(training_records(config))})


def cache_dir(config: SvgPainterConfig, cache_root: str | Path = "outputs/cache") -> Path:
    """Where the painter of `config` is built: `svg-tiny-<config_hash>` under `cache_root`."""
    return Path(cache_root) / f"svg-tiny-{config_hash(config)}"


def build(config: SvgPainterConfig, out_dir: Path, progress: bool = True) -> dict:
    """Build the model and tokenizer into `out_dir`; returns (and writes) the build info."""
    start = time.perf_counter()
    set_seed(config.seed)
    records = training_records(config)
    tokenizer = train_tokenizer([record_text(r) for r in records], config.vocab_size, progress)
    model = new_model(config, tokenizer)
    with tempfile.TemporaryDirectory(prefix="svg-tiny-sft-") as scratch:
        logs = warm_start(model, tokenizer, records, config, Path(scratch), progress)
    model.save_pretrained(out_dir)
    tokenizer.save_pretrained(out_dir)
    info = {
        "hash": config_hash(config),
        "records": records_digest(records),
        "config": asdict(config),
        "parameters": sum(p.numel() for p in model.parameters()),
        "losses": [{"step": row["step"], "loss": row["loss"]} for row in logs],
        "final_loss": logs[-1]["loss"] if logs else None,
        "wall_s": round(time.perf_counter() - start, 1),
        "threads": torch.get_num_threads(),
    }
    (out_dir / BUILD_INFO).write_text(json.dumps(info, indent=2))
    return info


def ensure_painter(
    config: SvgPainterConfig = DEFAULT,
    cache_root: str | Path = "outputs/cache",
    *,
    threads: int | None = None,
    progress: bool = True,
) -> Path:
    """The directory of the built painter for `config`, building it on first use."""
    target = cache_dir(config, cache_root)
    return build_once(target, lambda out: build(config, out, progress), threads)
